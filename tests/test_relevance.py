"""The pre-grounding relevance filter (aslrules/relevance.py) never changes an answer.

Source: none of ASL; this guards an optimisation.  For every case file, and for
every situation in listing mode, the shown atoms of the filtered program equal
those of the whole KB.
"""

from __future__ import annotations

from pathlib import Path

import clingo
import pytest
from clingo import ast

from aslrules.core import build_facts, engine
from aslrules.loader import load_file
from aslrules.relevance import RelevanceFilter

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "examples").rglob("*.yaml"))


def _shown(program, facts) -> list[str]:
    ctl = clingo.Control(["--warn=none"])
    with ast.ProgramBuilder(ctl) as b:
        for s in program:
            b.add(s)
    with ctl.backend() as be:
        for pred, args in facts:
            be.add_rule([be.add_atom(clingo.Function(pred, list(args)))])
    ctl.ground([("base", [])])
    with ctl.solve(yield_=True) as h:
        model = next(iter(h))
        return sorted(map(str, model.symbols(shown=True)))


@pytest.fixture(scope="module")
def filt() -> RelevanceFilter:
    return RelevanceFilter(engine().program)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_filtered_program_answers_like_the_whole_kb(path: Path, filt: RelevanceFilter) -> None:
    sit = load_file(path)
    for listing in (False, True):
        fb = build_facts(sit, list_options=listing or not sit.expect)
        sigs = {(p, len(a)) for p, a in fb.facts}
        assert _shown(filt.select(sigs), fb.facts) == _shown(engine().program, fb.facts)


def test_filter_drops_rules_for_absent_inputs(filt: RelevanceFilter) -> None:
    """With no situation at all, rules needing situation facts are not grounded."""
    whole = sum(1 for s in filt.program if s.ast_type == ast.ASTType.Rule)
    kept = sum(1 for s in filt.select(set()) if s.ast_type == ast.ASTType.Rule)
    assert kept < whole / 4
