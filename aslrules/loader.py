"""Read a situation or case file into the format's types (aslrules.schema), strictly.

Three steps, each reporting `file:line: field.path: expected X, got Y` (InputError):

1. `compose`: YAML events (libyaml when PyYAML has it) become plain values, iteratively
   (no nesting deep enough to break a C stack), with the line of every value. Scalars are
   read with one strict table: decimal numbers only (`010`, `0x10`, `1:30` stay text), exact
   decimals (`10.5` is a Fraction), no tags but the standard ones, bounded size, depth and
   alias expansion.
2. msgspec converts the values into the schema's Structs (types, vocabularies, bounds).
3. `_Checker` walks the result by the schema's field metadata: exact numbers on the 1/64 grid,
   hex ids and board prefixes, ids defined once and references resolved, fields allowed only
   on some units, and the few checks that compare two fields.

The loader knows no ASL rule; what only the map's geometry can tell (is this hex adjacent?)
the KB reports as `input_error` when the situation is answered (kb/input_checks.lp).
"""

from __future__ import annotations

import json
import os
import re
import stat
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any, NoReturn

import msgspec
import msgspec.structs
import yaml

from . import schema as S
from .errors import InputError
from .model import Counter, Expectation, Hex, Location, Situation, line_at

__all__ = ["load_file", "load_text", "parse_counter", "parse_hex", "parse_location"]

MAX_BYTES = 1 << 20  # 1 MiB
MAX_NODES = 20_000  # YAML values, aliases counted each time they are used
MAX_DEPTH = 32  # the format nests at most 6 deep
MIN_LEVEL, MAX_LEVEL = -1, 9

# --------------------------------------------------------------------------- hexes

_COLUMNS = [chr(c) for c in range(ord("A"), ord("Z") + 1)] + [chr(c) * 2 for c in range(ord("A"), ord("G") + 1)]
_COLUMN_INDEX = {name: index for index, name in enumerate(_COLUMNS)}
_HEX_RE = re.compile(r"([0-9]*)([A-Z]{1,2})(0|[1-9][0-9]?)")
_LOCATION_RE = re.compile(r"(.*?)(?:@(-?[0-9]+))?")
_HEX_FORM = "a hex id like X2 or 1X2 (optional board number, column A..Z or AA..GG, row)"
_LOCATION_FORM = "a Location like X2, X2@1 or 1X2 (hex id, optional @level -1..9)"


@lru_cache(maxsize=1 << 12)
def parse_hex(text: str) -> Hex:
    """Parse a hex id ("X2", "1X2", "GG10") on the geomorphic grid; ValueError("expected ...")."""
    match = _HEX_RE.fullmatch(text)
    if match is None:
        raise ValueError(_HEX_FORM)
    board, letters, row_text = match.groups()
    col = _COLUMN_INDEX.get(letters)
    if col is None:
        raise ValueError("a hex on the board: columns A..Z then AA..GG")
    row = int(row_text)
    low = 1 if col % 2 == 0 else 0
    if not low <= row <= 10:
        raise ValueError(f"a hex on the board: column {letters} holds rows {low}..10")
    board = str(int(board)) if board else ""
    return Hex(board=board, col=col, row=row, name=f"{board}{letters}{row}")


@lru_cache(maxsize=1 << 12)
def parse_location(text: str) -> Location:
    """Parse a Location ("X2", "X2@1", "1X2", "3R6@2", "X2@-1"); ValueError("expected ...")."""
    match = _LOCATION_RE.fullmatch(text)
    assert match is not None  # the pattern matches every string
    hex_text, level_text = match.groups()
    if "@" in hex_text:
        raise ValueError(_LOCATION_FORM)
    hex_ = parse_hex(hex_text)
    level = 0 if level_text is None else int(level_text)
    if not MIN_LEVEL <= level <= MAX_LEVEL:
        raise ValueError(f"a level from {MIN_LEVEL} to {MAX_LEVEL}")
    return Location(hex_, level)


# --------------------------------------------------------------------------- counters

_MMC_RE = re.compile(r"([1-9][0-9]?)-([1-9][0-9]?)-([1-9][0-9]?)")
_LEADER_RE = re.compile(r"([1-9][0-9]?)([+-])([0-9])")
_MMC_TYPES = ("squad", "half_squad", "crew", "hero")


@lru_cache(maxsize=1 << 10)
def parse_counter(text: str, unit_type: str) -> Counter:
    """Parse a counter's printed values for a unit type; ValueError("expected ...")."""
    if unit_type in _MMC_TYPES:
        match = _MMC_RE.fullmatch(text)
        if match is None:
            raise ValueError("a counter like 4-6-7 (FP-range-morale)")
        fp, range_, morale = (int(g) for g in match.groups())
        return Counter(text=text, fp=fp, range=range_, morale=morale)
    if unit_type == "leader":
        match = _LEADER_RE.fullmatch(text)
        if match is None:
            raise ValueError("a leader counter like 8-1, 7-0 or 6+1 (morale and leadership DRM)")
        morale, sign, drm = int(match.group(1)), match.group(2), int(match.group(3))
        return Counter(text=text, morale=morale, leadership=drm if sign == "+" else -drm)
    return Counter(text=text)


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
        got = "nothing" if data is None else _got(data)
        raise InputError(name, 1, "", "a mapping (the situation)" + (", the file is empty" if data is None else ""),
                         None if data is None else got)
    doc = Document(name, lines, texts)
    raw_expect = data.get("expect")
    situation = doc.convert(data, S.Situation, ())
    checker = _Checker(doc, situation)
    checker.run(raw_expect)
    return checker.result()


# --------------------------------------------------------------------------- 1. YAML to values

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's parser, when PyYAML has it
_TAG = "tag:yaml.org,2002:"
_NULL = frozenset(("", "~", "null", "Null", "NULL"))
_BOOL = {w: True for w in ("true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON")}
_BOOL.update({w: False for w in ("false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF")})
_INT_RE = re.compile(r"[-+]?(0|[1-9][0-9]*)")
_DECIMAL_RE = re.compile(r"[-+]?([0-9]+\.[0-9]*|\.[0-9]+)([eE][-+]?[0-9]{1,3})?|[-+]?[0-9]+[eE][-+]?[0-9]{1,3}")
_MAX_DIGITS = 30


def _scalar(value: str, plain: bool, tag: str | None) -> Any:
    """A scalar's value by the format's one table: in plain style, null, true/false, decimal
    whole numbers (int) and decimals (an exact Fraction); everything else is text."""
    if tag in (None, "!"):
        if not plain:
            return value
    elif tag == _TAG + "str":
        return value
    if value in _NULL:
        return None
    flag = _BOOL.get(value)
    if flag is not None:
        return flag
    if len(value) <= _MAX_DIGITS:
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
    anchors: dict[str, tuple[Any, int]] = {}
    stack: list[list] = []  # frames: [container, path, pending key or None, key line, size]
    root: list[Any] = []
    count = 0
    documents = 0

    def fail(line: int | None, expected: str, got: object = None) -> NoReturn:
        raise InputError(name, line, _path_text(next_path()), expected, got)

    def next_path() -> tuple:
        """Where the value being read goes."""
        if not stack:
            return ()
        container, path, key = stack[-1][0], stack[-1][1], stack[-1][2]
        if isinstance(container, list):
            return path + (len(container),)
        return path + (key,) if key is not None else path

    def place(value: Any, line: int, size: int) -> tuple | None:
        """Put a finished value into its container; returns its path."""
        nonlocal count
        count += size
        if count > MAX_NODES:
            fail(line, f"at most {MAX_NODES} YAML values (aliases counted each time they are used)")
        if not stack:
            root.append(value)
            lines[()] = (line, line)
            return ()
        frame = stack[-1]
        container, path = frame[0], frame[1]
        frame[4] += size
        if isinstance(container, list):
            here = path + (len(container),)
            container.append(value)
            lines[here] = (line, line)
            return here
        if frame[2] is None:  # a key
            if isinstance(value, (dict, list)) or not isinstance(value, str):
                kind = "a mapping" if isinstance(value, dict) else "a list" if isinstance(value, list) else value
                raise InputError(name, line, _path_text(path), "a text key (quote keys like '467' or 'yes')", kind)
            if value in container:
                first = lines[path + (value,)][1]
                raise InputError(name, line, _path_text(path + (value,)),
                                 f"each key once, '{value}' is already given at line {first}")
            frame[2], frame[3] = value, line
            return None
        key = frame[2]
        container[key] = value
        frame[2] = None
        here = path + (key,)
        lines[here] = (line, frame[3])
        return here

    try:
        for event in yaml.parse(text, Loader=_LOADER):
            kind = type(event)
            line = event.start_mark.line + 1 if event.start_mark is not None else None
            if kind is yaml.ScalarEvent:
                tag = event.tag
                if tag not in (None, "!", _TAG + "str", _TAG + "int", _TAG + "float", _TAG + "bool", _TAG + "null"):
                    fail(line, "a plain YAML value (no tag like !!binary or !custom)", tag)
                value = _scalar(event.value, event.implicit[0], tag)
                if event.anchor:
                    anchors[event.anchor] = (value, 1)
                here = place(value, line, 1)
                if here is not None and not isinstance(value, str):
                    texts[here] = event.value
            elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
                if event.tag not in (None, "!", _TAG + "map", _TAG + "seq"):
                    fail(line, "a plain YAML value (no tag like !!binary or !custom)", event.tag)
                if len(stack) >= MAX_DEPTH:
                    fail(line, f"YAML nested at most {MAX_DEPTH} deep")
                container: Any = {} if kind is yaml.MappingStartEvent else []
                parent_path = stack[-1][1] if stack else ()
                if stack and isinstance(stack[-1][0], dict) and stack[-1][2] is None:
                    raise InputError(name, line, _path_text(parent_path), "a text key (quote keys like '467' or 'yes')",
                                     "a mapping" if isinstance(container, dict) else "a list")
                stack.append([container, None, None, 0, 1, event.anchor, line])
                # the path is known once the value is placed; reserve it now
                if len(stack) == 1:
                    stack[-1][1] = ()
                else:
                    parent = stack[-2]
                    stack[-1][1] = parent[1] + ((len(parent[0]),) if isinstance(parent[0], list) else (parent[2],))
            elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                frame = stack.pop()
                container, size, anchor, start = frame[0], frame[4], frame[5], frame[6]
                if frame[2] is not None:  # pragma: no cover - the parser pairs keys and values
                    fail(line, "a value for every key")
                if anchor:
                    anchors[anchor] = (container, size)
                count -= size - 1  # its members were counted as they were placed
                place(container, start, size)
            elif kind is yaml.AliasEvent:
                found = anchors.get(event.anchor)
                if found is None:  # pragma: no cover - the parser rejects unknown anchors
                    fail(line, f"an anchor &{event.anchor} defined before its alias")
                value, size = found
                place(value, line, size)
            elif kind is yaml.DocumentStartEvent:
                documents += 1
                if documents > 1:
                    fail(line, "one YAML document (no second '---')")
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        problem = (error.problem or error.context or "").strip()
        line = mark.line + 1 if mark is not None else None
        if "nesting depth" in problem:  # PyYAML 6.0.4 and later stop deep nesting themselves
            raise InputError(name, line, "", f"YAML nested at most {MAX_DEPTH} deep") from None
        raise InputError(name, line, "", "a YAML document", problem) from None
    except yaml.reader.ReaderError as error:
        line = text.count("\n", 0, error.position) + 1
        raise InputError(name, line, "", "a YAML document",
                         f"unacceptable character #x{error.character:04x}") from None
    except yaml.YAMLError as error:
        raise InputError(name, None, "", "a YAML document", str(error)) from None
    return (root[0] if root else None), lines, texts


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
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Fraction):
        return _fmt(value)
    return value


def _fmt(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else (repr(float(x)) if (x * S.SCALE).denominator == 1
                                                          else str(float(x)))


# --------------------------------------------------------------------------- 2. values to Structs


def _dec_hook(tp: type, obj: Any) -> Any:
    if tp is Fraction and isinstance(obj, (int, Fraction)) and not isinstance(obj, bool):
        return Fraction(obj)
    raise ValueError("not a number")


_ERROR_RE = re.compile(r"(.*?)(?: - at (?:`key` in )?`\$(.*)`)?", re.DOTALL)
_PATH_TOKEN_RE = re.compile(r"\.([^.\[]+)|\[(\d+|\.\.\.)\]")


@dataclass
class Document:
    """A file's values with their lines; converts parts of it into schema types."""

    name: str
    lines: dict[tuple, tuple[int, int]]
    texts: dict[tuple, str] = field(default_factory=dict)

    def line(self, path: tuple, key: bool = False) -> int | None:
        return line_at(self.lines, path, key)

    def fail(self, path: tuple, expected: str, got: object = None, *, key: bool = False) -> NoReturn:
        raise InputError(self.name, self.line(path, key), _path_text(path), expected, got)

    def convert(self, value: Any, tp: Any, path: tuple) -> Any:
        if self.texts:
            value = self.as_written(value, tp, path)
        try:
            return msgspec.convert(value, tp, strict=True, dec_hook=_dec_hook)
        except msgspec.ValidationError as error:
            self._explain(str(error), value, tp, path)

    def as_written(self, value: Any, tp: Any, path: tuple) -> Any:
        """`value` with each number, flag or null that stands where the schema wants text (an id,
        a side, a title) replaced by its source text, as version 1 reads it."""
        if isinstance(value, dict):
            return {k: self.as_written(v, _member_type(tp, k), path + (k,)) for k, v in value.items()}
        if isinstance(value, list):
            return [self.as_written(v, _member_type(tp, i), path + (i,)) for i, v in enumerate(value)]
        if isinstance(value, str) or value is None and path not in self.texts:
            return value
        if _strict(tp):
            return value
        accepts = _accepts(tp)
        own = _OWN[type(value)]
        if str in accepts and not accepts & own and path in self.texts:
            return self.texts[path]
        return value

    def _explain(self, message: str, value: Any, tp: Any, base: tuple) -> NoReturn:
        """Turn msgspec's message into ours: the path in the file, its line, what the schema
        expects there (in words made from the schema) and what the file has."""
        match = _ERROR_RE.fullmatch(message)
        assert match is not None
        problem, where = match.group(1), match.group(2) or ""
        at, at_type, path = value, tp, base
        for name, index in _PATH_TOKEN_RE.findall(where):
            if index == "...":  # msgspec does not say which key of a mapping: find it
                self._find_in_mapping(at, at_type, path)
                self.fail(path, describe(at_type), _got(at))
            step: Any = int(index) if index else name
            if isinstance(at, list) and isinstance(step, int) and step < len(at) or isinstance(at, dict) and step in at:
                at = at[step]
            else:
                at = None
            at_type = _member_type(at_type, step)
            path = path + (step,)
        unknown = re.match(r"Object contains unknown field `(.*)`", problem)
        if unknown:
            key = unknown.group(1)
            self.fail(path + (key,), f"one of the keys {', '.join(_keys(at_type))}", key, key=True)
        missing = re.match(r"Object missing required field `(.*)`", problem)
        if missing:
            self.fail(path + (missing.group(1),), f"a field '{missing.group(1)}' (required)")
        if isinstance(at, dict) and problem.endswith("- at `key"):  # pragma: no cover - handled above
            self._find_in_mapping(at, at_type, path)
        self.fail(path, describe(at_type), _got(at))

    def _find_in_mapping(self, at: Any, at_type: Any, path: tuple) -> None:
        """Convert each key and value of a mapping alone: the first that fails raises its error."""
        import typing

        for option in _options(at_type):
            if typing.get_origin(option) is dict and isinstance(at, dict):
                key_type, value_type = typing.get_args(option)
                for k, v in at.items():
                    try:
                        msgspec.convert(k, key_type, strict=True)
                    except msgspec.ValidationError:
                        self.fail(path + (k,), describe(key_type), k, key=True)
                    self.convert(v, value_type, path + (k,))


# --------------------------------------------------------------------------- schema introspection

_OWN = {bool: {bool}, int: {int, Fraction}, Fraction: {Fraction}, type(None): {type(None)}}


@lru_cache(maxsize=1024)
def _accepts(tp: Any) -> frozenset:
    return frozenset(_options(tp))



def _unwrap(tp: Any) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """A type without Annotated: (type, msgspec constraints, extra metadata)."""
    constraints: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    while getattr(tp, "__metadata__", None) is not None:
        for meta in tp.__metadata__:
            if isinstance(meta, msgspec.Meta):
                for key in ("ge", "le", "pattern", "min_length", "max_length"):
                    if getattr(meta, key) is not None:
                        constraints.setdefault(key, getattr(meta, key))
                if meta.extra:
                    extra = {**meta.extra, **extra}
                if meta.description:
                    extra.setdefault("description", meta.description)
        tp = tp.__origin__
    return tp, constraints, extra


@lru_cache(maxsize=1024)
def _options(tp: Any) -> list[Any]:
    """The alternatives of a union, nested and annotated ones flattened (or the type itself)."""
    return [inner for inner, _, _ in _flat(tp, {})]


@cache
def struct_fields(cls: type) -> dict[str, tuple[str, Any, dict[str, Any]]]:
    """A Struct's fields by their name in the file: (attribute, type, extra metadata)."""
    hints = _hints(cls)
    out = {}
    for attr, encoded in zip(cls.__struct_fields__, cls.__struct_encode_fields__):
        tp = hints[attr]
        extra: dict[str, Any] = {}
        for _, _, found in _flat(tp, {}):  # `Annotated[int, Meta(...)] | None`: the metadata is inside
            extra.update(found)
        out[encoded] = (attr, tp, extra)
    return out


def _hints(cls: type) -> dict[str, Any]:
    import typing

    return typing.get_type_hints(cls, include_extras=True)


def _keys(tp: Any) -> list[str]:
    for option in _options(tp):
        if isinstance(option, type) and issubclass(option, msgspec.Struct):
            return list(struct_fields(option))
    return []


def _member_type(tp: Any, step: Any) -> Any:
    """The declared type of a field (str step), list item or mapping value (int step) of `tp`."""
    try:
        return _member_type_cached(tp, 0 if isinstance(step, int) else step if step in _field_names() else None)
    except TypeError:  # an unhashable type: not from the schema
        return Any


_STRUCTS = frozenset(v for v in vars(S).values() if isinstance(v, type) and issubclass(v, msgspec.Struct))


@cache
def _walk_plan(cls: type) -> tuple[tuple[str, str, Any, dict[str, Any]], ...]:
    """The fields of a Struct the checks must look at: those with a `kind`, an exact number, or
    values inside (a flag, a whole number or a word was checked by msgspec already)."""
    import typing

    def deep(tp: Any) -> bool:
        import typing

        for inner, _, extra in _flat(tp, {}):
            if extra.get("kind") or inner is Fraction or inner is Any or inner in _STRUCTS:
                return True
            if typing.get_origin(inner) in (list, dict) and any(deep(a) for a in typing.get_args(inner)):
                return True
        return False

    return tuple((encoded, attr, tp, extra) for encoded, (attr, tp, extra) in struct_fields(cls).items()
                 if extra.get("kind") or deep(tp) or any(typing.get_origin(i) is list for i in _options(tp)))


@lru_cache(maxsize=256)
def _strict(tp: Any) -> bool:
    """A field whose values are never taken as written (a rule id is never a number or a flag)."""
    return any(extra.get("strict") for _, _, extra in _flat(tp, {}))


@lru_cache(maxsize=1)
def _field_names() -> frozenset[str]:
    """Every field name of the schema (other keys are a mapping's own: ids, Locations)."""
    structs = [v for v in vars(S).values() if isinstance(v, type) and issubclass(v, msgspec.Struct)]
    return frozenset(name for cls in structs for name in cls.__struct_encode_fields__)


@lru_cache(maxsize=4096)
def _member_type_cached(tp: Any, step: Any) -> Any:
    import typing

    for option in _options(tp):
        if isinstance(option, type) and issubclass(option, msgspec.Struct) and isinstance(step, str) and step:
            found = struct_fields(option).get(step)
            if found:
                return found[1]
        origin = typing.get_origin(option)
        if origin is list and isinstance(step, int):
            return typing.get_args(option)[0]
        if origin is dict and not isinstance(step, int):
            return typing.get_args(option)[1]
    return Any


def describe(tp: Any, brief: bool = False) -> str:
    """What a value of this schema type looks like, in the words of an error message (`brief`: a
    mapping of the format is named, not listed, as in the field reference)."""
    import typing

    parts = [_describe_one(inner, constraints, extra, typing, brief) for inner, constraints, extra in _flat(tp, {})
             if inner is not type(None)]
    return " or ".join(dict.fromkeys(parts)) or "a value"


def _flat(tp: Any, outer: dict[str, Any]) -> list[tuple[Any, dict[str, Any], dict[str, Any]]]:
    """The alternatives of a (nested, annotated) union: (type, constraints, metadata)."""
    if not outer:
        return _flat_cached(tp)
    return _flat_uncached(tp, outer)


@lru_cache(maxsize=1024)
def _flat_cached(tp: Any) -> list[tuple[Any, dict[str, Any], dict[str, Any]]]:
    return _flat_uncached(tp, {})


def _flat_uncached(tp: Any, outer: dict[str, Any]) -> list[tuple[Any, dict[str, Any], dict[str, Any]]]:
    import types
    import typing

    inner, constraints, extra = _unwrap(tp)
    extra = {**outer, **extra}
    if typing.get_origin(inner) in (typing.Union, types.UnionType):
        return [x for option in typing.get_args(inner) for x in _flat(option, extra)]
    return [(inner, constraints, extra)]


def _describe_one(inner: Any, constraints: dict[str, Any], extra: dict[str, Any], typing: Any,
                  brief: bool = False) -> str:
    kind = extra.get("kind")
    if kind == "hex":
        return _HEX_FORM
    if kind == "location" and inner is str:
        return _LOCATION_FORM
    if typing.get_origin(inner) is typing.Literal:
        values = typing.get_args(inner)
        return "one of " + ", ".join(str(v) for v in values)
    if kind in ("hexspine", "hexside") and inner is str:
        return _HEX_FORM
    if inner is bool:
        return "true or false"
    if inner is int:
        low, high = constraints.get("ge"), constraints.get("le")
        if low is not None and high is not None:
            return f"a whole number from {low} to {high}"
        return "a whole number"
    if inner is Fraction:
        return f"a number from {extra.get('min', 0)} to {extra.get('max', 999)} (like 4 or 1.5)"
    if inner is str:
        if kind in ("id", "unit", "weapon", "leader", "any"):
            return "an id of letters, digits, '-' and '_'"
        if kind == "side":
            return "a side name of letters, digits, '-' and '_'"
        if "pattern" in constraints and "L|LL" in constraints["pattern"]:
            return "a calibre in mm like 75L, 37LL or 20L"
        if "pattern" in constraints and "A-Za-z0-9][" in constraints["pattern"]:
            return "a rule id like A8.312"
        return f"a text of at most {constraints.get('max_length', S.TEXT_MAX)} characters"
    if isinstance(inner, type) and issubclass(inner, msgspec.Struct):
        if brief:
            return f"a mapping ({inner.__name__})"
        return "a mapping with the keys " + ", ".join(struct_fields(inner))
    if inner is Any and extra.get("description"):
        return extra["description"]
    origin = typing.get_origin(inner)
    if origin is list:
        item = describe(typing.get_args(inner)[0], brief)
        if kind == "hexspine":
            return "a hexspine: two hexes like [X3, Y3], both adjacent to the unit's hex"
        if kind == "hexside":
            return "two adjacent hexes like [H7, G7] (a hexside)"
        n = constraints.get("max_length")
        return f"a list of {item}" + (f" (at most {n})" if n else "")
    if origin is dict:
        key_type, value_type = typing.get_args(inner)
        key = _LOCATION_FORM if kind == "location" else describe(key_type, brief)
        if kind in ("unit", "weapon", "any"):
            key = f"a {'unit or weapon' if kind == 'any' else kind} id"
        value = extra.get("description", "") if value_type is Any else describe(value_type, brief)
        return f"a mapping of {key} -> {value}"
    return "a value"


# --------------------------------------------------------------------------- 3. checks by the schema


@dataclass
class _Defined:
    kind: str  # "unit" or "weapon"
    unit_type: str
    side: str
    path: tuple




class _Checker:
    """Walks the converted situation by its schema: numbers, hexes, ids, references, and the
    checks between fields."""

    def __init__(self, doc: Document, situation: S.Situation):
        self.doc = doc
        self.sit = situation
        self.defined: dict[str, _Defined] = {}
        self.refs: list[tuple[tuple, str, str]] = []  # (path, id, want)
        self.hexes: list[tuple[tuple, str]] = []  # (path, hex text) of every hex id met
        self.boards: set[str] = set()
        self.expect: list[Expectation] = []
        self.asked: list[Expectation] = []

    # -- generic walk

    def walk(self, obj: Any, path: tuple) -> None:
        """Check every field of a Struct by its metadata, and recurse."""
        for encoded, attr, tp, extra in _walk_plan(type(obj)):
            value = getattr(obj, attr)
            if value is None:
                continue
            self.check_value(value, path + (encoded,), extra, tp)

    def check_value(self, value: Any, path: tuple, extra: dict[str, Any], tp: Any) -> None:
        if type(value) in _STRUCTS:
            self.walk(value, path)
            return
        kind = extra.get("kind")
        if isinstance(value, Fraction):
            self.number(value, path, extra)
        elif isinstance(value, list):
            for i, item in enumerate(value):
                if type(item) in _STRUCTS:
                    self.walk(item, path + (i,))
                elif kind in ("hexspine", "hexside"):
                    self.hex(item, path + (i,))
                elif kind == "location":
                    self.location(item, path + (i,))
                elif kind in ("unit", "weapon", "leader", "any"):
                    self.refs.append((path + (i,), item, kind))
            if kind in ("unit", "weapon", "leader", "any"):
                self.distinct(value, path, "each id once")
            elif kind == "location":
                self.distinct(value, path, "each Location once")
            elif extra.get("fact") and value and isinstance(value[0], str):
                self.distinct(value, path, f"each {path[-1]} word once")
        elif isinstance(value, dict):
            for key, item in value.items():
                if kind == "location":
                    self.location(key, path + (key,), key=True)
                elif kind in ("unit", "weapon", "any"):
                    self.refs.append((path + (key,), key, kind))
                if type(item) in _STRUCTS:
                    self.walk(item, path + (key,))
                elif isinstance(item, Fraction):
                    self.number(item, path + (key,), {"min": 0, "max": 99})
        elif isinstance(value, str):
            if kind == "hex":
                self.hex(value, path)
            elif kind == "location":
                self.location(value, path)
            elif kind in ("unit", "weapon", "leader", "any"):
                self.refs.append((path, value, kind))

    def distinct(self, values: list, path: tuple, expected: str) -> None:
        seen: set = set()
        for i, v in enumerate(values):
            if v in seen:
                self.doc.fail(path + (i,), expected, v)
            seen.add(v)

    def number(self, value: Fraction, path: tuple, extra: dict[str, Any]) -> None:
        low, high = extra.get("min", 0), extra.get("max", 999)
        if not low <= value <= high:
            self.doc.fail(path, f"a number from {low} to {high} (like 4 or 1.5)", self.doc.texts.get(path, _fmt(value)))
        if (value * S.SCALE).denominator != 1:
            self.doc.fail(path, f"a multiple of 1/{S.SCALE} (like 10.5 or 0.25)", self.doc.texts.get(path, _fmt(value)))

    def hex(self, text: str, path: tuple) -> None:
        try:
            h = parse_hex(text)
        except ValueError as error:
            self.doc.fail(path, str(error), text)
        self.hexes.append((path, text))
        if h.board:
            self.boards.add(h.board)

    def location(self, text: str, path: tuple, key: bool = False) -> None:
        try:
            loc = parse_location(text)
        except ValueError as error:
            self.doc.fail(path, str(error), text, key=key)
        self.hexes.append((path, text))
        if loc.hex.board:
            self.boards.add(loc.hex.board)

    # -- the situation

    def run(self, raw_expect: Any) -> None:
        sit = self.sit
        self.walk(sit, ())
        for i, unit in enumerate(sit.units):
            self.unit(unit, ("units", i))
        for i, los in enumerate(sit.lines_of_sight):
            if (los.to is None) == (los.to_hexside is None):
                self.doc.fail(("lines_of_sight", i), "exactly one of 'to' and 'to_hexside'")
            if los.to is None and not los.center_dot:
                self.doc.fail(("lines_of_sight", i, "center_dot"), "center_dot only on a line of sight `to` a hex",
                              False)
        self.residual_maps()
        for i, item in enumerate(sit.expect):
            self.expect.append(self.expectation(item, ("expect", i)))
        for i, item in enumerate(sit.ask):
            self.asked.append(self.expectation(item, ("ask", i), answers=False))
        self.boards_resolved()
        for key in ("locations", "residual_fp", "fire_lane_residual"):
            self.same_locations((key,), getattr(sit, key))
        for path, ident, want in sorted(self.refs, key=lambda r: self.doc.line(r[0]) or 0):
            self.resolve(path, ident, want)
        self.cross_checks()

    def unit(self, unit: S.Unit, path: tuple) -> None:
        self.define(unit.id, path + ("id",), "unit", unit.type, unit.side)
        self.only(unit, unit.type, path)
        if unit.counter is None:
            if unit.type in S.COUNTER_REQUIRED:
                self.doc.fail(path + ("counter",), f"a field 'counter' (required for a {unit.type})")
        else:
            try:
                parse_counter(unit.counter, unit.type)
            except ValueError as error:
                self.doc.fail(path + ("counter",), f"{error} for a {unit.type}", unit.counter)
        if unit.tca is not None:
            if unit.turret not in ("T", "ST"):
                self.doc.fail(path + ("tca",), "'tca' only on a vehicle with a turret (turret: T or ST)", key=True)
            facing = isinstance(unit.tca, str)
            if facing != (unit.bypass is not None):
                want = (f"a facing: {', '.join(S.words(S.BypassFacing))} (in Bypass the TCA points to a facing, D2.32)"
                        if unit.bypass is not None else "a hexspine: two hexes like [X3, Y3]")
                self.doc.fail(path + ("tca",), want, _got(unit.tca))
            if not facing:
                for k, h in enumerate(unit.tca):
                    self.hex(h, path + ("tca", k))
        for key in ("previous_vca", "bypass"):
            if _given(unit, key) and unit.vca is None:
                self.doc.fail(path + (key,), f"a 'vca' with '{key}'", key=True)
        for j, weapon in enumerate(unit.weapons):
            wpath = path + ("weapons", j)
            self.define(weapon.id, wpath + ("id",), "weapon", weapon.kind, unit.side)
            vehicle = unit.type == "vehicle"
            for key in ("ca", "turret"):
                if vehicle and _given(weapon, key):
                    self.doc.fail(wpath + (key,), f"'{key}' only on a weapon of a unit that is not a vehicle "
                                  "(a vehicle's weapons use its vca/tca)", key=True)
            if weapon.mount is not None and not vehicle:
                self.doc.fail(wpath + ("mount",), "'mount' only on a vehicle's weapon", unit.type, key=True)
            self.only(weapon, weapon.kind, wpath)
            if isinstance(weapon.ca, list):
                for k, h in enumerate(weapon.ca):
                    self.hex(h, wpath + ("ca", k))
        guns = {w.id for w in unit.weapons if w.kind == "gun"}
        for j, weapon in enumerate(unit.weapons):
            if weapon.of_gun is not None and weapon.of_gun not in guns:
                self.doc.fail(path + ("weapons", j, "of_gun"), f"one of {unit.id}'s own Guns (kind gun)", weapon.of_gun)
        for k, shot in enumerate(unit.shots):
            if shot.weapon not in {w.id for w in unit.weapons}:
                self.doc.fail(path + ("shots", k, "weapon"), f"one of {unit.id}'s own weapons", shot.weapon)
            if isinstance(shot.ca, list):
                for j, h in enumerate(shot.ca):
                    self.hex(h, path + ("shots", k, "ca", j))
            elif shot.ca is not None and unit.bypass is None:
                self.doc.fail(path + ("shots", k, "ca"), "a hexspine: two hexes like [X3, Y3] (a facing only for a "
                              "vehicle in Bypass, D2.32)", shot.ca)
        if unit.moving is not None and unit.moving.expenditures:
            self.expenditures(unit.moving, path + ("moving",))
        if unit.moving is not None:
            for k, attack in enumerate(unit.attacked_here):
                if attack.at_mf is not None and attack.at_mf > unit.moving.mf_here:
                    self.doc.fail(path + ("attacked_here", k, "at_mf"),
                                  f"an MF count at most mf_here ({_fmt(unit.moving.mf_here)})", _fmt(attack.at_mf))
                ends = _expenditure_ends(unit.moving)
                if attack.at_mf is not None and ends and attack.at_mf not in ends:
                    self.doc.fail(path + ("attacked_here", k, "at_mf"), "the MF count after one of its expenditures ("
                                  + ", ".join(_fmt(e) for e in ends) + ")", _fmt(attack.at_mf))

    def expenditures(self, moving: S.Moving, path: tuple) -> None:
        """`expenditures` is the long form of `mf_here` and `activities`: their sum and its last item's."""
        total = sum((e.mf for e in moving.expenditures), Fraction(0))
        if _given(moving, "mf_here") and moving.mf_here != total:
            self.doc.fail(path + ("mf_here",), f"the sum of the expenditures' mf ({_fmt(total)}), or no mf_here",
                          _fmt(moving.mf_here))
        if moving.activities:
            self.doc.fail(path + ("activities",), "no 'activities' beside 'expenditures': the current (last) "
                          "expenditure's activities say what it does", key=True)
        moving.mf_here = total
        moving.activities = list(moving.expenditures[-1].activities)

    def only(self, obj: Any, owner: str, path: tuple) -> None:
        """Fields the schema allows only on some unit types or weapon kinds (`only`)."""
        for encoded, (attr, _, extra) in struct_fields(type(obj)).items():
            only = extra.get("only")
            if only is not None and owner not in (only if isinstance(only, tuple) else (only,)) \
                    and _given(obj, encoded):
                what = f"a {only}" if isinstance(only, str) else f"a weapon of kind {', '.join(only)}"
                self.doc.fail(path + (encoded,), f"'{encoded}' only on {what}", owner, key=True)

    def define(self, ident: str, path: tuple, kind: str, unit_type: str, side: str) -> None:
        first = self.defined.get(ident)
        if first is not None:
            self.doc.fail(path, f"a unique id, '{ident}' is already used at line {self.doc.line(first.path)} "
                          f"({_path_text(first.path)})")
        self.defined[ident] = _Defined(kind, unit_type, side, path)

    def residual_maps(self) -> None:
        sit = self.sit
        for key, value in sit.residual_fp.items():
            path = ("residual_fp", key)
            if isinstance(value, dict):
                counter = self.doc.convert(value, S.ResidualCounter, path)
                self.number(counter.fp, path + ("fp",), {"min": 0, "max": 99})
                sit.residual_fp[key] = counter
            elif isinstance(value, (int, Fraction)) and not isinstance(value, bool):
                sit.residual_fp[key] = Fraction(value)
                self.number(sit.residual_fp[key], path, {"min": 0, "max": 99})
            else:
                self.doc.fail(path, "a number from 0 to 99 (like 4 or 1.5), or {fp: N, crest: true}", _got(value))

    def same_locations(self, path: tuple, mapping: dict[str, Any]) -> None:
        seen: dict[Location, str] = {}
        for key in mapping:
            loc = parse_location(self.canonical(key))
            if loc in seen:
                self.doc.fail(path + (key,), f"each Location once, {loc.name} is already given as "
                              f"'{seen[loc]}' at line {self.doc.line(path + (seen[loc],))}", key=True)
            seen[loc] = key

    # -- expectations

    def expectation(self, item: Any, path: tuple, answers: bool = True) -> Expectation:
        """An `expect` item (a question and the answer fields a source states), or with
        `answers=False` an `ask` item (a question alone)."""
        what = "a mapping with a question (attack) and answer fields" if answers else "a mapping with a question"
        if not isinstance(item, dict):
            self.doc.fail(path, what, _got(item))
        kinds = [k for k in S.QUESTIONS if k in item]
        if len(kinds) != 1:
            self.doc.fail(path, f"exactly one question key among {', '.join(S.QUESTIONS)}")
        kind = kinds[0]
        part = item.get("part")
        if part is not None and not (isinstance(part, str) and re.fullmatch(S.PART_PATTERN, part)):
            self.doc.fail(path + ("part",), "a part label: a letter or a short name (a, b, 1, ...)", part)
        rest = {k: v for k, v in item.items() if k not in (kind, "part")}
        if not answers:
            for key in rest:
                self.doc.fail(path + (key,), f"a question only, among {', '.join(S.QUESTIONS)} (answer fields "
                              "belong to an `expect` item)", key, key=True)
            question = self.doc.convert(item[kind], S.QUESTIONS[kind], path + (kind,))
            self.walk(question, path + (kind,))
            self.question(kind, question, path + (kind,))
            return Expectation(kind=kind, question=question, line=self.doc.line(path) or 0, part=part)
        answer_type = S.ANSWERS[kind]
        allowed = list(struct_fields(answer_type))
        for key in rest:
            if key not in allowed:
                self.doc.fail(path + (key,), f"an answer field of {_article(kind)} {kind} question: {', '.join(allowed)}", key,
                              key=True)
        question = self.doc.convert(item[kind], S.QUESTIONS[kind], path + (kind,))
        answer = self.doc.convert(rest, answer_type, path)
        self.walk(question, path + (kind,))
        self.walk(answer, path)
        self.question(kind, question, path + (kind,))
        given = [k for k in allowed if k in rest]
        answers = {k: getattr(answer, struct_fields(answer_type)[k][0]) for k in given if k not in ("verdict", "because")}
        if isinstance(answers.get("facing"), str):
            answers["facing"] = (answers["facing"],)
        return Expectation(kind=kind, question=question, verdict=answer.verdict, because=tuple(answer.because),
                           answers=answers, line=self.doc.line(path) or 0, given=frozenset(given), part=part)

    def question(self, kind: str, q: Any, path: tuple) -> None:
        if kind == "attack":
            if not q.firers and q.option != "residual_fp":
                self.doc.fail(path + ("firers",), "at least one firer (only a residual_fp attack has none)")
            if not q.targets:
                self.doc.fail(path + ("targets",), "at least one target unit id")
            if isinstance(q.option, dict):
                for key in q.option:
                    if key not in q.firers:
                        self.doc.fail(path + ("option", key), f"a firer among {', '.join(q.firers) or '(none)'}",
                                      key, key=True)
                missing = [f for f in q.firers if f not in q.option]
                if missing:
                    self.doc.fail(path + ("option",), f"an option for every firer, missing {', '.join(missing)}")
            for i, w in enumerate(q.keep_rof):
                if w not in q.firers:
                    self.doc.fail(path + ("keep_rof", i),
                                  f"a weapon among the firers ({', '.join(q.firers) or 'none'}), each once", w)
            if q.fire_lane is not None and q.fire_lane not in q.firers:
                self.doc.fail(path + ("fire_lane",), f"a weapon among the firers ({', '.join(q.firers) or 'none'})",
                              q.fire_lane)
            for i, u in enumerate(q.random_selection):
                if u in q.random_selection[:i]:
                    self.doc.fail(path + ("random_selection", i), "each unit once", u)
            if q.hexside is not None:
                for k, h in enumerate(q.hexside):
                    self.hex(h, path + ("hexside", k))
            d = q.dice
            if d is not None and d.original is not None and d.colored is not None \
                    and not 1 <= d.original - d.colored <= 6:
                self.doc.fail(path + ("dice",), "dice whose total minus the colored die is 1..6",
                              f"original {d.original}, colored {d.colored}")
        elif kind in ("case_a", "gun_elevation") and (q.target is None) == (q.at is None):
            self.doc.fail(path, "exactly one of 'target' and 'at'")
        elif kind == "ca_change":
            if isinstance(q.to, list):
                for k, h in enumerate(q.to):
                    self.hex(h, path + ("to", k))
            if q.arc is not None:
                self.refs.append((path + ("arc",), q.firer, "vehicle"))

    # -- ids and boards

    def resolve(self, path: tuple, ident: str, want: str) -> None:
        defined = self.defined.get(ident)
        if want == "leader":
            ok = defined is not None and defined.kind == "unit" and defined.unit_type == "leader"
        elif want == "any":
            ok = defined is not None
        elif want == "vehicle":
            if defined is None or defined.kind != "unit" or defined.unit_type != "vehicle":
                self.doc.fail(path, "'arc' only when the firer is a vehicle", _got(path[-1]))
            return
        else:
            ok = defined is not None and defined.kind == want
        if not ok:
            what = "a unit or weapon" if want == "any" else f"a {want}"
            found = ""
            if defined is not None:
                desc = defined.unit_type if defined.kind == "unit" else f"{defined.unit_type} weapon"
                found = f" ('{ident}' is the {desc} at line {self.doc.line(defined.path)})"
            self.doc.fail(path, f"the id of {what} defined in units{found}", ident, key=path[-1] == ident)

    def boards_resolved(self) -> None:
        """Unprefixed hex ids take the board of the file's prefixed ones; with two boards every id needs one."""
        boards = sorted(self.boards)
        unprefixed = [(p, t) for p, t in self.hexes if not parse_location(t).hex.board]
        if unprefixed and len(boards) >= 2:
            path, text = min(unprefixed, key=lambda x: self.doc.line(x[0]) or 0)
            self.doc.fail(path, f"a board-prefixed hex id, this file uses boards {_and(boards)}", text)
        self.board = boards[0] if unprefixed and boards else ""

    def cross_checks(self) -> None:
        sit = self.sit
        sides = sorted({u.side for u in sit.units})
        if sides and sit.attacker not in sides:
            self.doc.fail(("attacker",), f"a side that some unit has: {', '.join(sides)}", sit.attacker)
        by_fold: dict[str, str] = {}
        for i, u in enumerate(sit.units):
            other = by_fold.setdefault(u.side.casefold(), u.side)
            if other != u.side:
                self.doc.fail(("units", i, "side"), f"one spelling of a side: '{other}' is used already", u.side)
        if len(sides) > 2:
            i, u = next((i, u) for i, u in enumerate(sit.units) if u.side not in (sit.attacker, _first_other(sit)))
            self.doc.fail(("units", i, "side"), f"the ATTACKER's side ({sit.attacker}) or the DEFENDER's "
                          f"({_first_other(sit)}): a situation has two sides", u.side)
        units = {u.id: u for u in sit.units}
        owner = {w.id: u for u in sit.units for w in u.weapons}
        for i, u in enumerate(sit.units):
            if u.moving is not None and u.side != sit.attacker:
                self.doc.fail(("units", i, "moving"), f"a moving unit of the ATTACKER's side ({sit.attacker})",
                              u.side, key=True)
            for k, attack in enumerate(u.attacked_here):
                for j, x in enumerate(attack.by):
                    other = units.get(x) or owner.get(x)
                    if other is not None and other.side == u.side:
                        self.doc.fail(("units", i, "attacked_here", k, "by", j),
                                      f"an enemy unit or weapon that attacked {u.id} (not side {u.side})", x)
            for k, x in enumerate(u.directed):
                other = units.get(x) or owner.get(x)
                if x == u.id:
                    self.doc.fail(("units", i, "directed", k), "units and weapons he directed, not the leader himself",
                                  x)
                if other is not None and other.side != u.side:
                    self.doc.fail(("units", i, "directed", k), f"a friendly unit or weapon (side {u.side})", x)
        self.lines_of_sight()

    def lines_of_sight(self) -> None:
        seen: dict[frozenset, tuple[int, S.LineOfSight]] = {}
        for i, los in enumerate(self.sit.lines_of_sight):
            if los.to is None:
                continue
            pair = frozenset((self.canonical(los.frm), self.canonical(los.to)))
            first = seen.get(pair)
            if first is not None:
                j, other = first
                same = (los.blocked, los.hindrance, los.hexside_tem, los.range, los.cliff, los.center_dot) == \
                       (other.blocked, other.hindrance, other.hexside_tem, other.range, other.cliff, other.center_dot)
                if not same:
                    self.doc.fail(("lines_of_sight", i), f"one line of sight per pair of hexes: "
                                  f"lines_of_sight[{j}] (line {self.doc.line(('lines_of_sight', j))}) "
                                  f"says otherwise for {los.frm} and {los.to}")
            else:
                seen[pair] = (i, los)

    def canonical(self, text: str) -> str:
        loc = parse_location(text)
        if loc.hex.board or not self.board:
            return text
        return self.board + text

    def result(self) -> Situation:
        return Situation(self.doc.name, self.sit, self.expect, self.board, self.doc.lines, self.asked)


def _first_other(sit: S.Situation) -> str:
    return next((u.side for u in sit.units if u.side != sit.attacker), "")


def _expenditure_ends(moving: S.Moving) -> list[Fraction]:
    """The MF count after each expenditure of `moving.expenditures` (none: the total form)."""
    ends, total = [], Fraction(0)
    for e in moving.expenditures:
        total += e.mf
        ends.append(total)
    return ends


def _given(obj: Any, key: str) -> bool:
    """The field has a value other than its default."""
    attr = struct_fields(type(obj))[key][0]
    return getattr(obj, attr) != _defaults(type(obj))[attr]


@cache
def _defaults(cls: type) -> dict[str, Any]:
    out = {}
    for f in msgspec.structs.fields(cls):
        out[f.name] = f.default_factory() if f.default_factory is not msgspec.NODEFAULT else f.default
    return out


def _article(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


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
