"""Read the KB's shown atoms into answers.  Nothing here decides anything: every
verdict, figure and reason is an atom the KB derived; this module only groups
them by question and renders templates."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .facts import SCALE
from .symbols import Term, Value, sort_key


def fmt_number(x: Fraction | int) -> str:
    """10.5 -> '10.5'; 14 -> '14' (FP and MF are multiples of 1/64: exact decimals)."""
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    return repr(float(x))


def to_python(v: Value) -> Any:
    """A value the KB showed, for an answer: fp(N)/mf(N) scaled back to a Fraction, a tuple or
    function to a tuple of its arguments, a constant to its name."""
    if not isinstance(v, Term):
        return v
    if v.name in ("fp", "mf") and len(v.arguments) == 1 and isinstance(v.arguments[0], int):
        return Fraction(v.arguments[0], SCALE)
    if v.name == "" or v.arguments:
        return tuple(to_python(a) for a in v.arguments)
    return v.name


def text_of(value: Any) -> str:
    if isinstance(value, Fraction):
        return fmt_number(value)
    if isinstance(value, tuple):
        return ", ".join(text_of(v) for v in value)
    return str(value)


def render(template: str, args: Value) -> str:
    values = [text_of(to_python(a)) for a in args.arguments] if isinstance(args, Term) and args.name == "" \
        else [text_of(to_python(args))]
    return template.format(*values)


@dataclass
class Reason:
    rule: str
    text: str

    def as_dict(self) -> dict[str, str]:
        return {"rule": self.rule, "text": self.text}


@dataclass
class DrmPart:
    rule: str
    text: str
    value: int

    def as_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "text": self.text, "value": self.value}


@dataclass
class FirerFP:
    fp: Fraction
    reasons: list[Reason] = field(default_factory=list)


@dataclass
class Answer:
    """Everything the KB said about one question."""

    qid: Any
    verdict: str = ""
    firers: dict[str, str] = field(default_factory=dict)  # firer -> option
    targets: list[str] = field(default_factory=list)
    forbid: list[Reason] = field(default_factory=list)
    must: list[Reason] = field(default_factory=list)
    notes: list[Reason] = field(default_factory=list)
    fp: Fraction | None = None
    fp_firers: dict[str, FirerFP] = field(default_factory=dict)
    ift_column: int | None = None
    base_column: int | None = None
    column_shifts: list[DrmPart] = field(default_factory=list)
    drm: int | None = None
    drm_parts: list[DrmPart] = field(default_factory=list)
    leader_direction: bool = False
    breakdown: dict[str, int] = field(default_factory=dict)
    breakdown_notes: list[Reason] = field(default_factory=list)
    residual_fp: Fraction | None = None
    residual_notes: list[Reason] = field(default_factory=list)
    after: dict[str, str] = field(default_factory=dict)
    fpf_nmc_dr: int | None = None
    firer_status: dict[str, str] = field(default_factory=dict)
    kind: str = "attack"  # issue 5: or a CA question kind (model.CA_QUESTION_KINDS)
    figures: dict[str, list[Any]] = field(default_factory=dict)  # issue 5: named figures, each a list of values

    def figure(self, name: str) -> Any:
        """A named figure: its value, a list when the KB gave several, None when it gave none."""
        values = self.figures.get(name)
        if not values:
            return None
        return values[0] if len(values) == 1 else list(values)

    @property
    def reasons(self) -> list[Reason]:
        """The reasons behind the verdict: every forbidding rule, or the obligations and notes."""
        if self.verdict == "forbidden":
            return self.forbid
        return self.must + self.notes

    def rule_ids(self) -> set[str]:
        ids = {r.rule for r in self.forbid + self.must + self.notes + self.breakdown_notes + self.residual_notes}
        ids |= {p.rule for p in self.drm_parts + self.column_shifts}
        for f in self.fp_firers.values():
            ids |= {r.rule for r in f.reasons}
        return ids

    def as_dict(self) -> dict[str, Any]:
        num = lambda x: None if x is None else (int(x) if Fraction(x).denominator == 1 else float(x))  # noqa: E731
        return {
            "question": _qid_text(self.qid),
            "firers": self.firers,
            "targets": self.targets,
            "verdict": self.verdict,
            "reasons": {
                "forbid": [r.as_dict() for r in self.forbid],
                "must": [r.as_dict() for r in self.must],
                "notes": [r.as_dict() for r in self.notes],
            },
            "fp": num(self.fp),
            "fp_by_firer": {
                f: {"fp": num(v.fp), "reasons": [r.as_dict() for r in v.reasons]} for f, v in self.fp_firers.items()
            },
            "ift_column": self.ift_column,
            "column_shifts": [p.as_dict() for p in self.column_shifts],
            "drm": self.drm,
            "drm_parts": [p.as_dict() for p in self.drm_parts],
            "leader_direction": self.leader_direction,
            "breakdown": self.breakdown,
            "breakdown_reasons": [r.as_dict() for r in self.breakdown_notes],
            "residual_fp": num(self.residual_fp),
            "residual_reasons": [r.as_dict() for r in self.residual_notes],
            "after": self.after,
            "fpf_nmc_dr": self.fpf_nmc_dr,
            "firer_status": self.firer_status,
            "kind": self.kind,
            "figures": {name: self.figure(name) for name in self.figures},
        }


def _qid_text(qid: Any) -> Any:
    if isinstance(qid, Term):
        return str(qid)
    return qid


def read_answers(atoms: list[Term]) -> dict[Any, Answer]:
    """Group shown atoms by question: {question id: Answer}."""
    answers: dict[Any, Answer] = {}

    def get(q: Value) -> Answer:
        if q not in answers:
            answers[q] = Answer(qid=q)
        return answers[q]

    fp_notes: dict[Any, dict[str, list[Reason]]] = defaultdict(lambda: defaultdict(list))
    for s in sorted(atoms, key=sort_key):  # clingo's order: the same answers each time
        a = s.arguments
        n = s.name
        if n == "question":
            get(a[0])
        elif n == "verdict":
            get(a[0]).verdict = a[1].name
        elif n in ("forbid", "must", "note"):
            r = Reason(a[1], render(a[2], a[3]))
            {"forbid": get(a[0]).forbid, "must": get(a[0]).must, "note": get(a[0]).notes}[n].append(r)
        elif n == "q_firer":
            get(a[0]).firers[a[1]] = a[2].name
        elif n == "q_target":
            get(a[0]).targets.append(a[1])
        elif n == "fp":
            get(a[0]).fp = Fraction(a[1], SCALE)
        elif n == "fp_firer":
            ans = get(a[0])
            ans.fp_firers.setdefault(a[1], FirerFP(Fraction(0))).fp = Fraction(a[2], SCALE)
        elif n == "fp_note":
            fp_notes[a[0]][a[1]].append(Reason(a[2], render(a[3], a[4])))
        elif n == "ift_column":
            get(a[0]).ift_column = a[1]
        elif n == "base_column":
            get(a[0]).base_column = a[1]
        elif n == "column_shift":
            get(a[0]).column_shifts.append(DrmPart(a[1], render(a[2], a[3]), a[4]))
        elif n == "drm":
            get(a[0]).drm = a[1]
        elif n == "drm_part":
            get(a[0]).drm_parts.append(DrmPart(a[1], render(a[2], a[3]), a[4]))
        elif n == "leader_direction":
            get(a[0]).leader_direction = True
        elif n == "breakdown":
            get(a[0]).breakdown[a[1]] = a[2]
        elif n == "breakdown_note":
            get(a[0]).breakdown_notes.append(Reason(a[1], render(a[2], a[3])))
        elif n == "residual_fp":
            get(a[0]).residual_fp = Fraction(a[1], SCALE)
        elif n == "residual_note":
            get(a[0]).residual_notes.append(Reason(a[1], render(a[2], a[3])))
        elif n == "counter_after":
            get(a[0]).after[a[1]] = a[2].name
        elif n == "fpf_nmc_dr":
            get(a[0]).fpf_nmc_dr = a[1]
        elif n == "firer_status":
            get(a[0]).firer_status[a[1]] = a[2].name
        elif n == "ca_question":  # issue 5: the CA question kinds
            get(a[0]).kind = a[1].name
        elif n == "caq_firer":
            get(a[0]).firers[a[1]] = ""
        elif n in ("caq_target", "caq_at"):
            get(a[0]).targets.append(a[1])
        elif n == "caq_to":  # a ca_change's new hexspine, or Bypass facing
            get(a[0]).targets.append(f"hexspine {a[1]}/{a[2]}")
        elif n == "caq_to_facing":
            get(a[0]).targets.append(f"facing {a[1].name}")
        elif n == "figure":
            value = to_python(a[2])
            value = {"true": True, "false": False}.get(value, value) if isinstance(value, str) else value
            get(a[0]).figures.setdefault(a[1].name, []).append(value)
    for ans in answers.values():
        if ans.kind != "attack":
            ans.firers = {f: ans.kind for f in ans.firers}
    for q, by_firer in fp_notes.items():
        if q in answers:
            for f, reasons in by_firer.items():
                answers[q].fp_firers.setdefault(f, FirerFP(Fraction(0))).reasons.extend(reasons)
    return answers
