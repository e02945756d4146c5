"""Property: a replay of random legal steps never raises, and its state equals a hand-built
snapshot at each step (issue 18).

The steps are drawn on an open board: Russian 4-4-7s move one at a time (entering an adjacent hex,
or expending MF in place), German 4-6-7s that have not fired First Fire at the mover (no dice: no
IFT result), movements end, the MPh may end.  The snapshot is built here by hand, from the rules as
the test states them: A8.1 (the moving unit, the hex it entered from, the MF it spent there; earlier
movers out of reach; the First Fire counter), A7.21/A7.22 and A8.2 (the Residual FP a 4-6-7 leaves:
half the 8 column at range 1, of the 4 column to range 6, of the 2 column to range 12), A8.21 (the
larger counter stays), A8.2/A8.22 (a counter attacks a mover expending MF in its Location, once,
again only when it has grown; FFNAM and FFMO make its DRM -2 in open ground), A8.14 (the attacks
made on the mover in its Location, at which MF), A8.2 (counters removed at the end of the MPh)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import msgspec
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from aslrules import schema as S
from aslrules.loader import load_text
from aslrules.replay import replay

GERMANS = {"g-a": "E5", "g-b": "H3", "g-c": "K6", "g-d": "F9", "g-e": "N4"}
RUSSIANS = {"r-a": "C3", "r-b": "D8", "r-c": "B5", "r-d": "I8"}
COLUMNS = [chr(c) for c in range(ord("A"), ord("P"))]  # A..O, enough for the walk


def cube(hex_: str) -> tuple[int, int]:
    """The hex's cube coordinates (x, z) on the format's grid (odd columns half a hex lower)."""
    c, r = COLUMNS.index(hex_[0]), int(hex_[1:])
    return c, r - (c - (c & 1)) // 2


def distance(a: str, b: str) -> int:
    (x1, z1), (x2, z2) = cube(a), cube(b)
    return max(abs(x1 - x2), abs(z1 - z2), abs((x1 + z1) - (x2 + z2)))


def neighbours(hex_: str) -> list[str]:
    out = []
    for c in COLUMNS:
        low = 1 if COLUMNS.index(c) % 2 == 0 else 0
        for r in range(low, 11):
            other = f"{c}{r}"
            if other != hex_ and distance(hex_, other) == 1:
                out.append(other)
    return out


def residual_earned(rng: int) -> int:
    """A 4-6-7's First Fire at range rng in open ground: the Residual FP it leaves (A8.2)."""
    fp = 8 if rng == 1 else 4 if rng <= 6 else 2  # PBF x2; Long Range /2 (A7.21, A7.22)
    return fp // 2 if fp > 1 else 0  # half the 8, 4 or 2 column


@st.composite
def turns(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Legal steps: each Russian moves once, in a block; every attack is a German's first."""
    where = dict(RUSSIANS)
    fired: set[str] = set()
    occupied = set(GERMANS.values())
    steps: list[dict[str, Any]] = []
    movers = draw(st.lists(st.sampled_from(sorted(RUSSIANS)), min_size=1, max_size=3, unique=True))
    for m in movers:
        started = False
        for _ in range(draw(st.integers(1, 4))):
            options = ["enter", "in_place"] + (["attack"] if started else [])
            what = draw(st.sampled_from(options))
            if what == "enter":
                to = draw(st.sampled_from([h for h in neighbours(where[m]) if h not in occupied]))
                steps.append({"move": {"units": [m], "to": to, "mf": draw(st.sampled_from([1, 2]))}})
                where[m] = to
                started = True
            elif what == "in_place":
                activities = draw(st.sampled_from([[], ["recover"]]))
                steps.append({"move": {"units": [m], "mf": 1, "activities": activities}})
                started = True
            else:
                firers = [g for g, h in GERMANS.items() if g not in fired and distance(h, where[m]) <= 12]
                if not firers:
                    continue
                g = draw(st.sampled_from(firers))
                fired.add(g)
                steps.append({"attack": {"option": "first_fire", "firers": [g], "targets": [m]}})
        if draw(st.booleans()):
            steps.append({"end": "movement"})
    if draw(st.booleans()):
        steps.append({"end": "mph"})
    return steps


def situation(steps: list[dict[str, Any]]) -> dict[str, Any]:
    units = [{"id": g, "side": "german", "type": "squad", "counter": "4-6-7", "hex": h} for g, h in GERMANS.items()]
    units += [{"id": r, "side": "russian", "type": "squad", "counter": "4-4-7", "hex": h} for r, h in RUSSIANS.items()]
    return {"title": "random legal steps", "source": "tests/test_replay_property.py", "phase": "MPh",
            "attacker": "russian", "units": units, "sequence": steps}


def snapshots(initial: S.Situation, steps: list[dict[str, Any]]) -> list[S.Situation]:
    """The situation before each step and after the last, built by hand (the module docstring's rules)."""
    units = {u.id: msgspec.structs.replace(u) for u in initial.units}
    residual: dict[str, Fraction] = {}
    phase = initial.phase
    out = []

    def state() -> S.Situation:
        return msgspec.structs.replace(initial, units=[msgspec.structs.replace(u) for u in units.values()],
                                       residual_fp=dict(residual), phase=phase, sequence=[])

    def stop(u: S.Unit) -> None:
        u.moving, u.attacked_here = None, []

    for step in steps:
        out.append(state())
        if "move" in step:
            move = step["move"]
            (uid,) = move["units"]
            for other in units.values():  # A8.1: earlier movers out of reach
                if other.id != uid and other.moving is not None:
                    stop(other)
            u = units[uid]
            mf = Fraction(move["mf"])
            flags = {"activities": list(move.get("activities", []))}
            if "to" in move:
                u.moving = S.Moving(frm=u.hex, mf_here=mf, **flags)
                u.hex, u.attacked_here = move["to"], []
            elif u.moving is not None:
                u.moving = S.Moving(frm=u.moving.frm, mf_here=u.moving.mf_here + mf, **flags)
            else:
                u.moving = S.Moving(frm=None, mf_here=mf, **flags)
            counter = residual.get(u.hex, 0)
            before = [a.fp for a in u.attacked_here if a.option == "residual_fp"]
            if counter and (not before or counter > max(before)):  # A8.2, A8.22
                u.attacked_here = [*u.attacked_here, S.AttackedHere(
                    by=[], option="residual_fp", fp=counter, at_mf=u.moving.mf_here, drm=-2)]
        elif "attack" in step:
            (g,) = step["attack"]["firers"]
            (t,) = step["attack"]["targets"]
            firer, target = units[g], units[t]
            firer.fire = "first_fire"
            target.attacked_here = [*target.attacked_here, S.AttackedHere(
                by=[g], option="first_fire", at_mf=target.moving.mf_here)]
            earned = residual_earned(distance(firer.hex, target.hex))
            if earned > residual.get(target.hex, 0):  # A8.21
                residual[target.hex] = Fraction(earned)
        elif step["end"] == "movement":
            for u in units.values():
                stop(u)
        else:  # the end of the MPh
            for u in units.values():
                stop(u)
            residual.clear()
            phase = "DFPh"
    out.append(state())
    return out


#: A turn that draws every rule of the snapshot: a counter placed (1), attacking at the next MF,
#: replaced by a larger one (2, A8.21), attacking again as it grew, not again when it did not
#: (A8.22); a new Location; the end of the MPh.
EVERY_RULE = [
    {"move": {"units": ["r-a"], "to": "D3", "mf": 1}},
    {"attack": {"option": "first_fire", "firers": ["g-c"], "targets": ["r-a"]}},
    {"move": {"units": ["r-a"], "mf": 1, "activities": []}},
    {"attack": {"option": "first_fire", "firers": ["g-a"], "targets": ["r-a"]}},
    {"move": {"units": ["r-a"], "mf": 1, "activities": ["recover"]}},
    {"move": {"units": ["r-a"], "mf": 1, "activities": []}},
    {"move": {"units": ["r-a"], "to": "E4", "mf": 2}},
    {"attack": {"option": "first_fire", "firers": ["g-b"], "targets": ["r-a"]}},
    {"move": {"units": ["r-b"], "to": "D7", "mf": 1}},
    {"end": "mph"},
]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(turns())
@example(EVERY_RULE)
def test_random_legal_replay_matches_the_hand_built_snapshots(steps: list[dict[str, Any]]) -> None:
    import yaml

    sit = load_text(yaml.safe_dump(situation(steps), sort_keys=False), "random.yaml")
    rep = replay(sit)  # never raises
    assert rep.legal, [(s.number, s.problems) for s in rep.steps if not s.legal]
    expected = snapshots(msgspec.structs.replace(sit.data, sequence=[]), steps)
    assert len(rep.states) == len(expected) == len(steps) + 1
    if steps is EVERY_RULE:  # the snapshot is not vacuous: the rules above did apply
        made = [(a.option, a.fp) for a in expected[6].units[5].attacked_here]
        assert made == [("first_fire", None), ("residual_fp", 1), ("first_fire", None), ("residual_fp", 2)]
        assert expected[9].residual_fp == {"D3": 2, "E4": 2} and expected[10].residual_fp == {}
    for n, (got, want) in enumerate(zip(rep.states, expected), 1):
        assert got.phase == want.phase, n
        assert {k: v for k, v in got.residual_fp.items()} == want.residual_fp, (n, steps)
        for g, w in zip(got.units, want.units):
            assert g == w, (n, g, w, steps)


REPLAY_TEXTS = [p.read_text(encoding="utf-8") for p in sorted(
    (__import__("pathlib").Path(__file__).resolve().parent / "cases" / "replays").glob("*.yaml"))]
NEAR = ["W2", "X2", "X2@1", "Z9", "3T7", "r-628", "g-467", "g-lmg", "nobody", "movement", "mph", "first_fire",
        "residual_fp", 0, 1, 2, 7, 12, 13, -1, 0.5, True, None, [], {}, "3-2-8", "eliminated", "berserk"]


@st.composite
def mutated_replay(draw: st.DrawFn) -> str:
    """A replay case with 1-3 of its sequence's values dropped, replaced or duplicated."""
    import copy

    import yaml

    tree = yaml.safe_load(draw(st.sampled_from(REPLAY_TEXTS)))
    for _ in range(draw(st.integers(1, 3))):
        spots: list[tuple[Any, Any]] = []

        def walk(node: Any) -> None:
            items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else []
            for k, v in items:
                spots.append((node, k))
                walk(v)

        walk(tree["sequence"])
        if not spots:
            break
        parent, key = draw(st.sampled_from(spots))
        op = draw(st.sampled_from(["drop", "replace", "duplicate"]))
        if op == "drop":
            del parent[key]
        elif op == "replace":
            parent[key] = copy.deepcopy(draw(st.sampled_from(NEAR)))
        elif isinstance(parent, list):
            parent.append(copy.deepcopy(parent[key]))
    return yaml.safe_dump(tree, sort_keys=False)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_replay())
def test_replay_cli_exit_status_on_mutated_replays(text: str) -> None:
    """Whatever a broken sequence holds, `aslrules replay` (and --at, and check) exits 0, 1 or 2,
    never with a traceback."""
    import io
    import os
    import tempfile
    from contextlib import redirect_stderr, redirect_stdout

    from aslrules.cli import main

    fd, name = tempfile.mkstemp(suffix=".yaml")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        for args in (["replay", name], ["replay", name, "--format", "json"], ["replay", name, "--at", "2"],
                     ["check", name]):
            err = io.StringIO()
            with redirect_stdout(io.StringIO()), redirect_stderr(err):
                code = main(args)
            assert code in (0, 1, 2), (args, code)
            assert "Traceback" not in err.getvalue()
    finally:
        os.unlink(name)
