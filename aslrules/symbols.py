"""Between clingo symbols and Python values, in the two loops where the cost adds up.

A batch of 100 cases adds about 35,000 facts and reads about 4,000 shown atoms.  Through
clingo's Python API every fact costs three calls that each allocate (Function, add_atom,
add_rule) and every argument read costs one or two (type, then number, string, name or
arguments): together more than the grounding itself.  Here the same C functions are called
through the cffi bindings the clingo package itself uses (`clingo._internal`), with buffers
allocated once.  Where those bindings are missing (a clingo other than 5.5-5.8) the public
API does the same work; tests/test_engine.py checks that both paths agree.

Shown atoms are read into plain Python values:

* a number is an `int`, a string a `str`;
* a constant, a function or a tuple is a `Term(name, arguments)` (a tuple's name is "").

`Term`s print as clingo prints the symbol and sort as clingo sorts symbols (numbers, then
constants, then strings, then functions by arity and name), so answers come out in the
order they always had.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Iterator, Sequence
from typing import Any, NamedTuple

from clingo import Function, Symbol, SymbolType

try:
    from clingo._internal import _ffi, _handle_error, _lib
except ImportError:  # pragma: no cover - another clingo layout: the public API is used
    _lib = None

_USED = ("clingo_symbol_create_function", "clingo_backend_add_atom", "clingo_backend_rule", "clingo_symbol_type",
         "clingo_symbol_number", "clingo_symbol_string", "clingo_symbol_name", "clingo_symbol_arguments")

#: Whether the fast path (clingo's C functions) is in use.
DIRECT = _lib is not None and all(hasattr(_lib, f) for f in _USED)

Fact = tuple[str, tuple[Symbol, ...]]
Value = Any  # int | str | Term


class Facts:
    """Input facts grouped by signature: (predicate, arity) -> the argument tuples, each group
    in the order its facts came.  Iterating gives (predicate, arguments) pairs, group by group.

    The loops that cost (the relevance domain, adding facts to clingo) then decide once per
    signature, not once per fact: most facts have nothing the relevance analysis looks at."""

    __slots__ = ("table",)

    def __init__(self, facts: Iterable[Fact] = ()) -> None:
        self.table: dict[tuple[str, int], list[tuple[Symbol, ...]]] = {}
        for pred, args in facts:
            self.add(pred, args)

    def add(self, pred: str, args: tuple[Symbol, ...]) -> None:
        rows = self.table.get((pred, len(args)))
        if rows is None:
            rows = self.table[(pred, len(args))] = []
        rows.append(args)

    def __iter__(self) -> Iterator[Fact]:
        for (pred, _), rows in self.table.items():
            for args in rows:
                yield pred, args

    def __len__(self) -> int:
        return sum(map(len, self.table.values()))

    @classmethod
    def of(cls, facts: Iterable[Fact]) -> Facts:
        """`facts` grouped (as they are, if they already are)."""
        return facts if isinstance(facts, cls) else cls(facts)


class Term(NamedTuple):
    """A constant, function or tuple symbol, read into Python."""

    name: str
    arguments: tuple = ()

    def __str__(self) -> str:
        args = ",".join(map(_text, self.arguments))
        if not self.name:
            return f"({args},)" if len(self.arguments) == 1 else f"({args})"
        return f"{self.name}({args})" if self.arguments else self.name

    __repr__ = __str__


def _text(v: Value) -> str:
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"') + '"'
    return str(v)


def sort_key(v: Value) -> tuple:
    """clingo's order of symbols, for values read by `read_atoms`."""
    if isinstance(v, int):
        return (0, v)
    if isinstance(v, str):
        return (2, v)
    if not v.arguments:
        return (1, v.name)
    return (3, len(v.arguments), v.name, tuple(map(sort_key, v.arguments)))


# --------------------------------------------------------------------------- facts in


class Shared:
    """The facts the cases of one batch share: those of `signatures` (inputs the KB declares
    case-independent, a function of their first argument) go in once, with no case argument."""

    def __init__(self, signatures: Container[tuple[str, int]]):
        self.signatures = signatures
        self.added: set[tuple[str, Symbol]] = set()

    def first(self, pred: str, args: tuple[Symbol, ...]) -> bool:
        """Whether this fact is new to the batch (and now marked added)."""
        key = (pred, args[0])
        if key in self.added:
            return False
        self.added.add(key)
        return True


def add_facts(backend: Any, facts: Iterable[Fact], case: Symbol | None = None, *,
              keep: Container[tuple[str, int]] | None = None, shared: Shared | None = None,
              direct: bool = True) -> None:
    """Add `pred(case, args...)` (or `pred(args...)`) for each fact through an open Backend;
    with `keep`, only the facts whose (predicate, arity) it holds; with `shared`, the facts it
    shares once for the batch, with no case argument."""
    table = Facts.of(facts).table
    if case is None:
        shared = None
    if direct and DIRECT and hasattr(backend, "_rep"):
        _add_facts_c(backend._rep, table, case, keep, shared)
        return
    for sig, rows in table.items():
        if keep is not None and sig not in keep:
            continue
        pred = sig[0]
        once = shared is not None and sig in shared.signatures
        for args in rows:
            if once:
                if shared.first(pred, args):  # type: ignore[union-attr]
                    backend.add_rule([backend.add_atom(Function(pred, list(args)))])
                continue
            full = [case, *args] if case is not None else list(args)
            backend.add_rule([backend.add_atom(Function(pred, full))])


def _add_facts_c(backend: Any, table: dict[tuple[str, int], list[tuple[Symbol, ...]]], case: Symbol | None,
                 keep: Container[tuple[str, int]] | None, shared: Shared | None) -> None:
    new = _ffi.new
    create, add_atom, add_rule = _lib.clingo_symbol_create_function, _lib.clingo_backend_add_atom, \
        _lib.clingo_backend_rule
    symbol, atom, null = new("clingo_symbol_t*"), new("clingo_atom_t[1]"), _ffi.NULL
    size = 16
    args = new("clingo_symbol_t[]", size)
    for sig, rows in table.items():
        if keep is not None and sig not in keep:
            continue
        pred, arity = sig
        name = pred.encode()
        once = shared is not None and sig in shared.signatures
        start = 1 if case is not None and not once else 0
        n = start + arity
        if n > size:
            size = 2 * n
            args = new("clingo_symbol_t[]", size)
        if start:
            args[0] = case._rep  # type: ignore[union-attr]
        for fargs in rows:
            if once and not shared.first(pred, fargs):  # type: ignore[union-attr]
                continue
            for k, a in enumerate(fargs, start):
                args[k] = a._rep
            if not (create(name, args, n, True, symbol) and add_atom(backend, symbol, atom)
                    and add_rule(backend, False, atom, 1, null, 0)):
                _handle_error(False)


# --------------------------------------------------------------------------- atoms out


def read_atoms(symbols: Sequence[Symbol], *, direct: bool = True) -> list[Term]:
    """The shown atoms as `Term`s, their arguments as Python values."""
    if direct and DIRECT:
        return _Reader().atoms(symbols)
    return [symbol_value(s) for s in symbols]


def symbol_value(s: Symbol) -> Value:
    """One symbol as a Python value (public API)."""
    t = s.type
    if t == SymbolType.Number:
        return s.number
    if t == SymbolType.String:
        return s.string
    if t == SymbolType.Function:
        return Term(s.name, tuple(symbol_value(a) for a in s.arguments))
    return Term(str(s))  # #inf, #sup: shown by no KB rule


class _Reader:
    """Reads the symbols of one model.  A symbol met twice (a unit id, a rule id) is read once:
    the model holds its symbols while they are read, so equal codes are equal symbols."""

    def __init__(self) -> None:
        self.p_char = _ffi.new("char**")
        self.p_int = _ffi.new("int*")
        self.p_args = _ffi.new("clingo_symbol_t**")
        self.p_size = _ffi.new("size_t*")
        self.cache: dict[int, Value] = {}

    def atoms(self, symbols: Sequence[Symbol]) -> list[Term]:
        return [self.value(s._rep) for s in symbols]

    def value(self, rep: int) -> Value:
        v = self.cache.get(rep)
        if v is not None:
            return v
        t = _lib.clingo_symbol_type(rep)
        if t == _lib.clingo_symbol_type_number:
            _lib.clingo_symbol_number(rep, self.p_int)
            v = self.p_int[0]
        elif t == _lib.clingo_symbol_type_string:
            _lib.clingo_symbol_string(rep, self.p_char)
            v = _ffi.string(self.p_char[0]).decode()
        elif t == _lib.clingo_symbol_type_function:
            _lib.clingo_symbol_name(rep, self.p_char)
            name = _ffi.string(self.p_char[0]).decode()
            _lib.clingo_symbol_arguments(rep, self.p_args, self.p_size)
            n = self.p_size[0]
            reps = list(_ffi.unpack(self.p_args[0], n)) if n else []
            v = Term(name, tuple(self.value(r) for r in reps))
        else:
            v = Term(str(Symbol(rep)))
        self.cache[rep] = v
        return v
