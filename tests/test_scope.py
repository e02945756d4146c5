"""Every rule statement of rules-in-scope.md is encoded (its id cited in kb/) and exercised
(its id named in some case's `because:`).

Source: shared/spec/rules-in-scope.md, the list of statements the seeds make.  The repo keeps a
copy (tests/data/rules-in-scope.md) and the ids it lists (tests/data/rule_ids.txt, one
`ID<TAB>section` a line, generated from the copy by `python tests/test_scope.py`), so these
tests run, and can fail, without shared/ beside the repo; test_copy_matches_shared says when
the copy has fallen behind the shared file.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from corpus import read_yaml

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
COPY = DATA / "rules-in-scope.md"
RULE_IDS = DATA / "rule_ids.txt"
SHARED = ROOT.parent / "shared" / "spec" / "rules-in-scope.md"
ID_ROW = re.compile(r"^\| (A[0-9.]+|C[0-9.]+|D[0-9.]+|flowchart \*\*) \|", re.M)


def ids_by_section(text: str) -> list[tuple[str, str]]:
    """(id, section heading) of every statement row of rules-in-scope.md, sorted, once each."""
    rows: set[tuple[str, str]] = set()
    section = ""
    for line in text.splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
        m = ID_ROW.match(line)
        if m:
            rows.add((m.group(1), section))
    return sorted(rows)


def rule_ids_text(text: str) -> str:
    return "".join(f"{i}\t{s}\n" for i, s in ids_by_section(text))


def read_rule_ids() -> list[tuple[str, str]]:
    return [tuple(line.split("\t", 1)) for line in RULE_IDS.read_text(encoding="utf-8").splitlines()]  # type: ignore[misc]


def scope_ids() -> list[str]:
    return sorted({i for i, _ in read_rule_ids()})


def _kb_rule_ids(kb: Path = ROOT / "kb") -> set[str]:
    """The rule ids KB statements give (the string literals of its rules: a reason's, a DRM's, a
    figure's rule id), comments left out: an id only a comment names is encoded nowhere."""
    from clingo import ast

    found: set[str] = set()

    class Strings(ast.Transformer):
        def visit_SymbolicTerm(self, x):
            if x.symbol.type.name == "String":
                found.add(x.symbol.string)
            return x

    ast.parse_files([str(p) for p in sorted(kb.glob("*.lp"))],
                    lambda stm: Strings()(stm) if stm.ast_type == ast.ASTType.Rule else None)
    return found


def _named_in_cases() -> set[str]:
    named: set[str] = set()
    for p in (ROOT / "tests" / "cases").rglob("*.yaml"):
        doc = read_yaml(p) or {}
        for item in doc.get("expect", []) or []:
            named.update(str(x) for x in item.get("because", []) or [])
    return named


def test_rule_ids_are_generated_from_the_copy() -> None:
    """tests/data/rule_ids.txt is what `python tests/test_scope.py` writes from the copy."""
    assert RULE_IDS.read_text(encoding="utf-8") == rule_ids_text(COPY.read_text(encoding="utf-8")), \
        "tests/data/rule_ids.txt is stale: run `python tests/test_scope.py`"


@pytest.mark.skipif(not SHARED.exists(),
                    reason=f"{SHARED} is absent: put the project's shared/ folder beside the repo "
                           f"({ROOT.parent}/shared) to compare tests/data/rules-in-scope.md with it")
def test_copy_matches_shared() -> None:
    """The copy in tests/data is the shared list; when shared/ changes, copy it again."""
    assert COPY.read_text(encoding="utf-8") == SHARED.read_text(encoding="utf-8"), \
        f"tests/data/rules-in-scope.md differs from {SHARED}: copy it again and run `python tests/test_scope.py`"


def test_scope_lists_the_seed_ids() -> None:
    ids = scope_ids()
    assert "A8.1" in ids and "C2.6" in ids and len(ids) >= 40


def test_every_scope_id_is_cited_in_kb() -> None:
    """Each id is the rule id of some KB statement (not only of a comment)."""
    cited = _kb_rule_ids()
    missing = [i for i in scope_ids() if i not in cited]
    assert not missing, f"rule ids no statement of kb/ gives: {missing}"


def test_an_id_in_a_comment_is_no_citation(tmp_path: Path) -> None:
    (tmp_path / "x.lp").write_text('% A8.311 No FPF vs an adjacent unit.\nr(Q,"A8.31") :- q(Q).\n', encoding="utf-8")
    assert _kb_rule_ids(tmp_path) == {"A8.31"}


def test_every_scope_id_is_named_by_a_case() -> None:
    named = _named_in_cases()
    missing = [i for i in scope_ids() if i not in named]
    assert not missing, f"rule ids no case names in `because:`: {missing}"


if __name__ == "__main__":  # regenerate tests/data/rule_ids.txt from the copy
    RULE_IDS.write_text(rule_ids_text(COPY.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"{RULE_IDS}: {len(read_rule_ids())} ids")
