"""The engine's shortcuts change no answer (performance-notes.md; bench/run.py measures them):

* relevance pruning (engine.Relevance): only the rules that may fire for the facts are grounded;
* batching: many cases in one grounding (the KB rewritten with a case argument);
* worker processes: batches shared among processes.

Each is compared with the plain way on every example case and on mutated situations."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from test_property import mutated

from aslrules.core import build_facts, check, iter_case_files
from aslrules import symbols
from aslrules.engine import Engine, Relevance
from aslrules.errors import InputError
from aslrules.loader import load_file, load_text

ROOT = Path(__file__).resolve().parent.parent
FILES = iter_case_files([str(ROOT / "tests" / "cases"), str(ROOT / "examples")])
SITUATIONS = [load_file(f) for f in FILES]
FULL = Engine(prune=False)
PRUNED = Engine()


def shown(symbols) -> list[str]:
    return sorted(map(str, symbols))


def test_pruning_keeps_every_answer() -> None:
    for path, sit in zip(FILES, SITUATIONS):
        facts = build_facts(sit, list_options=not sit.expect).facts
        assert shown(PRUNED.solve(facts)) == shown(FULL.solve(facts)), path


def test_pruning_drops_rules() -> None:
    """A plain First Fire question needs no Snap Shot rule, and far from all of the KB."""
    sit = load_file(ROOT / "tests" / "cases" / "a8_1" / "dff_in_mph.yaml")
    program = PRUNED.program
    relevance = Relevance(program)
    kept = [program[i] for i in relevance.live(relevance.domain(build_facts(sit).facts))
            if program[i].ast_type.name == "Rule"]
    assert len(kept) < 0.7 * sum(1 for s in program if s.ast_type.name == "Rule")
    assert not [str(s) for s in kept if s.location.begin.filename.endswith("snap_shot.lp")]


def test_batch_keeps_every_answer() -> None:
    facts = [build_facts(s).facts for s in SITUATIONS if s.expect]
    together = [shown(x) for x in PRUNED.solve_batch(facts)]
    assert together == [shown(FULL.solve(f)) for f in facts]
    assert [shown(x) for x in FULL.solve_batch(facts)] == together


def test_workers_keep_every_answer() -> None:
    cases = [s for s in SITUATIONS if s.expect]
    alone = check(cases, workers=1, batch_size=7)
    shared = check(cases, workers=2, batch_size=7)
    assert [(o.situation.path, o.index, o.answer) for o in shared] == \
           [(o.situation.path, o.index, o.answer) for o in alone]


def test_workers_report_input_errors() -> None:
    """An InputError found while answering (a range between boards) crosses the process boundary."""
    text = (ROOT / "tests" / "data" / "two_boards_no_range.yaml").read_text(encoding="utf-8")
    cases = [s for s in SITUATIONS if s.expect][:5] + [load_text(text, "boards.yaml")]
    try:
        check(cases, workers=2, batch_size=2)
    except InputError as e:
        assert e.file == "boards.yaml" and e.path == "lines_of_sight"
    else:
        raise AssertionError("no InputError")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_pruning_on_mutated_situations(text: str) -> None:
    try:
        sit = load_text(text, "fuzz.yaml")
    except InputError:
        return
    facts = build_facts(sit, list_options=not sit.expect).facts
    assert shown(PRUNED.solve(facts)) == shown(FULL.solve(facts))


def test_cache(tmp_path, monkeypatch) -> None:
    """The parsed KB, its batch rewrite and the relevance analysis are cached per KB; a damaged
    entry is remade."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    made = Engine()
    facts = [build_facts(s).facts for s in SITUATIONS if s.expect][:20]
    expected = [shown(x) for x in made.solve_batch(facts)]
    entries = sorted(p.name for p in tmp_path.rglob("*") if p.is_file())
    assert entries == ["batch.lp", "program.lp", "relevance.json"]
    read = Engine()
    assert [shown(x) for x in read.solve_batch(facts)] == expected
    assert read.relevance().rules == made.relevance().rules
    for p in tmp_path.rglob("*.*"):
        p.write_text("garbage ( :- {", encoding="utf-8")
    damaged = Engine()
    assert [shown(x) for x in damaged.solve_batch(facts)] == expected


def _toy(text: str) -> tuple[list, Relevance]:
    from clingo import ast

    stms: list = []
    ast.parse_string(text, stms.append)
    return stms, Relevance(stms)


def test_relevance_on_toy_programs() -> None:
    """What the analysis keeps, on programs small enough to see by eye."""
    from clingo import Function, Number

    stms, rel = _toy("q(X) :- p(X). r(X) :- q(X). z :- w. s(X) :- p(X), kind(X, big). #show r/1. #show s/1.")
    kept = lambda facts: [str(stms[i]) for i in rel.live(rel.domain(facts)) if stms[i].ast_type.name == "Rule"]  # noqa: E731
    # no p fact: nothing can fire; p, but kind only `small`: s cannot fire; z never
    assert kept([]) == []
    small = [("p", (Number(1),)), ("kind", (Number(1), Function("small")))]
    assert kept(small) == ["q(X) :- p(X).", "r(X) :- q(X)."]
    big = [("p", (Number(1),)), ("kind", (Number(1), Function("big")))]
    assert "s(X) :- p(X); kind(X,big)." in kept(big)
    # a table nothing shown depends on is dropped, with its facts
    stms, rel = _toy("t(1). t(2). u(X) :- t(X). v(X) :- p(X). #show v/1.")
    live, needed = rel.prune(rel.domain([("p", (Number(1),))]))
    assert [str(stms[i]) for i in live if stms[i].ast_type.name == "Rule"] == ["v(X) :- p(X)."]
    assert needed == {("v", 1), ("p", 1)}
    # classical negation in a head is not covered: keep everything
    stms, rel = _toy("-q(X) :- p(X). r(X) :- -q(X). #show r/1.")
    assert not rel.covered and rel.live({}) == list(range(len(stms)))


def _atoms_after(facts, case, direct: bool, keep=None) -> list[str]:
    import clingo

    ctl = clingo.Control(["--warn=none"])
    Engine._add_facts(ctl, facts, case, keep=keep, direct=direct)
    ctl.ground([("base", [])])
    return sorted(str(a.symbol) for a in ctl.symbolic_atoms)


def test_facts_through_the_c_api_equal_facts_through_the_python_api() -> None:
    """symbols.add_facts through clingo's C functions (buffers reused) adds exactly the atoms the
    public Backend API adds, with and without a case argument, for facts wider than its buffer,
    for facts the cases of a batch share, and when only some predicates are kept."""
    import clingo
    from clingo import Function, Number, String

    assert symbols.DIRECT, "clingo's C bindings moved: the fast path is not in use"
    wide = ("wide", tuple(Number(k) for k in range(40)))
    for sit in SITUATIONS[::10]:
        facts = [*build_facts(sit).facts, wide, ("title", (String('x"). #false. y("'),)), ("c", (Function("k"),))]
        for case in (None, Number(3)):
            assert _atoms_after(facts, case, True) == _atoms_after(facts, case, False)
        batch = {}
        for direct in (True, False):  # shared facts: once for the batch, without a case argument
            shared = symbols.Shared({("hex", 4), ("wide", 40)})
            ctl = clingo.Control(["--warn=none"])
            for case in (Number(1), Number(2)):
                Engine._add_facts(ctl, facts, case, shared=shared, direct=direct)
            ctl.ground([("base", [])])
            got = sorted(str(a.symbol) for a in ctl.symbolic_atoms)
            hexes = sorted({str(Function("hex", list(a))) for p, a in facts if p == "hex"})
            assert [a for a in got if a.startswith("hex(")] == hexes
            assert [a for a in got if a.startswith("wide(")] == [str(Function(*wide))]
            assert {a.split("(")[1].split(",")[0] for a in got if a.startswith("unit(")} <= {"1", "2"}
            batch[direct] = got
        assert batch[True] == batch[False]
        keep = {("unit", 1), ("wide", 40), ("hex", 3)}  # hex/4 is not kept
        kept = _atoms_after(facts, None, True, keep)
        assert kept == _atoms_after(facts, None, False, keep)
        assert kept and all(a.startswith(("unit(", "wide(")) for a in kept)


def test_atoms_read_through_the_c_api_equal_atoms_read_through_the_python_api() -> None:
    """symbols.read_atoms (C functions) and symbols.symbol_value (public API) read the same values;
    a Term prints as clingo prints the symbol, and sorts as clingo sorts symbols."""
    import clingo
    from clingo import Function, Number, String

    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], 'p(-3;0;7). p("a";"b\\"c\\n\\\\";""). p(k;f(1);f(x,"y");(1,);(1,2);g((a,b),fp(672))).')
    ctl.ground([("base", [])])
    syms = [a.symbol for a in ctl.symbolic_atoms]
    syms += [Function("q", [String(k)]) for k in ('x"). #false. y("', "é", "\\")]
    direct = symbols.read_atoms(syms)
    public = symbols.read_atoms(syms, direct=False)
    assert direct == public
    assert [str(t) for t in direct] == [str(s) for s in syms]
    assert sorted(direct, key=symbols.sort_key) == [symbols.symbol_value(s) for s in sorted(syms)]
    assert symbols.read_atoms([Number(-5)]) == [-5]


def test_answers_are_the_same_read_either_way(monkeypatch) -> None:
    """Whole answers (verdicts, figures, reasons in their order) do not depend on the reading path."""
    from aslrules.core import ask

    for sit in SITUATIONS[::5]:
        fast = ask(sit, eng=PRUNED)
        monkeypatch.setattr(symbols, "DIRECT", False)
        slow = ask(sit, eng=PRUNED)
        monkeypatch.setattr(symbols, "DIRECT", True)
        assert fast == slow, sit.path
