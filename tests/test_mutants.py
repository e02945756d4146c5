"""The mutation tester's shortcut (bench/mutants.py, MutantSolver): a mutant's pruned program made
from the KB's gives the answers the mutant's own relevance analysis gives."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _tester():
    spec = importlib.util.spec_from_file_location("mutants", ROOT / "bench" / "mutants.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["mutants"] = module
    spec.loader.exec_module(module)
    return module


def test_reused_programs_answer_as_the_mutants_own() -> None:
    M = _tester()
    ev = M.load_evidence(["tests/cases/a8_13", "tests/cases/replays/ex_8_15.yaml"])
    kept = sorted(set().union(*(u.keep for u in ev.cases)) & set(M.statements(ev)))
    mutants, _, _ = M.all_mutants(ev, random.Random(1).sample(kept, 6))
    assert {m.kind for m in mutants} >= {"delete", "drop", "negate"}
    for m in mutants:
        got = {}
        for reuse in (False, True):
            M.REUSE = reuse
            rec = M.Answers(M.mutant_solver(ev, m))
            for u in M.affected(ev, m, ev.cases, rec.eng):
                try:
                    M._case_result(rec, [u.item])
                except Exception as error:  # a mutant may make an answer an error: the same one
                    rec.answers.append({type(error).__name__})
            got[reuse] = rec.answers
        assert got[True] == got[False], (M.where(m.index), m.change)
    M.REUSE = True
