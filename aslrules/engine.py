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

import hashlib
import json
import logging
import os
import shutil
from collections.abc import Iterable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import clingo
from clingo import Function, Number, Symbol, ast

from .errors import InputError
from .symbols import Fact, Facts, Shared, Term, add_facts, read_atoms

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
    """The KB's statements, comments left out (they cost ProgramBuilder time and ground to nothing),
    anonymous variables of positive body atoms named (`name_anonymous`)."""
    stms: list[ast.AST] = []
    ast.parse_files([str(f) for f in files],
                    lambda s: stms.append(name_anonymous(s)) if s.ast_type != ast.ASTType.Comment else None)
    return stms


def _parse_text(text: str) -> list[ast.AST] | None:
    """Statements as `_program_text` wrote them; None if the text does not parse."""
    stms: list[ast.AST] = []
    try:
        ast.parse_string(text, stms.append, logger=lambda *_: None)
    except RuntimeError:
        return None
    return stms[1:]  # parse_string opens with its own `#program base.`


def _program_text(stms: Sequence[ast.AST]) -> str:
    return "\n".join(str(x) for x in stms)


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


def name_anonymous(stm: ast.AST) -> ast.AST:
    """`p(X,_)` in a positive body literal becomes `p(X,AslAnon1)`: the same rule, grounded faster.

    clingo grounds `p(X,_)` through a projection of p whose size it does not know when it
    orders the body, so it may join that projection first: `same_board(H1,H2) :-
    need_range(H1,H2), hex(H1,B,_,_), hex(H2,B,_,_)` then walks every pair of hexes of a
    board (3 ms a case in a batch of 100) instead of looking up the two it needs.  A named
    variable that occurs once means the same in a positive literal and keeps the real domain.
    Negative literals and aggregate elements keep `_` (there it is needed for safety)."""
    if stm.ast_type != ast.ASTType.Rule:
        return stm
    name = _NameAnonymous()
    body = [name(lit) if (lit.ast_type == ast.ASTType.Literal and lit.sign == ast.Sign.NoSign
                          and lit.atom.ast_type == ast.ASTType.SymbolicAtom) else lit
            for lit in stm.body]
    return stm.update(body=body) if name.count else stm


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

_ANY = None  # an argument position that may hold anything
_SCALAR = ("s",)  # the token of numbers and strings


def _sig(t: ast.AST) -> tuple[str, int] | None:
    if t.ast_type == ast.ASTType.Function and not t.external:
        return t.name, len(t.arguments)
    if t.ast_type == ast.ASTType.SymbolicTerm and t.symbol.type == clingo.SymbolType.Function:
        return t.symbol.name, len(t.symbol.arguments)
    return None


def _symbol_token(sym: Symbol) -> tuple:
    """What the analysis keeps of a value: a constant's name, a compound's name and arity, or scalar."""
    if sym.type == clingo.SymbolType.Function:
        args = sym.arguments
        return ("f", sym.name, len(args)) if args else ("c", sym.name)
    return _SCALAR


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
        return ("tok", ("f", a.name, len(a.arguments)) if a.arguments or not a.name else ("c", a.name))
    if kind == ast.ASTType.BinaryOperation:
        return ("tok", _SCALAR)  # arithmetic gives a number (or nothing)
    return ("other",)


def _atom_specs(t: ast.AST) -> tuple[tuple[str, int], tuple[tuple, ...]]:
    if t.ast_type == ast.ASTType.SymbolicTerm:
        return _sig(t), tuple(("tok", _symbol_token(a)) for a in t.symbol.arguments)
    return _sig(t), tuple(_arg_spec(a) for a in t.arguments)


def _head_atoms(node: ast.AST) -> list[ast.AST] | None:
    """The atom terms of every symbolic atom below a rule head (pools expanded); None if some
    head atom is not a plain predicate (classical negation, ...): the analysis does not cover it."""
    found: list[ast.AST] = []
    unknown: list[ast.AST] = []

    class Collect(ast.Transformer):
        def visit_SymbolicAtom(self, x: ast.AST) -> ast.AST:
            terms = x.symbol.arguments if x.symbol.ast_type == ast.ASTType.Pool else [x.symbol]
            for t in terms:
                (found if _sig(t) is not None else unknown).append(t)
            return x

    Collect()(node)
    return None if unknown else found


Domain = dict[tuple[str, int], list]  # signature -> per position: a set of tokens, or _ANY


class Relevance:
    """Which rules of a program can fire, given the predicates and value shapes of the facts."""

    def __init__(self, stms: Sequence[ast.AST]):
        self.size = len(stms)
        self.rules: list[tuple[int, list, list]] = []  # (statement index, body requirements, head atoms)
        self.uses: list[list[tuple[str, int]]] = []  # per rule: every predicate it mentions
        self.shown: list[tuple[str, int]] = []  # what the program shows: what must be derived
        self.show_at: dict[int, tuple[str, int]] = {}  # statement index -> the signature it shows
        self.show_all = False
        self.covered = True  # False: the program has something the analysis does not cover: keep all
        plain = (ast.ASTType.Rule, ast.ASTType.Defined, ast.ASTType.ShowSignature, ast.ASTType.ShowTerm,
                 ast.ASTType.Program, ast.ASTType.Definition, ast.ASTType.Comment)
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
            head_atoms = _head_atoms(s.head)
            if head_atoms is None:
                self.covered = False
                head_atoms = []
            body = []
            for lit in s.body:
                if (lit.ast_type == ast.ASTType.Literal and lit.sign == ast.Sign.NoSign
                        and lit.atom.ast_type == ast.ASTType.SymbolicAtom and _sig(lit.atom.symbol) is not None):
                    body.append(_atom_specs(lit.atom.symbol))
            heads = [_atom_specs(t) for t in head_atoms]
            uses: list[tuple[str, int]] = []
            _atoms_in(s.head, uses)
            for lit in s.body:
                _atoms_in(lit, uses)
            self.rules.append((i, body, heads))
            self.uses.append(sorted(set(uses)))
        self.show_all = self.show_all or not self.shown
        self._index()

    def to_json(self) -> str:
        return json.dumps({"size": self.size, "rules": self.rules, "uses": self.uses, "shown": self.shown,
                           "show_at": sorted(self.show_at.items()),
                           "show_all": self.show_all, "covered": self.covered})

    @classmethod
    def from_json(cls, text: str, size: int) -> Relevance | None:
        """The analysis as `to_json` wrote it (lists back to tuples), or None if it does not fit."""
        data = json.loads(text)
        if data.get("size") != size:
            return None

        def tup(x: Any) -> Any:
            return tuple(tup(y) for y in x) if isinstance(x, list) else x

        self = cls.__new__(cls)
        self.size = size
        self.rules = [(i, [tup(b) for b in body], [tup(h) for h in heads]) for i, body, heads in data["rules"]]
        self.uses = [[tup(u) for u in uses] for uses in data["uses"]]
        self.shown = [tup(x) for x in data["shown"]]
        self.show_at = {i: tup(sig) for i, sig in data["show_at"]}
        self.show_all = data["show_all"]
        self.covered = data["covered"]
        self._index()
        return self

    def _index(self) -> None:
        self.watch: dict[tuple[str, int], list[int]] = {}  # predicate -> rules with it in the body
        for r, (_, body, _) in enumerate(self.rules):
            for sig in {sig for sig, _ in body}:
                self.watch.setdefault(sig, []).append(r)
        self._is_rule = {i for i, _, _ in self.rules}
        self.sensitive = self._sensitive()
        self._positions: dict[tuple[str, int], tuple[int, ...]] = {}  # signature -> its sensitive positions

    def _sensitive(self) -> set[tuple[tuple[str, int], int]]:
        """The argument positions whose values can decide whether a rule may fire: those a body
        atom tests against a value, and, through variables, those joined with or flowing into
        them.  Elsewhere the analysis takes "anything" without looking (looking costs time)."""
        sensitive = {(sig, k) for _, body, _ in self.rules for sig, args in body
                     for k, spec in enumerate(args) if spec[0] == "tok"}
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
        seen: dict[int, tuple] = {}  # one symbol object often stands in many facts (a unit's id)
        positions = self._positions
        for sig, rows in Facts.of(facts).table.items():
            at = positions.get(sig)
            if at is None:
                at = positions[sig] = tuple(k for k in range(sig[1]) if (sig, k) in self.sensitive)
            slots = dom.get(sig)
            if slots is None:
                slots = dom[sig] = [set() if k in at else _ANY for k in range(sig[1])]
            for k in at:  # most predicates have no sensitive position: nothing to look at
                tokens = slots[k]
                for args in rows:
                    a = args[k]
                    token = seen.get(id(a))
                    if token is None:
                        token = seen[id(a)] = _symbol_token(a)
                    tokens.add(token)
        return dom

    @staticmethod
    def key(dom: Domain) -> frozenset:
        """A hashable form of an abstract domain (the live rules depend on nothing else)."""
        return frozenset((sig, tuple(None if x is _ANY else frozenset(x) for x in slots)) for sig, slots in dom.items())

    def live(self, dom: Domain) -> list[int]:
        """Indices of the statements to keep: every non-rule, and the rules that may fire."""
        return self.prune(dom)[0]

    def needed(self, dom: Domain) -> set[tuple[str, int]] | None:
        """The predicates whose atoms may matter to what is shown (None: all of them)."""
        return self.prune(dom)[1]

    def prune(self, dom: Domain) -> tuple[list[int], set[tuple[str, int]] | None]:
        """The statements to keep (every non-rule, and the rules that may fire and matter), and the
        predicates whose facts may matter (None: every one)."""
        if not self.covered:
            return list(range(self.size)), None
        dom = {sig: [x if x is _ANY else set(x) for x in slots] for sig, slots in dom.items()}
        alive: set[int] = set()
        queue = list(range(len(self.rules)))
        queued = set(queue)
        while queue:
            r = queue.pop()
            queued.discard(r)
            i, body, heads = self.rules[r]
            binding = self._match(body, dom)
            if binding is None:
                continue
            alive.add(r)
            for sig, args in heads:
                if self._derive(dom, sig, args, binding):
                    for r2 in self.watch.get(sig, ()):
                        if r2 not in queued:
                            queued.add(r2)
                            queue.append(r2)
        if self.show_all:
            kept, needed = alive, None
        else:
            kept, needed = self._needed(alive)
        rules = {self.rules[r][0] for r in kept}

        def keep(i: int) -> bool:
            if i in self._is_rule:
                return i in rules
            shows = self.show_at.get(i)  # a `#show` of what nothing derives goes too
            return shows is None or shows in dom

        return [i for i in range(self.size) if keep(i)], needed

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
            body_out = [add(b) for b in s.body]
            if not any(_binds_case(b, dynamic) for b in s.body):
                # nothing in the body binds the case: guard it (a guard on every rule would
                # make the grounder visit every rule once per case, even with nothing to match)
                loc = s.location
                body_out.insert(0, ast.Literal(
                    loc, ast.Sign.NoSign,
                    ast.SymbolicAtom(ast.Function(loc, CASE_PRED, [ast.Variable(loc, CASE_VAR)], 0)),
                ))
            out.append(ast.Rule(s.location, add(s.head), body_out))
        elif s.ast_type in (ast.ASTType.ShowSignature, ast.ASTType.Defined):
            if (s.name, s.arity) in dynamic:
                out.append(s.update(arity=s.arity + 1))
            else:
                out.append(s)
        else:
            out.append(s)
    return out


# --------------------------------------------------------------------------- cache
#
# The batch rewrite and the relevance analysis walk the KB's AST from Python (about
# 2.5 s for 850 rules); a cold `aslrules check` should not pay that each time.  They
# are kept in the user's cache directory, keyed by the KB files, this module's source
# and clingo's version, so any change to either makes a new entry.


class _Cache:
    def __init__(self, files: Sequence[Path]):
        h = hashlib.sha256()
        h.update(clingo.__version__.encode())
        h.update(Path(__file__).read_bytes())
        for f in files:
            h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        self.dir = Path(base) / "aslrules" / h.hexdigest()[:24]

    def read(self, name: str) -> str | None:
        try:
            return (self.dir / name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    def write(self, name: str, text: str) -> None:
        try:
            if not self.dir.is_dir():  # a new KB version: forget all but the latest few
                old = sorted(self.dir.parent.glob("*"), key=lambda p: p.stat().st_mtime) \
                    if self.dir.parent.is_dir() else []
                for stale in old[:-7]:
                    shutil.rmtree(stale, ignore_errors=True)
            self.dir.mkdir(parents=True, exist_ok=True)
            tmp = self.dir / f".{name}.{os.getpid()}"
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, self.dir / name)
        except OSError as e:  # a read-only home: work without the cache
            log.info("cannot write the cache %s: %s", self.dir, e)


# --------------------------------------------------------------------------- engine


class Engine:
    """Holds the parsed KB; answers situations."""

    def __init__(self, directory: Path | None = None, *, prune: bool = True, cache: bool | None = None):
        self.files = kb_files(directory)
        if cache is None:
            cache = not os.environ.get("ASLRULES_NO_CACHE")
        self._cache = _Cache(self.files) if cache else None
        self.program = self._load_program()
        self._shared: set[tuple[str, int]] | None = None
        only_base = all(s.name == "base" and not s.parameters
                        for s in self.program if s.ast_type == ast.ASTType.Program)
        self._dropped = (ast.ASTType.Defined, ast.ASTType.Program) if only_base else (ast.ASTType.Defined,)
        self._batch: list[ast.AST] | None = None
        self.prune = prune
        self._relevance: Relevance | None = None
        self._programs: dict[tuple[frozenset, bool], tuple[list[ast.AST], set | None]] = {}

    def _load_program(self) -> list[ast.AST]:
        """The KB as `_parse` makes it: read from the cache (naming the anonymous variables walks
        the AST from Python, about 0.4 s), or made and cached."""
        text = self._cache.read("program.lp") if self._cache else None
        program = _parse_text(text) if text is not None else None
        if program is None:
            program = _parse(self.files)
            if self._cache:
                self._cache.write("program.lp", _program_text(program))
        return program

    @property
    def shared(self) -> set[tuple[str, int]]:
        """The inputs a batch adds once for all its cases: those the KB declares case-independent
        and the batch rewrite left without a case argument."""
        if self._shared is None:
            plain = {(s.name, s.arity) for s in self.batch if s.ast_type == ast.ASTType.Defined}
            self._shared = case_independent(self.program) & plain
        return self._shared

    def relevance(self) -> Relevance:
        """The rule analysis for pruning: read from the cache, or made (about 1 s) and cached."""
        if self._relevance is None:
            data = self._cache.read("relevance.json") if self._cache else None
            if data is not None:
                try:
                    self._relevance = Relevance.from_json(data, len(self.program))
                except (ValueError, TypeError, KeyError):  # a damaged entry: make it again
                    self._relevance = None
            if self._relevance is None:
                self._relevance = Relevance(self.program)
                if self._cache:
                    self._cache.write("relevance.json", self._relevance.to_json())
        return self._relevance

    def _relevant(self, dom: Domain, batch: bool) -> list[ast.AST]:
        """The statements of the KB (or its batch form) that may fire for facts abstracted as `dom`."""
        return self._pruned(dom, batch)[0]

    def _pruned(self, dom: Domain, batch: bool) -> tuple[list[ast.AST], set[tuple[str, int]] | None]:
        """The statements that may matter for facts abstracted as `dom` (`#defined` left out: it only
        silences warnings), and the predicates whose facts may matter (None: every one)."""
        source = self.batch if batch else self.program
        if not self.prune:
            return source, None
        key = (Relevance.key(dom), batch)
        found = self._programs.get(key)
        if found is None:
            relevance = self.relevance()
            # the batch program has one statement for each statement of the KB, in order
            keep, needed = relevance.prune(dom)
            # `#defined` only silences warnings; `#program base.` only repeats the default
            program = [source[i] for i in keep if source[i].ast_type not in self._dropped]
            found = (program, needed)
            if len(self._programs) >= 256:
                self._programs.clear()
            self._programs[key] = found
        return found

    @property
    def batch(self) -> list[ast.AST]:
        """The KB rewritten for batches: read from the cache, or made (about 1.5 s) and cached."""
        if self._batch is None:
            text = self._cache.read("batch.lp") if self._cache else None
            stms = _parse_text(text) if text is not None else None
            if stms is not None and len(stms) == len(self.program):
                self._batch = stms
            else:  # missing or damaged: make it again
                self._batch = batch_program(self.program, input_signatures(self.files))
                if self._cache:
                    self._cache.write("batch.lp", _program_text(self._batch))
        return self._batch

    def _control(self, program: Iterable[ast.AST]) -> clingo.Control:
        ctl = clingo.Control(["--warn=none"])
        with ast.ProgramBuilder(ctl) as builder:
            for s in program:
                builder.add(s)
        return ctl

    @staticmethod
    def _add_facts(ctl: clingo.Control, facts: Iterable[Fact], case: Symbol | None = None, *,
                   keep: set[tuple[str, int]] | None = None, shared: Shared | None = None,
                   direct: bool = True) -> None:
        with ctl.backend() as backend:
            if case is not None:
                backend.add_rule([backend.add_atom(Function(CASE_PRED, [case]))])
            add_facts(backend, facts, case, keep=keep, shared=shared, direct=direct)

    @staticmethod
    def _model(ctl: clingo.Control) -> list[Term]:
        ctl.ground([("base", [])])
        with ctl.solve(yield_=True) as handle:
            for m in handle:
                return read_atoms(m.symbols(shown=True))
        # the KB is stratified: no model means the KB itself is broken
        raise RuntimeError("the knowledge base has no answer set for this situation")

    def solve(self, facts: Iterable[Fact]) -> list[Term]:
        """The shown atoms of one situation's answer set."""
        facts = Facts.of(facts)
        if not self.prune:
            ctl = self._control(self.program)
            self._add_facts(ctl, facts)
            return self._model(ctl)
        program, needed = self._pruned(self.relevance().domain(facts), batch=False)
        ctl = self._control(program)
        self._add_facts(ctl, facts, keep=needed)
        return self._model(ctl)

    def solve_batch(self, cases: Sequence[Iterable[Fact]]) -> list[list[Term]]:
        """Solve many situations in one grounding; returns each one's shown atoms."""
        cases = [Facts.of(facts) for facts in cases]
        dom: Domain = {}
        if self.prune:
            relevance = self.relevance()
            for facts in cases:
                relevance.domain(facts, into=dom)
        program, needed = self._pruned(dom, batch=True)
        ctl = self._control(program)
        shared = Shared(self.shared)  # hexes and Locations: once for the batch
        for k, facts in enumerate(cases):
            self._add_facts(ctl, facts, Number(k), keep=needed, shared=shared)
        per_case: list[list[Term]] = [[] for _ in cases]
        for atom in self._model(ctl):  # every shown atom has its case first
            per_case[atom.arguments[0]].append(Term(atom.name, atom.arguments[1:]))
        return per_case


def check_missing_ranges(path: str, atoms: Sequence[Term]) -> None:
    """A question needs a range the grid cannot give (different boards): an input error."""
    for s in atoms:
        if s.name == "missing_range":
            a, b = s.arguments
            raise InputError(path, None, "lines_of_sight",
                             f"a `range:` entry between {a} and {b} (hexes on different boards)")
