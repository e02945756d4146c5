"""The situation and case format (aslrules/1): every field, question kind and answer field, declared once.

Each class below is a msgspec Struct: the loader converts a file's YAML into these types
(msgspec checks types, closed vocabularies and bounds), the fact builder walks the fields
that carry a `fact` (one field, one input predicate of kb/input.lp), `aslrules schema`
prints them as JSON Schema and docs/format.md's field reference is generated from them.

Field metadata (`Meta.extra`), read by the loader and the fact builder:

* ``fact``: the input predicate the field becomes, its subject first (``weapon_rof(W,N)``);
* ``kind``: what a text means: ``hex``, ``location``, ``hexspine``, ``hexside``, ``id``
  (a new unit or weapon id), or a reference: ``unit``, ``weapon``, ``leader``, ``any``
  (a unit or weapon), ``side``;
* ``omit``: the value for which no fact is made (a fire counter ``none``);
* ``only``: the field is allowed only on a unit of that type (or a weapon of those kinds);
* ``min``/``max``: bounds of an exact number (FP, MF), which is also a multiple of 1/64;
* ``role``: the role (kb/show.lp role/3) under which the answer names this field's value again
  (``role_values``: the value it names for each of a flag's values).

Nothing here knows an ASL rule: the vocabularies are the format's words.
"""

import json
from fractions import Fraction
from typing import Annotated, Any, Literal, get_args

import msgspec
from msgspec import Meta, Struct, field

FORMAT = "aslrules/1"
SCALE = 64  # exact numbers are multiples of 1/64 (kb/input.lp: fp(N) is N/64)

# --------------------------------------------------------------------------- vocabularies

Phase = Literal["RPh", "PFPh", "MPh", "DFPh", "AFPh", "RtPh", "APh", "CCPh"]
UnitType = Literal["squad", "half_squad", "crew", "leader", "hero", "vehicle", "gun"]
FireCounter = Literal["none", "first_fire", "final_fire", "intensive_fire", "no_fire"]
Status = Literal["pinned", "broken", "berserk", "melee", "cc", "concealed", "cx", "inexperienced",
                 "crest", "ammunition_shortage"]
WeaponKind = Literal["LMG", "MMG", "HMG", "AAMG", "ATR", "MOL", "FT", "DC", "BAZ", "PSK", "PIAT",
                     "LtMTR", "MTR", "INF", "RCL", "gun", "IFE", "PF", "PFk"]
Option = Literal["first_fire", "subsequent_first_fire", "final_protective_fire", "final_fire",
                 "snap_shot", "residual_fp", "intensive_fire"]
Ammo = Literal["HE", "AP", "APCR", "APDS", "HEAT"]
Verdict = Literal["allowed", "mandatory", "forbidden"]
Activity = Literal["enter", "recover", "smoke", "dc", "leave_entrenchment", "unload", "load", "vca_change"]
TerrainName = Literal["open ground", "road", "grain", "brush", "orchard", "woods", "forest", "building",
                      "stone building", "wooden building", "rubble", "marsh", "shellholes", "crag",
                      "graveyard", "hill", "wall", "hedge", "bocage", "cellar", "gully", "stream", "depression"]
FirerStatus = Literal["no_effect", "pinned", "broken"]
MoraleOutcome = Literal["passed", "pinned", "broken", "eliminated"]
Turret = Literal["T", "ST", "NT"]
GunTurret = Literal["T", "NT"]
Mount = Literal["MA", "CMG", "BMG", "AAMG", "IFE"]
BypassFacing = Literal["front", "rear", "inner_side", "outer_side"]
Vertical = Literal["up", "down"]
CaArc = Literal["vca", "tca"]
CaWhen = Literal["end_of_phase", "mp", "motion_attempt", "bypass_move", "limbering", "hooking", "turret_shot"]
Hit = Literal["hull", "turret"]
Facing = Literal["front", "side", "rear"]
IftColumn = Literal[1, 2, 4, 6, 8, 12, 16, 20, 24, 30, 36]

#: Unit types whose counter the format requires (MMC: FP-range-morale; leader: morale and DRM).
COUNTER_REQUIRED = ("squad", "half_squad", "crew", "leader", "hero")

#: Named readings of unsettled or disputed rules: name -> values, the first the default.
READINGS: dict[str, tuple[str, ...]] = {
    "a7353": ("permissive", "restrictive"),
    "residual_half": ("highest_column", "exact_half"),
    "pinned_halving": ("separate", "area_fire"),
    "adjacent_levels": ("one_level", "same_level"),
    "bypass_side_ca": ("one_change", "with_side"),
    "a8312_smc": ("printed", "no_fp"),
    "berserk_mc": ("eliminated", "broken"),
    "lone_leader": ("fires_alone", "stacked_alone"),
    "bypass_case_a_doubling": ("doubled", "no_doubling"),
    "a755_mandatory": ("journal13", "pre_journal13"),
    "a735_sw": ("mg_only", "any_sw"),
    "inexperienced_leader": ("summary", "stacked_leader"),
    "gun_marking": ("printed", "with_crew"),
    "a822_once": ("location", "entry"),
    "end_phase_ca": ("ma", "any_weapon"),
    "sff_fg": ("printed", "no_mixing"),
    "a822_creator": ("printed", "counts"),
}


def words(vocabulary: Any) -> tuple[Any, ...]:
    """The values of a Literal vocabulary."""
    return get_args(vocabulary)


# --------------------------------------------------------------------------- field helpers

ID_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"
PART_PATTERN = r"^[A-Za-z0-9]{1,8}$"  # an expect item's `part:` (a ruling's answer part: a, b, 1, ...)
HEX_PATTERN = r"^[0-9]{0,2}[A-Z]{1,2}[0-9]{1,2}$"
CASUALTY_PATTERN = r"^([1-9][0-9]?-[1-9][0-9]?-[1-9][0-9]?|eliminated)$"  # a HS counter, or eliminated
LOCATION_PATTERN = r"^[0-9]{0,2}[A-Z]{1,2}[0-9]{1,2}(@-?[0-9])?$"
TEXT_MAX = 2000


def F(tp: Any, doc: str, **extra: Any) -> Any:
    """A field type with its description and metadata (bounds go to msgspec, the rest to `extra`)."""
    meta: dict[str, Any] = {"description": doc}
    if "json" in extra:
        meta["extra_json_schema"] = extra.pop("json")
    for key in ("ge", "le", "pattern", "max_length", "min_length"):
        if key in extra:
            meta[key] = extra.pop(key)
    if extra:
        meta["extra"] = extra
    return Annotated[tp, Meta(**meta)]


def Id(doc: str, kind: str, **extra: Any) -> Any:
    return F(str, doc, pattern=ID_PATTERN, kind=kind, **extra)


def Ids(doc: str, kind: str, **extra: Any) -> Any:
    return F(list[Annotated[str, Meta(pattern=ID_PATTERN)]], doc, kind=kind, max_length=200, **extra)


def Hexid(doc: str, **extra: Any) -> Any:
    return F(str, doc, pattern=HEX_PATTERN, kind="hex", **extra)


def Loc(doc: str, **extra: Any) -> Any:
    return F(str, doc, pattern=LOCATION_PATTERN, kind="location", **extra)


def Spine(doc: str, **extra: Any) -> Any:
    """A hexspine: two hexes, both adjacent to the unit's hex and to each other."""
    return F(Annotated[list[Annotated[str, Meta(pattern=HEX_PATTERN)]], Meta(min_length=2, max_length=2)],
             doc, kind="hexspine", **extra)


def Num(doc: str, low: int = 0, high: int = 999, **extra: Any) -> Any:
    """An exact number (10.5 stays 10.5): a multiple of 1/64 from `low` to `high`."""
    return F(Fraction, doc, min=low, max=high, **extra)


def Int(doc: str, low: int, high: int, **extra: Any) -> Any:
    return F(int, doc, ge=low, le=high, **extra)


def Text(doc: str) -> Any:
    return F(str, doc, max_length=TEXT_MAX)


class Base(Struct, forbid_unknown_fields=True, kw_only=True, omit_defaults=True):
    """A mapping of the format: unknown keys are errors."""


# --------------------------------------------------------------------------- the situation


class Terrain(Base, kw_only=True):
    terrain: F(TerrainName, "the terrain of the Location", fact="terrain", text=True) = "open ground"
    tem: Int("its TEM", -5, 10, fact="tem") = 0
    smoke: Int("Hindrance DRM of SMOKE or an FFE in it (A24, A8.2)", 0, 10, fact="smoke", omit=0) = 0
    stairwell: F(bool, "its hex's levels connect (true) or not (false): their Locations one level apart "
                 "are ADJACENT or not (A.8); default: they are") | None = None


class LineOfSight(Base, kw_only=True):
    frm: Hexid("the firer's hex") = field(name="from")
    to: Hexid("the target's hex (exactly one of to, to_hexside)") | None = None
    to_hexside: F(Annotated[list[Annotated[str, Meta(pattern=HEX_PATTERN)]], Meta(min_length=2, max_length=2)],
                  "LOS to that entire hexside, as its two hexes (Snap Shot, A8.15)", kind="hexside") | None = None
    hindrance: Int("total Hindrance DRM along the LOF, both ways (to_hexside: to that hexside, for a Snap Shot)", 0, 20,
                   fact="los_hindrance", omit=0) = 0
    hexside_tem: Int("TEM of a hexside of the target Location crossed by the LOF (hedge, wall)", 0, 10,
                     fact="los_hexside_tem", omit=0) = 0
    center_dot: F(bool, "the LOS reaches the centre dot of the target hex (false: only a Bypassing unit's "
                  "position in it; no Fire Lane, A9.22)") = True
    blocked: F(bool, "the LOS is blocked (both ways)", fact="los_blocked") = False
    range: Int("the range in hexes, both ways (overrides the grid's; needed between boards)", 0, 999,
               fact="los_range") | None = None
    cliff: F(bool, "the LOF crosses a Cliff (C2.6 EXC, B11.31)", fact="los_cliff") = False
    height_advantage: F(bool, "the target's hex (`to`) has Height Advantage over the firer's (B10.31): +1 DRM, "
                        "never a lower Residual FP (A8.26)", fact="los_height_advantage") = False


class ResidualCounter(Base, kw_only=True):
    fp: Num("the counter's FP", 0, 99)
    crest: F(bool, "it lies on the Crest counter of a Depression Location (A8.21)") = False


class Expenditure(Base, kw_only=True):
    mf: Num("the MF/MP it expends", 0, 99, fact="expenditure")
    activities: F(list[Activity], "what it does (A8.1, A8.12)", max_length=8, fact="expenditure_activity") = []


class Moving(Base, kw_only=True):
    frm: Hexid("the hex it left (the hexside it crossed)", fact="moved_from") | None = field(default=None, name="from")
    mf_here: Num("MF/MP expended in its current Location so far", 0, 99, fact="mf_here") = 1
    assault: F(bool, "Assault Movement", fact="assault") = False
    dash: F(bool, "Dash", fact="dash") = False
    activities: F(list[Activity], "what this MF expenditure does (A8.1, A8.12)", fact="activity",
                  max_length=8) = []
    bypass: F(bool, "it moves in Bypass (A8.21)", fact="bypass") = False
    bypass_along: Hexid("in Bypass: the hex across the hexside it moves along (A9.21, Perry Sez P83)",
                        fact="bypass_along") | None = None
    expenditures: F(list[Expenditure], "its MF/MP expenditures in its current Location so far, in order, the last "
                    "the current one (A8.1, A8.3): mf_here is their sum, activities the last one's",
                    max_length=50) = []


class AttackedHere(Base, kw_only=True):
    by: Ids("the units and weapons that made it", "any", fact="attacked_by") = []
    option: F(Option, "its fire option", fact="attacked_here") = "first_fire"
    fp: Num("a Residual FP attack's strength", 0, 999, fact="attacked_fp") | None = None
    at_mf: Num("mf_here when it was made (default: now)", 0, 99) | None = None
    drm: Int("its total DRM (A8.22)", -20, 20, fact="attacked_drm") | None = None
    earlier_entry: F(bool, "made during an earlier entry of this Location this MPh: the unit has left and "
                     "re-entered it since (A8.22)", fact="attacked_earlier_entry") = False
    placed_residual: F(bool, "it placed the Residual FP counter now in this Location (A8.2; reading "
                       "a822_creator)", fact="attacked_placed_residual") = False


class Shot(Base, kw_only=True):
    weapon: Id("one of its own weapons", "weapon", fact="shot")
    phase: F(Phase, "the phase of the shot (default: the current phase)") | None = None
    target: Id("the unit fired at", "unit", fact="shot_target") | None = None
    known: F(bool, "it was Known (D3.51)") = True
    case_a: Int("the Case A DRM that shot paid (D3.5)", 0, 20, fact="shot_case_a") = 0
    ca: F(Annotated[list[Annotated[str, Meta(pattern=HEX_PATTERN)]], Meta(min_length=2, max_length=2)]
          | BypassFacing, "the CA it was fired through: a hexspine, or in Bypass the TCA's facing (D2.32)",
          kind="hexspine") | None = None


class Weapon(Base, kw_only=True):
    id: Id("unique id of the weapon", "id")
    kind: F(WeaponKind, "the kind of weapon", fact="weapon_kind", text=True)
    fp: Num("its FP", 0, 999, fact="weapon_fp") = 0
    range: Int("its normal range (absent: not checked)", 0, 999, fact="weapon_range") | None = None
    rof: Int("its multiple ROF number", 1, 6, fact="weapon_rof") | None = None
    breakdown: Int("its B#", 2, 12, fact="weapon_breakdown") | None = None
    fire: F(FireCounter, "its own fire counter", fact="weapon_fire", omit="none") = "none"
    fire_lane: F(bool, "it laid a Fire Lane in First Fire this MPh", fact="weapon_fire_lane") = False
    malfunctioned: F(bool, "it is malfunctioned", fact="weapon_malfunctioned") = False
    # Guns and the Covered Arc (C3, D2.32)
    ca: F(Annotated[list[Annotated[str, Meta(pattern=HEX_PATTERN)]], Meta(min_length=2, max_length=2)] | Vertical,
          "a Gun's CA as a hexspine [X2, Y3]; a SW's as its fire set it; up/down: set up/down a stairwell",
          kind="hexspine") | None = None
    turret: F(GunTurret, "a non-vehicular Gun: NT (default) or T", fact="turret_type") | None = None
    calibre: F(Annotated[int, Meta(ge=1, le=999)] | Annotated[str, Meta(pattern=r"^[1-9][0-9]{0,2}(L|LL)?$")],
               "calibre in mm, with L or LL: 75, 75L, 88LL") | None = None
    aa: F(bool, "capable of AA fire (C2.6)", fact="weapon_aa") = False
    aa_gun: F(bool, "an AA Gun (C2.6)", fact="weapon_aa_gun") = False
    mount: F(Mount, "how a vehicle's weapon is mounted", fact="weapon_mount") | None = None
    gun: F(bool, "an INF, RCL or MTR that is a Gun counter, not a SW", fact="weapon_is_gun", only=('INF', 'RCL', 'MTR')) = False
    disabled: F(bool, "a disabled Gun (C3.22)", fact="weapon_disabled") = False
    acquisition: Loc("it holds Acquisition on that Location (D2.32 EXC)", fact="weapon_acquisition") | None = None
    of_gun: Id("an IFE: the Gun of its unit (the vehicle's MA) whose fire it is (C2.6 applies through it)", "weapon",
               fact="weapon_ife_gun", only=("IFE",)) | None = None


class Unit(Base, kw_only=True):
    id: Id("unique id of the unit", "id")
    side: F(str, "its side (a free name)", max_length=60, kind="side")
    type: F(UnitType, "its type", fact="unit_type")
    counter: F(str, "printed values: MMC FP-range-morale (4-6-7); leader morale and DRM (8-1, 6+1)",
               max_length=20) | None = None
    hex: Hexid("its hex")
    level: Int("its level in the hex", -1, 9) = 0
    fire: F(FireCounter, "the fire counter on it", fact="unit_fire", omit="none") = "none"
    status: F(list[Status], "status words", fact="unit_status", max_length=12) = []
    known: F(bool, "Known to the enemy", fact="unit_known") = True
    weapons: F(list[Weapon], "SW and Guns it possesses", max_length=20) = []
    moving: F(Moving, "only on the unit or stack now moving") | None = None
    attacked_here: F(list[AttackedHere], "attacks already resolved against it in its Location this MPh (in the DFPh: "
                     "this phase)",
                     max_length=50) = []
    directed: Ids("whose fire this leader directed earlier this phase (A7.53)", "any", fact="directed", only='leader') = []
    armored: F(bool, "the vehicle is an AFV (A8.222)", fact="vehicle_armored", only='vehicle') = False
    vulnerable_prc: F(bool, "its PRC are vulnerable to Collateral Attack (A8.222)", fact="vulnerable_prc", only='vehicle') = False
    # vehicles and Guns (C3, D2)
    turret: F(Turret, "a vehicle's turret: T, ST or NT (default)", fact="turret_type", only='vehicle') | None = None
    vca: Spine("the hexspine its hull points to", fact="vehicle_vca", only='vehicle') | None = None
    tca: F(Annotated[list[Annotated[str, Meta(pattern=HEX_PATTERN)]], Meta(min_length=2, max_length=2)]
           | BypassFacing, "its turret's hexspine; in Bypass a facing", kind="hexspine", only='vehicle') | None = None
    previous_vca: Spine("its VCA at the start of this phase (C5.11)", fact="previous_vca", only='vehicle') | None = None
    bypass: Hexid("in Bypass along the hexside it shares with this hex (D2.32)", fact="bypass_hexside", only='vehicle') | None = None
    fg_with_infantry: F(bool, "its weapons may form a FG with Infantry (D6.64, or an SSR)",
                        fact="vehicle_fg_infantry", only='vehicle') = False
    immune_to_cowering: F(bool, "not subject to Cowering (A7.9: e.g. British Elite and 1st Line MMC)",
                          fact="cowering_immune") = False
    bu: F(bool, "Buttoned Up", fact="vehicle_bu", only='vehicle') = False
    ct: F(bool, "closed-topped", fact="vehicle_ct", only='vehicle') = False
    motion: F(bool, "in Motion", fact="vehicle_motion", only='vehicle') = False
    on_road: F(bool, "on a road in its hex (D2.11)", fact="vehicle_on_road", only='vehicle') = False
    motion_attempt: F(bool, "a successful Motion Attempt this phase (D2.401)", fact="motion_attempt", only='vehicle') = False
    opportunity_fire: F(bool, "declared an Opportunity Firer (A7.25)", fact="opportunity_firer") = False
    entered_from: Hexid("the hex it entered its Location from this Player Turn (C5.51)",
                        fact="entered_from") | None = None
    mp_since_tca_change: Int("MP it has expended since its last TCA change this MPh, the expenditure a new "
                             "change would come with included (D3.1)", 0, 99, fact="mp_since_tca_change",
                             only='vehicle') | None = None
    shots: F(list[Shot], "its shots this Player Turn, in order", max_length=20) = []


# --------------------------------------------------------------------------- questions


class Dice(Base, kw_only=True):
    original: Int("the total of both dice", 2, 12, fact="q_original") | None = None
    colored: Int("the colored die", 1, 6, fact="q_colored") | None = None


class Attack(Base, kw_only=True):
    option: F(Option | dict[Annotated[str, Meta(pattern=ID_PATTERN)], Option],
              "the fire option, or a mapping firer id -> option (a mixed Fire Group)")
    firers: Ids("units and weapons that fire (none: a Residual FP attack)", "any", role="firer") = []
    director: Id("a leader directing the attack", "leader", fact="q_director", role="director") | None = None
    targets: Ids("the unit(s) attacked", "unit", fact="q_target", role="target")
    at: Loc("the Location aimed at (default: the target's, A8.11)", fact="q_at", role="at") | None = None
    hexside: F(Annotated[list[Annotated[str, Meta(pattern=HEX_PATTERN)]], Meta(min_length=2, max_length=2)],
               "Snap Shot: the hexside crossed, as its two hexes", kind="hexside", fact="q_hexside") | None = None
    dice: F(Dice, "the IFT DR") | None = None
    keep_rof: Ids("weapons that keep Multiple ROF", "weapon", fact="q_keep_rof") = []
    ammo: F(Ammo, "ammunition of a To Kill/ordnance attack", fact="q_ammo", text=True) | None = None
    hit: F(bool, "ordnance: the To Hit DR hit (default: assumed)") | None = None
    dud: F(bool, "a Dud resulted (C7.35)", fact="q_dud") = False
    air_burst: F(bool, "an Air Burst (A8.26 EXC)", fact="q_air_burst") = False
    collateral: F(bool, "a Collateral Attack (A8.22)", fact="q_collateral") = False
    spraying: F(list[Annotated[str, Meta(pattern=LOCATION_PATTERN)]],
                "Spraying Fire: the other Locations affected (A8.24)", kind="location", max_length=4,
                fact="q_spray") = []
    morale: F(dict[Annotated[str, Meta(pattern=ID_PATTERN)], Annotated[int, Meta(ge=2, le=12)]],
              "with dice: the Original DR of each target's Morale Check (or PTC) the IFT result calls for",
              kind="unit", fact="q_morale") = {}
    casualties: F(dict[Annotated[str, Meta(pattern=ID_PATTERN)], Annotated[str, Meta(pattern=CASUALTY_PATTERN)]],
                  "with dice: the units the IFT result's casualties fall on (Random Selection): a squad's "
                  "Half-Squad counter after Casualty Reduction (3-2-8), or eliminated", kind="unit") = {}
    fire_lane: Id("a MG of the attack that declares a Fire Lane with it (A9.22)", "weapon",
                  fact="q_fire_lane") | None = None
    fire_lane_at: Loc("the Location the Fire Lane is placed in (default: the target's; A9.22)",
                      fact="q_fire_lane_at") | None = None
    fire_lane_residual: F(bool, "a residual_fp attack made by the Fire Lane Residual FP of the target Location, "
                          "not by a Residual FP counter (A9.22)", fact="q_lane_residual") = False
    random_selection: Ids("Cowering in a Fire Group: the unit(s) Random Selection picks as having cowered "
                          "(A7.9)", "unit", fact="q_random_selection") = []


class CaseA(Base, kw_only=True):
    firer: Id("the weapon that fires", "weapon", role="firer")
    target: Id("the unit fired at (or at:)", "unit", fact="q_target", role="target") | None = None
    at: Loc("the Location fired at (or target:)", fact="q_at", role="at") | None = None
    pivot: F(bool, "a turret weapon pivots the hull instead (D3.51)", fact="q_pivot") = False
    gun_duel: F(bool, "part of a Gun Duel (C2.2401)", fact="q_gun_duel") = False
    at_wall: F(bool, "a BMG fires at a wall hexside (D3.1)", fact="q_at_wall") = False


class CaChange(Base, kw_only=True):
    firer: Id("a Gun/SW weapon, or a vehicle", "any", role="firer")
    arc: F(CaArc, "a vehicle's vca (default) or tca", fact="q_arc") | None = None
    to: F(Annotated[list[Annotated[str, Meta(pattern=HEX_PATTERN)]], Meta(min_length=2, max_length=2)]
          | BypassFacing, "the hexspine it turns to; a Bypass TCA: a facing (or to_hexside)",
          kind="hexspine", role="to") | None = None
    to_hexside: Hexid("instead of to: the hex across the hexside it would point at, not a hexspine (C3.2; "
                      "Perry Sez P101)", fact="q_to_hexside", role="to") | None = None
    when: F(CaWhen, "when the change is made (default end_of_phase)", fact="q_when") | None = None


class TargetFacing(Base, kw_only=True):
    firer: Id("a unit or weapon: its hex is where the LOS starts", "any", role="firer")
    target: Id("a vehicle", "unit", fact="q_target", role="target")
    hit: F(Hit, "hull (default) or turret", fact="q_hit") = "hull"
    dice: F(Dice, "own-hex fire: the To Hit DR's colored die") | None = None


class GunElevation(Base, kw_only=True):
    firer: Id("the weapon that fires", "weapon", role="firer")
    target: Id("the unit fired at (or at:)", "unit", fact="q_target", role="target") | None = None
    at: Loc("the Location fired at (or target:)", fact="q_at", role="at") | None = None


class MotionAttempt(Base, kw_only=True):
    firer: Id("the vehicle that would attempt to start Motion", "unit", role="firer")
    reverse: F(bool, "it declares reverse Motion with the attempt (D2.401; Perry Sez P118)", fact="q_reverse",
               role="to", role_values={True: "reverse", False: "motion"}) = False


#: Question kinds: the key an `expect` item names its question by, and its type.
QUESTIONS: dict[str, type[Base]] = {
    "attack": Attack, "case_a": CaseA, "ca_change": CaChange, "target_facing": TargetFacing,
    "gun_elevation": GunElevation, "motion_attempt": MotionAttempt,
}

RuleIds = F(list[Annotated[str, Meta(pattern=r"^[A-Za-z0-9][A-Za-z0-9 .,()*'/&-]{0,39}$", extra={"strict": True})]],
            "rule ids that must be among the reasons", max_length=40)
IdMap = dict[Annotated[str, Meta(pattern=ID_PATTERN)], Any]
NotBecause = F(list[Annotated[str, Meta(pattern=r"^[A-Za-z0-9][A-Za-z0-9 .,()*'/&-]{0,39}$", extra={"strict": True})]],
               "rule ids that must not be among the reasons (the rule does not apply)", max_length=40)


class ReasonItem(Base, kw_only=True):
    """One reason a source states (or, with `absent`, rules out): its rule id, where it stands, and
    what it names."""

    rule: F(str, "the rule id", pattern=r"^[A-Za-z0-9][A-Za-z0-9 .,()*'/&-]{0,39}$")
    role: F(str, "where it stands: forbid, must or note (the verdict's reasons), or the figure it "
            "explains (fp_by_firer, breakdown, residual_fp, fire_lane, drm, ift_column, ...); any when absent",
            pattern=r"^[a-z_]{1,32}$") | None = None
    names: F(list[Annotated[str, Meta(pattern=r"^[A-Za-z0-9_@.-]{1,64}$")]],
             "ids and values the reason's text names (units, weapons, Locations, numbers)", max_length=10) = []
    says: F(str, "words the reason's text contains", max_length=200) | None = None
    absent: F(bool, "no such reason is among them") = False


Reasons = F(list[ReasonItem], "reasons that must be among the answer's (each matched by rule id, role, the "
            "ids it names and its words), or, with absent: true, must not", max_length=40)


class AttackAnswer(Base, kw_only=True):
    verdict: F(Verdict, "allowed, mandatory or forbidden")
    because: RuleIds = []
    not_because: NotBecause = []
    reasons: Reasons = []
    fp: Num("firepower after every modification", 0, 9999) | None = None
    ift_column: F(IftColumn, "the IFT column") | None = None
    base_column: F(IftColumn, "the IFT column of the FP, before any column shift") | None = None
    fp_by_firer: F(dict[Annotated[str, Meta(pattern=ID_PATTERN)], Annotated[Fraction, Meta(extra={"min": 0, "max": 9999})]],
                   "each firer's share of the FP, by unit or weapon", kind="any") | None = None
    judged: F(Literal["reach"], "listed attacks: judged on its reach alone (range, LOS, a Known enemy "
              "in its Location), not in full") | None = None
    drm: Int("total DRM", -30, 30) | None = None
    breakdown: F(dict[Annotated[str, Meta(pattern=ID_PATTERN)], Annotated[int, Meta(ge=2, le=12)]],
                 "B# in force for that shot, by weapon", kind="weapon") | None = None
    leader_direction: F(bool, "the director's DRM applies") | None = None
    residual_fp: Num("Residual FP left in the target Location", 0, 999) | None = None
    fire_lane: F(bool, "the Fire Lane declared with the attack is laid (A9.22)") | None = None
    fire_lane_cancelled: F(list[Annotated[str, Meta(pattern=ID_PATTERN)]],
                           "the MGs whose Fire Lane the attack cancels (A9.223: a TPBF attack)", kind="weapon",
                           max_length=20) | None = None
    after: F(dict[Annotated[str, Meta(pattern=ID_PATTERN)], FireCounter], "fire counters afterwards",
             kind="any") | None = None
    range: F(Annotated[int, Meta(ge=0, le=999)] | list[Annotated[int, Meta(ge=0, le=999)]],
             "range in hexes from the firing Location(s) to the target") | None = None
    final_dr: Int("with dice: the Final DR (Original DR + DRM)", -30, 45) | None = None
    ift_result: F(str, "with dice: the IFT result (K/3, 1KIA, 2MC, NMC, PTC, none)",
                  pattern=r"^([1-9]KIA|K/[1-9]|[1-9]MC|NMC|PTC|none)$") | None = None
    fpf_nmc_dr: Int("FPF: Final DR of the firers' NMC", -10, 30) | None = None
    firer_status: F(dict[Annotated[str, Meta(pattern=ID_PATTERN)], FirerStatus], "what that NMC does",
                    kind="unit") | None = None
    casualty: F(dict[Annotated[str, Meta(pattern=ID_PATTERN)], Annotated[str, Meta(pattern=CASUALTY_PATTERN)]],
                "with dice and casualties: what the IFT result's casualties do, by target (a Half-Squad "
                "counter, or eliminated)", kind="unit") | None = None
    mc_dr: F(dict[Annotated[str, Meta(pattern=ID_PATTERN)], Annotated[int, Meta(ge=-10, le=30)]],
             "with dice and morale: the Final DR of each target's Morale Check (or PTC)", kind="unit") | None = None
    morale_check: F(dict[Annotated[str, Meta(pattern=ID_PATTERN)], MoraleOutcome],
                    "with dice and morale: what each target's Morale Check (or PTC) does", kind="unit") | None = None
    cc_counters: Ids("FPF: the units marked with a CC counter after a TPBF FPF (A8.31)", "unit") | None = None
    may_rout: Ids("FPF: the firers broken by its NMC in a Location with enemy units, who may rout (A8.31)",
                  "unit") | None = None
    random_selection: Ids("FPF: on an Original 2 or 12, the units Random Selection picks among for a Casualty MC / "
                          "Heat of Battle (A8.31)", "unit") | None = None


class CaseAAnswer(Base, kw_only=True):
    verdict: F(Verdict, "allowed, mandatory or forbidden")
    because: RuleIds = []
    not_because: NotBecause = []
    reasons: Reasons = []
    drm: Int("the Case A DRM", -30, 30) | None = None
    in_ca: F(bool, "the target is in CA as things stand") | None = None
    hexspines: Int("hexspines the CA turns", 0, 6) | None = None
    facings: Int("in Bypass: TCA facing changes", 0, 6) | None = None
    rof: Int("an NT Gun's ROF for this shot", 0, 6) | None = None
    intensive_fire: F(bool, "marked IF after the shot") | None = None
    bog_checks: Int("Bog Checks before a VCA change (D2.11)", 0, 12) | None = None


class CaChangeAnswer(Base, kw_only=True):
    verdict: F(Verdict, "allowed, mandatory or forbidden")
    because: RuleIds = []
    not_because: NotBecause = []
    reasons: Reasons = []
    hexspines: Int("hexspines turned", 0, 6) | None = None
    facings: Int("Bypass TCA facings turned", 0, 6) | None = None
    bog_checks: Int("Bog Checks", 0, 12) | None = None
    mp: Int("MP a VCA change costs", 0, 99) | None = None
    no_movement: F(bool, "the change bars movement for the rest of the Player Turn (C3.22)") | None = None


class TargetFacingAnswer(Base, kw_only=True):
    verdict: F(Verdict, "allowed, mandatory or forbidden")
    because: RuleIds = []
    not_because: NotBecause = []
    reasons: Reasons = []
    facing: F(Facing | list[Facing], "the facing hit; a list along a hexspine") | None = None


class GunElevationAnswer(Base, kw_only=True):
    verdict: F(Verdict, "allowed, mandatory or forbidden")
    because: RuleIds = []
    not_because: NotBecause = []
    reasons: Reasons = []
    range: Int("range", 0, 999) | None = None
    elevation_difference: Int("elevation difference", -20, 20) | None = None


class MotionAttemptAnswer(Base, kw_only=True):
    verdict: F(Verdict, "allowed, mandatory or forbidden")
    because: RuleIds = []
    not_because: NotBecause = []
    reasons: Reasons = []


#: The answer fields each question kind may state.
ANSWERS: dict[str, type[Base]] = {
    "attack": AttackAnswer, "case_a": CaseAAnswer, "ca_change": CaChangeAnswer,
    "target_facing": TargetFacingAnswer, "gun_elevation": GunElevationAnswer,
    "motion_attempt": MotionAttemptAnswer,
}

#: How an answer field the KB's answer does not mention reads (a keyed field: per key).
ABSENT: dict[str, Any] = {
    "fire_lane": False, "fire_lane_cancelled": (), "after": "none", "firer_status": "no_effect",
    "in_ca": False, "intensive_fire": False, "no_movement": False,
    "cc_counters": [], "may_rout": [], "random_selection": [],
}



# --------------------------------------------------------------------------- the sequence (aslrules replay)
#
# A situation may carry `sequence:`, the ATTACKER's MPh (and the DFPh after it) as ordered steps
# that `aslrules replay` walks (docs/replay.md).  Each step is one of `move` (an MF/MP expenditure),
# `attack` (a DEFENDER attack declared at that point: the `attack` question, with its dice and the
# consequences' dice) or `end` (of this unit's movement, or of the MPh); any step may carry
# `expect:` items checked at that point.  These types only describe the steps: what a step
# changes is decided in the KB (kb/transitions.lp).

StepEnd = Literal["movement", "mph"]


class Move(Base, kw_only=True):
    units: Ids("the moving unit or stack (every unit of it)", "unit")
    to: Loc("the Location it enters across a hexside, or another level of its hex (absent: it expends "
            "MF/MP in its Location)") | None = None
    mf: Num("MF/MP this expenditure costs", 0, 99) = 1
    assault: F(bool, "Assault Movement") = False
    dash: F(bool, "Dash") = False
    bypass: F(bool, "it moves in Bypass (A8.21)") = False
    activities: F(list[Activity], "what this MF expenditure does (A8.1, A8.12)", max_length=8) = []


class Resolution(Base, kw_only=True):
    dice: F(Dice, "the IFT DR of the Residual FP attack the expenditure triggers") | None = None
    morale: F(dict[Annotated[str, Meta(pattern=ID_PATTERN)], Annotated[int, Meta(ge=2, le=12)]],
              "the Original DR of each mover's Morale Check (or PTC) its result calls for", kind="unit") = {}
    casualties: F(dict[Annotated[str, Meta(pattern=ID_PATTERN)], Annotated[str, Meta(pattern=CASUALTY_PATTERN)]],
                  "the movers its casualties fall on: a squad's Half-Squad counter, or eliminated", kind="unit") = {}


class UnitState(Base, kw_only=True):
    hex: Loc("its Location") | None = None
    counter: F(str, "its counter", max_length=20) | None = None
    type: F(UnitType, "its type") | None = None
    fire: F(FireCounter, "the fire counter on it") | None = None
    status: F(list[Status], "its status words, all of them (berserk, pinned, broken, ...)", max_length=12) | None = None
    moving: F(bool, "it is the unit or stack now moving") | None = None
    mf_here: Num("MF/MP it has expended in its Location", 0, 99) | None = None
    attacked_here: F(list[AttackedHere], "the attacks resolved against it in its Location this MPh, in order "
                     "(fields left out are not compared)", max_length=50) | None = None
    directed: Ids("whose fire this leader has directed this phase", "any") | None = None
    eliminated: F(bool, "it is eliminated (no longer on the map)") | None = None


class WeaponState(Base, kw_only=True):
    fire: F(FireCounter, "its own fire counter") | None = None


class State(Base, kw_only=True):
    phase: F(Phase, "the phase") | None = None
    units: F(dict[Annotated[str, Meta(pattern=ID_PATTERN)], UnitState], "units, by id", kind="unit") = {}
    weapons: F(dict[Annotated[str, Meta(pattern=ID_PATTERN)], WeaponState], "weapons, by id", kind="weapon") = {}
    residual_fp: F(dict[Annotated[str, Meta(pattern=LOCATION_PATTERN)], Annotated[Fraction, Meta(extra={
        "min": 0, "max": 99})]], "the Residual FP counter in each Location (0: none)", kind="location") = {}


class AttackCheck(AttackAnswer, kw_only=True):
    attack: F(Attack, "an attack question asked at this point")


#: The fields a step's `changes:` may state (kb/transitions.lp's transition/4, as the replay lists them).
ChangeField = Literal["fire", "directed", "residual", "counter", "type", "status", "eliminated", "at", "moving",
                      "moved_from", "mf_here"]


class StepExpect(Base, kw_only=True):
    answer: F(AttackAnswer, "the answer of the step's own attack (a `move`: of the Residual FP attack it "
              "triggers)") | None = None
    state: F(State, "the state after the step (only the fields given are compared)") | None = None
    question: F(AttackCheck, "an attack question asked after the step, with its answer fields") | None = None
    legal: F(bool, "whether the step is legal (false: a case stating that it is not: a forbidden attack, a "
             "skipped mandatory attack, a consequence the dice do not settle)") | None = None
    reasons: F(list[ReasonItem], "reasons the step itself gives (a `move` or an `end`: its notes, as A8.1, A8.12, "
               "A8.2; an attack: its answer's), each matched as an answer's `reasons` item, or with absent: true "
               "ruled out", max_length=40) | None = None
    changes: F(dict[ChangeField, dict[Annotated[str, Meta(pattern=ID_PATTERN + "|" + LOCATION_PATTERN)],
                                      str | bool | int | float | list[str]]],
               "what the step changes, as the replay lists it: by field, every key the step changes and its new "
               "value (`{}`: the step changes none); a field left out is not compared") | None = None


class Step(Base, kw_only=True):
    move: F(Move, "an MF/MP expenditure by the moving unit or stack") | None = None
    attack: F(Attack, "a DEFENDER attack declared at this point (any option; its dice; morale and casualties)") \
        | None = None
    end: F(StepEnd, "the end of this unit's movement (the next mover starts), or of the MPh (then the DFPh)") \
        | None = None
    residual: F(Resolution, "a move: the dice of the Residual FP attack it triggers (A8.2, A8.22)") | None = None
    expect: F(list[StepExpect], "what holds after this step: its attack's answer, the state, other questions",
              max_length=100) = []


class Readings(Base, kw_only=True):
    a7353: F(Literal["permissive", "restrictive"],
             "does A7.353's 'vs adjacent units' limit only Final Fire, or SFF/FPF too?") = "permissive"
    residual_half: F(Literal["highest_column", "exact_half"],
                     "the half of the 6 and 20 columns (asl-basics.md)") = "highest_column"
    pinned_halving: F(Literal["separate", "area_fire"], "is a pinned firer's halving its Area Fire halving?") \
        = "separate"
    adjacent_levels: F(Literal["one_level", "same_level"],
                       "how many levels apart two ADJACENT Locations may be (A.8)") = "one_level"
    bypass_side_ca: F(Literal["one_change", "with_side"],
                      "Case A within a pre-existing side TCA in Bypass (D2.32)") = "one_change"
    a8312_smc: F(Literal["printed", "no_fp"],
                 "A8.312 EXC: every SMC whose MG/IFE is marked First Fire is spared the mandatory attack "
                 "(printed), or only one with no inherent FP (no_fp)") = "printed"
    berserk_mc: F(Literal["eliminated", "broken"],
                  "a berserk unit that fails a Morale Check (8.41 EX: 'fails to eliminate it when it passes'): "
                  "eliminated, or broken as any unit") = "eliminated"
    lone_leader: F(Literal["fires_alone", "stacked_alone"],
                   "a leader firing a SW MG is lone (Area Fire) when no other unit of his Location fires in the "
                   "attack (fires_alone), or when no other Good Order friendly Infantry shares his Location "
                   "(stacked_alone)") = "fires_alone"
    bypass_case_a_doubling: F(Literal["doubled", "no_doubling"],
                              "is Case A doubled for a vehicle in Bypass of a woods/bldg/rubble hex, its side "
                              "+1 before the doubling (D2.32, the chart's Bypass row)?") = "doubled"
    a755_mandatory: F(Literal["journal13", "pre_journal13"],
                      "A7.55 Mandatory FG: units of one Location that cannot form a FG together may attack one "
                      "target separately (journal13), or may not (pre_journal13)") = "journal13"
    a735_sw: F(Literal["mg_only", "any_sw"],
               "A7.35: a squad keeps its inherent FP firing one SW MG only (mg_only) or any one SW (any_sw)") \
        = "mg_only"
    inexperienced_leader: F(Literal["summary", "stacked_leader"],
                            "A19.33: Inexperienced firers cower two columns (summary), or one while an unbroken "
                            "leader is stacked with them (stacked_leader)") = "summary"
    gun_marking: F(Literal["printed", "with_crew"],
                   "A8.1: a crew's First Fire counter marks only what fired (printed), or its Gun too (with_crew)") \
        = "printed"
    a822_once: F(Literal["location", "entry"],
                 "A8.22: a Residual FP attacks a unit once per Location (location) or once per entry (entry)") \
        = "location"
    end_phase_ca: F(Literal["ma", "any_weapon"],
                    "C3.22/D2.11/D3.1: the free end-of-phase VCA/TCA change needs the MA able to fire (ma), or "
                    "any unfired turret/bow weapon (any_weapon)") = "ma"
    sff_fg: F(Literal["printed", "no_mixing"],
              "A8.3: a unit's SFF may join units or its unfired MG/IFE that First Fire (printed), or not (no_mixing, "
              "Perry Sez P11)") = "printed"
    a822_creator: F(Literal["printed", "counts"],
                    "A8.2/A8.22: the attack that placed a Residual FP counter is no Residual attack on its target "
                    "(printed), or counts as its first (counts, Perry Sez P56 (e))") = "printed"


class Listing(Base, kw_only=True):
    """What `aslrules ask` lists for the situation (no question asked): the attacks a source says it
    holds, or does not."""

    firer: Id("only the attacks this DEFENDER unit or weapon takes part in (ask --firer)", "any") | None = None
    target: Id("only the attacks at this ATTACKER unit (ask --target)", "unit") | None = None
    all: F(bool, "judge in full also the attacks the listing finds out of reach (ask --all)") = False
    attacks: F(list[Annotated[Any, Meta(description="an attack question and its answer fields, with place: N "
                                                    "or listed: false")]],
               "attacks of the listing: each an attack question and the answer fields a source states, with "
               "place: N (its place in the listing, from 1) or listed: false (it is not listed)",
               max_length=500) = []


class Rejection(Base, kw_only=True):
    """The input error a source makes of a situation that is nonsense by the rules or the map (a
    case of the KB's input checks, kb/input_checks.lp)."""

    field: F(str, "the field the error names, as aslrules prints it (units[0].moving.from, "
             "sequence[2].move.to, ask[0].ca_change.to)", pattern=r"^[A-Za-z0-9_.\[\]-]{1,200}$")
    says: F(str, "words of what the error says was expected", max_length=200) | None = None


class Situation(Base, kw_only=True):
    format: F(Literal["aslrules/1"], "optional marker") = FORMAT
    title: Text("free text") = ""
    source: Text("where it comes from") = ""
    phase: F(Phase, "the ATTACKER's phase") = "MPh"
    attacker: F(str, "the side whose Player Turn it is", max_length=60)
    readings: F(Readings, "named readings of unsettled or disputed rules") = msgspec.field(default_factory=Readings)
    locations: F(dict[Annotated[str, Meta(pattern=LOCATION_PATTERN)], Terrain],
                 "terrain of the Locations that matter (default open ground)", kind="location") = {}
    lines_of_sight: F(list[LineOfSight], "lines of sight that are not clear", max_length=2000) = []
    residual_fp: F(dict[Annotated[str, Meta(pattern=LOCATION_PATTERN)], Any],
                   "Residual FP counters now on the map: a number, or {fp: N, crest: true}", kind="location",
                   json={"type": "object", "additionalProperties": {"anyOf": [
                       {"type": "number", "minimum": 0, "maximum": 99, "multipleOf": 1 / 64},
                       {"$ref": "#/$defs/ResidualCounter"}]}}) = {}
    fire_lane_residual: F(dict[Annotated[str, Meta(pattern=LOCATION_PATTERN)], Annotated[Fraction, Meta(extra={
        "min": 0, "max": 99})]], "Fire Lane Residual FP in a Location (A9.22)", kind="location") = {}
    units: F(list[Unit], "the units on the map", max_length=2000) = []
    expect: F(list[Annotated[Any, Meta(description="expect items: one question key and its answer fields")]],
              "questions with the answers a source states (aslrules check checks them)", max_length=500) = []
    ask: F(list[Annotated[Any, Meta(description="ask items: one question key, no answer fields")]],
           "questions to answer, no answer stated (aslrules ask answers them with expect's; check does not)",
           max_length=500) = []
    sequence: F(list[Step], "the ATTACKER's MPh (and the DFPh after it) as ordered steps, for aslrules replay",
                max_length=1000) = []
    listing: F(Listing, "what aslrules ask lists for this situation (aslrules check checks it)") | None = None
    input_error: F(Rejection, "the situation is nonsense by the rules or the map: the input error aslrules "
                   "check expects of it when it answers its questions (expect and ask), replay and listing")\
        | None = None


# --------------------------------------------------------------------------- rulings (the curator's files)
#
# A ruling file (docs/rulings.md) records one published Q&A ruling and the cases that encode
# it; `aslrules rulings` checks them under every assignment of the named readings.  Its cases
# are situations of the format above (they state no `readings:`: the checker varies them).

RulingStatus = Literal["current", "obsolete", "unclear"]
RULING_ID_PATTERN = ID_PATTERN

#: How much a ruling of each status weighs when the readings that fit are chosen
#: (`aslrules rulings`): obsolete rulings are history and weigh nothing.
RULING_WEIGHTS: dict[str, int] = {"current": 2, "unclear": 1, "obsolete": 0}


class ReadingValue(Base, kw_only=True):
    reading: F(str, "a named reading (docs/readings.md)", pattern=ID_PATTERN, kind="id")
    value: F(str, "one of its values", pattern=ID_PATTERN, kind="id")


class Ruling(Base, kw_only=True):
    ruling: F(str, "the ruling's id in its collection (P34, P41b)", pattern=RULING_ID_PATTERN, kind="id")
    source: Text("the citation: collection, version, lines, venue tag")
    status: F(RulingStatus, "current, obsolete (overtaken by errata or replacement pages) or unclear")
    overturned_by: F(list[ReadingValue], "obsolete only: the reading values that encode the erratum or "
                     "replacement that overturned it", max_length=8) = []
    rules: F(list[Annotated[str, Meta(pattern=r"^[A-Za-z0-9][A-Za-z0-9 .,()*'/&-]{0,39}$", extra={"strict": True})]],
             "the rule ids it bears on (its collection's caption)", max_length=40) = []
    tensions: F(list[Annotated[str, Meta(pattern=ID_PATTERN, extra={"kind": "id"})]],
                "the 'Tensions to check' it belongs to (I8)",
                max_length=20) = []
    question: Text("the question, in our own words")
    answer: Text("the answer, in our own words; parts lettered (a), (b), ...")
    cases: F(list[Situation], "situations that encode it; each expect item states one part (`part:`)",
             max_length=50) = []
    not_encodable: Text("what the format or the KB lacks to encode it (or the parts the cases leave out)") \
        | None = None


# --------------------------------------------------------------------------- JSON Schema


def _schema_hook(tp: Any) -> dict[str, Any]:
    if tp is Fraction:
        return {"type": "number", "multipleOf": 1 / SCALE}
    raise NotImplementedError


def json_schema() -> dict[str, Any]:
    """The format as JSON Schema (2020-12), for editors: the situation, and each question kind's
    `expect` item as one alternative (the question key and its answer fields)."""
    types = [Situation, ResidualCounter, *QUESTIONS.values(), *ANSWERS.values()]
    _, components = msgspec.json.schema_components(types, schema_hook=_schema_hook,
                                                  ref_template="#/$defs/{name}")
    top = components[Situation.__name__]
    alternatives = []
    for kind, answer in ANSWERS.items():
        item = dict(components[answer.__name__])
        item["properties"] = {kind: {"$ref": f"#/$defs/{QUESTIONS[kind].__name__}"}, **item["properties"],
                              "part": {"type": "string", "pattern": PART_PATTERN,
                                       "description": "the part of a multi-part answer this item states"}}
        item["required"] = [kind, *item.get("required", [])]
        item["additionalProperties"] = False
        item["title"] = f"{kind} question"
        alternatives.append(item)
    for answer in ANSWERS.values():  # kept where another mapping refers to it (a replay step's `answer`)
        others = json.dumps([c for name, c in components.items() if name != answer.__name__])
        if f"#/$defs/{answer.__name__}" not in others:
            components.pop(answer.__name__)
    top["properties"]["expect"] = {"type": "array", "description": "questions with the answers a source states",
                                   "items": {"oneOf": alternatives}}
    top["properties"]["ask"] = {"type": "array", "description": "questions to answer, no answer stated",
                                "items": {"oneOf": [{"type": "object", "title": f"{kind} question", "required": [kind],
                                                     "properties": {kind: {"$ref": f"#/$defs/{cls.__name__}"}},
                                                     "additionalProperties": False}
                                                    for kind, cls in QUESTIONS.items()]}}
    for c in components.values():
        c.setdefault("additionalProperties", False)
    components.pop(Situation.__name__)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "aslrules/1",
            "title": "aslrules situation or case (format aslrules/1)", **top, "$defs": components}
