"""The schema in words: each field's metadata (`struct_fields`), what a value of a type looks like
(`describe`: the loader's messages say it) and the format's field reference (`markdown`:
docs/format.md embeds it, a test checks that it is current), one table per mapping of the
format, every field with its type, default, meaning and the input predicate it becomes."""

from __future__ import annotations

import types
import typing
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any, Literal, get_args, get_origin

import msgspec

from . import schema as S
from .model import HEX_FORM, LOCATION_FORM


@lru_cache(maxsize=1024)
def alternatives(tp: Any) -> tuple[tuple[Any, dict[str, Any], dict[str, Any]], ...]:
    """The alternatives of a (nested, annotated) union: (type, msgspec constraints, metadata);
    the metadata of an enclosing Annotated holds for each alternative that does not say otherwise."""
    limits: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    while getattr(tp, "__metadata__", None) is not None:
        for meta in tp.__metadata__:
            if isinstance(meta, msgspec.Meta):
                for key in ("ge", "le", "pattern", "min_length", "max_length"):
                    if getattr(meta, key) is not None:
                        limits.setdefault(key, getattr(meta, key))
                extra = {**(meta.extra or {}), **extra}
                if meta.description:
                    extra.setdefault("description", meta.description)
        tp = tp.__origin__
    if get_origin(tp) in (typing.Union, types.UnionType):
        return tuple((inner, c, {**extra, **e}) for option in get_args(tp) for inner, c, e in alternatives(option))
    return ((tp, limits, extra),)


@cache
def struct_fields(cls: type) -> dict[str, tuple[str, Any, dict[str, Any]]]:
    """A Struct's fields by their name in the file: (attribute, type, metadata of every alternative)."""
    hints = typing.get_type_hints(cls, include_extras=True)
    out = {}
    for attr, encoded in zip(cls.__struct_fields__, cls.__struct_encode_fields__):
        out[encoded] = (attr, hints[attr], {k: v for _, _, e in alternatives(hints[attr]) for k, v in e.items()})
    return out


@cache
def defaults(cls: type) -> dict[str, Any]:
    return {f.name: f.default if f.default_factory is msgspec.NODEFAULT else f.default_factory()
            for f in msgspec.structs.fields(cls)}


def describe(tp: Any, brief: bool = False) -> str:
    """What a value of this schema type looks like, in the words of an error message (`brief`: a
    mapping of the format is named, not listed, as in the field reference)."""
    parts = [_describe(inner, limits, extra, brief) for inner, limits, extra in alternatives(tp)
             if inner is not type(None)]
    return " or ".join(dict.fromkeys(parts)) or "a value"


def _describe(inner: Any, limits: dict[str, Any], extra: dict[str, Any], brief: bool) -> str:
    kind, origin = extra.get("kind"), get_origin(inner)
    if inner is str and kind in ("hex", "hexspine", "hexside") or kind == "hex":
        return HEX_FORM
    if inner is str and kind == "location":
        return LOCATION_FORM
    if origin is Literal:
        return "one of " + ", ".join(map(str, get_args(inner)))
    if inner is bool:
        return "true or false"
    if inner is int:
        low, high = limits.get("ge"), limits.get("le")
        return "a whole number" if low is None or high is None else f"a whole number from {low} to {high}"
    if inner is Fraction:
        return f"a number from {extra.get('min', 0)} to {extra.get('max', 999)} (like 4 or 1.5)"
    if inner is str:
        pattern = limits.get("pattern", "")
        if kind in ("id", "unit", "weapon", "leader", "any"):
            return "an id of letters, digits, '-' and '_'"
        if kind == "side":
            return "a side name of letters, digits, '-' and '_'"
        if "L|LL" in pattern:
            return "a calibre in mm like 75L, 37LL or 20L"
        if "A-Za-z0-9][" in pattern:
            return "a rule id like A8.312"
        return f"a text of at most {limits.get('max_length', S.TEXT_MAX)} characters"
    if isinstance(inner, type) and issubclass(inner, msgspec.Struct):
        return f"a mapping ({inner.__name__})" if brief else "a mapping with the keys " + \
            ", ".join(struct_fields(inner))
    if inner is Any and extra.get("description"):
        return extra["description"]
    if origin is list:
        if kind == "hexspine":
            return "a hexspine: two hexes like [X3, Y3], both adjacent to the unit's hex"
        if kind == "hexside":
            return "two adjacent hexes like [H7, G7] (a hexside)"
        n = limits.get("max_length")
        return f"a list of {describe(get_args(inner)[0], brief)}" + (f" (at most {n})" if n else "")
    if origin is dict:
        key_type, value_type = get_args(inner)
        key = LOCATION_FORM if kind == "location" else describe(key_type, brief)
        if kind in ("unit", "weapon", "any"):
            key = f"a {'unit or weapon' if kind == 'any' else kind} id"
        return f"a mapping of {key} -> " + (extra.get("description", "") if value_type is Any else
                                             describe(value_type, brief))
    return "a value"


#: The mappings of the format, in reading order, with the heading each gets.
SECTIONS: list[tuple[str, type]] = [
    ("The situation (top level)", S.Situation),
    ("`readings`", S.Readings),
    ("`locations` values (terrain of a Location)", S.Terrain),
    ("`lines_of_sight` items", S.LineOfSight),
    ("`residual_fp` values in mapping form", S.ResidualCounter),
    ("`units` items", S.Unit),
    ("`weapons` items (of a unit)", S.Weapon),
    ("`moving` (of the moving unit)", S.Moving),
    ("`attacked_here` items", S.AttackedHere),
    ("`shots` items", S.Shot),
    ("`dice`", S.Dice),
    *[(f"Question `{kind}`", cls) for kind, cls in S.QUESTIONS.items()],
    *[(f"Answer fields of the `{kind}` question", cls) for kind, cls in S.ANSWERS.items()],
    ("`reasons` items (of an answer)", S.ReasonItem),
    ("`sequence` items (steps, for aslrules replay)", S.Step),
    ("`move` (of a step)", S.Move),
    ("`residual` (of a move step)", S.Resolution),
    ("`expect` items of a step", S.StepExpect),
    ("`question` (of a step's expect item): an attack question and its answer fields", S.AttackCheck),
    ("`state` (of a step's expect item)", S.State),
    ("`state.units` values", S.UnitState),
    ("`state.weapons` values", S.WeaponState),
]

BEGIN = "<!-- field reference: generated by `aslrules schema --format markdown`; do not edit by hand -->"
END = "<!-- end of the field reference -->"


def _default(value: Any) -> str:
    if value is msgspec.NODEFAULT:
        return "required"
    if isinstance(value, msgspec.Struct):
        return "(all defaults)"
    if value in ([], {}, None, ""):
        return "-"
    if isinstance(value, bool):
        return "true" if value else "false"
    return f"`{value}`"


def markdown() -> str:
    """The reference as Markdown, between the BEGIN and END markers."""
    out = [BEGIN, ""]
    for title, cls in SECTIONS:
        out += [f"### {title} ({cls.__name__})", "", "| field | value | default | meaning | fact |", "|---|---|---|---|---|"]
        defaults_ = defaults(cls)
        for encoded, (attr, tp, extra) in struct_fields(cls).items():
            meaning = extra.get("description", "")
            fact = f"`{extra['fact']}`" if "fact" in extra else ""
            value = describe(tp, brief=True).replace("|", "\\|")
            out.append(f"| `{encoded}` | {value} | {_default(defaults_.get(attr, msgspec.NODEFAULT))} "
                       f"| {meaning} | {fact} |")
        out.append("")
    out.append(END)
    return "\n".join(out)
