"""The command line: --version, --help, `ask` in text and JSON (the same content), `--firer`,
and strings that look like ASP are data (issue 2, items 5 and 7; README "Reading an answer")."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from aslrules import __version__
from aslrules.cli import main
from aslrules.core import ask, check
from aslrules.loader import load_text

ROOT = Path(__file__).resolve().parent.parent
SITUATIONS = sorted((ROOT / "examples").glob("*.yaml"))
CASES = sorted((ROOT / "tests" / "cases").rglob("*.yaml"))


def cli(*args: str) -> tuple[int, str, str]:
    """Run the CLI in process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as e:  # argparse: --help, --version, usage errors
            code = e.code if isinstance(e.code, int) else 1
    return code, out.getvalue(), err.getvalue()


# --------------------------------------------------------------------------- --version, --help

def test_version_subprocess() -> None:
    r = subprocess.run([sys.executable, "-m", "aslrules", "--version"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0
    assert r.stdout.strip() == f"aslrules {__version__}"


def test_help() -> None:
    code, out, _ = cli("--help")
    assert code == 0
    assert "ask" in out and "check" in out and "--version" in out
    code, out, _ = cli("ask", "--help")
    assert code == 0 and "--format" in out and "--firer" in out
    code, out, _ = cli("check", "--help")
    assert code == 0 and "FILE|DIR" in out


def test_usage_error_exits_2() -> None:
    code, _, err = cli("frobnicate")
    assert code == 2 and "usage:" in err
    code, _, err = cli("ask", "x.yaml", "--format", "xml")
    assert code == 2 and "invalid choice" in err
    for bad in ("0", "two"):
        code, _, err = cli("check", str(ROOT / "tests" / "cases"), "--jobs", bad)
        assert code == 2 and "a number of processes, 1 or more" in err


def test_jobs_change_no_outcome() -> None:
    """`check -j N` only shares the batches among N processes: the same report for any N (two folders
    of 175 files: two batches of 100, with Covered Arc, Residual FP and Fire Lane cases)."""
    folders = [str(ROOT / "tests" / "cases" / f) for f in ("ca", "a8_2_residual")]
    reports = {n: cli("check", *folders, "--format", "json", "-j", n) for n in ("1", "2")}
    assert reports["1"] == reports["2"]
    assert reports["1"][0] == 0 and json.loads(reports["1"][1])["failed"] == 0


# --------------------------------------------------------------------------- JSON says what the text says
#
# Both forms are written from the same answers (aslrules.core.ask): the JSON must be each answer
# whole (Answer.as_dict, every field), the text each answer as aslrules.render writes it, in the
# same order.  Checked once per answer shape: a file for each question kind and kind of figure.

SHAPES = [
    "examples/berserk_charge.yaml",  # a listing: Fire Groups, directors, forbidden attacks folded
    "examples/a8_41_ex_case.yaml",  # an attack's figures: FP by firer, B#, Residual FP and why, after
    "examples/gun_ca.yaml",  # the Covered Arc kinds
    "tests/cases/flowchart/fpf_box.yaml",  # FPF: its NMC, firer_status, mc_dr
    "tests/cases/ca/d3_2_target_facing.yaml",
    "tests/cases/ca/c2_6_range_elevation.yaml",
    "tests/cases/ca/d2_401_motion_attempt.yaml",
    "tests/cases/ca/c3_22_pfph.yaml",
    "tests/cases/ca/d3_51_known.yaml",
    "tests/cases/a7_9/fg_random_selection.yaml",  # Cowering, Random Selection, a Fire Lane's reasons
    "tests/cases/a8/ex_8_41_first_attack_ift_result.yaml",  # with dice: Final DR, IFT result
    "tests/cases/a8_2_residual/ex_8_26_2_hedge_residual_attack.yaml",  # a Residual FP attack
]
RUNS = [(p, []) for p in SHAPES] + [("examples/berserk_charge.yaml", ["--firer", "g-467"]),
                                    ("examples/berserk_charge.yaml", ["--all"])]


def _jsonable(x: Any) -> Any:
    return json.loads(json.dumps(x))


@pytest.mark.parametrize(("path", "extra"), RUNS, ids=[f"{p}{''.join(e)}" for p, e in RUNS])
def test_json_and_text_are_the_same_answers(path: str, extra: list[str]) -> None:
    from dataclasses import fields

    from aslrules.answers import Answer
    from aslrules.loader import load_file
    from aslrules.render import answer_lines, listing_lines

    sit = load_file(str(ROOT / path))
    firer = extra[1] if extra[:1] == ["--firer"] else None
    answers = ask(sit, firer=firer, full="--all" in extra)
    assert answers
    code, js, err = cli("ask", str(ROOT / path), "--format", "json", *extra)
    assert code == 0, err
    data = json.loads(js)
    assert data["answers"] == [_jsonable(a.as_dict()) for a in answers]
    for a, d in zip(answers, data["answers"]):  # as_dict leaves no field of the answer out
        named = {"qid": "question"}
        assert {named.get(f.name, f.name) for f in fields(Answer)} - {"rank"} <= set(d), d
        assert len(d["reasons"]) == len(a.reasons) and set(d["figures"]) == set(a.figures)
    code, text, err = cli("ask", str(ROOT / path), *extra)
    assert code == 0, err
    lines = text.splitlines()[1:]
    questions = sit.expect or sit.ask
    expected = [x for a in answers for x in answer_lines(a, indent="  ")] if questions else \
        listing_lines(answers, indent="  ", full="--all" in extra)
    assert lines == expected


def test_the_shapes_cover_what_the_corpus_shows() -> None:
    """The files above together show every figure, every reason role and every question kind any
    answer of the evidence shows (tests/corpus.py)."""
    from corpus import answered

    from aslrules.loader import load_file

    def shape(answers) -> set[tuple[str, str]]:
        out = {("kind", a.kind) for a in answers} | {("role", r.role) for a in answers for r in a.reasons}
        return out | {("figure", f) for a in answers for f in a.figures} | {("part", p) for a in answers for p in a.parts}

    corpus = shape(o.answer for o in answered()[0] if o.answer.kind not in ("state", "legal", "changes", "input_error", "move", "end_movement", "end_mph"))
    # (a replay's own items, its steps' reasons, a refused case's: aslrules/replay.py renders those)
    shown = shape(a for p in SHAPES for a in ask(load_file(str(ROOT / p))))
    assert not corpus - shown, sorted(corpus - shown)


def test_listing_mode_lists_every_defender() -> None:
    """README/issue item 7: with no questions, every DEFENDER unit's and weapon's options."""
    path = ROOT / "examples" / "berserk_charge.yaml"
    code, js, _ = cli("ask", str(path), "--format", "json")
    assert code == 0
    firers = {f for a in json.loads(js)["answers"] for f in a["roles"].get("firer", [])}
    assert firers == {"g-467", "g-lmg"}  # the 8-1 has no FP of his own; the Russians attack


def test_the_program_ends_with_its_output_whole(tmp_path: Path) -> None:
    """`aslrules ask` and `check` as a program (cli.run) end the process as soon as their output is
    out (cli._done: nothing freed first): the listing's JSON is whole and the same as `main`
    writes in a process that goes on (this one), and `check` keeps its exit status."""
    path = ROOT / "examples" / "berserk_charge.yaml"
    r = subprocess.run([sys.executable, "-m", "aslrules", "ask", str(path), "--format", "json"],
                       capture_output=True, text=True, cwd=ROOT)
    code, js, _ = cli("ask", str(path), "--format", "json")
    assert (r.returncode, r.stdout) == (code, js) == (0, js)
    assert json.loads(r.stdout)["answers"]
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text((ROOT / "examples" / "a8_41_ex_case.yaml").read_text(encoding="utf-8")
                     .replace("verdict: allowed", "verdict: forbidden", 1), encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "aslrules", "check", str(wrong)], capture_output=True, text=True,
                       cwd=ROOT)
    assert r.returncode == 1 and r.stdout.rstrip().endswith("1 failed")


# --------------------------------------------------------------------------- --firer

def test_firer_limits_listing_to_unit_and_its_weapons() -> None:
    """--firer: the attacks the unit (or one of its weapons) takes part in, alone or in a Fire
    Group; a weapon: those it fires in (with its squad's FG too)."""
    path = str(ROOT / "examples" / "berserk_charge.yaml")
    _, js, _ = cli("ask", path, "--format", "json", "--firer", "g-467")
    answers = json.loads(js)["answers"]
    assert {f for a in answers for f in a["roles"]["firer"]} == {"g-467", "g-lmg"}
    assert all({"g-467", "g-lmg"} & set(a["roles"]["firer"]) for a in answers)
    _, js, _ = cli("ask", path, "--format", "json", "--firer", "g-lmg")
    answers = json.loads(js)["answers"]
    assert answers and all("g-lmg" in a["roles"]["firer"] for a in answers)
    assert {tuple(a["roles"]["firer"]) for a in answers} == {("g-lmg",), ("g-467", "g-lmg")}


def test_firer_unknown_exits_2() -> None:
    path = str(ROOT / "examples" / "berserk_charge.yaml")
    code, out, err = cli("ask", path, "--firer", "nobody")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "--firer" in err and "'nobody'" in err


def test_firer_with_questions_filters_them() -> None:
    path = str(ROOT / "tests" / "cases" / "a8" / "ex_8_41_first_attack.yaml")
    _, js, _ = cli("ask", path, "--format", "json", "--firer", "g-lmg")
    assert len(json.loads(js)["answers"]) == 1
    _, js, _ = cli("ask", path, "--format", "json", "--firer", "g-81")  # directs, does not fire
    assert json.loads(js)["answers"] == []


def test_a_long_listing_is_announced_on_stderr(monkeypatch: pytest.MonkeyPatch) -> None:
    """Listing every option of a large situation takes long (performance-notes.md: "offer it per
    firer"): from LISTING_HINT_UNITS units a hint on stderr names --firer; the answers on stdout
    are the same; with --firer or with questions there is no hint."""
    from aslrules import cli as cli_module

    listing = str(ROOT / "examples" / "berserk_charge.yaml")
    code, quiet_out, err = cli("ask", listing)
    assert code == 0 and err == ""
    monkeypatch.setattr(cli_module, "LISTING_HINT_UNITS", 3)  # berserk_charge.yaml has 3 units
    code, out, err = cli("ask", listing)
    assert code == 0 and out == quiet_out
    assert err.count("\n") == 1 and "listing every fire option of 3 units" in err and "--firer" in err
    assert cli("ask", listing, "--firer", "g-467")[2] == ""
    assert cli("ask", str(ROOT / "tests" / "cases" / "a8" / "ex_8_41_first_attack.yaml"))[2] == ""


# --------------------------------------------------------------------------- ASP syntax is data

EVIL_SIDE_A = 'x"). #false. y("'
EVIL_SIDE_B = 'russian"). verdict(0,forbidden). #include "/etc/passwd". %'
# Ids are letters, digits, '-' and '_' (the loader), but those can still read as ASP
# variables, keywords or the batch rewrite's own names.
EVIL_IDS = {"g-467": "X", "g-lmg": "AslCase", "g-81": "not", "r-628": "_", "r-447": "case"}
PLAIN_SIDES = {"sidea": EVIL_SIDE_A, "sideb": EVIL_SIDE_B}

TWIN = """\
title: {title}
source: {source}
phase: MPh
attacker: {b}
locations:
  X2: {{terrain: stone building, tem: 3}}
units:
  - id: {g-467}
    side: {a}
    type: squad
    counter: 4-6-7
    hex: X2
    weapons:
      - {{id: {g-lmg}, kind: LMG, fp: 3, range: 8, rof: 1, breakdown: 11}}
  - {{id: {g-81}, side: {a}, type: leader, counter: 8-1, hex: X2}}
  - {{id: {r-628}, side: {b}, type: squad, counter: 6-2-8, hex: W2, moving: {{from: V2, mf_here: 1}}}}
  - {{id: {r-447}, side: {b}, type: squad, counter: 4-4-7, hex: V3}}
"""
QUESTIONS = """\
expect:
  - attack: {{option: first_fire, firers: [{g-467}, {g-lmg}], director: {g-81}, targets: [{r-628}]}}
    verdict: allowed
    fp: 14
    drm: -3
  - attack: {{option: first_fire, firers: [{g-467}], targets: [{r-447}]}}
    verdict: forbidden
  - attack: {{option: first_fire, firers: [{r-628}], targets: [{g-467}]}}
    verdict: forbidden
"""


def yq(s: str) -> str:
    """A YAML single-quoted scalar."""
    return "'" + s.replace("'", "''") + "'"


def twin(evil: bool, questions: bool) -> str:
    ids = {k: (v if evil else k) for k, v in EVIL_IDS.items()}
    ids = {k: yq(v) for k, v in ids.items()}
    text = TWIN + (QUESTIONS if questions else "")
    return text.format(
        title=yq('x"). #false. y("' if evil else "plain title"),
        source=yq('#include "x.lp". :- verdict(_,allowed).' if evil else "plain source"),
        a=yq(EVIL_SIDE_A if evil else "sidea"), b=yq(EVIL_SIDE_B if evil else "sideb"), **ids)


def to_evil(x: Any) -> Any:
    """The plain twin's answer with its names replaced by the evil twin's names."""
    if isinstance(x, str):
        for plain, evil in [*EVIL_IDS.items(), *PLAIN_SIDES.items()]:
            x = re.sub(rf"(?<![\w-]){re.escape(plain)}(?![\w-])", lambda _m, e=evil: e, x)
        return x
    if isinstance(x, dict):
        return {to_evil(k): to_evil(v) for k, v in x.items()}
    if isinstance(x, list):
        return [to_evil(v) for v in x]
    return x


def answers_of(text: str) -> list[dict[str, Any]]:
    out = [a.as_dict() for a in ask(load_text(text))]
    return sorted(out, key=lambda d: json.dumps(d, sort_keys=True))


def same_roles(answers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A role's ids come in the KB's order, which the ids themselves decide: compared as sets."""
    return [{**a, "roles": {role: sorted(ids, key=str) for role, ids in a["roles"].items()}} for a in answers]


@pytest.mark.parametrize("questions", [True, False], ids=["questions", "listing"])
def test_asp_syntax_in_strings_changes_no_answer(questions: bool) -> None:
    plain = answers_of(twin(False, questions))
    evil = answers_of(twin(True, questions))
    assert plain, "the twin has answers"
    expected = sorted(to_evil(plain), key=lambda d: json.dumps(d, sort_keys=True))
    assert same_roles(evil) == same_roles(expected)
    if questions:
        verdicts = [a["verdict"] for a in answers_of(twin(True, True))]
        assert sorted(verdicts) == ["allowed", "forbidden", "forbidden"]


def test_asp_syntax_in_strings_check_and_json(tmp_path: Path) -> None:
    """The evil twin is checked like the plain one, and its strings come back verbatim."""
    path = tmp_path / "evil.yaml"
    path.write_text(twin(True, True), encoding="utf-8")
    code, out, err = cli("check", str(path))
    assert code == 0, out + err
    assert out.strip().splitlines()[-1] == "3 passed, 0 failed"
    code, js, _ = cli("ask", str(path), "--format", "json")
    data = json.loads(js)
    assert data["title"] == 'x"). #false. y("'
    assert data["answers"][0]["figures"]["option"] == {"X": "first_fire", "AslCase": "first_fire"}
    # batched checking of both twins in one grounding agrees too
    plain = load_text(twin(False, True), "plain")
    evil = load_text(twin(True, True), "evil")
    assert all(o.passed for o in check([plain, evil, plain]))
