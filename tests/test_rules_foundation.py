"""The first rules (kb/first_fire.lp, kb/attack.lp, kb/support_weapons.lp): for each rule
statement, a case where it applies and one where it does not.

The cases are YAML files under tests/cases/<section>/ (each names its source), so
`aslrules check tests/cases` runs them too (tests/test_cases.py).  This file adds, per
rule statement, what a case file cannot say: *how* the rule showed in the answer where it
applies (a forbidding reason, a FP modifier, a DRM part or a note citing the rule, matching
the statement), and that it did not show where it does not apply.

Sources: seed 004 (A8.1-A8.14 and its EXs), asl-basics.md (Firepower, DRM), the
situation-format.md grid, rules-in-scope.md (the statements).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from aslrules.answers import Answer
from aslrules.core import Outcome, check
from aslrules.loader import load_file

CASES = Path(__file__).resolve().parent.parent / "tests" / "cases"


@cache
def outcomes(file: str) -> tuple[Outcome, ...]:
    return tuple(check([load_file(CASES / file)]))


def reasons(a: Answer, kind: str) -> list[tuple[str, str]]:
    """(rule id, text) of one kind of reason in an answer."""
    if kind == "forbid":
        return [(r.rule, r.text) for r in a.reasons if r.role == "forbid"]
    if kind == "note":
        return [(r.rule, r.text) for r in a.reasons if r.role in ("note", "must")]
    if kind == "fp":
        return [(r.rule, r.text) for rs in a.figure_reasons.get("fp_by_firer", {}).values() for r in rs]
    if kind == "drm":
        return [(p.rule, p.text) for p in a.parts.get("drm", [])]
    raise ValueError(kind)


@dataclass(frozen=True)
class Statement:
    name: str  # the rule statement (rules-in-scope.md wording, shortened)
    rule: str  # the rule id the KB cites for it
    kind: str  # where it shows: forbid, note, fp (a FP modifier), drm (a DRM part)
    text: str  # a regex the reason's text matches (which statement of the rule)
    applies: tuple[tuple[str, int], ...]  # (case file, expect index) where it applies
    not_applies: tuple[tuple[str, int], ...]  # ... and where it does not


def S(name: str, rule: str, kind: str, text: str, applies: list, not_applies: list) -> Statement:
    return Statement(name, rule, kind, text, tuple(applies), tuple(not_applies))


A81 = "a8_1/"
STATEMENTS = [
    S("A8.1: DFF only in the ATTACKER's MPh", "A8.1", "forbid", r"MPh",
      [(A81 + "dff_only_in_mph.yaml", 0)], [(A81 + "dff_in_mph.yaml", 0), (A81 + "dff_only_in_mph.yaml", 1)]),
    S("A8.1: DFF affects only the moving unit/stack; earlier movers are out of reach", "A8.1", "forbid",
      r"not the unit/stack now moving",
      [(A81 + "moving_unit_only.yaml", 1), (A81 + "moving_unit_only.yaml", 2), (A81 + "moving_unit_only.yaml", 3)],
      [(A81 + "moving_unit_only.yaml", 0)]),
    S("A8.1: a unit/weapon marked First Fire (or Intensive/No Fire) may not First Fire again", "A8.1", "forbid",
      r"marked",
      [(A81 + "first_fire_marker.yaml", i) for i in (0, 2, 5, 6)],
      [(A81 + "first_fire_marker.yaml", i) for i in (1, 3, 4)]),
    S("A8.1: two activities cannot be combined in one MF expenditure", "A8.1", "forbid", r"combines",
      [(A81 + "combined_activities.yaml", 0)], [(A81 + "separate_activities.yaml", 0)]),
    S("A8.1: DFF only at a unit in the firer's LOS", "A8.1", "forbid", r"no LOS",
      [(A81 + "los.yaml", 0)], [(A81 + "los.yaml", 1)]),
    S("A8.1: Defensive Fire is the DEFENDER's", "A8.1", "forbid", r"ATTACKER",
      [(A81 + "defender_fires.yaml", 0)], [(A81 + "defender_fires.yaml", 1)]),
    S("A8.1: Defensive Fire is aimed at the enemy's units, not a friendly one", "A8.1", "forbid", r"friendly unit",
      [(A81 + "friendly_target.yaml", 0)], [(A81 + "friendly_target.yaml", 1)]),
    S("A8.11: no returning the mover to an earlier position", "A8.11", "forbid", r"earlier position",
      [("a8_11/before_leaving.yaml", 0)], [("a8_11/before_leaving.yaml", 1)]),
    S("A8.12: MF expended in a Location without entering makes a DFF target", "A8.12", "note", r"without entering",
      [("a8_12/expends_mf_in_location.yaml", 0), ("a8_12/leaves_entrenchment.yaml", 0)],
      [("a8_12/entered.yaml", 0)]),
    S("A8.13: FFNAM -1 in DFF vs a mover not using Assault Movement", "A8.13", "drm", r"^FFNAM",
      [("a8_13/ffnam_ffmo_open_ground.yaml", i) for i in (0, 1, 2)] + [("a8_13/not_open_ground.yaml", 0)],
      [("a8_13/assault_movement.yaml", 0), ("a8_13/final_fire_no_ffnam.yaml", 0)]),
    S("A8.13: FFMO -1 in DFF vs a mover in Open Ground, unless Hindrance/positive TEM on the LOF", "A8.13", "drm",
      r"^FFMO",
      [("a8_13/ffnam_ffmo_open_ground.yaml", 0), ("a8_13/assault_movement.yaml", 0)],
      [("a8_13/ffnam_ffmo_open_ground.yaml", 1), ("a8_13/ffnam_ffmo_open_ground.yaml", 2),
       ("a8_13/not_open_ground.yaml", 0), ("a8_13/final_fire_no_ffnam.yaml", 0)]),
    S("A8.14: a broken/pinned target may be attacked again there by other DFF, in that state", "A8.14", "note",
      r"attacked again here",
      [("a8_14/broken_or_pinned.yaml", 0), ("a8_14/pinned_again.yaml", 0)],
      [("a8_14/no_effect_one_mf.yaml", 1)]),
    S("A8.14: FFNAM/FFMO keep applying to a mover that broke there", "A8.14", "note", r"broke in",
      [("a8_14/broken_or_pinned.yaml", 0)], [("a8_14/pinned_again.yaml", 0)]),
    S("A8.14: a target surviving with no effect: only different attackers, or after >= 2 MF (A9.2)", "A8.14",
      "forbid", r"already attacked",
      [("a8_14/no_effect_one_mf.yaml", 0), ("a8_14/no_effect_two_mf.yaml", 1), ("a8_14/pinned_same_mg_again.yaml", 0)],
      [("a8_14/no_effect_one_mf.yaml", 1), ("a8_14/no_effect_two_mf.yaml", 0)]),
    S("A7.21: PBF doubles FP vs an ADJACENT Location", "A7.21", "fp", r"PBF.*x2",
      [("a7_21/pbf.yaml", 0), ("a7_21/pbf.yaml", 1), ("a7_21/pbf_same_level_reading.yaml", 1),
       ("a7_212/tpbf.yaml", 1)],
      [("a7_21/pbf.yaml", 2), ("a7_21/pbf.yaml", 3), ("a7_21/pbf_same_level_reading.yaml", 0)]),
    S("A.8: ground level is not ADJACENT to level 2 of the next hex (97 Q&A)", "A.8", "note", r"not ADJACENT",
      [("a7_21/pbf.yaml", 3), ("a7_21/pbf_same_level_reading.yaml", 0)], [("a7_21/pbf.yaml", 1)]),
    S("A.8: two levels of one hex are ADJACENT one level apart, unless its levels do not connect (stairwell: false)",
      "A.8", "note", r"not ADJACENT",
      [("a7_21/pbf_no_stairwell.yaml", 0)], [("a7_21/pbf_stairwell.yaml", 0)]),
    S("A7.212: TPBF triples FP vs the firer's own Location", "A7.212", "fp", r"TPBF.*x3",
      [("a7_212/tpbf.yaml", 0)], [("a7_212/tpbf.yaml", 1)]),
    S("A7.22: Long Range halves FP beyond Normal Range", "A7.22", "fp", r"Long Range",
      [("a7_22/long_range.yaml", i) for i in (1, 2, 4)] + [("a7_22/ex_8_15_k2.yaml", 0)],
      [("a7_22/long_range.yaml", 0)]),
    S("A7.22: no fire beyond twice Normal Range", "A7.22", "forbid", r"beyond twice",
      [("a7_22/long_range.yaml", 3), ("a7_22/long_range.yaml", 5)],
      [("a7_22/long_range.yaml", 2), ("a7_22/long_range.yaml", 4)]),
    S("A7.53: a Good Order leader in the firers' Location adds his leadership DRM", "A7.53", "drm", r"directs",
      [("a7_53/direction.yaml", 0), ("a7_53/one_attack_per_phase.yaml", 0), ("drm/ex_8_26_hedge.yaml", 0)],
      [("a7_53/direction.yaml", i) for i in (1, 2, 3)] + [("a7_53/one_attack_per_phase.yaml", i) for i in (1, 2)]
      + [("a7_53/enemy_leader.yaml", 0)]),
    S("A7.53: one unit or FG per phase; later only a FG of units he directed", "A7.53", "note",
      r"directed other fire",
      [("a7_53/one_attack_per_phase.yaml", 1), ("a7_53/one_attack_per_phase.yaml", 2)],
      [("a7_53/one_attack_per_phase.yaml", 0)]),
    S("A7.531 (Perry Sez P14, P32): a directing leader is marked with the attack's counter", "A7.531", "note",
      r"he is marked (First|Final) Fire after it",
      [("a7_53/director_marked.yaml", 0), ("a7_53/director_marked.yaml", 1)],
      [("a7_53/director_marked_rof.yaml", 0), ("a7_53/director_marked_rof.yaml", 1)]),
    S("A7.531 (Perry Sez P32): not while a SW he directs keeps its Multiple ROF", "A7.531", "note",
      r"keeps its ROF, has finished firing",
      [("a7_53/director_marked_rof.yaml", 0)], [("a7_53/director_marked.yaml", 0)]),
    S("asl-basics.md Fire Groups (A7.5; Perry Sez P7): a multi-Location FG is a contiguous chain", "A7.5",
      "forbid", r"contiguous chain",
      [("a7/fg_chain.yaml", 0)], [("a7/fg_chain.yaml", 1), ("a7/fg_chain_contiguous.yaml", 0)]),
    S("TEM of the target Location (+)", "TEC", "drm", r"TEM of",
      [("drm/tem_hindrance_hexside.yaml", 1), ("a8_13/not_open_ground.yaml", 0), ("drm/ex_8_26_woods.yaml", 0),
       ("drm/ex_8_26_woods.yaml", 1)],
      [("drm/tem_hindrance_hexside.yaml", i) for i in (0, 2, 3)]),
    S("Hindrance along the LOF (+)", "A6.2", "drm", r"Hindrance",
      [("drm/tem_hindrance_hexside.yaml", 2), ("a8_13/ffnam_ffmo_open_ground.yaml", 1), ("drm/ex_8_26_woods.yaml", 1)],
      [("drm/tem_hindrance_hexside.yaml", 0), ("drm/ex_8_26_woods.yaml", 0)]),
    S("hexside TEM of the target Location crossed by the LOF (+)", "B9", "drm", r"hexside TEM",
      [("drm/tem_hindrance_hexside.yaml", 3), ("a8_13/ffnam_ffmo_open_ground.yaml", 2), ("drm/ex_8_26_hedge.yaml", 0)],
      [("drm/tem_hindrance_hexside.yaml", 0), ("drm/tem_hindrance_hexside.yaml", 2)]),
    S("IFT: a total below 1 FP has no column (unsettled: no attack)", "A7.2", "forbid", r"below",
      [("ift_column/fractional_totals.yaml", 5)], [("ift_column/fractional_totals.yaml", 3)]),
    S("broken units cannot fire (nor their SW)", "A7", "forbid", r"broken",
      [("a7/broken_and_melee.yaml", i) for i in (0, 1, 3)], [("a7/broken_and_melee.yaml", i) for i in (4, 5)]),
    S("units in Melee make no IFT attacks", "A7", "forbid", r"Melee",
      [("a7/broken_and_melee.yaml", 2)], [("a7/broken_and_melee.yaml", 4)]),
    S("pinned units fire at half FP", "A7.8", "fp", r"pinned",
      [("a7/broken_and_melee.yaml", 5)], [("a7/broken_and_melee.yaml", 4)]),
    S("a malfunctioned weapon cannot fire", "A.11", "forbid", r"malfunctioned",
      [("a_11/malfunctioned.yaml", 0), ("a_11/malfunctioned.yaml", 1)],
      [("a_11/malfunctioned.yaml", 2), ("a_11/malfunctioned.yaml", 3)]),
    S("asl-basics.md Firepower (A7): a single leader fires a SW MG as Area Fire", "A7", "fp",
      r"single leader fires a SW MG as Area Fire",
      [("a7/lone_leader_mg.yaml", i) for i in (0, 1, 2, 4)] + [("a7/lone_leader_mg_default_reading.yaml", i)
                                                               for i in (0, 1)]
      + [("a7/lone_leader_mg_stacked_reading.yaml", 1)],
      [("a7/lone_leader_mg.yaml", 3), ("a7/lone_leader_mg_stacked_reading.yaml", 0)]),
    S("A7.35: a HS/crew firing a SW, or a squad firing two, loses its inherent FP", "A7.35", "forbid",
      r"loses its inherent FP",
      [("a7_35/inherent_fp.yaml", i) for i in (1, 3, 5)], [("a7_35/inherent_fp.yaml", i) for i in (0, 2, 4, 6)]),
    S("A7.35 (a735_sw=mg_only): a squad firing a SW other than a MG loses its inherent FP", "A7.35", "forbid",
      r"loses its inherent FP",
      [("a7_35/squad_other_sw.yaml", 0), ("a7_35/squad_other_sw_reading.yaml", 1)],
      [("a7_35/squad_other_sw_reading.yaml", 0)]),
    S("A7.35 (a735_sw=any_sw): a squad firing any one SW keeps its inherent FP", "A7.35", "note",
      r"keeps its inherent FP", [("a7_35/squad_other_sw_reading.yaml", 0)],
      [("a7_35/squad_other_sw_reading.yaml", 1), ("a7_35/squad_other_sw.yaml", 0)]),
    S("A8.1: DFF only at a unit as it expends MF/MP (P29)", "A8.1", "forbid", r"expended no MF",
      [("a8_1/zero_mf.yaml", 0)], [("a8_1/zero_mf_one_mf.yaml", 0)]),
    S("A8.1: DFF is at the whole moving stack (P67)", "A8.1", "forbid", r"cannot leave it out",
      [("a8_1/whole_stack.yaml", 0)], [("a8_1/whole_stack.yaml", 1)]),
    S("A8.1 (gun_marking=with_crew): a crew's Gun is marked First Fire with it (P34)", "A8.1", "note",
      r"is marked First Fire with it",
      [("a8_1/gun_marking_with_crew.yaml", 0)],
      [("a8_1/gun_marking_with_crew.yaml", 1), ("a8_1/gun_marking.yaml", 0)]),
]


def _check_outcome(file: str, index: int) -> Outcome:
    found = outcomes(file)
    assert index < len(found), f"{file} has no expect[{index}]"
    o = found[index]
    assert o.passed, (f"{file}:{o.expectation.line} ({o.situation.source}): "
                      + "; ".join(f"{m.field}: expected {m.expected}, got {m.actual}" for m in o.mismatches))
    return o


@pytest.mark.parametrize("st", STATEMENTS, ids=lambda s: s.name)
def test_statement_applies(st: Statement) -> None:
    for file, index in st.applies:
        a = _check_outcome(file, index).answer
        matching = [t for r, t in reasons(a, st.kind) if r == st.rule and re.search(st.text, t)]
        assert matching, (f"{st.name}: applies in {file} expect[{index}], but no {st.kind} reason of {st.rule} "
                          f"matching /{st.text}/; got {reasons(a, st.kind)}")
        if st.kind == "forbid":
            assert a.verdict == "forbidden"


@pytest.mark.parametrize("st", STATEMENTS, ids=lambda s: s.name)
def test_statement_does_not_apply(st: Statement) -> None:
    for file, index in st.not_applies:
        a = _check_outcome(file, index).answer
        matching = [t for r, t in reasons(a, st.kind) if r == st.rule and re.search(st.text, t)]
        assert not matching, f"{st.name}: does not apply in {file} expect[{index}], yet the KB gave {matching}"


def _states_its_reasons(file: str) -> bool:
    """The case file says itself which rules show: some expectation lists them (`because:`,
    `not_because:`, `reasons:`), or it states a listing (its attacks, places and figures)."""
    sit = load_file(CASES / file)
    return bool(sit.listing) or any(e.given & {"because", "not_because", "reasons"} for e in sit.expect)


def test_every_foundation_case_is_used() -> None:
    """Each case file of the foundation sections serves some statement here, or states the reasons
    or the listing it stands for itself (docs/format.md): none is dead weight."""
    used = {f for st in STATEMENTS for f, _ in st.applies + st.not_applies}
    sections = ("a8_1", "a8_11", "a8_12", "a8_13", "a8_14", "a7_21", "a7_212", "a7_22", "a7_53", "drm", "a7",
                "a_11", "a7_35")
    files = {str(p.relative_to(CASES)) for s in sections for p in (CASES / s).glob("*.yaml")}
    unused = sorted(f for f in files - used if not _states_its_reasons(f))
    assert not unused, unused


IFT_FILES = ["ift_column/fractional_totals.yaml", "ift_column/exact_columns.yaml"]


@pytest.mark.parametrize("file", IFT_FILES)
def test_ift_columns(file: str) -> None:
    """asl-basics.md: the highest IFT column not above the total FP (values in the case files)."""
    for o in outcomes(file):
        assert o.passed, (f"{file}:{o.expectation.line}: "
                          + "; ".join(f"{m.field}: expected {m.expected}, got {m.actual}" for m in o.mismatches))
        assert "ift_column" in o.expectation.given or o.expectation.verdict == "forbidden"


# --------------------------------------------------------------------------- reported KB bugs
# A case whose source says one thing and the KB another goes to tests/data/kb_bugs/ until the
# KB is fixed; then it moves to tests/cases/ and is listed in FIXED_KB_BUGS, so it cannot come
# back unnoticed.  The first two, A8.14 after a pinned result and A7.53 by an enemy leader, were
# fixed in 455e25c.

KB_BUGS = Path(__file__).resolve().parent / "data" / "kb_bugs"
FIXED_KB_BUGS = [CASES / "a8_14" / "pinned_same_mg_again.yaml", CASES / "a7_53" / "enemy_leader.yaml"]
REPORTED_KB_BUGS = [*sorted(KB_BUGS.glob("*.yaml")), *FIXED_KB_BUGS]


def test_reported_kb_bugs_are_there() -> None:
    """The parametrization below is never empty, and every file it names exists."""
    assert KB_BUGS.is_dir(), f"{KB_BUGS} is missing"
    assert REPORTED_KB_BUGS and FIXED_KB_BUGS
    assert all(p.is_file() for p in REPORTED_KB_BUGS), [str(p) for p in REPORTED_KB_BUGS if not p.is_file()]


@pytest.mark.parametrize("path", REPORTED_KB_BUGS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_reported_kb_bug(path: Path) -> None:
    """An open report still contradicts its source (when it no longer does, move it); a fixed one holds."""
    passed = all(o.passed for o in check([load_file(path)]))
    if path.parent == KB_BUGS:
        assert not passed, f"{path.name} holds now: move it to tests/cases/ and list it in FIXED_KB_BUGS"
    else:
        assert passed, f"{path}: a fixed KB bug is back"


def test_cowering_left_of_the_1_column_is_a_note_a7_9() -> None:
    """A7.9/IFT: an Inexperienced 2 FP attack that cowers (two columns left) has no IFT column: the
    attack was made (its DR cowered), so the verdict stands and a note says it has no effect."""
    from aslrules.core import ask
    from aslrules.loader import load_text

    text = (
        "phase: MPh\nattacker: russian\nunits:\n"
        "  - {id: g, side: german, type: half_squad, counter: 2-3-7, hex: C2, status: [inexperienced]}\n"
        "  - {id: r, side: russian, type: squad, counter: 4-4-7, hex: C4, moving: {from: C5, mf_here: 1}}\n"
        "expect:\n"
        "  - attack: {option: first_fire, firers: [g], targets: [r], dice: {original: 4, colored: 2}}\n"
        "    verdict: allowed\n"
    )
    (a,) = ask(load_text(text, name="cower.yaml"))
    assert a.verdict == "allowed" and a.figure("ift_column") is None and a.figure("base_column") == 2
    assert any(r.role == "note" and "no IFT column" in r.text for r in a.reasons if r.rule == "A7.9")
    assert not [r for r in a.reasons if r.role == "forbid"]
