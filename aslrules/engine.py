"""Ground and solve: the KB is parsed once per process and answers many questions.

Two ways to run it:

* `Engine.solve(facts)`: one situation, one fresh `clingo.Control` fed the
  pre-parsed KB (ProgramBuilder) and the situation's facts (backend).
* `Engine.solve_batch([facts, ...])`: many situations in one grounding.  The
  KB is rewritten once (an AST transformer adds a case argument to every
  situation-dependent predicate, performance-notes.md), each situation's facts
  get their case number, and one Control grounds them all.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from importlib import resources
from pathlib import Path

import clingo
from clingo import Function, Number, Symbol, ast

from .errors import InputError
from .facts import Fact

log = logging.getLogger(__name__)

CASE_VAR = "AslCase"
CASE_PRED = "case"


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
    return sorted((directory or kb_dir()).glob("*.lp"))


def _parse(files: Sequence[Path]) -> list[ast.AST]:
    stms: list[ast.AST] = []
    ast.parse_files([str(f) for f in files], stms.append)
    return stms


# --------------------------------------------------------------------------- batch rewrite


def _atoms_in(node: ast.AST, out: list[tuple[str, int]]) -> None:
    """Every (name, arity) of a symbolic atom below `node`."""

    class Collect(ast.Transformer):
        def visit_SymbolicAtom(self, x: ast.AST) -> ast.AST:
            # a pooled atom `p(a;b)` is a Pool of Functions
            terms = x.symbol.arguments if x.symbol.ast_type == ast.ASTType.Pool else [x.symbol]
            for t in terms:
                if t.ast_type == ast.ASTType.Function:
                    out.append((t.name, len(t.arguments)))
                elif t.ast_type == ast.ASTType.SymbolicTerm and t.symbol.type == clingo.SymbolType.Function:
                    out.append((t.symbol.name, len(t.symbol.arguments)))
            return x

    Collect()(node)


def dynamic_predicates(stms: Sequence[ast.AST]) -> set[tuple[str, int]]:
    """Predicates that depend on a situation: inputs, and all that derive from them."""
    rules: list[tuple[list[tuple[str, int]], list[tuple[str, int]]]] = []
    declared: set[tuple[str, int]] = set()
    inputs: set[tuple[str, int]] = set()
    heads_all: set[tuple[str, int]] = set()
    for s in stms:
        if s.ast_type == ast.ASTType.Defined:
            declared.add((s.name, s.arity))
            if s.location.begin.filename.endswith("input.lp"):
                inputs.add((s.name, s.arity))
        elif s.ast_type == ast.ASTType.Rule:
            heads: list[tuple[str, int]] = []
            body: list[tuple[str, int]] = []
            _atoms_in(s.head, heads)
            for lit in s.body:
                _atoms_in(lit, body)
            rules.append((heads, body))
            heads_all.update(heads)
    # seeds: the declared inputs, and declared predicates no rule derives
    dynamic = inputs | {p for p in declared if p not in heads_all}
    changed = True
    while changed:
        changed = False
        for heads, body in rules:
            if any(b in dynamic for b in body):
                for h in heads:
                    if h not in dynamic:
                        dynamic.add(h)
                        changed = True
    return dynamic


class _AddCase(ast.Transformer):
    def __init__(self, dynamic: set[tuple[str, int]]):
        self.dynamic = dynamic

    def visit_SymbolicAtom(self, x: ast.AST) -> ast.AST:
        t = x.symbol
        if t.ast_type == ast.ASTType.Pool:  # `p(a;b)`: each element of the pool
            return ast.SymbolicAtom(ast.Pool(t.location, [self._term(e) for e in t.arguments]))
        return ast.SymbolicAtom(self._term(t))

    def _term(self, t: ast.AST) -> ast.AST:
        if t.ast_type == ast.ASTType.Function and (t.name, len(t.arguments)) in self.dynamic:
            var = ast.Variable(t.location, CASE_VAR)
            return ast.Function(t.location, t.name, [var, *t.arguments], t.external)
        if (
            t.ast_type == ast.ASTType.SymbolicTerm
            and t.symbol.type == clingo.SymbolType.Function
            and (t.symbol.name, len(t.symbol.arguments)) in self.dynamic
        ):
            var = ast.Variable(t.location, CASE_VAR)
            args = [ast.SymbolicTerm(t.location, a) for a in t.symbol.arguments]
            return ast.Function(t.location, t.symbol.name, [var, *args], 0)
        return t


def batch_program(stms: Sequence[ast.AST]) -> list[ast.AST]:
    """The KB with a case argument on every situation-dependent predicate."""
    dynamic = dynamic_predicates(stms)
    add = _AddCase(dynamic)
    out: list[ast.AST] = []
    for s in stms:
        if s.ast_type == ast.ASTType.Rule:
            heads: list[tuple[str, int]] = []
            body: list[tuple[str, int]] = []
            _atoms_in(s.head, heads)
            for lit in s.body:
                _atoms_in(lit, body)
            if not any(p in dynamic for p in heads + body):
                out.append(s)
                continue
            loc = s.location
            guard = ast.Literal(
                loc, ast.Sign.NoSign,
                ast.SymbolicAtom(ast.Function(loc, CASE_PRED, [ast.Variable(loc, CASE_VAR)], 0)),
            )
            out.append(ast.Rule(loc, add(s.head), [guard, *(add(b) for b in s.body)]))
        elif s.ast_type in (ast.ASTType.ShowSignature, ast.ASTType.Defined):
            if (s.name, s.arity) in dynamic:
                out.append(s.update(arity=s.arity + 1))
            else:
                out.append(s)
        else:
            out.append(s)
    return out


# --------------------------------------------------------------------------- engine


class Engine:
    """Holds the parsed KB; answers situations."""

    def __init__(self, directory: Path | None = None):
        self.files = kb_files(directory)
        self.program = _parse(self.files)
        self._batch: list[ast.AST] | None = None

    @property
    def batch(self) -> list[ast.AST]:
        if self._batch is None:
            self._batch = batch_program(self.program)
        return self._batch

    def _control(self, program: Iterable[ast.AST]) -> clingo.Control:
        ctl = clingo.Control(["--warn=none"])
        with ast.ProgramBuilder(ctl) as builder:
            for s in program:
                builder.add(s)
        return ctl

    @staticmethod
    def _add_facts(ctl: clingo.Control, facts: Iterable[Fact], case: Symbol | None = None) -> None:
        with ctl.backend() as backend:
            if case is not None:
                backend.add_rule([backend.add_atom(Function(CASE_PRED, [case]))])
            for pred, args in facts:
                full = [case, *args] if case is not None else list(args)
                backend.add_rule([backend.add_atom(Function(pred, full))])

    @staticmethod
    def _model(ctl: clingo.Control) -> list[Symbol]:
        ctl.ground([("base", [])])
        shown: list[Symbol] = []
        with ctl.solve(yield_=True) as handle:
            for m in handle:
                shown = m.symbols(shown=True)
                break
            else:  # the KB is stratified: no model means the KB itself is broken
                raise RuntimeError("the knowledge base has no answer set for this situation")
        return shown

    def solve(self, facts: Sequence[Fact]) -> list[Symbol]:
        ctl = self._control(self.program)
        self._add_facts(ctl, facts)
        return self._model(ctl)

    def solve_batch(self, cases: Sequence[Sequence[Fact]]) -> list[list[Symbol]]:
        """Solve many situations in one grounding; returns each one's shown atoms."""
        ctl = self._control(self.batch)
        for k, facts in enumerate(cases):
            self._add_facts(ctl, facts, Number(k))
        per_case: list[list[Symbol]] = [[] for _ in cases]
        for sym in self._model(ctl):
            k = sym.arguments[0].number
            per_case[k].append(Function(sym.name, sym.arguments[1:]))
        return per_case


def check_missing_ranges(path: str, symbols: Sequence[Symbol]) -> None:
    """A question needs a range the grid cannot give (different boards): an input error."""
    for s in symbols:
        if s.name == "missing_range":
            a, b = (x.string for x in s.arguments)
            raise InputError(path, None, "lines_of_sight",
                             f"a `range:` entry between {a} and {b} (hexes on different boards)")
