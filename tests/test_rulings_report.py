"""`aslrules rulings`: each section of the consistency report on tests/data/rulings/report, a
folder built for it (each file says what it is for):

* T1 holds under every reading; T5 is contradicted (it states the DEFENDER may not First Fire,
  A8.1 says he may); T6 is not encodable;
* T2 and T3 hold only under a8312_smc=printed and =no_fp: a known conflict pair;
* T7 (current) holds only under a7353=restrictive, so the readings that fit leave its default;
* T4 (obsolete) holds only under a7353=permissive and names a7353=restrictive as what
  overturned it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from aslrules.consistency import Report, as_json, parse_readings, report, text_lines
from aslrules.errors import InputError
from aslrules.rulings import load_rulings
from aslrules.schema import READINGS

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "tests" / "data" / "rulings" / "report"


@pytest.fixture(scope="module")
def rep() -> Report:
    return report(load_rulings([str(FOLDER)]), overrides={"a7353": "restrictive"})


def by_id(rep: Report) -> dict:
    return {r.id: r for r in rep.results}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "aslrules", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


def test_each_ruling_gets_its_status(rep: Report) -> None:
    r = by_id(rep)
    assert {k: v.status for k, v in r.items()} == {
        "T1": "holds", "T2": "needs_reading", "T3": "needs_reading", "T4": "needs_reading",
        "T5": "contradicted", "T6": "not_encodable", "T7": "needs_reading"}
    assert r["T2"].holding == [(("a8312_smc", "printed"),)]
    assert r["T3"].holding == [(("a8312_smc", "no_fp"),)]
    assert r["T7"].holding == [(("a7353", "restrictive"),)]
    assert r["T1"].influential == ()


def test_a_contradicted_ruling_shows_the_kbs_answer_beside_the_ruling(rep: Report) -> None:
    text = "\n".join(text_lines(rep))
    block = text[text.index("  T5 "):text.index("  T6 ")]
    assert "contradicted" in block
    assert "verdict: the ruling says forbidden; the KB says allowed" in block
    assert "A8.1: r-447 expends MF in C4" in block  # the reason that decided it
    assert "T5.yaml:" in block and "(part a)" in block


def test_the_readings_that_fit(rep: Report) -> None:
    f = rep.fit
    assert f.assignment["a7353"] == "restrictive"  # T7 (current) outweighs T4 (obsolete, weight 0)
    assert f.assignment["a8312_smc"] == "printed"  # T2 and T3 tie: the default is kept
    assert not f.unique
    assert sorted(o["a8312_smc"] for o in f.optima) == ["no_fp", "printed"]
    assert (f.satisfied, f.counted) == (3, 5)  # T1, T7 and one of T2/T3; T5 never; T6 has no case


def test_the_fit_is_unique_without_the_conflict() -> None:
    rep = report(load_rulings([str(FOLDER / "T1.yaml"), str(FOLDER / "T2.yaml"), str(FOLDER / "T7.yaml")]))
    assert rep.fit.unique
    assert (rep.fit.assignment["a7353"], rep.fit.assignment["a8312_smc"]) == ("restrictive", "printed")
    assert rep.ok and rep.conflicts == []


def test_the_known_conflict_pair_and_only_it(rep: Report) -> None:
    assert [([r.id for r in c.rulings], c.hinges_on) for c in rep.conflicts] == [(["T2", "T3"], ["a8312_smc"])]


def test_the_obsolete_ruling_is_overturned_by_its_reading(rep: Report) -> None:
    t4 = by_id(rep)["T4"]
    assert t4.overturned["confirmed"]
    assert t4.overturned["holds_otherwise"] == [(("a7353", "permissive"),)]
    assert "overturned by a7353=restrictive (holds under a7353=permissive)" in "\n".join(text_lines(rep))


def test_errata_impact_lists_what_a_reading_changes(rep: Report) -> None:
    assert sorted((c.result.id, c.before, c.after) for c in rep.changes) == [("T4", True, False),
                                                                          ("T7", False, True)]
    none = report(load_rulings([str(FOLDER)]), overrides={"a8312_smc": "no_fp"})
    assert sorted((c.result.id, c.before, c.after) for c in none.changes) == [("T2", True, False),
                                                                           ("T3", False, True)]


def test_the_summary_by_rule_id(rep: Report) -> None:
    rows = dict(rep.summary())
    assert rows["A8.1"] == {"rulings": 2, "holds": 1, "needs_reading": 0, "contradicted": 1, "not_encodable": 0}
    assert rows["A8.312"]["needs_reading"] == 2
    assert rows["A9.22"]["not_encodable"] == 1


def test_json_holds_the_same(rep: Report) -> None:
    data = json.loads(json.dumps(as_json(rep)))
    assert [c["rulings"] for c in data["conflicts"]] == [["T2", "T3"]]
    assert data["fit"]["readings"]["a7353"] == "restrictive" and data["fit"]["unique"] is False
    t5 = next(r for r in data["rulings"] if r["ruling"] == "T5")
    assert t5["check"] == "contradicted"
    assert t5["failures_under_defaults"][0]["mismatches"] == [{"field": "verdict", "ruling": "forbidden",
                                                              "kb": "allowed"}]
    assert {c["ruling"]: c["after"] for c in data["errata"]["changes"]} == {"T4": "fails", "T7": "holds"}
    assert data["ok"] is False


def test_only_the_readings_that_may_change_a_case_are_varied(rep: Report) -> None:
    t2 = by_id(rep)["T2"]
    assert "a8312_smc" in t2.readings and "bypass_side_ca" not in t2.readings
    assert len(t2.holds) == 2 ** len(t2.readings) < 2 ** len(READINGS)  # not every assignment of every reading


def test_the_cli_exit_codes() -> None:
    done = run("rulings", str(FOLDER))
    assert done.returncode == 1, done.stderr  # T5 is contradicted
    assert "Summary by rule id" in done.stdout
    ok = run("rulings", str(FOLDER / "T1.yaml"), str(FOLDER / "T7.yaml"), "--format", "json")
    assert ok.returncode == 0, ok.stdout
    assert json.loads(ok.stdout)["ok"] is True
    bad = run("rulings", str(FOLDER), "--reading", "a7353=sideways")
    assert bad.returncode == 2 and "a value of a7353" in bad.stderr and "Traceback" not in bad.stderr


def test_reading_arguments_are_checked() -> None:
    assert parse_readings(["a7353=restrictive"]) == {"a7353": "restrictive"}
    for bad in (["a7353"], ["nosuch=x"], ["a7353=permissive", "a7353=restrictive"]):
        with pytest.raises(InputError):
            parse_readings(bad)


def test_conflicts_are_minimal_sets_of_any_size() -> None:
    """Three rulings no assignment satisfies together though any two of them hold together:
    one conflict of three, no pair (MARCO over clingo's cores, each shrunk to a minimal one)."""
    from aslrules import schema as S
    from aslrules.consistency import RulingResult, conflicts
    from aslrules.rulings import Ruling

    def result(rid: str, holding: list) -> RulingResult:
        data = S.Ruling(ruling=rid, source="s", status="current", question="q", answer="a", not_encodable="n")
        names = tuple(sorted({n for alt in holding for n, _ in alt}, key=list(S.READINGS).index))
        return RulingResult(Ruling(rid, data), [], names, {}, names, "needs_reading",
                            [tuple(alt) for alt in holding])

    r1 = result("R1", [[("a7353", "restrictive")], [("a8312_smc", "no_fp")]])
    r2 = result("R2", [[("a7353", "permissive")]])
    r3 = result("R3", [[("a8312_smc", "printed")]])
    r4 = result("R4", [[("residual_half", "exact_half")]])  # conflicts with nothing
    found = conflicts([r1, r2, r3, r4])
    assert [[r.id for r in c.rulings] for c in found] == [["R1", "R2", "R3"]]
    assert found[0].hinges_on == ["a7353", "a8312_smc"]


def test_each_tension_reaches_a_verdict(rep: Report) -> None:
    assert [(t, verdict, [r.id for r in rs]) for t, verdict, rs, _ in rep.tensions()] == [
        ("X1", "conflict", ["T2", "T3"])]
    assert "X1: conflict: T2 holds only under a8312_smc=printed" in "\n".join(text_lines(rep))


def test_coverage_counts_the_current_rulings_bearing_on_rules_in_scope(rep: Report) -> None:
    """The rules-in-scope list (tests/data/rules-in-scope.md) names A8.1 and A8.312, not A9.22 nor
    A7.353: T1, T2, T3, T5 bear on it (current, with cases); T6 (A9.22) and T7 (A7.353) do not;
    T4 (A7.353) is obsolete."""
    cov = rep.coverage()
    assert cov is not None
    assert (cov.with_cases, cov.without_cases) == (["T1", "T2", "T3", "T5"], [])
    assert cov.line() == "4 of 4 current rulings that bear on rules in scope have cases (100%)"
    text = text_lines(rep)
    assert cov.line() in text
    assert json.loads(json.dumps(as_json(rep)))["coverage"] == {
        "text": cov.line(), "with_cases": 4, "bearing": 4, "percent": 100,
        "rulings_with_cases": ["T1", "T2", "T3", "T5"], "rulings_without_cases": []}


def test_coverage_with_a_ruling_in_scope_and_no_case() -> None:
    """With A9.22 in the list, T6 (current, not encodable) counts and has no case: 4 of 5, 80%;
    an id that only begins with a listed one and goes on with a digit (A7.353 for A7.35) does not
    bear on it; a listed id followed by a non-digit (A8.1 EX) does; the percentage is rounded down."""
    rulings = load_rulings([str(FOLDER)])
    cov = report(rulings, scope={"A8.1", "A8.312", "A9.22", "A7.35"}).coverage()
    assert cov is not None and (cov.with_cases, cov.without_cases) == (["T1", "T2", "T3", "T5"], ["T6"])
    assert cov.line() == "4 of 5 current rulings that bear on rules in scope have cases (80%)"
    rep = report(rulings, scope={"A8", "A9.22"})  # "A8.1" is "A8" then ".1": a non-digit follows
    cov = rep.coverage()
    assert cov is not None and cov.line() == "4 of 5 current rulings that bear on rules in scope have cases (80%)"
    cov = report([r for r in rulings if r.id in ("T1", "T2", "T6")], scope={"A8.1", "A8.312", "A9.22"}).coverage()
    assert cov is not None and cov.line() == "2 of 3 current rulings that bear on rules in scope have cases (66%)"
    assert "  without cases: T6" in text_lines(rep)
