"""kb/input_checks.lp: input that is nonsense by the rules of the map is an input_error/5 atom
(the grid geometry is the KB's, so these checks are too).  Facts are built directly: the loader
would refuse most of these situations before the KB sees them."""

from __future__ import annotations

from clingo import Function, Number, String

from aslrules.core import engine
from aslrules.facts import FactBuilder

COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def hex_fact(fb: FactBuilder, name: str) -> None:
    fb.add("hex", String(name), String(""), Number(COLUMNS.index(name[0])), Number(int(name[1:])))


def unit(fb: FactBuilder, uid: str, at: str) -> None:
    hex_fact(fb, at)
    fb.add("location", String(at), String(at), Number(0))
    fb.add("unit", String(uid))
    fb.add("unit_at", String(uid), String(at))


def errors(fb: FactBuilder) -> set[tuple]:
    atoms = engine().solve(fb.facts)
    return {tuple(str(a) for a in s.arguments[:3]) for s in atoms if s.name == "input_error"}


def test_moving_from_an_adjacent_hex_is_fine() -> None:
    fb = FactBuilder()
    unit(fb, "r", "W2")
    hex_fact(fb, "X2")
    fb.add("moving", String("r"))
    fb.add("moved_from", String("r"), String("X2"))
    assert errors(fb) == set()


def test_moving_from_its_own_hex() -> None:
    """`from` is the hex it left across a hexside (situation-format.md): never its own hex."""
    fb = FactBuilder()
    unit(fb, "r", "W2")
    fb.add("moving", String("r"))
    fb.add("moved_from", String("r"), String("W2"))
    assert errors(fb) == {("unit", "r", "moving.from")}


def test_moving_from_a_distant_hex() -> None:
    fb = FactBuilder()
    unit(fb, "r", "W2")
    hex_fact(fb, "Z5")
    fb.add("moving", String("r"))
    fb.add("moved_from", String("r"), String("Z5"))
    assert errors(fb) == {("unit", "r", "moving.from")}


def test_one_moving_stack_a8_1() -> None:
    fb = FactBuilder()
    unit(fb, "a", "W2")
    unit(fb, "b", "W3")
    unit(fb, "c", "W2")
    for u in "abc":
        fb.add("moving", String(u))
    assert errors(fb) == {("unit", "b", "moving")}


def test_hexspines() -> None:
    """C3.2: two hexes adjacent to each other and to the unit's hex (X2's neighbours: X1 X3 W2 W3
    Y2 Y3, column X lying half a hex below W and Y)."""
    fb = FactBuilder()
    unit(fb, "t", "X2")
    for h in ("X1", "Y1", "Y2", "X3", "W2"):
        hex_fact(fb, h)
    fb.add("vehicle_vca", String("t"), String("X1"), String("Y2"))  # fine
    fb.add("vehicle_tca", String("t"), String("X3"), String("W2"))  # not adjacent to each other
    fb.add("previous_vca", String("t"), String("Y1"), String("X1"))  # Y1 is not next to X2
    fb.add("question", Number(0), Function("ca_change"))
    fb.add("q_firer", Number(0), String("t"))
    fb.add("q_to", Number(0), String("X3"), String("Y2"))  # not adjacent to each other
    assert errors(fb) == {("unit", "t", "tca"), ("unit", "t", "previous_vca"), ("question", "0", "to")}


def test_weapon_ca_bypass_and_entered_from() -> None:
    fb = FactBuilder()
    unit(fb, "g", "X2")
    fb.add("weapon", String("w"))
    fb.add("weapon_of", String("w"), String("g"))
    for h in ("X1", "Y2", "X4"):
        hex_fact(fb, h)
    fb.add("weapon_ca", String("w"), String("X1"), String("X4"))
    fb.add("bypass_hexside", String("g"), String("X4"))
    fb.add("entered_from", String("g"), String("Y2"))  # fine
    assert errors(fb) == {("weapon", "w", "ca"), ("unit", "g", "bypass")}


def test_range_between_hexes_of_one_board() -> None:
    fb = FactBuilder()
    for h in ("X2", "W2"):
        hex_fact(fb, h)
    fb.add("los_range", String("X2"), String("W2"), Number(3))
    assert errors(fb) == {("los", '("X2","W2")', "range")}
