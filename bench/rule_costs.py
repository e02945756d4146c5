"""Benchmark (not a test): what each kept statement of the KB costs gringo, apart from the others.

    python bench/rule_costs.py [--per-side 120] [--phase DFPh] [--top 25] [FILE]

The situation (FILE, or bench/run.py's generated listing situation) is answered once, and every
atom of its answer set is kept.  Then a new Control gets those atoms as facts and the statements
aslrules keeps for the situation (its pruned program), each statement in a `#program` part of
its own, and grounds the facts, then the parts one by one: every statement finds all it reads
already there and derives nothing new, so the CPU time of its part is what its own body's joins,
lookups and aggregates cost on the real data.  Prints the statements, costliest first, and the
sum.

What this finds that dropping statements does not: a statement whose join gringo orders badly.
Gringo starts a body from its smallest relation and goes on by the size of the next one, not by
how selective a shared variable is; a rule reading `unit_side(T,S)` (a few hundred atoms) and
`firer_side(Q,S)` (one per question) pairs every side with every question of it, and here cost
a third of a 120-a-side DFPh listing's grounding until the target's side was taken per question
first (kb/attack.lp `target_side/3`, docs/performance.md).

The grounding of the first answer set costs more than these parts together: each new atom is
also made as a symbol in clingo's table of symbols (kept for the life of the process), and each
negative literal whose atom does not exist makes that atom's symbol to look it up.
"""

from __future__ import annotations

import argparse
import gc
import sys
import tempfile
import time
from pathlib import Path

import clingo
from clingo import ast

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import listing_situation  # noqa: E402

from aslrules import core  # noqa: E402
from aslrules.loader import load_file  # noqa: E402
from aslrules.symbols import Facts  # noqa: E402


def rule_costs(path: Path) -> tuple[int, list[tuple[float, str]]]:
    """The number of atoms in the situation's answer set, and each kept statement's grounding CPU
    seconds with all of them given (costliest first)."""
    eng = core.engine()
    sit = load_file(path)
    listing = not (sit.expect or sit.ask)
    facts = Facts.of(core.build_facts(sit, list_options=listing, asked=True).facts)
    program, needed = eng.pruned(facts)
    rules = [s for s in program if s.ast_type != ast.ASTType.Program]

    ctl = eng._control(program)  # as the engine grounds it (bench/listing_parts.py does the same)
    eng._add_facts(ctl, facts, keep=needed)
    ctl.ground([("base", [])])
    with ctl.solve(yield_=True) as handle:
        atoms = list(next(iter(handle)).symbols(atoms=True))
    del ctl

    ctl = clingo.Control(["--warn=none"])
    with ast.ProgramBuilder(ctl) as builder:
        for i, rule in enumerate(rules):
            builder.add(ast.Program(rule.location, f"rule_{i}", []))
            builder.add(rule)
    with ctl.backend() as backend:
        for symbol in atoms:
            backend.add_rule([backend.add_atom(symbol)])
    ctl.ground([("base", [])])
    costs = []
    for i, rule in enumerate(rules):
        start = time.process_time()
        ctl.ground([(f"rule_{i}", [])])
        costs.append((time.process_time() - start, str(rule)))
    return len(atoms), sorted(costs, reverse=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("file", nargs="?", help="a situation (default: the generated listing situation)")
    p.add_argument("--per-side", type=int, default=120)
    p.add_argument("--phase", choices=("MPh", "DFPh"), default="DFPh")
    p.add_argument("--top", type=int, default=25, help="how many statements to print")
    args = p.parse_args()
    gc.disable()
    with tempfile.TemporaryDirectory() as d:
        path = Path(args.file) if args.file else Path(d) / "listing.yaml"
        if not args.file:
            path.write_text(listing_situation(args.per_side, args.phase, seed=args.per_side), encoding="utf-8")
        n_atoms, costs = rule_costs(path)
    what = args.file or f"the listing of {args.phase}, {args.per_side} units a side"
    print(f"{what}: {n_atoms:,} atoms; {len(costs)} statements, "
          f"{sum(c for c, _ in costs):.3f} s CPU in all, each with every atom given")
    for cost, rule in costs[:args.top]:
        print(f"{cost * 1000:8.1f} ms  {rule if len(rule) <= 150 else rule[:147] + '...'}")


if __name__ == "__main__":
    main()
