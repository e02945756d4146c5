"""Worker processes for `aslrules check`: chunks of work shared among processes.

`run(solver, task, chunks, ...)` gives `[task(solver, chunk) for chunk in chunks]`, computed in
worker processes.  Where the platform can fork, the workers inherit the parent's solver (the
KB parsed and rewritten already) and, with `whole`, the parent's data: a chunk that is a slice
of `whole` travels as its index range (pickling 100 loaded cases costs about 150 ms).  Where
it cannot, each worker makes its solver from `solver.spec()`.

A worker that dies, or a task that raises, is an `EngineError` in the parent, with a message:
never a traceback.  Tasks report the errors they expect (an unreadable file) as data.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import EngineError, InputError
from . import Solver, from_spec

_SOLVER: Solver | None = None  # a worker's solver: inherited (fork) or made by `_init` (spawn)
_WHOLE: Sequence[Any] | None = None  # a forked worker's copy of the parent's `whole`


class _Failed:
    """What a task that raised sends back instead of its result."""

    def __init__(self, error: BaseException):
        self.text = f"{type(error).__name__}: {error}"
        self.trace = traceback.format_exc()


def context() -> Any:
    """Forked workers (they inherit the KB, parsed and rewritten) where the platform can fork."""
    import multiprocessing  # here: a question alone needs no workers (30 ms less to start)

    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _init(spec: tuple) -> None:
    """A worker starts: Ctrl-C is the parent's to handle (it exits 130; the worker would print a
    traceback), and a spawned worker makes its solver."""
    global _SOLVER
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if _SOLVER is None:  # forked workers inherit the parent's solver
        _SOLVER = from_spec(spec)


def _call(job: tuple[Callable[[Solver, Any], Any], Any]) -> Any:
    task, chunk = job
    assert _SOLVER is not None
    try:
        if isinstance(chunk, range):
            assert _WHOLE is not None
            chunk = _WHOLE[chunk.start:chunk.stop]
        return task(_SOLVER, chunk)
    except Exception as e:  # noqa: BLE001 - reported to the parent as an EngineError
        return _Failed(e)


def run(solver: Solver, task: Callable[[Solver, Any], Any], chunks: Sequence[Any], *, workers: int,
        context: Any = None, whole: Sequence[Any] | None = None, ranges: Sequence[range] | None = None) -> list:
    """`task(solver, chunk)` for each chunk, in `workers` processes; results in chunk order.

    With `whole` and `ranges` (chunk k is `whole[ranges[k].start:ranges[k].stop]`), forked
    workers take each chunk from their copy of `whole`.  `task` must be a module-level function."""
    global _SOLVER, _WHOLE
    from concurrent.futures import ProcessPoolExecutor

    context = context or globals()["context"]()
    forked = context.get_start_method() == "fork"
    jobs = [(task, r) for r in ranges] if forked and whole is not None and ranges is not None \
        else [(task, c) for c in chunks]
    solver.prepare()
    _SOLVER = solver  # inherited by forked workers
    _WHOLE = whole if forked else None
    try:
        with ProcessPoolExecutor(workers, mp_context=context, initializer=_init,
                                 initargs=(solver.spec(),)) as pool:
            results = list(pool.map(_call, jobs))
    except InputError:
        raise
    except Exception as e:
        raise EngineError(f"a worker process failed ({type(e).__name__}: {e}); "
                          "try again with one process (--jobs 1)") from e
    finally:
        _SOLVER = _WHOLE = None
    for r in results:
        if isinstance(r, _Failed):
            raise EngineError(f"a worker process failed: {r.text}")
    return results
