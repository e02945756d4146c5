"""The public API: ask a situation's questions, check a case's expectations."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from functools import cache
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from clingo import Function, Number, String

from . import model
from .answers import Answer, fmt_number, read_answers
from .fast import Solver, no_cyclic_gc, solver
from .errors import InputError
from .facts import FactBuilder, question_facts, situation_facts
from .inputcheck import raise_input_errors
from .loader import case_files, load_file
from .model import Expectation, Situation, parse_location
from .schema import ABSENT
from .symbols import Term

@cache
def engine() -> Solver:
    """The process-wide solver (the KB is parsed once): `aslrules.fast.solver()`'s pick."""
    return solver()


def build_facts(sit: Situation, *, list_options: bool = False, firer: str | None = None,
                target: str | None = None, full: bool = False, asked: bool = False,
                questions: bool = True) -> FactBuilder:
    """The situation's facts and its expectations' questions, numbered from 0 (with `asked`, its
    `ask:` questions after them; without `questions`, none); with `list_options`, the listing's
    request (--firer, --target, --all: `full`)."""
    fb = situation_facts(sit)
    for k, exp in enumerate((sit.expect + sit.ask if asked else sit.expect) if questions else []):
        question_facts(fb, Number(k), exp)
    if list_options:
        fb.add("list_options")
        if firer is not None:
            fb.add("list_firer", String(firer))
        if target is not None:
            fb.add("list_target_unit", String(target))
        if full:
            fb.add("list_full")
    return fb


#: Up to this many questions, `ask` tells the solver it expects few answers (aslrules/fast/views.py).
FEW = 8


def ask(sit: Situation, *, firer: str | None = None, target: str | None = None, full: bool = False,
        eng: Solver | None = None) -> list[Answer]:
    """Answer the situation's questions (`expect:` then `ask:`); with none, list every DEFENDER fire
    option (only those `firer` takes part in, only those at `target`), in the KB's order
    (kb/listing.lp: by target Location, mandatory, allowed best first, forbidden); `full`: judge
    in full also the attacks the listing finds out of reach (kb/listing.lp list_brief/3)."""
    eng = eng or engine()
    listing = not sit.expect and not sit.ask
    fb = build_facts(sit, list_options=listing, firer=firer, target=target, full=full, asked=True)
    atoms = eng.solve(fb.facts, few=not listing and len(sit.expect) + len(sit.ask) <= FEW)
    raise_input_errors(sit, atoms)
    return ordered_answers(atoms)


def ordered_answers(atoms: list[Term]) -> list[Answer]:
    """The answers of a situation's shown atoms: its questions by number, then the listed options
    in the KB's order (Answer.sort_key)."""
    answers = read_answers(atoms)
    numbered = sorted(k for k in answers if isinstance(k, int))
    listed = sorted((a for k, a in answers.items() if not isinstance(k, int)), key=Answer.sort_key)
    return [answers[k] for k in numbered] + listed


def validate(sit: Situation, *, eng: Solver | None = None) -> None:
    """Raise the InputError the KB finds in the situation (what only the map can tell: adjacent
    hexes, hexspines, one moving stack, ...), answering nothing."""
    atoms = (eng or engine()).solve(build_facts(sit, asked=True).facts)
    raise_input_errors(sit, atoms)


# --------------------------------------------------------------------------- geometry


@dataclass(frozen=True)
class Geometry:
    """What the KB's geometry (kb/geometry.lp) derives for one pair of Locations."""

    range: int | None  # None: hexes on different boards and no `range:` given
    adjacent: bool  # ADJACENT in the sense of A.8 (level-sensitive)


def geometry(a: str, b: str, *, range_override: int | None = None, blocked: bool = False,
             readings: dict[str, str] | None = None, eng: Solver | None = None) -> Geometry:
    """Ask the KB for the range and ADJACENT between Locations `a` and `b` ("X2", "1H5", "X2@1").

    Python only parses the ids; the KB measures them (need_pair/2 -> range/3, adjacent/2).
    As in a situation file, an unprefixed hex takes the board of a prefixed one.
    `range_override` and `blocked` stand for a `lines_of_sight` entry from `a` to `b`.
    """
    boards = {parse_location(x).hex.board for x in (a, b)} - {""}
    fb = FactBuilder(boards.pop() if len(boards) == 1 else "")
    for name, values in model.READINGS.items():
        value = (readings or {}).get(name, values[0])
        if value not in values:
            raise ValueError(f"reading {name} is one of {', '.join(values)}")
        fb.add("reading", Function(name), Function(value))
    (sa, ha), (sb, hb) = ((fb.location(x), fb.hex(x)) for x in (a, b))
    if range_override is not None:
        fb.add("los_range", ha, hb, Number(range_override))
    if blocked:
        fb.add("los_blocked", ha, hb)
    fb.add("need_pair", sa, sb)
    atoms = (eng or engine()).solve(fb.facts)
    return Geometry(range=next((s.arguments[2] for s in atoms if s.name == "range"
                                and s.arguments[:2] == (ha.string, hb.string)), None),
                    adjacent=any(s.name == "adjacent" and s.arguments == (sa.string, sb.string) for s in atoms))


def hex_range(a: str, b: str, **kw: Any) -> int | None:
    """The range in hexes between two hex ids (or Locations), as the KB computes it."""
    return geometry(a, b, **kw).range


# --------------------------------------------------------------------------- checking


@dataclass
class Mismatch:
    field: str
    expected: Any
    actual: Any


@dataclass
class Outcome:
    """One expectation of one case, checked."""

    situation: Situation
    index: int
    expectation: Expectation
    answer: Answer
    mismatches: list[Mismatch] = field(default_factory=list)
    label: str = ""  # where a replay's item is (sequence[3].expect[1]); "" for expect[index]

    @property
    def passed(self) -> bool:
        return not self.mismatches


@dataclass
class Report:
    """What `check_files` found: how many expectations hold, and those that do not, in file order."""

    passed: int
    failures: list[Outcome]

    @property
    def failed(self) -> int:
        return len(self.failures)


def _num(x: Any) -> Any:
    return fmt_number(x) if isinstance(x, (Fraction, int)) and not isinstance(x, bool) else x


def compare(exp: Expectation, ans: Answer) -> list[Mismatch]:
    """Which of the stated answer fields the KB's answer does not match.  Every field is compared
    the same way: a list stands for a set of values, a mapping is compared on the keys it
    states, and a field the answer does not mention reads as the format says (schema.ABSENT)."""
    out: list[Mismatch] = []
    if "verdict" in exp.given and exp.verdict != ans.verdict:
        out.append(Mismatch("verdict", exp.verdict, ans.verdict))
    if "because" in exp.given:
        ids = ans.rule_ids()
        if any(r not in ids for r in exp.because):
            out.append(Mismatch("because", list(exp.because), sorted(ids)))
    for name, expected in exp.answers.items():
        if name in _REASON_FIELDS:
            out.extend(_REASON_FIELDS[name](expected, ans))
            continue
        actual = ans.figure(name)
        absent = ABSENT.get(name)
        if isinstance(expected, dict):
            actual = actual if isinstance(actual, dict) else {}
            actual = {k: actual.get(k, absent) for k in expected}
            if actual != expected:
                out.append(Mismatch(name, {k: _num(v) for k, v in expected.items()},
                                    {k: _num(v) for k, v in actual.items()}))
            continue
        if actual is None:
            actual = absent
        if not _same(expected, actual):
            out.append(Mismatch(name, _text(expected), _text(actual)))
    return out


def _parties(sit: Situation, question: Any) -> dict[str, set]:
    """What the question names, by the role its answer names them under (the fields' `role`
    metadata, aslrules.schema): ids as written, hexes and Locations on the situation's board, a
    hexspine as its two hexes, a flag as the word its `role_values` give."""
    from .reference import struct_fields

    fb = FactBuilder(sit.board)
    out: dict[str, set] = {}
    for attr, _, extra in struct_fields(type(question)).values():
        role = extra.get("role")
        if role is None:
            continue
        value = getattr(question, attr)
        kind = extra.get("kind")
        if "role_values" in extra:
            values = [extra["role_values"][bool(value)]]
        elif value is None:
            values = []
        elif kind == "hexspine" and isinstance(value, (list, tuple)):
            values = [tuple(fb.hex(h).string for h in value)]
        elif kind in ("hex", "location"):
            values = [(fb.hex if kind == "hex" else fb.location)(value).string]
        else:
            values = list(value) if isinstance(value, (list, tuple)) else [value]
        out.setdefault(role, set()).update(values)
    return out


def restates(sit: Situation, exp: Expectation, ans: Answer) -> list[Mismatch]:
    """Whether the answer is about the question asked: it names, under each role, what the question
    names (kb/show.lp role/3: the firers, targets, director, the Location aimed at, where a CA
    turns to)."""
    out = []
    for role, wanted in _parties(sit, exp.question).items():
        named = {tuple(v) if isinstance(v, list) else v for v in ans.roles.get(role, [])}
        if named != wanted:
            show = lambda vs: sorted(str(_text(v)) for v in vs)
            out.append(Mismatch(f"question ({role})", show(wanted), show(named)))
    return out


def _not_because(expected: Sequence[str], ans: Answer) -> list[Mismatch]:
    ids = ans.rule_ids()
    found = [r for r in expected if r in ids]
    return [Mismatch("not_because", list(expected), sorted(ids))] if found else []


def _placed_reasons(ans: Answer) -> list[tuple[str, str, str]]:
    """Every reason of the answer as (where it stands, rule id, text): the verdict's by role, a
    figure's by the figure's name, an additive part by its figure's name."""
    out = [(r.role, r.rule, r.text) for r in ans.reasons]
    out += [(name, r.rule, r.text) for name, by_key in ans.figure_reasons.items() for rs in by_key.values()
            for r in rs]
    out += [(name, p.rule, p.text) for name, ps in ans.parts.items() for p in ps]
    return out


def _names(text: str, name: str) -> bool:
    """Whether `text` names `name` as a whole word (g-467, not g-4678; X2, not X2@1; 1, not 1.5)."""
    return re.search(rf"(?<![A-Za-z0-9_@.-]){re.escape(name)}(?![A-Za-z0-9_@-]|\.\d)", text) is not None


def _reason_text(item: Any) -> str:
    parts = [item.rule] + ([f"({item.role})"] if item.role else []) + [", ".join(item.names)] * bool(item.names)
    if item.says:
        parts.append(repr(item.says))
    return ("no " if item.absent else "") + " ".join(parts)


def reason_mismatches(expected: Sequence[Any], ans: Answer) -> list[Mismatch]:
    """The `reasons:` items the answer does not hold (or, with absent, holds): for expect items and
    a replay step's own reasons alike."""
    placed = _placed_reasons(ans)
    out = []
    for item in expected:
        hits = [(where, text) for where, rule, text in placed if rule == item.rule
                and (item.role is None or where == item.role)
                and all(_names(text, n) for n in item.names) and (item.says is None or item.says in text)]
        if bool(hits) == item.absent:
            actual = [f"{rule} ({where}): {text}" for where, rule, text in placed if rule == item.rule]
            out.append(Mismatch("reasons", _reason_text(item), actual or f"no {item.rule} reason"))
    return out


_REASON_FIELDS = {"not_because": _not_because, "reasons": reason_mismatches}


def _same(expected: Any, actual: Any) -> bool:
    if isinstance(expected, (tuple, list)) or isinstance(actual, (tuple, list)):
        as_set = lambda v: set(v) if isinstance(v, (tuple, list)) else {v}
        return as_set(expected) == as_set(actual)
    return expected == actual and isinstance(expected, bool) == isinstance(actual, bool)


def _text(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(str(_num(v)) for v in value) + "]"
    return _num(value)


@dataclass(frozen=True)
class Rejected:
    """The input error answering a case found (a case that states `input_error:` expects one)."""

    path: str
    expected: str

    @classmethod
    def of(cls, e: InputError) -> Rejected:
        return cls(e.path, e.expected)

    def text(self) -> str:
        return f"{self.path}: {self.expected}"


def _answer_chunk(eng: Solver, chunk: Sequence[Situation]) -> list[dict[Any, Answer] | Rejected]:
    """Each case's answers, one grounding for the chunk; a case that states `input_error:` (its
    `ask:` questions answered too) may have a Rejected instead."""
    with no_cyclic_gc():
        per_case = eng.solve_many([build_facts(s, asked=s.data.input_error is not None).facts for s in chunk])
        answers: list[dict[Any, Answer] | Rejected] = []
        for sit, atoms in zip(chunk, per_case):
            try:
                raise_input_errors(sit, atoms)
            except InputError as e:
                if sit.data.input_error is None:
                    raise
                answers.append(Rejected.of(e))
                continue
            answers.append(read_answers(atoms))
    return answers


def _pool_chunk(eng: Solver, chunk: Sequence[Situation]) -> list[dict[Any, Answer] | Rejected] | tuple:
    """Answer one chunk in a worker process; only the expectations' questions (numbered) go back."""
    try:
        return [a if isinstance(a, Rejected) else {k: x for k, x in a.items() if isinstance(k, int)}
                for a in _answer_chunk(eng, chunk)]
    except InputError as e:  # sent back as data
        return _error(e)


def _workers(workers: int | None, n_chunks: int) -> int:
    return min(os.cpu_count() or 1, 4, n_chunks) if workers is None else workers


def _context() -> Any:
    """The multiprocessing context of the worker processes (fork where the platform can)."""
    from .fast import pool

    return pool.context()


def _run(eng: Solver, task: Any, chunks: Sequence[Any], workers: int, **kw: Any) -> list:
    from .fast import pool  # here: a question alone needs no workers

    return pool.run(eng, task, chunks, workers=workers, context=_context(), **kw)


def _outcomes(chunk: Sequence[Situation], answers: Sequence[dict[Any, Answer] | Rejected],
              eng: Solver) -> list[Outcome]:
    outcomes: list[Outcome] = []
    for sit, by_question in zip(chunk, answers):
        if sit.data.input_error is not None:
            outcomes.append(rejection_outcome(sit, by_question, eng))
            continue
        for k, exp in enumerate(sit.expect):
            ans = by_question.get(k, Answer(qid=k))
            outcomes.append(Outcome(sit, k, exp, ans, restates(sit, exp, ans) + compare(exp, ans)))
        if sit.data.sequence:  # a replay case: its steps' legality and expect items (aslrules.replay)
            from .replay import replay_outcomes

            outcomes.extend(replay_outcomes(sit, eng=eng))
        if sit.data.listing is not None:
            outcomes.extend(listing_outcomes(sit, eng))
    return outcomes


def rejection_outcome(sit: Situation, answered: dict[Any, Answer] | Rejected, eng: Solver) -> Outcome:
    """A case's `input_error:` checked: answering it (its questions, its replay, its listing) stops
    at an input error of that field, saying those words."""
    want = sit.data.input_error
    got = answered if isinstance(answered, Rejected) else None
    if got is None:
        try:
            if sit.data.sequence:
                from .replay import replay_outcomes

                replay_outcomes(sit, eng=eng)
            if sit.data.listing is not None:
                listing_outcomes(sit, eng)
        except InputError as e:
            got = Rejected.of(e)
    expected = want.field + (f": {want.says}" if want.says else "")
    exp = Expectation(kind="input_error", question=None, line=sit.line(("input_error",)) or 0,
                      given=frozenset(("input_error",)))
    if got is None:
        mismatches = [Mismatch("input_error", expected, "no input error")]
    elif got.path != want.field or (want.says is not None and want.says not in got.expected):
        mismatches = [Mismatch("input_error", expected, got.text())]
    else:
        mismatches = []
    return Outcome(sit, 0, exp, Answer(qid=0, kind="input_error"), mismatches, label="input_error")


def listing_outcomes(sit: Situation, eng: Solver) -> list[Outcome]:
    """A case's `listing:` items checked against what `ask` lists for its situation (no question)."""
    request = sit.data.listing
    fb = build_facts(sit, list_options=True, firer=request.firer, target=request.target, full=request.all,
                     questions=False)
    atoms = eng.solve(fb.facts)
    raise_input_errors(sit, atoms)
    listed = ordered_answers(atoms)
    out = []
    for k, exp in enumerate(sit.listing):
        hits = [(place, a) for place, a in enumerate(listed, 1) if _lists(exp.question, a)]
        label = f"listing.attacks[{k}]"
        if not exp.listed:
            found = hits[0][1] if hits else Answer(qid=k)
            out.append(Outcome(sit, k, exp, found, [Mismatch("listed", False, True)] if hits else [], label=label))
            continue
        if not hits:
            out.append(Outcome(sit, k, exp, Answer(qid=k), [Mismatch("listed", True, False)], label=label))
            continue
        place, ans = hits[0]
        mismatches = compare(exp, ans)
        if exp.place is not None and exp.place != place:
            mismatches.append(Mismatch("place", exp.place, place))
        out.append(Outcome(sit, k, exp, ans, mismatches, label=label))
    return out


def _lists(q: Any, ans: Answer) -> bool:
    """Whether a listed attack is the attack question `q`: the same firers, options, director and
    targets."""
    if set(ans.firers) != set(q.firers) or set(ans.targets) != set(q.targets):
        return False
    if (ans.roles.get("director") or [None])[0] != q.director:
        return False
    options = ans.figure("option") or {}
    wanted = q.option if isinstance(q.option, dict) else {f: q.option for f in q.firers}
    return all(options.get(f) == o for f, o in wanted.items())


def check(situations: Sequence[Situation], *, eng: Solver | None = None, batch_size: int = 100,
          workers: int | None = None) -> list[Outcome]:
    """Check every expectation of every case; cases are grounded `batch_size` at a time.

    With more cases than one batch holds, the batches are shared among `workers` processes
    (default: one per CPU, at most 4; `workers=1` keeps everything in this process).  A worker
    that dies or fails raises `EngineError`."""
    eng = eng or engine()
    ranges = [range(i, min(i + batch_size, len(situations))) for i in range(0, len(situations), batch_size)]
    chunks = [situations[r.start:r.stop] for r in ranges]
    workers = _workers(workers, len(chunks))
    if workers <= 1 or len(chunks) <= 1:
        results = [_answer_chunk(eng, c) for c in chunks]
    else:
        results = _run(eng, _pool_chunk, chunks, workers, whole=situations, ranges=ranges)
        for r in results:
            if isinstance(r, tuple):
                raise InputError(*r)
    return [o for chunk, answers in zip(chunks, results) for o in _outcomes(chunk, answers, eng)]


def _error(e: InputError) -> tuple:
    return (e.file, e.line, e.path, e.expected, e.got)  # the exception's own pickling loses its fields


def _check_paths(eng: Solver, paths: Sequence[str]) -> tuple[str, Any]:
    """Load and check one chunk of case files: ("ok", (passed, failures)), or the first error,
    ("load", fields) or ("answer", fields)."""
    with no_cyclic_gc():  # loading, too, makes no cycles worth collecting
        try:
            chunk = [load_file(p) for p in paths]
        except InputError as e:
            return "load", _error(e)
    try:
        outcomes = _outcomes(chunk, _answer_chunk(eng, chunk), eng)
    except InputError as e:
        return "answer", _error(e)
    failures = [o for o in outcomes if not o.passed]
    return "ok", (len(outcomes) - len(failures), failures)


def check_files(paths: Sequence[str], *, eng: Solver | None = None, batch_size: int = 100,
                workers: int | None = None) -> Report:
    """Load and check case files, `batch_size` to a grounding (what `aslrules check` does).

    With more files than one batch holds, each of `workers` processes (default: one per CPU,
    at most 4) loads the files it checks: loading costs about as much as checking, and only the
    failures travel back.  As if every file were loaded first: an unreadable file is reported
    (InputError) before any question that cannot be answered, the first one in file order.
    A worker that dies or fails raises `EngineError`."""
    eng = eng or engine()
    chunks = [paths[i:i + batch_size] for i in range(0, len(paths), batch_size)]
    workers = _workers(workers, len(chunks))
    if workers <= 1 or len(chunks) <= 1:
        results = []
        for c in chunks:
            results.append(_check_paths(eng, c))
            if results[-1][0] == "load":
                break
    else:
        results = _run(eng, _check_paths, chunks, workers)
    for kind in ("load", "answer"):
        for status, value in results:
            if status == kind:
                raise InputError(*value)
    return Report(sum(value[0] for _, value in results), [o for _, value in results for o in value[1]])


def iter_case_files(paths: Iterable[str]) -> list[str]:
    """Expand directories into their case files, sorted (`loader.case_files`)."""
    return case_files(list(paths))


__all__ = ["Geometry", "Mismatch", "Outcome", "Report", "ask", "check", "check_files", "compare", "engine",
           "geometry", "hex_range"]
