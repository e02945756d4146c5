"""Read the KB's shown atoms into answers.  Nothing here decides anything: every
verdict, figure and reason is an atom the KB derived (kb/show.lp, the answer
protocol); this module only groups them by question and renders templates."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .facts import SCALE
from .model import fmt_number
from .symbols import Term, Value


def to_python(v: Value) -> Any:
    """A value the KB showed, for an answer: fp(N)/mf(N) scaled back to a Fraction, true/false to
    a bool, a tuple or function to a tuple of its arguments, another constant to its name."""
    if not isinstance(v, Term):
        return v
    if v.name in ("fp", "mf") and len(v.arguments) == 1 and isinstance(v.arguments[0], int):
        return Fraction(v.arguments[0], SCALE)
    if v.name == "" or v.arguments:
        return tuple(to_python(a) for a in v.arguments)
    return _BOOLS.get(v.name, v.name)


_BOOLS = {"true": True, "false": False}


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
    """A reason: a rule id and its rendered text; role forbid, must or note (a verdict's reason)."""

    rule: str
    text: str
    role: str = "note"


@dataclass
class Part:
    """An additive part of a figure (a DRM, an IFT column shift)."""

    rule: str
    text: str
    value: int


@dataclass
class Answer:
    """Everything the KB said about one question (kb/show.lp)."""

    qid: Any
    kind: str = "attack"
    verdict: str = ""
    roles: dict[str, list[Any]] = field(default_factory=dict)  # role -> ids: "firer", "target", "at", "to", ...
    reasons: list[Reason] = field(default_factory=list)  # the verdict's reasons, in the KB's order
    figures: dict[str, Any] = field(default_factory=dict)  # name -> value | list (a set) | dict (keyed)
    figure_reasons: dict[str, dict[Any, list[Reason]]] = field(default_factory=dict)  # name -> key -> reasons
    parts: dict[str, list[Part]] = field(default_factory=dict)  # name -> additive parts
    rank: tuple | None = None  # a listed attack's place (kb/listing.lp list_rank/5): (Location, tier, column, DRM)

    def figure(self, name: str) -> Any:
        """A figure: its value, a list when the KB gave several, a dict when keyed, None when absent."""
        return self.figures.get(name)

    @property
    def firers(self) -> list[Any]:
        return self.roles.get("firer", [])

    @property
    def targets(self) -> list[Any]:
        return self.roles.get("target", [])

    def sort_key(self) -> tuple:
        """A listed attack's place in the listing (the KB's list_rank/5): by target Location, then
        mandatory, allowed, forbidden, then the highest IFT column, then the lowest DRM."""
        where, tier, column, drm = self.rank or ("", 3, 0, 0)
        return (str(where), tier, -column, drm, str(self.qid))

    def rule_ids(self) -> set[str]:
        """Every rule id anywhere in the answer."""
        ids = {r.rule for r in self.reasons}
        ids |= {r.rule for by_key in self.figure_reasons.values() for rs in by_key.values() for r in rs}
        ids |= {p.rule for ps in self.parts.values() for p in ps}
        return ids

    def as_dict(self) -> dict[str, Any]:
        rank = {} if self.rank is None else {"rank": dict(zip(("at", "tier", "column", "drm"), self.rank))}
        return {
            "question": str(self.qid) if isinstance(self.qid, Term) else self.qid,
            "kind": self.kind,
            "verdict": self.verdict,
            "roles": {role: [_json(x) for x in ids] for role, ids in self.roles.items()},
            "reasons": [r.__dict__.copy() for r in self.reasons],
            "figures": {name: _json(v) for name, v in self.figures.items()},
            "figure_reasons": {name: {_key_text(k): [r.__dict__.copy() for r in rs] for k, rs in by_key.items()}
                               for name, by_key in self.figure_reasons.items()},
            "parts": {name: [p.__dict__.copy() for p in ps] for name, ps in self.parts.items()},
            **rank,
        }


def _json(v: Any) -> Any:
    """A figure's value for JSON: Fractions as int or float, tuples as lists, keys as text."""
    if type(v) in _PLAIN:  # most values: written as they are
        return v
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else float(v)
    if isinstance(v, (tuple, list)):
        return [_json(x) for x in v]
    if isinstance(v, dict):
        return {_key_text(k): _json(x) for k, x in v.items()}
    return v


_PLAIN = frozenset((str, int, bool))


def _key_text(k: Any) -> str:
    if k is None:
        return "none"
    if isinstance(k, tuple):
        return text_of(k)
    return str(k)


#: The predicates of the answer protocol (kb/show.lp) whose first argument is the question.
_PROTOCOL = frozenset(("question", "verdict", "reason", "role", "figure", "figure_reason", "figure_part",
                       "list_rank"))


def read_answers(atoms: list[Term]) -> dict[Any, Answer]:
    """Group the shown atoms of the answer protocol (kb/show.lp) by question: {question id: Answer}.

    Each question's atoms are read in clingo's order of symbols (the same answers each time);
    the questions too.  The atoms are grouped first and each group sorted on its own, with the
    sort keys of shared values (ids, rule ids, templates) made once: a listing has hundreds of
    thousands of atoms, and a global sort on keys made afresh was most of its reading time."""
    groups: dict[Value, list[Term]] = {}
    for s in atoms:
        if s.name in _PROTOCOL:
            q = s.arguments[0]
            group = groups.get(q)
            if group is None:
                group = groups[q] = []
            group.append(s)
    memo: dict[int, tuple] = {}  # id of a value -> its sort key; `atoms` keeps every value alive

    def key(v: Value) -> tuple:  # symbols.sort_key, memoized (the reader makes each value once)
        k = memo.get(id(v))
        if k is None:
            t = type(v)
            if t is str:
                k = (2, v)
            elif t is int:
                k = (0, v)
            else:
                k = (3, len(v.arguments), v.name, tuple(map(key, v.arguments))) if v.arguments else (1, v.name)
            memo[id(v)] = k
        return k

    def atom_key(s: Term) -> tuple:  # sort_key(s) less what a group shares: its first argument
        return (len(s.arguments), s.name, tuple(map(key, s.arguments[1:])))

    answers: dict[Any, Answer] = {}
    for q in sorted(groups, key=key):
        answers[q] = _answer(q, sorted(groups[q], key=atom_key))
    return answers


def _answer(q: Value, atoms: list[Term]) -> Answer:
    """One question's Answer from its atoms, in clingo's order."""
    ans = Answer(qid=q)
    several: dict[str, list[Any]] = {}  # unkeyed figures, collected before they collapse
    for s in atoms:
        n, a = s.name, s.arguments
        if n == "question":
            ans.kind = a[1].name
        elif n == "verdict":
            ans.verdict = a[1].name
        elif n == "reason":
            ans.reasons.append(Reason(a[2], render(a[3], a[4]), a[1].name))
        elif n == "role":
            ans.roles.setdefault(a[1].name, []).append(to_python(a[2]))
        elif n == "figure" and len(a) == 3:
            several.setdefault(a[1].name, []).append(to_python(a[2]))
        elif n == "figure":
            ans.figures.setdefault(a[1].name, {})[_key(a[2])] = to_python(a[3])
        elif n == "figure_reason":
            by_key = ans.figure_reasons.setdefault(a[1].name, {})
            by_key.setdefault(_key(a[2]), []).append(Reason(a[3], render(a[4], a[5])))
        elif n == "list_rank":
            ans.rank = (a[1], a[2], a[3], a[4])
        elif n == "figure_part":
            ans.parts.setdefault(a[1].name, []).append(Part(a[2], render(a[3], a[4]), a[5]))
    for name, values in several.items():
        ans.figures[name] = values[0] if len(values) == 1 else values
    return ans


def _key(v: Value) -> Any:
    """A figure's key: an id, or None for the KB's `none`."""
    if isinstance(v, Term) and v.name == "none" and not v.arguments:
        return None
    return to_python(v)
