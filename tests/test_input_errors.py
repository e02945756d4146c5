"""Input that only the map's geometry or the rules show to be nonsense (a hex that is not adjacent,
two moving stacks, a range override the grid contradicts, a hexside whose hexes do not touch, a
Residual FP counter placed by an attack that leaves none): the KB
derives `input_error` (kb/input_checks.lp) and asking the situation is an InputError at the
field's line, exit 2.  Each check has a case where it applies and one where it does not.
Source: situation-format.md (the grid, hexspines, `moving.from`); A8.1 (one moving stack); A8.223
(a Snap Shot leaves no Residual FP)."""

from __future__ import annotations

import pytest
from test_loader import BASE, line_of
from test_loader_ca import BASE as CA

from aslrules.core import ask
from aslrules.errors import InputError
from aslrules.loader import load_text


def change(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def error(text: str) -> InputError:
    sit = load_text(text, "case.yaml")
    with pytest.raises(InputError) as caught:
        ask(sit)
    return caught.value


SECOND_MOVER = "  - {id: r-447, side: russian, type: squad, counter: 4-4-7, hex: Y3, moving: {from: Y4}}\nexpect:\n"


@pytest.mark.parametrize("text", [
    BASE, CA,
    BASE + "lines_of_sight:\n  - {from: K2, to_hexside: [H7, G7]}\n",
    change(BASE, "    hex: W2\n", "    hex: W2\n    level: 1\n"),  # entering level 1 of W2 from V2
    change(BASE, "mf_here: 1}", "mf_here: 1, bypass: true, bypass_along: X2}"),  # Bypass of W2 along W2/X2
    change(CA, "to: [X5, Y6], when", "to_hexside: X7, when"),  # the hexside X6 shares with X7
])
def test_sound_situations_answer(text: str) -> None:
    assert ask(load_text(text, "case.yaml"))


@pytest.mark.parametrize(("text", "marker", "path", "expected"), [
    (change(BASE, "from: V2", "from: T5"), "moving: {from: T5", "units[1].moving.from", "adjacent"),
    (change(BASE, "from: V2", "from: W2"), "moving: {from: W2", "units[1].moving.from", "adjacent"),
    (change(BASE, "expect:\n", SECOND_MOVER), "  - {id: r-447", "units[3].moving", "A8.1"),
    (change(CA, "ca: [X2, Y3]", "ca: [X2, Y2]"), "- {id: g-pak", "units[0].weapons[0].ca", "hexspine"),
    (change(CA, "vca: [X5, Y6]", "vca: [X5, Y5]"), "vca: [X5, Y5]", "units[1].vca", "hexspine"),
    (change(CA, "bypass: U3", "bypass: U5"), "  - {id: r-su", "units[2].bypass", "adjacent"),
    (change(CA, "to: [X5, Y6], when", "to: [X5, X7], when"), "  - ca_change: {firer: r-t34",
     "expect[1].ca_change.to", "hexspine"),
    (BASE + "lines_of_sight:\n  - {from: X2, to: W2, range: 3}\n", "  - {from: X2, to: W2",
     "lines_of_sight[0].range", "range"),
    (BASE + "lines_of_sight:\n  - {from: K2, to_hexside: [H7, G9]}\n", "  - {from: K2",
     "lines_of_sight[0].to_hexside", "H7 and G9 are not"),
    (change(BASE, "targets: [r-628]}", "targets: [r-628], hexside: [V2, W4]}").replace("first_fire", "snap_shot"),
     "  - attack:", "expect[0].attack.hexside", "V2 and W4 are not"),
    (change(CA, "to: [X5, Y6], when", "to_hexside: X8, when"), "  - ca_change: {firer: r-t34",
     "expect[1].ca_change.to_hexside", "adjacent"),
    (change(BASE, "mf_here: 1}", "mf_here: 1, bypass: true, bypass_along: X5}"), "moving: {from: V2",
     "units[1].moving.bypass_along", "adjacent"),
    (change(BASE, "mf_here: 1}", "mf_here: 1, bypass_along: X2}"), "moving: {from: V2",
     "units[1].moving.bypass_along", "bypass: true"),
])
def test_nonsense_on_the_map_is_located(text: str, marker: str, path: str, expected: str) -> None:
    e = error(text)
    assert (e.line, e.path) == (line_of(text, marker), path), str(e)
    assert expected in e.expected, str(e)


def placed_by(option: str) -> str:
    """BASE with an earlier attack of `option` on the mover that placed the Residual FP counter."""
    return change(BASE, "moving: {from: V2, mf_here: 1}", "moving: {from: V2, mf_here: 1}\n    attacked_here:\n"
                  f"      - {{option: {option}, fp: 2, placed_residual: true}}")


@pytest.mark.parametrize("option", ["residual_fp", "snap_shot"])
def test_placed_residual_only_on_an_attack_that_leaves_residual(option: str) -> None:
    """A Residual FP attack, or a Snap Shot (A8.223), places no Residual FP counter: kb/input_checks.lp
    finds the flag, at its line."""
    text = placed_by(option)
    e = error(text)
    assert (e.line, e.path) == (line_of(text, "placed_residual"), "units[1].attacked_here[0].placed_residual"), str(e)
    assert "A8.223" in str(e)


def test_placed_residual_by_a_dff_attack_answers() -> None:
    """A DFF attack leaves Residual FP (A8.2): it may be the one that placed the counter."""
    assert ask(load_text(placed_by("first_fire"), "case.yaml"))


def test_a_fire_lane_residual_flag_needs_a_residual_fp_attack() -> None:
    """`fire_lane_residual: true` names the Fire Lane Residual FP attack (A9.22): on a first_fire attack it is an
    error at the attack's line; on a residual_fp attack it loads."""
    bad = change(BASE, "targets: [r-628]}", "targets: [r-628], fire_lane_residual: true}")
    with pytest.raises(InputError) as caught:
        load_text(bad, "case.yaml")
    e = caught.value
    assert (e.line, e.path) == (line_of(bad, "  - attack:"), "expect[0].attack.fire_lane_residual"), str(e)
    assert "residual_fp" in e.expected
    good = bad.replace("option: first_fire, firers: [g-467, g-lmg], director: g-81,", "option: residual_fp,")
    assert load_text(good, "case.yaml").expect[0].question.fire_lane_residual is True


@pytest.mark.parametrize("new", ["to: [X5, Y6], to_hexside: X7, when", "when"])
def test_a_ca_change_names_a_hexspine_or_a_hexside(new: str) -> None:
    """A ca_change question points at a hexspine (`to`) or, to be told it may not (C3.2), at a hexside
    (`to_hexside`): exactly one of the two."""
    bad = change(CA, "to: [X5, Y6], when", new)
    with pytest.raises(InputError) as caught:
        load_text(bad, "case.yaml")
    e = caught.value
    assert (e.line, e.path) == (line_of(bad, "  - ca_change: {firer: r-t34"), "expect[1].ca_change"), str(e)
    assert "exactly one of 'to' and 'to_hexside'" in e.expected
