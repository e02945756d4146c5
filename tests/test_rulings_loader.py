"""Ruling files (docs/rulings.md) are read as strictly as situation files: a bad field is
`file:line: field.path: expected X, got Y`, exit 2, and a case inside a ruling is checked by the
situation loader, its path named from the ruling's top.  docs/rulings.md holds the format's
field reference, generated from the schema."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from aslrules.errors import InputError
from aslrules.rulings import BEGIN, END, field_reference, load_ruling_text, load_rulings

ROOT = Path(__file__).resolve().parent.parent
REPORT = ROOT / "tests" / "data" / "rulings" / "report"

GOOD = """\
ruling: P99
source: test ruling (made up for the tests)
status: current
rules: [A8.1]
question: May the DEFENDER fire?
answer: (a) Yes.
cases:
  - title: the DEFENDER fires
    phase: MPh
    attacker: russian
    units:
      - {id: g-467, side: german, type: squad, counter: 4-6-7, hex: C2}
      - {id: r-447, side: russian, type: squad, counter: 4-4-7, hex: C4, moving: {from: C5, mf_here: 1}}
    expect:
      - part: a
        attack: {option: first_fire, firers: [g-467], targets: [r-447]}
        verdict: allowed
"""


def line_of(text: str, needle: str) -> int:
    return text.splitlines().index(next(line for line in text.splitlines() if needle in line)) + 1


def test_a_good_ruling_loads_with_its_cases() -> None:
    r = load_ruling_text(GOOD, "P99.yaml")
    assert (r.id, r.status, list(r.data.rules)) == ("P99", "current", ["A8.1"])
    (case,) = r.cases
    assert case.expect[0].part == "a"
    assert case.source.startswith("P99: test ruling")  # a case's failures name the ruling
    assert r.case_line(0) == line_of(GOOD, "- title:")


def test_the_test_folder_loads() -> None:
    ids = [r.id for r in load_rulings([str(REPORT)])]
    assert ids == ["T1", "T2", "T3", "T4", "T5", "T6", "T7"]


@pytest.mark.parametrize("change, path, expected", [
    (("status: current", "status: live"), "status", "one of current, obsolete, unclear"),
    (("status: current", "status: current\noverturned_by: [{reading: a7353, value: restrictive}]"),
     "overturned_by", "only on an obsolete ruling"),
    (("status: current", "status: obsolete\noverturned_by: [{reading: a9999, value: x}]"),
     "overturned_by[0].reading", "a named reading"),
    (("status: current", "status: obsolete\noverturned_by: [{reading: a7353, value: sideways}]"),
     "overturned_by[0].value", "a value of a7353: one of permissive, restrictive"),
    (("ruling: P99", "ruling: P 99"), "ruling", "an id of letters, digits"),
    (("rules: [A8.1]", "rules: [A8.1]\ncolour: red"), "colour", "one of the keys ruling, source, status"),
    (("question: May the DEFENDER fire?", "question: ''"), "question", "the text of the question"),
    (("hex: C2}", "hex: C99}"), "cases[0].units[0].hex", "column C holds rows 1..10"),
    (("targets: [r-447]", "targets: [r-999]"), "cases[0].expect[0].attack.targets[0]", "the id of a unit"),
    (("    phase: MPh", "    phase: MPh\n    readings: {a7353: restrictive}"), "cases[0].readings",
     "no readings: in a ruling's case"),
])
def test_a_bad_field_is_located(change: tuple[str, str], path: str, expected: str) -> None:
    text = GOOD.replace(*change)
    assert text != GOOD
    with pytest.raises(InputError) as info:
        load_ruling_text(text, "P99.yaml")
    e = info.value
    assert e.path == path, str(e)
    assert expected in e.expected, str(e)
    needle = change[1].splitlines()[-1].strip()
    if not needle.startswith("question"):
        assert e.line == line_of(text, needle.split(":")[0] if path == "colour" else needle), str(e)


def test_a_ruling_needs_cases_or_says_what_is_missing() -> None:
    text = GOOD[:GOOD.index("cases:")]
    with pytest.raises(InputError, match="cases that encode the ruling, or not_encodable"):
        load_ruling_text(text, "P99.yaml")
    assert load_ruling_text(text + "not_encodable: needs Fire Lanes\n", "P99.yaml").cases == []


def test_a_case_without_expectations_is_an_error() -> None:
    text = GOOD[:GOOD.index("    expect:")]
    with pytest.raises(InputError, match="a case with expect: items") as info:
        load_ruling_text(text, "P99.yaml")
    assert info.value.path == "cases[0]"


def test_two_files_with_one_id_are_an_error(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(GOOD)
    (tmp_path / "b.yaml").write_text(GOOD)
    with pytest.raises(InputError, match="a ruling id used once"):
        load_rulings([str(tmp_path)])


def test_the_cli_exits_2_on_a_bad_ruling(tmp_path: Path) -> None:
    bad = tmp_path / "P99.yaml"
    bad.write_text(GOOD.replace("hex: C2}", "hex: C99}"))
    done = subprocess.run([sys.executable, "-m", "aslrules", "rulings", str(bad)], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 2
    assert f"{bad}:{line_of(bad.read_text(), 'C99')}: cases[0].units[0].hex: expected" in done.stderr
    assert "Traceback" not in done.stderr


def test_docs_hold_the_ruling_field_reference() -> None:
    page = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    start, end = page.index(BEGIN), page.index(END) + len(END)
    assert page[start:end] == field_reference(), "run: aslrules rulings --reference, and paste it into docs/rulings.md"


def test_every_rulings_case_is_a_situation_of_the_json_schema(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    import jsonschema
    import yaml

    from aslrules.cli import main

    main(["schema"])
    validator = jsonschema.Draft202012Validator(json.loads(capsys.readouterr().out))
    files = sorted(p for folder in (ROOT / "tests" / "data" / "rulings", ROOT / "rulings") if folder.is_dir()
                   for p in folder.rglob("*.yaml"))
    assert files
    for path in files:
        for k, case in enumerate(yaml.safe_load(path.read_text(encoding="utf-8")).get("cases") or []):
            errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(case)]
            assert not errors, f"{path}: cases[{k}]: {errors[:3]}"


@pytest.mark.parametrize("argv", [["rulings"], ["distinguish"], ["qa"], ["qa", "import"], ["qa", "export"]])
def test_the_curators_subcommands_explain_themselves(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    from aslrules.cli import main

    with pytest.raises(SystemExit) as done:
        main([*argv, "--help"])
    assert done.value.code == 0
    assert "Example: aslrules" in " ".join(capsys.readouterr().out.split())


def test_the_reference_starts_without_the_solver() -> None:
    code = ("import sys; from aslrules.cli import main\n"
            "main(['rulings', '--reference'])\n"
            "assert 'clingo' not in sys.modules, 'clingo imported'\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
