"""Every rule statement of shared/spec/rules-in-scope.md is encoded (its id cited in kb/)
and exercised (its id named in some case's `because:`).

Source: ../shared/spec/rules-in-scope.md, the list of statements the seeds make.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
SCOPE = ROOT.parent / "shared" / "spec" / "rules-in-scope.md"


def _scope_ids() -> list[str]:
    if not SCOPE.exists():
        pytest.skip("../shared/spec/rules-in-scope.md is not beside the repo")
    ids = re.findall(r"^\| (A[0-9.]+|C[0-9.]+|D[0-9.]+|flowchart \*\*) \|", SCOPE.read_text(), re.M)
    return sorted(set(ids))


def _kb_text() -> str:
    return "\n".join(p.read_text() for p in sorted((ROOT / "kb").glob("*.lp")))


def _named_in_cases() -> set[str]:
    named: set[str] = set()
    for p in (ROOT / "tests" / "cases").rglob("*.yaml"):
        doc = yaml.safe_load(p.read_text()) or {}
        for item in doc.get("expect", []) or []:
            named.update(str(x) for x in item.get("because", []) or [])
    return named


def test_scope_lists_the_seed_ids() -> None:
    ids = _scope_ids()
    assert "A8.1" in ids and "C2.6" in ids and len(ids) >= 40


def test_every_scope_id_is_cited_in_kb() -> None:
    kb = _kb_text()
    missing = [i for i in _scope_ids() if not re.search(r'(^|[^0-9.])' + re.escape(i) + r'([^0-9]|$)', kb)]
    assert not missing, f"rule ids not cited in kb/: {missing}"


def test_every_scope_id_is_named_by_a_case() -> None:
    named = _named_in_cases()
    missing = [i for i in _scope_ids() if i not in named]
    assert not missing, f"rule ids no case names in `because:`: {missing}"
