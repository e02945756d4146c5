"""Read the KB's shown atoms into answers.  Nothing here decides anything: every
verdict, figure and reason is an atom the KB derived (kb/show.lp, the answer
protocol); this module only groups them by question and renders templates."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from .facts import SCALE
from .model import fmt_number
from .symbols import Memo, Term, Value, sort_key


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


def shown_text(v: Value) -> str:
    """A value the KB showed, as a reason's text gives it."""
    return text_of(to_python(v))


def render(template: str, args: Value, text: Callable[[Value], str] = shown_text) -> str:
    """A reason's template with its arguments (a tuple: one each; another value: the one), each
    given as `text` writes it."""
    if isinstance(args, Term) and args.name == "":
        return template.format(*map(text, args.arguments))
    return template.format(text(args))


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

    @cached_property
    def question(self) -> str:
        """The question's id as text (a listed attack's: the KB's term, as clingo prints it)."""
        return str(self.qid)

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
        return (str(where), tier, -column, drm, self.question)

    def rule_ids(self) -> set[str]:
        """Every rule id anywhere in the answer."""
        ids = {r.rule for r in self.reasons}
        ids |= {r.rule for by_key in self.figure_reasons.values() for rs in by_key.values() for r in rs}
        ids |= {p.rule for ps in self.parts.values() for p in ps}
        return ids

    def as_dict(self) -> dict[str, Any]:
        rank = {} if self.rank is None else {"rank": dict(zip(("at", "tier", "column", "drm"), self.rank))}
        return {
            "question": self.question if isinstance(self.qid, Term) else self.qid,
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
    t = type(v)
    if t in _PLAIN:  # most values: written as they are
        return v
    if t is Fraction or isinstance(v, Fraction):  # (an ABC: isinstance is slow, and rarely needed)
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


#: The predicates of the answer protocol (kb/show.lp) whose first argument is the question, as
#: (name, arity), in clingo's order of symbols (by arity, then name): the order an answer reads them.
_PROTOCOL = (("question", 2), ("verdict", 2), ("figure", 3), ("role", 3), ("figure", 4), ("list_rank", 5),
             ("reason", 5), ("figure_part", 6), ("figure_reason", 6))
_SLOT = {name: k for k, (name, _) in reversed(list(enumerate(_PROTOCOL)))}  # figure: its /3 slot
_FIGURE3, _FIGURE4 = _PROTOCOL.index(("figure", 3)), _PROTOCOL.index(("figure", 4))


def read_answers(atoms: list[Term]) -> dict[Any, Answer]:
    """Group the shown atoms of the answer protocol (kb/show.lp) by question: {question id: Answer}.

    Each question's atoms are read in clingo's order of symbols (the same answers each time);
    the questions too.  The atoms are put in slots (a question's, then its predicate's), and
    only a slot of more than one atom is sorted.  A value's sort key, its Python value and its
    text in a reason are each made once (`Memo`): a listing has hundreds of thousands of
    atoms, most of them alone in their slot (a verdict, a rank), and a few thousand values
    (ids, rule ids, templates) shared by all of them."""
    groups: dict[Value, list[list[tuple] | None]] = {}
    slot_of, no_slots = _SLOT.get, [None] * len(_PROTOCOL)
    for name, args in atoms:
        k = slot_of(name)
        if k is None:
            continue
        if k == _FIGURE3 and len(args) == 4:
            k = _FIGURE4
        group = groups.get(args[0])
        if group is None:  # a slot's list made with its first atom: most questions fill few slots
            group = groups[args[0]] = no_slots.copy()
        slot = group[k]
        if slot is None:
            group[k] = [args]
        else:
            slot.append(args)
    key = _sort_keys()

    def args_key(args: tuple) -> tuple:  # sort_key of an atom of a slot, less what the slot shares
        return tuple(map(key, args[1:]))

    py, text = Memo(to_python).__getitem__, Memo(shown_text).__getitem__
    answers: dict[Any, Answer] = {}
    for q in sorted(groups, key=key):
        group = groups[q]
        for slot in group:
            if slot is not None and len(slot) > 1:
                slot.sort(key=args_key)
        answers[q] = _answer(q, group, py, text)
    return answers


def _sort_keys() -> Callable[[Value], tuple]:
    """symbols.sort_key (clingo's order of symbols), memoized, a function's arguments too."""
    key = Memo(lambda v: sort_key(v, key)).__getitem__
    return key


def _answer(q: Value, group: list[list[tuple] | None], py: Callable[[Value], Any] = to_python,
            text: Callable[[Value], str] = shown_text) -> Answer:
    """One question's Answer from its atoms' arguments, by predicate (`_PROTOCOL`; None: no atom), in
    clingo's order; `py` and `text`: to_python and shown_text (or their memos)."""
    question, verdict, figure3, role, figure4, list_rank, reason, figure_part, figure_reason = group
    ans = Answer(qid=q)
    for a in question or ():
        ans.kind = a[1].name
    for a in verdict or ():
        ans.verdict = a[1].name
    several: dict[str, list[Any]] = {}  # unkeyed figures, collected before they collapse
    for a in figure3 or ():
        several.setdefault(a[1].name, []).append(py(a[2]))
    roles, figures = ans.roles, ans.figures
    for a in role or ():
        roles.setdefault(a[1].name, []).append(py(a[2]))
    for a in figure4 or ():
        figures.setdefault(a[1].name, {})[None if a[2] == _NONE else py(a[2])] = py(a[3])
    for a in list_rank or ():
        ans.rank = a[1:]
    for a in reason or ():
        ans.reasons.append(Reason(a[2], render(a[3], a[4], text), a[1].name))
    for a in figure_part or ():
        ans.parts.setdefault(a[1].name, []).append(Part(a[2], render(a[3], a[4], text), a[5]))
    for a in figure_reason or ():
        by_key = ans.figure_reasons.setdefault(a[1].name, {})
        by_key.setdefault(None if a[2] == _NONE else py(a[2]), []).append(Reason(a[3], render(a[4], a[5], text)))
    for name, values in several.items():
        figures[name] = values[0] if len(values) == 1 else values
    return ans


#: A figure's key `none`: no key (None).
_NONE = Term("none")
