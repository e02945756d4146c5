"""The batch rewrite: the KB with a case argument on every situation-dependent predicate, so that
many situations ground in one Control (performance-notes.md)."""

from __future__ import annotations

from collections.abc import Sequence

import clingo
from clingo import ast

from .program import _atoms_in

CASE_VAR = "AslCase"
CASE_PRED = "case"

def case_independent(stms: Sequence[ast.AST]) -> set[tuple[str, int]]:
    """The inputs the KB declares the same in every situation: `case_independent(P,N).` facts
    (kb/input.lp)."""
    found: set[tuple[str, int]] = set()
    for s in stms:
        if s.ast_type != ast.ASTType.Rule or s.body or s.head.ast_type != ast.ASTType.Literal:
            continue
        atom = s.head.atom
        if atom.ast_type != ast.ASTType.SymbolicAtom:
            continue
        term = atom.symbol
        if term.ast_type == ast.ASTType.Function and term.name == "case_independent" and len(term.arguments) == 2:
            name, arity = term.arguments
            if arity.ast_type == ast.ASTType.SymbolicTerm and arity.symbol.type == clingo.SymbolType.Number:
                found.add((str(name), arity.symbol.number))
    return found


def dynamic_predicates(stms: Sequence[ast.AST], inputs: set[tuple[str, int]]) -> set[tuple[str, int]]:
    """Predicates that depend on a situation: `inputs` (but those declared case-independent),
    and all that derive from them."""
    rules: list[tuple[list[tuple[str, int]], list[tuple[str, int]]]] = []
    declared: set[tuple[str, int]] = set()
    heads_all: set[tuple[str, int]] = set()
    for s in stms:
        if s.ast_type == ast.ASTType.Defined:
            declared.add((s.name, s.arity))
        elif s.ast_type == ast.ASTType.Rule:
            heads: list[tuple[str, int]] = []
            body: list[tuple[str, int]] = []
            _atoms_in(s.head, heads)
            for lit in s.body:
                _atoms_in(lit, body)
            rules.append((heads, body))
            heads_all.update(heads)
    # seeds: the declared inputs, and declared predicates no rule derives
    dynamic = (inputs | {p for p in declared if p not in heads_all}) - case_independent(stms)
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


def _binds_case(lit: ast.AST, dynamic: set[tuple[str, int]]) -> bool:
    """A positive body literal over a situation-dependent predicate binds the case variable."""
    if lit.ast_type != ast.ASTType.Literal or lit.sign != ast.Sign.NoSign:
        return False
    atom = lit.atom
    if atom.ast_type != ast.ASTType.SymbolicAtom:
        return False
    t = atom.symbol
    if t.ast_type == ast.ASTType.Function:
        return (t.name, len(t.arguments)) in dynamic
    if t.ast_type == ast.ASTType.SymbolicTerm and t.symbol.type == clingo.SymbolType.Function:
        return (t.symbol.name, len(t.symbol.arguments)) in dynamic
    return False


def batch_program(stms: Sequence[ast.AST], inputs: set[tuple[str, int]]) -> list[ast.AST]:
    """The KB with a case argument on every situation-dependent predicate."""
    dynamic = dynamic_predicates(stms, inputs)
    add = _AddCase(dynamic)
    return [batch_statement(s, dynamic, add) for s in stms]


def batch_statement(s: ast.AST, dynamic: set[tuple[str, int]], add: ast.Transformer | None = None) -> ast.AST:
    """One statement of the batch rewrite, the situation-dependent predicates being `dynamic`
    (taking more of them than `dynamic_predicates` finds is the same program, grounded slower)."""
    add = add or _AddCase(dynamic)
    if s.ast_type == ast.ASTType.Rule:
        heads: list[tuple[str, int]] = []
        body: list[tuple[str, int]] = []
        _atoms_in(s.head, heads)
        for lit in s.body:
            _atoms_in(lit, body)
        if not any(p in dynamic for p in heads + body):
            return s
        body_out = [add(b) for b in s.body]
        if not any(_binds_case(b, dynamic) for b in s.body):
            # nothing in the body binds the case: guard it (a guard on every rule would
            # make the grounder visit every rule once per case, even with nothing to match)
            loc = s.location
            body_out.insert(0, ast.Literal(
                loc, ast.Sign.NoSign,
                ast.SymbolicAtom(ast.Function(loc, CASE_PRED, [ast.Variable(loc, CASE_VAR)], 0)),
            ))
        return ast.Rule(s.location, add(s.head), body_out)
    if s.ast_type in (ast.ASTType.ShowSignature, ast.ASTType.Defined) and (s.name, s.arity) in dynamic:
        return s.update(arity=s.arity + 1)
    return s
