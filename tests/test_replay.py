"""`aslrules replay`: a turn as a sequence of steps, the state carried by the KB (issue 18).

Each kind of step (a move entering a hex, an expenditure in place, an attack, a Residual FP attack
a move triggers, the end of a movement, the end of the MPh) and each piece of state a step carries
(fire counters, Residual FP counters, what attacked the mover where and at which MF, direction,
Casualty Reduction, Morale Checks, the FPF firers' NMC, who moves) is tested here against the
source that states it; the seed EXs are replay cases (tests/cases/replays/, checked by
tests/test_cases.py).  `--at N` round-trips: `aslrules ask` answers the situation before step N
as the replay answered step N."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from fractions import Fraction
from pathlib import Path

import pytest

from aslrules import schema as S
from aslrules.cli import main
from aslrules.core import ask, engine
from aslrules.errors import InputError
from aslrules.loader import load_text
from aslrules.replay import replay, replay_outcomes, situation_at

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = sorted((ROOT / "tests" / "cases" / "replays").glob("*.yaml"))


def cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
    return code, out.getvalue(), err.getvalue()


HEAD = """\
title: {title}
source: {source}
phase: MPh
attacker: russian
locations:
  X2: {{terrain: stone building, tem: 3}}
units:
  - {{id: g-467, side: german, type: squad, counter: 4-6-7, hex: X2}}
  - {{id: g-447, side: german, type: squad, counter: 4-4-7, hex: Y2}}
  - {{id: g-81, side: german, type: leader, counter: 8-1, hex: X2}}
  - {{id: r-628, side: russian, type: squad, counter: 6-2-8, hex: V2}}
  - {{id: r-447, side: russian, type: squad, counter: 4-4-7, hex: V2}}
  - {{id: r-80, side: russian, type: leader, counter: 8-0, hex: U2}}
sequence:
"""


def run(steps: str, title: str = "a test replay", source: str = "tests/test_replay.py", **kw: object):
    sit = load_text(HEAD.format(title=title, source=source) + steps, "replay.yaml")
    return replay(sit, **kw)


def unit(rep, uid: str, after: int | None = None) -> S.Unit | None:
    state = rep.states[-1 if after is None else after]
    return next((u for u in state.units if u.id == uid), None)


# --------------------------------------------------------------------------- moves


def test_move_enters_a_hex_across_a_hexside() -> None:
    """A8.1: the mover expends MF in the Location it enters: it is the moving unit there, having
    crossed the hexside from the hex it left, with the MF spent there so far."""
    rep = run("  - move: {units: [r-628], to: W2, mf: 1}\n")
    u = unit(rep, "r-628")
    assert (u.hex, u.moving.frm, u.moving.mf_here) == ("W2", "V2", 1)
    assert [c.field for c in rep.steps[0].changes if c.key == "r-628"] and rep.legal
    assert "A8.1" in {r.rule for r in rep.steps[0].answer.reasons}


def test_move_in_place_adds_up_mf() -> None:
    """A8.12: an expenditure in the Location makes it a DFF target there; A8.14/A9.2 count the MF
    expended in the Location: in place they add up, and the hex it entered from stays."""
    rep = run("  - move: {units: [r-628], to: W2, mf: 1}\n"
              "  - move: {units: [r-628], mf: 1, activities: [recover]}\n")
    u = unit(rep, "r-628")
    assert (u.hex, u.moving.frm, u.moving.mf_here, u.moving.activities) == ("W2", "V2", 2, ["recover"])
    assert "A8.12" in {r.rule for r in rep.steps[1].answer.reasons}


def test_a_new_location_starts_afresh() -> None:
    """A8.14, A8.22: the attacks on a mover count in its Location (A8.2: its second MF in W2 draws
    the Residual FP the First Fire left there); entering the next one, none has been made there
    yet, and its MF there start from the entry."""
    rep = run("  - move: {units: [r-628], to: W2, mf: 1}\n"
              "  - attack: {option: first_fire, firers: [g-447], targets: [r-628]}\n"
              "  - move: {units: [r-628], mf: 1}\n"
              "  - move: {units: [r-628], to: W1, mf: 1}\n")
    assert [a.option for a in unit(rep, "r-628", after=3).attacked_here] == ["first_fire", "residual_fp"]
    u = unit(rep, "r-628")
    assert (u.hex, u.moving.mf_here, u.attacked_here) == ("W1", 1, [])


def test_another_mover_ends_the_earlier_ones_movement() -> None:
    """A8.1: once another unit begins movement, previously moved units are no longer subject to
    DFF (A8.11: the end of the first unit's movement is taken as declared)."""
    rep = run("  - move: {units: [r-628], to: W2, mf: 1}\n"
              "  - move: {units: [r-447], to: W2, mf: 1}\n")
    assert unit(rep, "r-628").moving is None and unit(rep, "r-447").moving is not None
    assert any(r.rule == "A8.1" and "no longer the moving unit" in r.text for r in rep.steps[1].answer.reasons)


def test_end_of_movement_and_of_the_mph() -> None:
    """A8.1: after the end of its movement a unit is out of reach of DFF; A8.2: Residual FP counters
    are removed at the end of the MPh; A8.4: fire counters stay into the DFPh."""
    rep = run("  - move: {units: [r-628], to: W2, mf: 1}\n"
              "  - attack: {option: first_fire, firers: [g-467], targets: [r-628]}\n"
              "  - end: movement\n"
              "  - end: mph\n")
    assert unit(rep, "r-628", after=3).moving is None
    assert rep.states[3].residual_fp == {"W2": 4} and rep.states[4].residual_fp == {}
    assert rep.states[4].phase == "DFPh" and unit(rep, "g-467").fire == "first_fire"


# --------------------------------------------------------------------------- attacks


def test_attack_carries_fire_counters_direction_residual_and_the_attack_made() -> None:
    """A8.1 (First Fire counter: the KB's `after` figure), A7.53 (the leader has directed these
    firers this phase), A8.2 (Residual FP: half the 8 column), A8.14 (the attack on the mover in W2,
    at its first MF)."""
    rep = run("  - move: {units: [r-628], to: W2, mf: 1}\n"
              "  - attack: {option: first_fire, firers: [g-467], director: g-81, targets: [r-628]}\n")
    assert unit(rep, "g-467").fire == "first_fire" and unit(rep, "g-81").directed == ["g-467"]
    assert rep.states[-1].residual_fp == {"W2": 4}
    made = unit(rep, "r-628").attacked_here
    assert [(a.option, a.by, a.at_mf) for a in made] == [("first_fire", ["g-467"], 1)]


def test_a_forbidden_attack_changes_nothing_and_is_not_legal() -> None:
    """A8.1: a unit marked First Fire may not First Fire again that MPh; A8.14: not again before the
    mover expends more MF.  The step is not legal, with every forbidding rule, and the replay goes
    on without it."""
    rep = run("  - move: {units: [r-628], to: W2, mf: 1}\n"
              "  - attack: {option: first_fire, firers: [g-467], targets: [r-628]}\n"
              "  - attack: {option: first_fire, firers: [g-467], targets: [r-628]}\n"
              "  - move: {units: [r-628], to: W1, mf: 1}\n")
    bad = rep.steps[2]
    assert [s.number for s in rep.steps if not s.legal] == [3]
    assert {r.rule for r in bad.problems} >= {"A8.1", "A8.14"} and {r.role for r in bad.problems} == {"forbid"}
    assert bad.changes == [] and rep.states[3] == rep.states[2] and "goes on without it" in bad.continues
    assert unit(rep, "r-628").hex == "W1"  # it went on


def test_the_larger_residual_counter_stays() -> None:
    """A8.21: one Residual FP counter per Location; a larger one earned later replaces a smaller,
    a smaller one does not (8.26 EX 1: "Only the larger of the two ... remains")."""
    rep = run("  - move: {units: [r-628], to: W2, mf: 2}\n"
              "  - attack: {option: first_fire, firers: [g-447], targets: [r-628]}\n"  # range 2: 4 FP, 2 left
              "  - attack: {option: first_fire, firers: [g-467], targets: [r-628]}\n"  # PBF 8 FP: 4 replaces 2
              "  - attack: {option: subsequent_first_fire, firers: [g-447], targets: [r-628]}\n")  # SFF 2 FP: 1
    assert [s.residual_fp.get("W2") for s in rep.states[2:]] == [2, 4, 4]


# --------------------------------------------------------------------------- the IFT result


def test_morale_check_outcomes() -> None:
    """asl-basics.md "Morale Check": Final DR < ML passes, = ML pins, > ML breaks.  A 4-6-7 PBF at
    the 6-2-8 in open ground (8 FP, -2 FFNAM/FFMO): Original 8 is Final 6, a 1MC; ML 8."""
    for dr, outcome, status in ((6, "passed", []), (7, "pinned", ["pinned"]), (8, "broken", ["broken"])):
        rep = run("  - move: {units: [r-628], to: W2, mf: 1}\n"
                  "  - attack: {option: first_fire, firers: [g-467], targets: [r-628],"
                  f" dice: {{original: 8, colored: 3}}, morale: {{r-628: {dr}}}}}\n")
        ans = rep.steps[1].answer
        assert ans.figure("ift_result") == "1MC" and ans.figure("mc_dr") == {"r-628": dr + 1}
        assert ans.figure("morale_check") == {"r-628": outcome}
        assert unit(rep, "r-628").status == status


def test_a_leader_checks_first_and_a_pinned_leader_loses_his_drm() -> None:
    """asl-basics.md: a leader does not modify his own Morale Checks; he checks first, and if he is
    pinned or broken his DRM is lost to the others (A7.831, as the 8.41 EX's FPF NMC)."""
    sit = HEAD.replace("{id: r-80, side: russian, type: leader, counter: 8-0, hex: U2}",
                       "{id: r-80, side: russian, type: leader, counter: 9-1, hex: V2}")
    for leader_dr, squad_final, leader_outcome in ((6, 8, "passed"), (8, 9, "pinned")):
        s = load_text(sit.format(title="leader", source="asl-basics.md, A7.831") +
                      "  - move: {units: [r-628, r-80], to: W2, mf: 1}\n"
                      "  - attack: {option: first_fire, firers: [g-467], targets: [r-628, r-80],"
                      f" dice: {{original: 8, colored: 3}}, morale: {{r-628: 8, r-80: {leader_dr}}}}}\n", "l.yaml")
        ans = replay(s).steps[1].answer
        # 1MC: the 9-1 checks at 6+1 or 8+1 against 9 without his DRM; the 6-2-8 at 8+1, -1 if he passed
        assert ans.figure("morale_check")["r-80"] == leader_outcome
        assert ans.figure("mc_dr") == {"r-80": leader_dr + 1, "r-628": squad_final}


@pytest.mark.parametrize(("reading", "outcome", "gone"), [("eliminated", "eliminated", True), ("broken", "broken", False)])
def test_berserk_morale_level_and_failure(reading: str, outcome: str, gone: bool) -> None:
    """The 8.41 EX: a berserk unit checks at Morale Level 10 and, failing, is eliminated ("fails to
    eliminate it when it passes the 3MC"): reading berserk_mc=eliminated (default); =broken: it
    breaks as any unit (docs/readings.md)."""
    text = HEAD.format(title="berserk", source="A8.41 EX (seed 004)").replace(
        "counter: 6-2-8, hex: V2}", "counter: 6-2-8, hex: V2, status: [berserk]}")
    text = text.replace("locations:", f"readings: {{berserk_mc: {reading}}}\nlocations:")
    rep = replay(load_text(text + "  - move: {units: [r-628], to: W2, mf: 1}\n"
                           "  - attack: {option: first_fire, firers: [g-467], targets: [r-628],"
                           " dice: {original: 8, colored: 3}, morale: {r-628: 10}}\n", "b.yaml"))
    ans = rep.steps[1].answer
    assert ans.figure("mc_dr") == {"r-628": 11} and ans.figure("morale_check") == {"r-628": outcome}
    assert (unit(rep, "r-628") is None) == gone


def test_ptc_pins_and_never_breaks() -> None:
    """P16 (Perry Sez): a failed PTC is a Pin result.  The 4-4-7 in Y2 at range 2 (4 FP, -2): an
    Original 9 is Final 7, a PTC on the 4 column."""
    for dr, outcome in ((8, "passed"), (9, "pinned"), (12, "pinned")):
        rep = run("  - move: {units: [r-628], to: W2, mf: 1}\n"
                  "  - attack: {option: first_fire, firers: [g-447], targets: [r-628],"
                  f" dice: {{original: 9, colored: 4}}, morale: {{r-628: {dr}}}}}\n")
        ans = rep.steps[1].answer
        assert ans.figure("ift_result") == "PTC" and ans.figure("morale_check") == {"r-628": outcome}


def test_casualty_reduction_and_kia() -> None:
    """The IFT: K/n reduces one unit (Random Selection, the player names it) and every target takes
    a nMC, the reduced one as its Half-Squad (the 8.41 EX's 3-2-8); nKIA eliminates the units named."""
    rep = run("  - move: {units: [r-628], to: W2, mf: 1}\n"
              "  - attack: {option: first_fire, firers: [g-467], director: g-81, targets: [r-628],"
              " dice: {original: 3, colored: 1}, casualties: {r-628: eliminated}}\n")
    assert rep.steps[1].answer.figure("ift_result") == "3KIA" and unit(rep, "r-628") is None and rep.legal
    rep = run("  - move: {units: [r-628], to: W2, mf: 1}\n"
              "  - attack: {option: first_fire, firers: [g-467], director: g-81, targets: [r-628],"
              " dice: {original: 6, colored: 1}, casualties: {r-628: 3-2-8}, morale: {r-628: 4}}\n")
    ans = rep.steps[1].answer
    assert ans.figure("ift_result") == "K/2" and ans.figure("casualty") == {"r-628": "3-2-8"}
    u = unit(rep, "r-628")
    assert (u.type, u.counter, ans.figure("morale_check")) == ("half_squad", "3-2-8", {"r-628": "passed"})


def test_unsettled_consequences_are_not_legal() -> None:
    """The IFT's K/n falls on a unit by Random Selection: without `casualties:` (or a Morale Check
    without its DR) the replay cannot carry it; the step is not legal, the replay goes on."""
    rep = run("  - move: {units: [r-628], to: W2, mf: 1}\n"
              "  - attack: {option: first_fire, firers: [g-467], director: g-81, targets: [r-628],"
              " dice: {original: 6, colored: 1}}\n"
              "  - end: movement\n")
    assert [s.number for s in rep.steps if not s.legal] == [2]
    assert {r.role for r in rep.steps[1].problems} == {"unresolved"}
    assert unit(rep, "r-628").counter == "6-2-8" and len(rep.steps) == 3


def test_fpf_firers_results_are_carried() -> None:
    """A8.31: the FPF firers take the Original DR, modified only by leadership, as a NMC; the 8.41
    EX: an 8 pins the 8-1 and, his DRM lost (A7.831), breaks the 4-6-7."""
    rep = replay(load_text((ROOT / "tests/cases/replays/ex_8_41_fpf_dr8.yaml").read_text(), "dr8.yaml"))
    assert unit(rep, "g-81").status == ["pinned"] and unit(rep, "g-467").status == ["broken"]


# --------------------------------------------------------------------------- Residual FP attacks


def test_a_move_onto_residual_fp_is_attacked_first_once() -> None:
    """A8.2: a unit entering (or expending MF in) a Location with Residual FP is attacked by it, with
    a new IFT DR; A8.22: first, and only once per Location (again only if it grew or the DRM fell)."""
    rep = run("  - move: {units: [r-628], to: W2, mf: 1}\n"
              "  - attack: {option: first_fire, firers: [g-467], targets: [r-628]}\n"
              "  - end: movement\n"
              "  - move: {units: [r-447], to: W2, mf: 1}\n"
              "    residual: {dice: {original: 10, colored: 5}}\n"
              "  - move: {units: [r-447], mf: 1}\n")
    entry, again = rep.steps[3], rep.steps[4]
    assert entry.residual.verdict == "mandatory" and entry.residual.figure("fp") == 4
    assert (entry.residual.figure("final_dr"), entry.residual.figure("ift_result")) == (8, "none")
    made = unit(rep, "r-447").attacked_here
    assert [(a.option, a.fp, a.at_mf, a.drm) for a in made] == [("residual_fp", 4, 1, -2)]
    assert again.residual.verdict == "forbidden" and "A8.22" in {r.rule for r in again.residual.reasons}
    assert again.legal  # it does not attack: nothing is missing


def test_residual_dice_where_no_residual_attack_happens_are_not_legal() -> None:
    """A8.2: a unit leaving a Location is not attacked by its Residual FP; dice stated for a
    Residual FP attack that does not happen are an error of the replay."""
    rep = run("  - move: {units: [r-628], to: W2, mf: 1}\n"
              "    residual: {dice: {original: 10, colored: 5}}\n")
    assert not rep.legal and rep.steps[0].residual is None


def test_skipped_mandatory_attack() -> None:
    """A8.312: an armed, unbroken Infantry DEFENDER must attack an MMC entering its Location at once;
    a step that moves the play on without that attack skips it (not legal), and the replay goes on."""
    rep = run("  - move: {units: [r-628], to: W2, mf: 1}\n"
              "  - move: {units: [r-628], to: X2, mf: 2}\n"
              "  - move: {units: [r-628], mf: 1}\n"
              "  - attack: {option: first_fire, firers: [g-467], targets: [r-628]}\n"
              "  - end: movement\n")
    assert [s.number for s in rep.steps if not s.legal] == [3]
    assert {(r.role, r.rule) for r in rep.steps[2].problems} == {("skipped", "A8.312")}
    assert rep.steps[3].answer.verdict == "mandatory" and rep.legal is False


# --------------------------------------------------------------------------- the seed EXs and --at


@pytest.mark.parametrize("path", REPLAYS, ids=lambda p: p.name)
def test_replay_cases(path: Path) -> None:
    """Each replay case holds at every step; a case stating an illegal step (`legal: false`) finds
    the replay not legal exactly there."""
    sit = load_text(path.read_text(encoding="utf-8"), str(path))
    rep = replay(sit)
    assert all(c.passed for c in rep.checks), [(c.line, c.mismatches) for c in rep.checks if not c.passed]
    stated = {s.number for s in rep.steps for c in s.checks if c.kind == "legal"}
    assert {s.number for s in rep.steps if not s.legal} == stated
    assert all(o.passed for o in replay_outcomes(sit))


@pytest.mark.parametrize("path", REPLAYS, ids=lambda p: p.name)
def test_at_n_round_trips(path: Path) -> None:
    """`replay --at N` is the situation before step N as a plain file: `aslrules ask` gives the same
    answer to step N's attack as the replay did, and the file replays into the same state."""
    sit = load_text(path.read_text(encoding="utf-8"), str(path))
    rep = replay(sit)
    n_steps = len(sit.data.sequence)
    for n in range(1, n_steps + 2):
        text = situation_at(sit, n)
        at = load_text(text, f"at{n}.yaml")
        assert not at.data.sequence
        for field in ("units", "residual_fp", "phase", "locations", "lines_of_sight"):
            assert getattr(at.data, field) == getattr(rep.states[n - 1], field), (n, field)
        step = sit.data.sequence[n - 1] if n <= n_steps else None
        if step is not None and step.attack is not None:
            (answer,) = ask(at)
            assert answer == rep.steps[n - 1].answer, n
        else:
            assert not at.ask


def test_the_8_41_ex_figures() -> None:
    """The 8.41 EX, every figure it states, each at its step (the case file states them; here the
    carried state at the end: the 3-2-8, the Final Fire counters, the FPF passed)."""
    rep = replay(load_text((ROOT / "tests/cases/replays/ex_8_41.yaml").read_text(), "ex.yaml"))
    assert rep.ok and len(rep.steps) == 9
    first, sff, fpf = rep.steps[1].answer, rep.steps[3].answer, rep.steps[6].answer
    assert (first.figure("fp"), first.figure("drm"), first.figure("ift_result")) == (14, -3, "K/3")
    assert (sff.verdict, sff.figure("fp"), sff.figure("drm"), sff.figure("breakdown")) == \
           ("mandatory", Fraction(21, 2), 1, {"g-lmg": 9})
    residual = rep.steps[5].residual
    assert (residual.figure("fp"), residual.figure("drm"), residual.figure("ift_result")) == (4, 2, "none")
    assert (fpf.figure("final_dr"), fpf.figure("fpf_nmc_dr")) == (8, 6)
    r628 = unit(rep, "r-628")
    assert (r628.counter, r628.type, r628.status) == ("3-2-8", "half_squad", ["berserk"])
    assert unit(rep, "g-467").fire == "final_fire" and rep.states[-1].phase == "DFPh"


# --------------------------------------------------------------------------- the command line


def test_cli_exit_status_text_and_json() -> None:
    """Exit 0 when every step is legal and every expect holds, 1 otherwise; the JSON has the same
    steps."""
    good = str(ROOT / "tests/cases/replays/ex_8_41.yaml")
    code, out, err = cli("replay", good)
    assert code == 0 and err == "" and out.strip().endswith("16 expectations hold, 0 failed")
    assert "step 6 (line " in out and "Residual FP attack:" in out and "r-628: now 3-2-8" in out
    code, out, _ = cli("replay", good, "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["legal"] and len(data["steps"]) == 9 and data["failed"] == 0
    assert data["steps"][1]["answer"]["figures"]["ift_result"] == "K/3"
    code, out, _ = cli("replay", str(ROOT / "tests/cases/replays/illegal_first_fire_twice.yaml"))
    assert code == 1 and "not legal at step(s) 3" in out and "forbidden by A8.1" in out


def test_cli_failed_expectation_exits_1(tmp_path: Path) -> None:
    text = (ROOT / "tests/cases/replays/ex_8_26_1.yaml").read_text().replace("residual_fp: {3T7: 2}\n          units:\n            r-447",
                                                                              "residual_fp: {3T7: 1}\n          units:\n            r-447")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text)
    code, out, _ = cli("replay", str(bad))
    assert code == 1 and "state.residual_fp.3T7: expected 1, got 2" in out
    code, out, _ = cli("check", str(bad))
    assert code == 1 and "sequence[2].expect[1]" in out


@pytest.mark.parametrize(("old", "new", "says"), [
    ("fire: {g-81: final_fire}", "fire: {g-81: final_fire, g-467: final_fire}",
     "changes.fire: expected {g-467: final_fire, g-81: final_fire}, got {g-81: final_fire}"),
    ("status: {g-81: pinned, g-467: broken}", "status: {g-81: pinned}",
     "changes.status: expected {g-81: [pinned]}, got {g-467: [broken], g-81: [pinned]}"),
])
def test_a_changes_item_fails_when_the_step_changes_otherwise(tmp_path: Path, old: str, new: str, says: str) -> None:
    """`changes:` lists every key of a field the step changes: one more, or one less, fails."""
    text = (ROOT / "tests/cases/replays/ex_8_41_fpf_dr8.yaml").read_text()
    assert old in text
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace(old, new))
    code, out, _ = cli("replay", str(bad))
    assert code == 1 and says in out, out


@pytest.mark.parametrize(("steps", "where", "expected"), [
    ("  - {move: {units: [r-628], to: W2}, end: movement}\n", "sequence[0]", "exactly one of move, attack, end"),
    ("  - end: movement\n    residual: {dice: {original: 7}}\n", "sequence[0].residual", "only in a move step"),
    ("  - move: {units: [r-628], to: Z9}\n", "sequence[0].move.to", "adjacent to V2"),
    ("  - move: {units: [r-628], to: W2, mf: 0}\n", "sequence[0].move.mf", "more than 0"),
    ("  - move: {units: [g-467], to: W2}\n", "sequence[0].move.units", "units of the ATTACKER"),
    ("  - move: {units: [r-628, r-80], to: V1}\n", "sequence[0].move.units", "one stack"),
    ("  - move: {units: [r-628], to: W2}\n  - attack: {option: first_fire, firers: [g-467], targets: [r-628],"
     " dice: {original: 7}, morale: {r-447: 7}}\n", "sequence[1].attack.morale", "not one"),
    ("  - attack: {option: first_fire, firers: [g-467], targets: [r-628], morale: {r-628: 7}}\n",
     "sequence[0].attack.dice", "an IFT DR"),
    ("  - end: movement\n    expect: [{answer: {verdict: allowed}}]\n", "sequence[0].expect[0].answer", "only in an"),
    ("  - end: movement\n    expect: [{state: {}, legal: true}]\n", "sequence[0].expect[0]", "exactly one of"),
    ("  - end: movement\n    expect: [{question: {attack: {option: first_fire, targets: [r-628]}, verdict: allowed}}]\n",
     "sequence[0].expect[0].question.attack.firers", "at least one firer"),
    ("  - end: mph\n  - end: mph\n", "sequence[1].end", "in the MPh"),
    ("  - move: {units: [nobody], to: W2}\n", "sequence[0].move.units[0]", "the id of a unit"),
])
def test_bad_sequences_exit_2(tmp_path: Path, steps: str, where: str, expected: str) -> None:
    """Bad input: `file:line: field.path: what was expected`, exit 2, no traceback."""
    bad = tmp_path / "bad.yaml"
    bad.write_text(HEAD.format(title="bad", source="test") + steps)
    code, out, err = cli("replay", str(bad))
    assert code == 2, (out, err)
    assert err.startswith(f"aslrules: error: {bad}:") and f": {where}: expected " in err and expected in err, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_at_out_of_range_and_no_sequence(tmp_path: Path) -> None:
    code, _, err = cli("replay", str(ROOT / "tests/cases/replays/ex_8_26_1.yaml"), "--at", "9")
    assert code == 2 and "--at: expected a step number from 1 to 4" in err
    code, _, err = cli("replay", str(ROOT / "examples/berserk_charge.yaml"))
    assert code == 2 and "sequence: expected a situation with a `sequence:`" in err
    code, _, err = cli("replay", str(ROOT / "tests/cases/replays/ex_8_26_1.yaml"), "--at", "0")
    assert code == 2


# --------------------------------------------------------------------------- facts


def test_replay_facts_are_declared_inputs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every fact a replay's steps add is declared in kb/input.lp (hygiene, as for a situation's)."""
    from aslrules.solve import kb_files
    from aslrules.fast.program import input_signatures

    declared = input_signatures(kb_files())
    eng = engine()
    seen: set[tuple[str, int]] = set()
    real = eng.solve

    def solve(facts):  # type: ignore[no-untyped-def]
        seen.update((p, len(a)) for p, a in facts)
        return real(facts)

    monkeypatch.setattr(eng, "solve", solve)
    for path in REPLAYS:
        replay(load_text(path.read_text(encoding="utf-8"), str(path)), eng=eng)
    assert {("q_step", 1), ("q_mover", 2), ("q_enter", 2), ("q_mf", 2), ("q_morale", 3), ("q_casualty", 3)} <= seen
    assert seen - declared == set()


def test_input_error_of_a_later_step_names_that_step() -> None:
    """The KB's input checks of a step asked of the situation as it then stands (W2 to Z9 is no
    move across a hexside) name that step's field."""
    with pytest.raises(InputError) as e:
        run("  - move: {units: [r-628], to: W2}\n  - move: {units: [r-628], to: Z9}\n")
    assert e.value.path == "sequence[1].move.to"


def test_casualties_the_result_does_not_call_for_are_unresolved() -> None:
    """The IFT: only K/n reduces (and only a squad to another counter) and only nKIA eliminates;
    a casualty named otherwise cannot be carried: unresolved, and nothing changes for it."""
    rep = run("  - move: {units: [r-628], to: W2, mf: 1}\n"
              "  - attack: {option: first_fire, firers: [g-467], targets: [r-628],"
              " dice: {original: 10, colored: 4}, casualties: {r-628: eliminated}, morale: {r-628: 5}}\n")
    ans = rep.steps[1].answer
    assert ans.figure("ift_result") == "NMC" and ans.figure("casualty") is None
    assert [(r.role, r.rule) for r in rep.steps[1].problems] == [("unresolved", "IFT")]
    assert unit(rep, "r-628") is not None and ans.figure("morale_check") == {"r-628": "passed"}
    text = HEAD.replace("{id: r-80, side: russian, type: leader, counter: 8-0, hex: U2}",
                        "{id: r-80, side: russian, type: leader, counter: 8-0, hex: V2}")
    rep = replay(load_text(text.format(title="SMC", source="the IFT") +
                           "  - move: {units: [r-628, r-80], to: W2, mf: 1}\n"
                           "  - attack: {option: first_fire, firers: [g-467], director: g-81, targets: [r-628, r-80],"
                           " dice: {original: 6, colored: 1}, casualties: {r-80: 4-2-8}, morale: {r-628: 5, r-80: 5}}\n",
                           "smc.yaml"))
    ans = rep.steps[1].answer
    assert ans.figure("ift_result") == "K/2" and ans.figure("casualty") is None
    assert any(r.role == "unresolved" and "only a squad" in r.text for r in rep.steps[1].problems)


def test_replay_steps_ground_without_warnings(monkeypatch: pytest.MonkeyPatch) -> None:
    """KB hygiene for the steps' facts (tests/test_kb_hygiene.py grounds the cases' situations and
    questions only): the whole KB grounds with clingo's warnings on, for every question a replay of
    the 8.41 EX asks, with no undefined atom and no global variable in an aggregate (a `#show` of
    a signature one question does not derive is no matter: the cases together derive each)."""
    import clingo

    from aslrules.solve import kb_files
    from aslrules.symbols import add_facts

    eng = engine()
    asked: list = []
    real = eng.solve

    def solve(facts):  # type: ignore[no-untyped-def]
        asked.append(list(facts))
        return real(facts)

    monkeypatch.setattr(eng, "solve", solve)
    replay(load_text((ROOT / "tests/cases/replays/ex_8_41.yaml").read_text(), "ex.yaml"), eng=eng)
    for facts in asked:
        messages: list[str] = []
        ctl = clingo.Control(logger=lambda code, text: messages.append(text), message_limit=1000)
        for f in kb_files():
            ctl.load(str(f))
        with ctl.backend() as backend:
            add_facts(backend, facts)
        ctl.ground([("base", [])])
        messages = [m for m in messages if "no atoms over signature occur in program" not in m]
        assert not messages, "\n".join(messages)


def test_a_step_naming_an_eliminated_unit_is_bad_input() -> None:
    """A unit eliminated earlier in the replay (its weapons with it) is no longer on the map: a later
    step that names it is an error at that name."""
    with pytest.raises(InputError) as e:
        run("  - move: {units: [r-628], to: W2, mf: 1}\n"
            "  - attack: {option: first_fire, firers: [g-467], director: g-81, targets: [r-628],"
            " dice: {original: 3, colored: 1}, casualties: {r-628: eliminated}}\n"
            "  - move: {units: [r-628], to: W1, mf: 1}\n")
    assert e.value.path == "sequence[2].move.units[0]" and "still on the map" in e.value.expected
