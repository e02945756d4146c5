"""Input that only the map's geometry shows to be nonsense (a hex that is not adjacent, two
moving stacks, a range override the grid contradicts): the KB derives `input_error`
(kb/input_checks.lp) and asking the situation is an InputError at the field's line, exit 2.
Each check has a case where it applies and one where it does not."""

from __future__ import annotations

import pytest

from aslrules.core import ask
from aslrules.errors import InputError
from aslrules.loader import load_text

BASE = """\
title: input checks
phase: MPh
attacker: russian
units:
  - id: g-467
    side: german
    type: squad
    counter: 4-6-7
    hex: X2
    weapons: [{id: g-lmg, kind: LMG, fp: 3, range: 8, rof: 3, breakdown: 11}]
  - id: r-628
    side: russian
    type: squad
    counter: 6-2-8
    hex: W2
    moving: {from: V2, mf_here: 1}
expect:
  - attack: {option: first_fire, firers: [g-467], targets: [r-628]}
    verdict: allowed
"""

CA = """\
title: CA input checks
phase: AFPh
attacker: german
units:
  - id: g-crew
    side: german
    type: crew
    counter: 2-2-8
    hex: X3
    weapons: [{id: g-pak, kind: gun, ca: [X2, Y3], calibre: 75L}]
  - id: r-t34
    side: russian
    type: vehicle
    hex: X6
    turret: T
    vca: [X5, Y6]
  - id: r-su
    side: russian
    type: vehicle
    hex: T3
    vca: [T2, U3]
    bypass: U3
expect:
  - ca_change: {firer: g-pak, to: [X2, W3]}
    verdict: allowed
"""


def change(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def error(text: str) -> InputError:
    sit = load_text(text, "case.yaml")
    with pytest.raises(InputError) as caught:
        ask(sit)
    return caught.value


@pytest.mark.parametrize("text", [BASE, CA, BASE + "lines_of_sight:\n  - {from: K2, to_hexside: [H7, G7]}\n", change(BASE, "hex: W2\n", "hex: W2\n    level: 1\n")])
def test_sound_situations_answer(text: str) -> None:
    assert ask(load_text(text, "case.yaml"))


@pytest.mark.parametrize(("text", "line", "path", "expected"), [
    (change(BASE, "from: V2", "from: T5"), 16, "units[1].moving.from", "adjacent"),
    (change(BASE, "from: V2", "from: W2"), 16, "units[1].moving.from", "adjacent"),
    (change(BASE, "expect:\n", "  - {id: r-447, side: russian, type: squad, counter: 4-4-7, hex: Y3, "
            "moving: {from: Y4}}\nexpect:\n"), 17, "units[2].moving", "A8.1"),
    (change(CA, "ca: [X2, Y3]", "ca: [X2, Y2]"), 10, "units[0].weapons[0].ca", "hexspine"),
    (change(CA, "vca: [X5, Y6]", "vca: [X5, Y5]"), 16, "units[1].vca", "hexspine"),
    (change(CA, "bypass: U3", "bypass: U5"), 22, "units[2].bypass", "adjacent"),
    (change(CA, "to: [X2, W3]", "to: [X2, X7]"), 24, "expect[0].ca_change.to", "hexspine"),
    (BASE + "lines_of_sight:\n  - {from: X2, to: W2, range: 3}\n", 21, "lines_of_sight[0].range", "range"),
    (BASE + "lines_of_sight:\n  - {from: K2, to_hexside: [H7, G9]}\n", 21, "lines_of_sight[0].to_hexside",
     "H7 and G9 are not"),
    (change(BASE, "targets: [r-628]}", "targets: [r-628], hexside: [V2, W4]}").replace("first_fire", "snap_shot"),
     18, "expect[0].attack.hexside", "V2 and W4 are not"),
])
def test_nonsense_on_the_map_is_located(text: str, line: int, path: str, expected: str) -> None:
    e = error(text)
    assert (e.line, e.path) == (line, path), str(e)
    assert expected in e.expected, str(e)
