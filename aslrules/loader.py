"""Read a situation or case file (format aslrules/1) into the model, strictly.

The contract is ../shared/spec/situation-format.md.  The file is composed into a YAML
node tree with a YAML safe loader (libyaml's when PyYAML has it) and every value is built
here from the nodes, so that each problem is reported as an InputError naming the file,
the 1-based line, the field path (``units[2].weapons[0].rof``) and what was expected.  Nothing is silently ignored:
unknown keys, wrong types, duplicate keys, undefined or duplicate ids are all errors.

The loader checks vocabulary, shapes and references only; it knows no ASL rule.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NoReturn, TypeVar

import yaml
from yaml.constructor import SafeConstructor
from yaml.reader import ReaderError
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .errors import InputError
from .model import (
    ACTIVITIES, AMMO, FIRE_COUNTERS, FIRER_STATUS, OPTIONS, PHASES, READINGS, STATUSES, TERRAINS, UNIT_TYPES,
    VERDICTS, WEAPON_KINDS, AttackedHere, AttackQuestion, Counter, Dice, Expectation, Hex,
    LineOfSight, Location, Moving, Situation, Terrain, Unit, Weapon,
)
from .model import (  # issue 5: the Covered Arc chart
    BYPASS_FACINGS, CA_ARCS, CA_QUESTION_KINDS, CA_WHEN, FACINGS, HITS, MOUNTS, TURRETS, VERTICAL_CA, CaQuestion,
    Shot, UnitCA, WeaponCA,
)

__all__ = ["load_file", "load_text", "parse_hex", "parse_location", "parse_counter"]

MAX_BYTES = 1 << 20  # 1 MiB
MAX_NODES = 20_000  # YAML nodes visited while building, aliases counted each time
FORMAT = "aslrules/1"
MIN_LEVEL, MAX_LEVEL = -1, 9

T = TypeVar("T")

# --------------------------------------------------------------------------- hexes

_COLUMNS = [chr(c) for c in range(ord("A"), ord("Z") + 1)] + [chr(c) * 2 for c in range(ord("A"), ord("G") + 1)]
_COLUMN_INDEX = {name: index for index, name in enumerate(_COLUMNS)}
_HEX_RE = re.compile(r"([0-9]*)([A-Z]{1,2})(0|[1-9][0-9]?)")
_LOCATION_RE = re.compile(r"(.*?)(?:@(-?[0-9]+))?")
_HEX_FORM = "a hex id like X2 or 1X2 (optional board number, column A..Z or AA..GG, row)"
_LOCATION_FORM = "a Location like X2, X2@1 or 1X2 (hex id, optional @level -1..9)"


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


def _with_board(hex_: Hex, board: str) -> Hex:
    return Hex(board=board, col=hex_.col, row=hex_.row, name=board + hex_.name)


def _distance(a: Hex, b: Hex) -> int:
    """Hexes between two hexes of one board (odd-index columns lie half a hex down)."""
    ax, az = a.col, a.row - (a.col - (a.col & 1)) // 2
    bx, bz = b.col, b.row - (b.col - (b.col & 1)) // 2
    dx, dz = ax - bx, az - bz
    return max(abs(dx), abs(dz), abs(dx + dz))


def _adjacent(a: Hex, b: Hex) -> bool:
    if a.board and b.board and a.board != b.board:
        return False
    return _distance(a, b) == 1


# --------------------------------------------------------------------------- counters

_MMC_RE = re.compile(r"([1-9][0-9]*)-([1-9][0-9]*)-([1-9][0-9]*)")
_LEADER_RE = re.compile(r"([1-9][0-9]*)([+-])([0-9])")
_MMC_TYPES = ("squad", "half_squad", "crew", "hero")


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
    if unit_type in ("vehicle", "gun"):
        return Counter(text=text)
    raise ValueError(f"a unit type among {', '.join(UNIT_TYPES)}")


# --------------------------------------------------------------------------- entry points


def load_file(path: str | os.PathLike[str]) -> Situation:
    """Read and check one situation or case file."""
    name = os.fspath(path)
    try:
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
    root = _compose(text, name)
    builder = _Builder(name)
    situation = builder.situation(root)
    boards = sorted(builder.boards)
    if builder.unprefixed and len(boards) >= 2:
        line, path, got = min(builder.unprefixed)
        raise InputError(name, line, path, f"a board-prefixed hex id, this file uses boards {_and(boards)}", got)
    if builder.unprefixed and len(boards) == 1:
        builder = _Builder(name, default_board=boards[0])
        situation = builder.situation(root)
    builder.cross_check(situation)
    return situation


def _memoized(base: type) -> type:
    """`base` with its tag resolution remembered per scalar text.

    libyaml composes the tree but asks PyYAML's resolver, in Python, for the tag of every node:
    regular expressions for every scalar, about 600 calls for a 20-unit situation, most of them
    texts seen before (sides, unit types, small numbers).  A safe loader has no path resolvers,
    so a scalar's tag depends only on its text and on how it was quoted (and the path hooks do
    nothing): the memo gives the very tags `base` gives (tests/test_loader.py), and a generated
    20-unit file composes in 1.50 ms instead of 2.79 (bench/run.py's files, interleaved)."""
    if base.yaml_path_resolvers:  # pragma: no cover - PyYAML's safe loaders have none
        return base
    memo: dict[tuple[str, tuple[bool, bool]], str] = {}

    class Loader(base):  # type: ignore[misc, valid-type]
        def resolve(self, kind: type, value: Any, implicit: Any) -> str:
            if kind is not ScalarNode:
                return base.resolve(self, kind, value, implicit)
            key = (value, implicit)
            tag = memo.get(key)
            if tag is None:
                if len(memo) >= 1 << 14:
                    memo.clear()
                tag = memo[key] = base.resolve(self, kind, value, implicit)
            return tag

        def descend_resolver(self, current_node: Any, current_index: Any) -> None:
            pass  # only path resolvers use the path

        def ascend_resolver(self) -> None:
            pass

    Loader.__name__ = Loader.__qualname__ = f"Memoized{base.__name__}"
    return Loader


# libyaml's safe loader when PyYAML was built with it (the wheels are): the same node tree
# with line numbers, about 12x faster than the pure-Python one (a 500-unit file: 290 -> 25 ms).
_SAFE_LOADER = _memoized(getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def _compose(text: str, name: str) -> Node:
    try:
        root = yaml.compose(text, Loader=_SAFE_LOADER)
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = (error.problem or error.context or "").strip()
        raise InputError(name, line, "", "a YAML document", problem) from None
    except ReaderError as error:
        line = text.count("\n", 0, error.position) + 1
        raise InputError(name, line, "", "a YAML document", f"unacceptable character #x{error.character:04x}") from None
    except yaml.YAMLError as error:
        raise InputError(name, None, "", "a YAML document", str(error)) from None
    except RecursionError:
        raise InputError(name, None, "", "YAML nested less deeply") from None
    if root is None:
        raise InputError(name, 1, "", "a mapping (the situation), the file is empty")
    return root


def _and(items: Iterable[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


# --------------------------------------------------------------------------- node helpers

_TAG = "tag:yaml.org,2002:"
_PLAIN_TAGS = frozenset(_TAG + name for name in ("str", "int", "float", "bool", "null", "timestamp", "map", "seq"))
_STR = _TAG + "str"
_CONSTRUCT = SafeConstructor()
_ID_RE = re.compile(r"[A-Za-z0-9_-]+")
_ID_FORM = "an id of letters, digits, '-' and '_'"


def _line(node: Node) -> int:
    return node.start_mark.line + 1


def _field(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


@dataclass
class _Map:
    """A YAML mapping whose keys were checked: key -> (key node, value node)."""

    node: MappingNode
    path: str
    items: dict[str, tuple[Node, Node]]

    def get(self, key: str) -> Node | None:
        item = self.items.get(key)
        return item[1] if item else None

    def at(self, key: str) -> str:
        return _field(self.path, key)


@dataclass(frozen=True)
class _Ref:
    """An id used somewhere, to be resolved once every unit and weapon is known."""

    line: int
    path: str
    id: str
    want: str  # "unit", "weapon", "leader", "unit or weapon"


@dataclass(frozen=True)
class _Defined:
    kind: str  # "unit" or "weapon"
    unit_type: str
    side: str
    line: int
    path: str


class _Reader:
    """Typed values from YAML nodes; every failure is an InputError at the node's line."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.visited = 0

    def fail(self, where: Node | int | None, path: str, expected: str, got: object = None) -> NoReturn:
        line = _line(where) if isinstance(where, Node) else where
        raise InputError(self.file, line, path, expected, got)

    def count(self, node: Node, path: str) -> None:
        self.visited += 1
        if self.visited > MAX_NODES:
            self._too_many(node, path)

    def _too_many(self, node: Node, path: str) -> NoReturn:
        self.fail(node, path, f"at most {MAX_NODES} YAML values (aliases counted each time they are used)")

    def visit(self, node: Node, path: str) -> Node:
        self.visited += 1  # count(), inlined
        if self.visited > MAX_NODES:
            self._too_many(node, path)
        if node.tag not in _PLAIN_TAGS:
            self.fail(node, path, "a plain YAML value (no tag like !!binary or !custom)", node.tag)
        return node

    def _got(self, node: Node) -> object:
        if isinstance(node, MappingNode):
            return "a mapping"
        if isinstance(node, SequenceNode):
            return "a list"
        return node.value

    # -- containers

    def mapping(self, node: Node, path: str, allowed: Iterable[str] | None = None,
                required: Iterable[str] = (), what: str = "a mapping") -> _Map:
        node = self.visit(node, path)
        if not isinstance(node, MappingNode):
            self.fail(node, path, what, self._got(node))
        allowed = tuple(allowed) if allowed is not None else None
        items: dict[str, tuple[Node, Node]] = {}
        for key_node, value_node in node.value:
            key = self.key(key_node, path)
            if key in items:
                first = _line(items[key][0])
                self.fail(key_node, _field(path, key), f"each key once, '{key}' is already given at line {first}")
            if allowed is not None and key not in allowed:
                self.fail(key_node, _field(path, key), f"one of the keys {', '.join(allowed)}", key)
            items[key] = (key_node, value_node)
        result = _Map(node, path, items)
        for key in required:
            if key not in items:
                self.fail(node, result.at(key), f"a field '{key}' (required)")
        return result

    def key(self, node: Node, path: str) -> str:
        self.visited += 1  # count(), inlined: the path is made only for a message
        if self.visited > MAX_NODES or not isinstance(node, ScalarNode) or node.tag != _STR:
            path = _field(path, node.value) if isinstance(node, ScalarNode) else path
            if self.visited > MAX_NODES:
                self._too_many(node, path)
            self.fail(node, path, "a text key (quote keys like '467' or 'yes')", self._got(node))
        return str(node.value)

    def sequence(self, node: Node, path: str, what: str = "a list") -> list[tuple[Node, str]]:
        node = self.visit(node, path)
        if not isinstance(node, SequenceNode):
            self.fail(node, path, what, self._got(node))
        return [(item, f"{path}[{index}]") for index, item in enumerate(node.value)]

    def scalar(self, node: Node, path: str, what: str) -> ScalarNode:
        node = self.visit(node, path)
        if not isinstance(node, ScalarNode) or node.tag == _TAG + "null":
            self.fail(node, path, what, None if isinstance(node, ScalarNode) else self._got(node))
        return node

    # -- scalars

    def text(self, node: Node, path: str, what: str = "a text") -> str:
        return str(self.scalar(node, path, what).value)

    def choice(self, node: Node, path: str, choices: Iterable[str], what: str = "") -> str:
        choices = tuple(choices)
        expected = what or f"one of {', '.join(choices)}"
        value = self.text(node, path, expected)
        if value not in choices:
            self.fail(node, path, expected, value)
        return value

    def ident(self, node: Node, path: str) -> str:
        value = self.text(node, path, _ID_FORM)
        if not _ID_RE.fullmatch(value):
            self.fail(node, path, _ID_FORM, value)
        return value

    def integer(self, node: Node, path: str, low: int | None = None, high: int | None = None) -> int:
        expected = _range_text("a whole number", low, high)
        node = self.scalar(node, path, expected)
        if node.tag != _TAG + "int":
            self.fail(node, path, expected, node.value)
        try:
            value = _CONSTRUCT.construct_yaml_int(node)
        except (ValueError, yaml.YAMLError):
            self.fail(node, path, expected, node.value)
        if (low is not None and value < low) or (high is not None and value > high):
            self.fail(node, path, expected, value)
        return value

    def number(self, node: Node, path: str) -> Fraction:
        expected = "a number >= 0 (like 4 or 1.5)"
        node = self.scalar(node, path, expected)
        try:
            if node.tag == _TAG + "int":
                value = Fraction(_CONSTRUCT.construct_yaml_int(node))
            elif node.tag == _TAG + "float":
                real = _CONSTRUCT.construct_yaml_float(node)
                if not math.isfinite(real):
                    self.fail(node, path, expected, node.value)
                value = Fraction(str(real))
            else:
                self.fail(node, path, expected, node.value)
        except (ValueError, yaml.YAMLError):
            self.fail(node, path, expected, node.value)
        if value < 0:
            self.fail(node, path, expected, node.value)
        return value

    def boolean(self, node: Node, path: str) -> bool:
        node = self.scalar(node, path, "true or false")
        if node.tag != _TAG + "bool":
            self.fail(node, path, "true or false", node.value)
        return bool(_CONSTRUCT.construct_yaml_bool(node))

    def one_of(self, choices: Iterable[str]) -> Callable[[Node, str], str]:
        choices = tuple(choices)
        return lambda node, path: self.choice(node, path, choices)

    def whole(self, low: int | None = None, high: int | None = None) -> Callable[[Node, str], int]:
        return lambda node, path: self.integer(node, path, low, high)

    def optional(self, fields: _Map, key: str, read: Callable[[Node, str], T], default: T) -> T:
        item = fields.items.get(key)  # fields.get, inlined: most optional fields are absent
        return default if item is None else read(item[1], fields.at(key))

    def required(self, fields: _Map, key: str, read: Callable[[Node, str], T]) -> T:
        item = fields.items.get(key)
        if item is None:
            self.fail(fields.node, fields.at(key), f"a field '{key}' (required)")
        return read(item[1], fields.at(key))


def _range_text(what: str, low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"{what} from {low} to {high}"
    if low is not None:
        return f"{what} >= {low}"
    return what


# --------------------------------------------------------------------------- the builder

_TOP_KEYS = ("format", "title", "source", "phase", "attacker", "readings", "locations",
             "lines_of_sight", "residual_fp", "fire_lane_residual", "units", "expect")
_TERRAIN_KEYS = ("terrain", "tem", "smoke")
_LOS_KEYS = ("from", "to", "to_hexside", "hindrance", "hexside_tem", "blocked", "range")
_UNIT_KEYS = ("id", "side", "type", "counter", "hex", "level", "fire", "status", "known",
              "weapons", "moving", "attacked_here", "directed", "armored", "vulnerable_prc")
_WEAPON_KEYS = ("id", "kind", "fp", "range", "rof", "breakdown", "fire", "fire_lane", "malfunctioned")
_MOVING_KEYS = ("from", "mf_here", "assault", "dash", "activities", "bypass")
_ATTACKED_KEYS = ("by", "option", "fp", "at_mf", "drm")
_QUESTION_KEYS = ("attack",)
_ANSWER_KEYS = ("verdict", "because", "fp", "ift_column", "drm", "breakdown", "leader_direction",
                "residual_fp", "after", "fpf_nmc_dr", "firer_status")
_ATTACK_KEYS = ("option", "firers", "director", "targets", "at", "hexside", "dice", "keep_rof",
                "ammo", "hit", "dud", "air_burst", "collateral", "spraying")
_RESIDUAL_KEYS = ("fp", "crest")
_DICE_KEYS = ("original", "colored")
_COUNTER_REQUIRED = ("squad", "half_squad", "crew", "leader", "hero")


# --------------------------------------------------------------------------- issue 5: Guns, vehicles, CA
# Project additions for the Covered Arc chart (docs/format-extensions.md, "Issue 5: Covered Arc"):
# the Gun/vehicle fields of units and weapons, and the CA question kinds with their answer fields.

_CA_UNIT_KEYS = ("turret", "vca", "tca", "previous_vca", "bypass", "bu", "ct", "motion", "on_road",
                 "motion_attempt", "opportunity_fire", "entered_from", "shots")
_CA_VEHICLE_KEYS = ("turret", "vca", "tca", "previous_vca", "bypass", "bu", "ct", "motion", "on_road",
                    "motion_attempt")
_CA_WEAPON_KEYS = ("ca", "turret", "calibre", "aa", "aa_gun", "mount", "gun", "disabled", "acquisition")
_SHOT_KEYS = ("weapon", "phase", "target", "known", "case_a")
_UNIT_KEYS = _UNIT_KEYS + _CA_UNIT_KEYS
_WEAPON_KEYS = _WEAPON_KEYS + _CA_WEAPON_KEYS
_LOS_KEYS = _LOS_KEYS + ("cliff",)
_QUESTION_KEYS = _QUESTION_KEYS + CA_QUESTION_KINDS
# The fields of each CA question, and the answer fields it may state (besides verdict, because).
_CA_QUESTION_FIELDS = {
    "case_a": ("firer", "target", "at", "pivot", "gun_duel", "at_wall"),
    "ca_change": ("firer", "arc", "to", "when"),
    "target_facing": ("firer", "target", "hit", "dice"),
    "gun_elevation": ("firer", "target", "at"),
}
_CA_ANSWER_KEYS = {
    "case_a": ("drm", "in_ca", "hexspines", "facings", "rof", "intensive_fire", "bog_checks"),
    "ca_change": ("hexspines", "facings", "bog_checks", "mp", "no_movement"),
    "target_facing": ("facing",),
    "gun_elevation": ("range", "elevation_difference"),
}
_CA_ONLY_ANSWER_KEYS = tuple(sorted({k for keys in _CA_ANSWER_KEYS.values() for k in keys} - {"drm"}))
_BOOL_FIGURES = ("in_ca", "intensive_fire", "no_movement")
_CALIBRE_RE = re.compile(r"([1-9][0-9]{0,2})(L|LL)?")
_GUN_KINDS = ("INF", "RCL", "MTR")


class _CaMixin:
    """Reads the issue-5 fields (mixed into _Builder, whose helpers it uses)."""

    def _ca_checks(self) -> list[tuple[str, int, str, str, object]]:
        """Checks needing every unit: (what, line, path, id, value)."""
        if not hasattr(self, "_ca_pending"):
            self._ca_pending: list[tuple[str, int, str, str, object]] = []
        return self._ca_pending

    def hexspine(self, node: Node, path: str, center: Hex) -> tuple[Hex, Hex]:
        expected = f"a hexspine: two hexes like [X3, Y3], adjacent to each other and to {center.name}"
        items = self.sequence(node, path, expected)
        if len(items) != 2:
            self.fail(node, path, expected, f"{len(items)} items")
        first, second = (self.hex(item, item_path) for item, item_path in items)
        if not (_adjacent(first, second) and _adjacent(first, center) and _adjacent(second, center)):
            self.fail(node, path, expected, f"{first.name} and {second.name}")
        return first, second

    def neighbour(self, node: Node, path: str, center: Hex) -> Hex:
        value = self.hex(node, path)
        if not _adjacent(value, center):
            self.fail(node, path, f"a hex adjacent to {center.name}", value.name)
        return value

    def unit_ca(self, fields: _Map, unit_id: str, unit_type: str, location: Location) -> UnitCA:
        if unit_type != "vehicle":
            for key in _CA_VEHICLE_KEYS:
                if key in fields.items:
                    self.fail(fields.items[key][0], fields.at(key), f"'{key}' only on a vehicle", unit_type)
        center = location.hex
        spine = lambda n, p: self.hexspine(n, p, center)  # noqa: E731
        ca = UnitCA(
            turret=self.optional(fields, "turret", self.one_of(TURRETS), None),
            vca=self.optional(fields, "vca", spine, None),
            previous_vca=self.optional(fields, "previous_vca", spine, None),
            bypass=self.optional(fields, "bypass", lambda n, p: self.neighbour(n, p, center), None),
            bu=self.optional(fields, "bu", self.boolean, False),
            ct=self.optional(fields, "ct", self.boolean, False),
            motion=self.optional(fields, "motion", self.boolean, False),
            on_road=self.optional(fields, "on_road", self.boolean, False),
            motion_attempt=self.optional(fields, "motion_attempt", self.boolean, False),
            opportunity_fire=self.optional(fields, "opportunity_fire", self.boolean, False),
            entered_from=self.optional(fields, "entered_from", lambda n, p: self.neighbour(n, p, center), None),
            shots=self.optional(fields, "shots", lambda n, p: self.shots(n, p, unit_id), []),
        )
        tca = fields.get("tca")
        if tca is not None:
            at = fields.at("tca")
            if ca.turret not in ("T", "ST"):
                self.fail(fields.items["tca"][0], at, "'tca' only on a vehicle with a turret (turret: T or ST)")
            if isinstance(tca, ScalarNode) and ca.bypass is not None:
                ca.tca_facing = self.choice(tca, at, BYPASS_FACINGS, f"a facing: {', '.join(BYPASS_FACINGS)} "
                                            "(in Bypass the TCA points to a facing, D2.32)")
            elif ca.bypass is not None:
                self.fail(tca, at,
                          f"a facing: {', '.join(BYPASS_FACINGS)} (in Bypass the TCA points to a facing, D2.32)")
            else:
                ca.tca = spine(tca, at)
        for key, need in (("previous_vca", "vca"), ("bypass", "vca")):
            if key in fields.items and need not in fields.items:
                self.fail(fields.items[key][0], fields.at(key), f"a '{need}' with '{key}'")
        return ca

    def shots(self, node: Node, path: str, unit_id: str) -> list[Shot]:
        result: list[Shot] = []
        for item, item_path in self.sequence(node, path, "a list of shots like {weapon: W, target: T}"):
            fields = self.mapping(item, item_path, _SHOT_KEYS, required=("weapon",))
            weapon = self.required(fields, "weapon", lambda n, p: self.ref(n, p, "weapon"))
            self._ca_checks().append(("shot", _line(fields.items["weapon"][1]), fields.at("weapon"), unit_id, weapon))
            result.append(Shot(
                weapon=weapon,
                phase=self.optional(fields, "phase", self.one_of(PHASES), None),
                target=self.optional(fields, "target", lambda n, p: self.ref(n, p, "unit"), None),
                known=self.optional(fields, "known", self.boolean, True),
                case_a=self.optional(fields, "case_a", self.whole(0, 20), 0),
            ))
        return result

    def weapon_ca(self, fields: _Map) -> WeaponCA:
        unit_type, location = getattr(self, "ca_context", (None, None))
        vehicle = unit_type == "vehicle"
        for key in ("ca", "turret"):
            if vehicle and key in fields.items:
                self.fail(fields.items[key][0], fields.at(key),
                          f"'{key}' only on a weapon of a unit that is not a vehicle "
                          "(a vehicle's weapons use its vca/tca)")
        if "mount" in fields.items and not vehicle:
            self.fail(fields.items["mount"][0], fields.at("mount"), "'mount' only on a vehicle's weapon", unit_type)
        kind_node = fields.get("kind")
        kind = kind_node.value if isinstance(kind_node, ScalarNode) else ""
        if "gun" in fields.items and kind not in _GUN_KINDS:
            self.fail(fields.items["gun"][0], fields.at("gun"),
                      f"'gun' only on a weapon of kind {', '.join(_GUN_KINDS)}", kind)
        ca = WeaponCA(
            turret=self.optional(fields, "turret", self.one_of(("T", "NT")), None),
            aa=self.optional(fields, "aa", self.boolean, False),
            aa_gun=self.optional(fields, "aa_gun", self.boolean, False),
            mount=self.optional(fields, "mount", self.one_of(MOUNTS), None),
            gun=self.optional(fields, "gun", self.boolean, False),
            disabled=self.optional(fields, "disabled", self.boolean, False),
            acquisition=self.optional(fields, "acquisition", self.location, None),
        )
        node = fields.get("calibre")
        if node is not None:
            expected = "a calibre in mm like 75, 75L, 37LL or 20L"
            text = self.text(node, fields.at("calibre"), expected)
            match = _CALIBRE_RE.fullmatch(text)
            if match is None:
                self.fail(node, fields.at("calibre"), expected, text)
            ca.calibre, ca.barrel = int(match.group(1)), match.group(2)
        node = fields.get("ca")
        if node is not None and location is not None:
            if isinstance(node, ScalarNode):
                ca.ca_vertical = self.choice(node, fields.at("ca"), VERTICAL_CA,
                                             "a hexspine like [X3, Y3], or up/down (a CA set up/down a stairwell)")
            else:
                ca.ca = self.hexspine(node, fields.at("ca"), location.hex)
        return ca

    def ca_expectation(self, fields: _Map, kind: str, node: Node) -> Expectation:
        allowed = ("verdict", "because") + _CA_ANSWER_KEYS[kind]
        for key, (key_node, _) in fields.items.items():
            if key != kind and key not in allowed:
                self.fail(key_node, fields.at(key), f"an answer field of a {kind} question: {', '.join(allowed)}", key)
        figures: dict[str, object] = {}
        for key in _CA_ANSWER_KEYS[kind]:
            if key == "drm" or key not in fields.items:
                continue
            if key in _BOOL_FIGURES:
                figures[key] = self.required(fields, key, self.boolean)
            elif key == "facing":
                figures[key] = self.required(fields, key, self.facings)
            else:
                figures[key] = self.required(fields, key, self.integer)
        return Expectation(
            kind=kind,
            question=self.required(fields, kind, lambda n, p: self.ca_question(n, p, kind)),
            verdict=self.required(fields, "verdict", self.one_of(VERDICTS)),
            because=self.optional(fields, "because", self.rule_ids, ()),
            drm=self.optional(fields, "drm", self.integer, None),
            figures=figures,
            line=_line(node),
            given=frozenset(key for key in allowed if key in fields.items),
        )

    def facings(self, node: Node, path: str) -> tuple[str, ...]:
        """A facing, or a list of them (the target's choice along a hexspine)."""
        if isinstance(node, ScalarNode):
            return (self.choice(node, path, FACINGS),)
        return self.distinct(node, path, FACINGS, "facing")

    def ca_question(self, node: Node, path: str, kind: str) -> CaQuestion:
        fields = self.mapping(node, path, _CA_QUESTION_FIELDS[kind], required=("firer",))
        want = "weapon" if kind in ("case_a", "gun_elevation") else "unit or weapon"
        question = CaQuestion(
            kind=kind,
            firer=self.required(fields, "firer", lambda n, p: self.ref(n, p, want)),
            target=self.optional(fields, "target", lambda n, p: self.ref(n, p, "unit"), None),
            at=self.optional(fields, "at", self.location, None),
            pivot=self.optional(fields, "pivot", self.boolean, False),
            gun_duel=self.optional(fields, "gun_duel", self.boolean, False),
            at_wall=self.optional(fields, "at_wall", self.boolean, False),
            arc=self.optional(fields, "arc", self.one_of(CA_ARCS), None),
            when=self.optional(fields, "when", self.one_of(CA_WHEN), None),
            hit=self.optional(fields, "hit", self.one_of(HITS), "hull"),
            dice=self.optional(fields, "dice", self.dice, None),
            line=_line(node),
        )
        if kind in ("case_a", "gun_elevation") and (question.target is None) == (question.at is None):
            self.fail(node, path, "exactly one of 'target' and 'at'")
        if kind == "target_facing" and question.target is None:
            self.fail(node, path + ".target", "a field 'target' (required)")
        if kind == "ca_change":
            to = fields.get("to")
            if to is None:
                self.fail(node, path + ".to", "a field 'to' (required): the hexspine the CA turns to")
            if isinstance(to, ScalarNode):
                question.to_facing = self.choice(to, path + ".to", BYPASS_FACINGS,
                                                 "a hexspine like [X3, Y3], or a Bypass facing "
                                                 f"({', '.join(BYPASS_FACINGS)})")
            else:
                items = self.sequence(to, path + ".to", "a hexspine like [X3, Y3]")
                if len(items) != 2:
                    self.fail(to, path + ".to", "a hexspine like [X3, Y3]", f"{len(items)} items")
                question.to = (self.hex(*items[0]), self.hex(*items[1]))
                self._ca_checks().append(("to", _line(to), path + ".to", question.firer, question.to))
            if question.arc is not None:
                self._ca_checks().append(("arc", _line(fields.items["arc"][1]), path + ".arc", question.firer,
                                          question.arc))
        return question

    def check_ca(self, situation: Situation) -> None:
        units = {unit.id: unit for unit in situation.units}
        owner = {weapon.id: unit for unit in situation.units for weapon in unit.weapons}
        for what, line, path, ident, value in self._ca_checks():
            if what == "shot" and (ident not in units or value not in {w.id for w in units[ident].weapons}):
                self.fail(line, path, f"one of {ident}'s own weapons", value)
            unit = units.get(ident) or owner.get(ident)
            if what == "arc" and (ident not in units or units[ident].type != "vehicle"):
                self.fail(line, path, "'arc' only when the firer is a vehicle", value)
            if what == "to" and unit is not None:
                center = unit.location.hex
                first, second = value
                if not (_adjacent(first, second) and _adjacent(first, center) and _adjacent(second, center)):
                    self.fail(line, path, f"a hexspine: two hexes adjacent to each other and to {center.name}",
                              f"{first.name} and {second.name}")


class _Builder(_CaMixin, _Reader):
    """Builds a Situation from the node tree; then `cross_check` resolves ids and stacks."""

    def __init__(self, file: str, default_board: str | None = None) -> None:
        super().__init__(file)
        self.default_board = default_board
        self.boards: set[str] = set()
        self.unprefixed: list[tuple[int, str, str]] = []  # (line, path, text)
        self.defined: dict[str, _Defined] = {}
        self.refs: list[_Ref] = []
        self.attacker_at: tuple[int, str] = (1, "attacker")
        self.moving_at: dict[str, tuple[int, str]] = {}  # unit id -> line, path of `moving`
        self.crest_residual: set[Location] = set()  # Residual FP counters on a Crest (A8.21)

    # -- hexes with board prefixes

    def hex(self, node: Node, path: str) -> Hex:
        text = self.text(node, path, _HEX_FORM)
        try:
            hex_ = parse_hex(text)
        except ValueError as error:
            self.fail(node, path, str(error), text)
        return self._board(hex_, _line(node), path)

    def location(self, node: Node, path: str) -> Location:
        text = self.text(node, path, _LOCATION_FORM)
        try:
            location = parse_location(text)
        except ValueError as error:
            self.fail(node, path, str(error), text)
        return Location(self._board(location.hex, _line(node), path), location.level)

    def _board(self, hex_: Hex, line: int, path: str) -> Hex:
        if hex_.board:
            self.boards.add(hex_.board)
            return hex_
        self.unprefixed.append((line, path, hex_.name))
        return _with_board(hex_, self.default_board) if self.default_board else hex_

    def hex_pair(self, node: Node, path: str) -> tuple[Hex, Hex]:
        expected = "two adjacent hexes like [H7, G7] (a hexside)"
        items = self.sequence(node, path, expected)
        if len(items) != 2:
            self.fail(node, path, expected, f"{len(items)} items")
        first, second = (self.hex(item, item_path) for item, item_path in items)
        if not _adjacent(first, second):
            self.fail(node, path, expected, f"{first.name} and {second.name}")
        return first, second

    # -- ids

    def define(self, node: Node, path: str, kind: str, unit_type: str, side: str) -> str:
        value = self.ident(node, path)
        if value in self.defined:
            first = self.defined[value]
            self.fail(node, path, f"a unique id, '{value}' is already used at line {first.line} ({first.path})")
        self.defined[value] = _Defined(kind, unit_type, side, _line(node), path)
        return value

    def ref(self, node: Node, path: str, want: str) -> str:
        value = self.ident(node, path)
        self.refs.append(_Ref(_line(node), path, value, want))
        return value

    def refs_list(self, node: Node, path: str, want: str) -> tuple[str, ...]:
        values: list[str] = []
        for item, item_path in self.sequence(node, path, f"a list of {want} ids"):
            value = self.ref(item, item_path, want)
            if value in values:
                self.fail(item, item_path, "each id once", value)
            values.append(value)
        return tuple(values)

    def ids(self, want: str) -> Callable[[Node, str], tuple[str, ...]]:
        return lambda node, path: self.refs_list(node, path, want)

    def id_map(self, node: Node, path: str, want: str, read: Callable[[Node, str], T]) -> dict[str, T]:
        fields = self.mapping(node, path, what=f"a mapping of {want} id -> value")
        result: dict[str, T] = {}
        for key, (key_node, value_node) in fields.items.items():
            result[self.ref(key_node, fields.at(key), want)] = read(value_node, fields.at(key))
        return result

    # -- the situation

    def situation(self, root: Node) -> Situation:
        top = self.mapping(root, "", _TOP_KEYS, required=("attacker",), what="a mapping (the situation)")
        self.optional(top, "format", self.one_of((FORMAT,)), FORMAT)
        self.attacker_at = (_line(top.items["attacker"][1]), "attacker")
        return Situation(
            path=self.file,
            title=self.optional(top, "title", self.text, ""),
            source=self.optional(top, "source", self.text, ""),
            phase=self.optional(top, "phase", self.one_of(PHASES), "MPh"),
            attacker=self.required(top, "attacker", lambda n, p: self.text(n, p, "a side name")),
            readings=self.optional(top, "readings", self.readings, {}),
            locations=self.optional(top, "locations", self.locations, {}),
            lines_of_sight=self.optional(top, "lines_of_sight", self.lines_of_sight, []),
            residual_fp=self.optional(top, "residual_fp", self.residual_fp, {}),
            residual_on_crest=frozenset(self.crest_residual),
            fire_lane_residual=self.optional(top, "fire_lane_residual", self.fire_lane_residual, {}),
            units=self.optional(top, "units", self.units, []),
            expect=self.optional(top, "expect", self.expectations, []),
        )

    def readings(self, node: Node, path: str) -> dict[str, str]:
        fields = self.mapping(node, path, READINGS)
        return {key: self.choice(value, fields.at(key), READINGS[key]) for key, (_, value) in fields.items.items()}

    def locations(self, node: Node, path: str) -> dict[Location, Terrain]:
        fields = self.mapping(node, path, what="a mapping of Location -> {terrain, tem}")
        result: dict[Location, Terrain] = {}
        lines: dict[Location, int] = {}
        for key, (key_node, value_node) in fields.items.items():
            location = self.location(key_node, fields.at(key))
            if location in result:
                self.fail(key_node, fields.at(key),
                          f"each Location once, {location.name} is already given at line {lines[location]}")
            lines[location] = _line(key_node)
            result[location] = self.terrain(value_node, fields.at(key))
        return result

    def terrain(self, node: Node, path: str) -> Terrain:
        fields = self.mapping(node, path, _TERRAIN_KEYS)
        return Terrain(
            terrain=self.optional(fields, "terrain", self.one_of(TERRAINS), "open ground"),
            tem=self.optional(fields, "tem", self.integer, 0),
            smoke=self.optional(fields, "smoke", self.whole(low=0), 0),
            line=_line(node),
        )

    def lines_of_sight(self, node: Node, path: str) -> list[LineOfSight]:
        return [self.line_of_sight(item, item_path) for item, item_path in self.sequence(node, path)]

    def line_of_sight(self, node: Node, path: str) -> LineOfSight:
        fields = self.mapping(node, path, _LOS_KEYS, required=("from",))
        if ("to" in fields.items) == ("to_hexside" in fields.items):
            self.fail(node, path, "exactly one of 'to' and 'to_hexside'")
        non_negative = self.whole(low=0)
        return LineOfSight(
            frm=self.required(fields, "from", self.hex),
            to=self.optional(fields, "to", self.hex, None),
            to_hexside=self.optional(fields, "to_hexside", self.hex_pair, None),
            hindrance=self.optional(fields, "hindrance", non_negative, 0),
            hexside_tem=self.optional(fields, "hexside_tem", non_negative, 0),
            blocked=self.optional(fields, "blocked", self.boolean, False),
            range=self.optional(fields, "range", non_negative, None),
            cliff=self.optional(fields, "cliff", self.boolean, False),
            line=_line(node),
        )

    def residual_fp(self, node: Node, path: str) -> dict[Location, Fraction]:
        fields = self.mapping(node, path, what="a mapping of Location -> Residual FP")
        result: dict[Location, Fraction] = {}
        for key, (key_node, value_node) in fields.items.items():
            location = self.location(key_node, fields.at(key))
            if location in result:
                self.fail(key_node, fields.at(key), f"each Location once, {location.name} is given twice")
            result[location] = self.residual_counter(value_node, fields.at(key), location)
        return result

    def residual_counter(self, node: Node, path: str, location: Location) -> Fraction:
        """A Residual FP counter: a number, or (project addition, A8.21) {fp: N, crest: true}."""
        if not isinstance(node, MappingNode):
            return self.number(node, path)
        fields = self.mapping(node, path, _RESIDUAL_KEYS, required=("fp",))
        if self.optional(fields, "crest", self.boolean, False):
            self.crest_residual.add(location)
        return self.required(fields, "fp", self.number)

    def fire_lane_residual(self, node: Node, path: str) -> dict[Location, Fraction]:
        fields = self.mapping(node, path, what="a mapping of Location -> Fire Lane Residual FP")
        result: dict[Location, Fraction] = {}
        for key, (key_node, value_node) in fields.items.items():
            location = self.location(key_node, fields.at(key))
            if location in result:
                self.fail(key_node, fields.at(key), f"each Location once, {location.name} is given twice")
            result[location] = self.number(value_node, fields.at(key))
        return result

    # -- units and weapons

    def units(self, node: Node, path: str) -> list[Unit]:
        return [self.unit(item, item_path) for item, item_path in self.sequence(node, path)]

    def unit(self, node: Node, path: str) -> Unit:
        fields = self.mapping(node, path, _UNIT_KEYS, required=("id", "side", "type", "hex"))
        unit_type = self.required(fields, "type", self.one_of(UNIT_TYPES))
        side = self.required(fields, "side", lambda n, p: self.text(n, p, "a side name"))
        unit_id = self.required(fields, "id", lambda n, p: self.define(n, p, "unit", unit_type, side))
        if "directed" in fields.items and unit_type != "leader":
            self.fail(fields.items["directed"][0], fields.at("directed"), "'directed' only on a leader", unit_type)
        for key in ("armored", "vulnerable_prc"):
            if key in fields.items and unit_type != "vehicle":
                self.fail(fields.items[key][0], fields.at(key), f"'{key}' only on a vehicle", unit_type)
        moving_node = fields.get("moving")
        if moving_node is not None:
            self.moving_at[unit_id] = (_line(moving_node), fields.at("moving"))
        location = Location(
            self.required(fields, "hex", self.hex),
            self.optional(fields, "level", self.whole(MIN_LEVEL, MAX_LEVEL), 0),
        )
        self.ca_context = (unit_type, location)  # issue 5: the unit whose weapons are read
        return Unit(
            id=unit_id,
            side=side,
            type=unit_type,
            counter=self.counter(fields, unit_type),
            location=location,
            fire=self.optional(fields, "fire", self.fire_counter, "none"),
            status=self.optional(fields, "status", lambda n, p: self.distinct(n, p, STATUSES, "status"), ()),
            known=self.optional(fields, "known", self.boolean, True),
            weapons=self.optional(fields, "weapons", lambda n, p: self.weapons(n, p, side), []),
            moving=self.optional(fields, "moving", self.moving, None),
            attacked_here=self.optional(fields, "attacked_here", self.attacked_here, []),
            directed=self.optional(fields, "directed", self.ids("unit or weapon"), ()),
            ca=self.unit_ca(fields, unit_id, unit_type, location),
            armored=self.optional(fields, "armored", self.boolean, False),
            vulnerable_prc=self.optional(fields, "vulnerable_prc", self.boolean, False),
            line=_line(node),
        )

    def counter(self, fields: _Map, unit_type: str) -> Counter:
        node = fields.get("counter")
        path = fields.at("counter")
        if node is None:
            if unit_type in _COUNTER_REQUIRED:
                self.fail(fields.node, path, f"a field 'counter' (required for a {unit_type})")
            return Counter(text="")
        text = self.text(node, path, "a counter text")
        try:
            return parse_counter(text, unit_type)
        except ValueError as error:
            self.fail(node, path, f"{error} for a {unit_type}", text)

    def fire_counter(self, node: Node, path: str) -> str:
        return self.choice(node, path, FIRE_COUNTERS)

    def distinct(self, node: Node, path: str, choices: tuple[str, ...], what: str) -> tuple[str, ...]:
        """A list of distinct words from a closed vocabulary."""
        values: list[str] = []
        for item, item_path in self.sequence(node, path, f"a list of {what} words among {', '.join(choices)}"):
            value = self.choice(item, item_path, choices)
            if value in values:
                self.fail(item, item_path, f"each {what} once", value)
            values.append(value)
        return tuple(values)

    def weapons(self, node: Node, path: str, side: str) -> list[Weapon]:
        return [self.weapon(item, item_path, side) for item, item_path in self.sequence(node, path)]

    def weapon(self, node: Node, path: str, side: str) -> Weapon:
        fields = self.mapping(node, path, _WEAPON_KEYS, required=("id", "kind"))
        kind = self.required(fields, "kind", self.one_of(WEAPON_KINDS))
        return Weapon(
            id=self.required(fields, "id", lambda n, p: self.define(n, p, "weapon", kind, side)),
            kind=kind,
            fp=self.optional(fields, "fp", self.number, Fraction(0)),
            range=self.optional(fields, "range", self.whole(low=0), None),
            rof=self.optional(fields, "rof", self.whole(1, 6), None),
            breakdown=self.optional(fields, "breakdown", self.whole(2, 12), None),
            fire=self.optional(fields, "fire", self.fire_counter, "none"),
            fire_lane=self.optional(fields, "fire_lane", self.boolean, False),
            malfunctioned=self.optional(fields, "malfunctioned", self.boolean, False),
            ca=self.weapon_ca(fields),
            line=_line(node),
        )

    def moving(self, node: Node, path: str) -> Moving:
        fields = self.mapping(node, path, _MOVING_KEYS)
        return Moving(
            frm=self.optional(fields, "from", self.hex, None),
            mf_here=self.optional(fields, "mf_here", self.number, Fraction(1)),
            assault=self.optional(fields, "assault", self.boolean, False),
            dash=self.optional(fields, "dash", self.boolean, False),
            activities=self.optional(
                fields, "activities", lambda n, p: self.distinct(n, p, ACTIVITIES, "activity"), ()),
            bypass=self.optional(fields, "bypass", self.boolean, False),
        )

    def attacked_here(self, node: Node, path: str) -> list[AttackedHere]:
        return [self.attacked(item, item_path) for item, item_path in self.sequence(node, path)]

    def attacked(self, node: Node, path: str) -> AttackedHere:
        fields = self.mapping(node, path, _ATTACKED_KEYS)
        return AttackedHere(
            by=self.optional(fields, "by", self.ids("unit or weapon"), ()),
            option=self.optional(fields, "option", self.option, "first_fire"),
            fp=self.optional(fields, "fp", self.number, None),
            at_mf=self.optional(fields, "at_mf", self.number, None),
            drm=self.optional(fields, "drm", self.integer, None),
        )

    def option(self, node: Node, path: str) -> str:
        return self.choice(node, path, OPTIONS)

    # -- expectations

    def expectations(self, node: Node, path: str) -> list[Expectation]:
        return [self.expectation(item, item_path) for item, item_path in self.sequence(node, path)]

    def expectation(self, node: Node, path: str) -> Expectation:
        fields = self.mapping(node, path, _QUESTION_KEYS + _ANSWER_KEYS + _CA_ONLY_ANSWER_KEYS, required=("verdict",),
                              what="a mapping with a question (attack) and answer fields")
        questions = [key for key in _QUESTION_KEYS if key in fields.items]
        if len(questions) != 1:
            self.fail(node, path, f"exactly one question key among {', '.join(_QUESTION_KEYS)}")
        if questions[0] != "attack":  # issue 5: a CA question kind
            return self.ca_expectation(fields, questions[0], node)
        for key in _CA_ONLY_ANSWER_KEYS:
            if key in fields.items:
                self.fail(fields.items[key][0], fields.at(key), "an answer field of an attack question", key)
        return Expectation(
            kind=questions[0],
            question=self.required(fields, "attack", self.attack),
            verdict=self.required(fields, "verdict", self.one_of(VERDICTS)),
            because=self.optional(fields, "because", self.rule_ids, ()),
            fp=self.optional(fields, "fp", self.number, None),
            ift_column=self.optional(fields, "ift_column", self.integer, None),
            drm=self.optional(fields, "drm", self.integer, None),
            breakdown=self.optional(fields, "breakdown", lambda n, p: self.id_map(n, p, "weapon", self.integer), {}),
            leader_direction=self.optional(fields, "leader_direction", self.boolean, None),
            residual_fp=self.optional(fields, "residual_fp", self.number, None),
            after=self.optional(
                fields, "after", lambda n, p: self.id_map(n, p, "unit or weapon", self.fire_counter), {}),
            fpf_nmc_dr=self.optional(fields, "fpf_nmc_dr", self.integer, None),
            firer_status=self.optional(
                fields, "firer_status",
                lambda n, p: self.id_map(n, p, "unit", self.one_of(FIRER_STATUS)), {}),
            line=_line(node),
            given=frozenset(key for key in _ANSWER_KEYS if key in fields.items),
        )

    def rule_ids(self, node: Node, path: str) -> tuple[str, ...]:
        expected = "a rule id like A8.312"
        values = []
        for item, item_path in self.sequence(node, path, "a list of rule ids like [A8.312]"):
            value = self.text(item, item_path, expected).strip()
            if not value or "\n" in value:
                self.fail(item, item_path, expected, value)
            values.append(value)
        return tuple(values)

    def attack(self, node: Node, path: str) -> AttackQuestion:
        fields = self.mapping(node, path, _ATTACK_KEYS, required=("option", "targets"))
        firers: tuple[str, ...] = self.optional(fields, "firers", self.ids("unit or weapon"), ())
        option = self.required(fields, "option", lambda n, p: self.attack_option(n, p, firers))
        if not firers and option != "residual_fp":
            where = fields.get("firers") or fields.node
            self.fail(where, fields.at("firers"), "at least one firer (only a residual_fp attack has none)")
        targets = self.required(fields, "targets", self.ids("unit"))
        if not targets:
            self.fail(fields.get("targets"), fields.at("targets"), "at least one target unit id")
        return AttackQuestion(
            option=option,
            firers=firers,
            director=self.optional(fields, "director", lambda n, p: self.ref(n, p, "leader"), None),
            targets=targets,
            at=self.optional(fields, "at", self.location, None),
            hexside=self.optional(fields, "hexside", self.hex_pair, None),
            dice=self.optional(fields, "dice", self.dice, None),
            keep_rof=self.optional(fields, "keep_rof", lambda n, p: self.keep_rof(n, p, firers), ()),
            ammo=self.optional(fields, "ammo", self.one_of(AMMO), None),
            hit=self.optional(fields, "hit", self.boolean, None),
            dud=self.optional(fields, "dud", self.boolean, False),
            air_burst=self.optional(fields, "air_burst", self.boolean, False),
            collateral=self.optional(fields, "collateral", self.boolean, False),
            spraying=self.optional(fields, "spraying", self.location_list, ()),
            line=_line(node),
        )

    def location_list(self, node: Node, path: str) -> tuple[Location, ...]:
        values: list[Location] = []
        for item, item_path in self.sequence(node, path, "a list of Locations like [X3]"):
            value = self.location(item, item_path)
            if value in values:
                self.fail(item, item_path, "each Location once", value.name)
            values.append(value)
        return tuple(values)

    def attack_option(self, node: Node, path: str, firers: tuple[str, ...]) -> str | dict[str, str]:
        if not isinstance(node, MappingNode):
            return self.choice(node, path, OPTIONS, f"one of {', '.join(OPTIONS)}, or a mapping firer id -> option")
        fields = self.mapping(node, path, what="a mapping firer id -> option")
        options: dict[str, str] = {}
        for key, (key_node, value_node) in fields.items.items():
            if key not in firers:
                self.fail(key_node, fields.at(key), f"a firer among {', '.join(firers) or '(none)'}", key)
            options[key] = self.option(value_node, fields.at(key))
        missing = [firer for firer in firers if firer not in options]
        if missing:
            self.fail(node, path, f"an option for every firer, missing {', '.join(missing)}")
        return options

    def dice(self, node: Node, path: str) -> Dice:
        fields = self.mapping(node, path, _DICE_KEYS)
        dice = Dice(
            original=self.optional(fields, "original", self.whole(2, 12), None),
            colored=self.optional(fields, "colored", self.whole(1, 6), None),
        )
        if dice.original is not None and dice.colored is not None and not 1 <= dice.original - dice.colored <= 6:
            self.fail(node, path, "dice whose total minus the colored die is 1..6",
                      f"original {dice.original}, colored {dice.colored}")
        return dice

    def keep_rof(self, node: Node, path: str, firers: tuple[str, ...]) -> tuple[str, ...]:
        values: list[str] = []
        for item, item_path in self.sequence(node, path, "a list of weapon ids among the firers"):
            value = self.ref(item, item_path, "weapon")
            if value not in firers or value in values:
                among = ", ".join(firers) or "none"
                self.fail(item, item_path, f"a weapon among the firers ({among}), each once", value)
            values.append(value)
        return tuple(values)

    # -- checks needing the whole file

    def cross_check(self, situation: Situation) -> None:
        for ref in sorted(self.refs, key=lambda r: r.line):
            self.check_ref(ref)
        self.check_attacker(situation)
        self.check_moving(situation)
        self.check_ca(situation)

    def check_ref(self, ref: _Ref) -> None:
        defined = self.defined.get(ref.id)
        if ref.want == "leader":
            ok = defined is not None and defined.kind == "unit" and defined.unit_type == "leader"
        elif ref.want == "unit or weapon":
            ok = defined is not None
        else:
            ok = defined is not None and defined.kind == ref.want
        if not ok:
            what = "a unit or weapon" if ref.want == "unit or weapon" else f"a {ref.want}"
            found = f" ('{ref.id}' is {_describe(defined)})" if defined else ""
            self.fail(ref.line, ref.path, f"the id of {what} defined in units{found}", ref.id)

    def check_attacker(self, situation: Situation) -> None:
        sides = sorted({unit.side for unit in situation.units})
        if sides and situation.attacker not in sides:
            line, path = self.attacker_at
            self.fail(line, path, f"a side that some unit has: {', '.join(sides)}", situation.attacker)

    def check_moving(self, situation: Situation) -> None:
        first: Unit | None = None
        for unit in situation.units:
            if unit.moving is None:
                continue
            line, path = self.moving_at[unit.id]
            if unit.side != situation.attacker:
                self.fail(line, path, f"a moving unit of the ATTACKER's side ({situation.attacker})", unit.side)
            if first is None:
                first = unit
            elif unit.location != first.location:
                self.fail(line, path, f"one moving unit or stack (A8.1); {first.id} already moves in "
                          f"{first.location.name}", unit.location.name)


def _describe(defined: _Defined) -> str:
    what = defined.unit_type if defined.kind == "unit" else f"{defined.unit_type} weapon"
    return f"the {what} at line {defined.line}"
