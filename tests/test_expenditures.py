"""`moving.expenditures`: a mover's MF/MP in its Location as a list of expenditures (each its MF
and activities), the long form of `mf_here` and `activities` (A8.1: DFF answers each
expenditure; A8.3: SFF is MF dependent per expenditure).  The total form keeps loading and
answering as before: every case file written with `mf_here`, rewritten with one expenditure of
that many MF, answers the same.  Bad combinations are located input errors."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from corpus import read_yaml, stratified

from aslrules.core import check, iter_case_files
from aslrules.errors import InputError
from aslrules.loader import load_file, load_text

ROOT = Path(__file__).resolve().parent.parent

MOVER = """\
title: expenditures
source: A8.3 (seed 004)
phase: MPh
attacker: russian
units:
  - {id: g-467, side: german, type: squad, counter: 4-6-7, hex: C2, fire: first_fire}
  - id: r-447
    side: russian
    type: squad
    counter: 4-4-7
    hex: C3
    moving:
      from: C4
      expenditures:
        - {mf: 1, activities: [enter]}
        - {mf: 1.5, activities: [recover]}
    attacked_here:
      - {by: [g-467], option: first_fire, at_mf: 1}
"""


def error(text: str) -> InputError:
    with pytest.raises(InputError) as info:
        load_text(text, "case.yaml")
    return info.value


def test_expenditures_give_mf_here_and_the_current_activities() -> None:
    moving = load_text(MOVER, "case.yaml").data.units[1].moving
    assert moving.mf_here == 2.5 and moving.activities == ["recover"]
    ok = MOVER.replace("      from: C4\n", "      from: C4\n      mf_here: 2.5\n")
    assert load_text(ok, "case.yaml").data.units[1].moving.mf_here == 2.5


@pytest.mark.parametrize(("old", "new", "line", "path", "expected"), [
    ("      from: C4\n", "      from: C4\n      mf_here: 2\n", 14, "units[1].moving.mf_here",
     "the sum of the expenditures' mf (2.5)"),
    ("      from: C4\n", "      from: C4\n      activities: [recover]\n", 14, "units[1].moving.activities",
     "no 'activities' beside 'expenditures'"),
    ("at_mf: 1}", "at_mf: 2}", 18, "units[1].attacked_here[0].at_mf",
     "the MF count after one of its expenditures (1, 2.5)"),
    ("{mf: 1, activities: [enter]}", "{activities: [enter]}", 15, "units[1].moving.expenditures[0].mf",
     "a field 'mf' (required)"),
])
def test_bad_expenditures_are_located(old: str, new: str, line: int, path: str, expected: str) -> None:
    e = error(MOVER.replace(old, new))
    assert (e.line, e.path) == (line, path), str(e)
    assert expected in e.expected, str(e)


def _single_expenditure(data: dict) -> bool:
    """Rewrite each mover's total form as one expenditure of that many MF (its activities with
    it); False when an earlier attack is placed at another MF count (no one-expenditure form)."""
    changed = False
    for unit in data.get("units") or []:
        moving = unit.get("moving")
        if not isinstance(moving, dict) or "expenditures" in moving:
            continue
        mf = moving.pop("mf_here", 1)
        if any(a.get("at_mf", mf) != mf for a in unit.get("attacked_here") or []):
            return False
        moving["expenditures"] = [{"mf": mf, "activities": moving.pop("activities", [])}]
        changed = True
    return changed


def test_total_form_answers_as_one_expenditure() -> None:
    """Version-1 files keep their answers: the total form and one expenditure of the same MF agree
    on every question of every case file that can be so rewritten."""
    pairs = []
    for path in iter_case_files([str(ROOT / "tests" / "cases")]):
        if "/matrix/" in Path(path).as_posix():  # the generated matrix: one situation, its counters varied
            continue
        data = read_yaml(path)
        if _single_expenditure(data):
            pairs.append((path, data))
    assert len(pairs) >= 50
    # the first such file of each folder and every 8th (all: ASLRULES_EXHAUSTIVE=1)
    pairs = [(load_file(pairs[k][0]), load_text(yaml.safe_dump(pairs[k][1]), pairs[k][0] + " (expenditures)"))
             for k in stratified([p for p, _ in pairs], 8)]
    total = check([a for a, _ in pairs])
    listed = check([b for _, b in pairs])
    assert len(total) == len(listed)
    for a, b in zip(total, listed):
        assert (a.answer.verdict, a.answer.figures) == (b.answer.verdict, b.answer.figures), a.situation.path
