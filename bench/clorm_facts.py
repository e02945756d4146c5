"""Measurement behind README "Libraries considered" (not a test): the facts of bench/run.py's
20-unit question put into a Control through clorm, against aslrules' own path.

    pip install clorm && python bench/clorm_facts.py

* aslrules: build_facts (clingo symbols) and fast.capi.add_facts through the backend (clingo's
  C functions where verified, as the accelerated solver adds them);
* clorm, raw fields: the same symbols wrapped in one clorm Predicate class per input
  predicate, a FactBase, ClormControl.add_facts;
* clorm, typed fields: Predicates with String/Integer/Constant fields made from Python values
  (clorm as it is meant to be used), FactBase, add_facts; the Python values are made beforehand
  and not timed, which favours clorm.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import clingo

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import situation

from aslrules.core import build_facts
from aslrules.fast.capi import add_facts
from aslrules.loader import load_text

try:
    from clorm import ConstantField, FactBase, IntegerField, Predicate, RawField, StringField
    from clorm.clingo import Control as ClormControl
except ImportError:
    sys.exit("needs clorm: pip install clorm")


def _field(sym: clingo.Symbol, typed: bool) -> type:
    if not typed or (sym.type == clingo.SymbolType.Function and sym.arguments):
        return RawField
    return {clingo.SymbolType.String: StringField, clingo.SymbolType.Number: IntegerField}.get(sym.type, ConstantField)


def _python(sym: clingo.Symbol) -> object:
    if sym.type == clingo.SymbolType.Function and sym.arguments:
        return sym
    return {clingo.SymbolType.String: lambda: sym.string, clingo.SymbolType.Number: lambda: sym.number}.get(
        sym.type, lambda: sym.name)()


def main() -> None:
    sit = load_text(situation(20, 20), "bench_20.yaml")
    facts = list(build_facts(sit).facts)
    samples = {(p, len(a)): a for p, a in facts}
    classes = {typed: {sig: type(f"P_{sig[0]}_{sig[1]}", (Predicate,), {
        **{f"a{i}": _field(a[i], typed) for i in range(sig[1])}, "Meta": type("Meta", (), {"name": sig[0]})})
        for sig, a in samples.items()} for typed in (False, True)}
    values = [(p, tuple(_python(x) for x in a)) for p, a in facts]

    def ours() -> None:
        ctl = clingo.Control()  # kept: a Backend does not keep its Control alive
        with ctl.backend() as b:
            add_facts(b, build_facts(sit).facts.table)

    def clorm_raw() -> None:
        ClormControl().add_facts(FactBase([classes[False][(p, len(a))](*a) for p, a in build_facts(sit).facts]))

    def clorm_typed() -> None:
        ClormControl().add_facts(FactBase([classes[True][(p, len(a))](*a) for p, a in values]))

    times: dict[str, list[float]] = {f.__name__: [] for f in (ours, clorm_raw, clorm_typed)}
    for _ in range(51):  # in turn, so that all three see the same machine speed
        for f in (ours, clorm_raw, clorm_typed):
            t = time.perf_counter()
            f()
            times[f.__name__].append((time.perf_counter() - t) * 1000)
    print(f"{len(facts)} facts of {len(samples)} input predicates, median of 51, ms:")
    for name, ts in times.items():
        print(f"  {name:12} {statistics.median(ts):6.2f}")


if __name__ == "__main__":
    main()
