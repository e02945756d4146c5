"""The fire-counter matrix: every fire option x the firing unit's counter x its weapon's counter x
phase (x who fires, x the target's range), each cell's verdict, Sustained Fire and the counters
afterwards, against a table of the seed sentences that decide them.

The table (ROWS, marks, sustained below) is the oracle, written from the seeds alone: each row
names the rule, quotes the sentence of seed 004 (A8) or of the First Fire flowchart (seeds
000/001) it follows from, and says to which cells it applies.  A cell is forbidden when any
FORBID row applies to one of its firers, and then the KB must cite every such row's rule among
its forbidding reasons; otherwise it is allowed, and the KB's `after` counters and the MG's B#
(A9.3: Sustained Fire lowers it by 2) must be the table's.

The cells are case files, one per situation (config, phase, counters, range), in
tests/cases/fire_counters/matrix/, each expectation with the sentences behind it: `aslrules check`
runs them with the other cases (and the KB's mutation tester with them).  This test keeps the
folder in step with the table; `python tests/test_fire_counter_matrix.py --write` writes it again,
and with no argument the script prints the matrix as the KB answers it.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path
from dataclasses import dataclass
from functools import cache
from typing import Any


from aslrules.core import check
from aslrules.loader import load_text

COUNTERS = ("none", "first_fire", "final_fire", "intensive_fire", "no_fire")
OPTIONS = ("first_fire", "snap_shot", "subsequent_first_fire", "final_protective_fire", "final_fire",
           "intensive_fire")
PHASES = ("MPh", "DFPh")
RANGES = (1, 3)
#: Who fires: the unit alone, its weapon alone, both (a squad and its LMG); a crew's Gun alone.
CONFIGS = {"squad": ("unit", "weapon", "both"), "crew": ("weapon",)}
BARRING = {"intensive_fire", "no_fire"}

# --------------------------------------------------------------------------- the seed sentences

A81_DFF = ("A8.1", "The portion occurring during the enemy MPh is called Defensive First Fire")
A81_MARK = ("A8.1", 'The DEFENDER must place "First Fire" counters above all units/weapons that have fired '
            "and exhausted their ROF")
A81_AGAIN = ("A8.1", "these units/weapons may not fire again during that MPh [EXC: Subsequent First Fire and "
             "FPF (8.3-.31); intensive fire (C5.6)]")
A81_ABOVE = ("A8.1", "being sure to place any SW that are still eligible to fire above that First Fire counter")
A815_DFF = ("A8.15", "Any unit wishing to make a Small-Arms/MG Defensive First Fire attack may claim a Snap Shot")
A815_ORD = ("A8.15", "Neither a MG that must change its CA (9.21), nor an ordnance weapon, nor a weapon using "
            "IFE/Canister can make a Snap Shot")
A83_WHO = ("A8.3", "A DEFENDING Infantry unit/(its MG/IFE-weapon) already marked with a First Fire counter may "
           "Defensive First Fire again during that MPh as Area Fire")
A83_SA = ("A8.3", "Only Small Arms [EXC: MOL], MG, and IFE can be used as Subsequent First Fire")
A83_MUST = ("A8.3", "Whenever a unit uses Subsequent First Fire, it must use all usable MG/IFE in its possession "
            "... as Subsequent First Fire or forfeit their use for the remainder of that Player Turn (barring FPF)")
A83_SUST = ("A8.3", "Such fire can leave Residual FP but if using a MG/IFE is treated as Sustained Fire")
A83_MARK = ("A8.3", "If a unit, or any SW/Gun it possesses, uses Subsequent First Fire (or Intensive Fire) then "
            "that unit and all its SW/Guns are marked with a Final Fire counter")
FLOW_STAR = ("flowchart **", "since the squad can't SFF again (it has already SFF'd once, with the MG), it is "
             "under all of the restrictions of Final Fire, so it really should be marked with Final Fire")
A831_WHO = ("A8.31", "FPF is a Subsequent First Fire option available only to DEFENDING Infantry already marked "
            "with a Final Fire counter")
A831_ADJ = ("A8.31", "to attack ADJACENT or same-hex moving ground units in the ATTACKER's MPh")
A831_MUST = ("A8.31", "All usable MG/IFE possessed by that unit ... must be fired (even if not previously marked "
             "with a Final Fire counter) and are subject to Sustained Fire penalties")
A831_MARK = ("A8.31", "Any MG/IFE possessed by a unit using FPF is marked with a Final Fire counter regardless "
             "of its ROF - even if it had not fired previously in that MPh")
A8311_ORD = ("A8.311", "Infantry manning ordnance cannot fire it during FPF")
A84_DFPH = ("A8.4", "That portion of Defensive Fire which occurs during the DFPH is called Final Fire")
A84_LIST = ("A8.4", "During Final Fire any of the DEFENDER's units that are not marked with a First, Final, "
            "Intensive, or No Fire counter may fire")
A84_FF = ("A8.4", "Any of the DEFENDER's units that are marked with a First Fire counter may also fire again (by "
          "flipping their First Fire marker over to the Final Fire side), but as Area Fire and only at units in "
          "an adjacent (or same) hex")
A84_FIN = ("A8.4", "A unit/weapon already marked with a Final Fire counter cannot fire during Final Fire")
A841_EXTRA = ("A8.41", "Any weapon marked with a First Fire counter and capable of Intensive Fire (C5.6) or "
              "Sustained Fire (9.3) may use such for one additional attack during Final Fire only vs. adjacent "
              "or same-hex targets. That shot must be treated as Intensive (C5.6) or Sustained Fire (9.3).")
A841_ANY = ("A8.41", "Any Multiple-ROF weapon which is not marked with a First, Final, Intensive or No Fire "
            "counter (even though it may have fired during First Fire) is still entitled to multiple attack "
            "possibilities during Final Fire, and at any target, not just adjacent ones")
A82_END = ("A8.2", "Remove all Residual FP counters at the end of the MPh")
A82_ATTACK = ("A8.2", "Thereafter, any unit entering (or expending MF/MP in) that same Location in the same MPh "
              "is attacked on the IFT with the FP represented by that Residual FP counter")

# --------------------------------------------------------------------------- one firer of one cell


@dataclass(frozen=True)
class Firer:
    """One firer of a cell, with what the table's conditions read."""

    option: str
    phase: str
    range: int
    who: str  # unit (a squad or crew), lmg (the squad's LMG) or gun (the crew's Gun)
    own: str  # its own fire counter
    group_final: bool  # MPh: its unit, or a weapon of its unit, is marked Final Fire (A8.3)
    partner: str  # the other member's counter (the LMG's for the squad, the squad's for the LMG)
    partner_fires: bool  # that member fires in this attack too
    unit_final: bool  # its unit is marked Final Fire, or (MPh) counts as marked (A8.3, flowchart **)


ANY = None  # a condition that any value meets


@dataclass(frozen=True)
class Row:
    """A FORBID row: it applies to a firer when every stated condition holds."""

    rule: str  # the rule id the KB must cite among its forbidding reasons
    quote: tuple[str, str]  # the seed sentence that decides it: (its section, its words)
    option: frozenset[str] | None = ANY
    phase: frozenset[str] | None = ANY
    who: frozenset[str] | None = ANY
    own: frozenset[str] | None = ANY
    group_final: bool | None = ANY
    range: frozenset[int] | None = ANY
    partner: frozenset[str] | None = ANY
    partner_fires: bool | None = ANY
    unit_final: bool | None = ANY

    def applies(self, f: Firer) -> bool:
        for name in ("option", "phase", "who", "own", "range", "partner"):
            want = getattr(self, name)
            if want is not ANY and getattr(f, name) not in want:
                return False
        for name in ("group_final", "partner_fires", "unit_final"):
            want = getattr(self, name)
            if want is not ANY and getattr(f, name) != want:
                return False
        return True


def s(*values: Any) -> frozenset[Any]:
    return frozenset(values)


DFF = s("first_fire", "snap_shot", "subsequent_first_fire", "final_protective_fire")
FRESH_DFF = s("first_fire", "snap_shot")  # DFF by a firer that has not fired (A8.1), a Snap Shot included (A8.15)

#: Every way a firer may not fire: the rule the KB must cite, the sentence, the cells it covers.
ROWS: tuple[Row, ...] = (
    # when
    Row("A8.1", A81_DFF, option=DFF, phase=s("DFPh")),
    Row("A8.4", A84_DFPH, option=s("final_fire"), phase=s("MPh")),
    # First Fire and Snap Shots: DFF by a firer not yet marked (A8.1; a Snap Shot is DFF, A8.15)
    Row("A8.1", A81_AGAIN, option=FRESH_DFF, phase=s("MPh"), own=s("first_fire")),
    Row("A8.3", A83_MARK, option=FRESH_DFF, phase=s("MPh"), own=s("final_fire")),
    Row("A8.3", A83_MARK, option=FRESH_DFF, phase=s("MPh"), group_final=True, own=s("none", "first_fire")),
    Row("A8.15", A815_ORD, option=s("snap_shot"), who=s("gun")),
    # Subsequent First Fire
    Row("A8.3", A83_WHO, option=s("subsequent_first_fire"), who=s("unit"), own=s("none"), group_final=False),
    Row("A8.3", A83_WHO, option=s("subsequent_first_fire"), who=s("lmg"), own=s("none"), group_final=False,
        partner_fires=False),
    Row("A8.3", A83_WHO, option=s("subsequent_first_fire"), who=s("lmg"), own=s("none"), group_final=False,
        partner=s("none", "intensive_fire", "no_fire")),
    Row("A8.3", A83_MARK, option=s("subsequent_first_fire"), own=s("final_fire")),
    Row("A8.3", A83_MARK, option=s("subsequent_first_fire"), group_final=True, own=s("none", "first_fire")),
    Row("flowchart **", FLOW_STAR, option=s("subsequent_first_fire"), phase=s("MPh"), who=s("unit"),
        own=s("none", "first_fire"), partner=s("final_fire")),
    Row("A8.3", A83_SA, option=s("subsequent_first_fire"), who=s("gun")),
    # Final Protective Fire
    Row("A8.31", A831_WHO, option=s("final_protective_fire"), unit_final=False),
    Row("A8.31", A831_ADJ, option=s("final_protective_fire"), range=s(3)),
    Row("A8.31", A831_MUST, option=s("final_protective_fire"), who=s("unit"), partner_fires=False,
        partner=s("none", "first_fire", "final_fire")),
    Row("A8.311", A8311_ORD, option=s("final_protective_fire"), who=s("gun")),
    # Final Fire
    Row("A8.4", A84_FIN, option=s("final_fire", "intensive_fire"), phase=s("DFPh"), own=s("final_fire")),
    Row("A8.4", A84_FF, option=s("final_fire"), phase=s("DFPh"), who=s("unit"), own=s("first_fire"), range=s(3)),
    Row("A8.41", A841_EXTRA, option=s("final_fire", "intensive_fire"), phase=s("DFPh"), who=s("lmg", "gun"),
        own=s("first_fire"), range=s(3)),
    Row("A8.41", A841_EXTRA, option=s("final_fire"), phase=s("DFPh"), who=s("gun"), own=s("first_fire")),
    # Intensive Fire: the extra shot of a non-SW Gun once marked First Fire (A8.1 EXC, A8.41)
    Row("C5.6", A841_EXTRA, option=s("intensive_fire"), who=s("unit", "lmg")),
    Row("C5.6", A81_AGAIN, option=s("intensive_fire"), who=s("gun"), own=s("none")),
    Row("A8.3", A83_MARK, option=s("intensive_fire"), phase=s("MPh"), who=s("gun"), own=s("final_fire")),
    Row("A8.3", A83_MARK, option=s("intensive_fire"), phase=s("MPh"), who=s("gun"), own=s("first_fire"),
        group_final=True),
    # Intensive Fire and No Fire counters bar fire (A8.4 lists them; A8.1 in the MPh)
    Row("A8.4", A84_LIST, option=s("final_fire", "intensive_fire"), phase=s("DFPh"), own=s(*BARRING)),
    Row("A8.1", A84_LIST, option=DFF | s("intensive_fire"), phase=s("MPh"), own=s(*BARRING)),
)


def forbidding(f: Firer) -> list[Row]:
    return [r for r in ROWS if r.applies(f)]


# --------------------------------------------------------------------------- an allowed cell: counters after


def marks(config: str, phase: str, option: str, firers: tuple[str, ...]) -> dict[str, tuple[str, tuple[str, str]]]:
    """The counters the attack puts on the unit ('unit') and its weapon ('weapon'), each with the
    sentence that puts it there; a member the attack does not mark keeps its counter."""
    out: dict[str, tuple[str, tuple[str, str]]] = {}
    if option in FRESH_DFF:
        for x in firers:
            out[x] = ("first_fire", A81_MARK if option == "first_fire" else A815_DFF)
    elif option == "subsequent_first_fire":
        out = {"unit": ("final_fire", A83_MARK), "weapon": ("final_fire", A83_MARK)}
    elif option == "final_protective_fire":
        out = {"unit": ("final_fire", A831_WHO), "weapon": ("final_fire", A831_MARK)}
    elif option == "final_fire":
        for x in firers:
            out[x] = ("final_fire", A84_FF if x == "unit" else A84_FIN)
    elif option == "intensive_fire" and phase == "MPh":
        out = {"unit": ("final_fire", A83_MARK), "weapon": ("final_fire", A83_MARK)}
    elif option == "intensive_fire":
        out = {"weapon": ("intensive_fire", A84_LIST)}
    return out


def sustained(config: str, option: str, weapon_counter: str, firers: tuple[str, ...]) -> tuple[str, str] | None:
    """The sentence that makes the squad's LMG fire as Sustained Fire in this cell (B# 11 -> 9)."""
    if config != "squad" or "weapon" not in firers:
        return None
    if option == "subsequent_first_fire":
        return A83_SUST
    if option == "final_protective_fire":
        return A831_MUST
    if option == "final_fire" and weapon_counter == "first_fire":
        return A841_EXTRA
    return None


# --------------------------------------------------------------------------- the cells


@dataclass(frozen=True)
class Cell:
    config: str
    phase: str
    unit: str  # the unit's counter
    weapon: str  # the weapon's counter
    range: int
    option: str
    fires: str  # unit, weapon or both

    @property
    def firers(self) -> tuple[str, ...]:
        return ("unit", "weapon") if self.fires == "both" else (self.fires,)

    def firer(self, member: str) -> Firer:
        group_final = self.phase == "MPh" and "final_fire" in (self.unit, self.weapon)
        own, partner = (self.unit, self.weapon) if member == "unit" else (self.weapon, self.unit)
        who = "unit" if member == "unit" else ("lmg" if self.config == "squad" else "gun")
        other = "weapon" if member == "unit" else "unit"
        # A8.31: FPF is by a unit marked Final Fire; in the MPh a unit whose SW is marked Final Fire
        # counts as marked (A8.3: "that unit and all its SW/Guns"; flowchart **).
        unit_final = self.unit == "final_fire" or (group_final and self.unit in ("none", "first_fire"))
        return Firer(self.option, self.phase, self.range, who, own, group_final, partner, other in self.firers,
                     unit_final)

    def expected(self) -> dict[str, Any]:
        forbid = sorted({(r.rule, r.quote) for m in self.firers for r in forbidding(self.firer(m))})
        if forbid:
            return {"verdict": "forbidden", "because": forbid}
        new = marks(self.config, self.phase, self.option, self.firers)
        after = {m: new.get(m, (c, None)) for m, c in (("unit", self.unit), ("weapon", self.weapon))}
        return {"verdict": "allowed", "after": after,
                "sustained": sustained(self.config, self.option, self.weapon, self.firers)}


IDS = {"squad": ("g-sq", "g-lmg"), "crew": ("g-crew", "g-gun")}


def situation_text(config: str, phase: str, unit: str, weapon: str, rng: int) -> str:
    target_hex, from_hex = ("C3", "C4") if rng == 1 else ("C5", "C6")
    if config == "squad":
        firer = (f"{{id: g-sq, side: german, type: squad, counter: 4-6-7, hex: C2, fire: {unit}, weapons: "
                 f"[{{id: g-lmg, kind: LMG, fp: 3, range: 8, rof: 1, breakdown: 11, fire: {weapon}}}]}}")
    else:
        firer = (f"{{id: g-crew, side: german, type: crew, counter: 2-2-8, hex: C2, fire: {unit}, weapons: "
                 f"[{{id: g-gun, kind: gun, fp: 6, range: 12, fire: {weapon}}}]}}")
    moving = f", moving: {{from: {from_hex}, mf_here: 1}}" if phase == "MPh" else ""
    title = f"fire-counter matrix: {config}, {phase}, unit {unit}, weapon {weapon}, target at range {rng}"
    return (f"# Written by tests/test_fire_counter_matrix.py --write from its table; do not edit by hand.\n"
            f"title: \"{title}\"\nsource: \"A8.1, A8.15, A8.3, A8.31, A8.311, A8.4, A8.41 (seed 004), the First "
            f"Fire flowchart ** (seeds 000/001), C5.6, A9.3: the sentences quoted at each item\"\nphase: {phase}\n"
            f"attacker: russian\nunits:\n  - {firer}\n"
            f"  - {{id: r-447, side: russian, type: squad, counter: 4-4-7, hex: {target_hex}{moving}}}\n")


def cells_of(config: str, phase: str, unit: str, weapon: str, rng: int) -> list[Cell]:
    return [Cell(config, phase, unit, weapon, rng, o, f) for o in OPTIONS for f in CONFIGS[config]]


def _quote(q: tuple[str, str]) -> str:
    return f'{q[0]}: "{q[1]}"'


def case_text(config: str, phase: str, unit: str, weapon: str, rng: int) -> str:
    """The group's case file: every cell an expect item with the table's answer and the sentences
    it follows from."""
    unit_id, weapon_id = IDS[config]
    items = []
    for c in cells_of(config, phase, unit, weapon, rng):
        firers = {"unit": [unit_id], "weapon": [weapon_id], "both": [unit_id, weapon_id]}[c.fires]
        exp = c.expected()
        head = f"  - attack: {{option: {c.option}, firers: [{', '.join(firers)}], targets: [r-447]}}\n"
        if exp["verdict"] == "forbidden":
            why = "".join(f"    # {_quote(q)}\n" for _, q in exp["because"])
            rules = sorted({r for r, _ in exp["because"]})
            items.append(head + why + "    verdict: forbidden\n    reasons:\n" +
                         "".join(f"      - {{rule: {r}, role: forbid}}\n" for r in rules))
            continue
        why = sorted({src for _, src in exp["after"].values() if src} | ({exp["sustained"]} if exp["sustained"] else set()))
        after = ", ".join(f"{i}: {exp['after'][m][0]}" for m, i in (("unit", unit_id), ("weapon", weapon_id)))
        text = head + "".join(f"    # {_quote(q)}\n" for q in why) + f"    verdict: allowed\n    after: {{{after}}}\n"
        if config == "squad" and "weapon" in c.firers:
            text += f"    breakdown: {{{weapon_id}: {9 if exp['sustained'] else 11}}}\n"
        items.append(text)
    return situation_text(config, phase, unit, weapon, rng) + "expect:\n" + "".join(items)


def case_name(group: tuple) -> str:
    config, phase, unit, weapon, rng = group
    return f"{config}_{phase.lower()}_unit-{unit}_weapon-{weapon}_range{rng}.yaml"


GROUPS = [(cfg, ph, u, w, r) for cfg in CONFIGS for ph in PHASES for u in COUNTERS for w in COUNTERS for r in RANGES]


MATRIX = Path(__file__).resolve().parent / "cases" / "fire_counters" / "matrix"


@cache
def answers() -> dict[Cell, Any]:
    """The KB's answer to every cell (for the printed matrix)."""
    situations = [load_text(case_text(*g), f"matrix:{'/'.join(map(str, g))}") for g in GROUPS]
    outcomes = check(situations)
    cells = [c for g in GROUPS for c in cells_of(*g)]
    assert len(outcomes) == len(cells)
    return {c: o.answer for c, o in zip(cells, outcomes)}


def actual(cell: Cell) -> dict[str, Any]:
    ans = answers()[cell]
    unit_id, weapon_id = IDS[cell.config]
    after = ans.figure("after") or {}
    return {"verdict": ans.verdict, "after": {"unit": after.get(unit_id, "none"), "weapon": after.get(weapon_id, "none")},
            "breakdown": (ans.figure("breakdown") or {}).get(weapon_id)}


def write() -> None:
    MATRIX.mkdir(parents=True, exist_ok=True)
    for old in MATRIX.glob("*.yaml"):
        old.unlink()
    for g in GROUPS:
        (MATRIX / case_name(g)).write_text(case_text(*g), encoding="utf-8")
    for g in RESIDUAL:
        (MATRIX / residual_name(g)).write_text(residual_text(*g), encoding="utf-8")


def label(c: Cell) -> str:
    return f"{c.config}-{c.phase}-unit_{c.unit}-weapon_{c.weapon}-range{c.range}-{c.option}-{c.fires}"


ALL_CELLS = [c for g in GROUPS for c in cells_of(*g)]


def test_the_matrix_folder_is_the_tables() -> None:
    """tests/cases/fire_counters/matrix holds a case file per group, as the table writes it (aslrules
    check runs them with the other cases: tests/test_cases.py)."""
    on_disk = {p.name: p.read_text(encoding="utf-8") for p in MATRIX.glob("*.yaml")}
    wanted = {case_name(g): case_text(*g) for g in GROUPS} | {residual_name(g): residual_text(*g) for g in RESIDUAL}
    stale = sorted(n for n in wanted.keys() | on_disk.keys() if on_disk.get(n) != wanted.get(n))
    assert not stale, f"{len(stale)} files differ, {stale[:3]}...: python tests/test_fire_counter_matrix.py --write"


def test_a_cell_against_the_table_fails() -> None:
    """A matrix case holds because the KB agrees with the table: one cell's counter after, changed,
    fails its check, and only that cell."""
    group = ("squad", "MPh", "none", "none", 1)
    text = case_text(*group).replace("after: {g-sq: first_fire, g-lmg: first_fire}",
                                     "after: {g-sq: final_fire, g-lmg: first_fire}", 1)
    assert text != case_text(*group)
    failed = [o for o in check([load_text(text, "changed.yaml")]) if not o.passed]
    assert [[m.field for m in o.mismatches] for o in failed] == [["after"]]


def test_table_covers_both_verdicts() -> None:
    """Every option has an allowed cell and a forbidden one (no row that cannot fail)."""
    for option in OPTIONS:
        verdicts = {c.expected()["verdict"] for c in ALL_CELLS if c.option == option}
        assert verdicts == {"allowed", "forbidden"}, option


def test_every_row_decides_a_cell() -> None:
    """Each FORBID row of the table applies to some cell: none is dead weight."""
    for row in ROWS:
        assert any(row.applies(c.firer(m)) for c in ALL_CELLS for m in c.firers), row


# --------------------------------------------------------------------------- Residual FP attacks


def residual_text(phase: str, unit: str, weapon: str) -> str:
    """A Residual FP attack has no firer: the fire counters around change nothing (A8.2), and it
    changes none; it is made in the MPh only."""
    if phase == "MPh":
        answer = f"    # {_quote(A82_ATTACK)}\n    verdict: mandatory\n"
    else:
        answer = f"    # {_quote(A82_END)}\n    verdict: forbidden\n    reasons:\n      - {{rule: A8.2, role: forbid}}\n"
    return (situation_text("squad", phase, unit, weapon, 1).replace("fire-counter matrix:", "fire-counter matrix, "
            "Residual FP:") + "residual_fp: {C3: 2}\nexpect:\n  - attack: {option: residual_fp, targets: [r-447]}\n"
            + answer + "    after: {g-sq: none, g-lmg: none}  # it marks no counter\n")


RESIDUAL = [(ph, u, w) for ph in PHASES for u in COUNTERS for w in COUNTERS]


def residual_name(group: tuple) -> str:
    phase, unit, weapon = group
    return f"residual_{phase.lower()}_unit-{unit}_weapon-{weapon}.yaml"


# --------------------------------------------------------------------------- the matrix, printed

SHORT = {"none": "-", "first_fire": "1st", "final_fire": "fin", "intensive_fire": "IF", "no_fire": "NF"}
OPTION_SHORT = {"first_fire": "FF", "snap_shot": "Snap", "subsequent_first_fire": "SFF",
                "final_protective_fire": "FPF", "final_fire": "Final", "intensive_fire": "IntF"}


def render() -> str:
    """The matrix as text: per config, phase and range, a row per (unit, weapon) counter pair and a
    column per (option, who fires); each cell the KB's verdict (A allowed, x forbidden) and, for an
    allowed cell, the counters after (unit/weapon) and an S when the LMG uses Sustained Fire."""
    lines = []
    for config in CONFIGS:
        for phase, rng in itertools.product(PHASES, RANGES):
            cols = [(o, f) for o in OPTIONS for f in CONFIGS[config]]
            lines.append(f"\n{config}, {phase}, target at range {rng}")
            lines.append("unit/weapon | " + " | ".join(f"{OPTION_SHORT[o]}:{f[0]}" for o, f in cols))
            for u, w in itertools.product(COUNTERS, COUNTERS):
                row = []
                for o, f in cols:
                    got = actual(Cell(config, phase, u, w, rng, o, f))
                    if got["verdict"] == "forbidden":
                        row.append("x")
                        continue
                    a = got["after"]
                    mark = "S" if got["breakdown"] == 9 else ""
                    row.append(f"{SHORT[a['unit']]}/{SHORT[a['weapon']]}{mark}")
                lines.append(f"{SHORT[u]}/{SHORT[w]} | " + " | ".join(row))
    return "\n".join(lines)


if __name__ == "__main__":
    if "--write" in sys.argv:
        write()
        print(f"{len(GROUPS) + len(RESIDUAL)} case files in {MATRIX}")
    else:
        print(render())
