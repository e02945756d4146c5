"""Turn a loaded Situation into the KB's input facts (kb/input.lp), as clingo symbols.

Every id a user wrote becomes a `clingo.String`; closed vocabularies (phase,
unit type, option, ...) become constants only after a whitelist check.  No
user text is ever formatted into program text.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from functools import lru_cache

import clingo
from clingo import Function, Symbol

from . import model
from .model import AttackQuestion, Location, Situation
from .symbols import Facts

#: Scale of fractional quantities in the KB (kb/input.lp: `#const fs = 64`).
SCALE = 64

# A clingo symbol is an immutable value, and making one from Python costs a few microseconds
# (a batch of cases makes tens of thousands): ids, numbers and constants are made once each.
String = lru_cache(maxsize=1 << 16)(clingo.String)
Number = lru_cache(maxsize=1 << 12)(clingo.Number)
_constant = lru_cache(maxsize=1 << 10)(Function)


def _const(value: str, vocabulary: tuple[str, ...] | dict) -> Symbol:
    if value not in vocabulary:  # the loader already checked; this guards the API
        raise ValueError(f"{value!r} is not in the closed vocabulary")
    return _constant(value.lower())


@lru_cache(maxsize=1 << 12)
def scaled(value: Fraction | int) -> Symbol:
    """A fractional quantity as the KB's scaled integer (10.5 -> 672); made once per value (the
    Fraction arithmetic was a sixth of building a case's facts)."""
    v = Fraction(value) * SCALE
    if v.denominator != 1:
        raise ValueError(f"{value} is not a multiple of 1/{SCALE}")
    return Number(int(v))


def _loc(loc: Location) -> Symbol:
    return String(loc.name)


class FactBuilder:
    """Collects (predicate, args) pairs; `Engine` adds them through the backend."""

    def __init__(self) -> None:
        self.facts = Facts()
        self._hexes: set[str] = set()
        self._locations: set[str] = set()

    def add(self, pred: str, *args: Symbol) -> None:
        self.facts.add(pred, args)

    def flags(self, subject: Symbol, obj: object, **predicates: str) -> None:
        """One fact `pred(subject)` for each boolean field of `obj` that is true."""
        for attr, pred in predicates.items():
            if getattr(obj, attr):
                self.add(pred, subject)

    def hex(self, h: model.Hex) -> Symbol:
        if h.name not in self._hexes:
            self._hexes.add(h.name)
            self.add("hex", String(h.name), String(h.board), Number(h.col), Number(h.row))
        return String(h.name)

    def location(self, loc: Location) -> Symbol:
        if loc.name not in self._locations:
            self._locations.add(loc.name)
            self.add("location", _loc(loc), self.hex(loc.hex), Number(loc.level))
        return _loc(loc)


def situation_facts(sit: Situation) -> FactBuilder:
    fb = FactBuilder()
    fb.add("phase", _const(sit.phase, model.PHASES))
    fb.add("phase_label", String(sit.phase))
    fb.add("attacker", String(sit.attacker))
    for name, values in model.READINGS.items():
        value = sit.readings.get(name, values[0])
        fb.add("reading", _constant(name), _const(value, values))

    for loc, terrain in sit.locations.items():
        s = fb.location(loc)
        fb.add("terrain", s, String(_checked(terrain.terrain, model.TERRAINS)))
        fb.add("tem", s, Number(terrain.tem))
        if terrain.smoke:
            fb.add("smoke", s, Number(terrain.smoke))
    for los in sit.lines_of_sight:
        a = fb.hex(los.frm)
        if los.to_hexside is not None:
            fb.add("los_to_hexside", a, fb.hex(los.to_hexside[0]), fb.hex(los.to_hexside[1]))
            continue
        assert los.to is not None
        b = fb.hex(los.to)
        if los.blocked:
            fb.add("los_blocked", a, b)
        if los.hindrance:
            fb.add("los_hindrance", a, b, Number(los.hindrance))
        if los.hexside_tem:
            fb.add("los_hexside_tem", a, b, Number(los.hexside_tem))
        if los.range is not None:
            fb.add("los_range", a, b, Number(los.range))
        if los.cliff:
            fb.add("los_cliff", a, b)
    for loc, fp in sit.residual_fp.items():
        fb.add("residual_counter", fb.location(loc), scaled(fp))
    for loc in sorted(sit.residual_on_crest, key=lambda x: x.name):
        fb.add("residual_on_crest", fb.location(loc))
    for loc, fp in sit.fire_lane_residual.items():
        fb.add("fire_lane_residual", fb.location(loc), scaled(fp))

    for u in sit.units:
        _unit_facts(fb, u, sit.phase)
    return fb


def _checked(value: str, vocabulary: tuple[str, ...]) -> str:
    if value not in vocabulary:
        raise ValueError(f"{value!r} is not in the closed vocabulary")
    return value


def _unit_facts(fb: FactBuilder, u: model.Unit, phase: str) -> None:
    uid = String(u.id)
    _ca_unit_facts(fb, u, phase)  # issue 5
    fb.add("unit", uid)
    fb.add("unit_side", uid, String(u.side))
    fb.add("unit_type", uid, _const(u.type, model.UNIT_TYPES))
    fb.add("unit_at", uid, fb.location(u.location))
    c = u.counter
    if c.fp is not None:
        fb.add("unit_fp", uid, scaled(c.fp))
    if c.range is not None:
        fb.add("unit_range", uid, Number(c.range))
    if c.morale is not None:
        fb.add("unit_morale", uid, Number(c.morale))
    if c.leadership is not None:
        fb.add("leadership", uid, Number(c.leadership))
    if u.fire != "none":
        fb.add("unit_fire", uid, _const(u.fire, model.FIRE_COUNTERS))
    for st in u.status:
        fb.add("unit_status", uid, _const(st, model.STATUSES))
    if u.known:
        fb.add("unit_known", uid)
    for x in u.directed:
        fb.add("directed", uid, String(x))
    if u.armored:
        fb.add("vehicle_armored", uid)
    if u.vulnerable_prc:
        fb.add("vulnerable_prc", uid)
    for w in u.weapons:
        wid = String(w.id)
        fb.add("weapon", wid)
        fb.add("weapon_of", wid, uid)
        fb.add("weapon_kind", wid, String(_checked(w.kind, model.WEAPON_KINDS)))
        fb.add("weapon_fp", wid, scaled(w.fp))
        if w.range is not None:
            fb.add("weapon_range", wid, Number(w.range))
        if w.rof is not None:
            fb.add("weapon_rof", wid, Number(w.rof))
        if w.breakdown is not None:
            fb.add("weapon_breakdown", wid, Number(w.breakdown))
        if w.fire != "none":
            fb.add("weapon_fire", wid, _const(w.fire, model.FIRE_COUNTERS))
        if w.fire_lane:
            fb.add("weapon_fire_lane", wid)
        if w.malfunctioned:
            fb.add("weapon_malfunctioned", wid)
    if u.moving is not None:
        m = u.moving
        fb.add("moving", uid)
        if m.frm is not None:
            fb.add("moved_from", uid, fb.hex(m.frm))
        fb.add("mf_here", uid, scaled(m.mf_here))
        fb.flags(uid, m, assault="assault", dash="dash", bypass="bypass")
        for a in m.activities:
            fb.add("activity", uid, _const(a, model.ACTIVITIES))
    for k, a in enumerate(u.attacked_here):
        fb.add("attacked_here", uid, Number(k), _const(a.option, model.OPTIONS))
        for x in a.by:
            fb.add("attacked_by", uid, Number(k), String(x))
        if a.fp is not None:
            fb.add("attacked_fp", uid, Number(k), scaled(a.fp))
        at_mf = a.at_mf if a.at_mf is not None else (u.moving.mf_here if u.moving else Fraction(0))
        fb.add("attacked_at_mf", uid, Number(k), scaled(at_mf))
        if a.drm is not None:
            fb.add("attacked_drm", uid, Number(k), Number(a.drm))


def question_facts(fb: FactBuilder, qid: Symbol, q: AttackQuestion, sit: Situation) -> None:
    """Facts of one question, as question `qid` (kb/input.lp, "Questions")."""
    if isinstance(q, model.CaQuestion):  # issue 5: a CA question kind
        ca_question_facts(fb, qid, q)
        return
    fb.add("question", qid, _constant("attack"))
    options = q.option if isinstance(q.option, dict) else {f: q.option for f in q.firers}
    for f in q.firers:
        fb.add("q_firer", qid, String(f))
        fb.add("q_option", qid, String(f), _const(options[f], model.OPTIONS))
    if q.director:
        fb.add("q_director", qid, String(q.director))
    for t in q.targets:
        fb.add("q_target", qid, String(t))
    at = q.at
    if at is not None:
        fb.add("q_at", qid, fb.location(at))
    if q.hexside is not None:
        fb.add("q_hexside", qid, fb.hex(q.hexside[0]), fb.hex(q.hexside[1]))
    if q.dice is not None:
        if q.dice.original is not None:
            fb.add("q_original", qid, Number(q.dice.original))
        if q.dice.colored is not None:
            fb.add("q_colored", qid, Number(q.dice.colored))
    for w in q.keep_rof:
        fb.add("q_keep_rof", qid, String(w))
    if q.ammo is not None:
        fb.add("q_ammo", qid, String(_checked(q.ammo, model.AMMO)))
    if q.hit is False:
        fb.add("q_missed", qid)
    fb.flags(qid, q, dud="q_dud", air_burst="q_air_burst", collateral="q_collateral")
    for loc in q.spraying:
        fb.add("q_spray", qid, fb.location(loc))


def iter_symbols(fb: FactBuilder) -> Iterator[Symbol]:
    for pred, args in fb.facts:
        yield Function(pred, list(args))


# --------------------------------------------------------------------------- issue 5: Guns, vehicles, CA


def _spine(fb: FactBuilder, pred: str, x: Symbol, spine: model.Hexspine) -> None:
    fb.add(pred, x, fb.hex(spine[0]), fb.hex(spine[1]))


def _ca_unit_facts(fb: FactBuilder, u: model.Unit, phase: str) -> None:
    """The Gun/vehicle facts of a unit and its weapons (kb/input.lp, "Guns, vehicles and Covered Arcs")."""
    uid = String(u.id)
    c = u.ca
    if c.turret is not None:
        fb.add("turret_type", uid, _const(c.turret, model.TURRETS))
    if c.vca is not None:
        _spine(fb, "vehicle_vca", uid, c.vca)
    if c.tca is not None:
        _spine(fb, "vehicle_tca", uid, c.tca)
    if c.previous_vca is not None:
        _spine(fb, "previous_vca", uid, c.previous_vca)
    if c.bypass is not None:
        fb.add("bypass_hexside", uid, fb.hex(c.bypass))
    if c.tca_facing is not None:
        fb.add("bypass_tca", uid, _const(c.tca_facing, model.BYPASS_FACINGS))
    fb.flags(uid, c, bu="vehicle_bu", ct="vehicle_ct", motion="vehicle_motion", on_road="vehicle_on_road",
             motion_attempt="motion_attempt", opportunity_fire="opportunity_firer")
    if c.entered_from is not None:
        fb.add("entered_from", uid, fb.hex(c.entered_from))
    for k, s in enumerate(c.shots):
        fb.add("shot", uid, Number(k), String(s.weapon))
        fb.add("shot_phase", uid, Number(k), _const(s.phase or phase, model.PHASES))  # default: now
        if s.target is not None:
            fb.add("shot_target", uid, Number(k), String(s.target))
        if not s.known:
            fb.add("shot_unknown", uid, Number(k))
        fb.add("shot_case_a", uid, Number(k), Number(s.case_a))
    for w in u.weapons:
        wid, wc = String(w.id), w.ca
        if wc.ca is not None:
            _spine(fb, "weapon_ca", wid, wc.ca)
        if wc.ca_vertical is not None:
            fb.add("weapon_ca_vertical", wid, _const(wc.ca_vertical, model.VERTICAL_CA))
        if wc.turret is not None:
            fb.add("turret_type", wid, _const(wc.turret, model.TURRETS))
        if wc.calibre is not None:
            fb.add("weapon_calibre", wid, Number(wc.calibre))
        if wc.barrel is not None:
            fb.add("weapon_barrel", wid, _const(wc.barrel, model.BARRELS))
        if wc.mount is not None:
            fb.add("weapon_mount", wid, _const(wc.mount, model.MOUNTS))
        if wc.acquisition is not None:
            fb.add("weapon_acquisition", wid, fb.location(wc.acquisition))
        fb.flags(wid, wc, aa="weapon_aa", aa_gun="weapon_aa_gun", gun="weapon_is_gun", disabled="weapon_disabled")


def ca_question_facts(fb: FactBuilder, qid: Symbol, q: model.CaQuestion) -> None:
    """Facts of one CA question (kb/input.lp, "Questions": the same vocabulary as an attack's)."""
    fb.add("question", qid, _const(q.kind, model.CA_QUESTION_KINDS))
    fb.add("q_firer", qid, String(q.firer))
    if q.target is not None:
        fb.add("q_target", qid, String(q.target))
    if q.at is not None:
        fb.add("q_at", qid, fb.location(q.at))
    fb.flags(qid, q, pivot="q_pivot", gun_duel="q_gun_duel", at_wall="q_at_wall")
    if q.arc is not None:
        fb.add("q_arc", qid, _const(q.arc, model.CA_ARCS))
    if q.to is not None:
        _spine(fb, "q_to", qid, q.to)
    if q.to_facing is not None:
        fb.add("q_to_facing", qid, _const(q.to_facing, model.BYPASS_FACINGS))
    if q.when is not None:
        fb.add("q_when", qid, _const(q.when, model.CA_WHEN))
    if q.kind == "target_facing":
        fb.add("q_hit", qid, _const(q.hit, model.HITS))
    if q.dice is not None and q.dice.colored is not None:
        fb.add("q_colored", qid, Number(q.dice.colored))
