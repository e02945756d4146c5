"""The replay benchmark (not a test): a 30-step replay at 60 units a side, in CPU seconds.

    python bench/replay.py [--units N] [--movers M] [--runs R] [--seed S]

A generated situation: N German units (4-6-7s, every third with a LMG, a 8-1 leader every tenth)
and N Russian 4-4-7s spread over one board, and a sequence of 5 steps per mover (M movers, 6 by
default: 30 steps): each Russian mover enters D5, which after the first mover holds Residual FP
(so its entry also triggers the Residual FP attack, with dice), is First Fired at by a fresh German
squad in D4 with dice and Morale Check DRs, enters D6, is fired at again by another squad, and ends
its movement.  The replay answers each step as `aslrules replay` does (one grounding per step, one
more for each Residual FP attack).  Reported: CPU seconds of `replay()` (the KB already parsed, as
in a second run), min and median of R runs, and of the first run in a fresh process (the KB parsed
or read from the cache).  The target (issue 18): at most 2 s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import HEXES, TERRAIN  # noqa: E402  (the benchmark's board)


def situation(units: int, movers: int, seed: int) -> str:
    rng = random.Random(seed)
    lines = [f"title: replay bench, {units} units a side, {movers} movers, seed {seed}",
             "source: bench/replay.py (generated)", "phase: MPh", "attacker: russian", "locations:",
             "  D5: {terrain: open ground}", "  D6: {terrain: open ground}"]
    for h in rng.sample([h for h in HEXES if h not in ("D4", "D5", "D6")], 20):
        lines.append(f"  {h}: {rng.choice(TERRAIN)}")
    lines.append("units:")
    # the firers in D4 (two per mover) and a leader
    firers = [f"g-d4-{k}" for k in range(2 * movers)]
    for f in firers:
        lines.append(f"  - {{id: {f}, side: german, type: squad, counter: 4-6-7, hex: D4}}")
    lines.append("  - {id: g-d4-lead, side: german, type: leader, counter: 8-1, hex: D4}")
    for k in range(units - len(firers) - 1):
        hex_ = rng.choice(HEXES)
        kind = "leader" if k % 10 == 9 else "squad"
        counter = "8-1" if kind == "leader" else "4-6-7"
        weapons = f", weapons: [{{id: g{k}-mg, kind: LMG, fp: 3, range: 8, rof: 1, breakdown: 11}}]" \
            if kind == "squad" and k % 3 == 0 else ""
        lines.append(f"  - {{id: g{k}, side: german, type: {kind}, counter: {counter}, hex: {hex_}{weapons}}}")
    # the movers start next to D5 (C5, C6, E5, E6 are adjacent to D5); the other Russians anywhere
    starts = ["C5", "C6", "E5", "E6"]
    for m in range(movers):
        lines.append(f"  - {{id: r-mover{m}, side: russian, type: squad, counter: 4-4-7, hex: {starts[m % 4]}}}")
    for k in range(units - movers):
        lines.append(f"  - {{id: r{k}, side: russian, type: squad, counter: 4-4-7, hex: {rng.choice(HEXES)}}}")
    lines.append("sequence:")
    for m in range(movers):
        a, b = firers[2 * m], firers[2 * m + 1]
        residual = ("\n    residual: {dice: {original: 11, colored: 5}}" if m else "")
        lines += [
            f"  - move: {{units: [r-mover{m}], to: D5, mf: 1}}{residual}",
            f"  - attack: {{option: first_fire, firers: [{a}], targets: [r-mover{m}], "
            f"dice: {{original: {rng.choice([9, 10])}, colored: 4}}, morale: {{r-mover{m}: 4}}}}",
            f"  - move: {{units: [r-mover{m}], to: D6, mf: 1}}",
            f"  - attack: {{option: first_fire, firers: [{b}], targets: [r-mover{m}], "
            f"dice: {{original: 8, colored: 3}}, morale: {{r-mover{m}: 5}}}}",
            "  - end: movement",
        ]
    return "\n".join(lines) + "\n"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--units", type=int, default=60, help="units a side (default 60)")
    p.add_argument("--movers", type=int, default=6, help="movers, 5 steps each (default 6: 30 steps)")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()

    from aslrules.core import engine
    from aslrules.loader import load_text
    from aslrules.replay import replay

    text = situation(args.units, args.movers, args.seed)
    t0 = time.process_time()
    sit = load_text(text, "bench-replay.yaml")
    eng = engine()
    rep = replay(sit, eng=eng)
    first = time.process_time() - t0
    steps = len(rep.steps)
    residuals = sum(s.residual is not None for s in rep.steps)
    assert steps == 5 * args.movers and rep.legal, [(s.number, s.problems) for s in rep.steps if not s.legal]
    times = []
    for _ in range(args.runs):
        t0 = time.process_time()
        replay(load_text(text, "bench-replay.yaml"), eng=eng)
        times.append(time.process_time() - t0)
    print(f"replay of {steps} steps ({residuals} Residual FP attacks), {args.units} units a side "
          f"({len(sit.units)} in all), CPU seconds, load included:")
    print(f"  first run in this process (KB parsed or read from the cache): {first:.2f}")
    print(f"  warm, {args.runs} runs: min {min(times):.2f}, median {statistics.median(times):.2f}   target <= 2")


if __name__ == "__main__":
    main()
