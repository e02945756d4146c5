"""Between clingo symbols and Python values, through clingo's public API only.

Facts go in as `(predicate, arguments)` pairs of clingo symbols (`Fact`), grouped by
signature (`Facts`).  Shown atoms are read into plain Python values:

* a number is an `int`, a string a `str`;
* a constant, a function or a tuple is a `Term(name, arguments)` (a tuple's name is "").

`Term`s print as clingo prints the symbol and sort as clingo sorts symbols (numbers, then
constants, then strings, then functions by arity and name), so answers come out in the
order they always had.  The accelerated solver does the same work through clingo's C
functions (aslrules/fast/capi.py).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple

from clingo import Backend, Function, Symbol, SymbolType

Fact = tuple[str, tuple[Symbol, ...]]
Value = Any  # int | str | Term


class Facts:
    """Input facts grouped by signature: (predicate, arity) -> the argument tuples, each group
    in the order its facts came.  Iterating gives (predicate, arguments) pairs, group by group.

    The loops that cost (the relevance domain, adding facts to clingo) then decide once per
    signature, not once per fact: most facts have nothing the relevance analysis looks at."""

    __slots__ = ("table",)

    def __init__(self, facts: Iterable[Fact] = ()) -> None:
        # a missing signature is a new empty group (a situation adds about 400 facts a question)
        self.table: dict[tuple[str, int], list[tuple[Symbol, ...]]] = defaultdict(list)
        for pred, args in facts:
            self.add(pred, args)

    def add(self, pred: str, args: tuple[Symbol, ...]) -> None:
        self.table[pred, len(args)].append(args)

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


class Memo(dict):
    """key -> f(key), each made on first use: the values read from symbols (by their codes) and what
    is made of them (sort keys, texts) repeat across a listing's hundreds of thousands of atoms."""

    __slots__ = ("f",)

    def __init__(self, f: Callable[[Any], Any]):
        super().__init__()
        self.f = f

    def __missing__(self, key: Any) -> Any:
        r = self[key] = self.f(key)
        return r


def _text(v: Value) -> str:
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"') + '"'
    return str(v)


def sort_key(v: Value, arg_key: Callable[[Value], tuple] | None = None) -> tuple:
    """clingo's order of symbols, for values read by `read_atoms`; a function's arguments keyed by
    `arg_key` (a memo of this function: aslrules/answers.py), by default by this function."""
    t = type(v)
    if t is str:
        return (2, v)
    if t is int:
        return (0, v)
    if not v.arguments:
        return (1, v.name)
    return (3, len(v.arguments), v.name, tuple(map(arg_key or sort_key, v.arguments)))


# --------------------------------------------------------------------------- facts in, atoms out


def add_facts(backend: Backend, facts: Iterable[Fact]) -> None:
    """Add each fact `pred(args...)` through an open Backend."""
    for pred, args in Facts.of(facts):
        backend.add_rule([backend.add_atom(Function(pred, list(args)))])


def read_atoms(symbols: Sequence[Symbol]) -> list[Term]:
    """The shown atoms as `Term`s, their arguments as Python values."""
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
