"""Text rendering of answers and check outcomes: the reasons as an indented tree."""

from __future__ import annotations

from .answers import Answer, fmt_number
from .core import Outcome


def _signed(n: int) -> str:
    return f"{n:+d}"


def question_line(a: Answer) -> str:
    options = sorted(set(a.firers.values()))
    firers = ", ".join(a.firers) or "(Residual FP)"
    opt = "/".join(options) or "residual_fp"
    return f"{opt}: {firers} -> {', '.join(a.targets)}"


def answer_lines(a: Answer, indent: str = "") -> list[str]:
    i1, i2, i3 = indent + "  ", indent + "    ", indent + "      "
    lines = [f"{indent}{question_line(a)}", f"{i1}verdict: {a.verdict}"]
    for r in a.forbid:
        lines.append(f"{i2}forbidden by {r.rule}: {r.text}")
    for r in a.must:
        lines.append(f"{i2}mandatory by {r.rule}: {r.text}")
    for r in a.notes:
        lines.append(f"{i2}{r.rule}: {r.text}")
    if a.fp is not None:
        col = f", IFT column {a.ift_column}" if a.ift_column is not None else ", no IFT column"
        lines.append(f"{i1}FP {fmt_number(a.fp)}{col}")
        for f, v in a.fp_firers.items():
            lines.append(f"{i2}{f}: {fmt_number(v.fp)}")
            for r in v.reasons:
                lines.append(f"{i3}{r.rule}: {r.text}")
        for p in a.column_shifts:
            lines.append(f"{i2}{p.rule}: {p.text} ({_signed(p.value)} column)")
    if a.drm is not None:
        lines.append(f"{i1}DRM {_signed(a.drm)}")
        for p in a.drm_parts:
            lines.append(f"{i2}{_signed(p.value)} {p.rule}: {p.text}")
    if a.kind == "attack":
        lines.append(f"{i1}leader direction: {'yes' if a.leader_direction else 'no'}")
    for name in a.figures:  # issue 5: the named figures of the CA question kinds
        value = a.figure(name)
        shown = lambda v: {True: "yes", False: "no"}.get(v, v) if isinstance(v, bool) else v  # noqa: E731
        text = ", ".join(str(shown(v)) for v in value) if isinstance(value, list) else str(shown(value))
        lines.append(f"{i1}{name.replace('_', ' ')}: {text}")
    if a.breakdown:
        lines.append(f"{i1}B#: " + ", ".join(f"{w} {b}" for w, b in a.breakdown.items()))
        for r in a.breakdown_notes:
            lines.append(f"{i2}{r.rule}: {r.text}")
    if a.residual_fp is not None:
        lines.append(f"{i1}Residual FP left: {fmt_number(a.residual_fp)}")
        for r in a.residual_notes:
            lines.append(f"{i2}{r.rule}: {r.text}")
    if a.after:
        lines.append(f"{i1}counters afterwards: " + ", ".join(f"{x} {c}" for x, c in a.after.items()))
    if a.fpf_nmc_dr is not None:
        lines.append(f"{i1}FPF NMC Final DR: {a.fpf_nmc_dr}")
        for u, s in a.firer_status.items():
            lines.append(f"{i2}{u}: {s}")
    return lines


def outcome_lines(o: Outcome) -> list[str]:
    exp = o.expectation
    head = f"FAIL {o.situation.path}:{exp.line}: expect[{o.index}]"
    if o.situation.source:
        head += f" ({o.situation.source})"
    lines = [head]
    for m in o.mismatches:
        lines.append(f"  {m.field}: expected {m.expected}, got {m.actual}")
    lines.append("  the answer given:")
    lines.extend(answer_lines(o.answer, indent="    "))
    return lines
