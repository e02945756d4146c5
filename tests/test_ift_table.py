"""The IFT in the KB (kb/ift_table.lp) is shared/data/ift-results.csv cell for cell, and an
attack's IFT result is read from it only when its dice are given and it is made (A7, the IFT;
the A8.41 and 8.26 EXs, seed 004, state the results the cases in tests/cases check)."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from aslrules.core import ask
from aslrules.loader import load_text

ROOT = Path(__file__).resolve().parent.parent
CSV = ROOT.parent / "shared" / "data" / "ift-results.csv"
COLUMNS = (1, 2, 4, 6, 8, 12, 16, 20, 24, 30, 36)


def kb_table() -> dict[tuple[int, int], str]:
    text = (ROOT / "kb" / "ift_table.lp").read_text(encoding="utf-8")
    return {(int(c), int(r)): v for c, r, v in re.findall(r'ift_cell\((\d+),(\d+),"([^"]+)"\)', text)}


def test_the_kb_table_is_whole_and_holds_the_seed_examples() -> None:
    table = kb_table()
    assert set(table) == {(c, r) for c in COLUMNS for r in range(16)}
    assert table[(12, 3)] == "K/3"  # A8.41 EX: 14 FP, -3, Original 6
    assert table[(8, 8)] == "NMC"  # A8.41 EX: the FPF's Final DR 8 on the 8 column
    assert table[(1, 6)] == "none"  # 8.26 EX 2: 1 FP, -2, Original 8


def test_the_kb_table_is_the_shared_csv() -> None:
    if not CSV.is_file():
        pytest.skip(f"{CSV} is not beside the repo: put shared/ next to it to compare the table")
    rows = list(csv.reader(CSV.read_text(encoding="utf-8").splitlines()))
    assert [int(h[2:]) for h in rows[0][1:]] == list(COLUMNS)
    expected = {(c, int(r[0].strip("<=>"))): ("none" if v == "-" else v) for r in rows[1:]
                for c, v in zip(COLUMNS, r[1:])}
    assert kb_table() == expected


SITUATION = """\
phase: MPh
attacker: russian
units:
  - {id: g, side: german, type: squad, counter: 4-6-7, hex: X2}
  - {id: r, side: russian, type: squad, counter: 6-2-8, hex: W2, moving: {from: V2, mf_here: 1}}
expect:
  - attack: {option: first_fire, firers: [g], targets: [r]DICE}
    verdict: allowed
"""


@pytest.mark.parametrize(("dice", "column", "final_dr", "result"), [
    (", dice: {original: 3, colored: 1}", 8, 1, "2KIA"),    # 8 FP PBF, -2 (FFMO, FFNAM)
    (", dice: {original: 11, colored: 5}", 8, 9, "PTC"),
    (", dice: {original: 2, colored: 1}", 6, 0, "3KIA"),    # doubles: Cowering, one column left (A7.9)
    ("", 8, None, None),                                    # no dice: no Final DR, no result
])
def test_result_only_with_dice(dice: str, column: int, final_dr: int | None, result: str | None) -> None:
    (a,) = ask(load_text(SITUATION.replace("DICE", dice), "ift.yaml"))
    assert a.figure("ift_column") == column and a.figure("drm") == -2
    assert (a.figure("final_dr"), a.figure("ift_result")) == (final_dr, result)


def test_a_forbidden_attack_has_no_result() -> None:
    text = SITUATION.replace("DICE", ", dice: {original: 6, colored: 3}").replace("hex: X2}", "hex: X2, fire: first_fire}")
    (a,) = ask(load_text(text, "ift.yaml"))
    assert a.verdict == "forbidden" and a.figure("ift_result") is None
