"""The rules-in-scope list (tests/data/rules-in-scope.md, the repo's copy of the spec's list of the
statements the seeds make): its statements by rule id, and the listed ids a cited rule id stands
for. The web page links a rule id to its statements; `aslrules rulings` counts the rulings that
bear on a listed id (its coverage line)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

SCOPE = "rules-in-scope.md"


def scope_file() -> Path | None:
    """The rules-in-scope list: shipped in the wheel beside this module, or the source tree's copy
    (tests/data, which tests/test_scope.py keeps equal to the spec's)."""
    packaged = resources.files("aslrules.web") / SCOPE
    if packaged.is_file():
        return Path(str(packaged))
    source = Path(__file__).resolve().parents[1] / "tests" / "data" / SCOPE
    return source if source.is_file() else None


def read_scope(path: Path | None) -> list[dict[str, str]]:
    """The statements of the list, in its order: each with its rule id and section."""
    if path is None:
        return []
    out = []
    section = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if len(cells) >= 2 and cells[0] not in ("id", "") and not set(cells[0]) <= set("-: "):
            out.append({"rule": cells[0], "statement": " | ".join(cells[1:]), "section": section})
    return out


def base_ids(rule: str, known: set[str]) -> list[str]:
    """The ids of the list a cited rule id stands for: itself, else the longest listed id it
    begins with that is followed by a non-digit (`A8.41 EX` -> `A8.41`; never `A8.312` -> `A8.31`)."""
    if rule in known:
        return [rule]
    best = ""
    for k in known:
        if rule.startswith(k) and len(k) > len(best) and not rule[len(k)].isdigit():
            best = k
    return [best] if best else []


def scope_ids(path: Path | None = None) -> set[str] | None:
    """The rule ids the list names (None when the list is not found)."""
    path = path if path is not None else scope_file()
    return None if path is None else {s["rule"] for s in read_scope(path)}
