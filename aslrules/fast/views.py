"""Rules that only rename, applied as the shown atoms are read.

`figure(Q,fp,fp(V)) :- fp(Q,V).` costs gringo a rule's fixed work (about 130,000 instructions,
docs/performance.md), more than the few atoms it renames.  When the head's predicate is only
shown (no rule of the program reads it) and the body is one positive atom, the accelerated
solver grounds `#show fp/2.` instead and makes the `figure` atoms from the `fp` atoms it reads:
the same shown atoms (tests/test_engine.py compares the answers with the plain solver's).

A view matches the body atom's arguments (variables, a variable met twice, values) and builds the
head from variables, values, functions and tuples of them; a rule with anything else (arithmetic,
pools, intervals, a second literal) stays a rule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter

import clingo
from clingo import ast

from ..symbols import Term, Value, symbol_value
from .program import _atoms_in, _sig

# a pattern or template part: ("var", name), ("val", value) or ("fun", name, parts)
Part = tuple


class Views:
    """The renaming rules of a program, taken out of it and applied to the atoms read."""

    def __init__(self, stms: Sequence[ast.AST]):
        self._stms = stms
        self._made = False

    @property
    def program(self) -> list[ast.AST]:
        """The program to ground: the views taken out, `#show` of what they read put in."""
        self._make()
        return self._program

    def _make(self) -> None:
        """The analysis, made on first use (a listing never uses it)."""
        if self._made:
            return
        self._made = True
        stms = self._stms
        self._program: list[ast.AST] = list(stms)
        # per atom name: what reading an atom of it means (see `_handler`)
        self.handlers: dict[str, Callable[[Term, list, dict], None]] = {}
        self.unique: set[tuple[str, int]] = set()  # views' heads an atom may reach twice: made unique
        shown = {(s.name, s.arity) for s in stms if s.ast_type == ast.ASTType.ShowSignature}
        if any(s.ast_type == ast.ASTType.ShowTerm for s in stms) or not shown:
            return  # every atom shown, or shown terms: left as it is
        read: list[tuple[str, int]] = []
        for s in stms:
            if s.ast_type == ast.ASTType.Rule:
                for lit in s.body:
                    _atoms_in(lit, read)
                if s.head.ast_type != ast.ASTType.Literal:  # a head's conditions read atoms too
                    _atoms_in(s.head, read)
        read_set = set(read)
        keep: list[ast.AST] = []
        views: list[tuple[tuple[str, int], tuple[str, int], tuple[Part, ...], tuple[Part, ...]]] = []
        for s in stms:
            view = _view(s) if s.ast_type == ast.ASTType.Rule else None
            if view is None or view[0] not in shown or view[0] in read_set:
                keep.append(s)
            else:
                views.append(view)
        if not views:
            return
        # heads that may meet: two templates of one signature that unify, or a view that drops a
        # variable of its body (two atoms read may make one)
        heads: dict[tuple[str, int], list[tuple[Part, ...] | None]] = {}
        for s in keep:
            for sig, template in _rule_heads(s) if s.ast_type == ast.ASTType.Rule else ():
                heads.setdefault(sig, []).append(template)
        for head_sig, _, pattern, template in views:
            if {p[1] for p in pattern if p[0] == "var"} - set().union(*map(_vars, template)):
                self.unique.add(head_sig)
            for other in heads.get(head_sig, ()):
                if other is None or _may_unify(template, other):
                    self.unique.add(head_sig)
            heads.setdefault(head_sig, []).append(template)
        by_sig: dict[tuple[str, int], list[tuple[tuple[str, int], Callable[[tuple], Term | None]]]] = {}
        for head_sig, body_sig, pattern, template in views:
            by_sig.setdefault(body_sig, []).append((head_sig, _builder(head_sig[0], pattern, template)))
        loc = stms[0].location
        entries: dict[str, dict[int, tuple]] = {}
        for sig, builds in by_sig.items():
            hidden = sig not in shown
            if hidden:
                keep.append(ast.ShowSignature(loc, sig[0], sig[1], True))
            entries.setdefault(sig[0], {})[sig[1]] = (builds, hidden, None)
        for sig in self.unique:
            entries.setdefault(sig[0], {})[sig[1]] = ((), False, sig)
        self.handlers = {name: _handler(by_arity) for name, by_arity in entries.items()}
        self._program = keep

    def apply(self, atoms: list[Term]) -> list[Term]:
        """The shown atoms with the views' atoms added (each once) and the atoms read only for them
        left out."""
        self._make()
        handlers = self.handlers
        if not handlers:
            return atoms
        out: list[Term] = []
        append = out.append
        seen: dict[tuple[str, int], set[Term]] = {sig: set() for sig in self.unique}
        for atom in atoms:
            handle = handlers.get(atom.name)
            if handle is None:
                append(atom)
            else:
                handle(atom, out, seen)
        return out


def _handler(by_arity: dict[int, tuple]) -> Callable[[Term, list, dict], None]:
    """What reading an atom of one name does: per arity, (the views it feeds, each as (head
    signature, builder); whether it is left out; the signature it is made unique under, or None)."""

    def handle(atom: Term, out: list, seen: dict) -> None:
        args = atom.arguments
        entry = by_arity.get(len(args))
        if entry is None:
            out.append(atom)
            return
        builds, hidden, unique = entry
        if unique is not None:
            made = seen[unique]
            if atom not in made:
                made.add(atom)
                out.append(atom)
            return
        if not hidden:
            out.append(atom)
        for head_sig, build in builds:
            new = build(args)
            if new is None:
                continue
            made = seen.get(head_sig)
            if made is not None:
                if new in made:
                    continue
                made.add(new)
            out.append(new)

    return handle


def _builder(name: str, pattern: tuple[Part, ...], template: tuple[Part, ...]) -> Callable[[tuple], Term | None]:
    """The head atom a body atom's arguments make, or None if they do not match the pattern."""
    index: dict[str, int] = {}
    values: list[tuple[int, Value]] = []  # positions that must hold a value
    equal: list[tuple[int, int]] = []  # positions that must hold the same value (a variable met twice)
    for k, part in enumerate(pattern):
        if part[0] == "val":
            values.append((k, part[1]))
        elif part[1] in index:
            equal.append((index[part[1]], k))
        else:
            index[part[1]] = k
    arguments = _parts(template, index)
    new = tuple.__new__
    if not values and not equal:
        return lambda args: new(Term, (name, arguments(args)))

    def build(args: tuple) -> Term | None:
        for k, v in values:
            a = args[k]
            if type(a) is not type(v) or a != v:
                return None
        for i, k in equal:
            if type(args[i]) is not type(args[k]) or args[i] != args[k]:
                return None
        return new(Term, (name, arguments(args)))

    return build


def _parts(parts: tuple[Part, ...], index: dict[str, int]) -> Callable[[tuple], tuple]:
    """A function of a body atom's arguments giving the values of template `parts`."""
    if all(p[0] != "fun" for p in parts):
        # one C call: the positions of the variables, and of the values appended after the arguments
        consts = tuple(p[1] for p in parts if p[0] == "val")
        at, c = [], len(index) and max(index.values()) + 1
        for p in parts:
            if p[0] == "var":
                at.append(index[p[1]])
            else:
                at.append(c)
                c += 1
        n = max(index.values()) + 1 if index else 0
        if not at:
            return lambda args: ()
        if len(at) == 1:
            only = at[0]
            return (lambda args: (args[only],)) if only < n else (lambda args, v=consts: v)
        pick = itemgetter(*at)
        if not consts:
            return pick
        return lambda args: pick(args[:n] + consts)
    getters: list[Callable[[tuple], Value]] = []
    for p in parts:
        if p[0] == "var":
            getters.append(itemgetter(index[p[1]]))
        elif p[0] == "val":
            getters.append(lambda args, v=p[1]: v)
        else:
            inner, fname = _parts(p[2], index), p[1]
            getters.append(lambda args, inner=inner, fname=fname: tuple.__new__(Term, (fname, inner(args))))
    return lambda args: tuple([g(args) for g in getters])


def _rule_heads(rule: ast.AST) -> list[tuple[tuple[str, int], tuple[Part, ...] | None]]:
    """The signatures a rule's head may derive, each with its template (None: not one `_part` reads)."""
    found: list[tuple[str, int]] = []
    _atoms_in(rule.head, found)
    head = rule.head
    if (head.ast_type == ast.ASTType.Literal and head.atom.ast_type == ast.ASTType.SymbolicAtom
            and head.atom.symbol.ast_type == ast.ASTType.Function):
        parts = [_part(a, nested=True) for a in head.atom.symbol.arguments]
        if all(p is not None for p in parts):
            return [(found[0], tuple(parts))]
    return [(sig, None) for sig in found]


def _may_unify(a: tuple[Part, ...], b: tuple[Part, ...]) -> bool:
    """Whether two templates of one signature may make the same atom (a value each side that
    differs, or functions of other names or arities, say no)."""
    for x, y in zip(a, b):
        if x[0] == "val" and y[0] == "val" and (type(x[1]) is not type(y[1]) or x[1] != y[1]):
            return False
        if x[0] == "fun" and y[0] == "fun" and (x[1] != y[1] or len(x[2]) != len(y[2])):
            return False
        if {x[0], y[0]} == {"val", "fun"}:
            v, f = (x, y) if x[0] == "val" else (y, x)
            if not isinstance(v[1], Term) or v[1].name != f[1] or len(v[1].arguments) != len(f[2]):
                return False
    return True


def _view(rule: ast.AST) -> tuple[tuple[str, int], tuple[str, int], tuple[Part, ...], tuple[Part, ...]] | None:
    """(head signature, body signature, body pattern, head template) of a renaming rule, or None."""
    head = rule.head
    if (head.ast_type != ast.ASTType.Literal or head.sign != ast.Sign.NoSign
            or head.atom.ast_type != ast.ASTType.SymbolicAtom or len(rule.body) != 1):
        return None
    lit = rule.body[0]
    if (lit.ast_type != ast.ASTType.Literal or lit.sign != ast.Sign.NoSign
            or lit.atom.ast_type != ast.ASTType.SymbolicAtom):
        return None
    h, b = head.atom.symbol, lit.atom.symbol
    head_sig, body_sig = _sig(h), _sig(b)
    if head_sig is None or body_sig is None or h.ast_type != ast.ASTType.Function \
            or b.ast_type != ast.ASTType.Function:
        return None
    pattern = []
    for a in b.arguments:
        part = _part(a, nested=False)
        if part is None:
            return None
        pattern.append(part)
    bound = {p[1] for p in pattern if p[0] == "var"}
    template = []
    for a in h.arguments:
        part = _part(a, nested=True)
        if part is None or not _vars(part) <= bound:
            return None
        template.append(part)
    return head_sig, body_sig, tuple(pattern), tuple(template)


def _part(t: ast.AST, nested: bool) -> Part | None:
    if t.ast_type == ast.ASTType.Variable:
        return None if t.name == "_" else ("var", t.name)
    if t.ast_type == ast.ASTType.SymbolicTerm and t.symbol.type in (
            clingo.SymbolType.Number, clingo.SymbolType.String, clingo.SymbolType.Function):
        return ("val", symbol_value(t.symbol))
    if nested and t.ast_type == ast.ASTType.Function and not t.external:
        parts = [_part(a, nested) for a in t.arguments]
        return None if any(p is None for p in parts) else ("fun", t.name, tuple(parts))
    return None


def _vars(part: Part) -> set[str]:
    if part[0] == "var":
        return {part[1]}
    if part[0] == "fun":
        return set().union(*map(_vars, part[2])) if part[2] else set()
    return set()
