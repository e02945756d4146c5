"""The KB as the accelerated solver parses it: statements without comments, anonymous variables of
positive body atoms named, and the small predicate-level helpers the analyses share."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import clingo
from clingo import ast


def parse_files(files: Sequence[Path]) -> list[ast.AST]:
    """The KB's statements, comments left out (they cost ProgramBuilder time and ground to nothing),
    anonymous variables of positive body atoms named (`name_anonymous`)."""
    stms: list[ast.AST] = []
    ast.parse_files([str(f) for f in files],
                    lambda s: stms.append(name_anonymous(s)) if s.ast_type != ast.ASTType.Comment else None)
    return stms


def parse_text(text: str) -> list[ast.AST] | None:
    """Statements as `program_text` wrote them; None if the text does not parse."""
    stms: list[ast.AST] = []
    try:
        ast.parse_string(text, stms.append, logger=lambda *_: None)
    except RuntimeError:
        return None
    return stms[1:]  # parse_string opens with its own `#program base.`


def program_text(stms: Sequence[ast.AST]) -> str:
    return "\n".join(str(x) for x in stms)


class Statements(Sequence[ast.AST]):
    """A program kept as its statements' texts (as `str` writes them), each parsed when first read:
    a question reads about a tenth of the KB (relevance pruning), and parsing all of it is most of
    what reading the cached KB costs."""

    def __init__(self, texts: Sequence[str], parsed: Sequence[ast.AST] | None = None):
        self.texts = list(texts)
        self._parsed: list[ast.AST | None] = list(parsed) if parsed is not None else [None] * len(self.texts)

    @classmethod
    def of(cls, stms: Sequence[ast.AST]) -> Statements:
        return cls([str(x) for x in stms], stms)

    def __len__(self) -> int:
        return len(self.texts)

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        found = self._parsed[i]
        if found is None:
            self.parse([i])
            found = self._parsed[i]
        return found

    def __iter__(self):
        self.parse(range(len(self)))
        return iter(self._parsed)

    def parse(self, indices: Iterable[int]) -> None:
        """Parse the statements at `indices` not parsed yet, in one call to clingo's parser."""
        todo = [i for i in indices if self._parsed[i] is None]
        if not todo:
            return
        stms = parse_text("\n".join(self.texts[i] for i in todo))
        if stms is None or len(stms) != len(todo):  # (never seen) one at a time
            stms = []
            for i in todo:
                one = parse_text(self.texts[i])
                if one is None or len(one) != 1:
                    raise ValueError(f"a cached statement does not parse as one: {self.texts[i]!r}")
                stms.extend(one)
        for i, stm in zip(todo, stms):
            self._parsed[i] = stm


def input_signatures(files: Sequence[Path]) -> set[tuple[str, int]]:
    """The input predicates: those declared (`#defined`) in kb/input.lp."""
    found: set[tuple[str, int]] = set()
    inputs = [str(f) for f in files if f.name == "input.lp"]
    if inputs:
        ast.parse_files(inputs, lambda s: found.add((s.name, s.arity)) if s.ast_type == ast.ASTType.Defined
                        else None)
    return found


class _NameAnonymous(ast.Transformer):
    def __init__(self) -> None:
        self.count = 0

    def visit_Variable(self, x: ast.AST) -> ast.AST:
        if x.name != "_":
            return x
        self.count += 1
        return ast.Variable(x.location, f"AslAnon{self.count}")


# a `_` standing alone in a statement's text: most statements have none, and their text (one call
# into clingo) is cheaper than walking their AST (one call per node and field)
_ANONYMOUS = re.compile(r"(?<![A-Za-z0-9_'])_(?![A-Za-z0-9_'])")


def name_anonymous(stm: ast.AST) -> ast.AST:
    """`p(X,_)` in a positive body literal becomes `p(X,AslAnon1)`: the same rule, grounded faster.

    clingo grounds `p(X,_)` through a projection of p whose size it does not know when it
    orders the body, so it may join that projection first: `same_board(H1,H2) :-
    need_range(H1,H2), hex(H1,B,_,_), hex(H2,B,_,_)` then walks every pair of hexes of a
    board (3 ms a case in a batch of 100) instead of looking up the two it needs.  A named
    variable that occurs once means the same in a positive literal and keeps the real domain.
    Negative literals and aggregate elements keep `_` (there it is needed for safety).

    A rule with a body aggregate keeps every `_`: there the projection is what is wanted.
    `closest(Q,M) :- dist(Q,_,_), M = #min{ R : dist(Q,_,R) }` named would bind the two
    variables and instantiate the aggregate once per distance of Q, not once per Q."""
    if stm.ast_type != ast.ASTType.Rule or not _ANONYMOUS.search(str(stm)) \
            or any(_is_aggregate(lit) for lit in stm.body):
        return stm
    name = _NameAnonymous()
    body = [name(lit) if (lit.ast_type == ast.ASTType.Literal and lit.sign == ast.Sign.NoSign
                          and lit.atom.ast_type == ast.ASTType.SymbolicAtom) else lit
            for lit in stm.body]
    return stm.update(body=body) if name.count else stm



def _is_aggregate(lit: ast.AST) -> bool:
    return lit.ast_type == ast.ASTType.Literal and lit.atom.ast_type in (ast.ASTType.BodyAggregate,
                                                                         ast.ASTType.Aggregate)


def _sig(t: ast.AST) -> tuple[str, int] | None:
    if t.ast_type == ast.ASTType.Function and not t.external:
        return t.name, len(t.arguments)
    if t.ast_type == ast.ASTType.SymbolicTerm and t.symbol.type == clingo.SymbolType.Function:
        return t.symbol.name, len(t.symbol.arguments)
    return None



def _atoms_in(node: ast.AST, out: list[tuple[str, int]]) -> None:
    """Every (name, arity) of a symbolic atom below `node`."""

    def found(x: ast.AST) -> None:
        for t in atom_terms(x):
            kind = t.ast_type
            if kind == ast.ASTType.Function:
                out.append((t.name, len(t.arguments)))
            elif kind == ast.ASTType.SymbolicTerm and t.symbol.type == clingo.SymbolType.Function:
                out.append((t.symbol.name, len(t.symbol.arguments)))

    symbolic_atoms(node, found)


def atom_terms(x: ast.AST) -> list[ast.AST]:
    """The terms of a SymbolicAtom: its symbol, or the Functions of a pooled atom `p(a;b)`."""
    symbol = x.symbol
    return symbol.arguments if symbol.ast_type == ast.ASTType.Pool else [symbol]


_T = ast.ASTType
# the fields of a node that may hold symbolic atoms; a term (an argument, a guard, an aggregate
# element's tuple) never does
_ATOM_FIELDS = {_T.Rule: ("head", "body"), _T.Literal: ("atom",), _T.ConditionalLiteral: ("literal", "condition"),
                _T.BodyAggregate: ("elements",), _T.BodyAggregateElement: ("condition",),
                _T.Aggregate: ("elements",), _T.HeadAggregate: ("elements",),
                _T.HeadAggregateElement: ("condition",), _T.Disjunction: ("elements",)}
_NO_ATOMS = (_T.Comparison, _T.BooleanConstant)


def symbolic_atoms(node: ast.AST, visit: Callable[[ast.AST], None]) -> None:
    """Call `visit` on every SymbolicAtom below `node`, reading only the fields that may hold one
    (each field read is a call into clingo: a walk of every field costs several times more).  A
    node of another kind (a theory atom, a statement other than a rule) is walked in full."""
    kind = node.ast_type
    if kind == _T.SymbolicAtom:
        visit(node)
    elif kind in _ATOM_FIELDS:
        for name in _ATOM_FIELDS[kind]:
            value = getattr(node, name)
            if isinstance(value, ast.AST):
                symbolic_atoms(value, visit)
            else:
                for x in value:
                    symbolic_atoms(x, visit)
    elif kind not in _NO_ATOMS:
        _Visit(visit)(node)


class _Visit(ast.Transformer):
    def __init__(self, visit: Callable[[ast.AST], None]) -> None:
        self.visit_found = visit

    def visit_SymbolicAtom(self, x: ast.AST) -> ast.AST:
        self.visit_found(x)
        return x
