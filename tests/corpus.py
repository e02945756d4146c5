"""The evidence answered once per test session: every case file (replays and listings included)
and every ruling's cases, through `aslrules.core.check`, with the shown atoms of every answer
kept.  Tests that need the whole corpus's answers share this one run."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from aslrules.core import Outcome, check, engine, iter_case_files
from aslrules.loader import load_file
from aslrules.rulings import load_rulings
from aslrules.symbols import Term

ROOT = Path(__file__).resolve().parent.parent


class _Keep:
    """A solver that answers as the engine does and keeps every answer's shown atoms."""

    def __init__(self, eng, atoms: list[Term]):
        self.eng, self.atoms = eng, atoms

    def solve(self, facts, *, few=False):
        out = self.eng.solve(facts, few=few)
        self.atoms.extend(out)
        return out

    def solve_many(self, cases):
        out = self.eng.solve_many(cases)
        for atoms in out:
            self.atoms.extend(atoms)
        return out


@cache
def answered() -> tuple[list[Outcome], list[Term]]:
    """Every outcome of the evidence, and every shown atom its answers hold."""
    situations = [load_file(p) for p in iter_case_files([str(ROOT / "tests" / "cases"), str(ROOT / "examples")])]
    situations += [c for r in load_rulings([str(ROOT / "rulings")]) for c in r.cases]
    atoms: list[Term] = []
    outcomes = check(situations, eng=_Keep(engine(), atoms), workers=1)
    return outcomes, atoms
