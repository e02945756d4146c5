"""The listing (`aslrules ask` with no question, kb/options.lp and kb/listing.lp): Fire Groups as
the rules allow them, the leader who directs them, the Mandatory FG first, the allowed attacks
best first, the forbidden ones folded, --firer and --target.

Sources: the A8.41 EX (seed 004: its attacks, as examples/berserk_charge.yaml and the replay
tests/cases/replays/ex_8_41.yaml stand before each of them); asl-basics.md "Fire Groups (A7.5,
A7.531, A7.55)"; A7.53 (leader direction), A7.212, A8.31, A8.312, A7 (broken units)."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from aslrules.answers import Answer
from aslrules.core import ask
from aslrules.loader import load_file, load_text
from aslrules.replay import situation_at
from test_cli import cli  # the CLI run in process: (exit status, stdout, stderr)

ROOT = Path(__file__).resolve().parent.parent
BERSERK = ROOT / "examples" / "berserk_charge.yaml"
EX_841 = ROOT / "tests" / "cases" / "replays" / "ex_8_41.yaml"


def listing(text: str, **kw: str) -> list[Answer]:
    return ask(load_text(text, "listing.yaml"), **kw)


def firers(a: Answer) -> set[str]:
    return set(a.firers)


def find(answers: list[Answer], members: set[str], option: str | None = None) -> Answer:
    hits = [a for a in answers if firers(a) == members
            and (option is None or set(a.figure("option").values()) == {option})]
    assert len(hits) == 1, [(sorted(firers(a)), a.figure("option")) for a in answers]
    return hits[0]


def ex_listing(step: int) -> list[Answer]:
    """The listing of the 8.41 EX's situation before `step` of its replay (its question left out)."""
    text = situation_at(load_file(str(EX_841)), step)
    return listing(text.split("\nask:")[0] + "\n")


# --------------------------------------------------------------------------- the A8.41 EX


def test_the_readme_attack_is_listed_first_with_its_figures() -> None:
    """A8.41 EX (README): "the 4-6-7 and its LMG directed by the 8-1 leader (14 FP and a -3 DRM)"
    is in the listing of its own situation, as its best attack, each member's share shown."""
    answers = ask(load_file(str(BERSERK)))
    best = answers[0]
    assert firers(best) == {"g-467", "g-lmg"} and best.roles["director"] == ["g-81"]
    assert (best.verdict, best.figure("fp"), best.figure("ift_column"), best.figure("drm")) == ("allowed", 14, 12, -3)
    assert best.figure("leader_direction") is True
    assert best.figure("fp_by_firer") == {"g-467": 8, "g-lmg": 6}  # (4 + 3) x 2, PBF


def test_the_ex_sff_is_the_mandatory_fg_listed_first() -> None:
    """A8.41 EX: in X2 the 3-2-8 "must be fired on again (8.312) using Subsequent First Fire with
    10 1/2 FP ... and a +1 DRM": the Mandatory FG (A8.312, A7.55) heads the listing."""
    answers = ex_listing(4)
    first = answers[0]
    assert firers(first) == {"g-467", "g-lmg"} and set(first.figure("option").values()) == {"subsequent_first_fire"}
    assert (first.verdict, first.figure("fp"), first.figure("drm")) == ("mandatory", Fraction(21, 2), 1)
    assert "A8.312" in {r.rule for r in first.reasons if r.role == "must"}
    tiers = [a.verdict for a in answers]
    assert tiers == sorted(tiers, key=["mandatory", "allowed", "forbidden"].index)


def test_the_ex_fpf_is_listed_with_the_squad_and_its_lmg() -> None:
    """A8.41 EX: "the German stack may attack it again (this time using FPF), but declines"; then
    "the German units must attack with FPF (8.312) ... 10 1/2 FP with a +1 DRM" vs the 4-4-7 and
    7-0.  The squad alone is forbidden (A8.31: its LMG must fire with its FPF): the listing has the
    squad and LMG together, allowed, then mandatory."""
    declined = find(ex_listing(5), {"g-467", "g-lmg"}, "final_protective_fire")
    assert declined.verdict == "allowed" and declined.roles["director"] == ["g-81"]
    squad_alone = find(ex_listing(5), {"g-467"}, "final_protective_fire")
    assert squad_alone.verdict == "forbidden" and "A8.31" in {r.rule for r in squad_alone.reasons}
    answers = ex_listing(7)
    first = answers[0]
    assert firers(first) == {"g-467", "g-lmg"} and set(first.targets) == {"r-447", "r-70"}
    assert (first.verdict, first.figure("fp"), first.figure("drm")) == ("mandatory", Fraction(21, 2), 1)


# --------------------------------------------------------------------------- Fire Groups

# Two German squads in X2 (one with a LMG) and a 9-2 and an 8-1 there; a squad in Y2, ADJACENT
# to X2; a squad far off in GG9; the Russian mover enters W2 (ADJACENT to X2).
GROUPS = """\
phase: MPh
attacker: russian
units:
  - {id: a, side: german, type: squad, counter: 4-6-7, hex: X2,
     weapons: [{id: a-lmg, kind: LMG, fp: 3, range: 8, rof: 1, breakdown: 11}]}
  - {id: b, side: german, type: squad, counter: 4-6-7, hex: X2}
  - {id: l81, side: german, type: leader, counter: 8-1, hex: X2}
  - {id: l92, side: german, type: leader, counter: 9-2, hex: X2}
  - {id: c, side: german, type: squad, counter: 4-6-7, hex: Y2}
  - {id: far, side: german, type: squad, counter: 4-6-7, hex: GG9}
  - {id: r, side: russian, type: squad, counter: 6-2-8, hex: W2, moving: {from: V2, mf_here: 1}}
"""


def test_a_location_fg_has_all_its_units_and_weapons() -> None:
    """asl-basics.md "Fire Groups": the units and weapons of one Location combine into one FG:
    X2's two squads and the LMG, 4+4+3 FP doubled for PBF (A7.21)."""
    fg = find(listing(GROUPS), {"a", "a-lmg", "b"})
    assert (fg.verdict, fg.figure("fp")) == ("allowed", 22)
    assert fg.figure("fp_by_firer") == {"a": 8, "a-lmg": 6, "b": 8}


def test_the_best_leader_directs_and_a_multi_location_fg_gets_none() -> None:
    """A7.53: a leader in the firers' Location directs them: of the 9-2 and the 8-1, the 9-2 (-2).
    A7.531 (asl-basics.md): a FG across ADJACENT Locations gets no leadership DRM."""
    answers = listing(GROUPS)
    fg = find(answers, {"a", "a-lmg", "b"})
    assert fg.roles["director"] == ["l92"] and fg.figure("leader_direction") is True
    assert "A7.53" in {p.rule for p in fg.parts["drm"]}
    chain = find(answers, {"a", "a-lmg", "b", "c"})
    assert "director" not in chain.roles and chain.figure("leader_direction") is False
    alone = find(answers, {"c"}, "first_fire")  # Y2 has no leader
    assert "director" not in alone.roles


def test_no_director_when_the_leader_is_broken() -> None:
    """A7.8: a broken leader does not direct fire: the 8-1 directs when the 9-2 is broken."""
    fg = find(listing(GROUPS.replace("counter: 9-2, hex: X2}", "counter: 9-2, hex: X2, status: [broken]}")),
              {"a", "a-lmg", "b"})
    assert fg.roles["director"] == ["l81"]


def test_a_chain_fg_needs_adjacent_locations_all_in_reach() -> None:
    """asl-basics.md "Fire Groups": units in several Locations form one FG when each Location is
    ADJACENT to another of it (X2 and Y2); GG9 is ADJACENT to neither, so no FG includes it.
    With Y2's squad out of reach (broken, A7), X2 and Y2 form no chain FG."""
    answers = listing(GROUPS)
    chain = find(answers, {"a", "a-lmg", "b", "c"})
    assert chain.verdict == "allowed" and chain.figure("fp") == 22 + 4  # c at range 2: no PBF
    assert not [a for a in answers if "far" in firers(a) and len(a.firers) > 1]
    broken = listing(GROUPS.replace("counter: 4-6-7, hex: Y2}", "counter: 4-6-7, hex: Y2, status: [broken]}"))
    assert not [a for a in broken if "c" in firers(a) and len(a.firers) > 1]
    assert not [a for a in broken if len(a.firers) > 3]


def test_a_broken_unit_stays_out_of_its_locations_fg() -> None:
    """A7: broken units cannot fire: X2's FG is the unbroken squad and the LMG's squad."""
    answers = listing(GROUPS.replace("counter: 4-6-7, hex: X2}", "counter: 4-6-7, hex: X2, status: [broken]}"))
    assert find(answers, {"a", "a-lmg"}).verdict == "allowed"
    assert not [a for a in answers if "b" in firers(a) and len(a.firers) > 1]


def test_a_unit_with_its_sw_is_an_fg_of_its_own_only_beside_others() -> None:
    """A8.31/A7.35: a squad firing with its LMG is an attack of its own where other units share the
    Location (X2: a and its LMG without b); alone in its Location (berserk_charge.yaml) it is the
    Location's FG, listed once."""
    assert find(listing(GROUPS), {"a", "a-lmg"}).verdict == "allowed"
    answers = ask(load_file(str(BERSERK)))
    assert len([a for a in answers if firers(a) == {"g-467", "g-lmg"}]) == 1


def test_the_mandatory_fg_of_a8312_is_the_locations_fg() -> None:
    """A8.312: every armed, unbroken Infantry DEFENDER in the Location the MMC enters must attack it,
    all as one Mandatory FG (A7.55): the FG of X2 is mandatory, a squad alone forbidden."""
    text = GROUPS.replace("hex: W2, moving: {from: V2", "hex: X2, moving: {from: W2")
    answers = listing(text)
    fg = find(answers, {"a", "a-lmg", "b"})
    assert fg.verdict == "mandatory" and "A8.312" in {r.rule for r in fg.reasons if r.role == "must"}
    mandatory = [a.verdict == "mandatory" for a in answers]
    assert mandatory == sorted(mandatory, reverse=True)  # the mandatory attacks first
    alone = find(answers, {"b"}, "first_fire")
    assert alone.verdict == "forbidden" and "A8.312" in {r.rule for r in alone.reasons if r.role == "forbid"}


def test_a_unit_held_by_a_known_enemy_fires_only_inside() -> None:
    """A7.212 (the 8.41 EX: "cannot fire outside their Location as long as the 3-2-8 occupies it
    too"): Y2's squad, sharing Y2 with a Known Russian, is in no FG at W2; without it, it is."""
    held = GROUPS + "  - {id: r2, side: russian, type: squad, counter: 4-4-7, hex: Y2}\n"
    answers = listing(held)
    assert not [a for a in answers if "c" in firers(a) and len(a.firers) > 1]
    assert [a for a in listing(GROUPS) if "c" in firers(a) and len(a.firers) > 1]


# --------------------------------------------------------------------------- order and folding


def test_allowed_attacks_are_ranked_by_column_then_drm() -> None:
    """asl-basics.md "IFT": the column of the FP and the Final DR decide the result: allowed attacks
    by IFT column (highest first), then DRM (lowest first)."""
    answers = [a for a in listing(GROUPS) if a.verdict == "allowed"]
    keys = [(-a.figure("ift_column"), a.figure("drm")) for a in answers]
    assert keys == sorted(keys) and len(set(keys)) > 2
    # same column (4), DRM -3 (directed first_fire by the 9-2... ) before -0 (a Snap Shot, no FFMO/FFNAM)
    column_4 = [a for a in answers if a.figure("ift_column") == 4]
    assert [a.figure("drm") for a in column_4] == sorted(a.figure("drm") for a in column_4)


def test_forbidden_attacks_fold_to_one_line_unless_all() -> None:
    """The listing prints a forbidden attack as one line with its first reason; --all in full."""
    code, out, _ = cli("ask", str(BERSERK))
    assert code == 0
    folded = [line for line in out.splitlines() if line.strip().startswith("forbidden: ")]
    assert len(folded) == 4 and all(re.search(r" -> r-628: A8\.3?1?: ", line) for line in folded)
    assert "at W2 (r-628): 9 attacks: 0 mandatory, 5 allowed, 4 forbidden" in out
    code, full, _ = cli("ask", str(BERSERK), "--all")
    assert full.count("verdict: forbidden") == 4 and "forbidden: final_protective_fire" not in full
    assert full.count("forbidden by ") > 4  # every forbidding rule, in full


# --------------------------------------------------------------------------- filters

DFPH = """\
phase: DFPh
attacker: russian
units:
  - {id: g1, side: german, type: squad, counter: 4-6-7, hex: X2}
  - {id: g2, side: german, type: squad, counter: 4-6-7, hex: X3}
  - {id: r1, side: russian, type: squad, counter: 4-4-7, hex: W2}
  - {id: r2, side: russian, type: squad, counter: 4-4-7, hex: Z5}
"""


def test_target_lists_only_the_attacks_on_that_unit(tmp_path: Path) -> None:
    """--target: in the DFPh, the attacks on the ATTACKER unit's Location only (A8.4)."""
    every = listing(DFPH)
    assert {a.rank[0] for a in every} == {"W2", "Z5"}
    on_r2 = listing(DFPH, target="r2")
    assert on_r2 and all(a.targets == ["r2"] for a in on_r2)
    assert find(on_r2, {"g1", "g2"}).verdict == "allowed"  # X2 and X3 are ADJACENT: one FG
    path = tmp_path / "dfph.yaml"
    path.write_text(DFPH, encoding="utf-8")
    code, out, _ = cli("ask", str(path), "--target", "r1")
    assert code == 0 and "at W2 (r1)" in out and "Z5" not in out


def test_an_attacker_as_firer_or_a_defender_as_target_is_an_error(tmp_path: Path) -> None:
    """A8.1: Defensive Fire is the DEFENDER's, at the ATTACKER's units: --firer of an ATTACKER unit
    (or its weapon) and --target of a DEFENDER unit are errors with a message, exit 2."""
    path = tmp_path / "dfph.yaml"
    path.write_text(DFPH, encoding="utf-8")
    code, out, err = cli("ask", str(path), "--firer", "r1")
    assert (code, out) == (2, "")
    assert err.strip() == (f"aslrules: error: {path}: --firer: expected a DEFENDER unit or weapon: r1 belongs to "
                           "russian, the ATTACKER, and Defensive Fire is the DEFENDER's (A8.1), got 'r1'")
    code, out, err = cli("ask", str(path), "--target", "g1")
    assert (code, out) == (2, "") and f"{path}: --target: expected an ATTACKER unit" in err
    code, _, err = cli("ask", str(path), "--target", "nobody")
    assert code == 2 and "--target: expected the id of a unit" in err


def test_listing_candidates_grow_linearly() -> None:
    """The listing forms no power set: per target Location at most one FG per firing Location, per
    unit with SW and per chain (kb/listing.lp), so ten squads in ten ADJACENT Locations give ten
    singles, no Location FG (one unit each), and one chain FG per target."""
    hexes = ["X2", "X3", "X4", "X5", "X6", "X7", "X8", "X9", "X10", "Y9"]
    units = "".join(f"  - {{id: g{i}, side: german, type: squad, counter: 4-6-7, hex: {h}}}\n"
                    for i, h in enumerate(hexes))
    text = "phase: DFPh\nattacker: russian\nunits:\n" + units + \
        "  - {id: r1, side: russian, type: squad, counter: 4-4-7, hex: V5}\n"
    answers = listing(text)
    groups = [a for a in answers if len(a.firers) > 1]
    assert len(answers) == len(hexes) + 1 and len(groups) == 1
    assert firers(groups[0]) == {f"g{i}" for i in range(len(hexes))}


def test_web_fire_group_condition_holds() -> None:
    """tests/test_web_browser.py's Fire Group test relies on this listing: with --firer g-467 the
    14 FP / -3 attack is listed."""
    answers = ask(load_file(str(BERSERK)), firer="g-467")
    assert any(a.figure("fp") == 14 and a.figure("drm") == -3 for a in answers)


@pytest.mark.parametrize("step", [2, 4, 7])
def test_every_ex_attack_is_in_the_listing_of_its_situation(step: int) -> None:
    """A8.41 EX, each attack of the replay: the listing of the situation before it holds that
    attack (same firers, option, director, targets) with the verdict the replay case states."""
    sit = load_file(str(EX_841))
    stated = sit.data.sequence[step - 1].attack
    answers = ex_listing(step)
    match = [a for a in answers if firers(a) == set(stated.firers)
             and set(a.figure("option").values()) == {stated.option}
             and a.roles.get("director") == [stated.director] and set(a.targets) == set(stated.targets)]
    assert len(match) == 1
    want = {2: "allowed", 4: "mandatory", 7: "mandatory"}[step]
    assert match[0].verdict == want


# --------------------------------------------------------------------------- attacks out of reach


def test_attacks_out_of_reach_are_judged_on_reach_alone_and_in_full_with_all() -> None:
    """A7.22 (at most twice the Normal Range), A8.1 (an IFT attack needs a LOS), A7.212 (a unit
    sharing its Location with a Known enemy fires only inside it): a firer alone that one of them
    bars is listed forbidden by it, with its fact, and no figures (judged on its reach alone);
    --all (full) judges it in full: the same forbidding reasons, and its figures."""
    text = GROUPS + "  - {id: r2, side: russian, type: squad, counter: 4-4-7, hex: Y2}\n" + \
        "  - {id: away, side: german, type: squad, counter: 4-6-7, hex: B9}\n" + \
        "lines_of_sight:\n  - {from: X2, to: W2, blocked: true}\n"
    brief, full = listing(text), listing(text, full=True)
    for firer, rule, fact in (("away", "A7.22", "beyond twice away's Normal Range 6"),
                              ("b", "A8.1", "b in X2 has no LOS to W2"),
                              ("c", "A7.212", "c shares Y2 with Known enemy unit r2")):
        short, long = find(brief, {firer}, "first_fire"), find(full, {firer}, "first_fire")
        assert short.verdict == long.verdict == "forbidden"
        assert [(r.rule, r.text) for r in short.reasons] == [(r.rule, r.text) for r in long.reasons
                                                             if r.role == "forbid" and r.rule == rule]
        assert fact in short.reasons[0].text
        assert short.figure("judged") == "reach" and short.figure("fp") is None
        assert long.figure("judged") is None and long.figure("fp") is not None
    # where none of them bars it, the attack is judged in full: far's first_fire at W2 (range 12)
    near = find(brief, {"far"}, "first_fire")
    assert near.figure("judged") is None and near.figure("fp") is not None


CREW = """\
phase: DFPh
attacker: russian
units:
  - {id: crew, side: german, type: crew, counter: 2-2-8, hex: X2,
     weapons: [{id: hmg, kind: HMG, fp: 5, range: 12, rof: 3, breakdown: 12}]}
  - {id: sq, side: german, type: squad, counter: 4-6-7, hex: X2}
  - {id: near, side: russian, type: squad, counter: 4-4-7, hex: X3}
  - {id: away, side: russian, type: squad, counter: 4-4-7, hex: X5}
"""


def test_a_crew_mans_its_sw_in_a_fire_group_unless_a7353_keeps_half_its_fp() -> None:
    """asl-basics.md "Firepower (A7)": a HS, crew or SMC that fires a SW loses its inherent FP;
    A7.353: half of it is kept for Final Fire vs an ADJACENT target.  At X5 (range 3) X2's FG is
    the HMG and the squad, the crew manning the HMG (with the crew in it, A7.35 forbids it); at
    X3 (ADJACENT) the crew adds half its FP to the FG."""
    answers = listing(CREW)
    away = [a for a in answers if a.rank and a.rank[0] == "X5" and len(a.firers) > 1]
    assert [(sorted(firers(a)), a.verdict) for a in away] == [(["hmg", "sq"], "allowed")]
    near = [a for a in answers if a.rank and a.rank[0] == "X3" and len(a.firers) > 1]
    assert {(tuple(sorted(firers(a))), a.verdict) for a in near} >= {(("crew", "hmg", "sq"), "allowed")}
    fg = find(near, {"crew", "hmg", "sq"})
    assert "A7.353" in {r.rule for rs in fg.figure_reasons.get("fp_by_firer", {}).values() for r in rs}


TWO_SW = """\
phase: DFPh
attacker: russian
units:
  - {id: sq, side: german, type: squad, counter: 4-6-7, hex: X2,
     weapons: [{id: lmg, kind: LMG, fp: 3, range: 8, rof: 1, breakdown: 11},
               {id: mmg, kind: MMG, fp: 4, range: 10, rof: 2, breakdown: 12}]}
  - {id: sq2, side: german, type: squad, counter: 4-6-7, hex: X2}
  - {id: away, side: russian, type: squad, counter: 4-4-7, hex: X5}
"""


def test_a_squad_firing_two_sw_mans_them_in_a_fire_group() -> None:
    """asl-basics.md "Firepower (A7)": a squad may fire one SW MG with no cost to its inherent FP;
    firing two it loses it (A7.35; A7.353 keeps half only vs an ADJACENT target in Final Fire).
    At X5 (range 3) X2's FG is both MGs and the other squad, the squad manning its MGs."""
    answers = [a for a in listing(TWO_SW) if len(a.firers) > 1]
    assert [(sorted(firers(a)), a.verdict) for a in answers] == [(["lmg", "mmg", "sq2"], "allowed")]
