"""Issue 5, "done means": every rule id of the Covered Arc chart table in rules-in-scope.md (its
copy in tests/data) is cited by a reason in kb/ and named by a case under tests/cases/ca/ (its
source or `because`), and the CA geometry answers as the grid says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from aslrules.core import ask, iter_case_files
from aslrules.loader import load_file, load_text

ROOT = Path(__file__).resolve().parent.parent
# the repo's copy of shared/spec/rules-in-scope.md (tests/test_scope.py checks it against the shared file)
SPEC = ROOT / "tests" / "data" / "rules-in-scope.md"
CA_CASES = ROOT / "tests" / "cases" / "ca"


def chart_ids() -> list[str]:
    text = SPEC.read_text(encoding="utf-8")
    section = text[text.index("## Covered Arc chart (002)"):]
    section = section[:section.find("\n## ", 5)] if "\n## " in section[5:] else section
    return sorted({m.group(1) for m in re.finditer(r"^\| ([A-Z][0-9.]+) \|", section, re.M)})


def test_the_chart_lists_ids() -> None:
    ids = chart_ids()
    assert "C2.6" in ids and "C3.2" in ids and len(ids) >= 10


def kb_cited() -> set[str]:
    text = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "kb").glob("*.lp"))
    reasons = r'(?:reason|figure_reason|must|drm_part|ca_part|end_rule|mp_rule|exc_when|c26_exempt)\([^"]*"([A-Z][0-9.]+)"'
    return set(re.findall(reasons, text))


def case_named() -> set[str]:
    named: set[str] = set()
    for path in iter_case_files([str(CA_CASES)]):
        sit = load_file(path)
        named |= set(re.findall(r"[A-Z][0-9]+\.[0-9]+", sit.source))
        for exp in sit.expect:
            named |= set(exp.because)
    return named


def test_every_chart_id_is_cited_in_the_kb() -> None:
    missing = [i for i in chart_ids() if i not in kb_cited()]
    assert not missing, f"not cited by any reason in kb/: {missing}"


def test_every_chart_id_is_named_by_a_case() -> None:
    missing = [i for i in chart_ids() if i not in case_named()]
    assert not missing, f"named by no case under tests/cases/ca: {missing}"


GRID = """\
phase: AFPh
attacker: german
units:
  - {id: g, side: german, type: crew, counter: 2-2-8, hex: X3, weapons: [{id: w, kind: gun, ca: [X2, Y3]}]}
expect:
"""


@pytest.mark.parametrize(("hex_", "turns"), [
    ("X2", 0), ("Y3", 0), ("Y2", 0), ("X1", 0), ("Z2", 0), ("AA1", 0),   # the CA: hexspine hexes, rows, between
    ("Y4", 1), ("W3", 1), ("Z4", 1), ("V2", 1), ("V3", 2),                          # one hexspine either way
    ("X4", 2), ("W4", 2), ("X9", 2),                                      # two
    ("W5", 3), ("V6", 3),                                                 # behind: three
])
def test_hexspines_to_turn(hex_: str, turns: int) -> None:
    """C3.2: the hexspines a Gun in X3 pointing to the X2/Y3 hexspine turns to cover a hex."""
    sit = load_text(GRID + f"  - case_a: {{firer: w, at: {hex_}}}\n    verdict: allowed\n", "grid.yaml")
    (answer,) = ask(sit)
    assert answer.figure("hexspines") == turns
    assert answer.figure("in_ca") is (turns == 0)
