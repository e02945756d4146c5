"""KB hygiene: the whole KB grounds with clingo's warnings on and none fires, for the facts of
every case; `#show` lives in kb/show.lp only, `#defined` in kb/input.lp and kb/show.lp only;
every fact aslrules builds is a declared input; no valid case has an input error.

The cases are grounded as `aslrules check` grounds a batch (aslrules/fast/batch.py: a case argument
on every situation-dependent predicate), the whole KB, unpruned, with a logger collecting every
message: a misspelt predicate is an atom that occurs in no rule head."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import clingo
from clingo import Function, Number, ast

from aslrules.core import build_facts, iter_case_files
from aslrules.fast.batch import CASE_PRED, batch_program, dynamic_predicates
from aslrules.fast.program import input_signatures
from aslrules.solve import kb_files
from aslrules.loader import load_file

ROOT = Path(__file__).resolve().parent.parent
KB = ROOT / "kb"


def kb_statements() -> list[ast.AST]:
    stms: list[ast.AST] = []
    ast.parse_files([str(f) for f in kb_files(KB)], stms.append)
    return stms


@cache
def grounded() -> tuple[list[str], list[clingo.Symbol]]:
    """Every message clingo gives grounding the KB with every case's facts, and the shown atoms."""
    files = kb_files(KB)
    stms = kb_statements()
    inputs = input_signatures(files)
    dynamic = dynamic_predicates(stms, inputs)
    messages: list[str] = []
    ctl = clingo.Control(logger=lambda code, text: messages.append(text), message_limit=100_000)
    with ast.ProgramBuilder(ctl) as builder:
        for s in batch_program(stms, inputs):
            builder.add(s)
    facts: set[str] = set()
    for k, path in enumerate(iter_case_files([str(ROOT / "tests" / "cases"), str(ROOT / "examples")])):
        case = Number(k)
        facts.add(f"{Function(CASE_PRED, [case])}.")
        for pred, args in build_facts(load_file(path)).facts:
            sym = Function(pred, [case, *args]) if (pred, len(args)) in dynamic else Function(pred, list(args))
            facts.add(f"{sym}.")  # a symbol prints as clingo parses it: strings are quoted and escaped
    ctl.add("base", [], "\n".join(sorted(facts)))
    ctl.ground([("base", [])])
    with ctl.solve(yield_=True) as handle:
        shown = list(next(iter(handle)).symbols(shown=True))
    return messages, shown


def test_no_grounding_warnings() -> None:
    """No undefined atom, no atom missing from every rule head, no global variable in an
    aggregate tuple: clingo grounds the KB with every case's facts and says nothing."""
    messages, _ = grounded()
    assert not messages, "\n".join(m.strip() for m in messages)


def test_every_fact_is_a_declared_input() -> None:
    """What aslrules/facts.py emits is declared in kb/input.lp (a typo in a fact name is caught)."""
    declared = input_signatures(kb_files(KB))
    emitted = set()
    for path in iter_case_files([str(ROOT / "tests" / "cases"), str(ROOT / "examples")]):
        emitted |= {(pred, len(args)) for pred, args in build_facts(load_file(path)).facts}
    assert emitted - declared == set()


def test_no_case_has_an_input_error() -> None:
    _, shown = grounded()
    assert [str(s) for s in shown if s.name == "input_error"] == []


def directives(name: str) -> dict[str, int]:
    """kb file -> how many statements of the directive it holds (comments left out)."""
    counts: dict[str, int] = {}
    for f in kb_files(KB):
        text = re.sub(r"%\*.*?\*%", "", f.read_text(encoding="utf-8"), flags=re.S)
        n = sum(1 for line in text.splitlines() if line.split("%", 1)[0].lstrip().startswith(name))
        if n:
            counts[f.name] = n
    return counts


def test_show_only_in_show_lp() -> None:
    assert set(directives("#show")) == {"show.lp"}


def test_defined_only_in_input_and_show() -> None:
    assert set(directives("#defined")) <= {"input.lp", "show.lp"}
