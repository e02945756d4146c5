"""The situation/case loader: the format page's example loads; every kind of bad input is a
located, one-line InputError (file, line, field path, "expected ...")."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aslrules.errors import InputError
from aslrules.loader import (
    MAX_NODES, load_file, load_text, parse_counter, parse_hex, parse_location,
)
from aslrules.core import build_facts
from aslrules.facts import iter_symbols
from aslrules.model import Situation

DATA = Path(__file__).parent / "data"

# A small valid case.  Tests change one thing in it and expect one located error.
BASE = """\
title: base case
phase: MPh
attacker: russian
units:
  - id: g-467
    side: german
    type: squad
    counter: 4-6-7
    hex: X2
    weapons:
      - {id: g-lmg, kind: LMG, fp: 3, range: 8, rof: 3, breakdown: 11}
  - id: r-628
    side: russian
    type: squad
    counter: 6-2-8
    hex: W2
    moving: {from: V2, mf_here: 1}
  - id: g-81
    side: german
    type: leader
    counter: 8-1
    hex: X2
expect:
  - attack: {option: first_fire, firers: [g-467, g-lmg], director: g-81, targets: [r-628]}
    verdict: allowed
"""


def write(tmp_path: Path, text: str, name: str = "case.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def change(old: str, new: str, text: str = BASE) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def line_of(text: str, marker: str) -> int:
    """1-based line where the first occurrence of `marker` starts."""
    return text[:text.index(marker)].count("\n") + 1


def load_error(tmp_path: Path, text: str) -> tuple[InputError, Path]:
    path = write(tmp_path, text)
    with pytest.raises(InputError) as caught:
        load_file(path)
    return caught.value, path


def assert_located(error: InputError, path: Path, line: int | None, field_path: str) -> str:
    message = str(error)
    assert "\n" not in message
    assert str(path) in message
    if line is None:
        assert error.line is None
        assert message.startswith(f"{path}: ")
    else:
        assert error.line == line, message
        assert f"{path}:{line}:" in message
    assert f": {field_path}: " in message, message
    assert "expected" in message
    return message


def check(tmp_path: Path, text: str, marker: str, field_path: str) -> str:
    """Load `text`, expect an error at the line holding `marker`, at `field_path`."""
    error, path = load_error(tmp_path, text)
    return assert_located(error, path, line_of(text, marker), field_path)


# --------------------------------------------------------------------------- happy paths


def test_base_case_loads(tmp_path: Path) -> None:
    situation = load_file(write(tmp_path, BASE))
    assert isinstance(situation, Situation)
    assert [unit.id for unit in situation.units] == ["g-467", "r-628", "g-81"]


def test_format_page_example_loads_with_its_values() -> None:
    situation = load_file(DATA / "format_page_example.yaml")
    assert situation.title == "Berserk Russians charge 1X2"
    assert situation.source == "A8.41 EX"
    assert situation.phase == "MPh" and situation.attacker == "russian"
    units = {unit.id: unit for unit in situation.units}
    leader = parse_counter(units["g-81"].counter, "leader")
    assert (leader.morale, leader.leadership) == (8, -1)
    squad = units["g-467"]
    counter = parse_counter(squad.counter, squad.type)
    assert (counter.fp, counter.range, counter.morale) == (4, 6, 7)
    assert squad.fire == "first_fire" and squad.status == ["berserk"]
    lmg = squad.weapons[0]
    assert (lmg.id, lmg.kind, lmg.fp, lmg.rof, lmg.breakdown) == ("g-lmg", "LMG", 3, 3, 11)
    moving = units["r-628"].moving
    assert moving is not None and moving.mf_here == 2 and moving.frm == "W2"
    residual = units["r-628"].attacked_here[1]
    assert (residual.option, residual.fp, residual.at_mf) == ("residual_fp", 2, 1)
    assert units["g-81"].directed == ["g-467", "g-lmg"]
    assert {loc: terrain.tem for loc, terrain in situation.locations.items()} == {"X2": 3, "W2": 0, "T7": 1}
    assert [los.to_hexside is not None for los in situation.lines_of_sight] == [False, False, False, True]

    first, mixed, residual_attack = situation.expect
    assert first.kind == "attack" and first.verdict == "mandatory"
    assert first.answers["fp"] == Fraction(21, 2) and first.answers["breakdown"] == {"g-lmg": 9}
    assert first.question.dice is not None and first.question.dice.original == 7
    assert first.question.hexside is not None
    assert first.question.hexside == ["H7", "I7"]
    assert first.given == {"verdict", "because", "fp", "ift_column", "drm", "breakdown", "leader_direction",
                           "residual_fp", "after", "fpf_nmc_dr", "firer_status"}
    assert mixed.question.option == {"g-467": "subsequent_first_fire", "g-lmg": "first_fire"}
    assert mixed.given == {"verdict"}
    assert residual_attack.question.option == "residual_fp" and residual_attack.question.firers == []


def test_title_with_program_text_loads_as_plain_text() -> None:
    title = 'x"). #false. y("'
    situation = load_text(change("title: base case", "title: 'x\"). #false. y(\"'"))
    assert situation.title == title


def test_fractional_firepower_is_exact() -> None:
    situation = load_text(change("fp: 3,", "fp: 1.5,"))
    assert situation.units[0].weapons[0].fp == Fraction(3, 2)


def test_single_board_prefix_applies_to_unprefixed_hexes() -> None:
    situation = load_text(change("hex: W2", "hex: 1W2"))
    assert situation.board == "1"  # unprefixed ids stand for hexes of board 1
    assert {unit.hex for unit in situation.units} == {"X2", "1W2"}
    facts = {str(f) for f in iter_symbols(build_facts(situation))}
    assert {'unit_at("g-467","1X2")', 'unit_at("r-628","1W2")', 'moved_from("r-628","1V2")'} <= facts


def test_vehicle_and_gun_need_no_counter() -> None:
    text = change("expect:\n", "  - {id: g-pz, side: german, type: vehicle, hex: Y3}\n"
                  "  - {id: g-at, side: german, type: gun, counter: 37L, hex: Y4}\nexpect:\n")
    situation = load_text(text)
    assert [unit.counter for unit in situation.units[3:]] == [None, "37L"]


def test_locations_levels_and_project_additions_load() -> None:
    text = BASE + "locations:\n  X2@1: {terrain: stone building, tem: 3}\n  X2@-1: {terrain: cellar}\n"
    text = change("moving: {from: V2, mf_here: 1}", "moving: {from: V2, mf_here: 1, activities: [enter]}", text)
    text = change("targets: [r-628]}", "targets: [r-628], at: W2}", text)
    situation = load_text(text + "readings: {a7353: restrictive}\n")
    assert sorted(situation.locations) == ["X2@-1", "X2@1"]
    assert situation.readings["a7353"] == "restrictive" and situation.readings["residual_half"] == "highest_column"
    assert situation.units[1].moving is not None and situation.units[1].moving.activities == ["enter"]
    assert situation.expect[0].question.at == "W2"


# --------------------------------------------------------------------------- parsers


def test_parse_hex_accepts_grid_hexes_and_board_prefixes() -> None:
    assert parse_hex("X2").col == 23 and parse_hex("X2").row == 2
    assert parse_hex("B0").row == 0 and parse_hex("GG10").col == 32
    assert parse_hex("AA5").col == 26
    assert parse_hex("1X2").board == "1" and parse_hex("1X2").name == "1X2"


@pytest.mark.parametrize("text", ["A0", "HH3", "B11", "A11", "AB3", "x2", "a1X2", "X", "X02", ""])
def test_parse_hex_rejects_off_grid_and_malformed_ids(text: str) -> None:
    with pytest.raises(ValueError, match="hex"):
        parse_hex(text)


def test_parse_location_reads_levels() -> None:
    assert parse_location("X2").level == 0
    assert parse_location("X2@1").name == "X2@1"
    assert parse_location("3R6@2").hex.board == "3"
    assert parse_location("X2@-1").level == -1
    for bad in ("X2@10", "X2@", "X2@1@2", "X2@-2"):
        with pytest.raises(ValueError):
            parse_location(bad)


def test_parse_counter_reads_mmc_and_leader_counters() -> None:
    assert parse_counter("4-6-7", "squad").fp == 4
    assert parse_counter("1-4-9", "hero").morale == 9
    assert parse_counter("8-1", "leader").leadership == -1
    assert parse_counter("7-0", "leader").leadership == 0
    assert parse_counter("6+1", "leader").leadership == 1
    assert parse_counter("10-3", "leader").morale == 10
    for text, unit_type in (("4-six-7", "squad"), ("8-1", "squad"), ("4-6-7", "leader"), ("0-6-7", "crew")):
        with pytest.raises(ValueError, match="counter"):
            parse_counter(text, unit_type)


@pytest.mark.parametrize(("a", "b", "distance"), [
    ("A1", "B0", 1), ("A1", "B1", 1), ("B1", "A1", 1), ("B1", "A2", 1), ("W2", "X1", 1),
    ("W2", "X2", 1), ("X2", "W3", 1), ("H7", "G7", 1), ("H7", "G8", 1), ("H7", "I7", 1),
    ("H7", "I8", 1), ("T9", "T7", 2), ("K2", "G7", 7), ("A1", "A2", 1), ("A1", "B2", 2),
])
def test_grid_distance_matches_the_format_page(a: str, b: str, distance: int) -> None:
    from aslrules.core import hex_range

    assert hex_range(a, b) == distance


# --------------------------------------------------------------------------- unknown keys


def test_unknown_top_level_key(tmp_path: Path) -> None:
    message = check(tmp_path, BASE + "colour: red\n", "colour", "colour")
    assert "one of the keys" in message


def test_unknown_key_in_unit(tmp_path: Path) -> None:
    text = change("    counter: 6-2-8\n", "    counter: 6-2-8\n    colour: red\n")
    check(tmp_path, text, "colour", "units[1].colour")


def test_unknown_key_in_weapon(tmp_path: Path) -> None:
    check(tmp_path, change("breakdown: 11}", "breakdown: 11, colour: red}"), "colour", "units[0].weapons[0].colour")


def test_unknown_key_in_expect_item(tmp_path: Path) -> None:
    check(tmp_path, BASE + "    colour: red\n", "colour", "expect[0].colour")


def test_unknown_key_in_attack_question(tmp_path: Path) -> None:
    check(tmp_path, change("targets: [r-628]}", "targets: [r-628], colour: red}"), "colour",
          "expect[0].attack.colour")


def test_unknown_reading(tmp_path: Path) -> None:
    check(tmp_path, BASE + "readings: {a9999: permissive}\n", "a9999", "readings.a9999")


# --------------------------------------------------------------------------- wrong types and values


@pytest.mark.parametrize(("old", "new", "marker", "field_path"), [
    ("rof: 3,", "rof: three,", "three", "units[0].weapons[0].rof"),
    ("rof: 3,", "rof: 7,", "rof: 7", "units[0].weapons[0].rof"),
    ("fp: 3,", "fp: '3',", "fp: '3'", "units[0].weapons[0].fp"),
    ("fp: 3,", "fp: -1,", "fp: -1", "units[0].weapons[0].fp"),
    ("fp: 3,", "fp: .inf,", "fp: .inf", "units[0].weapons[0].fp"),
    ("breakdown: 11}", "breakdown: 13}", "breakdown: 13", "units[0].weapons[0].breakdown"),
    ("kind: LMG", "kind: lmg", "kind: lmg", "units[0].weapons[0].kind"),
    ("    hex: W2\n", "    hex: W2\n    known: 1\n", "known: 1", "units[1].known"),
    ("    hex: W2\n", "    hex: W2\n    level: high\n", "level: high", "units[1].level"),
    ("    hex: W2\n", "    hex: W2\n    status: pinned\n", "status: pinned", "units[1].status"),
    ("    hex: W2\n", "    hex: W2\n    status: [pinned, pinned]\n", "status: [pinned", "units[1].status[1]"),
    ("    hex: W2\n", "    hex: W2\n    fire: fired\n", "fire: fired", "units[1].fire"),
    ("type: leader", "type: general", "type: general", "units[2].type"),
    ("mf_here: 1}", "mf_here: lots}", "mf_here: lots", "units[1].moving.mf_here"),
    ("verdict: allowed", "verdict: maybe", "verdict: maybe", "expect[0].verdict"),
    ("option: first_fire", "option: opportunity_fire", "opportunity", "expect[0].attack.option"),
    ("verdict: allowed", "verdict: allowed\n    because: A8.1", "because:", "expect[0].because"),
    ("verdict: allowed", "verdict: allowed\nlines_of_sight: 5", "lines_of_sight: 5", "lines_of_sight"),
    ("title: base case", "title: [a, b]", "title: [a", "title"),
    ("attacker: russian", "attacker: ~", "attacker: ~", "attacker"),
])
def test_wrong_type_or_value(tmp_path: Path, old: str, new: str, marker: str, field_path: str) -> None:
    check(tmp_path, change(old, new), marker, field_path)


def test_missing_required_field_cites_the_mapping(tmp_path: Path) -> None:
    text = change("    side: russian\n", "")
    message = check(tmp_path, text, "- id: r-628", "units[1].side")
    assert "required" in message


def test_missing_counter_on_squad(tmp_path: Path) -> None:
    check(tmp_path, change("    counter: 6-2-8\n", ""), "- id: r-628", "units[1].counter")


def test_unparsable_counter(tmp_path: Path) -> None:
    message = check(tmp_path, change("counter: 4-6-7", "counter: 4-six-7"), "4-six-7", "units[0].counter")
    assert "4-6-7 (FP-range-morale)" in message and "'4-six-7'" in message


def test_leader_counter_on_a_squad(tmp_path: Path) -> None:
    check(tmp_path, change("counter: 4-6-7", "counter: 8-1"), "counter: 8-1", "units[0].counter")


def test_unknown_phase(tmp_path: Path) -> None:
    message = check(tmp_path, change("phase: MPh", "phase: Movement"), "phase:", "phase")
    assert "MPh" in message and "'Movement'" in message


def test_unknown_format_marker(tmp_path: Path) -> None:
    check(tmp_path, "format: aslrules/2\n" + BASE, "format:", "format")


def test_dice_that_do_not_add_up(tmp_path: Path) -> None:
    text = change("targets: [r-628]}", "targets: [r-628], dice: {original: 12, colored: 1}}")
    check(tmp_path, text, "dice:", "expect[0].attack.dice")


def test_attack_without_firers_that_is_not_residual(tmp_path: Path) -> None:
    check(tmp_path, change("firers: [g-467, g-lmg]", "firers: []"), "firers: []", "expect[0].attack.firers")


def test_option_map_must_cover_exactly_the_firers(tmp_path: Path) -> None:
    text = change("option: first_fire", "option: {g-467: first_fire, g-81: first_fire}")
    check(tmp_path, text, "option:", "expect[0].attack.option.g-81")
    text = change("option: first_fire", "option: {g-467: first_fire}")
    message = check(tmp_path, text, "option:", "expect[0].attack.option")
    assert "g-lmg" in message


def test_keep_rof_must_be_a_firing_weapon(tmp_path: Path) -> None:
    text = change("firers: [g-467, g-lmg]", "firers: [g-467], keep_rof: [g-lmg]")
    check(tmp_path, text, "keep_rof", "expect[0].attack.keep_rof[0]")


def test_los_needs_exactly_one_of_to_and_to_hexside(tmp_path: Path) -> None:
    text = BASE + "lines_of_sight:\n  - {from: T9, to: T7, to_hexside: [H7, G7]}\n"
    check(tmp_path, text, "from: T9", "lines_of_sight[0]")


def test_directed_only_on_a_leader(tmp_path: Path) -> None:
    text = change("    counter: 4-6-7\n", "    counter: 4-6-7\n    directed: [g-lmg]\n")
    check(tmp_path, text, "directed", "units[0].directed")


def test_non_text_key(tmp_path: Path) -> None:
    check(tmp_path, BASE + "residual_fp: {[X2]: 4}\n", "residual_fp", "residual_fp")


def test_custom_yaml_tag(tmp_path: Path) -> None:
    check(tmp_path, change("title: base case", "title: !!python/name:os.system ''"), "title:", "title")


# --------------------------------------------------------------------------- hexes


@pytest.mark.parametrize("bad", ["A0", "HH3", "B11", "A11", "x2", "a1X2", "X2@1"])
def test_hex_off_grid(tmp_path: Path, bad: str) -> None:
    message = check(tmp_path, change("hex: W2", f"hex: {bad}"), f"hex: {bad}", "units[1].hex")
    assert repr(bad) in message


def test_location_key_off_grid(tmp_path: Path) -> None:
    check(tmp_path, BASE + "locations:\n  B11: {terrain: woods}\n", "B11", "locations.B11")


def test_unknown_terrain(tmp_path: Path) -> None:
    check(tmp_path, BASE + "locations:\n  X2: {terrain: jungle}\n", "jungle", "locations.X2.terrain")


def test_unprefixed_hex_with_two_boards(tmp_path: Path) -> None:
    text = change("hex: W2", "hex: 3W2", change("from: V2", "from: 1V2"))
    message = check(tmp_path, text, "hex: X2", "units[0].hex")
    assert "boards 1 and 3" in message


def test_same_location_twice_after_board_prefixing(tmp_path: Path) -> None:
    text = BASE + "locations:\n  X2: {terrain: woods}\n  1X2: {terrain: woods}\n"
    check(tmp_path, text, "1X2:", "locations.1X2")


# --------------------------------------------------------------------------- ids and references


@pytest.mark.parametrize(("old", "new", "marker", "field_path"), [
    ("firers: [g-467, g-lmg]", "firers: [g-467, g-999]", "g-999", "expect[0].attack.firers[1]"),
    ("targets: [r-628]", "targets: [g-lmg]", "targets", "expect[0].attack.targets[0]"),
    ("director: g-81", "director: g-467", "director", "expect[0].attack.director"),
    ("mf_here: 1}", "mf_here: 1}\n    attacked_here: [{by: [nobody]}]", "nobody",
     "units[1].attacked_here[0].by[0]"),
])
def test_undefined_id(tmp_path: Path, old: str, new: str, marker: str, field_path: str) -> None:
    check(tmp_path, change(old, new), marker, field_path)


def test_undefined_id_in_answer_maps(tmp_path: Path) -> None:
    check(tmp_path, BASE + "    breakdown: {g-467: 9}\n", "breakdown: {g-467", "expect[0].breakdown.g-467")
    check(tmp_path, BASE + "    after: {ghost: final_fire}\n", "ghost", "expect[0].after.ghost")


def test_duplicate_unit_id(tmp_path: Path) -> None:
    text = change("- id: g-81", "- id: g-467")
    message = check(tmp_path, text, "- id: g-467\n    side: german\n    type: leader", "units[2].id")
    assert "already used at line 5 (units[0].id)" in message


def test_weapon_id_shares_the_unit_namespace(tmp_path: Path) -> None:
    text = change("{id: g-lmg,", "{id: r-628,").replace("[g-467, g-lmg]", "[g-467, r-628]")
    message = check(tmp_path, text, "- id: r-628", "units[1].id")
    assert "already used at line 11 (units[0].weapons[0].id)" in message


def test_bad_id_characters(tmp_path: Path) -> None:
    check(tmp_path, change("- id: g-81", "- id: g 81"), "- id: g 81", "units[2].id")


# --------------------------------------------------------------------------- sides and moving stacks


def test_attacker_must_be_a_side_of_some_unit(tmp_path: Path) -> None:
    message = check(tmp_path, change("attacker: russian", "attacker: soviet"), "attacker:", "attacker")
    assert "german, russian" in message


def _with_second_mover(side: str = "russian") -> str:
    return change("expect:\n", f"""\
  - id: r-447
    side: {side}
    type: squad
    counter: 4-4-7
    hex: Y3
    moving: {{from: Y4}}
expect:
""")


def test_moving_unit_of_the_defender(tmp_path: Path) -> None:
    text = change("    moving: {from: V2, mf_here: 1}\n", "", _with_second_mover("german"))
    check(tmp_path, text, "moving: {from: Y4}", "units[3].moving")


# --------------------------------------------------------------------------- YAML-level problems


def test_duplicate_yaml_key(tmp_path: Path) -> None:
    text = change("    counter: 6-2-8\n", "    counter: 6-2-8\n    side: german\n")
    message = check(tmp_path, text, "side: german\n    hex: W2", "units[1].side")
    assert "already given at line 13" in message


def test_duplicate_top_level_key(tmp_path: Path) -> None:
    text = BASE + "phase: DFPh\n"
    check(tmp_path, text, "phase: DFPh", "phase")


def test_alias_bomb_is_stopped(tmp_path: Path) -> None:
    # 1000 aliases of an expect item holding 1000 rule ids: a million values from 10 kB
    rules = ", ".join(["A8.1"] * 1000)
    bomb = change("expect:\n  - attack:", f"""\
expect:
  - &e {{attack: {{option: first_fire, firers: [g-467], targets: [r-628]}}, verdict: allowed, because: [{rules}]}}
""" + "  - *e\n" * 1000 + "  - attack:")
    error, path = load_error(tmp_path, bomb)
    message = assert_located(error, path, error.line, error.path)
    assert error.path.startswith("expect[") and error.line > line_of(bomb, "- &e")
    assert f"at most {MAX_NODES} YAML values" in message


def test_billion_laughs_fails_fast(tmp_path: Path) -> None:
    levels = ["lol0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    levels += [f"lol{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, 9)]
    text = "\n".join(levels) + "\n" + BASE + "    because: *l8\n"
    error, path = load_error(tmp_path, text)  # counted as the aliases are read: refused at lol4
    message = assert_located(error, path, 5, "lol4[1]")
    assert f"at most {MAX_NODES} YAML values" in message


def test_billion_laughs_in_a_walked_field_fails_fast(tmp_path: Path) -> None:
    laughs = "&l0 [" + ", ".join(["lol"] * 9) + "]"
    for level in range(1, 9):
        laughs = f"&l{level} [{laughs}, " + ", ".join([f"*l{level - 1}"] * 8) + "]"
    text = BASE + f"    because: {laughs}\n"
    error, path = load_error(tmp_path, text)  # refused while read, before any field is looked at
    message = assert_located(error, path, line_of(text, "because:"), error.path)
    assert error.path.startswith("expect[0].because[0]") and f"at most {MAX_NODES} YAML values" in message


def test_oversized_file(tmp_path: Path) -> None:
    error, path = load_error(tmp_path, BASE + "#" * (1 << 20) + "\n")
    message = assert_located(error, path, None, "(top level)")
    assert "a file of at most 1 MiB" in message


def test_oversized_text() -> None:
    with pytest.raises(InputError, match="at most 1 MiB"):
        load_text(BASE + "#" * (1 << 20))


def test_not_yaml_at_all(tmp_path: Path) -> None:
    text = "title: ok\nphase: @MPh\n"
    check(tmp_path, text, "@MPh", "(top level)")


def test_unclosed_flow_sequence(tmp_path: Path) -> None:
    error, path = load_error(tmp_path, "title: ok\nunits: [a, b\n")
    assert_located(error, path, error.line, "(top level)")
    assert error.line is not None


def test_top_level_not_a_mapping(tmp_path: Path) -> None:
    message = check(tmp_path, "- a\n- b\n", "- a", "(top level)")
    assert "a mapping" in message


def test_empty_file(tmp_path: Path) -> None:
    error, path = load_error(tmp_path, "# nothing here\n")
    assert_located(error, path, 1, "(top level)")


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes("title: café\n".encode("latin-1"))
    with pytest.raises(InputError) as caught:
        load_file(path)
    assert_located(caught.value, path, None, "(top level)")


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "no-such-case.yaml"
    with pytest.raises(InputError) as caught:
        load_file(path)
    message = assert_located(caught.value, path, None, "(top level)")
    assert "a readable file" in message


def test_load_text_names_the_source() -> None:
    with pytest.raises(InputError) as caught:
        load_text(change("phase: MPh", "phase: Nope"), name="inline.yaml")
    assert str(caught.value).startswith("inline.yaml:2: phase: expected one of RPh")


def test_every_error_is_one_line_with_a_location() -> None:
    bad = change("title: base case", "title: |\n  two\n  lines\ncolour: red")
    with pytest.raises(InputError) as caught:
        load_text(bad, name="multi.yaml")
    assert re.fullmatch(r"multi\.yaml:\d+: colour: expected [^\n]+", str(caught.value))


# --------------------------------------------------------------------------- robustness


def _loads_or_input_error(text: str) -> None:
    try:
        load_text(text, name="fuzz.yaml")
    except InputError as error:
        assert "\n" not in str(error) and "expected" in str(error)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_text_gives_a_situation_or_an_input_error(text: str) -> None:
    _loads_or_input_error(text)


_BASE_LINES = BASE.splitlines(keepends=True)
_YAML_BITS = ["", "~", "[]", "{}", "x", "-1", "1.5", "yes", "&a x", "*a", "!!binary aGk=", "[X2, Y3]",
              "{a: 1}", "A0", "1X2", "3X2", "g-467", "r-628", "g-lmg", ": :", "'", "\"", "- ", "  "]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(_BASE_LINES) - 1), st.sampled_from(_YAML_BITS),
                          st.booleans()), max_size=4))
def test_mangled_base_case_gives_a_situation_or_an_input_error(edits: list[tuple[int, str, bool]]) -> None:
    lines = list(_BASE_LINES)
    for index, bit, replace_value in edits:
        line = lines[index]
        if replace_value and ":" in line:
            lines[index] = line[: line.index(":") + 1] + " " + bit + "\n"
        else:
            lines[index] = bit + "\n"
    _loads_or_input_error("".join(lines))


# --------------------------------------------------------------------------- the two YAML parsers

EXAMPLES = sorted([*(Path(__file__).parent.parent / "examples").rglob("*.yaml"),
                   *(Path(__file__).parent / "cases").rglob("*.yaml")])


@pytest.mark.parametrize("path", EXAMPLES[::7], ids=lambda p: p.name)
def test_pure_python_and_libyaml_parsers_read_the_same_situation(path, monkeypatch):
    """The loader reads YAML events with libyaml's parser when PyYAML has it, else with PyYAML's
    own: both give the same situation, and the same line and path in an error."""
    import yaml

    from aslrules import loader

    assert hasattr(yaml, "CSafeLoader"), "PyYAML's wheels carry libyaml: the fast parser is tested here"
    text = path.read_text(encoding="utf-8")
    read = {}
    for name, used in (("libyaml", yaml.CSafeLoader), ("python", yaml.SafeLoader)):
        monkeypatch.setattr(loader, "_LOADER", used)
        sit = load_text(text, str(path))
        read[name] = (sit.data, sit.expect, sit.board)
        with pytest.raises(InputError) as bad:
            load_text(text.replace("units:", "units: {x: 1}\nunit:", 1), str(path))
        read[name + " error"] = (bad.value.line, bad.value.path)
    assert read["libyaml"] == read["python"]
    assert read["libyaml error"] == read["python error"]


@pytest.mark.parametrize(("text", "value"), [
    ("1", 1), ("'1'", "1"), ('"1"', "1"), ("1.5", Fraction(3, 2)), ("'1.5'", "1.5"), ("yes", True),
    ("'yes'", "yes"), ("no", False), ("~", None), ("null", None), ("''", ""), ("2001-12-14", "2001-12-14"),
    ("0x1F", "0x1F"), ("010", "010"), ("0o7", "0o7"), ("1_000", "1_000"), ("1:30", "1:30"), ("-2", -2),
    (".inf", ".inf"), (".nan", ".nan"), ("1e3", Fraction(1000)), ("german", "german"), ("4-6-7", "4-6-7"), ("True", True),
    ("!!str 5", "5"),
])
def test_each_scalar_reads_by_the_one_table(text: str, value: object) -> None:
    """Plain decimal numbers are numbers (exact), quoted texts are texts, YAML 1.1's other number
    forms (hex, octal, sexagesimal, underscores) and dates stay text: a number field refuses them."""
    from aslrules.loader import compose

    data, _, _ = compose(f"k: {text}\n", "t.yaml")
    assert data["k"] == value and type(data["k"]) is type(value)


@pytest.mark.parametrize("form", ["0x10", "0o7", "1_000", "1:30", ".inf", ".nan", "'3'"])
def test_number_fields_refuse_other_number_forms(tmp_path: Path, form: str) -> None:
    message = check(tmp_path, change("rof: 3", f"rof: {form}"), "rof:", "units[0].weapons[0].rof")
    assert "a whole number from 1 to 6" in message


@pytest.mark.parametrize(("value", "expected"), [
    ("11184811", "a number from 0 to 999"), ("0.01", "a multiple of 1/64"), ("1e308", "a number from 0 to 999"),
    ("-1", "a number from 0 to 999"), ("0.3333333", "a multiple of 1/64"),
])
def test_exact_numbers_are_bounded_and_on_the_grid(tmp_path: Path, value: str, expected: str) -> None:
    message = check(tmp_path, change("fp: 3,", f"fp: {value},"), "fp:", "units[0].weapons[0].fp")
    assert expected in message


def test_deep_nesting_is_refused_before_it_is_built(tmp_path: Path) -> None:
    text = BASE + "title2: " + "[" * 100_000 + "]" * 100_000 + "\n"
    error, path = load_error(tmp_path, text)
    assert "nested at most" in str(error) and error.line == line_of(text, "title2")


