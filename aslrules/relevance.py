"""Ground only the rules that can fire: a sound pre-grounding filter.

clingo pays a fixed cost for every rule of a Control, even one whose body can
never be satisfied (performance-notes.md: ~24 microseconds a rule).  Which
input predicates a situation supplies is known before grounding, so a rule
whose positive body needs a predicate that can hold neither as an input nor
as the head of a rule that can fire is dropped.  This is predicate-level
reachability, the same over-approximation the grounder itself starts from:
it knows nothing of ASL, and it never changes an answer (a dropped rule could
not have fired).  The kept rule set is cached per set of input signatures.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import clingo
from clingo import ast

Signature = tuple[str, int]


def _sig(atom: ast.AST) -> Signature | None:
    if atom.ast_type != ast.ASTType.SymbolicAtom:
        return None
    t = atom.symbol
    if t.ast_type == ast.ASTType.Pool:  # p(a;b): one predicate, pooled arguments
        t = t.arguments[0]
    if t.ast_type == ast.ASTType.Function:
        return (t.name, len(t.arguments))
    if t.ast_type == ast.ASTType.SymbolicTerm and t.symbol.type == clingo.SymbolType.Function:
        return (t.symbol.name, len(t.symbol.arguments))
    return None


def _heads(head: ast.AST) -> list[Signature]:
    out: list[Signature] = []

    class Collect(ast.Transformer):
        def visit_SymbolicAtom(self, x: ast.AST) -> ast.AST:
            s = _sig(x)
            if s is not None:
                out.append(s)
            return x

    Collect()(head)
    return out


def _required(body: Sequence[ast.AST]) -> list[Signature]:
    """Signatures of the positive, unconditional body atoms: each must be able to hold."""
    req: list[Signature] = []
    for lit in body:
        if lit.ast_type == ast.ASTType.Literal and lit.sign == ast.Sign.NoSign:
            s = _sig(lit.atom)
            if s is not None:
                req.append(s)
    return req


@dataclass(frozen=True)
class _Rule:
    index: int
    heads: tuple[Signature, ...]
    required: tuple[Signature, ...]


class RelevanceFilter:
    """Keeps, for a set of supplied input signatures, the statements that can matter."""

    def __init__(self, program: Sequence[ast.AST]):
        self.program = [s for s in program if s.ast_type != ast.ASTType.Comment]
        self.rules: list[_Rule] = []
        self.always: list[int] = []
        for i, s in enumerate(self.program):
            if s.ast_type == ast.ASTType.Rule:
                self.rules.append(_Rule(i, tuple(_heads(s.head)), tuple(_required(s.body))))
            else:
                self.always.append(i)
        self._cache: dict[frozenset[Signature], list[ast.AST]] = {}

    def select(self, inputs: Iterable[Signature]) -> list[ast.AST]:
        key = frozenset(inputs)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        possible: set[Signature] = set(key)
        kept: set[int] = set()
        pending = list(self.rules)
        changed = True
        while changed:
            changed = False
            rest = []
            for r in pending:
                if all(s in possible for s in r.required):
                    kept.add(r.index)
                    for h in r.heads:
                        if h not in possible:
                            possible.add(h)
                            changed = True
                else:
                    rest.append(r)
            pending = rest
        chosen = sorted(kept | set(self.always))
        program = [self.program[i] for i in chosen]
        if len(self._cache) < 4096:
            self._cache[key] = program
        return program
