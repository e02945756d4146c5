"""Turn a loaded Situation into the KB's input facts (kb/input.lp), as clingo symbols.

Most facts come straight from the schema: a field whose metadata names a `fact` becomes
`fact(Subject, Value)` (a flag: `fact(Subject)` when true), its value encoded by its type
(an id or a free word: a String; a closed vocabulary: a constant; an exact number: the
KB's integer scaled by 64; a hex or Location: its canonical id, with its hex/location
facts).  The few facts below that are not one field each (a unit's Location, its counter's
values, the attacks already made at it, its shots) are built by hand.  No user text ever
becomes program text: ids are clingo Strings, vocabularies were checked by the loader.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any

import clingo
from clingo import Function, Symbol

from . import schema as S
from .model import Expectation, Location, Situation, parse_counter, parse_location
from .reference import alternatives, struct_fields
from .symbols import Facts

#: Scale of fractional quantities in the KB (kb/input.lp: `#const fs = 64`).
SCALE = S.SCALE

# A clingo symbol is an immutable value, and making one from Python costs a few microseconds
# (a batch of cases makes tens of thousands): ids, numbers and constants are made once each.
String = lru_cache(maxsize=1 << 16)(clingo.String)
Number = lru_cache(maxsize=1 << 12)(clingo.Number)
_constant = lru_cache(maxsize=1 << 10)(Function)


@lru_cache(maxsize=1 << 12)
def scaled(value: Fraction | int) -> Symbol:
    """A fractional quantity as the KB's scaled integer (10.5 -> 672)."""
    v = Fraction(value) * SCALE
    if v.denominator != 1:
        raise ValueError(f"{value} is not a multiple of 1/{SCALE}")
    return Number(int(v))


def const(value: str) -> Symbol:
    """A word of a closed vocabulary (checked by the loader) as a constant."""
    return _constant(value.lower())


class FactBuilder:
    """Collects (predicate, args) pairs; the engine adds them through the backend."""

    def __init__(self, board: str = "") -> None:
        self.facts = Facts()
        self._table = self.facts.table
        self.board = board  # the board of unprefixed hex ids
        # a hex's or Location's text as written -> its symbol (its facts made on first meeting)
        self._hexes: dict[str, Symbol] = {}
        self._locations: dict[str, Symbol] = {}

    def add(self, pred: str, *args: Symbol) -> None:
        self._table[pred, len(args)].append(args)

    def hex(self, text: str) -> Symbol:
        """A hex id's symbol, with its hex/4 fact."""
        sym = self._hexes.get(text)
        if sym is None:
            h = parse_location(self._on_board(text)).hex
            sym = String(h.name)
            if h.name not in self._hexes:
                self._hexes[h.name] = sym
                self.add("hex", sym, String(h.board), Number(h.col), Number(h.row))
            self._hexes[text] = sym
        return sym

    def location(self, text: str | Location) -> Symbol:
        """A Location's symbol, with its location/3 (and hex/4) facts."""
        if not isinstance(text, Location):
            sym = self._locations.get(text)
            if sym is not None:
                return sym
        loc = text if isinstance(text, Location) else parse_location(self._on_board(text))
        name = loc.name
        sym = self._locations.get(name)
        if sym is None:
            sym = self._locations[name] = String(name)
            self.add("location", sym, self.hex(loc.hex.name), Number(loc.level))
        if not isinstance(text, Location):
            self._locations[text] = sym
        return sym

    def spine_or_word(self, value: list[str] | str | None, spine: str, word: str, subject: Symbol) -> None:
        """A field that is a hexspine or a word: `spine(Subject, A, B)` or `word(Subject, W)`."""
        if isinstance(value, list):
            self.add(spine, subject, self.hex(value[0]), self.hex(value[1]))
        elif value is not None:
            self.add(word, subject, const(value))

    def _on_board(self, text: str) -> str:
        return self.board + text if self.board and text[0].isalpha() else text

    # -- the generic part: a field with a `fact`

    def fields(self, obj: Any, *subject: Symbol) -> None:
        """One fact per field of `obj` whose metadata names one (see aslrules.schema)."""
        add = self.facts.add
        for attr, pred, omit, encode in _plan(type(obj)):
            value = getattr(obj, attr)
            if value is None or value is False or (omit is not _NOTHING and value == omit):
                continue
            if value is True:
                add(pred, subject)
            elif encode is _SPINE:
                add(pred, (*subject, self.hex(value[0]), self.hex(value[1])))
            elif type(value) is list:
                for item in value:
                    add(pred, (*subject, self.value(item, encode)))
            elif type(value) is dict:  # a mapping id -> value: one fact per entry
                for key, item in value.items():
                    add(pred, (*subject, String(key), self.value(item, encode)))
            else:
                add(pred, (*subject, self.value(value, encode)))

    def value(self, value: Any, encode: str) -> Symbol:
        if encode == "scaled" or type(value) is Fraction:  # (isinstance: the slow ABC check)
            return scaled(value)
        if isinstance(value, int):
            return Number(value)
        if encode == "hex":
            return self.hex(value)
        if encode == "location":
            return self.location(value)
        return String(value) if encode == "string" else const(value)


_SPINE = "spine"
_NOTHING = object()


@cache
def _plan(cls: type) -> tuple[tuple[str, str, Any, str], ...]:
    """The fields of a schema type that become facts: (attribute, predicate, the value that makes
    none, how a value is encoded), decided once per type."""
    plan = []
    for attr, tp, extra in struct_fields(cls).values():
        pred = extra.get("fact")
        if pred is None:
            continue
        kind = extra.get("kind")
        if kind in ("hexspine", "hexside"):
            encode = _SPINE
        elif any(inner is Fraction for inner, _, _ in alternatives(tp)):
            encode = "scaled"  # a quantity: its default may be written as an int
        elif kind in ("hex", "location"):
            encode = kind
        elif kind in ("unit", "weapon", "leader", "any", "id", "side") or extra.get("text"):
            encode = "string"
        else:
            encode = "const"
        plan.append((attr, pred, extra.get("omit", _NOTHING), encode))
    return tuple(plan)


def situation_facts(sit: Situation) -> FactBuilder:
    """The facts of a situation (its questions come from `question_facts`)."""
    d = sit.data
    fb = FactBuilder(sit.board)
    fb.add("phase", const(d.phase))
    fb.add("phase_label", String(d.phase))
    fb.add("attacker", String(d.attacker))
    for name, value in sit.readings.items():
        fb.add("reading", _constant(name), const(value))
    for key, terrain in d.locations.items():
        loc = fb.location(key)
        fb.fields(terrain, loc)
        if terrain.stairwell is not None:
            fb.add("stairwell", fb.hex(key), const(str(terrain.stairwell)))
    for los in d.lines_of_sight:
        a = fb.hex(los.frm)
        if los.to_hexside is not None:
            side = (a, fb.hex(los.to_hexside[0]), fb.hex(los.to_hexside[1]))
            fb.add("los_to_hexside", *side)
            if los.hindrance:
                fb.add("los_hexside_hindrance", *side, Number(los.hindrance))
            continue
        fb.fields(los, a, fb.hex(los.to))
        if not los.center_dot:
            fb.add("los_no_center_dot", a, fb.hex(los.to))
    for key, counter in d.residual_fp.items():
        loc = fb.location(key)
        if isinstance(counter, S.ResidualCounter):
            fb.add("residual_counter", loc, scaled(counter.fp))
            if counter.crest:
                fb.add("residual_on_crest", loc)
        else:
            fb.add("residual_counter", loc, scaled(counter))
    for key, fp in d.fire_lane_residual.items():
        fb.add("fire_lane_residual", fb.location(key), scaled(fp))
    for u in d.units:
        _unit_facts(fb, u, d.phase)
    return fb


def _unit_facts(fb: FactBuilder, u: S.Unit, phase: str) -> None:
    uid = String(u.id)
    fb.add("unit", uid)
    fb.add("unit_side", uid, String(u.side))
    fb.add("unit_at", uid, fb.location(f"{u.hex}@{u.level}" if u.level else u.hex))
    fb.fields(u, uid)
    if u.counter is not None:
        c = parse_counter(u.counter, u.type)
        for pred, n in (("unit_fp", c.fp), ("unit_range", c.range), ("unit_morale", c.morale),
                        ("leadership", c.leadership)):
            if n is not None:
                fb.add(pred, uid, scaled(n) if pred == "unit_fp" else Number(n))
    fb.spine_or_word(u.tca, "vehicle_tca", "bypass_tca", uid)
    for k, s in enumerate(u.shots):
        key = Number(k)
        fb.fields(s, uid, key)
        fb.add("shot_phase", uid, key, const(s.phase or phase))  # default: now
        if not s.known:
            fb.add("shot_unknown", uid, key)
        if isinstance(s.ca, list):
            fb.add("shot_ca", uid, key, fb.hex(s.ca[0]), fb.hex(s.ca[1]))
        elif s.ca is not None:
            fb.add("shot_ca_facing", uid, key, const(s.ca))
    for w in u.weapons:
        wid = String(w.id)
        fb.add("weapon", wid)
        fb.add("weapon_of", wid, uid)
        fb.add("weapon_of_type", wid, const(u.type))
        fb.fields(w, wid)
        fb.spine_or_word(w.ca, "weapon_ca", "weapon_ca_vertical", wid)
        if w.calibre is not None:
            calibre = str(w.calibre)
            digits = calibre.rstrip("L")
            fb.add("weapon_calibre", wid, Number(int(digits)))
            if len(digits) < len(calibre):
                fb.add("weapon_barrel", wid, const(calibre[len(digits):]))
    if u.moving is not None:
        fb.add("moving", uid)
        fb.fields(u.moving, uid)
        for k, e in enumerate(u.moving.expenditures):
            fb.fields(e, uid, Number(k))
    for k, a in enumerate(u.attacked_here):
        key = Number(k)
        fb.fields(a, uid, key)
        at_mf = a.at_mf if a.at_mf is not None else (u.moving.mf_here if u.moving else Fraction(0))
        fb.add("attacked_at_mf", uid, key, scaled(at_mf))


def question_facts(fb: FactBuilder, qid: Symbol, exp: Expectation) -> None:
    """Facts of one question, as question `qid` (kb/input.lp, "Questions": one vocabulary for every
    kind; each field with a `fact` in the schema, and the few below)."""
    q = exp.question
    fb.add("question", qid, const(exp.kind))
    if exp.kind == "attack":
        options = q.option if isinstance(q.option, dict) else {f: q.option for f in q.firers}
        for f in q.firers:
            fb.add("q_firer", qid, String(f))
            fb.add("q_option", qid, String(f), const(options[f]))
        if q.hit is False:
            fb.add("q_missed", qid)
        if not q.firers:
            fb.add("q_residual", qid)
    else:
        fb.add("q_firer", qid, String(q.firer))
    fb.fields(q, qid)
    dice = getattr(q, "dice", None)
    if dice is not None:
        fb.fields(dice, qid)
    for unit, counter in getattr(q, "casualties", {}).items():  # a HS counter, with its morale; or eliminated
        uid = String(unit)
        if counter == "eliminated":
            fb.add("q_casualty", qid, uid, const(counter))
        else:
            fb.add("q_casualty", qid, uid, String(counter))
            fb.add("q_casualty_morale", qid, uid, Number(parse_counter(counter, "half_squad").morale))
    fb.spine_or_word(getattr(q, "to", None), "q_to", "q_to_facing", qid)


def iter_symbols(fb: FactBuilder) -> Iterator[Symbol]:
    for pred, args in fb.facts:
        yield Function(pred, list(args))
