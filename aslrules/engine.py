"""Where answers come from: the one door to the solvers, and what every solver's answer may mean.

`solver()` (aslrules/fast) picks the solver: the accelerated one, or the plain reference
(aslrules/solve.py).  The KB is found by `kb_dir()`: the wheel's aslrules/kb, or ../kb in a
source tree.
"""

from __future__ import annotations

from .fast import Plain, Solver, solver
from .solve import kb_dir, kb_files

__all__ = ["Plain", "Solver", "kb_dir", "kb_files", "solver"]
