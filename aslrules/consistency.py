"""The curator's consistency report (`aslrules rulings PATH...`): which rulings the rules allow,
under which readings, and which rulings cannot all be true together.

Every rule decision stays in the KB.  This module runs each ruling's cases through the KB
(`core.compare` on the KB's answers, as `aslrules check` does) under assignments of the named
readings (schema.READINGS), and aggregates the table "case x assignment -> holds":

* per ruling: holds (under every assignment), holds only under some readings, contradicted
  (under none), not encodable (no case);
* the readings that fit: the assignment satisfying the most current rulings, found by clingo
  (readings as a choice, rulings as weak constraints weighted by status), and whether it is
  unique;
* conflicts: every minimal set of rulings that no assignment satisfies together (MARCO over
  clingo solve calls under assumptions; each core shrunk to a minimal one);
* errata impact: which rulings change status when some readings take other values;
* coverage: how many of the current rulings that bear on a rule of the rules-in-scope list
  (aslrules/scope.py) have cases.

Only the readings that change a case's answer are varied for it: the KB's relevance analysis
(aslrules/fast/relevance.py, which knows no ASL) says which rules can fire for the case's facts
and so which readings may matter (with the plain solver: all of them); each of those is tried
alone, and those that change the case's answers are varied together (`run_tables`).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import clingo
import msgspec
from clingo import Function, Number, String, ast

from . import schema as S
from .answers import Answer, read_answers
from .core import Outcome, build_facts, compare, engine
from .fast import Solver, no_cyclic_gc
from .errors import InputError
from .inputcheck import raise_input_errors
from .model import Situation
from .rulings import Ruling
from .scope import base_ids, scope_ids

Assignment = tuple[tuple[str, str], ...]  # (reading, value) pairs, sorted by reading: a partial assignment

STATUSES = ("holds", "needs_reading", "contradicted", "not_encodable")
STATUS_TEXT = {"holds": "holds", "needs_reading": "holds only under readings", "contradicted": "contradicted",
               "not_encodable": "not encodable"}
BATCH = 100


def defaults() -> dict[str, str]:
    return {name: values[0] for name, values in S.READINGS.items()}


def text_of(assignment: Iterable[tuple[str, str]]) -> str:
    return ", ".join(f"{n}={v}" for n, v in assignment)


def parse_readings(items: Sequence[str], where: str = "--reading") -> dict[str, str]:
    """NAME=VALUE items (a named reading and one of its values) as a mapping; InputError otherwise."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        values = S.READINGS.get(name)
        if not sep or values is None:
            raise InputError(where, None, "", f"NAME=VALUE with NAME a named reading: {', '.join(S.READINGS)}", item)
        if value not in values:
            raise InputError(where, None, "", f"a value of {name}: {', '.join(values)}", item)
        if name in out and out[name] != value:
            raise InputError(where, None, "", f"one value for {name}", item)
        out[name] = value
    return out


# --------------------------------------------------------------------------- which readings to vary

_ALL = frozenset(["*"])


_MENTIONS: dict[int, tuple[Any, list[frozenset[str]]]] = {}  # id(program) -> (program, its mentions)
_RELEVANT: dict[tuple[int, frozenset], tuple[str, ...]] = {}  # (id(program), abstract domain) -> readings


def _mentions(program: Sequence[Any]) -> list[frozenset[str]]:
    """Per statement of the KB: the names of the readings it mentions (`reading(Name,_)`);
    _ALL when it mentions one by a variable.  Made once per program."""
    found_before = _MENTIONS.get(id(program))
    if found_before is not None and found_before[0] is program:
        return found_before[1]

    out: list[frozenset[str]] = []
    for stm in program:
        found: set[str] = set()

        class Visit(ast.Transformer):
            def visit_Function(self, x: ast.AST) -> ast.AST:
                if x.name == "reading" and len(x.arguments) == 2:
                    first = x.arguments[0]
                    if first.ast_type == ast.ASTType.SymbolicTerm and first.symbol.type == clingo.SymbolType.Function:
                        found.add(first.symbol.name)
                    elif first.ast_type == ast.ASTType.Function and not first.arguments:
                        found.add(first.name)
                    else:
                        found.add("*")
                self.visit_children(x)
                return x

        Visit()(stm)
        out.append(_ALL if "*" in found else frozenset(found))
    _MENTIONS[id(program)] = (program, out)
    return out


def relevant_readings(eng: Solver, sit: Situation) -> tuple[str, ...]:
    """The named readings whose value may change the answers of `sit`'s questions: those some
    rule that can fire for its facts mentions (an over-approximation, never too few)."""
    names = tuple(S.READINGS)
    relevance = getattr(eng, "relevance", None)
    program = getattr(eng, "program", None)
    if relevance is None or program is None or not getattr(eng, "prune", False):
        return names
    from .fast.relevance import _ANY

    rel = relevance()
    dom = rel.domain(build_facts(sit).facts)
    slots = dom.get(("reading", 2))
    if slots is not None:  # every value of every reading may be given
        for k, tokens in enumerate(slots):
            if tokens is not _ANY:
                tokens.update(("c", n) for n in S.READINGS) if k == 0 else \
                    tokens.update(("c", v) for vs in S.READINGS.values() for v in vs)
    key = (id(program), rel.key(dom))
    known = _RELEVANT.get(key)
    if known is not None:
        return known
    keep, _ = rel.prune(dom)
    mentions = _mentions(program)
    found: set[str] = set()
    for i in keep:
        m = mentions[i]
        if m is _ALL:
            found = set(names)
            break
        found |= m
    if len(_RELEVANT) > 4096:
        _RELEVANT.clear()
    _RELEVANT[key] = tuple(n for n in names if n in found)
    return _RELEVANT[key]


# --------------------------------------------------------------------------- running the cases


@dataclass
class Run:
    """One case answered under one assignment of its varied readings."""

    outcomes: list[Outcome] = field(default_factory=list)
    error: InputError | None = None

    @property
    def holds(self) -> bool:
        return self.error is None and all(o.passed for o in self.outcomes)


@dataclass
class CaseTable:
    """One case of a ruling: the readings varied for it and its runs by (partial) assignment."""

    ruling: Ruling
    index: int
    situation: Situation
    readings: tuple[str, ...]  # varied: changing one of them changes its answers
    runs: dict[Assignment, Run] = field(default_factory=dict)  # by assignment of `readings`
    tried: tuple[str, ...] = ()  # the readings the static analysis let through (each tried alone)
    answered: int = 0  # runs answered for it

    def run(self, assignment: dict[str, str]) -> Run:
        return self.runs[tuple((n, assignment[n]) for n in self.readings)]


def with_readings(sit: Situation, assignment: dict[str, str]) -> Situation:
    """The situation under other values of the named readings."""
    data = msgspec.structs.replace(sit.data, readings=S.Readings(**assignment))
    return Situation(sit.path, data, sit.expect, sit.board, sit.lines, sit.ask, sit.listing)


def _assignments(names: Sequence[str], base: dict[str, str] | None = None) -> list[dict[str, str]]:
    base = base or defaults()
    return [{**base, **dict(zip(names, values))}
            for values in itertools.product(*(S.READINGS[n] for n in names))]


def answer_all(eng: Solver, situations: Sequence[Situation], *, asked: bool = False
               ) -> list[tuple[dict[Any, Answer] | None, InputError | None]]:
    """Each situation's answers (or the KB's input error), `BATCH` to a grounding (`asked`: its
    `ask:` questions too, numbered after its `expect:` ones)."""
    out: list[tuple[dict[Any, Answer] | None, InputError | None]] = []
    with no_cyclic_gc():
        for i in range(0, len(situations), BATCH):
            chunk = situations[i:i + BATCH]
            for sit, atoms in zip(chunk, eng.solve_many([build_facts(s, asked=asked).facts for s in chunk])):
                try:
                    raise_input_errors(sit, atoms)
                except InputError as e:
                    out.append((None, e))
                    continue
                out.append((read_answers(atoms), None))
    return out


def _prefixed(e: InputError, k: int) -> InputError:
    return InputError(e.file, e.line, f"cases[{k}]" + ("." + e.path if e.path and not e.path.startswith("[")
                                                         else e.path), e.expected, e.got)


def _signature(run: Run) -> Any:
    """What a run answered (verdicts and figures), or its error: two runs with the same
    signature gave the same answers."""
    if run.error is not None:
        return str(run.error)
    return [(o.answer.verdict, o.answer.figures) for o in run.outcomes]


def run_tables(rulings: Sequence[Ruling], eng: Solver) -> list[CaseTable]:
    """Every case of every ruling, under every assignment of the readings varied for it.

    Which readings are varied for a case, in rounds: the static analysis names those that may
    matter (`relevant_readings`); a reading is varied when changing its value alone changes the
    case's answers under the defaults, or under an assignment of the readings varied so far.
    Each round answers every case's new runs in one batch of groundings."""
    base = defaults()
    tables: list[CaseTable] = []
    static: dict[int, tuple[str, ...]] = {}
    seen: dict[int, dict[Assignment, Run]] = {}
    for r in rulings:
        for k, sit in enumerate(r.cases):
            table = CaseTable(r, k, sit, ())
            tables.append(table)
            static[id(table)] = relevant_readings(eng, sit)
            seen[id(table)] = {}

    def full(table: CaseTable, a: dict[str, str]) -> Assignment:
        return tuple((n, a[n]) for n in static[id(table)])

    def wanted(table: CaseTable) -> list[dict[str, str]]:
        """The assignments of the varied readings, and each with one other reading changed."""
        out = []
        for a in _assignments(table.readings, base):
            out.append(a)
            for n in static[id(table)]:
                if n not in table.readings:
                    out.extend({**a, n: v} for v in S.READINGS[n] if v != a[n])
        return out

    growing = list(tables)
    while growing:
        jobs: list[tuple[CaseTable, Assignment, Situation]] = []
        for table in growing:
            for a in wanted(table):
                key = full(table, a)
                if key not in seen[id(table)]:
                    jobs.append((table, key, with_readings(table.situation, a)))
        results = answer_all(eng, [j[2] for j in jobs])
        for (table, key, sit), (answers, error) in zip(jobs, results):
            if error is not None:
                seen[id(table)][key] = Run(error=_prefixed(error, table.index))
                continue
            outcomes = [Outcome(sit, q, exp, answers.get(q, Answer(qid=q)), []) for q, exp in enumerate(sit.expect)]
            for o in outcomes:
                o.mismatches = compare(o.expectation, o.answer)
            seen[id(table)][key] = Run(outcomes)
        still = []
        for table in growing:
            runs = seen[id(table)]
            more = set()
            for a in _assignments(table.readings, base):
                here = _signature(runs[full(table, a)])
                for n in static[id(table)]:
                    if n not in table.readings and n not in more and any(
                            _signature(runs[full(table, {**a, n: v})]) != here for v in S.READINGS[n] if v != a[n]):
                        more.add(n)
            if more:
                table.readings = tuple(n for n in S.READINGS if n in table.readings or n in more)
                still.append(table)
        growing = still
    for table in tables:
        runs = seen[id(table)]
        table.runs = {tuple((n, a[n]) for n in table.readings): runs[full(table, a)]
                      for a in _assignments(table.readings, base)}
        table.tried = tuple(static[id(table)])
        table.answered = len(runs)
    for table in tables:  # what `aslrules check` would refuse is unreadable input here too
        run = table.run(base)
        if run.error is not None:
            raise run.error
    return tables


# --------------------------------------------------------------------------- per ruling


@dataclass
class RulingResult:
    ruling: Ruling
    cases: list[CaseTable]
    readings: tuple[str, ...]  # varied for some case
    holds: dict[Assignment, bool]  # full assignments over `readings`
    influential: tuple[str, ...]  # the readings its holding depends on
    status: str  # one of STATUSES
    holding: list[Assignment]  # the assignments over `influential` under which it holds
    overturned: dict[str, Any] | None = None  # obsolete rulings with overturned_by: what the check found

    @property
    def id(self) -> str:
        return self.ruling.id

    def holds_under(self, assignment: dict[str, str]) -> bool | None:
        """Whether it holds under a full assignment of every reading (None: no case)."""
        if not self.cases:
            return None
        return self.holds[tuple((n, assignment[n]) for n in self.readings)]


def judge(ruling: Ruling, cases: list[CaseTable]) -> RulingResult:
    names = tuple(n for n in S.READINGS if any(n in c.readings for c in cases))
    holds: dict[Assignment, bool] = {}
    for a in _assignments(names):
        holds[tuple((n, a[n]) for n in names)] = all(c.run(a).holds for c in cases)
    influential = tuple(n for i, n in enumerate(names) if any(
        holds[key] != holds[key[:i] + ((n, v),) + key[i + 1:]]
        for key in holds for v in S.READINGS[n]))
    holding = sorted({tuple((n, v) for n, v in key if n in influential) for key, ok in holds.items() if ok}) \
        if cases else []
    if not cases:
        status = "not_encodable"
    elif all(holds.values()):
        status = "holds"
    elif any(holds.values()):
        status = "needs_reading"
    else:
        status = "contradicted"
    result = RulingResult(ruling, cases, names, holds, influential, status, holding)
    if ruling.status == "obsolete" and ruling.data.overturned_by and cases:
        by = {rv.reading: rv.value for rv in ruling.data.overturned_by}
        under = {**defaults(), **by}
        elsewhere = [dict(key) for key, ok in holds.items() if ok
                     and any(dict(key).get(n, defaults()[n]) != v for n, v in by.items())]
        fails_under = not result.holds_under(under)
        result.overturned = {
            "by": by,
            "confirmed": fails_under and bool(elsewhere),
            "fails_under_it": fails_under,
            "holds_otherwise": sorted({tuple((n, a[n]) for n in influential) for a in elsewhere}),
        }
    return result


# --------------------------------------------------------------------------- clingo: fit and conflicts

#: The readings as a choice and each ruling as a weak constraint: a ruling holds when the
#: assignment matches one of its holding alternatives.  Facts come through the backend.
FIT_PROGRAM = """
1 { assign(N,V) : value(N,V) } 1 :- choose(N).
holds(R) :- alt(R,K), assign(N,V) : cond(R,K,N,V).
:~ weight(R,W), not holds(R). [W,R]
#show assign/2.
"""


def _control(results: Sequence[RulingResult], args: Sequence[str] = ()) -> tuple[clingo.Control, list[str]]:
    """A Control holding FIT_PROGRAM and the facts of the reading-dependent rulings, grounded;
    and the readings chosen (those some ruling's holding depends on)."""
    ctl = clingo.Control(["--warn=none", *args])
    ctl.add("base", [], FIT_PROGRAM)
    chosen = sorted({n for r in results for n in r.influential}, key=list(S.READINGS).index)
    with ctl.backend() as b:
        def fact(name: str, *xs: clingo.Symbol) -> None:
            b.add_rule([b.add_atom(Function(name, list(xs)))])

        for n in chosen:
            fact("choose", Function(n))
            for v in S.READINGS[n]:
                fact("value", Function(n), Function(v))
        for r in results:
            rid = String(r.id)
            fact("weight", rid, Number(S.RULING_WEIGHTS[r.ruling.status]))
            for k, alt in enumerate(r.holding):
                fact("alt", rid, Number(k))
                for n, v in alt:
                    fact("cond", rid, Number(k), Function(n), Function(v))
    ctl.ground([("base", [])])
    return ctl, chosen


@dataclass
class Fit:
    assignment: dict[str, str]  # every reading: the chosen value (readings no ruling decides: default)
    decided: list[str]  # the readings some counted ruling's holding depends on
    optima: list[dict[str, str]]  # every optimal assignment of the decided readings
    satisfied: int  # counted rulings that hold under it
    counted: int  # rulings counted (current and unclear, with cases)
    weight: int
    total_weight: int

    @property
    def unique(self) -> bool:
        return len(self.optima) == 1


def fit(results: Sequence[RulingResult]) -> Fit:
    """The assignment of the named readings that satisfies the most rulings, weighted by status
    (schema.RULING_WEIGHTS: obsolete rulings weigh nothing); among equal ones, the one with
    the fewest readings away from their defaults."""
    counted = [r for r in results if r.cases and S.RULING_WEIGHTS[r.ruling.status] > 0]
    dependent = [r for r in counted if r.status == "needs_reading"]
    ctl, chosen = _control(dependent, ["--opt-mode=optN", "0"])
    optima: list[dict[str, str]] = []
    with ctl.solve(yield_=True) as handle:
        for m in handle:
            if m.optimality_proven:
                optima.append({s.arguments[0].name: s.arguments[1].name for s in m.symbols(shown=True)})
    if not optima:  # nothing to choose: the defaults
        optima = [{}]
    base = defaults()
    order = list(S.READINGS)
    optima.sort(key=lambda a: (sum(a[n] != base[n] for n in a), [S.READINGS[n].index(a[n]) for n in order if n in a]))
    best = {**base, **optima[0]}
    ok = [r for r in counted if r.holds_under(best)]
    weight = lambda rs: sum(S.RULING_WEIGHTS[r.ruling.status] for r in rs)
    return Fit(best, chosen, optima, len(ok), len(counted), weight(ok), weight(counted))


@dataclass
class Conflict:
    rulings: list[RulingResult]
    hinges_on: list[str]


def conflicts(results: Sequence[RulingResult]) -> list[Conflict]:
    """Every minimal set of (current or unclear) rulings that no assignment satisfies together.

    MARCO: a map solver (clingo, one `sel` atom per candidate) proposes a subset not yet
    explored; the ruling program solved under the assumptions `holds(R)` says whether some
    assignment satisfies it.  A satisfiable subset is grown to a maximal one and every subset of
    it blocked; an unsatisfiable one is shrunk, from clingo's core, to a minimal one (deletion:
    one solve per member) and every superset of it blocked.  Only rulings that hold under some
    readings but not others can take part: one that always holds never conflicts, one that
    never holds is contradicted on its own."""
    candidates = [r for r in results if r.status == "needs_reading" and S.RULING_WEIGHTS[r.ruling.status] > 0]
    if len(candidates) < 2:
        return []
    ctl, _ = _control(candidates)
    lits = {r.id: ctl.symbolic_atoms[Function("holds", [String(r.id)])].literal for r in candidates}
    by_lit = {lit: rid for rid, lit in lits.items()}

    def core(ids: Iterable[str]) -> list[str] | None:
        """None when some assignment satisfies them all; else the ids of clingo's core."""
        found: list[int] = []
        result = ctl.solve(assumptions=[lits[i] for i in ids], on_core=found.extend)
        return None if result.satisfiable else [by_lit[x] for x in found if x in by_lit]

    ids = [r.id for r in candidates]
    mapper = clingo.Control(["--warn=none", "--sign-def=pos"])
    with mapper.backend() as b:
        sel = {i: b.add_atom(Function("sel", [String(i)])) for i in ids}
        b.add_rule(list(sel.values()), choice=True)
    mapper.ground([("base", [])])
    found: list[list[str]] = []
    while True:
        seed: list[str] | None = None
        with mapper.solve(yield_=True) as handle:
            for m in handle:
                seed = [i for i in ids if m.contains(Function("sel", [String(i)]))]
                break
        if seed is None:
            break
        unsat = core(seed)
        with mapper.backend() as b:
            if unsat is None:  # grow to a maximal satisfiable subset, block its subsets
                grown = list(seed)
                for i in ids:
                    if i not in grown and core(grown + [i]) is None:
                        grown.append(i)
                rest = [i for i in ids if i not in grown]
                if not rest:
                    break
                b.add_rule([], [-sel[i] for i in rest])
            else:  # shrink the core to a minimal one, block its supersets
                mus = list(unsat) or list(seed)
                for i in list(mus):
                    smaller = [x for x in mus if x != i]
                    again = core(smaller)
                    if again is not None:
                        mus = [x for x in smaller if x in again] or smaller
                found.append(sorted(mus, key=ids.index))
                b.add_rule([], [sel[i] for i in mus])
    by_id = {r.id: r for r in candidates}
    out = []
    for mus in found:
        members = [by_id[i] for i in mus]
        counts: dict[str, int] = {}
        for r in members:
            for n in r.influential:
                counts[n] = counts.get(n, 0) + 1
        hinges = [n for n in S.READINGS if counts.get(n, 0) >= 2] or [n for n in S.READINGS if n in counts]
        out.append(Conflict(members, hinges))
    out.sort(key=lambda c: [ids.index(r.id) for r in c.rulings])
    return out


# --------------------------------------------------------------------------- errata impact


@dataclass
class Change:
    result: RulingResult
    before: bool
    after: bool


def impact(results: Sequence[RulingResult], overrides: dict[str, str]) -> list[Change]:
    """The rulings whose holding changes when `overrides` replace the defaults."""
    base = defaults()
    changed = {**base, **overrides}
    out = []
    for r in results:
        if not r.cases:
            continue
        before, after = r.holds_under(base), r.holds_under(changed)
        if before != after:
            out.append(Change(r, bool(before), bool(after)))
    return out


# --------------------------------------------------------------------------- the report


@dataclass
class Coverage:
    with_cases: list[str]  # ruling ids
    without_cases: list[str]

    @property
    def bearing(self) -> int:
        return len(self.with_cases) + len(self.without_cases)

    @property
    def percent(self) -> int:
        """Rounded down: 57 of 72 is 79%, never 80%."""
        return 100 * len(self.with_cases) // self.bearing if self.bearing else 100

    def line(self) -> str:
        return (f"{len(self.with_cases)} of {self.bearing} current rulings that bear on rules in scope "
                f"have cases ({self.percent}%)")


@dataclass
class Report:
    results: list[RulingResult]
    fit: Fit
    conflicts: list[Conflict]
    overrides: dict[str, str]
    changes: list[Change]
    scope: set[str] | None = None  # the rule ids of the rules-in-scope list (None: not found)

    @property
    def ok(self) -> bool:
        """Every current ruling with cases holds under the fitting assignment."""
        return all(r.holds_under(self.fit.assignment) for r in self.results
                   if r.cases and r.ruling.status == "current")

    def tensions(self) -> list[tuple[str, str, list[RulingResult], list[Conflict]]]:
        """Each tension the rulings name (`tensions:`): its verdict (conflict, contradicted, needs
        reading, holds, not encodable: the first that applies), its rulings and its conflicts."""
        by: dict[str, list[RulingResult]] = {}
        for r in self.results:
            for t in r.ruling.data.tensions:
                by.setdefault(t, []).append(r)
        out = []
        for t in sorted(by, key=_rule_key):
            rs = by[t]
            ids = {r.id for r in rs}
            cs = [c for c in self.conflicts if ids & {r.id for r in c.rulings}]
            statuses = {r.status for r in rs}
            order = ("contradicted", "needs_reading", "holds")
            verdict = "conflict" if cs else next((s.replace("_", " ") for s in order if s in statuses),
                                                 "not encodable")
            out.append((t, verdict, rs, cs))
        return out

    def coverage(self) -> Coverage | None:
        """The current rulings that bear on a rule in scope (a `rules:` id the rules-in-scope list
        names, or a listed id followed by a non-digit: `A8.41 EX`), and which of them have cases."""
        if self.scope is None:
            return None
        bearing = [r for r in self.results if r.ruling.status == "current"
                   and any(base_ids(rule, self.scope) for rule in r.ruling.data.rules)]
        return Coverage([r.id for r in bearing if r.cases], [r.id for r in bearing if not r.cases])

    def summary(self) -> list[tuple[str, dict[str, int]]]:
        """By rule id: how many rulings bear on it, and how many of each status."""
        rows: dict[str, dict[str, int]] = {}
        for r in self.results:
            for rule in dict.fromkeys(r.ruling.data.rules or ["(none)"]):
                row = rows.setdefault(rule, {"rulings": 0, **{s: 0 for s in STATUSES}})
                row["rulings"] += 1
                row[r.status] += 1
        return sorted(rows.items(), key=lambda kv: _rule_key(kv[0]))


def _rule_key(rule: str) -> list[Any]:
    import re

    rule = re.sub(r"^([A-Za-z]+)\.", r"\g<1>0.", rule)  # A.8 (the chapter's opening) before A1
    return [(0, int(x), "") if x.isdigit() else (1, 0, x) for x in re.findall(r"\d+|[^\d.]+", rule)]


def report(rulings: Sequence[Ruling], *, overrides: dict[str, str] | None = None,
           eng: Solver | None = None, scope: set[str] | None = None) -> Report:
    """Check every ruling under the readings, and aggregate (what `aslrules rulings` prints)."""
    eng = eng or engine()
    tables = run_tables(rulings, eng)
    by_ruling: dict[int, list[CaseTable]] = {}
    for t in tables:
        by_ruling.setdefault(id(t.ruling), []).append(t)
    results = [judge(r, by_ruling.get(id(r), [])) for r in rulings]
    return assemble(results, overrides=overrides, scope=scope)


def assemble(results: Sequence[RulingResult], *, overrides: dict[str, str] | None = None,
             scope: set[str] | None = None) -> Report:
    """The report of rulings judged (`judge`): the readings that fit them, their conflicts and what
    `overrides` overturn."""
    overrides = overrides or {}
    return Report(list(results), fit(results), conflicts(results), overrides, impact(results, overrides),
                  scope if scope is not None else scope_ids())


# --------------------------------------------------------------------------- the snapshot

#: What the rulings snapshot keeps of each ruling (`aslrules rulings --snapshot`): what the KB
#: decides about it, none of its texts.
SNAPSHOT_FIELDS = ("ruling", "status", "check", "readings_varied", "depends_on", "holds_under", "table",
                   "overturned")


def snapshot(rep: Report) -> dict[str, Any]:
    """What a report decides, as JSON data to commit and compare (tests/data/rulings-snapshot.json):
    each ruling's status, the readings varied for it and under which it holds; the readings that
    fit; the conflicts; the tensions' verdicts."""
    data = as_json(rep)
    return {
        "rulings": {r["ruling"]: {k: r[k] for k in SNAPSHOT_FIELDS[1:] if k in r} for r in data["rulings"]},
        "fit": {k: data["fit"][k] for k in ("readings", "decided", "unique", "optima", "satisfied", "counted")},
        "conflicts": [{"rulings": c["rulings"], "hinges_on": c["hinges_on"]} for c in data["conflicts"]],
        "tensions": {t["tension"]: t["verdict"] for t in data["tensions"]},
        "ok": data["ok"],
    }


def snapshot_changes(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What moved between two snapshots, a line each (`P11: check: holds -> contradicted`); none
    when they are the same."""
    out: list[str] = []

    def show(value: Any) -> str:
        return json.dumps(value, sort_keys=True)

    rb, ra = before.get("rulings", {}), after.get("rulings", {})
    for rid in sorted(set(rb) | set(ra), key=_rule_key):
        if rid not in ra:
            out.append(f"{rid}: gone")
        elif rid not in rb:
            out.append(f"{rid}: new ({ra[rid].get('check')})")
        else:
            for key in dict.fromkeys([*rb[rid], *ra[rid]]):
                if rb[rid].get(key) != ra[rid].get(key):
                    out.append(f"{rid}: {key}: {show(rb[rid].get(key))} -> {show(ra[rid].get(key))}")
    for key in ("fit", "conflicts", "tensions", "ok"):
        if before.get(key) != after.get(key):
            out.append(f"{key}: {show(before.get(key))} -> {show(after.get(key))}")
    return out


# --------------------------------------------------------------------------- text and JSON


def needs_text(holding: Sequence[Assignment]) -> str:
    """`a=x, b=y or a=z`: the alternatives under which a ruling holds."""
    return " or ".join(text_of(alt) or "any readings" for alt in holding)


def verdict_text(r: RulingResult) -> str:
    """The one-line verdict of a ruling."""
    if r.status == "not_encodable":
        return f"not encodable: {_one_line(r.ruling.data.not_encodable or '')}"
    if r.overturned is not None:
        by = text_of(sorted(r.overturned["by"].items()))
        if r.overturned["confirmed"]:
            return f"overturned by {by} (holds under {needs_text(r.overturned['holds_otherwise'])})"
        if not r.overturned["fails_under_it"]:
            return f"not overturned by {by}: it still holds under it"
        return f"contradicted, not only by {by}: it holds under no reading"
    if r.status == "needs_reading":
        return f"holds only under {needs_text(r.holding)}"
    return r.status


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _case_head(r: RulingResult, t: CaseTable) -> str:
    title = f': "{t.situation.title}"' if t.situation.title else ""
    return f"{r.ruling.path}:{r.ruling.case_line(t.index)}: cases[{t.index}]{title}"


def failure_lines(r: RulingResult, indent: str) -> list[str]:
    """Each failed expectation of a ruling's cases under the defaults: what the ruling states,
    side by side with the KB's answer and the reasons that decided it."""
    from .render import answer_lines

    lines: list[str] = []
    base = defaults()
    for t in r.cases:
        run = t.run(base)
        if run.holds:
            continue
        lines.append(f"{indent}{_case_head(r, t)}")
        if run.error is not None:
            lines.append(f"{indent}  input error: {run.error}")
            continue
        for o in run.outcomes:
            if o.passed:
                continue
            part = f" (part {o.expectation.part})" if o.expectation.part else ""
            lines.append(f"{indent}  line {o.expectation.line}: expect[{o.index}]{part}")
            for m in o.mismatches:
                lines.append(f"{indent}    {m.field}: the ruling says {m.expected}; the KB says {m.actual}")
            lines.append(f"{indent}    the KB's answer:")
            lines.extend(answer_lines(o.answer, indent=indent + "      "))
        others = [a for a in t.runs if dict(a) != {n: base[n] for n in t.readings}]
        if others:
            lines.append(f"{indent}  (it fails too under every other value of {', '.join(t.readings)})"
                         if r.status == "contradicted" else "")
    return [x for x in lines if x]


def _who(results: Sequence[RulingResult]) -> str:
    return ", ".join(r.id for r in results)


def text_lines(rep: Report) -> list[str]:
    rs = rep.results
    by_status = {s: sum(r.ruling.status == s for r in rs) for s in ("current", "obsolete", "unclear")}
    width = max((len(r.id) for r in rs), default=4)
    out = [f"Rulings ({len(rs)}: " + ", ".join(f"{n} {s}" for s, n in by_status.items()) + ")"]
    for r in rs:
        out.append(f"  {r.id:<{width}}  {r.ruling.status:<8}  {verdict_text(r)}")
        if r.status == "contradicted":
            out.extend(failure_lines(r, "      "))
        if r.cases and r.ruling.data.not_encodable:
            out.append(f"      beyond its cases, not encodable: {_one_line(r.ruling.data.not_encodable)}")
    f = rep.fit
    out += ["", f"Readings that fit: {f.satisfied} of {f.counted} current and unclear rulings hold "
            f"(weight {f.weight} of {f.total_weight}; current {S.RULING_WEIGHTS['current']}, "
            f"unclear {S.RULING_WEIGHTS['unclear']})"]
    base = defaults()
    counted = [r for r in rs if r.status == "needs_reading" and S.RULING_WEIGHTS[r.ruling.status] > 0]
    for n in S.READINGS:
        v = f.assignment[n]
        note = "default" if v == base[n] else f"default {base[n]}"
        deciders = [r for r in counted if n in r.influential]
        why = f"decided by {_who(deciders)}" if deciders else "no ruling depends on it"
        out.append(f"  {n} = {v} ({note}); {why}")
    if f.unique:
        out.append("  unique: no other assignment satisfies as many")
    else:
        free = [n for n in f.decided if len({a.get(n) for a in f.optima}) > 1]
        shown = f.optima[:4]
        out.append(f"  not unique: {len(f.optima)} assignments satisfy as many; they differ on "
                   f"{', '.join(free)}: " + "; ".join(
                       text_of((n, a[n]) for n in free) for a in shown)
                   + ("; ..." if len(f.optima) > len(shown) else ""))
    out += ["", f"Conflicts ({len(rep.conflicts)})"]
    if not rep.conflicts:
        out.append("  none: every set of rulings some assignment satisfies together")
    for c in rep.conflicts:
        out.append(f"  {{{_who(c.rulings)}}} hinges on {', '.join(c.hinges_on)}")
        for r in c.rulings:
            out.append(f"    {r.id} needs {needs_text(r.holding)}")
            out.extend(f"      {_case_head(r, t)}" for t in r.cases)
    tensions = rep.tensions()
    if tensions:
        out += ["", f"Tensions ({len(tensions)})"]
        for t, verdict, members, cs in tensions:
            out.append(f"  {t}: {verdict}: " + "; ".join(f"{r.id} {verdict_text(r)}" for r in members))
            out.extend(f"    conflict {{{_who(c.rulings)}}} hinges on {', '.join(c.hinges_on)}" for c in cs)
    out += ["", "Errata impact"]
    obsolete = [r for r in rs if r.overturned is not None]
    for r in obsolete:
        out.append(f"  {r.id} (obsolete): {verdict_text(r)}")
    if rep.overrides:
        what = text_of(sorted(rep.overrides.items()))
        out.append(f"  {what} against the defaults: {len(rep.changes)} ruling(s) change")
        for ch in rep.changes:
            out.append(f"    {ch.result.id} ({ch.result.ruling.status}): {'holds' if ch.before else 'fails'} -> "
                       f"{'holds' if ch.after else 'fails'}")
    else:
        out.append("  (--reading NAME=VALUE shows which rulings a reading or an erratum overturns)")
    out += ["", "Summary by rule id"]
    head = ("rule", "rulings", "holds", "needs reading", "contradicted", "not encodable")
    rows = [(rule, str(c["rulings"]), *(str(c[s]) for s in STATUSES)) for rule, c in rep.summary()]
    widths = [max(len(x[i]) for x in [head, *rows]) for i in range(len(head))]
    for row in [head, *rows]:
        out.append("  " + "  ".join(x.ljust(w) if i == 0 else x.rjust(w) for i, (x, w) in enumerate(zip(row, widths))))
    current = [r for r in rs if r.cases and r.ruling.status == "current"]
    held = [r for r in current if r.holds_under(f.assignment)]
    out += ["", f"{len(held)} of {len(current)} current rulings with cases hold under the readings that fit"]
    cov = rep.coverage()
    if cov is None:
        out.append("coverage: the rules-in-scope list was not found")
    else:
        out.append(cov.line())
        if cov.without_cases:
            out.append(f"  without cases: {', '.join(cov.without_cases)}")
    return out


def _assignment_json(a: Iterable[tuple[str, str]]) -> dict[str, str]:
    return dict(a)


def _coverage_json(cov: Coverage | None) -> dict[str, Any] | None:
    if cov is None:
        return None
    return {"text": cov.line(), "with_cases": len(cov.with_cases), "bearing": cov.bearing, "percent": cov.percent,
            "rulings_with_cases": cov.with_cases, "rulings_without_cases": cov.without_cases}


def as_json(rep: Report) -> dict[str, Any]:
    base = defaults()
    rulings = []
    for r in rep.results:
        item: dict[str, Any] = {
            "ruling": r.id, "file": r.ruling.path, "status": r.ruling.status, "check": r.status,
            "verdict": verdict_text(r), "rules": list(r.ruling.data.rules), "tensions": list(r.ruling.data.tensions),
            "readings_varied": list(r.readings), "depends_on": list(r.influential),
            "holds_under": [_assignment_json(a) for a in r.holding],
            "not_encodable": r.ruling.data.not_encodable,
            "table": [{"readings": _assignment_json(k), "holds": ok} for k, ok in r.holds.items()],
        }
        if r.overturned is not None:
            item["overturned"] = {"by": r.overturned["by"], "confirmed": r.overturned["confirmed"],
                                  "holds_otherwise": [_assignment_json(a) for a in r.overturned["holds_otherwise"]]}
        failures = []
        for t in r.cases:
            run = t.run(base)
            for o in run.outcomes:
                if not o.passed:
                    failures.append({"case": t.index, "line": o.expectation.line, "part": o.expectation.part,
                                     "mismatches": [{"field": m.field, "ruling": str(m.expected), "kb": str(m.actual)}
                                                    for m in o.mismatches],
                                     "answer": o.answer.as_dict()})
            if run.error is not None:
                failures.append({"case": t.index, "error": str(run.error)})
        item["failures_under_defaults"] = failures
        rulings.append(item)
    f = rep.fit
    return {
        "rulings": rulings,
        "fit": {"readings": f.assignment, "decided": f.decided, "unique": f.unique, "optima": f.optima,
                "satisfied": f.satisfied, "counted": f.counted, "weight": f.weight, "total_weight": f.total_weight,
                "weights": S.RULING_WEIGHTS},
        "conflicts": [{"rulings": [r.id for r in c.rulings], "hinges_on": c.hinges_on,
                       "needs": {r.id: [_assignment_json(a) for a in r.holding] for r in c.rulings},
                       "situations": [{"ruling": r.id, "file": r.ruling.path, "line": r.ruling.case_line(t.index),
                                       "case": t.index, "title": t.situation.title}
                                      for r in c.rulings for t in r.cases]}
                      for c in rep.conflicts],
        "errata": {"readings": rep.overrides,
                   "changes": [{"ruling": ch.result.id, "status": ch.result.ruling.status,
                                "before": "holds" if ch.before else "fails", "after": "holds" if ch.after else "fails"}
                               for ch in rep.changes]},
        "tensions": [{"tension": t, "verdict": verdict, "rulings": {r.id: verdict_text(r) for r in members},
                      "conflicts": [[r.id for r in c.rulings] for c in cs]}
                     for t, verdict, members, cs in rep.tensions()],
        "summary": [{"rule": rule, **counts} for rule, counts in rep.summary()],
        "coverage": _coverage_json(rep.coverage()),
        "ok": rep.ok,
    }
