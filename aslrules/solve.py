"""The plain way to answer a situation, and the reference for every faster way.

Load the KB files into a fresh `clingo.Control`, add the situation's facts through the
backend (clingo symbols, never program text), ground, solve, and read the shown atoms of the
one answer set.  aslrules/fast/ does the same faster; tests/test_engine.py checks that it
gives these answers on every case file.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from importlib import resources
from pathlib import Path

import clingo

from .errors import EngineError
from .symbols import Fact, Term, add_facts, read_atoms


def kb_dir() -> Path:
    """The KB shipped in the wheel (aslrules/kb) or, in a source tree, ../kb."""
    packaged = resources.files("aslrules") / "kb"
    if packaged.is_dir():
        return Path(str(packaged))
    source = Path(__file__).resolve().parent.parent / "kb"
    if source.is_dir():
        return source
    raise FileNotFoundError("the aslrules knowledge base (kb/*.lp) is not installed")


def kb_files(directory: Path | None = None) -> list[Path]:
    """The KB's files, in the order they are loaded."""
    return sorted((directory or kb_dir()).glob("*.lp"))


def shown_atoms(ctl: clingo.Control) -> list[Term]:
    """Ground `ctl`'s base program, solve, and read the shown atoms of its answer set."""
    ctl.ground([("base", [])])
    with ctl.solve(yield_=True) as handle:
        for m in handle:
            return read_atoms(m.symbols(shown=True))
    # the KB is stratified: no model means the KB itself is broken
    raise EngineError("the knowledge base has no answer set for this situation")


def solve(facts: Iterable[Fact], files: Sequence[Path] | None = None) -> list[Term]:
    """The shown atoms of one situation's answer set, the plain way."""
    ctl = clingo.Control(["--warn=none"])
    for f in kb_files() if files is None else files:
        ctl.load(str(f))
    with ctl.backend() as backend:
        add_facts(backend, facts)
    return shown_atoms(ctl)
