"""Text rendering of answers and check outcomes: the reasons as an indented tree.

Generic over the answer protocol (kb/show.lp): a question line, the verdict and
its reasons, then each figure with its parts and reasons below it."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, TextIO

from .answers import Answer, fmt_number
from .core import Outcome

#: How a figure is labelled, in the order figures are shown (a figure not listed comes after,
#: its name with spaces); None: not a line of its own (the option is in the question line).
LABELS: dict[str, str | None] = {
    "option": None,
    "fp": "FP",
    "fp_by_firer": "FP by firer",
    "base_column": "IFT column before shifts",
    "ift_column": "IFT column",
    "drm": "DRM",
    "leader_direction": "leader direction",
    "breakdown": "B#",
    "residual_fp": "Residual FP left",
    "fire_lane": "Fire Lane laid",
    "after": "counters afterwards",
    "final_dr": "Final DR",
    "ift_result": "IFT result",
    "fpf_nmc_dr": "FPF NMC Final DR",
    "firer_status": "firer status",
    "random_selection": "Random Selection among",
    "may_rout": "may rout",
    "cc_counters": "CC counters on",
}


def label(name: str) -> str | None:
    return LABELS[name] if name in LABELS else name.replace("_", " ")


def figure_order(names: Any) -> list[str]:
    """The figures in the order they are shown: those of LABELS first, the rest as the KB gave them."""
    listed = [n for n in LABELS if n in names]
    return listed + [n for n in names if n not in LABELS]


def value_text(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, Fraction):
        return fmt_number(v)
    if isinstance(v, dict):
        return ", ".join(f"{value_text(k)} {value_text(x)}" for k, x in v.items())
    if isinstance(v, tuple):  # a tuple value: a hexspine's two hexes
        return "/".join(value_text(x) for x in v)
    if isinstance(v, list):  # several values: a set
        return ", ".join(value_text(x) for x in v)
    return str(v)


def _signed(n: int) -> str:
    return f"{n:+d}"


def question_line(a: Answer) -> str:
    options = a.figure("option")
    if isinstance(options, dict):
        opt = "/".join(sorted(set(options.values())))
    else:  # an attack with no firer is a Residual FP attack; another kind names itself
        opt = "residual_fp" if a.kind == "attack" else a.kind
    firers = ", ".join(value_text(f) for f in a.firers) or "(Residual FP)"
    aimed = [value_text(x) for role in ("target", "at", "to") for x in a.roles.get(role, [])]
    directed = "".join(f" directed by {value_text(d)}" for d in a.roles.get("director", []))
    return f"{opt}: {firers}{directed} -> {', '.join(aimed)}"


_VERDICT_ROLE = {"forbid": "forbidden by ", "must": "mandatory by ", "note": "", "skipped": "skipped: ",
                 "unresolved": "unresolved: "}


def answer_lines(a: Answer, indent: str = "") -> list[str]:
    i1, i2, i3 = indent + "  ", indent + "    ", indent + "      "
    lines = [f"{indent}{question_line(a)}", f"{i1}verdict: {a.verdict}"]
    for r in a.reasons:
        lines.append(f"{i2}{_VERDICT_ROLE.get(r.role, '')}{r.rule}: {r.text}")
    for name in figure_order(a.figures):
        text = label(name)
        if text is None:
            continue
        value = a.figures[name]
        reasons = dict(a.figure_reasons.get(name, {}))
        if isinstance(value, dict):  # a keyed figure: one line per key, that key's reasons below it
            lines.append(f"{i1}{text}:")
            for key, v in value.items():
                lines.append(f"{i2}{value_text(key)}: {value_text(v)}")
                lines.extend(f"{i3}{r.rule}: {r.text}" for r in reasons.pop(key, []))
        else:
            lines.append(f"{i1}{text}: {value_text(value)}")
        for p in a.parts.get(name, []):
            lines.append(f"{i2}{_signed(p.value)} {p.rule}: {p.text}")
        for key, rs in reasons.items():
            deeper = i2
            if key is not None:
                lines.append(f"{i2}{value_text(key)}:")
                deeper = i3
            lines.extend(f"{deeper}{r.rule}: {r.text}" for r in rs)
    return lines


VERDICTS = ("mandatory", "allowed", "forbidden")


def listing_groups(answers: list[Answer]) -> list[dict[str, Any]]:
    """A listing's answers (in the KB's order, Answer.sort_key) grouped by target Location: each
    group's Location, targets, how many attacks of each verdict, and its answers' indices."""
    groups: dict[Any, dict[str, Any]] = {}
    targets: dict[Any, dict[str, None]] = {}  # per group its targets' texts, in order
    for i, a in enumerate(answers):
        where = str(a.rank[0]) if a.rank else None
        g = groups.get(where)
        if g is None:
            g = groups[where] = {"at": where, "targets": [], **{v: 0 for v in VERDICTS}, "answers": []}
            targets[where] = {}
        targets[where].update(dict.fromkeys(map(value_text, a.targets)))
        g[a.verdict] = g.get(a.verdict, 0) + 1
        g["answers"].append(i)
    for where, g in groups.items():
        g["targets"] = list(targets[where])
    return list(groups.values())


def write_answers_json(out: TextIO, file: str, title: str | None, answers: list[Answer], *, listing: bool) -> None:
    """`aslrules ask --format json`: the file, its title, the answers and (a `listing`, no question
    asked) how many attacks of each verdict and listing_groups."""
    from .jsontext import write_json

    head = {"listing": {**{v: sum(1 for a in answers if a.verdict == v) for v in VERDICTS},
                        "groups": listing_groups(answers)}} if listing else {}
    write_json(out, {"file": file, "title": title, "answers": None, **head}, "answers", (a.as_dict() for a in answers))


def listing_lines(answers: list[Answer], indent: str = "", full: bool = False) -> list[str]:
    """A listing (`aslrules ask` with no question), in the KB's order (Answer.sort_key): per target
    Location a head line with the counts, then the mandatory and allowed attacks in full, then one
    line per forbidden attack with its first reason (`full`: in full, as the others)."""
    lines: list[str] = []
    for g in listing_groups(answers):
        group = [answers[i] for i in g["answers"]]
        head = f"at {g['at']}" + (f" ({', '.join(g['targets'])})" if g["targets"] else "")
        lines.append(f"{indent}{head}: {len(group)} attacks: " + ", ".join(f"{g[v]} {v}" for v in VERDICTS))
        for a in group:
            if a.verdict != "forbidden" or full:
                lines.extend(answer_lines(a, indent=indent + "  "))
                continue
            first = next((r for r in a.reasons if r.role == "forbid"), None)
            why = f": {first.rule}: {first.text}" if first else ""
            lines.append(f"{indent}  forbidden: {question_line(a)}{why}")
    return lines


def outcome_lines(o: Outcome) -> list[str]:
    exp = o.expectation
    head = f"FAIL {o.situation.path}:{exp.line}: {o.label or f'expect[{o.index}]'}" + \
        (f" (part {exp.part})" if exp.part else "")
    if o.situation.source:
        head += f" ({o.situation.source})"
    lines = [head]
    for m in o.mismatches:
        lines.append(f"  {m.field}: expected {m.expected}, got {m.actual}")
    if o.answer.kind not in ("state", "legal", "input_error"):  # a replay's state or legality item has no answer
        lines.append("  the answer given:")
        lines.extend(answer_lines(o.answer, indent="    "))
    return lines
