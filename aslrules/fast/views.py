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

import itertools
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


def unfold(stms: Sequence[ast.AST], inputs: set[tuple[str, int]]) -> list[ast.AST]:
    """The program with each predicate that one rule `p(X,..) :- b(..).` defines (one positive body
    atom of variables and values, the head's arguments distinct variables) written as that body
    where a rule's body reads it, and its rule left out: one rule less to ground, the same atoms
    shown.  A read may be a body literal or a literal of an aggregate element's or a conditional
    literal's condition; a negated read only when `b` has no variable `p` lacks (`not b(X,W)`
    would not mean `not p(X)`).  A body variable `p` lacks becomes a new variable at each read:
    a positive literal binds it, as `p`'s rule did; in a condition it is local to the element,
    whose tuple counts once whatever it binds.  Left as it is: a predicate shown, given as facts
    (`inputs`), defined by more than one rule, read anywhere else (a head's condition, the
    literal of a conditional literal, `not not`), or whose rule reads another one left out."""
    defs: dict[tuple[str, int], list[ast.AST]] = {}
    blocked: set[tuple[str, int]] = set(inputs)
    negated: set[tuple[str, int]] = set()
    for s in stms:
        if s.ast_type == ast.ASTType.ShowSignature:
            blocked.add((s.name, s.arity))
        if s.ast_type != ast.ASTType.Rule:  # atoms a `#show t : p(t).`, `#external` or `#minimize` reads
            _block(s, blocked)
            continue
        head = s.head
        if (head.ast_type == ast.ASTType.Literal and head.atom.ast_type == ast.ASTType.SymbolicAtom
                and head.atom.symbol.ast_type == ast.ASTType.Function):
            defs.setdefault(_sig(head.atom.symbol), []).append(s)
        else:
            _block(head, blocked)
        for lit in _reads(s.body, blocked):
            if lit.sign == ast.Sign.Negation:
                negated.add(_sig(lit.atom.symbol))
    plan: dict[tuple[str, int], tuple[list[str], ast.AST]] = {}
    for sig, rules in defs.items():
        if sig in blocked or len(rules) != 1 or len(rules[0].body) != 1 or not _plain_positive(rules[0].body[0]):
            continue
        head_args, body = rules[0].head.atom.symbol.arguments, rules[0].body[0].atom.symbol
        names = [a.name for a in head_args if a.ast_type == ast.ASTType.Variable and a.name != "_"]
        if len(names) != len(head_args) or len(set(names)) != len(names) or _sig(body) == sig \
                or any(a.ast_type not in (ast.ASTType.Variable, ast.ASTType.SymbolicTerm) for a in body.arguments):
            continue
        body_vars = [a.name for a in body.arguments if a.ast_type == ast.ASTType.Variable]
        if len(set(body_vars)) != len(body_vars):  # a read's `_` stands for one place
            continue
        if sig in negated and any(a.ast_type == ast.ASTType.Variable and a.name not in names for a in body.arguments):
            continue
        plan[sig] = (names, body)
    # a definition that reads another one left out would read a predicate no rule derives: it
    # stays a rule (its body unfolded)
    plan = {sig: d for sig, d in plan.items() if _sig(d[1]) not in plan}
    if not plan:
        return list(stms)
    fresh = itertools.count(1)

    class Unfold(ast.Transformer):
        def visit_SymbolicAtom(self, x: ast.AST) -> ast.AST:
            sig = _sig(x.symbol) if x.symbol.ast_type == ast.ASTType.Function else None
            if sig not in plan:
                return x
            names, definition = plan[sig]
            given = dict(zip(names, x.symbol.arguments))
            args = []
            for a in definition.arguments:
                if a.ast_type == ast.ASTType.Variable:
                    if a.name not in given:
                        given[a.name] = ast.Variable(a.location, f"AslUnfold{next(fresh)}")
                    args.append(given[a.name])
                else:
                    args.append(a)
            return x.update(symbol=definition.update(arguments=args))

    unfold_atoms = Unfold()
    out: list[ast.AST] = []
    for s in stms:
        if s.ast_type == ast.ASTType.Rule:
            head = s.head
            if (head.ast_type == ast.ASTType.Literal and head.atom.ast_type == ast.ASTType.SymbolicAtom
                    and head.atom.symbol.ast_type == ast.ASTType.Function and _sig(head.atom.symbol) in plan):
                continue
            s = s.update(body=[unfold_atoms(lit) for lit in s.body])
        out.append(s)
    return out


def _reads(body: Sequence[ast.AST], blocked: set[tuple[str, int]]) -> list[ast.AST]:
    """The literals of a rule body that `unfold` may rewrite: the body's own literals and those of
    its aggregates' elements' and conditional literals' conditions (a plain atom, positive or
    negated); every atom read any other way goes into `blocked`."""
    found: list[ast.AST] = []

    def literal(lit: ast.AST) -> None:
        if lit.ast_type == ast.ASTType.Literal and lit.atom.ast_type == ast.ASTType.SymbolicAtom \
                and lit.atom.symbol.ast_type == ast.ASTType.Function and lit.sign != ast.Sign.DoubleNegation:
            found.append(lit)
        elif lit.ast_type == ast.ASTType.Literal and lit.atom.ast_type == ast.ASTType.BodyAggregate:
            for element in lit.atom.elements:
                for c in element.condition:
                    literal(c)
        elif lit.ast_type == ast.ASTType.Literal and lit.atom.ast_type == ast.ASTType.Comparison:
            pass
        else:  # a conditional literal's own literal, `not not`, a pool, another kind of aggregate
            if lit.ast_type == ast.ASTType.ConditionalLiteral:
                for c in lit.condition:
                    literal(c)
                lit = lit.literal
            _block(lit, blocked)

    for lit in body:
        literal(lit)
    return found


def _block(node: ast.AST, blocked: set[tuple[str, int]]) -> None:
    found: list[tuple[str, int]] = []
    _atoms_in(node, found)
    blocked.update(found)


def _plain_positive(lit: ast.AST) -> bool:
    return (lit.ast_type == ast.ASTType.Literal and lit.sign == ast.Sign.NoSign
            and lit.atom.ast_type == ast.ASTType.SymbolicAtom and lit.atom.symbol.ast_type == ast.ASTType.Function)
