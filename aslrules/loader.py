"""Read a situation or case file into the format's types (aslrules.schema), strictly; every
error is an InputError `file:line: field.path: expected X, got Y`.

1. `compose`: YAML events (libyaml's parser when PyYAML has it) become plain values, with the
   line of each, by a recursive descent no deeper than the nesting allowed. One strict table
   reads scalars: decimal numbers only (`010`, `0x10`, `1:30` stay text), exact decimals
   (`10.5` is a Fraction), the standard tags only; size, depth and alias expansion are bounded.
2. msgspec converts the values into the schema's Structs; its error's path is found in the file
   and the schema's type there put into words (`reference.describe`).
3. `_Reader` checks the result by the schema's field metadata (exact numbers on the 1/64 grid,
   hex ids and boards, ids defined once and references resolved, fields only some units take),
   then the few checks that compare fields. What only the map can tell (is this hex adjacent?)
   the KB reports when the situation is answered (kb/input_checks.lp).
"""

from __future__ import annotations

import dataclasses

import json
import os
import re
import stat
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any, Literal, NoReturn, get_args, get_origin

import msgspec
import yaml

from . import schema as S
from .errors import InputError
from .model import Expectation, Location, Situation, fmt_number, line_at, parse_counter, parse_hex, parse_location
from .reference import alternatives, defaults, describe, struct_fields

__all__ = ["load_data", "load_file", "load_text", "parse_counter", "parse_hex", "parse_location"]

MAX_BYTES = 1 << 20  # 1 MiB
MAX_NODES = 20_000  # YAML values, aliases counted each time they are used
MAX_DEPTH = 32  # the format nests at most 6 deep

# --------------------------------------------------------------------------- entry points


def load_file(path: str | os.PathLike[str]) -> Situation:
    """Read and check one situation or case file (a regular file of at most 1 MiB of UTF-8)."""
    name = os.fspath(path)
    try:
        info = os.stat(name)
        if not stat.S_ISREG(info.st_mode):  # a FIFO would block, a device never end
            what = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise InputError(name, None, "", "a regular file", what)
        if info.st_size > MAX_BYTES:
            raise InputError(name, None, "", "a file of at most 1 MiB")
        with open(name, "rb") as stream:
            data = stream.read(MAX_BYTES + 1)
    except OSError as error:
        raise InputError(name, None, "", "a readable file", error.strerror or str(error)) from None
    if len(data) > MAX_BYTES:
        raise InputError(name, None, "", "a file of at most 1 MiB")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(name, None, "", "UTF-8 text", f"byte {error.start}") from None
    return _load(text, name)


def load_text(text: str, name: str = "<string>") -> Situation:
    """Check a situation given as text; `name` stands for the file in messages."""
    if len(text) > MAX_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise InputError(name, None, "", "a file of at most 1 MiB")
    return _load(text, name)


def _load(text: str, name: str) -> Situation:
    data, lines, texts = compose(text, name)
    if not isinstance(data, dict):
        expected = "a mapping (the situation)" + (", the file is empty" if data is None else "")
        raise InputError(name, 1, "", expected, None if data is None else _got(data))
    return _Reader(name, lines, texts).read(data)


def load_data(data: dict[str, Any], name: str = "<data>") -> Situation:
    """Check a situation given as plain values (as YAML would give them: Fractions for decimals), with
    no lines to report."""
    return _Reader(name, {}, {}).read(data)


# --------------------------------------------------------------------------- 1. YAML to values

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's parser, when PyYAML has it
_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = (None, "!", *(_TAG + t for t in ("str", "int", "float", "bool", "null")))
_NULL = frozenset(("", "~", "null", "Null", "NULL"))
_BOOL = {w: True for w in ("true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON")}
_BOOL.update({w: False for w in ("false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF")})
_INT_RE = re.compile(r"[-+]?(0|[1-9][0-9]*)")
_DECIMAL_RE = re.compile(r"[-+]?([0-9]+\.[0-9]*|\.[0-9]+)([eE][-+]?[0-9]{1,3})?|[-+]?[0-9]+[eE][-+]?[0-9]{1,3}")
_KEY = "a text key (quote keys like '467' or 'yes')"


def _scalar(value: str, plain: bool, tag: str | None) -> Any:
    """A scalar's value by the format's one table: in plain style, null, true/false, decimal
    whole numbers (int) and decimals (an exact Fraction); everything else is text."""
    if tag == _TAG + "str" or tag in (None, "!") and not plain:
        return value
    if value in _NULL:
        return None
    if value in _BOOL:
        return _BOOL[value]
    if len(value) <= 30:
        if _INT_RE.fullmatch(value):
            return int(value)
        if _DECIMAL_RE.fullmatch(value):
            return Fraction(value)
    return value


def compose(text: str, name: str) -> tuple[Any, dict[tuple, tuple[int, int]], dict[tuple, str]]:
    """The document's values; for each path (a tuple of keys and indices) the lines of its
    value and of its key; and the source text of each scalar read as a number, flag or null
    (a field of text takes it as written: `id: 467`)."""
    lines: dict[tuple, tuple[int, int]] = {}
    texts: dict[tuple, str] = {}
    anchors: dict[str, tuple[Any, int]] = {}  # anchor -> (value, how many values it counts for)
    events = iter(yaml.parse(text, Loader=_LOADER))
    count = 0

    def fail(line: int | None, expected: str, got: object = None, path: tuple = ()) -> NoReturn:
        raise InputError(name, line, _path_text(path), expected, got)

    def read(event: Any, path: tuple, depth: int, key: bool = False) -> tuple[Any, int, str | None]:
        """The value `event` starts, read to its end and counted (a collection nests at most
        MAX_DEPTH deep: so does this recursion); its line and, for a scalar, its text. `path` is
        where it goes (a key: its mapping)."""
        nonlocal count
        kind, line, size = type(event), event.start_mark.line + 1, 1
        if kind is yaml.AliasEvent:
            if event.anchor not in anchors:
                fail(line, f"an anchor &{event.anchor} defined before its alias", path=path)
            value, size = anchors[event.anchor]
        elif kind is yaml.ScalarEvent:
            if event.tag not in _SCALAR_TAGS:
                fail(line, "a plain YAML value (no tag like !!binary or !custom)", event.tag, path)
            value = _scalar(event.value, event.implicit[0], event.tag)
        else:
            if event.tag not in (None, "!", _TAG + "map", _TAG + "seq"):
                fail(line, "a plain YAML value (no tag like !!binary or !custom)", event.tag, path)
            if depth >= MAX_DEPTH:
                fail(line, f"YAML nested at most {MAX_DEPTH} deep", path=path)
            if key:
                fail(line, _KEY, "a mapping" if kind is yaml.MappingStartEvent else "a list", path)
            start = count
            value = [] if kind is yaml.SequenceStartEvent else {}
            for item in events:
                if type(item) in (yaml.SequenceEndEvent, yaml.MappingEndEvent):
                    break
                key_line = None
                if isinstance(value, dict):
                    k, key_line, _ = read(item, path, depth + 1, key=True)
                    if not isinstance(k, str):
                        fail(key_line, _KEY, _got(k) if isinstance(k, (dict, list)) else k, path)
                    if k in value:
                        fail(key_line, f"each key once, '{k}' is already given at line {lines[path + (k,)][1]}",
                             path=path + (k,))
                    item = next(events)
                here = path + ((len(value),) if key_line is None else (k,))
                got, line_of, text_of = read(item, here, depth + 1)
                if key_line is None:
                    value.append(got)
                else:
                    value[k] = got
                lines[here] = (line_of, key_line or line_of)
                if text_of is not None and not isinstance(got, str):
                    texts[here] = text_of
            size = count - start + 1
        if kind is not yaml.AliasEvent and event.anchor:
            anchors[event.anchor] = (value, size)
        count += size if kind is yaml.AliasEvent else 1
        if count > MAX_NODES:
            fail(line, f"at most {MAX_NODES} YAML values (aliases counted each time they are used)", path=path)
        return value, line, event.value if kind is yaml.ScalarEvent else None

    root, documents = None, 0
    try:
        for event in events:
            if type(event) is yaml.DocumentStartEvent:
                documents += 1
                if documents > 1:
                    fail(event.start_mark.line + 1, "one YAML document (no second '---')")
            elif type(event) in (yaml.ScalarEvent, yaml.AliasEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent):
                root, line, _ = read(event, (), 0)
                lines[()] = (line, line)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        problem = (error.problem or error.context or "").strip()
        line = mark.line + 1 if mark is not None else None
        if "nesting depth" in problem:  # PyYAML 6.0.4 and later stop deep nesting themselves
            raise InputError(name, line, "", f"YAML nested at most {MAX_DEPTH} deep") from None
        raise InputError(name, line, "", "a YAML document", problem) from None
    except yaml.reader.ReaderError as error:
        line = text.count("\n", 0, error.position) + 1
        raise InputError(name, line, "", "a YAML document", f"unacceptable character #x{error.character:04x}") from None
    except yaml.YAMLError as error:
        raise InputError(name, None, "", "a YAML document", str(error)) from None
    return root, lines, texts


# --------------------------------------------------------------------------- messages

_PLAIN_KEY = re.compile(r"[A-Za-z0-9_@+-][A-Za-z0-9_@+.-]*")


def _path_text(path: tuple) -> str:
    """`units[2].weapons[0].rof`; a key that is not a plain word is quoted, `locations["a: b"]`, its
    colons and control characters escaped (the message stays `file:line: path: expected ...`)."""
    out = ""
    for p in path:
        if isinstance(p, int):
            out += f"[{p}]"
        elif _PLAIN_KEY.fullmatch(str(p)):
            out += f".{p}" if out else str(p)
        else:
            out += "[" + json.dumps(str(p)).replace(":", "\\u003a") + "]"
    return out


def _got(value: Any) -> Any:
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    return fmt_number(value) if isinstance(value, Fraction) else value


# --------------------------------------------------------------------------- the schema's types, for the reader


def _given(obj: Any, attr: str) -> bool:
    """The field has a value other than its default."""
    return getattr(obj, attr) != defaults(type(obj))[attr]


@lru_cache(maxsize=4096)
def _member_type(tp: Any, step: Any) -> Any:
    """The declared type of a field (a field name), list item (0) or mapping value (a key) of `tp`."""
    for option, _, _ in alternatives(tp):
        if isinstance(option, type) and issubclass(option, msgspec.Struct) and step in struct_fields(option):
            return struct_fields(option)[step][1]
        if get_origin(option) is (list if step == 0 else dict):
            return get_args(option)[-1]
    return Any


_OWN = {bool: {bool}, int: {int, Fraction}, Fraction: {Fraction}, type(None): {type(None)}}


@lru_cache(maxsize=1024)
def _as_written(tp: Any, kind: type) -> bool:
    """Whether a number, flag or null (of type `kind`) reads as its source text where `tp` stands:
    the field wants text and nothing of that type (`id: 467`, `title: yes`; a rule id never)."""
    options = {inner for inner, _, _ in alternatives(tp)}
    return str in options and not options & _OWN[kind] and not any(e.get("strict") for _, _, e in alternatives(tp))


@cache
def _walk_plan(cls: type) -> tuple[tuple[str, str, dict[str, Any]], ...]:
    """The fields the walk looks at: those with a `kind` and those that may hold exact numbers,
    lists or mappings (msgspec has checked flags, whole numbers and words)."""
    plain = (bool, int, str, type(None))
    return tuple((encoded, attr, extra) for encoded, (attr, tp, extra) in struct_fields(cls).items()
                 if extra.get("kind") or any(t not in plain and get_origin(t) is not Literal
                                             for t, _, _ in alternatives(tp)))


# --------------------------------------------------------------------------- 2. and 3. conversion and checks

_ERROR_RE = re.compile(r"(.*?)(?: - at (?:`key` in )?`\$(.*)`)?", re.DOTALL)
_PATH_TOKEN_RE = re.compile(r"\.([^.\[]+)|\[(\d+|\.\.\.)\]")
_REFS = ("unit", "weapon", "leader", "any")
_UP_TO_99 = {"min": 0, "max": 99}


def _dec_hook(tp: type, obj: Any) -> Any:
    if tp is Fraction and isinstance(obj, (int, Fraction)) and not isinstance(obj, bool):
        return Fraction(obj)
    raise ValueError("not a number")


class _Reader:
    """One file: converts its values into schema types and checks them, failing at the first
    error with the line of the field at fault."""

    def __init__(self, name: str, lines: dict[tuple, tuple[int, int]], texts: dict[tuple, str]):
        self.name, self.lines, self.texts = name, lines, texts
        self.defined: dict[str, tuple[str, str, tuple]] = {}  # id -> ("unit"/"weapon", its type or kind, path)
        self.refs: list[tuple[tuple, str, str]] = []  # (path, id, what it must be)
        self.hexes: list[tuple[tuple, str, str]] = []  # (path, text, board) of every hex id met
        self.board = ""

    def line(self, path: tuple, key: bool = False) -> int | None:
        return line_at(self.lines, path, key)

    def fail(self, path: tuple, expected: str, got: object = None, *, key: bool = False) -> NoReturn:
        raise InputError(self.name, self.line(path, key), _path_text(path), expected, got)

    # -- conversion

    def convert(self, value: Any, tp: Any, path: tuple) -> Any:
        if self.texts:
            value = self.written(value, tp, path)
        try:
            return msgspec.convert(value, tp, strict=True, dec_hook=_dec_hook)
        except msgspec.ValidationError as error:
            self.explain(str(error), value, tp, path)

    def written(self, value: Any, tp: Any, path: tuple) -> Any:
        """`value` with each number, flag or null that stands where the schema wants text (an id,
        a side, a title) replaced by its source text, as version 1 reads it."""
        if isinstance(value, dict):
            return {k: self.written(v, _member_type(tp, k), path + (k,)) for k, v in value.items()}
        if isinstance(value, list):
            item = _member_type(tp, 0)
            return [self.written(v, item, path + (i,)) for i, v in enumerate(value)]
        if not isinstance(value, str) and path in self.texts and _as_written(tp, type(value)):
            return self.texts[path]
        return value

    def explain(self, message: str, value: Any, tp: Any, path: tuple) -> NoReturn:
        """msgspec's error in our words: the path in the file, its line, what the schema expects
        there (made from the schema) and what the file has."""
        problem, where = _ERROR_RE.fullmatch(message).groups()  # type: ignore[union-attr]
        for name, index in _PATH_TOKEN_RE.findall(where or ""):
            if index == "...":  # msgspec does not say which key of a mapping: convert each alone
                for option, _, _ in alternatives(tp):
                    if get_origin(option) is dict and isinstance(value, dict):
                        key_type, value_type = get_args(option)
                        for k, v in value.items():
                            try:
                                msgspec.convert(k, key_type, strict=True)
                            except msgspec.ValidationError:
                                self.fail(path + (k,), describe(key_type), k, key=True)
                            self.convert(v, value_type, path + (k,))
                self.fail(path, describe(tp), _got(value))
            step: Any = int(index) if index else name
            found = isinstance(value, list) and isinstance(step, int) and step < len(value) or \
                isinstance(value, dict) and step in value
            value, tp, path = value[step] if found else None, _member_type(tp, 0 if index else step), path + (step,)
        unknown = re.match(r"Object contains unknown field `(.*)`", problem)
        if unknown:
            keys = next((list(struct_fields(o)) for o, _, _ in alternatives(tp) if isinstance(o, type)
                         and issubclass(o, msgspec.Struct)), [])
            self.fail(path + (unknown[1],), f"one of the keys {', '.join(keys)}", unknown[1], key=True)
        missing = re.match(r"Object missing required field `(.*)`", problem)
        if missing:
            self.fail(path + (missing[1],), f"a field '{missing[1]}' (required)")
        self.fail(path, describe(tp), _got(value))

    # -- the walk by the schema's metadata

    def walk(self, obj: Any, path: tuple) -> None:
        """Check every field of a Struct by its metadata, and recurse."""
        for encoded, attr, extra in _walk_plan(type(obj)):
            value = getattr(obj, attr)
            if value is not None:
                self.check(value, path + (encoded,), extra)

    def check(self, value: Any, path: tuple, extra: dict[str, Any]) -> None:
        kind = extra.get("kind")
        if isinstance(value, S.Base):
            self.walk(value, path)
        elif isinstance(value, Fraction):
            self.number(value, path, extra)
        elif isinstance(value, str):  # a hexspine's or hexside's text is one of its two hexes
            if kind == "hex" or kind in ("hexspine", "hexside") and isinstance(path[-1], int):
                self.hex(value, path)
            elif kind == "location":
                self.hex(value, path, location=True)
            elif kind in _REFS:
                self.refs.append((path, value, kind))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, (str, S.Base)):
                    self.check(item, path + (i,), extra)
            if kind in _REFS or kind == "location" or extra.get("fact") and value and isinstance(value[0], str):
                self.distinct(value, path, "each id once" if kind in _REFS else "each Location once"
                              if kind == "location" else f"each {path[-1]} word once")
        elif isinstance(value, dict):
            for key, item in value.items():
                if kind == "location":
                    self.hex(key, path + (key,), location=True, key=True)
                elif kind in _REFS:
                    self.refs.append((path + (key,), key, kind))
                if isinstance(item, (S.Base, Fraction)):
                    self.check(item, path + (key,), _UP_TO_99)

    def distinct(self, values: list, path: tuple, expected: str) -> None:
        seen: set = set()
        for i, v in enumerate(values):
            if v in seen:
                self.fail(path + (i,), expected, v)
            seen.add(v)

    def number(self, value: Fraction, path: tuple, extra: dict[str, Any]) -> None:
        low, high = extra.get("min", 0), extra.get("max", 999)
        if not low <= value <= high:
            self.fail(path, f"a number from {low} to {high} (like 4 or 1.5)", self.texts.get(path) or fmt_number(value))
        if (value * S.SCALE).denominator != 1:
            self.fail(path, f"a multiple of 1/{S.SCALE} (like 10.5 or 0.25)", self.texts.get(path) or fmt_number(value))

    def hex(self, text: str, path: tuple, location: bool = False, key: bool = False) -> None:
        try:
            h = parse_location(text).hex if location else parse_hex(text)
        except ValueError as error:
            self.fail(path, str(error), text, key=key)
        self.hexes.append((path, text, h.board))

    # -- the file

    def read(self, data: dict[str, Any]) -> Situation:
        sit = self.convert(data, S.Situation, ())
        self.walk(sit, ())
        for i, unit in enumerate(sit.units):
            self.unit(unit, ("units", i))
        for i, los in enumerate(sit.lines_of_sight):
            if (los.to is None) == (los.to_hexside is None):
                self.fail(("lines_of_sight", i), "exactly one of 'to' and 'to_hexside'")
            if los.to is None and not los.center_dot:
                self.fail(("lines_of_sight", i, "center_dot"), "center_dot only on a line of sight `to` a hex", False)
        for key, value in sit.residual_fp.items():
            path = ("residual_fp", key)
            if isinstance(value, dict):
                sit.residual_fp[key] = self.convert(value, S.ResidualCounter, path)
                self.walk(sit.residual_fp[key], path)
            elif isinstance(value, (int, Fraction)) and not isinstance(value, bool):
                sit.residual_fp[key] = Fraction(value)
                self.number(sit.residual_fp[key], path, _UP_TO_99)
            else:
                self.fail(path, "a number from 0 to 99 (like 4 or 1.5), or {fp: N, crest: true}", _got(value))
        expect = [self.expectation(item, ("expect", i)) for i, item in enumerate(sit.expect)]
        asked = [self.expectation(item, ("ask", i), answers=False) for i, item in enumerate(sit.ask)]
        listing = [self.listed(item, ("listing", "attacks", i)) for i, item in
                   enumerate(sit.listing.attacks if sit.listing is not None else [])]
        boards = sorted({board for _, _, board in self.hexes} - {""})
        unprefixed = [(path, text) for path, text, board in self.hexes if not board]
        if unprefixed and len(boards) >= 2:  # unprefixed hex ids take the board of the file's prefixed ones
            path, text = min(unprefixed, key=lambda x: self.line(x[0]) or 0)
            self.fail(path, f"a board-prefixed hex id, this file uses boards {', '.join(boards[:-1])} and "
                      f"{boards[-1]}", text)
        self.board = boards[0] if unprefixed and boards else ""
        for key in ("locations", "residual_fp", "fire_lane_residual"):
            seen: dict[Location, str] = {}
            for text in getattr(sit, key):
                loc = parse_location(self.canonical(text))
                if loc in seen:
                    self.fail((key, text), f"each Location once, {loc.name} is already given as '{seen[loc]}' at "
                              f"line {self.line((key, seen[loc]))}", key=True)
                seen[loc] = text
        for path, ident, want in sorted(self.refs, key=lambda r: self.line(r[0]) or 0):
            self.resolve(path, ident, want)
        self.sides(sit)
        self.lines_of_sight(sit)
        return Situation(self.name, sit, expect, self.board, self.lines, asked, listing)

    def unit(self, unit: S.Unit, path: tuple) -> None:
        self.define(unit.id, path + ("id",), "unit", unit.type)
        self.only(unit, unit.type, path)
        if unit.counter is None:
            if unit.type in S.COUNTER_REQUIRED:
                self.fail(path + ("counter",), f"a field 'counter' (required for a {unit.type})")
        else:
            try:
                parse_counter(unit.counter, unit.type)
            except ValueError as error:
                self.fail(path + ("counter",), f"{error} for a {unit.type}", unit.counter)
        if unit.tca is not None:
            if unit.turret not in ("T", "ST"):
                self.fail(path + ("tca",), "'tca' only on a vehicle with a turret (turret: T or ST)", key=True)
            if isinstance(unit.tca, str) != (unit.bypass is not None):
                self.fail(path + ("tca",), "a hexspine: two hexes like [X3, Y3]" if unit.bypass is None else
                          f"a facing: {', '.join(S.words(S.BypassFacing))} (in Bypass the TCA points to a facing, "
                          "D2.32)", _got(unit.tca))
        for key in ("previous_vca", "bypass"):
            if getattr(unit, key) is not None and unit.vca is None:
                self.fail(path + (key,), f"a 'vca' with '{key}'", key=True)
        for j, weapon in enumerate(unit.weapons):
            wpath = path + ("weapons", j)
            self.define(weapon.id, wpath + ("id",), "weapon", weapon.kind)
            for key in ("ca", "turret"):
                if unit.type == "vehicle" and getattr(weapon, key) is not None:
                    self.fail(wpath + (key,), f"'{key}' only on a weapon of a unit that is not a vehicle "
                              "(a vehicle's weapons use its vca/tca)", key=True)
            if weapon.mount is not None and unit.type != "vehicle":
                self.fail(wpath + ("mount",), "'mount' only on a vehicle's weapon", unit.type, key=True)
            self.only(weapon, weapon.kind, wpath)
        guns = {w.id for w in unit.weapons if w.kind == "gun"}
        for j, weapon in enumerate(unit.weapons):
            if weapon.of_gun is not None and weapon.of_gun not in guns:
                self.fail(path + ("weapons", j, "of_gun"), f"one of {unit.id}'s own Guns (kind gun)", weapon.of_gun)
        for k, shot in enumerate(unit.shots):
            if shot.weapon not in {w.id for w in unit.weapons}:
                self.fail(path + ("shots", k, "weapon"), f"one of {unit.id}'s own weapons", shot.weapon)
            if isinstance(shot.ca, str) and unit.bypass is None:
                self.fail(path + ("shots", k, "ca"), "a hexspine: two hexes like [X3, Y3] (a facing only for a "
                          "vehicle in Bypass, D2.32)", shot.ca)
        ends: list[Fraction] = []
        if unit.moving is not None and unit.moving.expenditures:
            ends = self.expenditures(unit.moving, path + ("moving",))
        for k, attack in enumerate(unit.attacked_here):
            if unit.moving is None or attack.at_mf is None:
                continue
            if attack.at_mf > unit.moving.mf_here:
                self.fail(path + ("attacked_here", k, "at_mf"), f"an MF count at most mf_here "
                          f"({fmt_number(unit.moving.mf_here)})", fmt_number(attack.at_mf))
            if ends and attack.at_mf not in ends:
                self.fail(path + ("attacked_here", k, "at_mf"), "the MF count after one of its expenditures ("
                          + ", ".join(fmt_number(e) for e in ends) + ")", fmt_number(attack.at_mf))

    def expenditures(self, moving: S.Moving, path: tuple) -> list[Fraction]:
        """`expenditures` is the long form of `mf_here` and `activities`: their sum and its last item's.
        Returns the MF count after each expenditure."""
        ends, total = [], Fraction(0)
        for e in moving.expenditures:
            total += e.mf
            ends.append(total)
        if _given(moving, "mf_here") and moving.mf_here != total:
            self.fail(path + ("mf_here",), f"the sum of the expenditures' mf ({fmt_number(total)}), or no mf_here",
                      fmt_number(moving.mf_here))
        if moving.activities:
            self.fail(path + ("activities",), "no 'activities' beside 'expenditures': the current (last) "
                      "expenditure's activities say what it does", key=True)
        moving.mf_here = total
        moving.activities = list(moving.expenditures[-1].activities)
        return ends

    def only(self, obj: Any, owner: str, path: tuple) -> None:
        """Fields the schema allows only on some unit types or weapon kinds (`only`)."""
        for encoded, (attr, _, extra) in struct_fields(type(obj)).items():
            only = extra.get("only")
            if only is not None and owner not in ((only,) if isinstance(only, str) else only) and _given(obj, attr):
                what = f"a {only}" if isinstance(only, str) else f"a weapon of kind {', '.join(only)}"
                self.fail(path + (encoded,), f"'{encoded}' only on {what}", owner, key=True)

    def define(self, ident: str, path: tuple, kind: str, what: str) -> None:
        first = self.defined.get(ident)
        if first is not None:
            self.fail(path, f"a unique id, '{ident}' is already used at line {self.line(first[2])} "
                      f"({_path_text(first[2])})")
        self.defined[ident] = (kind, what, path)

    def expectation(self, item: Any, path: tuple, answers: bool = True) -> Expectation:
        """An `expect` item (a question and the answer fields a source states), or with
        `answers=False` an `ask` item (a question alone)."""
        if not isinstance(item, dict):
            self.fail(path, "a mapping with a question (attack) and answer fields" if answers else
                      "a mapping with a question", _got(item))
        kinds = [k for k in S.QUESTIONS if k in item]
        if len(kinds) != 1:
            self.fail(path, f"exactly one question key among {', '.join(S.QUESTIONS)}")
        kind, part = kinds[0], item.get("part")
        if part is not None and not (isinstance(part, str) and re.fullmatch(S.PART_PATTERN, part)):
            self.fail(path + ("part",), "a part label: a letter or a short name (a, b, 1, ...)", part)
        rest = {k: v for k, v in item.items() if k not in (kind, "part")}
        fields = struct_fields(S.ANSWERS[kind]) if answers else {}
        for key in rest:
            if key not in fields:
                self.fail(path + (key,), f"an answer field of {'an' if kind[0] in 'aeiou' else 'a'} {kind} question: "
                          f"{', '.join(fields)}" if answers else f"a question only, among {', '.join(S.QUESTIONS)} "
                          "(answer fields belong to an `expect` item)", key, key=True)
        question = self.convert(item[kind], S.QUESTIONS[kind], path + (kind,))
        answer = self.convert(rest, S.ANSWERS[kind], path) if answers else None
        self.walk(question, path + (kind,))
        if answer is not None:
            self.walk(answer, path)
        self.question(kind, question, path + (kind,))
        if answer is None:
            return Expectation(kind=kind, question=question, line=self.line(path) or 0, part=part)
        given = [k for k in fields if k in rest]
        stated = {k: getattr(answer, fields[k][0]) for k in given if k not in ("verdict", "because")}
        if isinstance(stated.get("facing"), str):
            stated["facing"] = (stated["facing"],)
        return Expectation(kind=kind, question=question, verdict=answer.verdict, because=tuple(answer.because),
                           answers=stated, line=self.line(path) or 0, given=frozenset(given), part=part)

    def listed(self, item: Any, path: tuple) -> Expectation:
        """A `listing: attacks:` item: an attack question with the answer fields a source states and
        `place: N`, or with `listed: false` alone."""
        if not isinstance(item, dict):
            self.fail(path, "a mapping with an attack question, its answer fields and place: N, or listed: false",
                      _got(item))
        place, listed = item.get("place"), item.get("listed", True)
        if place is not None and (not isinstance(place, int) or isinstance(place, bool) or not 1 <= place <= 9999):
            self.fail(path + ("place",), "the attack's place in the listing: a whole number from 1", place)
        if not isinstance(listed, bool):
            self.fail(path + ("listed",), "true or false", listed)
        rest = {k: v for k, v in item.items() if k not in ("place", "listed")}
        if "attack" not in rest:
            self.fail(path, "an attack question (attack:): the listing lists attacks")
        if not listed:
            if place is not None or len(rest) != 1:
                key = "place" if place is not None else next(k for k in rest if k != "attack")
                self.fail(path + (key,), "nothing but the attack on a listed: false item", key, key=True)
            exp = self.expectation(rest, path, answers=False)
        else:
            exp = self.expectation(rest, path)
        return dataclasses.replace(exp, place=place, listed=listed)

    def question(self, kind: str, q: Any, path: tuple) -> None:
        if kind == "attack":
            if not q.firers and q.option != "residual_fp":
                self.fail(path + ("firers",), "at least one firer (only a residual_fp attack has none)")
            if not q.targets:
                self.fail(path + ("targets",), "at least one target unit id")
            if isinstance(q.option, dict):
                for key in q.option:
                    if key not in q.firers:
                        self.fail(path + ("option", key), f"a firer among {', '.join(q.firers) or '(none)'}", key,
                                  key=True)
                missing = [f for f in q.firers if f not in q.option]
                if missing:
                    self.fail(path + ("option",), f"an option for every firer, missing {', '.join(missing)}")
            for i, w in enumerate(q.keep_rof):
                if w not in q.firers:
                    self.fail(path + ("keep_rof", i), f"a weapon among the firers ({', '.join(q.firers) or 'none'}), "
                              "each once", w)
            if q.fire_lane_residual and q.option != "residual_fp":
                self.fail(path + ("fire_lane_residual",), "only on a Residual FP attack (option residual_fp)",
                          key=True)
            if q.fire_lane is not None and q.fire_lane not in q.firers:
                self.fail(path + ("fire_lane",), f"a weapon among the firers ({', '.join(q.firers) or 'none'})",
                          q.fire_lane)
            for i, u in enumerate(q.random_selection):
                if u in q.random_selection[:i]:
                    self.fail(path + ("random_selection", i), "each unit once", u)
            d = q.dice
            if d is not None and d.original is not None and d.colored is not None \
                    and not 1 <= d.original - d.colored <= 6:
                self.fail(path + ("dice",), "dice whose total minus the colored die is 1..6",
                          f"original {d.original}, colored {d.colored}")
        elif kind in ("case_a", "gun_elevation") and (q.target is None) == (q.at is None):
            self.fail(path, "exactly one of 'target' and 'at'")
        elif kind == "ca_change":
            if (q.to is None) == (q.to_hexside is None):
                self.fail(path, "exactly one of 'to' and 'to_hexside'")
            if q.arc is not None:
                self.refs.append((path + ("arc",), q.firer, "vehicle"))

    def resolve(self, path: tuple, ident: str, want: str) -> None:
        defined = self.defined.get(ident)
        if want == "vehicle":
            if defined is None or defined[:2] != ("unit", "vehicle"):
                self.fail(path, "'arc' only when the firer is a vehicle", _got(path[-1]))
            return
        if defined is not None and (want == "any" or defined[0] == want or want == "leader" and
                                    defined[:2] == ("unit", "leader")):
            return
        found = ""
        if defined is not None:
            what = defined[1] if defined[0] == "unit" else f"{defined[1]} weapon"
            found = f" ('{ident}' is the {what} at line {self.line(defined[2])})"
        self.fail(path, f"the id of {'a unit or weapon' if want == 'any' else 'a ' + want} defined in units{found}",
                  ident, key=path[-1] == ident)

    def sides(self, sit: S.Situation) -> None:
        sides = sorted({u.side for u in sit.units})
        if sides and sit.attacker not in sides:
            self.fail(("attacker",), f"a side that some unit has: {', '.join(sides)}", sit.attacker)
        by_fold: dict[str, str] = {}
        for i, u in enumerate(sit.units):
            other = by_fold.setdefault(u.side.casefold(), u.side)
            if other != u.side:
                self.fail(("units", i, "side"), f"one spelling of a side: '{other}' is used already", u.side)
        defender = next((u.side for u in sit.units if u.side != sit.attacker), "")
        if len(sides) > 2:
            i, u = next((i, u) for i, u in enumerate(sit.units) if u.side not in (sit.attacker, defender))
            self.fail(("units", i, "side"), f"the ATTACKER's side ({sit.attacker}) or the DEFENDER's "
                      f"({defender}): a situation has two sides", u.side)
        owner = {u.id: u for u in sit.units} | {w.id: u for u in sit.units for w in u.weapons}
        for i, u in enumerate(sit.units):
            if u.moving is not None and u.side != sit.attacker:
                self.fail(("units", i, "moving"), f"a moving unit of the ATTACKER's side ({sit.attacker})", u.side,
                          key=True)
            for k, attack in enumerate(u.attacked_here):
                for j, x in enumerate(attack.by):
                    if x in owner and owner[x].side == u.side:
                        self.fail(("units", i, "attacked_here", k, "by", j),
                                  f"an enemy unit or weapon that attacked {u.id} (not side {u.side})", x)
            for k, x in enumerate(u.directed):
                if x == u.id:
                    self.fail(("units", i, "directed", k), "units and weapons he directed, not the leader himself", x)
                if x in owner and owner[x].side != u.side:
                    self.fail(("units", i, "directed", k), f"a friendly unit or weapon (side {u.side})", x)

    def lines_of_sight(self, sit: S.Situation) -> None:
        seen: dict[frozenset, int] = {}
        for i, los in enumerate(sit.lines_of_sight):
            if los.to is None:
                continue
            j = seen.setdefault(frozenset((self.canonical(los.frm), self.canonical(los.to))), i)
            other = sit.lines_of_sight[j]
            if (los.blocked, los.hindrance, los.hexside_tem, los.range, los.cliff, los.center_dot) != \
                    (other.blocked, other.hindrance, other.hexside_tem, other.range, other.cliff, other.center_dot):
                self.fail(("lines_of_sight", i), f"one line of sight per pair of hexes: lines_of_sight[{j}] (line "
                          f"{self.line(('lines_of_sight', j))}) says otherwise for {los.frm} and {los.to}")

    def canonical(self, text: str) -> str:
        return self.board + text if self.board and not parse_location(text).hex.board else text


# --------------------------------------------------------------------------- files to check

CASE_SUFFIXES = (".yaml", ".yml")


def _unreadable(error: OSError) -> NoReturn:
    raise InputError(error.filename or "", None, "", "a readable directory", error.strerror or str(error))


def case_files(paths: list[str] | tuple[str, ...]) -> list[str]:
    """The case files named, directories expanded into their *.yaml / *.yml files (any case of the
    suffix), sorted; a directory that cannot be read, or names nothing, is an InputError."""
    files: list[str] = []
    for p in paths:
        if not os.path.isdir(p):
            files.append(p)  # load_file says what is wrong with it, if anything
            continue
        found: list[str] = []
        for folder, dirs, names in os.walk(p, onerror=_unreadable):
            dirs.sort()
            found.extend(os.path.join(folder, n) for n in names if n.lower().endswith(CASE_SUFFIXES))
        if not found:
            raise InputError(p, None, "", "a case file or a directory holding *.yaml cases", "no *.yaml file")
        files.extend(sorted(found))
    if not files:
        raise InputError(" ".join(paths), None, "", "a case file or a directory holding *.yaml cases")
    return files
