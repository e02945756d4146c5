"""The Perry Sez corpus (rulings/perry-sez/, docs/rulings.md): every ruling file loads with the
ruling loader (aslrules.rulings: the format's own schema, schema.Ruling, and each case through
the situation loader), and keeps the corpus's own conventions: the file is named by its ruling
id, its source is a line reference into Perry Sez v34, its cases have titles.

Whether the KB agrees with a ruling is the checker's question (`aslrules rulings`,
tests/test_rulings_snapshot.py), not this test's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from aslrules.errors import InputError
from aslrules.rulings import load_ruling_file, load_ruling_text

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "rulings" / "perry-sez"
FILES = sorted(CORPUS.glob("*.yaml"))
SOURCE = re.compile(r"^Perry Sez v34 L\d+-\d+( \{[1-4]\})?(; L\d+-\d+( \{[1-4]\})?)*$")


def test_there_is_a_corpus() -> None:
    assert len(FILES) >= 80


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_ruling_file_loads_and_keeps_the_conventions(path: Path) -> None:
    r = load_ruling_file(path)  # an InputError names the file, the line and the field
    assert r.id == path.stem, f"{path}: ruling {r.id} in a file named {path.name}"
    assert SOURCE.match(r.data.source), f"{path}: source {r.data.source!r}"
    assert r.data.rules, f"{path}: the rule ids it bears on"
    for k, case in enumerate(r.cases):
        assert case.data.title.strip(), f"{path}:{r.case_line(k)}: a case has a title"


def test_a_malformed_case_fails_at_its_line() -> None:
    """The loader's error points into the ruling file, at the case's field."""
    text = (CORPUS / "P1.yaml").read_text(encoding="utf-8").replace("counter: 4-4-7", "counter: 4-four-7", 1)
    wrong = next(n for n, line in enumerate(text.splitlines(), 1) if "4-four-7" in line)
    with pytest.raises(InputError) as e:
        load_ruling_text(text, "P1.yaml")
    assert e.value.line == wrong and e.value.path.startswith("cases[") and e.value.path.endswith(".counter")


def test_a_source_out_of_convention_is_caught(tmp_path: Path) -> None:
    bad = tmp_path / "P1.yaml"
    bad.write_text((CORPUS / "P1.yaml").read_text(encoding="utf-8").replace("source: Perry Sez v34",
                                                                            "source: Perry said", 1),
                   encoding="utf-8")
    with pytest.raises(AssertionError):
        test_ruling_file_loads_and_keeps_the_conventions(bad)
