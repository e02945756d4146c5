"""Input the KB finds to be nonsense on the map: `input_error` and `missing_range` atoms
(kb/input_checks.lp, kb/geometry.lp) become an InputError at the field's line.

Python decides nothing here: the KB says which item and which field, and why; this module
finds that field in the file."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .answers import render
from .errors import InputError
from .loader import _path_text as _text
from .model import Situation
from .symbols import Term


def field_path(field: Any) -> tuple:
    """An input_error's Field as a path relative to its item: a dotted string ("moving.from"), or a
    tuple of keys and list indexes for a field of a list item (("attacked_here",0,"placed_residual"))."""
    if isinstance(field, Term):
        return tuple(field.arguments)
    return tuple(field.split(".")) if field else ()


def _where(sit: Situation, kind: str, ident: Any, field: Any) -> tuple:
    """The path in the file of `field` ("moving.from") of a unit, weapon, question or line of sight."""
    rel = field_path(field)
    if kind == "unit":
        for i, u in enumerate(sit.data.units):
            if u.id == ident:
                return ("units", i) + rel
    elif kind == "weapon":
        for i, u in enumerate(sit.data.units):
            for j, w in enumerate(u.weapons):
                if w.id == ident:
                    return ("units", i, "weapons", j) + rel
    elif kind == "question" and isinstance(ident, int) and ident < len(sit.expect):
        return ("expect", ident, sit.expect[ident].kind) + rel
    elif kind == "question" and isinstance(ident, int) and ident < len(sit.expect) + len(sit.ask):
        k = ident - len(sit.expect)
        return ("ask", k, sit.ask[k].kind) + rel
    elif kind == "los" and isinstance(ident, Term):
        board = lambda h: sit.board + h if sit.board and h[:1].isalpha() else h
        for i, los in enumerate(sit.data.lines_of_sight):
            hexes = (los.frm, los.to) if los.to is not None else (los.frm, *los.to_hexside)
            if tuple(board(h) for h in hexes) == tuple(ident.arguments):
                return ("lines_of_sight", i) + rel
    return ()


def _option_value(args: Any) -> Any:
    """The value given to the option: the first element of the template's arguments."""
    return str(args.arguments[0]) if isinstance(args, Term) and args.arguments else None


def raise_input_errors(sit: Situation, atoms: Sequence[Term]) -> None:
    """The first (in file order) of the KB's input errors for this situation, as an InputError.
    An error of kind `option` is about a command-line option (Id: "--firer"), not the file."""
    found = []
    for a in atoms:
        if a.name == "input_error" and len(a.arguments) == 5:
            kind, ident, field, template, args = a.arguments
            kind = kind.name if isinstance(kind, Term) else str(kind)
            if kind == "option":
                found.append((0, str(ident), render(template, args), _option_value(args)))
                continue
            path = _where(sit, kind, ident, field)
            found.append((sit.line(path) or 0, _text(path), render(template, args), None))
        elif a.name == "missing_range":
            x, y = a.arguments
            found.append((0, "lines_of_sight", f"a `range:` entry between {x} and {y} (hexes on different boards)",
                          None))
    if found:
        line, path, expected, got = min(found)
        raise InputError(sit.path, line or None, path, expected, got)
