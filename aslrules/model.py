"""The situation and case model: what the loader produces and the fact builder reads.

Plain, validated data.  Nothing here knows an ASL rule; every value has already
been checked against the closed vocabularies of the format
(../shared/spec/situation-format.md and docs/format-extensions.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

PHASES = ("RPh", "PFPh", "MPh", "DFPh", "AFPh", "RtPh", "APh", "CCPh")
UNIT_TYPES = ("squad", "half_squad", "crew", "leader", "hero", "vehicle", "gun")
FIRE_COUNTERS = ("none", "first_fire", "final_fire", "intensive_fire", "no_fire")
STATUSES = (
    "pinned", "broken", "berserk", "melee", "cc", "concealed", "cx", "inexperienced",
    "crest", "ammunition_shortage",  # project addition, issue 4 (A8.21 Crest, A8.221)
)
WEAPON_KINDS = (
    "LMG", "MMG", "HMG", "AAMG", "ATR", "MOL", "FT", "DC", "BAZ", "PSK", "PIAT",
    "LtMTR", "MTR", "INF", "RCL", "gun", "IFE",
    "PF", "PFk",  # project addition, issue 4 (A8.25)
)
OPTIONS = (
    "first_fire", "subsequent_first_fire", "final_protective_fire", "final_fire",
    "snap_shot", "residual_fp", "intensive_fire",
)
# Ammunition named by an attack (project addition, issue 4: A8.2 To Kill attacks).
AMMO = ("HE", "AP", "APCR", "APDS", "HEAT")
VERDICTS = ("allowed", "mandatory", "forbidden")
# What a moving unit does with its current MF/MP expenditure (A8.1, A8.12).
ACTIVITIES = (
    "enter", "recover", "smoke", "dc", "leave_entrenchment", "unload", "load", "vca_change",
)
TERRAINS = (
    "open ground", "road", "grain", "brush", "orchard", "woods", "forest",
    "building", "stone building", "wooden building", "rubble", "marsh",
    "shellholes", "crag", "graveyard", "hill", "wall", "hedge", "bocage",
    "cellar", "gully", "stream", "depression",
)
FIRER_STATUS = ("no_effect", "pinned", "broken")
# Named readings (asl-basics.md "unsettled" lines and disputed rules): name -> allowed values,
# the first value is the default.
READINGS = {
    "a7353": ("permissive", "restrictive"),
    "residual_half": ("highest_column", "exact_half"),
    "pinned_halving": ("separate", "area_fire"),
    "adjacent_levels": ("one_level", "same_level"),
    # issue 5: Case A when a Bypass vehicle fires within its pre-existing side TCA (D2.32):
    # as one facing change, or with the +1 side facing too.
    "bypass_side_ca": ("one_change", "with_side"),
}


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


@dataclass
class Terrain:
    terrain: str = "open ground"
    tem: int = 0
    smoke: int = 0  # project addition, issue 4: SMOKE/FFE Hindrance DRM in the Location (A8.2)
    line: int = 0


@dataclass
class LineOfSight:
    frm: Hex
    to: Hex | None = None
    to_hexside: tuple[Hex, Hex] | None = None
    hindrance: int = 0
    hexside_tem: int = 0
    blocked: bool = False
    range: int | None = None
    cliff: bool = False  # project addition, issue 5: the LOF crosses a Cliff (C2.6, B11.31)
    line: int = 0


@dataclass
class Weapon:
    id: str
    kind: str
    fp: Fraction = Fraction(0)
    range: int | None = None  # None: not given, no range limit is checked
    rof: int | None = None
    breakdown: int | None = None
    fire: str = "none"
    fire_lane: bool = False
    malfunctioned: bool = False
    ca: WeaponCA = field(default_factory=lambda: WeaponCA())  # project addition, issue 5
    line: int = 0


@dataclass
class Moving:
    frm: Hex | None = None
    mf_here: Fraction = Fraction(1)
    assault: bool = False
    dash: bool = False
    activities: tuple[str, ...] = ()  # project addition: A8.1/A8.12
    bypass: bool = False  # project addition, issue 4: moving in Bypass (A8.21)


@dataclass
class AttackedHere:
    by: tuple[str, ...] = ()
    option: str = "first_fire"
    fp: Fraction | None = None  # residual attacks: the strength used
    at_mf: Fraction | None = None  # mf_here when it was made (None: now)
    drm: int | None = None  # project addition, issue 4: its total DRM (A8.22)


@dataclass
class Counter:
    """A parsed counter: MMC 'FP-range-morale', leader 'morale±leadership'."""

    text: str
    fp: int | None = None
    range: int | None = None
    morale: int | None = None
    leadership: int | None = None  # leader DRM (8-1 -> -1, 6+1 -> +1)


@dataclass
class Unit:
    id: str
    side: str
    type: str
    counter: Counter
    location: Location
    fire: str = "none"
    status: tuple[str, ...] = ()
    known: bool = True
    weapons: list[Weapon] = field(default_factory=list)
    moving: Moving | None = None
    attacked_here: list[AttackedHere] = field(default_factory=list)
    directed: tuple[str, ...] = ()
    armored: bool = False  # project addition, issue 4: a vehicle that is an AFV (A8.222)
    vulnerable_prc: bool = False  # project addition, issue 4: its PRC are vulnerable (A8.222)
    ca: UnitCA = field(default_factory=lambda: UnitCA())  # project addition, issue 5
    line: int = 0


@dataclass
class Dice:
    original: int | None = None
    colored: int | None = None


@dataclass
class AttackQuestion:
    option: str | dict[str, str]  # one option, or firer id -> option (mixed FG)
    firers: tuple[str, ...] = ()
    director: str | None = None
    targets: tuple[str, ...] = ()
    hexside: tuple[Hex, Hex] | None = None
    dice: Dice | None = None
    keep_rof: tuple[str, ...] = ()
    at: Location | None = None  # project addition: the Location aimed at (A8.11)
    # project additions, issue 4 (Residual FP, A8.2-A8.26):
    ammo: str | None = None  # ammunition of a To Kill/ordnance attack (AMMO)
    hit: bool | None = None  # ordnance: the To Hit DR hit (None: not stated)
    dud: bool = False  # a Dud resulted (C7.35)
    air_burst: bool = False  # an Air Burst (A8.26 EXC)
    collateral: bool = False  # the attack is a Collateral Attack (A8.22)
    spraying: tuple[Location, ...] = ()  # Spraying Fire: the other Location(s) affected (A8.24)
    line: int = 0


@dataclass
class Expectation:
    """One `expect:` item: a question and the answer fields a source states."""

    kind: str  # "attack", or a CA question kind (CA_QUESTION_KINDS, issue 5)
    question: AttackQuestion | CaQuestion
    # expected answer fields; only those present are checked
    verdict: str | None = None
    because: tuple[str, ...] = ()
    fp: Fraction | None = None
    ift_column: int | None = None
    drm: int | None = None
    breakdown: dict[str, int] = field(default_factory=dict)
    leader_direction: bool | None = None
    residual_fp: Fraction | None = None
    after: dict[str, str] = field(default_factory=dict)
    fpf_nmc_dr: int | None = None
    firer_status: dict[str, str] = field(default_factory=dict)
    figures: dict[str, Any] = field(default_factory=dict)  # issue 5: named answer figures (CA kinds)
    line: int = 0
    given: frozenset[str] = frozenset()  # names of the answer fields present


@dataclass
class Situation:
    path: str
    title: str = ""
    source: str = ""
    phase: str = "MPh"
    attacker: str = ""
    readings: dict[str, str] = field(default_factory=dict)
    locations: dict[Location, Terrain] = field(default_factory=dict)
    lines_of_sight: list[LineOfSight] = field(default_factory=list)
    residual_fp: dict[Location, Fraction] = field(default_factory=dict)
    residual_on_crest: frozenset[Location] = frozenset()  # project addition, issue 4 (A8.21)
    fire_lane_residual: dict[Location, Fraction] = field(default_factory=dict)  # issue 4 (A8.21)
    units: list[Unit] = field(default_factory=list)
    expect: list[Expectation] = field(default_factory=list)


# --------------------------------------------------------------------------- issue 5: Guns, vehicles, CA
# Project additions for the Covered Arc chart (docs/format-extensions.md, "Issue 5").

TURRETS = ("T", "ST", "NT")  # turret symbol: circle, square (ST/RST/1MT), none
MOUNTS = ("MA", "CMG", "BMG", "AAMG", "IFE")  # how a vehicular weapon is mounted
BYPASS_FACINGS = ("front", "rear", "inner_side", "outer_side")  # D2.32: where a Bypass TCA points
VERTICAL_CA = ("up", "down")  # a CA set by fire up/down a stairwell (chart footnote **)
CA_QUESTION_KINDS = ("case_a", "ca_change", "target_facing", "gun_elevation")
CA_ARCS = ("vca", "tca")
CA_WHEN = ("end_of_phase", "mp", "motion_attempt", "bypass_move", "limbering", "hooking", "turret_shot")
HITS = ("hull", "turret")
FACINGS = ("front", "side", "rear")
BARRELS = ("L", "LL")

Hexspine = tuple[Hex, Hex]  # the hexspine formed by two hexes, both adjacent to the unit's hex


@dataclass
class WeaponCA:
    """A weapon's Gun/CA fields (issue 5)."""

    ca: Hexspine | None = None  # a Gun's CA; a SW's CA specified by its fire this phase
    ca_vertical: str | None = None  # VERTICAL_CA: that CA was set up/down a stairwell
    turret: str | None = None  # a non-vehicular Gun: NT (default) or T (circle)
    calibre: int | None = None  # mm
    barrel: str | None = None  # BARRELS
    aa: bool = False  # capable of AA fire
    aa_gun: bool = False  # an AA Gun
    mount: str | None = None  # MOUNTS, a vehicle's weapon
    gun: bool = False  # an INF/RCL/MTR that is a Gun counter, not a SW
    disabled: bool = False
    acquisition: Location | None = None  # it holds Acquisition on that Location


@dataclass
class Shot:
    """A shot the unit already made this Player Turn (D3.5, D3.51, C5.11, C5.12, A9.21)."""

    weapon: str
    phase: str | None = None  # None: the current phase
    target: str | None = None
    known: bool = True  # at a unit Known to it (D3.51)
    case_a: int = 0  # the Case A DRM it paid (D3.5)


@dataclass
class UnitCA:
    """A unit's vehicle/Gun fields (issue 5)."""

    turret: str | None = None  # vehicle: TURRETS
    vca: Hexspine | None = None
    tca: Hexspine | None = None
    tca_facing: str | None = None  # BYPASS_FACINGS, a vehicle in Bypass
    previous_vca: Hexspine | None = None  # its VCA at the start of this phase (C5.11)
    bypass: Hex | None = None  # in Bypass along the hexside shared with this hex (D2.32)
    bu: bool = False
    ct: bool = False
    motion: bool = False
    on_road: bool = False
    motion_attempt: bool = False  # a successful Motion Attempt this phase (D2.401)
    opportunity_fire: bool = False  # declared an Opportunity Firer (A7.25)
    entered_from: Hex | None = None  # the hex it entered its Location from this Player Turn (C5.51)
    shots: list[Shot] = field(default_factory=list)


@dataclass
class CaQuestion:
    """A question of a CA kind (CA_QUESTION_KINDS): case_a, ca_change, target_facing, gun_elevation."""

    kind: str
    firer: str
    target: str | None = None
    at: Location | None = None
    pivot: bool = False  # case_a: a turret weapon pivots the VCA instead (D3.51)
    gun_duel: bool = False  # case_a: part of a Gun Duel (C2.2401)
    at_wall: bool = False  # case_a: a BMG fires at a wall hexside (D3.1)
    arc: str | None = None  # ca_change: CA_ARCS of a vehicle
    to: Hexspine | None = None  # ca_change: the hexspine turned to
    to_facing: str | None = None  # ca_change: BYPASS_FACINGS, a Bypass TCA
    when: str | None = None  # ca_change: CA_WHEN (default end_of_phase)
    hit: str = "hull"  # target_facing: HITS
    dice: Dice | None = None  # target_facing: the To Hit DR (its colored die)
    line: int = 0
