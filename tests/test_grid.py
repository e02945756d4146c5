"""The grid, through the KB: range, adjacency and ADJACENT are derived by kb/geometry.lp.

Python only parses hex ids; `aslrules.core.geometry` feeds a need_pair/2 fact to the
engine and reads back range/3 and adjacent/2.  The second half asks the same things
the way a player does: a situation with units in the two hexes and a declared attack,
whose PBF, Long Range and LOS reasons show what the KB made of the two hexes.

Sources: situation-format.md "Vocabulary" (the grid and its examples), asl-basics.md
"Geometry" (every seed EX's hexes) and "Firepower" (A.8 ADJACENT, 97 Q&A), seed 004.
"""

from __future__ import annotations

import pytest

from aslrules.core import ask, geometry
from aslrules.errors import InputError
from aslrules.loader import load_text

FORMAT_PAGE = "situation-format.md, Vocabulary"
BASICS = "asl-basics.md, Geometry"


# --------------------------------------------------------------------------- the format page's examples

TOUCHES = [
    ("A1", ["B0", "B1"]),
    ("B1", ["A1", "A2"]),
    ("W2", ["X1", "X2"]),
    ("X2", ["W2", "W3"]),
    ("H7", ["G7", "G8", "I7", "I8"]),
]


@pytest.mark.parametrize(("hex_", "neighbours"), TOUCHES)
def test_format_page_touches(hex_: str, neighbours: list[str]) -> None:
    """situation-format.md: "A1 touches B0 and B1, B1 touches A1 and A2, W2 touches X1 and X2,
    X2 touches W2 and W3, H7 touches G7, G8, I7 and I8"."""
    for other in neighbours:
        g = geometry(hex_, other)
        assert g.range == 1, f"{FORMAT_PAGE}: {hex_} touches {other}, the KB gives range {g.range}"
        assert g.adjacent, f"{FORMAT_PAGE}: {hex_} touches {other}, the KB says not ADJACENT"
        back = geometry(other, hex_)
        assert (back.range, back.adjacent) == (1, True), f"{FORMAT_PAGE}: {other} touches {hex_} too"


@pytest.mark.parametrize(("a", "b", "expected"), [("T9", "T7", 2), ("K2", "G7", 7)])
def test_format_page_ranges(a: str, b: str, expected: int) -> None:
    """situation-format.md: "T9 is two hexes from T7, K2 seven from G7"."""
    assert geometry(a, b).range == expected, FORMAT_PAGE
    assert geometry(b, a).range == expected, FORMAT_PAGE


def test_h7_has_exactly_six_neighbours() -> None:
    """situation-format.md: H7 touches G7, G8, I7 and I8 (and, in its own column, H6 and H8);
    no other hex of the 5x5 block around it touches it."""
    expected = {"G7", "G8", "I7", "I8", "H6", "H8"}
    for col in "FGHIJ":
        for row in range(5, 10):
            other = f"{col}{row}"
            if other == "H7":
                continue
            g = geometry("H7", other)
            assert g.adjacent == (other in expected), f"{FORMAT_PAGE}: H7 and {other}"
            assert (g.range == 1) == (other in expected), f"{FORMAT_PAGE}: H7 and {other}, range {g.range}"


@pytest.mark.parametrize(("a", "b"), [
    ("A1", "B2"),   # B-type hexes lie half a hex below: A1 touches B0/B1, not B2
    ("A2", "B0"),
    ("B1", "A3"),
    ("B1", "C3"),   # B1 touches C1 and C2
    ("W2", "X3"),
    ("X2", "W1"),
    ("H7", "G6"),
    ("H7", "I6"),
    ("H7", "G9"),
    ("H7", "H9"),
    ("T9", "T7"),
])
def test_not_adjacent(a: str, b: str) -> None:
    """situation-format.md: the half-hex offset decides which of the next column's hexes touch."""
    g = geometry(a, b)
    assert g.range is not None and g.range >= 2, f"{FORMAT_PAGE}: {a} and {b} do not touch (range {g.range})"
    assert not g.adjacent, f"{FORMAT_PAGE}: {a} and {b} are not ADJACENT"


# --------------------------------------------------------------------------- the seed EXs' hexes

@pytest.mark.parametrize(("a", "b", "expected", "source"), [
    ("1H5", "H7", 2, "A8.15 EX (seed 004): the 5-2-7 in 1H5 fires at H7"),
    ("1H5", "I7", 2, "A8.15 EX (seed 004): the 5-2-7 in 1H5 has LOS to I7"),
    ("K2", "G7", 7, "A8.15 EX (seed 004): the 4-4-7 in K2, Long Range"),
    ("3R6", "T7", 2, "A8.26 EX (seed 004): 3R6 to T7"),
    ("T9", "T7", 2, "A8.26 EX (seed 004): T9 to T7 through the grain in T8"),
    ("3X1", "Z2", 2, "A8.26 EX (seed 004): 3X1 to Z2 across the hedge"),
    ("W2", "X2", 1, "A8.41 EX (seed 004): the 6-2-8 in W2 next to the Germans in 1X2"),
])
def test_seed_ex_hexes(a: str, b: str, expected: int, source: str) -> None:
    """asl-basics.md "Geometry": every seed EX's hexes agree with the grid."""
    assert geometry(a, b).range == expected, source
    assert geometry(a, b).adjacent == (expected == 1), source


# --------------------------------------------------------------------------- the double-letter columns

@pytest.mark.parametrize(("a", "b", "expected"), [
    ("Z2", "AA2", 1),   # Z (25, B-type) to AA (26, A-type): Z2 touches AA2 and AA3
    ("Z2", "AA3", 1),
    ("Z2", "AA1", 2),
    ("AA1", "BB0", 1),  # AA is A-type: AA1 touches BB0 and BB1
    ("AA1", "BB1", 1),
    ("AA1", "BB2", 2),
    ("FF10", "GG10", 1),  # FF10 is the bottom half-hex of a B-type column
    ("FF0", "GG1", 1),
    ("GG1", "GG10", 9),
    ("AA1", "GG10", 12),  # six columns right moves three rows down on the way
    ("A1", "GG1", 32),
])
def test_double_letter_columns(a: str, b: str, expected: int) -> None:
    """situation-format.md: 33 columns A..Z then AA..GG; A, C, ..., GG (even index) are A-type."""
    assert geometry(a, b).range == expected, f"{FORMAT_PAGE}: {a}-{b}"


# --------------------------------------------------------------------------- ADJACENT is level-sensitive

def test_ground_level_not_adjacent_to_level_2_next_door() -> None:
    """A.8, 97 Q&A (asl-basics.md "Firepower"): ground level is not ADJACENT to level 2 of the
    next building hex, although the hexes touch."""
    g = geometry("X2", "W2@2")
    assert g.range == 1 and not g.adjacent
    assert not geometry("W2@2", "X2").adjacent


def test_ground_level_adjacent_to_level_1_next_door() -> None:
    """A.8 under the default reading adjacent_levels=one_level: one level apart is ADJACENT;
    under the reading same_level it is not."""
    assert geometry("X2", "W2@1").adjacent
    assert geometry("X2@1", "W2@2").adjacent
    assert not geometry("X2", "W2@1", readings={"adjacent_levels": "same_level"}).adjacent
    assert geometry("X2@1", "W2@1", readings={"adjacent_levels": "same_level"}).adjacent


def test_levels_of_one_hex() -> None:
    """A.8 (kb/geometry.lp): two levels of one hex are ADJACENT when one level apart."""
    assert geometry("X2", "X2@1").adjacent
    assert not geometry("X2", "X2@2").adjacent
    assert geometry("X2", "X2@2").range == 0


# --------------------------------------------------------------------------- `range:` and blocked LOS

def test_range_override_between_boards() -> None:
    """situation-format.md: "`range:` on a line of sight overrides that (needed between boards)"."""
    assert geometry("1A1", "2A1").range is None  # the grid cannot measure across boards
    assert geometry("1A1", "2A1", range_override=3).range == 3
    assert geometry("2A1", "1A1", range_override=3).range == 3  # entries hold both ways
    assert geometry("1A1", "2A1", range_override=1).adjacent


def test_range_override_wins_on_one_board() -> None:
    """situation-format.md: `range:` overrides the range computed from the ids."""
    assert geometry("X2", "W2", range_override=4).range == 4
    assert not geometry("X2", "W2", range_override=4).adjacent


def test_blocked_los_is_not_adjacent() -> None:
    """A.8: ADJACENT needs LOS; a `blocked: true` entry removes it (the range stays)."""
    g = geometry("X2", "W2", blocked=True)
    assert g.range == 1 and not g.adjacent


# --------------------------------------------------------------------------- the same, through a situation

def situation(firer_hex: str, target_hex: str, *, counter: str = "4-6-7", los: str = "",
              firer_level: int = 0, target_level: int = 0) -> str:
    return f"""\
title: grid test {firer_hex} -> {target_hex}
phase: MPh
attacker: russian
{los}
units:
  - {{id: g, side: german, type: squad, counter: {counter}, hex: {firer_hex}, level: {firer_level}}}
  - {{id: r, side: russian, type: squad, counter: 6-2-8, hex: {target_hex}, level: {target_level},
     moving: {{mf_here: 1}}}}
expect:
  - attack: {{option: first_fire, firers: [g], targets: [r]}}
    verdict: allowed
"""


def answer(text: str):
    (a,) = ask(load_text(text))
    return a


def fp_rules(a) -> set[str]:
    return {r.rule for rs in a.figure_reasons.get("fp_by_firer", {}).values() for r in rs}


def test_pbf_at_w2_from_x2() -> None:
    """A8.41 EX (seed 004): the 4-6-7 in X2 fires at W2 with PBF (A7.21): 4 x 2 = 8."""
    a = answer(situation("1X2", "W2"))
    assert a.verdict == "allowed"
    assert "A7.21" in fp_rules(a) and a.figure("fp") == 8


def test_no_pbf_up_two_levels() -> None:
    """A.8, 97 Q&A: from ground level at level 2 of the next hex is not ADJACENT: no PBF,
    and the answer says why (a note citing A.8)."""
    a = answer(situation("X2", "W2", target_level=2))
    assert "A7.21" not in fp_rules(a) and a.figure("fp") == 4
    assert "A.8" in {r.rule for r in a.reasons if r.role == "note"}


def test_pbf_up_one_level() -> None:
    """A.8 under adjacent_levels=one_level: level 1 of the next hex is ADJACENT: PBF."""
    a = answer(situation("X2", "W2", target_level=1))
    assert "A7.21" in fp_rules(a) and a.figure("fp") == 8


def test_blocked_los_no_pbf() -> None:
    """A8.1 (DFF needs LOS) and A.8 (ADJACENT needs LOS): a blocked LOS between touching hexes
    forbids the attack and gives no PBF."""
    a = answer(situation("X2", "W2", los="lines_of_sight:\n  - {from: X2, to: W2, blocked: true}"))
    assert a.verdict == "forbidden"
    assert "A8.1" in {r.rule for r in a.reasons if r.role == "forbid"}
    assert "A7.21" not in fp_rules(a)


def test_blocked_los_the_other_way_round() -> None:
    """situation-format.md: a `blocked` entry blocks the LOS both ways."""
    a = answer(situation("X2", "W2", los="lines_of_sight:\n  - {from: W2, to: X2, blocked: true}"))
    assert a.verdict == "forbidden" and "A7.21" not in fp_rules(a)


def test_long_range_k2_to_g7() -> None:
    """A8.15 EX (seed 004): K2 to G7 is range 7, Long Range for a 4-4-7 (Normal Range 4):
    FP halved to 2 (A7.22)."""
    a = answer(situation("K2", "G7", counter="4-4-7"))
    assert "A7.22" in fp_rules(a) and a.figure("fp") == 2


def test_normal_range_1h5_to_h7() -> None:
    """A8.15 EX (seed 004): the 5-2-7 in 1H5 attacks H7 "with five FP": range 2 is its
    Normal Range, no Long Range, no PBF."""
    a = answer(situation("1H5", "H7", counter="5-2-7"))
    assert a.figure("fp") == 5 and not fp_rules(a)


def test_range_override_in_a_situation() -> None:
    """situation-format.md: `range:` between boards; with range 1 the attack is PBF."""
    los = "lines_of_sight:\n  - {from: 1A1, to: 2A1, range: 1}"
    a = answer(situation("1A1", "2A1", los=los))
    assert "A7.21" in fp_rules(a) and a.figure("fp") == 8
    los = "lines_of_sight:\n  - {from: 1A1, to: 2A1, range: 9}"
    a = answer(situation("1A1", "2A1", los=los))
    assert "A7.22" in fp_rules(a) and a.figure("fp") == 2


def test_range_missing_between_boards_is_an_input_error() -> None:
    """situation-format.md: range between boards needs `range:`; without it the file cannot be
    answered (an InputError naming lines_of_sight, exit 2 in the CLI)."""
    with pytest.raises(InputError, match="lines_of_sight"):
        answer(situation("1A1", "2A1"))
