"""What the loader hands on: a checked situation and its expectations.

The fields themselves are the format's types (aslrules.schema); this module adds the few
values the loader derives from them (a parsed hex id, a parsed counter) and the
`Situation` that carries a file's name and its expectations.  Nothing here knows an ASL rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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
                 lines: dict[tuple, tuple[int, int]] | None = None, ask: list[Expectation] | None = None):
        self.path = path
        self.data = data
        self.expect = expect
        self.ask = ask or []  # `ask:` questions: answered by `aslrules ask`, never checked
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
