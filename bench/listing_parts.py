"""Benchmark (not a test): where a listing's CPU time goes, part by part, and what the answer
protocol alone costs for the same answers.

    python bench/listing_parts.py [--per-side 120] [--phase DFPh] [--repeats 3]

Each repeat in a new process (clingo keeps every symbol it made for the life of a process, so a
second listing in one process grounds faster than `aslrules ask` ever does), the solver made and
its cache read first, the cyclic collector off as `aslrules ask` has it:

* the listing of bench/run.py's generated situation (`listing_situation`), part by part as
  `aslrules ask FILE --format json` makes it: the facts, the pruning, the Control with the pruned
  program and the facts, grounding, solving (the model's shown symbols), reading them, the answers
  (aslrules.core.ordered_answers: read_answers and the listing's order), the JSON data and text;
* the floor: the same shown atoms given to a new Control as facts, with nothing to derive, then
  the same grounding, model, reading, answers and JSON.  Less the facts going in (the Python
  backend's cost of adding atoms that already exist, which the KB does not pay), it is what the
  answer protocol costs for these answers if the KB derived them for free.

Prints CPU seconds, min / median of the repeats, for each part (the start-up too: the
interpreter, the imports and the cached KB), with the number of ground atoms
and shown atoms.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import clingo

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run import listing_situation  # noqa: E402

from aslrules import core  # noqa: E402
from aslrules.fast import capi  # noqa: E402
from aslrules.loader import load_file  # noqa: E402
from aslrules.render import write_answers_json  # noqa: E402
from aslrules.symbols import Facts  # noqa: E402


class Parts:
    """CPU seconds per part, in the order the parts were first timed."""

    def __init__(self) -> None:
        self.times: dict[str, list[float]] = {}
        self.counts: dict[str, int] = {}
        self._last = time.process_time()

    def start(self) -> None:
        self._last = time.process_time()

    def done(self, part: str) -> None:
        now = time.process_time()
        self.times.setdefault(part, []).append(now - self._last)
        self._last = now


def answers_and_json(parts: Parts, prefix: str, symbols: list) -> int:
    """The shown symbols read, made into answers in the listing's order and written as JSON (as
    `aslrules ask --format json` does); returns the JSON's length."""
    atoms = capi.read_symbols(symbols)
    parts.done(f"{prefix}read")
    listed = core.ordered_answers(atoms)
    parts.done(f"{prefix}answers")
    out = io.StringIO()
    write_answers_json(out, "-", "", listed, listing=True)
    parts.done(f"{prefix}json")
    return len(out.getvalue())


def listing_round(parts: Parts, path: Path) -> list:
    """One listing, timed part by part; returns the shown symbols as clingo Symbols."""
    eng = core.engine()
    parts.start()
    sit = load_file(path)
    facts = Facts.of(core.build_facts(sit, list_options=True, asked=True).facts)
    parts.done("facts")
    program, needed = eng.pruned(facts)
    parts.done("pruning")
    ctl = eng._control(program)
    eng._add_facts(ctl, facts, keep=needed)
    parts.done("control")
    ctl.ground([("base", [])])
    parts.done("grounding")
    parts.counts["ground atoms"] = len(ctl.symbolic_atoms)
    with ctl.solve(yield_=True) as handle:
        model = next(iter(handle))
        symbols = capi.model_symbols(model)
        parts.done("solving")
        shown = list(model.symbols(shown=True))  # for the floor, not timed
    parts.counts["shown atoms"] = len(symbols)
    del ctl, model
    parts.start()
    parts.counts["json chars"] = answers_and_json(parts, "", symbols)
    return shown


def floor_round(parts: Parts, shown: list) -> None:
    """The same shown atoms as facts of an otherwise empty program, then the same reading."""
    parts.start()
    ctl = clingo.Control(["--warn=none"])
    with ctl.backend() as backend:
        for s in shown:
            backend.add_rule([backend.add_atom(s)])
    parts.done("floor: facts in")
    symbols = core.engine()._model(ctl)
    parts.done("floor: grounding and model")
    del ctl
    answers_and_json(parts, "floor: ", symbols)


def one(path: str) -> None:
    """One listing and its floor in this process; prints the parts as JSON."""
    gc.disable()
    core.engine().relevance()
    parts = Parts()
    parts.times["start-up"] = [time.process_time()]  # the interpreter, the imports, the cached KB
    floor_round(parts, listing_round(parts, Path(path)))
    print(json.dumps({"times": parts.times, "counts": parts.counts}))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--per-side", type=int, default=120)
    p.add_argument("--phase", choices=("MPh", "DFPh"), default="DFPh")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--one", metavar="FILE", help=argparse.SUPPRESS)  # a repeat's own process
    args = p.parse_args()
    if args.one:
        return one(args.one)
    parts = Parts()
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "listing.yaml"
        path.write_text(listing_situation(args.per_side, args.phase, seed=args.per_side), encoding="utf-8")
        for _ in range(args.repeats):
            r = subprocess.run([sys.executable, __file__, "--one", str(path)], capture_output=True, text=True,
                               check=True)
            got = json.loads(r.stdout)
            for k, ts in got["times"].items():
                parts.times.setdefault(k, []).extend(ts)
            parts.counts = got["counts"]
    print(f"listing of {args.phase}, {args.per_side} units a side: "
          + ", ".join(f"{n:,} {k}" for k, n in parts.counts.items()))
    print(f"CPU s, min / median of {args.repeats}")
    total: Callable[[Callable[[str], bool]], list[float]] = lambda keep: [
        sum(ts[i] for k, ts in parts.times.items() if keep(k)) for i in range(args.repeats)]
    for k, ts in parts.times.items():
        print(f"  {k:<28}{min(ts):8.3f} /{statistics.median(ts):6.3f}")
    for name, keep in (("listing", lambda k: not k.startswith("floor")),
                       ("floor (less facts in)", lambda k: k.startswith("floor") and k != "floor: facts in")):
        ts = total(keep)
        print(f"  {name + ', in all':<28}{min(ts):8.3f} /{statistics.median(ts):6.3f}")


if __name__ == "__main__":
    main()
