"""The evidence answered once per test session: every case file (replays and listings included)
and every ruling's cases, through `aslrules.core.check`, with the shown atoms of every answer
kept.  Tests that need the whole corpus's answers share this one run; and the corpus read fast
(read_yaml) or sampled by folder (stratified)."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import yaml

from aslrules.core import Outcome, check, engine, iter_case_files
from aslrules.loader import load_file
from aslrules.rulings import load_rulings
from aslrules.symbols import Term

ROOT = Path(__file__).resolve().parent.parent
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's parser, as aslrules.loader uses


def read_yaml(path: Path | str):
    """A YAML file's data, as yaml.safe_load reads it (with libyaml's parser where PyYAML has it:
    the tests read the whole corpus)."""
    return yaml.load(Path(path).read_text(encoding="utf-8"), Loader=_LOADER)


def stratified(names: list[str], every: int) -> list[int]:
    """A stratified sample of the names (paths): the first of each folder, and every `every`-th;
    all of them when ASLRULES_EXHAUSTIVE is set."""
    if os.environ.get("ASLRULES_EXHAUSTIVE"):
        return list(range(len(names)))
    first: dict[str, int] = {}
    for k, name in enumerate(names):
        first.setdefault(str(name).rsplit("/", 1)[0], k)
    return sorted(set(first.values()) | set(range(0, len(names), every)))


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
