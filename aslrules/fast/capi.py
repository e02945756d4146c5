"""Facts in and shown atoms out through clingo's C functions: the one module that touches
clingo's internals.

A batch of 100 cases adds about 35,000 facts and reads about 4,000 shown atoms.  Through
clingo's Python API every fact costs three calls that each allocate (Function, add_atom,
add_rule) and every argument read costs one or two (type, then number, string, name or
arguments): together more than the grounding itself.  Here the same C functions are called
through the cffi bindings the clingo package itself uses (`clingo._internal`, a symbol's and
a backend's `_rep`), with buffers allocated once.

Those bindings are private: they are used only on the clingo versions this was verified on
(`VERIFIED`), and only if every function used is there.  Otherwise, or with `direct=False`,
the same work goes through the public API; tests/test_engine.py checks that both paths agree.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Container, Sequence
from typing import Any

import clingo
from clingo import Function, Symbol, ast

from ..symbols import Memo, Term, Value
from ..symbols import read_atoms as read_atoms_public

#: clingo versions (major, minor) whose private cffi bindings this module was verified on.
VERIFIED = ((5, 7), (5, 8))

_USED = ("clingo_symbol_create_function", "clingo_backend_add_atom", "clingo_backend_rule", "clingo_symbol_type",
         "clingo_symbol_number", "clingo_symbol_string", "clingo_symbol_name", "clingo_symbol_arguments",
         "clingo_model_symbols_size", "clingo_model_symbols", "clingo_show_type_shown",
         "clingo_program_builder_add")


def supported(version: str) -> bool:
    """Whether a clingo of this version is one the C path was verified on."""
    try:
        major, minor = (int(x) for x in version.split(".")[:2])
    except ValueError:
        return False
    return (major, minor) in VERIFIED


def _bindings() -> tuple[Any, Any, Any] | None:
    if not supported(clingo.__version__):
        return None
    try:
        from clingo._internal import _ffi, _handle_error, _lib
    except ImportError:  # pragma: no cover - another layout: the public API is used
        return None
    if not all(hasattr(_lib, f) for f in _USED) or not hasattr(Function("x"), "_rep"):
        return None  # pragma: no cover
    return _ffi, _lib, _handle_error


_BINDINGS = _bindings()

#: Whether the C path is available (a verified clingo, its bindings where expected).
AVAILABLE = _BINDINGS is not None
_ffi, _lib, _handle_error = _BINDINGS or (None, None, None)


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


Table = dict[tuple[str, int], list[tuple[Symbol, ...]]]


def add_statements(builder: ast.ProgramBuilder, stms: Sequence[ast.AST], *, direct: bool = True) -> None:
    """Add parsed statements through an open ProgramBuilder (about 200 a question: the C call
    directly, without the Python method around it)."""
    if direct and AVAILABLE and hasattr(builder, "_rep"):
        add, rep = _lib.clingo_program_builder_add, builder._rep
        for s in stms:
            if not add(rep, s._rep):
                _handle_error(False)
        return
    for s in stms:
        builder.add(s)


def add_facts(backend: clingo.Backend, table: Table, case: Symbol | None = None, *,
              keep: Container[tuple[str, int]] | None = None, shared: Shared | None = None,
              direct: bool = True) -> None:
    """Add `pred(case, args...)` (or `pred(args...)`) for each fact through an open Backend;
    with `keep`, only the facts whose (predicate, arity) it holds; with `shared` (and a case),
    the facts it shares once for the batch, with no case argument."""
    if case is None:
        shared = None
    if direct and AVAILABLE and hasattr(backend, "_rep"):
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


def _add_facts_c(backend: Any, table: Table, case: Symbol | None,
                 keep: Container[tuple[str, int]] | None, shared: Shared | None) -> None:
    create, add_atom, add_rule = _lib.clingo_symbol_create_function, _lib.clingo_backend_add_atom, \
        _lib.clingo_backend_rule
    symbol, atom, null = _ffi.new("clingo_symbol_t*"), _ffi.new("clingo_atom_t[1]"), _ffi.NULL
    for sig, rows in table.items():
        if keep is not None and sig not in keep:
            continue
        pred, arity = sig
        name = pred.encode()
        if shared is not None and sig in shared.signatures:
            rows = [args for args in rows if shared.first(pred, args)]
            first = ()
        else:
            first = () if case is None else (case,)
        n = len(first) + arity
        if n == 0:  # `p.`
            for _ in rows:
                if not (create(name, null, 0, True, symbol) and add_atom(backend, symbol, atom)
                        and add_rule(backend, False, atom, 1, null, 0)):
                    _handle_error(False)
            continue
        # the arguments of all the rows in one C array (converted at once, not one by one); each
        # fact's symbol is made from its slice
        if first:
            reps = [a._rep for args in rows for a in (*first, *args)]
        else:
            reps = [a._rep for args in rows for a in args]
        args = _ffi.new("clingo_symbol_t[]", reps)
        for k in range(0, len(reps), n):
            if not (create(name, args + k, n, True, symbol) and add_atom(backend, symbol, atom)
                    and add_rule(backend, False, atom, 1, null, 0)):
                _handle_error(False)


def read_atoms(symbols: Sequence[Symbol], *, direct: bool = True) -> list[Term]:
    """The shown atoms as `Term`s, their arguments as Python values (as `symbols.read_atoms`)."""
    if direct and AVAILABLE:
        return _reader()([s._rep for s in symbols])
    return read_atoms_public(symbols)


#: From this many shown atoms (a listing of thousands of attacks) the memory of the freed Control
#: is given back to the system before the answers are made of them.
LARGE_MODEL = 100_000


def give_back_memory() -> None:
    """Give the heap's free memory back to the system (glibc's malloc_trim; elsewhere nothing).
    A listing's Control holds most of the process's memory and is freed before its answers are
    made, but glibc keeps what clingo freed for clingo's own next allocations, while Python's
    objects are made in other memory: without this the peak is the Control's and the answers'
    together (bench/run.py --listing: 1.45 GB against 1.31 GB at 250 units a side)."""
    try:
        import ctypes

        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError, TypeError):  # not glibc
        return
    trim(0)


def model_symbols(model: clingo.Model, *, direct: bool = True) -> Sequence[Any]:
    """A model's shown symbols, to read with `read_symbols` (after the Control is gone, if need be:
    clingo keeps every symbol for the life of the process).  The C path takes them as one array
    of codes, with no Symbol object made for each."""
    if not (direct and AVAILABLE):
        return list(model.symbols(shown=True))
    show = _lib.clingo_show_type_shown
    size = _ffi.new("size_t*")
    _handle_error(_lib.clingo_model_symbols_size(model._rep, show, size))
    array = _ffi.new("clingo_symbol_t[]", size[0])
    _handle_error(_lib.clingo_model_symbols(model._rep, show, array, size[0]))
    return _ffi.unpack(array, size[0])


def read_symbols(symbols: Sequence[Any], *, direct: bool = True) -> list[Term]:
    """What `model_symbols` gave, as `read_atoms` reads it."""
    if not (direct and AVAILABLE):
        return read_atoms_public(symbols)
    return _reader()(symbols)


def _reader() -> Callable[[Sequence[int]], list[Value]]:
    """The reader of shown symbols (as codes), made once for the process.

    A symbol's value is read once for the process: clingo never frees a symbol, so a code stands
    for one symbol for the life of the process, and the rule ids, templates, unit ids and numbers
    of one question's reasons are mostly those of the last one.  Up to `KNOWN` values are kept
    (a listing's are dropped once it is read).  Shown atoms are each met once in a model, so they
    are not kept (their arguments are); a name met twice is decoded once (clingo keeps one copy of
    each name, so equal pointers are equal names).  The C functions and buffers are bound once: a
    listing reads hundreds of thousands of atoms; a lock keeps two threads off the buffers."""
    global _READER
    if _READER is None:
        _READER = _make_reader()
    return _READER


#: How many symbol values the reader keeps between models.
KNOWN = 1 << 16
_READER: Callable[[Sequence[int]], list[Value]] | None = None


def _make_reader() -> Callable[[Sequence[int]], list[Value]]:
    p_char, p_int = _ffi.new("char**"), _ffi.new("int*")
    p_args, p_size = _ffi.new("clingo_symbol_t**"), _ffi.new("size_t*")
    names: dict[Any, str] = {}
    kind, name_of, args_of = _lib.clingo_symbol_type, _lib.clingo_symbol_name, _lib.clingo_symbol_arguments
    number_of, string_of = _lib.clingo_symbol_number, _lib.clingo_symbol_string
    NUMBER, STRING, FUNCTION = (_lib.clingo_symbol_type_number, _lib.clingo_symbol_type_string,
                                _lib.clingo_symbol_type_function)
    text, unpack, new_term = _ffi.string, _ffi.unpack, tuple.__new__
    lock = threading.Lock()

    def read(rep: int) -> Value:
        t = kind(rep)
        if t == NUMBER:
            number_of(rep, p_int)
            return p_int[0]
        if t == STRING:
            string_of(rep, p_char)
            return text(p_char[0]).decode()
        if t == FUNCTION:
            return function(rep)
        return Term(str(Symbol(rep)))

    known = Memo(read)  # code -> value
    value = known.__getitem__

    def function(rep: int) -> Term:
        name_of(rep, p_char)
        p = p_char[0]
        name = names.get(p)
        if name is None:
            name = names[p] = text(p).decode()
        args_of(rep, p_args, p_size)
        n = p_size[0]
        return new_term(Term, (name, tuple(map(value, unpack(p_args[0], n))) if n else ()))

    def atoms(reps: Sequence[int]) -> list[Value]:
        with lock:
            try:
                return [function(r) if kind(r) == FUNCTION else value(r) for r in reps]
            finally:
                if len(known) > KNOWN:
                    known.clear()
                if len(names) > KNOWN:
                    names.clear()

    return atoms
