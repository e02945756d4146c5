"""Relevance pruning: which rules of the KB can fire for a situation's facts."""

from __future__ import annotations

from collections.abc import Container, Iterable, Sequence

import clingo
from clingo import Symbol, ast

from ..symbols import Fact, Facts
from .program import _atoms_in, _sig, atom_terms, symbolic_atoms

# --------------------------------------------------------------------------- relevance
#
# Grounding a rule costs time even when nothing matches it (about 25 microseconds a
# rule, performance-notes.md), and a question uses only part of the KB: no Snap Shot
# rule can fire without a q_hexside fact, no Final Fire rule without a final_fire
# option.  `Relevance` drops the rules that cannot fire for a given set of facts, by an
# over-approximation of what is derivable: per predicate and argument position, the
# set of symbolic constants it may hold (or "anything").  A rule is kept when each of
# its positive body atoms may match something derivable; what its head may then derive
# is added, until nothing changes.  Dropping a rule whose positive body can never hold
# changes no answer; tests/test_engine.py checks pruned against full answers.
#
# The same analysis simplifies the rules it keeps (`simplified`).  `not p(...)`, where nothing
# can derive p (no fact, no kept rule) or no p atom can hold the literal's constants, always
# holds: it is left out of the rule grounded.  An aggregate element whose condition has such a
# p positively never counts: it is left out, and an aggregate left with no element (or only
# numbers, for #max and #min) is its value, compared with its guards.  gringo's fixed work
# grows with the literals of a rule (a negative literal with `_` also costs a projection rule,
# an aggregate about a rule more), not only with the rules.

_ANY = None  # an argument position that may hold anything
_SCALAR = ("s",)  # the token of numbers and strings


def _symbol_token(sym: Symbol) -> tuple:
    """What the analysis keeps of a value: a constant's name, a compound's name and arity, or scalar."""
    if sym.type == clingo.SymbolType.Function:
        args = sym.arguments
        return ("f", sym.name, len(args)) if args else ("c", sym.name)
    if sym.type == clingo.SymbolType.String:
        return ("str", sym.string)
    return _SCALAR


# The tokens of the symbol objects seen, by id(), each kept with its symbol (so that the id stays
# its own): aslrules.facts makes each id, number and constant once, so a question's values are
# mostly objects an earlier question met, and reading a token through clingo's API costs ten times
# the look-up.
_TOKENS: dict[int, tuple[Symbol, tuple]] = {}


def _arg_spec(a: ast.AST) -> tuple:
    """An argument of an atom in the KB: ("tok", token), ("var", name) or ("other",)."""
    kind = a.ast_type
    if kind == ast.ASTType.Variable:
        return ("other",) if a.name == "_" else ("var", a.name)
    if kind == ast.ASTType.SymbolicTerm:
        if a.symbol.type in (clingo.SymbolType.Function, clingo.SymbolType.Number, clingo.SymbolType.String):
            return ("tok", _symbol_token(a.symbol))
        return ("other",)
    if kind == ast.ASTType.Function and not a.external:
        name, args = a.name, a.arguments
        return ("tok", ("f", name, len(args)) if args or not name else ("c", name))
    if kind == ast.ASTType.BinaryOperation:
        return ("tok", _SCALAR)  # arithmetic gives a number (or nothing)
    return ("other",)


def _atom_specs(t: ast.AST) -> tuple[tuple[str, int], tuple[tuple, ...]]:
    """The signature and argument specs of an atom term `_sig` gives a signature for."""
    if t.ast_type == ast.ASTType.SymbolicTerm:
        symbol = t.symbol
        args = symbol.arguments
        return (symbol.name, len(args)), tuple(("tok", _symbol_token(a)) for a in args)
    args = t.arguments
    return (t.name, len(args)), tuple(_arg_spec(a) for a in args)


def _head_atoms(node: ast.AST) -> list[ast.AST] | None:
    """The atom terms of every symbolic atom below a rule head (pools expanded); None if some
    head atom is not a plain predicate (classical negation, ...): the analysis does not cover it."""
    found: list[ast.AST] = []
    unknown: list[ast.AST] = []

    def collect(x: ast.AST) -> None:
        for t in atom_terms(x):
            (found if _sig(t) is not None else unknown).append(t)

    symbolic_atoms(node, collect)
    return None if unknown else found


Domain = dict[tuple[str, int], list]  # signature -> per position: a set of tokens, or _ANY


class Relevance:
    """Which rules of a program can fire, given the predicates and value shapes of the facts."""

    def __init__(self, stms: Sequence[ast.AST]):
        self.size = len(stms)
        self.rules: list[tuple[int, list, list]] = []  # (statement index, body requirements, head atoms)
        self.uses: list[list[tuple[str, int]]] = []  # per rule: every predicate it mentions
        # per rule: its plain negative body literals, as (position in the body, signature, arguments),
        # and its body aggregates, as (position, per element: its positive condition atoms)
        self.negated: list[list[tuple[int, tuple[str, int], tuple[tuple, ...]]]] = []
        # per rule: its comparisons of a variable with values, as (variable, equal?, the values'
        # tokens): `K = ("PF";"PFk")`, `P != mph`
        self.compared: list[list[tuple[str, bool, frozenset]]] = []
        self.aggregates: list[list[tuple[int, list[list]]]] = []
        self.shown: list[tuple[str, int]] = []  # what the program shows: what must be derived
        self.show_at: dict[int, tuple[str, int]] = {}  # statement index -> the signature it shows
        self.show_all = False
        self.covered = True  # False: the program has something the analysis does not cover: keep all
        plain = (ast.ASTType.Rule, ast.ASTType.Defined, ast.ASTType.ShowSignature, ast.ASTType.ShowTerm,
                 ast.ASTType.Program, ast.ASTType.Definition, ast.ASTType.Comment)
        constants = {s.name for s in stms if s.ast_type == ast.ASTType.Definition}  # `#const` names
        for i, s in enumerate(stms):
            if s.ast_type == ast.ASTType.ShowSignature:
                self.shown.append((s.name, s.arity))
                self.show_at[i] = (s.name, s.arity)
            elif s.ast_type == ast.ASTType.ShowTerm:
                self.show_all = True
            elif s.ast_type not in plain:  # #external, #heuristic, #minimize, theory, ...
                self.covered = False
            if s.ast_type != ast.ASTType.Rule:
                continue
            covered, entry = _rule_analysis(s, constants)
            self.covered = self.covered and covered
            self._append(i, entry)
        self.show_all = self.show_all or not self.shown
        self._index()

    def _append(self, i: int, entry: tuple) -> None:
        body, heads, uses, negated, compared, aggregates = entry
        self.rules.append((i, body, heads))
        self.uses.append(uses)
        self.negated.append(negated)
        self.compared.append(compared)
        self.aggregates.append(aggregates)

    def replaced(self, i: int, stm: ast.AST | None, constants: Container[str] = ()) -> Relevance:
        """The analysis of the program with statement `i` (a rule) replaced by the rule `stm`, or
        with no rule there (None): a copy; the positions it tracks (`sensitive`) are kept, which
        any program may use (tracking a position only makes the analysis more precise).  What a
        mutant of the KB needs (bench/mutants.py), without analysing the whole program again.
        `constants`: the program's `#const` names."""
        other = Relevance.__new__(Relevance)
        other.__dict__.update(self.__dict__)
        r = self.rule_at(i)
        if r is None:
            raise ValueError(f"statement {i} is not a rule")
        other.rules, other.uses, other.negated = list(self.rules), list(self.uses), list(self.negated)
        other.compared, other.aggregates = list(self.compared), list(self.aggregates)
        for name in ("rules", "uses", "negated", "compared", "aggregates"):
            del getattr(other, name)[r]
        if stm is not None:
            covered, (body, heads, uses, negated, compared, aggregates) = _rule_analysis(stm, constants)
            other.covered = other.covered and covered
            other.rules.insert(r, (i, body, heads))
            other.uses.insert(r, uses)
            other.negated.insert(r, negated)
            other.compared.insert(r, compared)
            other.aggregates.insert(r, aggregates)
        other._index(self.sensitive)
        other._positions = self._positions
        return other

    def rule_at(self, i: int) -> int | None:
        """The position in `rules` of statement `i`'s analysis (None: not a rule)."""
        return next((r for r, (k, _, _) in enumerate(self.rules) if k == i), None)

    def may_fire(self, r: int, dom: Domain) -> bool:
        """Whether rule `r`'s positive body may match atoms of the abstract domain `dom` (one that
        `closure` gave is every atom the program may derive)."""
        binding = self._match(self.rules[r][1], dom)
        return binding is not None and _compatible(binding, self.compared[r])

    def state(self) -> tuple:
        """The analysis as plain tuples, lists, dicts and sets (what `marshal` stores)."""
        return (self.size, self.rules, self.uses, self.negated, self.aggregates, self.compared, self.shown,
                self.show_at, self.show_all, self.covered, self.sensitive)

    @classmethod
    def from_state(cls, state: tuple, size: int) -> Relevance | None:
        """The analysis `state` gave, or None if it is not one for a program of `size` statements."""
        size_, rules, uses, negated, aggregates, compared, shown, show_at, show_all, covered, sensitive = state
        if size_ != size:
            return None
        self = cls.__new__(cls)
        self.size, self.rules, self.uses, self.shown = size, rules, uses, shown
        self.negated, self.aggregates, self.compared = negated, aggregates, compared
        self.show_at, self.show_all, self.covered = show_at, show_all, covered
        self._index(sensitive)
        return self

    def _index(self, sensitive: set | None = None) -> None:
        self.watch: dict[tuple[str, int], list[int]] = {}  # predicate -> rules with it in the body
        for r, (_, body, _) in enumerate(self.rules):
            for sig in {sig for sig, _ in body}:
                self.watch.setdefault(sig, []).append(r)
        self._is_rule = {i for i, _, _ in self.rules}
        self.sensitive = self._sensitive() if sensitive is None else sensitive
        self._positions: dict[tuple[str, int], tuple[int, ...]] = {}  # signature -> its sensitive positions

    def _sensitive(self) -> set[tuple[tuple[str, int], int]]:
        """The argument positions whose values can decide whether a rule may fire: those a body
        atom tests against a value, and, through variables, those joined with or flowing into
        them.  Elsewhere the analysis takes "anything" without looking (looking costs time)."""
        sensitive = {(sig, k) for _, body, _ in self.rules for sig, args in body
                     for k, spec in enumerate(args) if spec[0] == "tok"}
        for (_, body, _), compared in zip(self.rules, self.compared):  # a variable compared with values
            names = {name for name, _, _ in compared}
            sensitive |= {(sig, k) for sig, args in body for k, spec in enumerate(args)
                          if spec[0] == "var" and spec[1] in names}
        occurrences = []  # per rule and variable: its body positions and its head positions
        for _, body, heads in self.rules:
            at: dict[str, tuple[set, set]] = {}
            for part, atoms in ((0, body), (1, heads)):
                for sig, args in atoms:
                    for k, spec in enumerate(args):
                        if spec[0] == "var":
                            at.setdefault(spec[1], (set(), set()))[part].add((sig, k))
            occurrences.extend(at.values())
        changed = True
        while changed:
            changed = False
            for in_body, in_head in occurrences:
                if not in_body <= sensitive and not (in_body | in_head).isdisjoint(sensitive):
                    sensitive |= in_body
                    changed = True
        return sensitive

    def domain(self, facts: Iterable[Fact], into: Domain | None = None) -> Domain:
        """The facts, abstracted: per predicate and position, the tokens of the values seen
        (at the positions that are not sensitive, "anything")."""
        dom: Domain = {} if into is None else into
        seen = _TOKENS  # one symbol object often stands in many facts (a unit's id)
        if len(seen) > 1 << 16:
            seen.clear()
        positions = self._positions
        for sig, rows in Facts.of(facts).table.items():
            at = positions.get(sig)
            if at is None:
                at = positions[sig] = tuple(k for k in range(sig[1]) if (sig, k) in self.sensitive)
            slots = dom.get(sig)
            if slots is None:
                slots = dom[sig] = [_ANY] * sig[1]
                for k in at:
                    slots[k] = set()
            for k in at:  # most predicates have no sensitive position: nothing to look at
                tokens = slots[k]
                for args in rows:
                    a = args[k]
                    known = seen.get(id(a))
                    if known is None or known[0] is not a:
                        known = seen[id(a)] = (a, _symbol_token(a))
                    tokens.add(known[1])
        return dom

    @staticmethod
    def key(dom: Domain) -> frozenset:
        """A hashable form of an abstract domain (the live rules depend on nothing else)."""
        return frozenset([(sig, tuple([None if x is _ANY else frozenset(x) for x in slots]))
                          for sig, slots in dom.items()])

    def live(self, dom: Domain) -> list[int]:
        """Indices of the statements to keep: every non-rule, and the rules that may fire."""
        return self.prune(dom)[0]

    def needed(self, dom: Domain) -> set[tuple[str, int]] | None:
        """The predicates whose atoms may matter to what is shown (None: all of them)."""
        return self.prune(dom)[1]

    def prune(self, dom: Domain) -> tuple[list[int], set[tuple[str, int]] | None]:
        """The statements to keep (every non-rule, and the rules that may fire and matter), and the
        predicates whose facts may matter (None: every one)."""
        keep, needed, _ = self.simplify(dom)
        return keep, needed

    def simplify(self, dom: Domain, dead: Container[int] = ()) -> tuple[list[int], set[tuple[str, int]] | None,
                                                                       dict[int, dict]]:
        """As `prune`, and, per kept statement that `simplified` may make smaller, what it leaves out:
        body position -> None (a `not p(...)` no p atom may match), or the positions of the
        elements of the aggregate there whose condition nothing may match.  The statements in
        `dead` are rules taken to fire never (`never_holds` found them so, simplified)."""
        if not self.covered:
            return list(range(self.size)), None, {}
        alive, dom = self.closure(dom, dead)
        return self._kept(alive, dom)

    def closure(self, dom: Domain, dead: Container[int] = ()) -> tuple[set[int], Domain]:
        """The rules that may fire for facts abstracted as `dom` (positions in `rules`), and what
        they may derive with the facts: the abstract domain of every atom the program may hold."""
        dom = {sig: [x if x is _ANY else set(x) for x in slots] for sig, slots in dom.items()}
        alive: set[int] = set()
        queue = [r for r, (i, _, _) in enumerate(self.rules) if i not in dead]
        queued = set(queue)
        while queue:
            r = queue.pop()
            queued.discard(r)
            i, body, heads = self.rules[r]
            if i in dead:
                continue
            binding = self._match(body, dom)
            if binding is None or not _compatible(binding, self.compared[r]):
                continue
            alive.add(r)
            for sig, args in heads:
                if self._derive(dom, sig, args, binding):
                    for r2 in self.watch.get(sig, ()):
                        if r2 not in queued:
                            queued.add(r2)
                            queue.append(r2)
        return alive, dom

    def _kept(self, alive: set[int], dom: Domain) -> tuple[list[int], set[tuple[str, int]] | None, dict[int, dict]]:
        if self.show_all:
            kept, needed = alive, None
        else:
            kept, needed = self._needed(alive)
        rules = {self.rules[r][0] for r in kept}
        edits: dict[int, dict] = {}  # statement index -> body position -> None or element positions
        match = self._match
        for r in kept:
            edit = {j: None for j, sig, args in self.negated[r] if match([(sig, args)], dom) is None}
            for j, elements in self.aggregates[r]:
                never = [e for e, cond in enumerate(elements) if cond and match(cond, dom) is None]
                if never:
                    edit[j] = never
            if edit:
                edits[self.rules[r][0]] = edit

        def keep(i: int) -> bool:
            if i in self._is_rule:
                return i in rules
            shows = self.show_at.get(i)  # a `#show` of what nothing derives goes too
            return shows is None or shows in dom

        return [i for i in range(self.size) if keep(i)], needed, edits

    def _needed(self, alive: set[int]) -> tuple[set[int], set[tuple[str, int]]]:
        """The live rules that what is shown depends on (a table only dead rules read is dropped)."""
        derivers: dict[tuple[str, int], list[int]] = {}
        keep: set[int] = set()
        needed = set(self.shown)
        for r in alive:
            heads = self.rules[r][2]
            if not heads:  # a constraint: always
                keep.add(r)
                needed.update(self.uses[r])
            for sig, _ in heads:
                derivers.setdefault(sig, []).append(r)
        stack = list(needed)
        while stack:
            for r in derivers.get(stack.pop(), ()):
                if r not in keep:
                    keep.add(r)
                    for sig in self.uses[r]:
                        if sig not in needed:
                            needed.add(sig)
                            stack.append(sig)
        return keep, needed

    @staticmethod
    def _match(body: list, dom: Domain) -> dict[str, set | None] | None:
        """The possible tokens of the body's variables, or None when some atom can match nothing."""
        binding: dict[str, set | None] = {}
        for sig, args in body:
            slots = dom.get(sig)
            if slots is None:
                return None
            for spec, slot in zip(args, slots):
                if spec[0] == "tok":
                    if slot is not _ANY and spec[1] not in slot:
                        return None
                elif spec[0] == "var":
                    name = spec[1]
                    if slot is _ANY:
                        binding.setdefault(name, _ANY)
                    elif binding.get(name, _ANY) is _ANY:
                        binding[name] = set(slot)
                    else:
                        binding[name] &= slot
                        if not binding[name]:
                            return None
        return binding

    @staticmethod
    def _derive(dom: Domain, sig: tuple[str, int], args: list, binding: dict) -> bool:
        """Add what a head atom may derive; True if the domain grew."""
        slots = dom.get(sig)
        changed = False
        if slots is None:
            slots = dom[sig] = [set() for _ in args]
            changed = True
        for k, spec in enumerate(args):
            if slots[k] is _ANY:
                continue
            if spec[0] == "tok":
                new = {spec[1]}
            elif spec[0] == "var" and binding.get(spec[1], _ANY) is not _ANY:
                new = binding[spec[1]]
            else:
                slots[k] = _ANY
                changed = True
                continue
            if not new <= slots[k]:
                slots[k] |= new
                changed = True
        return changed


def _rule_analysis(s: ast.AST, constants: Container[str]) -> tuple[bool, tuple]:
    """One rule's part of the analysis: whether the analysis covers it (every head atom a plain
    predicate), and its (body requirements, head atoms, predicates used, negative literals,
    comparisons, aggregates)."""
    head_atoms = _head_atoms(s.head)
    covered = head_atoms is not None
    body = []
    negated = []
    aggregates = []
    compared = []
    # (each field read once: a read is a call into clingo)
    for j, lit in enumerate(s.body):
        if lit.ast_type != ast.ASTType.Literal:
            continue
        atom, sign = lit.atom, lit.sign
        kind = atom.ast_type
        if kind == ast.ASTType.Comparison:
            test = _compared(lit, constants)
            if test is not None:
                compared.append(test)
        elif kind == ast.ASTType.BodyAggregate and sign == ast.Sign.NoSign:
            aggregates.append((j, [[_atom_specs(c.atom.symbol) for c in e.condition if _positive(c)]
                                   for e in atom.elements]))
        elif kind == ast.ASTType.SymbolicAtom and sign != ast.Sign.DoubleNegation:
            symbol = atom.symbol
            if _sig(symbol) is not None:
                if sign == ast.Sign.NoSign:
                    body.append(_atom_specs(symbol))
                else:
                    negated.append((j, *_atom_specs(symbol)))
    heads = [_atom_specs(t) for t in head_atoms or []]
    uses: list[tuple[str, int]] = []
    _atoms_in(s.head, uses)
    for lit in s.body:
        _atoms_in(lit, uses)
    return covered, (body, heads, sorted(set(uses)), negated, compared, aggregates)


def _compared(lit: ast.AST, constants: Container[str] = ()) -> tuple[str, bool, frozenset] | None:
    """`X = v`, `X != v` (v a value or a pool of values; either side) as (X, equal?, the tokens of
    the values), for the values a token names exactly (constants and strings; not a `#const` name,
    which gringo replaces by its value); else None."""
    cmp = lit.atom
    if lit.sign != ast.Sign.NoSign or len(cmp.guards) != 1:
        return None
    op = cmp.guards[0].comparison
    if op not in (ast.ComparisonOperator.Equal, ast.ComparisonOperator.NotEqual):
        return None
    left, right = cmp.term, cmp.guards[0].term
    if left.ast_type != ast.ASTType.Variable:
        left, right = right, left
    if left.ast_type != ast.ASTType.Variable or left.name == "_":
        return None
    values = right.arguments if right.ast_type == ast.ASTType.Pool else [right]
    tokens = set()
    for v in values:
        if v.ast_type != ast.ASTType.SymbolicTerm:
            return None
        token = _symbol_token(v.symbol)
        if token[0] not in ("c", "str") or (token[0] == "c" and token[1] in constants):
            return None
        tokens.add(token)
    if op == ast.ComparisonOperator.NotEqual and len(tokens) != 1:
        return None
    return left.name, op == ast.ComparisonOperator.Equal, frozenset(tokens)


def _compatible(binding: dict[str, set | None], compared: list[tuple[str, bool, frozenset]]) -> bool:
    """Whether the comparisons can hold for the tokens the variables may take: `X = v` needs v among
    them, `X != v` some other one (each token of a constant or a string names one value)."""
    for name, equal, tokens in compared:
        values = binding.get(name, _ANY)
        if values is _ANY:
            continue
        if equal:
            if values.isdisjoint(tokens):
                return False
            binding[name] = values & tokens
        elif values <= tokens:
            return False
    return True


def _positive(lit: ast.AST) -> bool:
    return (lit.ast_type == ast.ASTType.Literal and lit.sign == ast.Sign.NoSign
            and lit.atom.ast_type == ast.ASTType.SymbolicAtom and _sig(lit.atom.symbol) is not None)


def simplified(rule: ast.AST, edit: dict[int, list[int] | None]) -> ast.AST:
    """`rule` as `Relevance.simplify` found it may be grounded: without the body literals that always
    hold, and without the aggregate elements that never count (an aggregate left constant: its
    value compared with its guards)."""
    body = []
    for j, lit in enumerate(rule.body):
        if j not in edit:
            body.append(lit)
        elif edit[j] is not None:
            body.extend(_aggregate_without(lit, set(edit[j])))
    return rule.update(body=body)


def _aggregate_without(lit: ast.AST, never: set[int]) -> list[ast.AST]:
    """A body aggregate literal without the elements at `never`; if what is left has a known value,
    the comparisons of that value with the guards instead."""
    agg = lit.atom
    elements = [e for k, e in enumerate(agg.elements) if k not in never]
    if agg.left_guard is None and agg.right_guard is None:  # (none in the KB) left as it is
        return [lit]
    value = _constant_value(agg.function, elements)
    if value is None:
        return [lit.update(atom=agg.update(elements=elements))]
    loc = lit.location
    number = ast.SymbolicTerm(loc, value)
    out = []
    if agg.left_guard is not None:  # `T op #agg{...}`
        g = agg.left_guard
        out.append(ast.Literal(loc, ast.Sign.NoSign, ast.Comparison(g.term, [ast.Guard(g.comparison, number)])))
    if agg.right_guard is not None:  # `#agg{...} op T`
        g = agg.right_guard
        out.append(ast.Literal(loc, ast.Sign.NoSign, ast.Comparison(number, [ast.Guard(g.comparison, g.term)])))
    return out


def _constant_value(function: int, elements: list[ast.AST]) -> Symbol | None:
    """The value of an aggregate of these elements, when it needs no grounding: no element (#count,
    #sum, #sum+: 0; #max: #inf; #min: #sup), or, for #max and #min, only numbers with no condition."""
    if not elements:
        return {ast.AggregateFunction.Max: clingo.Infimum,
                ast.AggregateFunction.Min: clingo.Supremum}.get(function, clingo.Number(0))
    if function not in (ast.AggregateFunction.Max, ast.AggregateFunction.Min):
        return None
    numbers = []
    for e in elements:
        if e.condition or not e.terms or e.terms[0].ast_type != ast.ASTType.SymbolicTerm \
                or e.terms[0].symbol.type != clingo.SymbolType.Number:
            return None
        numbers.append(e.terms[0].symbol.number)
    pick = max if function == ast.AggregateFunction.Max else min
    return clingo.Number(pick(numbers))


def never_holds(rule: ast.AST) -> bool:
    """Whether the body of `rule` (as `simplified` leaves it) is false whatever the facts: a
    comparison of two values is false once each variable that a `X = value` of the body binds
    (an aggregate become its value, say `N = #inf`) is replaced by its value (`#inf > 0`)."""
    values: dict[str, ast.AST] = {}
    comparisons = []
    for lit in rule.body:
        if lit.ast_type != ast.ASTType.Literal or lit.atom.ast_type != ast.ASTType.Comparison:
            continue
        if lit.sign != ast.Sign.NoSign:
            continue
        cmp = lit.atom
        if (len(cmp.guards) == 1 and cmp.guards[0].comparison == ast.ComparisonOperator.Equal
                and cmp.term.ast_type == ast.ASTType.Variable and cmp.term.name != "_"
                and cmp.guards[0].term.ast_type == ast.ASTType.SymbolicTerm):
            values.setdefault(cmp.term.name, cmp.guards[0].term)
        comparisons.append(cmp)

    def value(t: ast.AST) -> Symbol | None:
        if t.ast_type == ast.ASTType.Variable:
            t = values.get(t.name, t)
        return t.symbol if t.ast_type == ast.ASTType.SymbolicTerm else None

    for cmp in comparisons:
        left = value(cmp.term)
        for guard in cmp.guards:
            right = value(guard.term)
            if left is not None and right is not None and not _COMPARE[guard.comparison](left, right):
                return True
            left = right
    return False


_COMPARE = {
    ast.ComparisonOperator.Equal: lambda a, b: a == b,
    ast.ComparisonOperator.NotEqual: lambda a, b: a != b,
    ast.ComparisonOperator.LessThan: lambda a, b: a < b,
    ast.ComparisonOperator.LessEqual: lambda a, b: a <= b,
    ast.ComparisonOperator.GreaterThan: lambda a, b: a > b,
    ast.ComparisonOperator.GreaterEqual: lambda a, b: a >= b,
}
