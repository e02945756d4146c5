"""`aslrules qa import|export`: asl-rulebook2's Q+A JSON (chapter -> [{caption, ruleids, content:
[{question, answers: [[text, source-key]]}]}], and a sources map) to ruling skeletons and back,
on files the tests write."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from aslrules.errors import InputError
from aslrules.qa import export, import_file
from aslrules.rulings import load_rulings

ROOT = Path(__file__).resolve().parent.parent
REPORT = ROOT / "tests" / "data" / "rulings" / "report"

QA = {
    "Chapter A": [
        {"caption": "A8.15 & A9.22", "ruleids": ["A8.15", "A9.22"],
         "content": [
             {"question": "May a MG that Snap Shots lay a Fire Lane? <p> From where?",
              "image": "a8.15.png",
              "answers": [["Yes.", "ps"], ["From the hex entered.", "ps"]],
              "see_other": "A9.22"},
             {"question": "An unanswered question."},
         ]},
        {"caption": "A8.1", "ruleids": ["A8.1"],
         "content": [{"question": "May the DEFENDER fire at a moving unit?", "answers": [["Yes; A8.1", "gs"]]}]},
        {"caption": "Missing content", "ruleids": ["A7.7"]},
    ],
}
SOURCES = {"ps": "Perry Sez", "gs": "GameSquad"}


def write(tmp_path: Path, data: object, name: str = "qa.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_import_makes_a_skeleton_per_answered_question(tmp_path: Path) -> None:
    qa = write(tmp_path, QA)
    sources = write(tmp_path, SOURCES, "sources.json")
    written = import_file(str(qa), str(tmp_path / "out"), sources=str(sources))
    assert [Path(p).name for p in written] == ["A8_15_A9_22-1.yaml", "A8_1-1.yaml"]
    rulings = {r.id: r for r in load_rulings([str(tmp_path / "out")])}
    fl = rulings["A8_15_A9_22-1"].data
    assert fl.rules == ["A8.15", "A9.22"]
    assert fl.answer == "(a) Yes. (b) From the hex entered."
    assert fl.source.startswith("Perry Sez (asl-rulebook2 Q+A: Chapter A, A8.15 & A9.22)")
    assert fl.question.startswith("May a MG that Snap Shots")
    assert fl.status == "current" and rulings["A8_15_A9_22-1"].cases == []
    assert "not encoded yet" in fl.not_encodable
    assert rulings["A8_1-1"].data.source.startswith("GameSquad")


def test_import_never_overwrites(tmp_path: Path) -> None:
    qa = write(tmp_path, QA)
    import_file(str(qa), str(tmp_path / "out"))
    with pytest.raises(InputError, match="a new file to write"):
        import_file(str(qa), str(tmp_path / "out"))


@pytest.mark.parametrize("data, where", [
    ([], ""),
    ({"Chapter A": {}}, '["Chapter A"]'),
    ({"Chapter A": [{"caption": "A8.1", "ruleids": ["A8.1"], "content": [{"answers": [["Yes"]]}]}]},
     '["Chapter A"][0].content[0].answers'),
    ({"Chapter A": [{"caption": "A8.1", "ruleids": ["not a rule id!"]}]}, '["Chapter A"][0]'),
])
def test_import_refuses_what_is_not_the_shape(tmp_path: Path, data: object, where: str) -> None:
    with pytest.raises(InputError) as info:
        import_file(str(write(tmp_path, data)), str(tmp_path / "out"))
    assert info.value.path == where


def test_export_writes_the_shape_with_each_status(tmp_path: Path) -> None:
    data, sources = export([str(REPORT)])
    assert list(data) == ["Chapter A"]
    entries = {e["content"][0]["aslrules"]["ruling"]: e for e in data["Chapter A"]}
    t2 = entries["T2"]
    assert t2["caption"] == "A8.312" and t2["ruleids"] == ["A8.312"]
    (text, key), = t2["content"][0]["answers"]
    assert text == "(a) No. [aslrules: holds only under a8312_smc=printed]"
    assert sources[key]
    assert entries["T5"]["content"][0]["answers"][0][0].endswith("[aslrules: contradicted]")
    assert entries["T6"]["content"][0]["answers"][0][0].endswith(
        "[aslrules: not encodable: needs Fire Lane placement (A9.22)]")


def test_export_then_import_gives_the_rulings_back(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "aslrules", "qa", "export", str(REPORT), "-o",
                           str(tmp_path / "q.json"), "--sources-out", str(tmp_path / "sources.json")],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    import_file(str(tmp_path / "q.json"), str(tmp_path / "back"), sources=str(tmp_path / "sources.json"))
    before = {r.id: r.data for r in load_rulings([str(REPORT)])}
    after = {r.id: r.data for r in load_rulings([str(tmp_path / "back")])}
    assert before.keys() == after.keys()
    for rid, r in before.items():
        a = after[rid]
        assert (a.source, a.status, a.rules, a.question.strip(), a.answer.strip(), a.overturned_by, a.tensions) == \
            (r.source, r.status, r.rules, r.question.strip(), r.answer.strip(), r.overturned_by, r.tensions), rid
