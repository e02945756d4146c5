"""Residual FP (A8.2-A8.26, kb/residual.lp): the half-column table with A8.26's
column drops under both `residual_half` readings, a figure in every attack answer (kb/show.lp, tested with toy facts),
and every A8.2x id of rules-in-scope.md cited in kb/ and named by a case."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from aslrules.core import ask, iter_case_files
from aslrules.loader import load_file, load_text

ROOT = Path(__file__).resolve().parent.parent
SCOPE = ROOT / "tests" / "data" / "rules-in-scope.md"  # the copy tests/test_scope.py checks against shared/
RESIDUAL_IDS = ("A8.2", "A8.21", "A8.22", "A8.221", "A8.222", "A8.223", "A8.224", "A8.23", "A8.24", "A8.25", "A8.26")


def situation(fp: int, hindrance: int = 0, reading: str = "highest_column", air_burst: bool = False) -> str:
    """A `fp` FP attack at range 2 (no PBF, Normal Range) on a mover in Open Ground."""
    los = f"lines_of_sight: [{{from: Y2, to: W2, hindrance: {hindrance}}}]\n" if hindrance else ""
    extra = ", ammo: HE, air_burst: true" if air_burst else ""
    return (
        "phase: MPh\nattacker: russian\n"
        f"readings: {{residual_half: {reading}}}\n{los}"
        "units:\n"
        f"  - {{id: g, side: german, type: squad, counter: {fp}-6-7, hex: Y2}}\n"
        "  - {id: r, side: russian, type: squad, counter: 4-4-7, hex: W2, moving: {from: V2, mf_here: 1}}\n"
        "expect:\n"
        f"  - attack: {{option: first_fire, firers: [g], targets: [r]{extra}}}\n"
        "    verdict: allowed\n"
    )


# (FP, Hindrance, reading, Air Burst) -> Residual FP.  asl-basics.md "Residual FP
# values": 1 -> none, 2 -> 1, 4 -> 2, 8 -> 4, 12 -> 6, 16 -> 8, 20 -> 10, 24+ ->
# 12; the 6 and 20 columns' 3 and 10 by the reading; A8.26: 6 -> 4 (+1) -> 2
# (+2), the wall EX 2 -> 1 -> 0; max 12 after the adjustment.
TABLE = [
    (1, 0, "highest_column", False, 0),
    (2, 0, "highest_column", False, 1),
    (4, 0, "highest_column", False, 2),
    (6, 0, "highest_column", False, 2),
    (6, 0, "exact_half", False, 3),
    (8, 0, "highest_column", False, 4),
    (12, 0, "highest_column", False, 6),
    (16, 0, "highest_column", False, 8),
    (20, 0, "highest_column", False, 8),
    (20, 0, "exact_half", False, 10),
    (24, 0, "highest_column", False, 12),
    (30, 0, "highest_column", False, 12),
    (36, 0, "highest_column", False, 12),
    (12, 1, "highest_column", False, 4),   # A8.26: 6 flipped to its 4 side for a +1 DRM
    (12, 2, "highest_column", False, 2),   # ... a 2 counter for a +2 DRM
    (4, 1, "highest_column", False, 1),    # 8.26 EX 1: the grain Hindrance
    (4, 2, "highest_column", False, 0),    # 8.26 EX 3: the wall
    (2, 1, "highest_column", False, 0),
    (6, 1, "exact_half", False, 2),        # 3, one column lower: 2
    (6, 2, "exact_half", False, 1),
    (20, 1, "exact_half", False, 8),
    (36, 1, "highest_column", False, 12),  # 18 -> 16 -> one lower: 12
    (36, 2, "highest_column", False, 8),
    (8, 0, "highest_column", True, 6),     # Air Burst: one column up
    (24, 0, "highest_column", True, 12),   # 12 -> 16, at most 12
    (8, 1, "highest_column", True, 4),     # +1 and Air Burst cancel out
]


@pytest.mark.parametrize(("fp", "hindrance", "reading", "air_burst", "left"), TABLE)
def test_half_column_and_a8_26(fp: int, hindrance: int, reading: str, air_burst: bool, left: int) -> None:
    sit = load_text(situation(fp, hindrance, reading, air_burst), name="table.yaml")
    (answer,) = ask(sit)
    notes = answer.figure_reasons.get("residual_fp", {}).get(None, [])
    assert answer.figure("residual_fp") == left, [r.text for r in notes]
    if left:
        assert "A8.2" in {r.rule for r in notes}
    if hindrance:
        assert "A8.26" in {r.rule for r in notes}


def _shown(facts: str) -> set[str]:
    """The atoms kb/show.lp shows for toy facts of the predicates it maps (no situation, no other
    kb file): the protocol's guarantees tested where they are made."""
    import clingo

    ctl = clingo.Control(["--warn=none"])
    ctl.load(str(ROOT / "kb" / "show.lp"))
    ctl.add("base", [], facts)
    ctl.ground([("base", [])])
    with ctl.solve(yield_=True) as handle:
        return {str(s) for s in next(iter(handle)).symbols(shown=True)}


def test_every_attack_answer_states_its_residual_fp() -> None:
    """issue 4 (README, the answer protocol): every attack answer says whether the leader's
    direction counts, false where not, and shows the Residual FP it leaves (kb/residual.lp derives
    residual_fp/2 for every attack question, 0 where none: the cases that state `residual_fp: 0`
    hold it); the CA question kinds, which are no attacks (issue 5), state neither."""
    none = _shown("attack_question(q). residual_fp(q,0).")
    assert {"figure(q,residual_fp,fp(0))", "figure(q,leader_direction,false)"} <= none
    some = _shown("attack_question(q). residual_fp(q,128). leader_direction(q).")
    assert {"figure(q,residual_fp,fp(128))", "figure(q,leader_direction,true)"} <= some
    assert not {"figure(q,residual_fp,fp(0))", "figure(q,leader_direction,false)"} & some
    assert not {a for a in _shown("question(q,case_a).") if "residual_fp" in a or "leader_direction" in a}


def test_listing_offers_the_residual_attack() -> None:
    """`aslrules ask` with no questions lists the Residual FP attack on the mover in a marked Location."""
    text = (
        "phase: MPh\nattacker: russian\nresidual_fp: {W2: 2}\nunits:\n"
        "  - {id: g, side: german, type: squad, counter: 4-6-7, hex: X2}\n"
        "  - {id: r, side: russian, type: squad, counter: 4-4-7, hex: W2, moving: {from: V2, mf_here: 1}}\n"
    )
    answers = ask(load_text(text, name="listing.yaml"))
    residual = [a for a in answers if not a.firers]
    assert len(residual) == 1
    (a,) = residual
    assert (a.verdict, a.figure("fp"), a.targets) == ("mandatory", Fraction(2), ["r"])
    # A8.22: the Residual FP attacks first, so every DFF option waits for it.
    for other in answers:
        if other.firers and set(other.figure("option").values()) <= {"first_fire", "subsequent_first_fire",
                                                                     "final_protective_fire"}:
            assert "A8.22" in {r.rule for r in other.reasons if r.role == "forbid"}


def _scope_ids() -> list[str]:
    ids = re.findall(r"^\| (A8\.2\d*) \|", SCOPE.read_text(encoding="utf-8"), flags=re.M)
    return sorted(set(ids))


def test_scope_lists_the_residual_ids() -> None:
    assert set(_scope_ids()) == set(RESIDUAL_IDS)


@pytest.mark.parametrize("rule", RESIDUAL_IDS)
def test_each_residual_id_is_cited_in_kb_and_named_by_a_case(rule: str) -> None:
    kb = "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "kb").glob("*.lp")))
    assert re.search(rf"^% {re.escape(rule)}( EXC)?: \S", kb, flags=re.M), f"{rule} is not cited as `% {rule}: ...`"
    named = [
        path
        for path in iter_case_files([str(ROOT / "tests" / "cases")])
        if any(rule in exp.because for exp in load_file(path).expect)
    ]
    assert named, f"no case names {rule} in `because:`"
