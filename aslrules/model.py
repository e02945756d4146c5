"""What the loader hands on: a checked situation and its expectations.

The fields themselves are the format's types (aslrules.schema); this module adds the few
values derived from their text (a hex id, a Location, a counter: `parse_hex`, `parse_location`,
`parse_counter`) and the `Situation` that carries a file's name and its expectations.  Nothing
here knows an ASL rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

from . import schema as S
from .schema import READINGS


@dataclass(frozen=True)
class Hex:
    """A hex id parsed on the geomorphic grid.  `board` is '' when unprefixed."""

    board: str
    col: int  # 0 = A ... 32 = GG
    row: int
    name: str  # canonical text, e.g. "X2" or "1X2"


@dataclass(frozen=True)
class Location:
    hex: Hex
    level: int = 0

    @property
    def name(self) -> str:
        return self.hex.name if self.level == 0 else f"{self.hex.name}@{self.level}"


@dataclass(frozen=True)
class Counter:
    """A parsed counter: MMC 'FP-range-morale', leader 'morale±leadership'."""

    text: str
    fp: int | None = None
    range: int | None = None
    morale: int | None = None
    leadership: int | None = None  # leader DRM (8-1 -> -1, 6+1 -> +1)


MIN_LEVEL, MAX_LEVEL = -1, 9
_COLUMNS = [chr(c) for c in range(ord("A"), ord("Z") + 1)] + [chr(c) * 2 for c in range(ord("A"), ord("G") + 1)]
_COLUMN_INDEX = {name: index for index, name in enumerate(_COLUMNS)}
_HEX_RE = re.compile(r"([0-9]*)([A-Z]{1,2})(0|[1-9][0-9]?)")
_LOCATION_RE = re.compile(r"(.*?)(?:@(-?[0-9]+))?")  # matches every string
HEX_FORM = "a hex id like X2 or 1X2 (optional board number, column A..Z or AA..GG, row)"
LOCATION_FORM = "a Location like X2, X2@1 or 1X2 (hex id, optional @level -1..9)"


@lru_cache(maxsize=1 << 12)
def parse_hex(text: str) -> Hex:
    """Parse a hex id ("X2", "1X2", "GG10") on the geomorphic grid; ValueError("expected ...")."""
    match = _HEX_RE.fullmatch(text)
    if match is None:
        raise ValueError(HEX_FORM)
    board, letters, row = match[1], match[2], int(match[3])
    col = _COLUMN_INDEX.get(letters)
    if col is None:
        raise ValueError("a hex on the board: columns A..Z then AA..GG")
    low = 1 if col % 2 == 0 else 0
    if not low <= row <= 10:
        raise ValueError(f"a hex on the board: column {letters} holds rows {low}..10")
    board = str(int(board)) if board else ""
    return Hex(board=board, col=col, row=row, name=f"{board}{letters}{row}")


@lru_cache(maxsize=1 << 12)
def parse_location(text: str) -> Location:
    """Parse a Location ("X2", "X2@1", "1X2", "3R6@2", "X2@-1"); ValueError("expected ...")."""
    hex_text, level_text = _LOCATION_RE.fullmatch(text).groups()  # type: ignore[union-attr]
    if "@" in hex_text:
        raise ValueError(LOCATION_FORM)
    hex_ = parse_hex(hex_text)
    level = 0 if level_text is None else int(level_text)
    if not MIN_LEVEL <= level <= MAX_LEVEL:
        raise ValueError(f"a level from {MIN_LEVEL} to {MAX_LEVEL}")
    return Location(hex_, level)


_MMC_RE = re.compile(r"([1-9][0-9]?)-([1-9][0-9]?)-([1-9][0-9]?)")
_LEADER_RE = re.compile(r"([1-9][0-9]?)([+-])([0-9])")


@lru_cache(maxsize=1 << 10)
def parse_counter(text: str, unit_type: str) -> Counter:
    """Parse a counter's printed values for a unit type; ValueError("expected ...")."""
    if unit_type in ("squad", "half_squad", "crew", "hero"):
        match = _MMC_RE.fullmatch(text)
        if match is None:
            raise ValueError("a counter like 4-6-7 (FP-range-morale)")
        return Counter(text=text, fp=int(match[1]), range=int(match[2]), morale=int(match[3]))
    if unit_type == "leader":
        match = _LEADER_RE.fullmatch(text)
        if match is None:
            raise ValueError("a leader counter like 8-1, 7-0 or 6+1 (morale and leadership DRM)")
        return Counter(text=text, morale=int(match[1]), leadership=int(match[3]) * (1 if match[2] == "+" else -1))
    return Counter(text=text)


def fmt_number(x: Fraction | int) -> str:
    """10.5 -> '10.5'; 14 -> '14' (FP and MF are multiples of 1/64: exact decimals)."""
    return str(x.numerator) if x.denominator == 1 else str(float(x))


@dataclass
class Expectation:
    """One `expect:` item: a question of some kind and the answer fields a source states."""

    kind: str  # a key of schema.QUESTIONS
    question: Any  # the question's Struct (schema.Attack, schema.CaseA, ...)
    verdict: str | None = None
    because: tuple[str, ...] = ()
    answers: dict[str, Any] = field(default_factory=dict)  # the other stated answer fields, by name
    line: int = 0
    given: frozenset[str] = frozenset()  # names of the answer fields present (verdict, because included)
    part: str | None = None  # the part of a multi-part ruling's answer this item states (a, b, ...)
    place: int | None = None  # a `listing:` item: its place in the listing (from 1)
    listed: bool = True  # a `listing:` item: False, it is not in the listing


def line_at(lines: dict[tuple, tuple[int, int]], path: tuple, key: bool = False) -> int | None:
    """The line of the value at `path` in a file (with `key`, of its key), or of the nearest
    enclosing value the file has (an alias's members have no lines of their own)."""
    while path not in lines and path:
        path = path[:-1]
    found = lines.get(path)
    return None if found is None else found[1] if key else found[0]


class Situation:
    """A loaded file: its name, its fields (`data`, a schema.Situation), its expectations and its
    `ask:` questions, and the board an unprefixed hex id is on ('' when the file names none)."""

    def __init__(self, path: str, data: S.Situation, expect: list[Expectation], board: str = "",
                 lines: dict[tuple, tuple[int, int]] | None = None, ask: list[Expectation] | None = None,
                 listing: list[Expectation] | None = None):
        self.path = path
        self.data = data
        self.expect = expect
        self.ask = ask or []  # `ask:` questions: answered by `aslrules ask`, never checked
        self.listing = listing or []  # `listing: attacks:` items, checked against the listing
        self.board = board
        self.lines = lines or {}  # path in the file -> (line of the value, line of its key)

    def line(self, path: tuple) -> int | None:
        """The line of a field (or of the nearest enclosing one) in the file."""
        return line_at(self.lines, path)

    def __getattr__(self, name: str) -> Any:  # title, phase, attacker, units, ...
        if name == "data":
            raise AttributeError(name)
        return getattr(self.data, name)

    @property
    def readings(self) -> dict[str, str]:
        r = self.data.readings
        return {name: getattr(r, name) for name in READINGS}
