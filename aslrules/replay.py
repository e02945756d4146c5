"""`aslrules replay`: walk a situation's `sequence:` step by step, the state carried by the KB.

A replay starts from the situation as written and asks the KB about each step in turn, on the
situation as it then stands: an attack step is the `attack` question (its verdict, figures and
reasons, as `aslrules ask` gives them), a move or an end step a question of its own kind.  The
KB answers, besides, what the step changes (`transition/4`, kb/transitions.lp): fire counters,
Residual FP counters, what attacked the mover where, Casualty Reductions and Morale Checks, who
moves and where.  This module writes those changes into the situation the next step is asked of,
and renders the turn.  It decides nothing about ASL: every change is one the KB stated.

`situation_at(n)` is the situation as it stands before step n (`aslrules replay FILE --at N`), a
plain situation file `aslrules ask` answers as the replay answered step n.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import msgspec
import msgspec.structs
import yaml
from clingo import Number

from . import schema as S
from .answers import Answer, Reason, fmt_number, read_answers, render, to_python
from .core import Mismatch, Outcome, compare, engine, reason_mismatches
from .fast import Solver
from .errors import EngineError, InputError
from .facts import FactBuilder, String, const, question_facts, scaled, situation_facts
from .inputcheck import field_path, raise_input_errors
from .loader import _path_text, parse_location, struct_fields
from .model import Expectation, Situation
from .symbols import Term

__all__ = ["Check", "Replay", "StepResult", "replay", "situation_at", "situation_yaml"]

#: Reason roles that make a step not legal (kb/show.lp): a forbidden attack, a mandatory attack the
#: DEFENDER skipped, a consequence the stated dice do not settle.
PROBLEM_ROLES = ("forbid", "skipped", "unresolved")
_PHASES = {p.lower(): p for p in S.words(S.Phase)}
_STEP = 0  # the question id of the step itself in each solve


# --------------------------------------------------------------------------- results


@dataclass
class Check:
    """One `expect` item of a step, checked after the step."""

    path: tuple  # where it is in the file: ("sequence", i, "expect", j)
    line: int
    kind: str  # answer, state or question
    mismatches: list[Mismatch] = field(default_factory=list)
    answer: Answer | None = None  # the answer compared (answer, question items)

    @property
    def passed(self) -> bool:
        return not self.mismatches


@dataclass
class Change:
    """One transition the KB stated for a step: `field` of `key` becomes `value`."""

    field: str
    key: Any
    value: Any

    def as_dict(self) -> dict[str, Any]:
        return {"field": self.field, "key": _json(self.key), "value": _json(self.value)}


@dataclass
class StepResult:
    number: int  # 1-based
    line: int
    kind: str  # move, attack or end
    text: str  # one line saying what the step is
    answer: Answer | None = None  # the step's own question
    residual: Answer | None = None  # a move: the Residual FP attack it triggered
    changes: list[Change] = field(default_factory=list)
    problems: list[Reason] = field(default_factory=list)  # why it is not legal (forbid, skipped, unresolved)
    continues: str = ""  # how the replay goes on when it is not legal
    checks: list[Check] = field(default_factory=list)

    @property
    def legal(self) -> bool:
        return not self.problems


@dataclass
class Replay:
    situation: Situation  # as loaded
    steps: list[StepResult]
    states: list[S.Situation]  # states[i]: the situation before step i+1; the last: after every step

    @property
    def legal(self) -> bool:
        return all(s.legal for s in self.steps)

    @property
    def checks(self) -> list[Check]:
        return [c for s in self.steps for c in s.checks]

    @property
    def ok(self) -> bool:
        return self.legal and all(c.passed for c in self.checks)


# --------------------------------------------------------------------------- checking the sequence


def _fail(sit: Situation, path: tuple, expected: str, got: object = None) -> InputError:
    return InputError(sit.path, sit.line(path), _path_text(path), expected, got)


def _check_attack(sit: Situation, q: S.Attack, path: tuple) -> None:
    """What the format asks of an attack question beyond its fields (as for an `expect` item)."""
    if not q.firers and q.option != "residual_fp":
        raise _fail(sit, path + ("firers",), "at least one firer (only a residual_fp attack has none)")
    if not q.targets:
        raise _fail(sit, path + ("targets",), "at least one target unit id")
    if isinstance(q.option, dict):
        for key in q.option:
            if key not in q.firers:
                raise _fail(sit, path + ("option", key), f"a firer among {', '.join(q.firers) or '(none)'}", key)
        missing = [f for f in q.firers if f not in q.option]
        if missing:
            raise _fail(sit, path + ("option",), f"an option for every firer, missing {', '.join(missing)}")
    for i, w in enumerate(q.keep_rof):
        if w not in q.firers:
            raise _fail(sit, path + ("keep_rof", i), f"a weapon among the firers ({', '.join(q.firers) or 'none'})", w)
    d = q.dice
    if d is not None and d.original is not None and d.colored is not None and not 1 <= d.original - d.colored <= 6:
        raise _fail(sit, path + ("dice",), "dice whose total minus the colored die is 1..6",
                    f"original {d.original}, colored {d.colored}")


def check_sequence(sit: Situation) -> None:
    """The sequence's shape (the loader checked its fields): one kind per step, `residual` only on a
    move, each expect item one of answer/state/question; raises InputError."""
    steps = sit.data.sequence
    if not steps:
        raise _fail(sit, ("sequence",), "a situation with a `sequence:` (the steps to replay)")
    for i, step in enumerate(steps):
        path = ("sequence", i)
        kinds = [k for k in ("move", "attack", "end") if getattr(step, k) is not None]
        if len(kinds) != 1:
            raise _fail(sit, path, "exactly one of move, attack, end in a step")
        if step.residual is not None and step.move is None:
            raise _fail(sit, path + ("residual",), "`residual` only in a move step (the Residual FP attack it triggers)")
        if step.move is not None and step.move.mf <= 0:
            raise _fail(sit, path + ("move", "mf"), "MF/MP spent: more than 0", fmt_number(step.move.mf))
        if step.move is not None and not step.move.units:
            raise _fail(sit, path + ("move", "units"), "at least one moving unit")
        if step.attack is not None:
            _check_attack(sit, step.attack, path + ("attack",))
        for j, item in enumerate(step.expect):
            ipath = path + ("expect", j)
            given = [k for k in ("answer", "state", "question", "legal", "reasons", "changes")
                     if getattr(item, k) is not None]
            if len(given) != 1:
                raise _fail(sit, ipath, "exactly one of answer, state, question, legal, reasons, changes in an expect "
                            "item of a step")
            if item.answer is not None and step.end is not None:
                raise _fail(sit, ipath + ("answer",), "`answer` only in an attack or a move step (the end of a "
                            "movement or of the MPh makes no attack)")
            if item.question is not None:
                _check_attack(sit, item.question.attack, ipath + ("question", "attack"))


# --------------------------------------------------------------------------- asking the KB


def _situation(sit: Situation, data: S.Situation) -> Situation:
    return Situation(sit.path, data, [], sit.board, sit.lines)


def _attack_exp(q: S.Attack) -> Expectation:
    return Expectation(kind="attack", question=q)


def _step_facts(fb: FactBuilder, step: S.Step) -> None:
    qid = Number(_STEP)
    if step.attack is not None:
        question_facts(fb, qid, _attack_exp(step.attack))
        fb.add("q_step", qid)
    elif step.move is not None:
        fb.add("question", qid, const("move"))
        for u in step.move.units:
            fb.add("q_mover", qid, String(u))
        if step.move.to is not None:
            fb.add("q_enter", qid, fb.location(step.move.to))
        fb.add("q_mf", qid, scaled(step.move.mf))
    else:
        fb.add("question", qid, const("end_movement" if step.end == "movement" else "end_mph"))


@dataclass
class _Solved:
    answers: dict[Any, Answer]
    transitions: list[Change]
    errors: list[Term]


def _solve(eng: Solver, sit: Situation, data: S.Situation, add: Any) -> _Solved:
    fb = situation_facts(_situation(sit, data))
    add(fb)
    atoms = eng.solve(fb.facts)
    transitions = [Change(a.arguments[1].name, to_python_key(a.arguments[2]), to_python(a.arguments[3]))
                   for a in atoms if a.name == "transition" and a.arguments[0] == _STEP]
    errors = [a for a in atoms if a.name in ("input_error", "missing_range")]
    return _Solved(read_answers(atoms), transitions, errors)


def _kind(a: Term) -> str:
    k = a.arguments[0]
    return k.name if isinstance(k, Term) else str(k)


def to_python_key(v: Any) -> Any:
    if isinstance(v, Term) and v.name == "none" and not v.arguments:
        return None
    return to_python(v)


def _raise_errors(sit: Situation, data: S.Situation, solved: _Solved, where: dict[int, tuple],
                  blame: tuple | None) -> None:
    """The KB's input errors: those of the questions asked (a step's, an expect item's) at their
    field in the sequence; those of the situation itself at their field in the file when it is the
    file's (`blame` None), else at the step that led to it."""
    found = []
    for a in solved.errors:
        if a.name == "input_error" and _kind(a) == "question":
            _, ident, fld, template, args = a.arguments
            base = where.get(ident)
            if base is not None:
                path = base + field_path(fld)
                found.append((sit.line(path) or 0, path, render(template, args)))
    if found:
        line, path, expected = min(found)
        raise InputError(sit.path, line or None, _path_text(path), expected)
    others = [a for a in solved.errors if not (a.name == "input_error" and _kind(a) == "question")]
    if not others:
        return
    if blame is None:
        raise_input_errors(sit, others)
    try:
        raise_input_errors(Situation(sit.path, data, [], sit.board, {}), others)
    except InputError as e:
        raise InputError(sit.path, sit.line(blame), _path_text(blame),
                         f"a step that leaves a sound situation; after it: {e.path}: {e.expected}") from None


# --------------------------------------------------------------------------- carrying the state


def _canon(sit: Situation, text: str) -> str:
    loc = parse_location(text)
    if sit.board and not loc.hex.board:
        return parse_location(sit.board + text).name
    return loc.name


def _unit_loc(u: S.Unit) -> str:
    return f"{u.hex}@{u.level}" if u.level else u.hex


def apply(sit: Situation, data: S.Situation, changes: Sequence[Change], move: S.Move | None = None) -> S.Situation:
    """The situation after `changes` (the KB's transitions of one step).  Each field is written as
    the KB stated it; a move's own words (Assault Movement, Dash, Bypass, activities) describe the
    expenditure and go with it into the movers' `moving`."""
    by: dict[str, dict[Any, Any]] = {}
    for c in changes:
        by.setdefault(c.field, {})
        if c.field in ("directed", "status", "attacked_by", "attacked"):
            by[c.field].setdefault(c.key, []).append(c.value)
        elif by[c.field].get(c.key, c.value) != c.value:
            # one value per field and key: two would leave the choice to the order of the atoms
            raise EngineError(f"the KB states two values of {c.field} for {c.key}: "
                              f"{by[c.field][c.key]!r} and {c.value!r}")
        else:
            by[c.field][c.key] = c.value
    units = [msgspec.structs.replace(u) for u in data.units]
    index = {u.id: u for u in units}
    weapons = {w.id: (u, k) for u in units for k, w in enumerate(u.weapons)}

    def unit(uid: str) -> S.Unit:
        return index[uid]

    for x, counter in by.get("fire", {}).items():
        if x in index:
            index[x].fire = counter
        elif x in weapons:
            owner, k = weapons[x]
            owner.weapons = list(owner.weapons)
            owner.weapons[k] = msgspec.structs.replace(owner.weapons[k], fire=counter)
    for leader, firers in by.get("directed", {}).items():
        u = unit(leader)
        u.directed = list(u.directed) + [f for f in sorted(firers) if f not in u.directed]
    for uid, words in by.get("status", {}).items():
        u = unit(uid)
        u.status = list(u.status) + [w for w in sorted(set(words)) if w not in u.status]
    for uid, text in by.get("counter", {}).items():
        unit(uid).counter = text
    for uid, tp in by.get("type", {}).items():
        unit(uid).type = tp
    # movement
    for uid, loc in by.get("at", {}).items():
        parsed = parse_location(loc)
        unit(uid).hex, unit(uid).level = parsed.hex.name, parsed.level
    for uid in by.get("attacked_clear", {}):
        unit(uid).attacked_here = []
    for uid, flag in by.get("moving", {}).items():
        if flag is False:
            unit(uid).moving = None
    movers = set(by.get("mf_here", {})) | {u for u, f in by.get("moving", {}).items() if f is True}
    for uid in movers:
        u = unit(uid)
        old = u.moving
        frm = by.get("moved_from", {}).get(uid, old.frm if old is not None else None)
        frm = None if frm == "none" else frm  # no hexside crossed
        mf = by.get("mf_here", {}).get(uid, old.mf_here if old is not None else Fraction(1))
        kw = {}
        if move is not None:
            kw = dict(assault=move.assault, dash=move.dash, bypass=move.bypass, activities=list(move.activities))
        u.moving = S.Moving(frm=frm, mf_here=mf, **kw)
    # attacks on the movers
    firers = by.get("attacked_by", {})
    for uid, made in by.get("attacked", {}).items():
        u = unit(uid)
        u.attacked_here = list(u.attacked_here)
        for option, at_mf, fp, drm in sorted(made, key=lambda m: str(m[0])):
            u.attacked_here.append(S.AttackedHere(
                by=sorted(firers.get((uid, option), [])), option=option, at_mf=at_mf,
                fp=fp if isinstance(fp, Fraction) else None, drm=drm if isinstance(drm, int) else None))
    # the map
    residual = dict(data.residual_fp)
    for loc, value in by.get("residual", {}).items():
        for key in [k for k in residual if _canon(sit, k) == loc]:
            del residual[key]
        if value:
            residual[loc] = value
    phase = data.phase
    for _, p in by.get("phase", {}).items():
        phase = _PHASES[p]
    # eliminated units leave the map, with their weapons, and every mention of them
    gone = set(by.get("eliminated", {}))
    if gone:
        gone |= {w.id for uid in list(gone) for w in index[uid].weapons}
        units = [u for u in units if u.id not in gone]
        for u in units:
            if any(x in gone for x in u.directed):
                u.directed = [x for x in u.directed if x not in gone]
            if any(x in gone for a in u.attacked_here for x in a.by):
                u.attacked_here = [msgspec.structs.replace(a, by=[x for x in a.by if x not in gone])
                                   for a in u.attacked_here]
    return msgspec.structs.replace(data, units=units, residual_fp=residual, phase=phase)


# --------------------------------------------------------------------------- the replay


def _expectation(q: S.Attack | None, answer: S.AttackAnswer) -> Expectation:
    """An answer item as an `expect` item: the answer fields it states (compare reads them)."""
    given = {name for name, (attr, _, _) in struct_fields(type(answer)).items()
             if name not in ("attack",) and getattr(answer, attr) not in (None, [])}
    given.add("verdict")
    answers = {name: getattr(answer, struct_fields(type(answer))[name][0]) for name in given
               if name not in ("verdict", "because")}
    return Expectation(kind="attack", question=q, verdict=answer.verdict, because=tuple(answer.because),
                       answers=answers, given=frozenset(given))


def _step_text(step: S.Step) -> tuple[str, str]:
    if step.move is not None:
        m = step.move
        where = f"-> {m.to}" if m.to is not None else "in place"
        extra = [w for w, on in (("Assault Movement", m.assault), ("Dash", m.dash), ("Bypass", m.bypass)) if on]
        extra += list(m.activities)
        return "move", f"move {', '.join(m.units)} {where}, {fmt_number(m.mf)} MF" + \
            (f" ({', '.join(extra)})" if extra else "")
    if step.attack is not None:
        a = step.attack
        opt = "/".join(sorted(set(a.option.values()))) if isinstance(a.option, dict) else a.option
        return "attack", f"{opt}: {', '.join(a.firers) or '(Residual FP)'} -> {', '.join(a.targets)}"
    return "end", "end of the movement" if step.end == "movement" else "end of the MPh"


def replay(sit: Situation, *, eng: Solver | None = None, until: int | None = None) -> Replay:
    """Walk the sequence (up to the situation before step `until`, when given)."""
    check_sequence(sit)
    eng = eng or engine()
    data = msgspec.structs.replace(sit.data, sequence=[], expect=[], ask=[])
    steps: list[StepResult] = []
    states: list[S.Situation] = []
    pending: list[tuple[Check, Expectation]] = []  # question items, asked of the next situation
    seq = sit.data.sequence
    for i, step in enumerate(seq):
        number = i + 1
        states.append(data)
        if until is not None and number >= until:
            return Replay(sit, steps, states)
        kind, text = _step_text(step)
        _on_map(sit, data, ("sequence", i), step)
        for chk, exp in pending:
            _on_map(sit, data, chk.path + ("question", "attack"), attack=exp.question)
        result = StepResult(number, sit.line(("sequence", i)) or 0, kind, text)
        where = {_STEP: ("sequence", i, "attack") if kind == "attack" else ("sequence", i)}
        asked = list(pending)
        pending = []

        def add(fb: FactBuilder, step: S.Step = step, asked: list = asked, where: dict = where) -> None:
            _step_facts(fb, step)
            for k, (chk, exp) in enumerate(asked, 1):
                question_facts(fb, Number(k), exp)
                where[k] = chk.path + ("question", "attack")

        solved = _solve(eng, sit, data, add)
        _raise_errors(sit, data, solved, where, None if i == 0 else ("sequence", i - 1))
        _settle(asked, solved.answers)
        result.answer = solved.answers.get(_STEP)
        ans = result.answer
        if kind == "attack":
            if ans is not None and ans.verdict == "forbidden":
                result.continues = "the attack is not made: nothing changes, the replay goes on without it"
            data = apply(sit, data, solved.transitions)
        else:
            data = apply(sit, data, solved.transitions, step.move)
        result.changes = list(solved.transitions)
        if ans is not None:
            result.problems = [r for r in ans.reasons if r.role in PROBLEM_ROLES]
            if any(r.role == "skipped" for r in result.problems):
                result.continues = "the replay goes on without the mandatory attack"
        if kind == "move":
            data = _residual(sit, eng, data, step, i, result)
        if any(r.role == "unresolved" for r in result.problems) and not result.continues:
            result.continues = "the replay goes on without the consequences it cannot settle"
        for j, item in enumerate(step.expect):
            path = ("sequence", i, "expect", j)
            line = sit.line(path) or 0
            if item.answer is not None:
                got = result.answer if kind == "attack" else result.residual
                chk = Check(path, line, "answer", answer=got)
                if got is None:
                    chk.mismatches.append(Mismatch("answer", "a Residual FP attack at this step", "none"))
                else:
                    chk.mismatches = compare(_expectation(step.attack, item.answer), got)
            elif item.state is not None:
                chk = Check(path, line, "state", mismatches=compare_state(sit, item.state, data))
            elif item.reasons is not None:
                chk = Check(path, line, "reasons", answer=ans)
                if ans is None:
                    chk.mismatches.append(Mismatch("reasons", "the step's own reasons", "none"))
                else:
                    chk.mismatches = reason_mismatches(item.reasons, ans)
            elif item.changes is not None:
                chk = Check(path, line, "changes", mismatches=compare_changes(sit, item.changes, result.changes))
            elif item.legal is not None:
                chk = Check(path, line, "legal")
                if item.legal != result.legal:
                    chk.mismatches.append(Mismatch("legal", item.legal, _legality(result)))
            else:
                chk = Check(path, line, "question")
                pending.append((chk, _expectation(item.question.attack, item.question)))
            result.checks.append(chk)
        steps.append(result)
    states.append(data)
    if until is not None and until > len(seq) + 1:
        raise _fail(sit, ("sequence",), f"--at a step number from 1 to {len(seq) + 1} (the situation before it)",
                    until)
    if pending:
        asked = pending
        for chk, exp in asked:
            _on_map(sit, data, chk.path + ("question", "attack"), attack=exp.question)

        def last(fb: FactBuilder) -> None:
            for k, (chk, exp) in enumerate(asked, 1):
                question_facts(fb, Number(k), exp)

        solved = _solve(eng, sit, data, last)
        _raise_errors(sit, data, solved, {k: chk.path + ("question", "attack") for k, (chk, _) in enumerate(asked, 1)},
                      ("sequence", len(seq) - 1))
        _settle(asked, solved.answers)
    return Replay(sit, steps, states)


def _legality(result: StepResult) -> str:
    if result.legal:
        return "legal"
    return "not legal: " + "; ".join(f"{r.role} {r.rule}: {r.text}" for r in result.problems)


def replay_outcomes(sit: Situation, *, eng: Solver | None = None) -> list[Outcome]:
    """A replay case as `aslrules check` reports it: each step's expect items, and each step that is
    not legal where the case does not state so (`legal: false`)."""
    rep = replay(sit, eng=eng)
    out: list[Outcome] = []
    k = len(sit.expect)
    for s in rep.steps:
        i = s.number - 1
        for c in s.checks:
            exp = Expectation(kind="attack", question=None, line=c.line)
            ans = c.answer if c.answer is not None else Answer(qid=k, kind=c.kind)
            out.append(Outcome(sit, k, exp, ans, list(c.mismatches), label=_path_text(c.path)))
            k += 1
        if not s.legal and not any(c.kind == "legal" for c in s.checks):
            exp = Expectation(kind="attack", question=None, line=s.line)
            ans = s.answer if s.answer is not None and s.kind == "attack" else Answer(qid=k, kind="legal")
            out.append(Outcome(sit, k, exp, ans, [Mismatch("legal", True, _legality(s))],
                               label=_path_text(("sequence", i))))
            k += 1
    return out


def _on_map(sit: Situation, data: S.Situation, path: tuple, step: S.Step | None = None,
            attack: S.Attack | None = None) -> None:
    """Every unit and weapon a step (or a question asked after one) names is still on the map: a
    unit eliminated earlier in the replay, with its weapons, is not (the ids of the file are
    checked by the loader; this is the same check, on the situation as it then stands)."""
    ids = {u.id for u in data.units} | {w.id for u in data.units for w in u.weapons}
    named: list[tuple[tuple, str]] = []
    if step is not None and step.move is not None:
        named += [(path + ("move", "units", k), u) for k, u in enumerate(step.move.units)]
    if step is not None and step.residual is not None:
        for field in ("morale", "casualties"):
            named += [(path + ("residual", field, u), u) for u in getattr(step.residual, field)]
    if step is not None and step.attack is not None:
        attack, path = step.attack, path + ("attack",)
    if attack is not None:
        named += [(path + ("firers", k), f) for k, f in enumerate(attack.firers)]
        named += [(path + ("targets", k), t) for k, t in enumerate(attack.targets)]
        named += [(path + ("director",), attack.director)] if attack.director is not None else []
        for field in ("morale", "casualties"):
            named += [(path + (field, u), u) for u in getattr(attack, field)]
    for where, ident in named:
        if ident not in ids:
            raise _fail(sit, where, "a unit or weapon still on the map at this step (it was eliminated earlier in the "
                        "replay)", ident)


def _settle(asked: list[tuple[Check, Expectation]], answers: dict[Any, Answer]) -> None:
    for k, (chk, exp) in enumerate(asked, 1):
        chk.answer = answers.get(k, Answer(qid=k))
        chk.mismatches = compare(exp, chk.answer)


def _residual(sit: Situation, eng: Solver, data: S.Situation, step: S.Step, i: int,
              result: StepResult) -> S.Situation:
    """A move onto a Residual FP counter: the KB said it attacks the movers (transition
    residual_attack); ask that attack, with the step's `residual` dice, and carry what it changes."""
    triggered = [c for c in result.changes if c.field == "residual_attack"]
    res = step.residual
    if not triggered:
        if res is not None:
            result.problems.append(Reason("A8.2", "the step gives dice for a Residual FP attack, but no Residual FP "
                                          "counter attacks the movers here", "unresolved"))
        return data
    movers = [u for u in step.move.units if any(x.id == u for x in data.units)]
    if not movers:
        return data
    q = S.Attack(option="residual_fp", targets=movers, dice=res.dice if res else None,
                 morale=dict(res.morale) if res else {}, casualties=dict(res.casualties) if res else {})
    residual_step = S.Step(attack=q)
    solved = _solve(eng, sit, data, lambda fb: _step_facts(fb, residual_step))
    _raise_errors(sit, data, solved, {_STEP: ("sequence", i, "residual")}, ("sequence", i))
    ans = solved.answers.get(_STEP)
    result.residual = ans
    if ans is None:
        return data
    if ans.verdict == "forbidden":
        if res is not None and res.dice is not None:
            result.problems.append(Reason("A8.2", "the step gives dice for a Residual FP attack that does not "
                                          "happen (" + "; ".join(r.text for r in ans.reasons if r.role == "forbid")
                                          + ")", "unresolved"))
        return data
    result.problems += [r for r in ans.reasons if r.role in ("unresolved",)]
    result.changes += solved.transitions
    return apply(sit, data, solved.transitions)


# --------------------------------------------------------------------------- state expectations


#: The fields of a step's changes that may hold several values for one key (a list).
_MANY = ("directed", "status")


def _change_value(sit: Situation, name: str, value: Any) -> Any:
    """A change's value (or one stated in a `changes:` item) as the two are compared."""
    if isinstance(value, list):
        return sorted(_change_value(sit, name, v) for v in value)
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float, Fraction)):
        return Fraction(str(value)) if isinstance(value, float) else Fraction(value)
    if name == "at":
        return _canon(sit, value)
    return str(value)


def compare_changes(sit: Situation, want: dict[str, dict[str, Any]], changes: Sequence[Change]) -> list[Mismatch]:
    """Which of the stated fields of a step's `changes:` the step's changes do not match: each field
    given lists every key the step changes and its value."""
    out: list[Mismatch] = []
    for name, stated in want.items():
        got: dict[str, Any] = {}
        for c in changes:
            if c.field == name:
                key = _canon(sit, str(c.key)) if name == "residual" else str(c.key)
                got.setdefault(key, []).append(c.value)
        got = {k: _change_value(sit, name, v if name in _MANY else v[0]) for k, v in got.items()}
        wanted = {(_canon(sit, k) if name == "residual" else k):
                  _change_value(sit, name, (v if isinstance(v, list) else [v]) if name in _MANY else v)
                  for k, v in stated.items()}
        if got != wanted:
            out.append(Mismatch(f"changes.{name}", _changes_text(wanted), _changes_text(got)))
    return out


def _changes_text(changes: dict[str, Any]) -> str:
    return "{" + ", ".join(f"{k}: {_show(v)}" for k, v in sorted(changes.items())) + "}" if changes else "none"


def compare_state(sit: Situation, state: S.State, data: S.Situation) -> list[Mismatch]:
    """Which of the stated fields of the state the situation does not match (a field left out is
    not compared)."""
    out: list[Mismatch] = []
    units = {u.id: u for u in data.units}
    weapons = {w.id: w for u in data.units for w in u.weapons}
    if state.phase is not None and state.phase != data.phase:
        out.append(Mismatch("state.phase", state.phase, data.phase))
    for uid, want in state.units.items():
        name = f"state.units.{uid}"
        u = units.get(uid)
        if want.eliminated is not None and want.eliminated != (u is None):
            out.append(Mismatch(f"{name}.eliminated", want.eliminated, u is None))
            continue
        if u is None:
            if any(getattr(want, f) is not None for f in struct_fields(S.UnitState) if f != "eliminated"):
                out.append(Mismatch(name, "on the map", "eliminated"))
            continue
        got = {
            "hex": _canon(sit, _unit_loc(u)), "counter": u.counter, "type": u.type, "fire": u.fire,
            "status": sorted(u.status), "moving": u.moving is not None,
            "mf_here": u.moving.mf_here if u.moving is not None else None,
            "directed": sorted(u.directed),
        }
        wanted = {
            "hex": _canon(sit, want.hex) if want.hex is not None else None, "counter": want.counter,
            "type": want.type, "fire": want.fire, "status": sorted(want.status) if want.status is not None else None,
            "moving": want.moving, "mf_here": want.mf_here,
            "directed": sorted(want.directed) if want.directed is not None else None,
        }
        for key, value in wanted.items():
            if value is not None and value != got[key]:
                out.append(Mismatch(f"{name}.{key}", _show(value), _show(got[key])))
        if want.attacked_here is not None and not _same_attacks(want.attacked_here, u.attacked_here):
            out.append(Mismatch(f"{name}.attacked_here", _attacks_text(want.attacked_here),
                                _attacks_text(u.attacked_here)))
    for wid, want in state.weapons.items():
        w = weapons.get(wid)
        got_fire = w.fire if w is not None else "(not on the map)"
        if want.fire is not None and want.fire != got_fire:
            out.append(Mismatch(f"state.weapons.{wid}.fire", want.fire, got_fire))
    residual = {_canon(sit, k): (v.fp if isinstance(v, S.ResidualCounter) else v) for k, v in data.residual_fp.items()}
    for loc, value in state.residual_fp.items():
        got_fp = residual.get(_canon(sit, loc), Fraction(0))
        if got_fp != value:
            out.append(Mismatch(f"state.residual_fp.{loc}", fmt_number(value), fmt_number(got_fp)))
    return out


def _same_attacks(want: list[S.AttackedHere], got: list[S.AttackedHere]) -> bool:
    if len(want) != len(got):
        return False
    for w, g in zip(want, got):
        if w.option != g.option or (w.by and sorted(w.by) != sorted(g.by)):
            return False
        for f in ("fp", "at_mf", "drm"):
            if getattr(w, f) is not None and getattr(w, f) != getattr(g, f):
                return False
    return True


def _attacks_text(attacks: list[S.AttackedHere]) -> str:
    parts = []
    for a in attacks:
        bits = [a.option] + ([f"by {', '.join(a.by)}"] if a.by else [])
        bits += [f"{f} {_show(getattr(a, f))}" for f in ("fp", "at_mf", "drm") if getattr(a, f) is not None]
        parts.append(" ".join(bits))
    return "[" + "; ".join(parts) + "]"


def _show(v: Any) -> Any:
    if isinstance(v, Fraction):
        return fmt_number(v)
    if isinstance(v, list):
        return "[" + ", ".join(str(_show(x)) for x in v) + "]"
    return v


def _json(v: Any) -> Any:
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else float(v)
    if isinstance(v, tuple):
        return [_json(x) for x in v]
    return v


# --------------------------------------------------------------------------- the situation at a step


def _builtins(obj: Any) -> Any:
    def enc(x: Any) -> Any:
        if isinstance(x, Fraction):
            return int(x) if x.denominator == 1 else float(x)
        raise NotImplementedError(type(x))

    return msgspec.to_builtins(obj, enc_hook=enc)


def situation_yaml(rep: Replay, number: int) -> str:
    """The situation as it stands before step `number` (1 .. steps + 1), as a plain situation file:
    no sequence; an attack step's attack as its `ask:` item, so `aslrules ask` answers it."""
    sit = rep.situation
    data = rep.states[number - 1]
    seq = sit.data.sequence
    out = _builtins(msgspec.structs.replace(data, sequence=[], expect=[], ask=[]))
    title = sit.title or sit.path
    if number <= len(seq):
        out["title"] = f"{title} - before step {number} ({_step_text(seq[number - 1])[1]})"
        if seq[number - 1].attack is not None:
            out["ask"] = [{"attack": _builtins(seq[number - 1].attack)}]
    else:
        out["title"] = f"{title} - after step {len(seq)}"
    head = f"# {sit.path}: the situation before step {number} of its sequence (aslrules replay --at {number})\n"
    return head + yaml.safe_dump(out, sort_keys=False, allow_unicode=True, width=110)


def situation_at(sit: Situation, number: int, *, eng: Solver | None = None) -> str:
    """`aslrules replay FILE --at N`: the situation before step N, as YAML."""
    check_sequence(sit)
    last = len(sit.data.sequence) + 1
    if not 1 <= number <= last:
        raise InputError(sit.path, None, "--at", f"a step number from 1 to {last} (the situation before it)", number)
    rep = replay(sit, eng=eng, until=number if number <= len(sit.data.sequence) else None)
    return situation_yaml(rep, number)


# --------------------------------------------------------------------------- rendering


_CHANGE_TEXT = {
    "fire": lambda k, v: f"{k}: {'no fire counter' if v == 'none' else 'marked ' + str(v)}",
    "directed": lambda k, v: f"{k} has directed {v} this phase",
    "residual": lambda k, v: f"Residual FP in {k}: " + (fmt_number(v) if v else "removed"),
    "attacked": lambda k, v: f"{k} attacked here: {v[0]} at {fmt_number(v[1])} MF"
                             + (f" ({fmt_number(v[2])} FP, DRM {v[3]})" if isinstance(v[2], Fraction) else ""),
    "counter": lambda k, v: f"{k}: now {v}",
    "type": lambda k, v: f"{k}: now a {v.replace('_', ' ')}",
    "status": lambda k, v: f"{k}: {v}",
    "eliminated": lambda k, v: f"{k}: eliminated",
    "at": lambda k, v: f"{k}: in {v}",
    "moving": lambda k, v: f"{k}: {'moving' if v else 'no longer moving'}",
    "moved_from": lambda k, v: f"{k}: entered from {v}" if v != "none" else f"{k}: entered no hex across a hexside",
    "mf_here": lambda k, v: f"{k}: {fmt_number(v)} MF expended in its Location",
    "attacked_clear": lambda k, v: f"{k}: the attacks on it in its Location are over",
    "phase": lambda k, v: f"the phase is now the {_PHASES.get(v, v)}",
    "residual_attack": lambda k, v: f"the {fmt_number(v)} Residual FP in {k} attacks the movers",
}


#: The order changes are listed in: the movers first, then what the attack did.
_ORDER = ["moving", "at", "moved_from", "mf_here", "attacked_clear", "residual_attack", "attacked", "fire", "directed",
          "residual", "counter", "type", "status", "eliminated", "phase"]


def change_text(c: Change) -> str:
    f = _CHANGE_TEXT.get(c.field)
    return f(c.key, c.value) if f else f"{c.key}: {c.field} {c.value}"


def step_lines(s: StepResult) -> list[str]:
    from .render import _VERDICT_ROLE, answer_lines

    head = f"step {s.number} (line {s.line}): {s.text}" + ("" if s.legal else "  [NOT LEGAL]")
    lines = [head]
    if s.answer is not None:
        if s.kind == "attack":
            lines.extend(answer_lines(s.answer)[1:])
        else:
            lines.extend(f"  {_VERDICT_ROLE.get(r.role, '')}{r.rule}: {r.text}" for r in s.answer.reasons)
    if s.residual is not None:
        lines.append("  Residual FP attack:")
        lines.extend(answer_lines(s.residual, indent="    "))
    if s.problems:
        lines.append("  not legal:")
        lines.extend(f"    {r.role}: {r.rule}: {r.text}" for r in s.problems)
        if s.continues:
            lines.append(f"    {s.continues}")
    shown = sorted((c for c in s.changes if c.field != "attacked_by"),
                   key=lambda c: (_ORDER.index(c.field) if c.field in _ORDER else len(_ORDER), str(c.key)))
    if shown:
        lines.append("  changes:")
        lines.extend(f"    {change_text(c)}" for c in shown)
    for c in s.checks:
        where = _path_text(c.path)
        if c.passed:
            lines.append(f"  expect (line {c.line}, {c.kind}): holds")
        else:
            lines.append(f"  FAIL expect (line {c.line}, {where}, {c.kind}):")
            lines.extend(f"    {m.field}: expected {m.expected}, got {m.actual}" for m in c.mismatches)
            if c.kind == "question" and c.answer is not None:
                lines.append("    the answer given:")
                lines.extend(answer_lines(c.answer, indent="      "))
    return lines


def replay_lines(rep: Replay) -> list[str]:
    sit = rep.situation
    out = [f"{sit.path}: {sit.title}" if sit.title else sit.path]
    for s in rep.steps:
        out.extend(step_lines(s))
    checks = rep.checks
    bad = [s.number for s in rep.steps if not s.legal]
    legal = "every step legal" if not bad else "not legal at step(s) " + ", ".join(map(str, bad))
    failed = sum(not c.passed for c in checks)
    out.append(f"{len(rep.steps)} steps, {legal}; {len(checks) - failed} expectations hold, {failed} failed")
    return out


def replay_dict(rep: Replay) -> dict[str, Any]:
    sit = rep.situation
    return {
        "file": sit.path, "title": sit.title, "legal": rep.legal,
        "passed": sum(c.passed for c in rep.checks), "failed": sum(not c.passed for c in rep.checks),
        "steps": [{
            "number": s.number, "line": s.line, "kind": s.kind, "text": s.text, "legal": s.legal,
            "answer": s.answer.as_dict() if s.answer is not None else None,
            "residual": s.residual.as_dict() if s.residual is not None else None,
            "problems": [dict(vars(r)) for r in s.problems], "continues": s.continues,
            "changes": [c.as_dict() for c in s.changes],
            "expect": [{"line": c.line, "kind": c.kind, "passed": c.passed,
                        "mismatches": [{"field": m.field, "expected": str(m.expected), "actual": str(m.actual)}
                                       for m in c.mismatches]} for c in s.checks],
        } for s in rep.steps],
    }

