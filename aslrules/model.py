"""The situation and case model: what the loader produces and the fact builder reads.

Plain, validated data.  Nothing here knows an ASL rule; every value has already
been checked against the closed vocabularies of the format
(../shared/spec/situation-format.md and docs/format-extensions.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

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
    line: int = 0


@dataclass
class Weapon:
    id: str
    kind: str
    fp: Fraction = Fraction(0)
    range: int = 0
    rof: int | None = None
    breakdown: int | None = None
    fire: str = "none"
    fire_lane: bool = False
    malfunctioned: bool = False
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

    kind: str  # "attack" (later issues add kinds)
    question: AttackQuestion
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
