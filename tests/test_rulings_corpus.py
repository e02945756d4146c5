"""The Perry Sez corpus (rulings/perry-sez/, docs/rulings.md): every ruling file is well formed and
every case in it loads with the situation loader, so that a malformed case fails here.

Independent of the rulings checker (`aslrules rulings`): this test only reads the files and hands
each case, cut out of its ruling file with its lines kept, to `aslrules.loader.load_text`; a
loader error names the ruling file and the case's own line in it.  Whether the KB agrees with a
ruling is the checker's question, not this test's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from aslrules.loader import load_text

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "rulings" / "perry-sez"
FILES = sorted(CORPUS.glob("*.yaml"))

KEYS = {"ruling", "source", "status", "overturned_by", "rules", "tensions", "question", "answer", "cases",
        "not_encodable"}
REQUIRED = {"ruling", "source", "status", "rules", "question", "answer"}
STATUSES = {"current", "obsolete", "unclear"}
SOURCE = re.compile(r"^Perry Sez v34 L\d+-\d+( \{[1-4]\})?(; L\d+-\d+( \{[1-4]\})?)*$")
TENSION = re.compile(r"^I\d+$")


def cases(path: Path) -> list[tuple[int, str]]:
    """Each case of a ruling file as a situation text whose line numbers are the file's: the case's
    lines cut out, dedented to the mapping's column, after as many empty lines as precede it."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    top = yaml.compose(text)
    items = next((v.value for k, v in top.value if k.value == "cases"), [])
    out = []
    for n, item in enumerate(items):
        start, col = item.start_mark.line, item.start_mark.column
        end = items[n + 1].start_mark.line if n + 1 < len(items) else \
            item.end_mark.line + (1 if item.end_mark.column > 0 else 0)
        chunk = []
        for i, line in enumerate(lines[start:end]):
            if i == 0:
                line = " " * col + line[col:]  # the sequence's "- " is indentation
            chunk.append(line[col:] if not line[:col].strip() else line.lstrip())
        out.append((start + 1, "\n" * start + "\n".join(chunk) + "\n"))
    return out


def test_there_is_a_corpus() -> None:
    assert len(FILES) >= 80


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_ruling_file_is_well_formed(path: Path) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict), f"{path}: a mapping"
    assert set(data) <= KEYS, f"{path}: unknown keys {sorted(set(data) - KEYS)}"
    assert REQUIRED <= set(data), f"{path}: missing {sorted(REQUIRED - set(data))}"
    assert data["ruling"] == path.stem, f"{path}: ruling {data['ruling']} in a file named {path.name}"
    assert SOURCE.match(data["source"]), f"{path}: source {data['source']!r}"
    assert data["status"] in STATUSES
    assert "overturned_by" not in data or data["status"] == "obsolete", f"{path}: overturned_by on a live ruling"
    for item in data.get("overturned_by") or []:
        assert set(item) == {"reading", "value"}, f"{path}: overturned_by items are {{reading, value}}"
    assert data["rules"] and all(isinstance(r, str) for r in data["rules"])
    assert all(TENSION.match(t) for t in data.get("tensions", [])), f"{path}: tensions are I<n>"
    for key in ("question", "answer"):
        assert isinstance(data[key], str) and data[key].strip(), f"{path}: {key} in our own words"
    assert data.get("cases") or data.get("not_encodable"), f"{path}: cases, or not_encodable saying what is missing"
    if "not_encodable" in data:
        assert isinstance(data["not_encodable"], str) and data["not_encodable"].strip()


@pytest.mark.parametrize("path", [p for p in FILES if cases(p)], ids=lambda p: p.stem)
def test_every_case_loads(path: Path) -> None:
    for line, text in cases(path):
        sit = load_text(text, str(path))  # an InputError names the ruling file and the line
        assert sit.title.strip(), f"{path}:{line}: a case has a title"
        assert sit.expect, f"{path}:{line}: a case has expect items"
        assert "readings" not in yaml.safe_load(text), \
            f"{path}:{line}: a case carries no readings (the checker tries every assignment)"


def test_a_malformed_case_fails_at_its_line(tmp_path: Path) -> None:
    """The extraction keeps the ruling file's lines: the loader's error points into the file."""
    good = CORPUS / "P1.yaml"
    bad = tmp_path / "P1.yaml"
    bad.write_text(good.read_text(encoding="utf-8").replace("counter: 4-4-7", "counter: 4-four-7", 1),
                   encoding="utf-8")
    wrong = next(n for n, line in enumerate(bad.read_text(encoding="utf-8").splitlines(), 1) if "4-four-7" in line)
    with pytest.raises(Exception) as e:
        for _, text in cases(bad):
            load_text(text, str(bad))
    assert f"{bad}:{wrong}:" in str(e.value)
