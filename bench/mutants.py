"""The KB's mutation tester: does the evidence notice when a rule changes?

    python bench/mutants.py [--sample N] [--seed S] [--file kb/x.lp ...] [--line N] [--kind K ...]
                            [-j N] [--json FILE] [--list]

Each *mutant* is the KB with one rule or constraint of kb/*.lp changed (not #show, #defined,
#const, the engine's case_independent/2 facts, nor kb/ift_table.lp, the generated IFT, which tests/test_ift_table.py checks against its
source):

* `delete`: the statement is left out;
* `drop`: one body literal is left out;
* `negate`: one body literal negated (`p` becomes `not p`, `not p` becomes `p`);
* `operator`: one comparison's operator moved across its boundary (`<=` and `<`, `>=` and `>`,
  `=` and `!=`);
* `number`: one number in arithmetic, a comparison or the head made one more (`+1` becomes `+2`).

A mutant that clingo refuses (an unsafe variable: `negate` of the atom that binds it) is
*stillborn* and not counted.  Each mutant runs the whole evidence: every case file of tests/cases
and examples (their replays included) as `aslrules check` runs it, and the rulings corpus as
`aslrules rulings` reports it (what tests/data/rulings-snapshot.json keeps).  It is *killed* when
an expectation that held fails, an answer becomes an error, or the rulings snapshot changes.

Only the evidence whose program may hold the statement is run again: the relevance analysis
(aslrules/fast/relevance.py) of each case file, and of each situation a replay or the rulings
report answers, is made once; a mutant of statement i runs a file when i is among the statements
kept for one of its situations, or (a mutant other than a deletion) when the mutated rule may
fire on what one of them may derive.  Elsewhere the mutant grounds to the same program.

A survivor listed in bench/equivalent_mutants.yaml (its file, the statement's text, the
mutation, and why: an equivalent mutant, or a rule no source fixes and the reading it rests on)
is reported as listed; any other survivor fails the run (exit 1).  docs/evidence.md says more.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import clingo
import yaml
from clingo import ast

ROOT = Path(__file__).resolve().parent.parent
CASES = ["tests/cases", "examples"]
RULINGS = ["rulings"]
EQUIVALENT = ROOT / "bench" / "equivalent_mutants.yaml"
EXCLUDED_FILES = {"ift_table.lp"}  # generated from shared/data; tests/test_ift_table.py checks it
KINDS = ("delete", "drop", "negate", "operator", "number")

T = ast.ASTType
_SWAP = {
    ast.ComparisonOperator.LessEqual: ast.ComparisonOperator.LessThan,
    ast.ComparisonOperator.LessThan: ast.ComparisonOperator.LessEqual,
    ast.ComparisonOperator.GreaterEqual: ast.ComparisonOperator.GreaterThan,
    ast.ComparisonOperator.GreaterThan: ast.ComparisonOperator.GreaterEqual,
    ast.ComparisonOperator.Equal: ast.ComparisonOperator.NotEqual,
    ast.ComparisonOperator.NotEqual: ast.ComparisonOperator.Equal,
}


# --------------------------------------------------------------------------- the mutants


@dataclass
class Mutant:
    index: int  # the statement's index in the parsed KB
    kind: str
    change: str  # what changed, in clingo's text (`drop not pinned(U)`)
    rule: ast.AST | None  # the mutated statement; None: deleted

    @property
    def key(self) -> tuple[str, str]:
        return self.kind, self.change


def _is_number(t: ast.AST) -> bool:
    return t.ast_type == T.SymbolicTerm and t.symbol.type == clingo.SymbolType.Number


class _Numbers(ast.Transformer):
    """Numbers of a rule in arithmetic, in comparisons and guards, and as head arguments: counted,
    or (with `target`) the `target`-th made one more."""

    def __init__(self, target: int = -1):
        self.count = 0
        self.target = target
        self.found: list[str] = []

    def _bump(self, t: ast.AST) -> ast.AST:
        if not _is_number(t):
            return self(t)
        k = self.count
        self.count += 1
        if k != self.target:
            return t
        self.found.append(f"{t.symbol.number} -> {t.symbol.number + 1}")
        return ast.SymbolicTerm(t.location, clingo.Number(t.symbol.number + 1))

    def visit_BinaryOperation(self, x: ast.AST) -> ast.AST:
        return x.update(left=self._bump(x.left), right=self._bump(x.right))

    def visit_UnaryOperation(self, x: ast.AST) -> ast.AST:
        return x.update(argument=self._bump(x.argument))

    def visit_Comparison(self, x: ast.AST) -> ast.AST:
        return x.update(term=self._bump(x.term), guards=[g.update(term=self._bump(g.term)) for g in x.guards])

    def visit_BodyAggregate(self, x: ast.AST) -> ast.AST:
        guards = {k: (None if g is None else g.update(term=self._bump(g.term)))
                  for k, g in (("left_guard", x.left_guard), ("right_guard", x.right_guard))}
        return x.update(**guards, elements=[self(e) for e in x.elements])

    def visit_Function(self, x: ast.AST) -> ast.AST:  # a head atom's arguments (body atoms are not visited)
        return x.update(arguments=[self._bump(a) for a in x.arguments])


def _head_numbers(rule: ast.AST, target: int) -> tuple[ast.AST, _Numbers]:
    """The rule with its `target`-th number (head arguments, then the body's arithmetic,
    comparisons and guards) made one more; and the counter."""
    numbers = _Numbers(target)
    head = rule.head
    if head.ast_type == T.Literal and head.atom.ast_type == T.SymbolicAtom:
        head = head.update(atom=head.atom.update(symbol=numbers(head.atom.symbol)))
    body = []
    for lit in rule.body:
        if lit.ast_type == T.Literal and lit.atom.ast_type == T.SymbolicAtom:
            sym = lit.atom.symbol  # a body atom: only the arithmetic inside its arguments
            if sym.ast_type == T.Function:
                args = [numbers(a) if a.ast_type in (T.BinaryOperation, T.UnaryOperation) else a
                        for a in sym.arguments]
                lit = lit.update(atom=lit.atom.update(symbol=sym.update(arguments=args)))
            body.append(lit)
        else:
            body.append(numbers(lit))
    return rule.update(head=head, body=body), numbers


def mutants_of(index: int, rule: ast.AST) -> Iterator[Mutant]:
    """Every mutant of one rule, in a fixed order."""
    yield Mutant(index, "delete", "delete", None)
    body = list(rule.body)
    for j, lit in enumerate(body):
        text = str(lit)
        if len(body) > 0:
            yield Mutant(index, "drop", f"drop {text}", rule.update(body=body[:j] + body[j + 1:]))
        if lit.ast_type == T.Literal and lit.sign != ast.Sign.DoubleNegation:
            flipped = ast.Sign.Negation if lit.sign == ast.Sign.NoSign else ast.Sign.NoSign
            yield Mutant(index, "negate", f"negate {text}",
                         rule.update(body=body[:j] + [lit.update(sign=flipped)] + body[j + 1:]))
        if lit.ast_type == T.Literal and lit.atom.ast_type == T.Comparison:
            cmp = lit.atom
            for g, guard in enumerate(cmp.guards):
                new = cmp.update(guards=[x.update(comparison=_SWAP[x.comparison]) if k == g else x
                                         for k, x in enumerate(cmp.guards)])
                yield Mutant(index, "operator", f"operator {text} -> {new}",
                             rule.update(body=body[:j] + [lit.update(atom=new)] + body[j + 1:]))
        if lit.ast_type == T.Literal and lit.atom.ast_type == T.BodyAggregate:
            agg = lit.atom
            for side in ("left_guard", "right_guard"):
                guard = getattr(agg, side)
                if guard is not None:
                    new = agg.update(**{side: guard.update(comparison=_SWAP[guard.comparison])})
                    yield Mutant(index, "operator", f"operator {text} -> {new}",
                                 rule.update(body=body[:j] + [lit.update(atom=new)] + body[j + 1:]))
    _, counter = _head_numbers(rule, -1)
    for k in range(counter.count):
        new, numbers = _head_numbers(rule, k)
        if numbers.found:
            yield Mutant(index, "number", f"number {numbers.found[0]} (the rule's number {k + 1})", new)


def stillborn(rule: ast.AST, definitions: Sequence[ast.AST] = ()) -> bool:
    """Whether clingo refuses the rule alone, with the program's `#const` `definitions` (an unsafe
    variable, a term it cannot ground; without its constants, `E*fs < V` is undefined and the rule
    goes before its safety is checked)."""
    ctl = clingo.Control(["--warn=none"], logger=lambda code, message: None)
    try:
        with ast.ProgramBuilder(ctl) as builder:
            for d in definitions:
                builder.add(d)
            builder.add(rule)
        ctl.ground([("base", [])])
    except RuntimeError:
        return True
    return False


_WHERE: list[tuple[str, int]] = []


def where(index: int) -> tuple[str, int]:
    """The kb file and line of statement `index` (the cached program has no locations: the files
    are parsed once more for them)."""
    if not _WHERE:
        from aslrules.fast.program import parse_files
        from aslrules.solve import kb_files

        for s in parse_files(kb_files()):
            begin = s.location.begin
            _WHERE.append((Path(begin.filename).name, begin.line))
    return _WHERE[index]


# --------------------------------------------------------------------------- the evidence


class Recorder:
    """A solver that answers as `eng` does and keeps the facts of every situation it is asked."""

    def __init__(self, eng):
        self.eng = eng
        self.seen: list = []
        self.prune = True
        self.program = eng.program

    def relevance(self):
        return self.eng.relevance()

    def solve(self, facts, *, few: bool = False):
        from aslrules.symbols import Facts

        facts = Facts.of(facts)
        self.seen.append(facts)
        return self.eng.solve(facts, few=few)

    def solve_many(self, cases):
        from aslrules.symbols import Facts

        cases = [Facts.of(f) for f in cases]
        self.seen.extend(cases)
        return self.eng.solve_many(cases)

    def prepare(self) -> None:
        pass

    def spec(self) -> tuple:
        return self.eng.spec()


class Answers(Recorder):
    """A solver that answers as `eng` does and keeps each answer's shown atoms, in order."""

    def __init__(self, eng):
        super().__init__(eng)
        self.answers: list[set[str]] = []

    def solve(self, facts, *, few: bool = False):
        atoms = self.eng.solve(facts, few=few)
        self.answers.append({str(a) for a in atoms})
        return atoms

    def solve_many(self, cases):
        out = self.eng.solve_many(cases)
        self.answers.extend({str(a) for a in atoms} for atoms in out)
        return out


def answer_changes(ev: Evidence, solver, units: Sequence[Unit], limit: int = 3) -> list[str]:
    """Where the mutant's answers (every shown atom) differ from the KB's, for the first units
    that differ: `file: +atom` (the mutant has it, the KB not), `-atom` (the other way)."""
    from aslrules import consistency

    out: list[str] = []
    for u in units:
        got = []
        for eng in (ev.base, solver):
            rec = Answers(eng)
            try:
                if u.kind == "case":
                    _case_result(rec, [u.item])
                else:
                    consistency.run_tables([u.item], rec)
            except Exception as error:
                rec.answers.append({f"error {type(error).__name__}"})
            got.append(rec.answers)
        for before, after in zip(*got):
            if before != after:
                diff = sorted(f"+{a}" for a in after - before) + sorted(f"-{a}" for a in before - after)
                out.append(f"{u.name}: " + " ".join(diff[:4]) + (" ..." if len(diff) > 4 else ""))
                break
        if len(out) >= limit:
            break
    return out


@dataclass
class Unit:
    """One piece of evidence: a case file, or a ruling file."""

    name: str
    kind: str  # case or ruling
    item: object  # the Situation, or the Ruling
    keep: set[int] = field(default_factory=set)  # statements kept for one of its situations
    domains: list = field(default_factory=list)  # what each of its situations may derive
    baseline: object = None  # what it gave: outcomes passed, or (readings, holds) per case table
    kills: int = 0


_ANALYSED: dict = {}  # abstract domain -> (statements kept, what may be derived): many situations share one


def _record(unit: Unit, rec: Recorder) -> None:
    rel = rec.relevance()
    seen = {}
    for facts in rec.seen:
        dom = rel.domain(facts)
        seen.setdefault(rel.key(dom), dom)
    for key, dom in seen.items():
        found = _ANALYSED.get(key)
        if found is None:
            found = _ANALYSED[key] = (set(rel.simplify(dom)[0]), rel.closure(dom)[1])
        unit.keep |= found[0]
        if not any(d is found[1] for d in unit.domains):
            unit.domains.append(found[1])
    rec.seen.clear()


def _case_result(eng, situations) -> list:
    from aslrules.core import check

    return [o.passed for o in check(situations, eng=eng, workers=1, batch_size=max(1, len(situations)))]


def _tables_result(tables) -> dict:
    return {(t.ruling.id, t.index): (t.readings, {k: r.holds for k, r in t.runs.items()}) for t in tables}


@dataclass
class Evidence:
    base: object
    cases: list[Unit]
    rulings: list[Unit]
    results: dict  # ruling id -> its RulingResult
    snapshot: dict
    dynamic: set
    constants: set


def load_evidence(only: Sequence[str] = ()) -> Evidence:
    """The evidence, each piece run once on the KB as it is; `only`: just these case files or
    folders (and no rulings), for a quick look at whether new cases kill a mutant."""
    from aslrules import consistency
    from aslrules.fast.accelerated import Accelerated
    from aslrules.fast.batch import dynamic_predicates
    from aslrules.fast.program import input_signatures
    from aslrules.errors import InputError
    from aslrules.loader import case_files, load_file
    from aslrules.rulings import load_rulings

    base = Accelerated(prune=True)
    list(base.program)  # every statement parsed once, before the workers fork
    _ = base.batch
    from aslrules.core import build_facts, check, listing_outcomes
    from aslrules.replay import replay_outcomes

    rec = Recorder(base)
    cases = [Unit(os.path.relpath(p, ROOT), "case", load_file(p)) for p in case_files([str(ROOT / p) for p in (only or CASES)])]
    by_situation: dict[int, list[bool]] = {}
    for o in check([u.item for u in cases], eng=base, workers=1):  # all at once, as aslrules check runs them
        by_situation.setdefault(id(o.situation), []).append(o.passed)
    for unit in cases:
        sit = unit.item
        unit.baseline = by_situation.get(id(sit), [])
        if not all(unit.baseline):
            sys.exit(f"mutants: {unit.name} does not hold on the KB as it is: the evidence must hold first")
        # its questions', as a batch grounds them (a case of an input error: its ask: too)
        rec.seen.append(build_facts(sit, asked=sit.data.input_error is not None).facts)
        try:  # and the situations its replay and its listing answer (up to the error one expects)
            if sit.data.sequence:
                replay_outcomes(sit, eng=rec)
            if sit.data.listing is not None:
                listing_outcomes(sit, rec)
        except InputError:
            if sit.data.input_error is None:
                raise
        _record(unit, rec)
    rulings = []
    results = {}
    for r in (load_rulings([str(ROOT / p) for p in RULINGS]) if not only else []):
        unit = Unit(os.path.relpath(r.path, ROOT), "ruling", r)
        tables = consistency.run_tables([r], rec)
        unit.baseline = _tables_result(tables)
        results[r.id] = consistency.judge(r, tables)
        _record(unit, rec)
        rulings.append(unit)
    snapshot = consistency.snapshot(consistency.assemble(list(results.values())))
    dynamic = dynamic_predicates(base.program, input_signatures(base.files))
    constants = {s.name for s in base.program if s.ast_type == T.Definition}
    return Evidence(base, cases, rulings, results, snapshot, dynamic, constants)


# --------------------------------------------------------------------------- one mutant


_DELETED = None


def _deleted() -> ast.AST:
    global _DELETED
    if _DELETED is None:
        stms: list[ast.AST] = []
        ast.parse_string("#defined aslrules_mutant_deleted/0.", stms.append)
        _DELETED = stms[-1]
    return _DELETED


_BASE_PRUNED: dict = {}  # (abstract domain, batch?) -> the base's pruned program (base_pruned); per process


def base_pruned(base, dom, batch: bool) -> tuple[list[int], list, set | None, dict] | None:
    """The KB's pruned program for facts abstracted as `dom`, as the accelerated solver makes it
    (Accelerated._pruned): the kept statements' indices, the statements (simplified), the
    predicates whose facts go in, and the abstract domain of what the program may derive.  None:
    the analysis covers not the whole program."""
    from aslrules.fast.relevance import Relevance, never_holds, simplified

    key = (Relevance.key(dom), batch)
    found = _BASE_PRUNED.get(key)
    if found is None:
        rel = base.relevance()
        if not rel.covered:
            return None
        source = base.batch if batch else base.program
        dead: set[int] = set()
        while True:
            alive, derived = rel.closure(dom, dead)
            keep, needed, edits = rel._kept(alive, derived)
            base.program.parse(keep)
            more = {i for i, edit in edits.items() if i not in dead and any(edit.values())
                    and never_holds(simplified(base.program[i], edit))}
            if not more:
                break
            dead |= more
        if batch:
            edits = {}
        pairs = [(i, simplified(source[i], edits[i]) if i in edits else source[i])
                 for i in keep if source[i].ast_type not in base._dropped]
        if len(_BASE_PRUNED) >= 20000:
            _BASE_PRUNED.clear()
        found = _BASE_PRUNED[key] = ([i for i, _ in pairs], [p for _, p in pairs], needed, derived)
    return found


def _heads_within(rel, r: int, derived: dict) -> bool:
    """Whether all that rule `r` may derive on the abstract domain `derived` is in it already."""
    from aslrules.fast.relevance import Relevance

    _, body, heads = rel.rules[r]
    binding = rel._match(body, derived)
    for sig, args in heads:
        if sig not in derived:
            return False
        probe = {sig: [x if x is None else set(x) for x in derived[sig]]}
        if Relevance._derive(probe, sig, args, binding or {}):
            return False
    return True


def _mutant_class():
    from aslrules.fast.accelerated import Accelerated
    from aslrules.fast.relevance import Relevance
    from aslrules.fast.views import Views

    class MutantSolver(Accelerated):
        """The accelerated solver of a mutant.  Its pruned program for a domain is the KB's (made
        once per process for all mutants) with the statement changed, where that is the program
        the mutant's own relevance analysis would ground up to rules that cannot fire:

        * the mutated rule cannot fire on what the KB may derive (a deletion: no rule): the KB's
          program without it.  What the mutant may derive is within the KB's, where the rule
          fires never;
        * the KB's program holds the statement, and what the mutated rule may derive there is
          within what the KB may: the KB's program with the rule replaced (not simplified).  The
          mutant derives no more than the KB, so the KB's simplifications hold, the statements it
          adds fire never, and the predicates whose facts go in cover the rule (it reads a subset
          of the statement's);
        * otherwise, the mutant's own analysis (Accelerated._pruned)."""

        def _pruned(self, dom, batch):
            key = (Relevance.key(dom), batch)
            found = self._programs.get(key)
            if found is not None:
                return found
            got = base_pruned(self._base, dom, batch)
            if got is None:
                return super()._pruned(dom, batch)
            indices, program, needed, derived = got
            i, r, rel = self._index, self._rule, self.relevance()
            if r is None or not rel.may_fire(r, derived):
                new = [p for k, p in zip(indices, program) if k != i]
            elif i in indices and _heads_within(rel, r, derived):
                stm = self._batch[i] if batch else self.program[i]
                new = [stm if k == i else p for k, p in zip(indices, program)]
            else:
                return super()._pruned(dom, batch)
            found = (new, needed, None if batch else Views(new))
            if len(self._programs) >= 256:
                self._programs.clear()
            self._programs[key] = found
            return found

    return MutantSolver


_MUTANT_SOLVER = None
_BASE_MENTIONS = None
REUSE = True  # the KB's pruned programs reused (MutantSolver); False: each mutant analysed afresh


def mutant_solver(ev: Evidence, m: Mutant):
    """The accelerated solver with the KB as the mutant has it: the base's parsed program, batch
    rewrite and relevance analysis with one statement replaced."""
    global _MUTANT_SOLVER
    from aslrules.fast.accelerated import Accelerated
    from aslrules.fast.batch import batch_statement
    from aslrules.fast.program import Statements

    base = ev.base
    stm = m.rule if m.rule is not None else _deleted()
    if _MUTANT_SOLVER is None:
        _MUTANT_SOLVER = _mutant_class()
    solver = (_MUTANT_SOLVER if REUSE else Accelerated).__new__(_MUTANT_SOLVER if REUSE else Accelerated)
    solver.files, solver.directory, solver._cache = base.files, base.directory, None
    solver.prune, solver.direct = True, base.direct
    program = Statements(base.program.texts, base.program._parsed)
    program.texts[m.index], program._parsed[m.index] = str(stm), stm
    solver.program = program
    solver._relevance = base.relevance().replaced(m.index, m.rule, ev.constants)
    solver._shared = base.shared
    solver._dropped = base._dropped
    batch = list(base.batch)
    batch[m.index] = batch_statement(stm, ev.dynamic)
    solver._batch = batch
    solver._programs = {}
    solver._base, solver._index = base, m.index
    solver._rule = solver._relevance.rule_at(m.index) if m.rule is not None else None
    return solver


def affected(ev: Evidence, m: Mutant, units: Sequence[Unit], solver) -> list[Unit]:
    """The units whose answers the mutant may change."""
    if m.rule is None:
        return [u for u in units if m.index in u.keep]
    rel = solver.relevance()
    r = rel.rule_at(m.index)
    return [u for u in units if m.index in u.keep or any(rel.may_fire(r, d) for d in u.domains)]


_KILLER: dict[int, str] = {}  # statement index -> the case file that killed its last mutant (in this process)


def evaluate(ev: Evidence, m: Mutant, *, explain: bool = False, exhaustive: bool = False) -> tuple[str, str]:
    """("killed", by what) or ("survived", "") or ("unaffected", "").  `explain`: a survivor says
    where the answers change (answer_changes) or that none does.  `exhaustive`: every unit is run,
    not only those the relevance analysis selects (to check the selection)."""
    from aslrules import consistency

    consistency._MENTIONS.clear()
    consistency._RELEVANT.clear()
    solver = mutant_solver(ev, m)
    if REUSE:  # the readings each statement mentions: the KB's, the changed statement's again
        global _BASE_MENTIONS
        if _BASE_MENTIONS is None:
            _BASE_MENTIONS = consistency._mentions(ev.base.program)
        mentions = list(_BASE_MENTIONS)
        mentions[m.index] = consistency._mentions([solver.program[m.index]])[0]
        consistency._MENTIONS[id(solver.program)] = (solver.program, mentions)
    cases = list(ev.cases) if exhaustive else affected(ev, m, ev.cases, solver)
    rulings = list(ev.rulings) if exhaustive else affected(ev, m, ev.rulings, solver)
    if not cases and not rulings:
        return "unaffected", ""
    # the case that killed this statement's last mutant first (mutants of one statement mostly fall
    # to the same case), then the cases that killed most
    last = _KILLER.get(m.index)
    cases.sort(key=lambda u: (u.name != last, -u.kills))
    start = 0
    for size in (2, 8, 32, 10**9):
        chunk = cases[start:start + size]
        start += size
        if not chunk:
            break
        try:
            got = _case_result(solver, [u.item for u in chunk])
        except RuntimeError as error:
            if "grounding stopped" in str(error):  # the mutant is no program: the tester's error, not a kill
                raise
            return "killed", f"{chunk[0].name}: {type(error).__name__}"
        except Exception as error:  # an error is a change: which unit, found one by one
            for u in chunk:
                try:
                    _case_result(solver, [u.item])
                except Exception:
                    u.kills += 1
                    _KILLER[m.index] = u.name
                    return "killed", f"{u.name}: {type(error).__name__}"
            return "killed", f"{chunk[0].name}: {type(error).__name__}"
        offset = 0
        for u in chunk:
            n = len(u.baseline)
            if got[offset:offset + n] != u.baseline:
                u.kills += 1
                _KILLER[m.index] = u.name
                return "killed", u.name
            offset += n
    if rulings:
        try:
            tables = consistency.run_tables([u.item for u in rulings], solver)
        except Exception as error:
            return "killed", f"rulings: {type(error).__name__}"
        now = _tables_result(tables)
        moved = [u for u in rulings if {k: v for k, v in now.items() if k[0] == u.item.id} != u.baseline]
        if moved:
            results = dict(ev.results)
            for u in moved:
                results[u.item.id] = consistency.judge(u.item, [t for t in tables if t.ruling is u.item])
            snap = consistency.snapshot(consistency.assemble(list(results.values())))
            changes = consistency.snapshot_changes(ev.snapshot, snap)
            if changes:
                return "killed", f"rulings snapshot: {changes[0]}"
    if explain:
        return "survived", "; ".join(answer_changes(ev, solver, cases + rulings)) or "no answer changes"
    return "survived", ""


# --------------------------------------------------------------------------- the run


# Facts that instruct the engine, not rules: kb/input.lp's case_independent/2 tells the batch rewrite
# (aslrules/fast/batch.py, which reads them) which inputs to share between cases; no answer reads them.
def _engine_fact(s: ast.AST) -> bool:
    from aslrules.fast.batch import case_independent

    return bool(case_independent([s]))


def statements(ev: Evidence, files: Sequence[str] = (), line: int | None = None) -> list[int]:
    """The indices of the statements to mutate: the rules (of `files`, at `line`), not the engine's
    facts."""
    out = []
    for i, s in enumerate(ev.base.program):
        name, at = where(i) if s.ast_type == T.Rule else ("", 0)
        if s.ast_type == T.Rule and not _engine_fact(s) and name not in EXCLUDED_FILES \
                and (not files or name in files) and (line is None or at == line):
            out.append(i)
    return out


def all_mutants(ev: Evidence, indices: Sequence[int], kinds: Sequence[str] = KINDS) -> tuple[list[Mutant], int, Counter]:
    """Every valid mutant of the statements at `indices`, how many statements, and the number of
    stillborn mutants by statement."""
    out: list[Mutant] = []
    stmts = 0
    dead: Counter = Counter()
    definitions = [s for s in ev.base.program if s.ast_type == T.Definition]
    for i in indices:
        stmts += 1
        for m in mutants_of(i, ev.base.program[i]):
            if m.kind not in kinds:
                continue
            if m.rule is not None and stillborn(m.rule, definitions):
                dead[i] += 1
                continue
            out.append(m)
    return out, stmts, dead


def load_equivalent() -> dict[tuple[str, str, str, str], dict]:
    """The reviewed survivors: (file, statement, kind, change) -> the entry."""
    entries = yaml.safe_load(EQUIVALENT.read_text(encoding="utf-8")) or []
    out = {}
    for k, e in enumerate(entries):
        missing = [f for f in ("file", "statement", "kind", "change", "class", "why") if not e.get(f)]
        if missing or e["class"] not in ("equivalent", "unsourced") or e["kind"] == "delete":
            sys.exit(f"{EQUIVALENT}: entry {k + 1}: needs file, statement, kind (not delete), change, "
                     f"class (equivalent or unsourced) and why" + (f"; missing {', '.join(missing)}" if missing else ""))
        out[(Path(e["file"]).name, " ".join(e["statement"].split()), e["kind"], " ".join(e["change"].split()))] = e
    return out


def equivalent_key(ev: Evidence, m: Mutant) -> tuple[str, str, str, str]:
    stm = ev.base.program[m.index]
    return where(m.index)[0], " ".join(str(stm).split()), m.kind, " ".join(m.change.split())


_EV: Evidence | None = None
_MUTANTS: list[Mutant] = []
_OPTIONS: dict = {}


def _work(k: int) -> tuple[int, str, str, float]:
    t0 = time.process_time()
    try:
        status, why = evaluate(_EV, _MUTANTS[k], **_OPTIONS)
    except Exception as error:  # the tester's own failure: reported, not taken for a kill
        status, why = "error", f"{type(error).__name__}: {error}"
    return k, status, why, time.process_time() - t0


def run(mutants: list[Mutant], jobs: int) -> list[tuple[int, str, str, float]]:
    """Every mutant's result; on stderr, each survivor as it is found and the count every 100, so
    that a run stopped early has said what it found (with one process as with several)."""
    global _MUTANTS
    _MUTANTS = mutants
    out = []
    start = time.time()

    def note(result: tuple[int, str, str, float]) -> None:
        out.append(result)
        if result[1] in ("survived", "unaffected"):
            m = mutants[result[0]]
            name, at = where(m.index)
            print(f"not killed: kb/{name}:{at}: {m.change}", file=sys.stderr, flush=True)
        if len(out) % 100 == 0:
            left = sum(1 for r in out if r[1] in ("survived", "unaffected"))
            print(f"mutants: {len(out)} of {len(mutants)} run, {left} not killed, {time.time() - start:.0f} s",
                  file=sys.stderr, flush=True)

    if jobs <= 1 or len(mutants) < 8:
        for k in range(len(mutants)):
            note(_work(k))
        return out
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(jobs) as pool:
        for result in pool.imap_unordered(_work, range(len(mutants)), chunksize=4):
            note(result)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    global _EV
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sample", type=int, metavar="N",
                   help="N statements drawn at random: each one's deletion and one other mutant of it")
    p.add_argument("--seed", type=int, default=0, help="the sample's seed")
    p.add_argument("--file", action="append", default=[], metavar="FILE", help="only this kb file (repeatable)")
    p.add_argument("--line", type=int, help="only the statement that begins on this line (with --file)")
    p.add_argument("--kind", action="append", choices=KINDS, help="only these kinds of mutant (repeatable)")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    p.add_argument("--json", metavar="FILE", help="write every mutant's result there")
    p.add_argument("--evidence", action="append", default=[], metavar="PATH",
                   help="only these case files or folders, no rulings (repeatable): a quick look whether "
                        "they kill; a survivor there may still be killed by the rest")
    p.add_argument("--list", action="store_true", help="list the mutants and stop")
    p.add_argument("--explain", action="store_true",
                   help="for each survivor, where its answers differ from the KB's (the first case files)")
    p.add_argument("--exhaustive", action="store_true",
                   help="run every piece of evidence for every mutant (to check the relevance selection)")
    args = p.parse_args(argv)
    files = [Path(f).name for f in args.file]

    t0 = time.time()
    cpu0 = time.process_time()
    _EV = ev = load_evidence(args.evidence)
    loaded = time.time() - t0
    indices = statements(ev, files, args.line)
    rng = random.Random(args.seed)
    if args.sample:
        indices = sorted(rng.sample(indices, min(args.sample, len(indices))))
    mutants, stmts, dead = all_mutants(ev, indices, args.kind or KINDS)
    if args.sample:  # each statement's deletion, and one other mutant of it
        chosen: list[Mutant] = []
        for i in indices:
            ms = [m for m in mutants if m.index == i]
            chosen += [m for m in ms if m.kind == "delete"]
            others = [m for m in ms if m.kind != "delete"]
            if others:
                chosen.append(rng.choice(others))
        mutants = chosen
    if args.list:
        for m in mutants:
            name, at = where(m.index)
            print(f"kb/{name}:{at}: {m.change}")
        print(f"{len(mutants)} mutants of {stmts} statements ({sum(dead.values())} stillborn)")
        return 0
    equivalent = load_equivalent()
    _OPTIONS.update(explain=args.explain, exhaustive=args.exhaustive)
    results = run(mutants, args.jobs)
    results.sort()
    counts: Counter = Counter()
    survivors = []
    listed = []
    report = []
    for k, status, why, cpu in results:
        m = mutants[k]
        name, at = where(m.index)
        if status in ("survived", "unaffected"):
            entry = equivalent.get(equivalent_key(ev, m))
            if entry is not None:
                status = "listed"
                listed.append((m, entry))
            else:
                survivors.append((m, status))
        counts[(m.kind == "delete", status)] += 1
        report.append({"file": f"kb/{name}", "line": at, "statement": " ".join(str(ev.base.program[m.index]).split()),
                       "kind": m.kind, "change": m.change, "status": status, "by": why, "cpu": round(cpu, 3)})
    elapsed = time.time() - t0
    if args.json:
        import json

        Path(args.json).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    if not args.sample and not files and args.line is None and not args.kind and not args.evidence:
        used = {equivalent_key(ev, m) for m, _ in listed}
        for key in sorted(set(equivalent) - used):
            print(f"stale: {EQUIVALENT.name} lists a survivor that is no mutant now or is killed: kb/{key[0]}: "
                  f"{key[3]}: {key[1]}")
    errors = [r for r in report if r["status"] == "error"]
    for r in errors:
        print(f"{r['file']}:{r['line']}: {r['change']}: the tester failed: {r['by']}")
    for m, status in survivors:
        name, at = where(m.index)
        what = "no evidence runs it" if status == "unaffected" else "no evidence changes"
        print(f"survivor: kb/{name}:{at}: {m.change}: {what}: {' '.join(str(ev.base.program[m.index]).split())}")
        why = next(r["by"] for r in report if r["line"] == at and r["file"] == f"kb/{name}" and r["change"] == m.change)
        if why:
            print(f"  answers: {why}")

    def line(deletions: bool) -> str:
        c = {s: counts[(deletions, s)] for s in ("killed", "listed", "survived", "unaffected", "error")}
        total = sum(c.values())
        score = 100.0 * c["killed"] / (total - c["listed"]) if total - c["listed"] else 100.0
        return (f"{total} mutants: {c['killed']} killed, {c['listed']} listed, "
                f"{c['survived'] + c['unaffected']} survived ({c['unaffected']} run by no evidence)"
                + (f", {c['error']} tester errors" if c["error"] else "") + f"; score {score:.1f} %")

    print(f"evidence: {len(ev.cases)} case files, {len(ev.rulings)} ruling files ({loaded:.1f} s)")
    print(f"statements: {stmts}; deletions: {line(True)}")
    others = {k: sum(1 for m in mutants if m.kind == k) for k in KINDS[1:]}
    print(f"other mutants ({', '.join(f'{k} {n}' for k, n in others.items())}; "
          f"{sum(dead.values())} stillborn): {line(False)}")
    pooled = args.jobs > 1 and len(mutants) >= 8  # the workers' CPU, as each mutant's result reports it
    cpu = time.process_time() - cpu0 + (sum(r[3] for r in results) if pooled else 0)
    print(f"time: {elapsed:.0f} s wall, {cpu:.0f} s CPU, {args.jobs if pooled else 1} process(es)")
    return 1 if survivors or errors else 0


if __name__ == "__main__":
    sys.exit(main())
