"""Every way aslrules answers faster than the plain way (aslrules/solve.py), behind one door.

A `Solver` answers situations: `solve(facts)` gives one situation's shown atoms, and
`solve_many([facts, ...])` each of many situations' shown atoms, as `symbols.Term`s.
`solver()` picks one:

* `Plain`: aslrules/solve.py for each situation: the reference;
* `Accelerated` (accelerated.py, the default): the same answers, with relevance pruning
  (relevance.py), many situations in one grounding (batch.py), the KB's analysis cached on
  disk (cache.py) and facts and atoms through clingo's C functions where verified (capi.py).

pool.py shares the batches of `aslrules check` among worker processes, whichever solver;
`no_cyclic_gc()` pauses Python's cycle collector while a batch is loaded or answered.
`ASLRULES_PLAIN=1` makes `solver()` pick the plain one; `ASLRULES_NO_CACHE=1` turns the cache off.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Protocol

from .. import solve as _plain
from ..symbols import Fact, Term

#: The version of this package's analyses and cache format: part of every cache key.
VERSION = "7"


class Solver(Protocol):
    def solve(self, facts: Iterable[Fact], *, few: bool = False) -> list[Term]:
        """The shown atoms of one situation's answer set; `few`: the caller expects few of them (a
        handful of questions, not a listing), which a solver may answer another way."""

    def solve_many(self, cases: Sequence[Iterable[Fact]]) -> list[list[Term]]:
        """Each situation's shown atoms, in the order given."""

    def prepare(self) -> None:
        """Make now what each worker process would otherwise make (before the workers fork)."""

    def spec(self) -> tuple:
        """What `from_spec` needs to make the same solver in a worker process started afresh."""


class Plain:
    """The reference: aslrules/solve.py for each situation."""

    def __init__(self, directory: Path | None = None):
        self.directory = directory
        self.files = _plain.kb_files(directory)

    def solve(self, facts: Iterable[Fact], *, few: bool = False) -> list[Term]:
        return _plain.solve(facts, self.files)

    def solve_many(self, cases: Sequence[Iterable[Fact]]) -> list[list[Term]]:
        return [self.solve(facts) for facts in cases]

    def prepare(self) -> None:
        pass

    def spec(self) -> tuple:
        return ("plain", None if self.directory is None else str(self.directory))


def solver(directory: Path | None = None, *, accelerate: bool | None = None, **options: object) -> Solver:
    """The solver to use: `Accelerated` (with `options`: prune, cache, direct), or `Plain` when
    `accelerate` is False or, by default, when ASLRULES_PLAIN is set."""
    if accelerate is None:
        accelerate = not os.environ.get("ASLRULES_PLAIN")
    if not accelerate:
        return Plain(directory)
    from .accelerated import Accelerated

    return Accelerated(directory, **options)  # type: ignore[arg-type]


def from_spec(spec: tuple) -> Solver:
    """The solver a `Solver.spec()` describes."""
    kind, directory, *rest = spec
    path = None if directory is None else Path(directory)
    if kind == "plain":
        return Plain(path)
    prune, direct = rest
    return solver(path, accelerate=True, prune=prune, direct=direct)


@contextmanager
def no_cyclic_gc() -> Iterator[None]:
    """Python's cycle collector paused while a chunk is answered.

    A chunk allocates hundreds of thousands of small objects (facts, symbols, answers) and
    makes no reference cycles worth collecting, but each allocation burst triggers a full
    collection that walks every object alive, the loaded cases included: with 1,000 cases
    loaded that was a third of the batch's time (bench/run.py).  Collection resumes after.
    aslrules.core pauses it around each chunk it loads or answers."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


__all__ = ["VERSION", "Plain", "Solver", "from_spec", "no_cyclic_gc", "solver"]
