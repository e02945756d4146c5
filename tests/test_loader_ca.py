"""The issue-5 fields (Guns, vehicles, Covered Arcs) and CA question kinds load, and every bad
value is a located one-line InputError (file, line, field path, "expected ...")."""

from __future__ import annotations

import pytest

from aslrules.errors import InputError
from aslrules.loader import load_text
from aslrules.schema import CaChange, CaseA, GunElevation, TargetFacing

BASE = """\
title: CA base case
phase: AFPh
attacker: german
units:
  - id: g-crew
    side: german
    type: crew
    counter: 2-2-8
    hex: X3
    opportunity_fire: true
    shots: [{weapon: g-pak, target: r-t34, known: false, case_a: 2, phase: PFPh}]
    weapons:
      - {id: g-pak, kind: gun, ca: [X2, Y3], turret: T, calibre: 75L, rof: 2, acquisition: X6}
      - {id: g-mmg, kind: MMG, fp: 5, range: 12, ca: up}
  - id: r-t34
    side: russian
    type: vehicle
    hex: X6
    turret: T
    vca: [X5, Y6]
    tca: [X7, W7]
    previous_vca: [Y6, Y7]
    bu: true
    ct: true
    motion: true
    on_road: true
    motion_attempt: true
    weapons:
      - {id: r-76, kind: gun, calibre: 76L, aa: true}
      - {id: r-cmg, kind: MMG, fp: 2, range: 8, mount: CMG}
  - {id: r-su, side: russian, type: vehicle, hex: T3, bypass: U3, vca: [U3, T2], turret: ST, tca: outer_side}
lines_of_sight:
  - {from: X3, to: X6, cliff: true}
expect:
  - case_a: {firer: g-pak, target: r-t34, pivot: false, gun_duel: true}
    verdict: allowed
    drm: 1
    in_ca: false
    hexspines: 1
    rof: 1
    intensive_fire: false
    bog_checks: 0
  - ca_change: {firer: r-t34, arc: tca, to: [X5, Y6], when: end_of_phase}
    verdict: forbidden
    mp: 0
    no_movement: false
  - ca_change: {firer: r-su, arc: tca, to: rear}
    verdict: allowed
    facings: 2
  - target_facing: {firer: g-pak, target: r-t34, hit: turret, dice: {colored: 3}}
    verdict: allowed
    facing: [front, side]
  - gun_elevation: {firer: r-76, at: X3@1}
    verdict: allowed
    range: 3
    elevation_difference: 1
"""


def change(old: str, new: str, text: str = BASE) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def error(text: str) -> InputError:
    with pytest.raises(InputError) as info:
        load_text(text, "case.yaml")
    return info.value


def test_base_loads_every_field() -> None:
    sit = load_text(BASE, "case.yaml")
    crew, t34, su = sit.units
    pak, mmg = crew.weapons
    assert pak.ca == ["X2", "Y3"]
    assert (pak.turret, pak.calibre, pak.acquisition) == ("T", "75L", "X6")
    assert mmg.ca == "up"
    assert crew.opportunity_fire and crew.shots[0].known is False and crew.shots[0].case_a == 2
    assert crew.shots[0].phase == "PFPh"
    assert t34.turret == "T" and t34.bu and t34.ct and t34.motion and t34.on_road
    assert t34.motion_attempt and t34.previous_vca is not None and t34.tca is not None
    assert t34.weapons[0].aa and t34.weapons[1].mount == "CMG"
    assert su.bypass == "U3" and su.tca == "outer_side"
    assert sit.lines_of_sight[0].cliff
    kinds = [e.kind for e in sit.expect]
    assert kinds == ["case_a", "ca_change", "ca_change", "target_facing", "gun_elevation"]
    q = sit.expect[0].question
    assert isinstance(q, CaseA) and q.gun_duel and q.target == "r-t34"
    assert sit.expect[0].answers == {"drm": 1, "in_ca": False, "hexspines": 1, "rof": 1, "intensive_fire": False,
                                     "bog_checks": 0}
    assert isinstance(sit.expect[2].question, CaChange) and sit.expect[2].question.to == "rear"
    assert sit.expect[3].answers == {"facing": ["front", "side"]}
    assert isinstance(sit.expect[3].question, TargetFacing) and sit.expect[3].question.dice.colored == 3
    assert isinstance(sit.expect[4].question, GunElevation)


@pytest.mark.parametrize(("old", "new", "line", "path", "expected"), [
    # a hexspine must be two hexes adjacent to each other and to the unit's hex
    ("ca: [X2, Y3], turret", "ca: [X2], turret", 13, "units[0].weapons[0].ca", "a hexspine"),
    ("ca: up}", "ca: sideways}", 14, "units[0].weapons[1].ca", "one of up, down"),
    ("turret: T, calibre", "turret: ST, calibre", 13, "units[0].weapons[0].turret", "one of T, NT"),
    ("calibre: 75L", "calibre: 75X", 13, "units[0].weapons[0].calibre", "a calibre in mm"),
    ("    turret: T\n    vca", "    turret: Q\n    vca", 19, "units[1].turret", "one of T, ST, NT"),
    ("bu: true", "bu: 1", 23, "units[1].bu", "true or false"),
    ("mount: CMG", "mount: XMG", 30, "units[1].weapons[1].mount", "one of MA, CMG"),
    ("tca: outer_side", "tca: sideways", 31, "units[2].tca", "one of front, rear, inner_side, outer_side"),
    ("tca: [X7, W7]", "tca: outer_side", 21, "units[1].tca", "a hexspine"),
    ("known: false", "known: maybe", 11, "units[0].shots[0].known", "true or false"),
    ("shots: [{weapon: g-pak,", "shots: [{weapon: r-76,", 11, "units[0].shots[0].weapon",
     "one of g-crew's own weapons"),
    ("shots: [{weapon: g-pak,", "shots: [{weapon: g-pak, rounds: 3,", 11, "units[0].shots[0].rounds",
     "one of the keys"),
    ("cliff: true", "cliff: yes please", 33, "lines_of_sight[0].cliff", "true or false"),
    # the questions
    ("case_a: {firer: g-pak, target: r-t34,", "case_a: {firer: g-pak, target: r-t34, at: X6,", 35, "expect[0].case_a",
     "exactly one of 'target' and 'at'"),
    ("case_a: {firer: g-pak,", "case_a: {firer: g-crew,", 35, "expect[0].case_a.firer", "the id of a weapon"),
    ("    rof: 1\n", "    rof: one\n", 40, "expect[0].rof", "a whole number"),
    ("    mp: 0\n", "    fp: 0\n", 45, "expect[1].fp", "an answer field of a ca_change question"),
    ("when: end_of_phase", "when: teatime", 43, "expect[1].ca_change.when", "one of end_of_phase"),
    ("to: rear}", "to: upward}", 47, "expect[2].ca_change.to", "one of front, rear, inner_side, outer_side"),
    ("ca_change: {firer: r-su, arc: tca", "ca_change: {firer: g-pak, arc: tca", 47, "expect[2].ca_change.arc",
     "'arc' only when the firer is a vehicle"),
    ("hit: turret", "hit: wheels", 50, "expect[3].target_facing.hit", "one of hull, turret"),
    ("facing: [front, side]", "facing: [front, top]", 52, "expect[3].facing[1]", "one of front, side, rear"),
    ("    elevation_difference: 1\n", "    elevation_difference: 1\n    drm: 2\n", 57, "expect[4].drm",
     "an answer field of a gun_elevation question"),
])
def test_bad_values_are_located(old: str, new: str, line: int, path: str, expected: str) -> None:
    e = error(change(old, new))
    assert (e.line, e.path) == (line, path), str(e)
    assert expected in e.expected, str(e)
    assert "\n" not in str(e)


@pytest.mark.parametrize(("key", "value"), [
    ("turret", "T"), ("vca", "[X2, Y3]"), ("bu", "true"), ("ct", "true"), ("motion", "true"), ("bypass", "Y3"),
])
def test_vehicle_fields_only_on_vehicles(key: str, value: str) -> None:
    e = error(change("    opportunity_fire: true\n", f"    opportunity_fire: true\n    {key}: {value}\n"))
    assert e.path == f"units[0].{key}" and "only on a vehicle" in e.expected


def test_vehicle_weapons_take_no_ca_and_others_no_mount() -> None:
    e = error(change("{id: r-76, kind: gun, calibre: 76L, aa: true}", "{id: r-76, kind: gun, ca: [X5, Y6]}"))
    assert e.path == "units[1].weapons[0].ca" and "vca/tca" in e.expected
    e = error(change("{id: g-mmg, kind: MMG, fp: 5, range: 12, ca: up}", "{id: g-mmg, kind: MMG, mount: BMG}"))
    assert e.path == "units[0].weapons[1].mount" and "only on a vehicle's weapon" in e.expected


def test_attack_takes_no_ca_answer_fields() -> None:
    text = BASE + """\
  - attack: {option: final_fire, firers: [g-crew], targets: [r-t34]}
    verdict: allowed
    hexspines: 1
"""
    e = error(text)
    assert e.path == "expect[5].hexspines" and "an answer field of an attack question" in e.expected


def test_gun_flag_only_on_inf_rcl_mtr() -> None:
    e = error(change("{id: g-mmg, kind: MMG, fp: 5, range: 12, ca: up}", "{id: g-mmg, kind: MMG, gun: true}"))
    assert e.path == "units[0].weapons[1].gun" and "INF, RCL, MTR" in e.expected


def test_ife_of_gun_names_an_own_gun() -> None:
    """`of_gun` (an IFE's Gun, C2.6): only on an IFE, and one of its own unit's Guns."""
    ok = change("      - {id: r-cmg, kind: MMG, fp: 2, range: 8, mount: CMG}\n",
                "      - {id: r-cmg, kind: MMG, fp: 2, range: 8, mount: CMG}\n"
                "      - {id: r-ife, kind: IFE, fp: 8, range: 12, of_gun: r-76}\n")
    weapon = load_text(ok, "case.yaml").data.units[1].weapons[2]
    assert weapon.of_gun == "r-76"
    e = error(ok.replace("of_gun: r-76", "of_gun: g-pak"))
    assert (e.line, e.path) == (31, "units[1].weapons[2].of_gun") and "one of r-t34's own Guns" in e.expected
    e = error(ok.replace("of_gun: r-76", "of_gun: r-cmg"))
    assert e.path == "units[1].weapons[2].of_gun" and "Guns (kind gun)" in e.expected
    e = error(ok.replace("kind: IFE, fp: 8", "kind: MMG, fp: 8"))
    assert e.path == "units[1].weapons[2].of_gun" and "only on a weapon of kind IFE" in e.expected


def test_shot_ca_is_a_hexspine_or_in_bypass_a_facing() -> None:
    """A shot's `ca` (the CA it was fired through, D2.32): a hexspine around its unit's hex, a
    facing only for a vehicle in Bypass."""
    from aslrules.core import ask
    shots = "    shots: [{weapon: g-pak, target: r-t34, known: false, case_a: 2, phase: PFPh}]\n"
    ok = change(shots, shots.replace("phase: PFPh}", "phase: PFPh, ca: [X2, Y3]}"))
    assert load_text(ok, "case.yaml").data.units[0].shots[0].ca == ["X2", "Y3"]
    e = error(change(shots, shots.replace("phase: PFPh}", "phase: PFPh, ca: front}")))
    assert e.path == "units[0].shots[0].ca" and "a facing only for a vehicle in Bypass" in e.expected
    with pytest.raises(InputError) as info:
        ask(load_text(ok.replace("ca: [X2, Y3]}", "ca: [X2, X7]}"), "case.yaml"))
    assert info.value.path == "units[0].shots" and "a hexspine" in info.value.expected


def test_mp_since_tca_change_only_on_a_vehicle() -> None:
    e = error(change("    opportunity_fire: true\n", "    opportunity_fire: true\n    mp_since_tca_change: 1\n"))
    assert e.path == "units[0].mp_since_tca_change" and "only on a vehicle" in e.expected
