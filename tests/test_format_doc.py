"""The format is the project's own: docs/format.md's field reference is the schema's, the JSON
Schema that `aslrules schema` prints is valid and accepts every example and case in the repo,
and `--version` and `schema` start without the solver."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from corpus import read_yaml

from aslrules.cli import main
from aslrules.reference import BEGIN, END, markdown

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(p for folder in ("examples", "tests") for p in (ROOT / folder).rglob("*.yaml")
               if "rulings" not in p.relative_to(ROOT).parts)  # ruling files: their cases, tests/test_rulings_loader.py


def test_the_page_holds_the_schemas_reference() -> None:
    page = (ROOT / "docs" / "format.md").read_text(encoding="utf-8")
    start, end = page.index(BEGIN), page.index(END) + len(END)
    assert page[start:end] == markdown(), "run: aslrules schema --format markdown, and paste it into docs/format.md"


def test_every_field_has_a_meaning() -> None:
    assert "|  |  |" not in markdown().replace("|  |\n", "|\n")


def test_json_schema_is_valid_and_accepts_every_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert FILES
    assert main(["schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for path in FILES:
        data = read_yaml(path)
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(data)]
        assert not errors, f"{path}: {errors[:3]}"


def test_json_schema_refuses_what_the_loader_refuses(capsys: pytest.CaptureFixture[str]) -> None:
    main(["schema"])
    validator = jsonschema.Draft202012Validator(json.loads(capsys.readouterr().out))
    good = {"attacker": "russian", "units": [{"id": "g", "side": "german", "type": "squad", "counter": "4-6-7",
                                              "hex": "X2", "weapons": [{"id": "w", "kind": "LMG", "rof": 3}]}]}
    assert validator.is_valid(good)
    for change in ({"phase": "Morning"}, {"colour": "red"}):
        assert not validator.is_valid({**good, **change}), change
    bad_rof = json.loads(json.dumps(good))
    bad_rof["units"][0]["weapons"][0]["rof"] = 9
    assert not validator.is_valid(bad_rof)


def test_version_and_schema_do_not_import_the_solver() -> None:
    code = ("import sys; from aslrules.cli import main\n"
            "for argv in (['schema'], ['schema', '--format', 'markdown']):\n"
            "    main(argv)\n"
            "assert 'clingo' not in sys.modules, 'clingo imported'\n"
            "try:\n    main(['--version'])\nexcept SystemExit:\n    pass\n"
            "assert 'clingo' not in sys.modules, 'clingo imported'\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
