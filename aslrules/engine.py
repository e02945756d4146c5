"""Where answers come from: the one door to the solvers, and what every solver's answer may mean.

`solver()` (aslrules/fast) picks the solver: the accelerated one, or the plain reference
(aslrules/solve.py).  The KB is found by `kb_dir()`: the wheel's aslrules/kb, or ../kb in a
source tree.
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import InputError
from .fast import Plain, Solver, solver
from .solve import kb_dir, kb_files
from .symbols import Term


def check_missing_ranges(path: str, atoms: Sequence[Term]) -> None:
    """A question needs a range the grid cannot give (different boards): an input error."""
    for s in atoms:
        if s.name == "missing_range":
            a, b = s.arguments
            raise InputError(path, None, "lines_of_sight",
                             f"a `range:` entry between {a} and {b} (hexes on different boards)")


__all__ = ["Plain", "Solver", "check_missing_ranges", "kb_dir", "kb_files", "solver"]
