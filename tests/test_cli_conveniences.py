"""The small conveniences: `aslrules new` writes a skeleton that validates and answers, `-` reads
a situation from standard input, `aslrules validate` checks files without answering (the KB's
input checks included), and every subcommand's --help explains its options with an example."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from aslrules.cli import SKELETON, main

ROOT = Path(__file__).resolve().parent.parent


def test_new_writes_a_skeleton_that_validates_and_answers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "turn.yaml"
    assert main(["new", str(path)]) == 0 and path.read_text(encoding="utf-8") == SKELETON
    assert main(["new", str(path)]) == 2  # never over an existing file
    assert "File exists" in capsys.readouterr().err
    assert main(["validate", str(path)]) == 0
    assert main(["ask", str(path)]) == 0
    assert "FP: 14" in capsys.readouterr().out  # the 8.41 EX's first attack (seed 004)


def test_dash_reads_standard_input(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(SKELETON))
    assert main(["ask", "-", "--format", "json"]) == 0
    assert '"fp": 14' in capsys.readouterr().out


def test_validate_reports_each_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(SKELETON.replace("from: V2", "from: T5"), encoding="utf-8")  # not adjacent to W2
    good = ROOT / "examples" / "berserk_charge.yaml"
    assert main(["validate", str(good), str(bad)]) == 2
    out, err = capsys.readouterr()
    assert f"{good}: ok" in out
    assert f"{bad}:23: units[2].moving.from: expected a hex adjacent to W2" in err


@pytest.mark.parametrize("command", ["ask", "check", "validate", "new", "schema"])
def test_each_subcommand_explains_itself(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    assert done.value.code == 0
    assert "Example: aslrules" in " ".join(capsys.readouterr().out.split())
