"""Every case under tests/cases/ holds, run the way a curator runs them: `aslrules check`.

Also: a case with a wrong expectation fails (exit 1) and shows the answer actually given,
and a case that cannot be read is an error (exit 2, one located line, no traceback), never
a pass (situation-format.md "Questions and expectations")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from corpus import answered

from aslrules.core import check, check_files, iter_case_files
from aslrules.errors import InputError
from aslrules.loader import load_file

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "cases"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "aslrules", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


def case_files() -> list[str]:
    return iter_case_files([str(CASES)])


def ex_8_41_case() -> str:
    """A case file of the A8.41 EX (seed 004): a good case to stand among others."""
    return next(p for p in case_files() if "a8_41" in p or "ex_8_41" in p)


def test_there_are_cases() -> None:
    assert len(case_files()) >= 1


def test_check_regression_cases_cli() -> None:
    """`aslrules check tests/cases` exits 0 and reports no failure."""
    r = run("check", "tests/cases")
    assert r.returncode == 0, r.stdout + r.stderr
    last = r.stdout.strip().splitlines()[-1]
    assert last.endswith(" passed, 0 failed"), r.stdout
    assert r.stderr == ""


def test_check_regression_cases_in_process() -> None:
    """aslrules.core.check (batched grounding) agrees: every expectation of the case files and the
    examples holds (in the session's one run of the evidence, tests/corpus.py; a ruling's cases
    may not hold: `aslrules rulings` says which, tests/test_rulings_snapshot.py)."""
    kept = (str(CASES) + "/", str(ROOT / "examples") + "/")
    outcomes = [o for o in answered()[0] if str(o.situation.path).startswith(kept)]
    failed = [f"{o.situation.path}:{o.expectation.line} ({o.situation.source}): "
              + "; ".join(f"{m.field}: expected {m.expected}, got {m.actual}" for m in o.mismatches)
              for o in outcomes if not o.passed]
    assert not failed, "\n".join(failed)
    # a replay case adds its steps' expect items (aslrules.replay.replay_outcomes); a case of an
    # input error is that one expectation
    situations = [load_file(f) for f in case_files()]
    paths = {s.path for s in situations}
    assert sum(o.situation.path in paths for o in outcomes) == sum(
        1 if s.data.input_error else len(s.expect) + len(s.listing) + sum(len(step.expect) for step in s.data.sequence)
        for s in situations)


def test_batched_and_single_agree() -> None:
    """One grounding for many cases gives each case the answer it gets alone (aslrules/fast/batch.py's
    batch rewrite adds a case argument to every situation-dependent predicate; a predicate
    it misses mixes or loses facts between cases): a file of each folder, and one of them twice.
    (tests/test_engine.py compares every file's batched answer with the plain path's.)"""
    first: dict[str, str] = {}  # a file of each folder: every kind of case, side by side
    for f in case_files():
        first.setdefault(str(Path(f).parent), f)
    situations = [load_file(f) for f in first.values()]
    situations += situations[:1]  # one case twice in one grounding
    together = check(situations, batch_size=len(situations) or 1)
    alone = [o for s in situations for o in check([s])]
    assert [(o.situation.path, o.index, o.answer) for o in together] == \
           [(o.situation.path, o.index, o.answer) for o in alone]


@pytest.mark.parametrize("path", case_files(), ids=lambda p: str(Path(p).relative_to(CASES)))
def test_each_case_names_its_source(path: str) -> None:
    """STYLE.md: each case names the rule and source it checks, and has a title."""
    sit = load_file(path)
    assert sit.source.strip(), f"{path}: no `source:`"
    assert sit.title.strip(), f"{path}: no `title:`"
    assert sit.expect or sit.listing or sit.data.sequence or sit.data.input_error, \
        f"{path}: no `expect:` (nor a `listing:` to check, a `sequence:` to replay, an `input_error:`)"


WRONG = """\
title: a wrong expectation (the 8.41 EX attack is 14 FP, not 15)
source: A8.41 EX (seed 004), altered on purpose
phase: MPh
attacker: russian
locations:
  X2: {terrain: stone building, tem: 3}
units:
  - id: g-467
    side: german
    type: squad
    counter: 4-6-7
    hex: X2
    weapons:
      - {id: g-lmg, kind: LMG, fp: 3, range: 8, rof: 1, breakdown: 11}
  - {id: g-81, side: german, type: leader, counter: 8-1, hex: X2}
  - {id: r-628, side: russian, type: squad, counter: 6-2-8, hex: W2, moving: {from: V2, mf_here: 1}}
expect:
  - attack: {option: first_fire, firers: [g-467, g-lmg], director: g-81, targets: [r-628]}
    verdict: forbidden
    fp: 15
    drm: -3
"""


def test_wrong_expectation_exits_1_and_shows_the_answer(tmp_path: Path) -> None:
    bad = tmp_path / "wrong.yaml"
    bad.write_text(WRONG, encoding="utf-8")
    r = run("check", str(bad))
    assert r.returncode == 1, r.stdout + r.stderr
    out = r.stdout
    assert f"FAIL {bad}:" in out
    assert "verdict: expected forbidden, got allowed" in out
    assert "fp: expected 15, got 14" in out
    assert "drm:" not in out.split("the answer given:")[0]  # -3 holds: not reported
    # the real answer, with its reasons
    answer = out.split("the answer given:")[1]
    assert "verdict: allowed" in answer
    assert "FP: 14" in answer and "IFT column: 12" in answer
    assert "A7.21: PBF" in answer and "A7.53" in answer and "A8.13: FFNAM" in answer
    assert out.strip().splitlines()[-1] == "0 passed, 1 failed"


def test_wrong_case_among_good_ones(tmp_path: Path) -> None:
    """One failing case fails the run; the good ones still count as passed."""
    (tmp_path / "wrong.yaml").write_text(WRONG, encoding="utf-8")
    good = ex_8_41_case()
    (tmp_path / "good.yaml").write_text(Path(good).read_text(encoding="utf-8"), encoding="utf-8")
    r = run("check", str(tmp_path))
    assert r.returncode == 1
    n_good = len(load_file(good).expect)
    assert r.stdout.strip().splitlines()[-1] == f"{n_good} passed, 1 failed"


@pytest.mark.parametrize(("text", "where"), [
    ("title: [unclosed\n", ":2:"),  # the YAML parser reports the end of the stream
    ("attacker: russian\nunits:\n  - {id: a, side: german, type: squad, counter: 4-six-7, hex: X2}\n", ":3:"),
    ("attacker: russian\nunits: []\nbogus: 1\n", ":3:"),
    ("attacker: russian\nunits:\n  - {id: a, side: german, type: squad, counter: 4-6-7, hex: ZZ99}\n", ":3:"),
])
def test_unreadable_case_exits_2(tmp_path: Path, text: str, where: str) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(text, encoding="utf-8")
    r = run("check", str(bad))
    assert r.returncode == 2, r.stdout + r.stderr
    assert "Traceback" not in r.stderr + r.stdout
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith(f"aslrules: error: {bad}{where}"), lines[0]
    assert "expected" in lines[0]
    assert "passed" not in r.stdout  # an unreadable case is never a pass


def test_unreadable_among_good_cases_exits_2(tmp_path: Path) -> None:
    good = case_files()[0]
    (tmp_path / "a_good.yaml").write_text(Path(good).read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "b_bad.yaml").write_text("attacker: russian\nunits: 3\n", encoding="utf-8")
    r = run("check", str(tmp_path))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "b_bad.yaml:2: units" in r.stderr


NO_RANGE = (ROOT / "tests" / "data" / "two_boards_no_range.yaml").read_text(encoding="utf-8")


def _folder(tmp_path: Path, extra: dict[str, str]) -> list[str]:
    """Ten copies of the 8.41 EX case, one wrong case, and `extra`, named so they sort in turn."""
    good = ex_8_41_case()
    for k in range(10):
        (tmp_path / f"c{k:02}_good.yaml").write_text(Path(good).read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "c05_wrong.yaml").write_text(WRONG, encoding="utf-8")
    for name, text in extra.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return iter_case_files([str(tmp_path)])


@pytest.mark.parametrize("workers", [1, 2])
def test_check_files_loads_and_checks_as_check_does(tmp_path: Path, workers: int) -> None:
    """core.check_files (what `aslrules check` runs; each worker loads the files it checks) finds
    what core.check finds for the loaded cases: the same passes, the same failures in file order,
    with the same answers; batches of 3 files make four batches."""
    files = _folder(tmp_path, {})
    report = check_files(files, batch_size=3, workers=workers)
    outcomes = check([load_file(f) for f in files], workers=1)
    assert report.passed == sum(o.passed for o in outcomes) > 0
    assert [(o.situation.path, o.index, o.answer, o.mismatches) for o in report.failures] == \
           [(o.situation.path, o.index, o.answer, o.mismatches) for o in outcomes if not o.passed]
    assert report.failed == 1 and report.failures[0].situation.path.endswith("c05_wrong.yaml")


def test_workers_started_afresh_give_the_same_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the platform cannot fork (Windows; macOS's default), workers are started afresh and
    build their own engine: check and check_files must find the same as in one process."""
    import multiprocessing

    from aslrules import core

    files = _folder(tmp_path, {})
    alone = check_files(files, batch_size=4, workers=1)
    loaded = [load_file(f) for f in files]
    monkeypatch.setattr(core, "_context", lambda: multiprocessing.get_context("spawn"))
    report = check_files(files, batch_size=4, workers=2)
    assert (report.passed, [(o.situation.path, o.index, o.answer) for o in report.failures]) == \
           (alone.passed, [(o.situation.path, o.index, o.answer) for o in alone.failures])
    outcomes = check(loaded, batch_size=4, workers=2)
    assert [(o.situation.path, o.index, o.answer) for o in outcomes] == \
           [(o.situation.path, o.index, o.answer) for o in check(loaded, workers=1)]


@pytest.mark.parametrize("workers", [1, 2])
def test_check_files_reports_errors_as_if_all_files_were_loaded_first(tmp_path: Path, workers: int) -> None:
    """An unreadable file is the error, even when a file before it, in another batch, cannot be
    answered; with every file readable, the first that cannot be answered is."""
    files = _folder(tmp_path, {"c01_norange.yaml": NO_RANGE, "c09_norange.yaml": NO_RANGE,
                               "c10_bad.yaml": "attacker: russian\nunits: 3\n"})
    with pytest.raises(InputError) as e:
        check_files(files, batch_size=3, workers=workers)
    assert e.value.file.endswith("c10_bad.yaml") and e.value.line == 2
    (tmp_path / "c10_bad.yaml").unlink()
    with pytest.raises(InputError) as e:
        check_files(files[:-1], batch_size=3, workers=workers)
    assert e.value.file.endswith("c01_norange.yaml") and e.value.path == "lines_of_sight"


def test_missing_file_and_empty_dir_exit_2(tmp_path: Path) -> None:
    r = run("check", str(tmp_path / "nope.yaml"))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert str(tmp_path / "nope.yaml") in r.stderr and len(r.stderr.strip().splitlines()) == 1
    r = run("check", str(tmp_path))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_binary_input_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bin.yaml"
    bad.write_bytes(b"\xff\xfe\x00\x01garbage")
    r = run("check", str(bad))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


REASONS = WRONG.replace("verdict: forbidden\n    fp: 15\n    drm: -3\n", """verdict: allowed
    not_because: [NOT_BECAUSE]
    reasons:
      - {rule: A8.13, role: drm, says: SAYS, names: [NAMES]}
      - {rule: A7.21, role: fp_by_firer, names: [W2, X2]}
      - {rule: A8.31, absent: ABSENT}
""")


@pytest.mark.parametrize(("fields", "mismatched"), [
    (dict(not_because="A8.312", says="FFMO", names="r-628", absent="true"), set()),
    (dict(not_because="A8.13", says="FFMO", names="r-628", absent="true"), {"not_because"}),
    (dict(not_because="A8.312", says="FFMOX", names="r-628", absent="true"), {"reasons"}),
    (dict(not_because="A8.312", says="FFMO", names="r-62", absent="true"), {"reasons"}),  # a whole id
    (dict(not_because="A8.312", says="FFMO", names="W2@1", absent="true"), {"reasons"}),
    (dict(not_because="A7.53", says="FFMO", names="r-628", absent="false"), {"not_because", "reasons"}),
])
def test_not_because_and_reasons_are_checked(tmp_path: Path, fields: dict, mismatched: set) -> None:
    """`not_because` fails on a rule id the answer has; each `reasons` item fails unless a reason
    of its rule, role, names (whole words) and words is there (with `absent`: unless none is)."""
    case = tmp_path / "reasons.yaml"
    text = REASONS
    for key, value in fields.items():
        text = text.replace(key.upper(), value)
    case.write_text(text, encoding="utf-8")
    (outcome,) = check([load_file(str(case))])
    assert {m.field for m in outcome.mismatches} == mismatched, outcome.mismatches


LISTING = WRONG.split("expect:")[0] + """listing:
  attacks:
    - attack: {option: first_fire, firers: [g-467, g-lmg], director: g-81, targets: [r-628]}
      place: PLACE
      verdict: allowed
      fp: 14
    - attack: {option: OPTION, firers: [g-467], director: g-81, targets: [r-628]}
      LISTED
"""


@pytest.mark.parametrize(("place", "option", "listed", "mismatched"), [
    ("1", "final_protective_fire", "true", set()),
    ("2", "final_protective_fire", "true", {(0, "place")}),
    ("1", "final_protective_fire", "false", {(1, "listed")}),
    ("1", "final_fire", "true", {(1, "listed")}),  # the MPh: no Final Fire is listed
    ("1", "final_fire", "false", set()),
])
def test_a_listing_case_is_checked(tmp_path: Path, place: str, option: str, listed: str, mismatched: set) -> None:
    """A `listing:` item fails when the listing does not hold its attack, holds a `listed: false`
    one, or has it at another place."""
    text = LISTING.replace("PLACE", place).replace("OPTION", option)
    text = text.replace("LISTED", "listed: false" if listed == "false" else "verdict: forbidden")
    case = tmp_path / "listing.yaml"
    case.write_text(text, encoding="utf-8")
    outcomes = check([load_file(str(case))])
    assert [o.label for o in outcomes] == ["listing.attacks[0]", "listing.attacks[1]"]
    assert {(o.index, m.field) for o in outcomes for m in o.mismatches} == mismatched


def test_a_case_of_an_input_error_fails_when_answering_does_not_stop_there() -> None:
    """`input_error:` holds only for the error of the field it names, with its words: the same
    situation put right (from an adjacent hex) fails, as does another field or other words."""
    from aslrules.loader import load_text

    text = (CASES / "input_checks" / "moving_from_own_hex.yaml").read_text(encoding="utf-8")
    assert [o.passed for o in check([load_text(text)])] == [True]
    for old, new, got in (("from: W2", "from: V2", "no input error"),
                          ("field: units[1].moving.from", "field: units[1].moving", "units[1].moving.from: "),
                          ("says: a hex adjacent to W2", "says: a hex adjacent to X2", "units[1].moving.from: ")):
        assert old in text
        [o] = check([load_text(text.replace(old, new))])
        assert [m.field for m in o.mismatches] == ["input_error"] and str(o.mismatches[0].actual).startswith(got)


def test_an_answer_that_does_not_name_its_question_fails() -> None:
    """core.restates: the answer names, under each role, what the question names (kb/show.lp role/3);
    an answer about other firers, or with the hexspine a CA turns to left out, is a failure."""
    from dataclasses import replace

    from aslrules.core import restates

    for path, role in (("a8_41/ex_8_41_fpf_447.yaml", "firer"), ("ca/cachange_c3_2_other_board.yaml", None)):
        [sit] = [load_file(CASES / path)]
        [o, *_] = check([sit])
        assert restates(sit, o.expectation, o.answer) == []
        for name in (role,) if role else list(o.answer.roles):
            roles = {k: (["x-other"] if k == name else v) for k, v in o.answer.roles.items()}
            [m] = restates(sit, o.expectation, replace(o.answer, roles=roles))
            assert m.field == f"question ({name})"
