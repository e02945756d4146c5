"""The accelerated solver (aslrules/fast) gives the plain solver's answers (aslrules/solve.py).

* relevance pruning: only the rules that may fire for the facts are grounded;
* batching: many cases in one grounding (the KB rewritten with a case argument);
* clingo's C functions for facts and atoms, on the clingo versions they were verified on;
* the on-disk cache of the KB's analysis;
* worker processes: batches shared among processes.

The plain path's answer of every case file and example is stored once, as a hash of its shown
atoms, in tests/data/golden-answers.json; the accelerated answers of every file are compared with
it, and the plain path answers a stratified sample (a file of each folder, and every 40th) to show
that the golden answers are still the plain path's.  After a change to the KB or the cases:

    python tests/test_engine.py --golden

writes them again (the plain path on every file, in worker processes).  ASLRULES_EXHAUSTIVE=1
runs the plain comparisons on every file instead of the sample.
"""

from __future__ import annotations

import importlib
import os
import shutil
import stat
from pathlib import Path

import clingo
import pytest
from corpus import stratified
from hypothesis import HealthCheck, given, settings
from test_property import mutated

from aslrules import core, fast
from aslrules.core import build_facts, check, iter_case_files
from aslrules.errors import EngineError, InputError
from aslrules.fast import accelerated, capi, pool
from aslrules.fast.accelerated import Accelerated
from aslrules.fast.cache import Cache
from aslrules.fast.program import parse_files
from aslrules.fast.relevance import Relevance
from aslrules.loader import load_file, load_text
from aslrules.solve import kb_files
from aslrules.symbols import read_atoms as symbols_read

ROOT = Path(__file__).resolve().parent.parent
FILES = iter_case_files([str(ROOT / "tests" / "cases"), str(ROOT / "examples")])
SITUATIONS = [load_file(f) for f in FILES]
FACTS = [build_facts(s, list_options=not s.expect).facts for s in SITUATIONS]
PLAIN = fast.Plain()
FAST = fast.solver(accelerate=True)


def shown(atoms) -> list[str]:
    return sorted(map(str, atoms))


def digest(atoms) -> str:
    """A hash of an answer's shown atoms (what the golden file stores)."""
    import hashlib

    return hashlib.sha256("\n".join(shown(atoms)).encode()).hexdigest()[:20]


def _name(path: str) -> str:
    return Path(path).resolve().relative_to(ROOT).as_posix()


NAMES = [_name(f) for f in FILES]
GOLDEN = ROOT / "tests" / "data" / "golden-answers.json"
REWRITE = "python tests/test_engine.py --golden"


SAMPLE = stratified(NAMES, 40)  # the first file of each folder and every 40th (all: ASLRULES_EXHAUSTIVE=1)


def _plain_digests(solver, facts) -> list[str]:
    return [digest(solver.solve(f)) for f in facts]


def plain_digests(indices: list[int]) -> list[str]:
    """The plain path's answers of FACTS at `indices` (by forked worker processes where the
    platform can fork: the plain path grounds the whole KB each time)."""
    facts = [FACTS[k] for k in indices]
    workers = min(os.cpu_count() or 1, 4)
    if workers == 1 or pool.context().get_start_method() != "fork" or len(facts) < 20:
        return _plain_digests(PLAIN, facts)
    ranges = [range(k, min(k + 10, len(facts))) for k in range(0, len(facts), 10)]
    chunks = pool.run(PLAIN, _plain_digests, [], workers=workers, whole=facts, ranges=ranges)
    return [x for chunk in chunks for x in chunk]


@pytest.fixture(scope="module")
def golden() -> dict[str, str]:
    import json

    data = json.loads(GOLDEN.read_text(encoding="utf-8"))
    missing = [n for n in NAMES if n not in data]
    assert not missing, f"{len(missing)} files have no golden answer ({missing[:3]}...): {REWRITE}"
    return data


def test_golden_answers_are_the_plain_paths(golden) -> None:
    """The stored answers are what the plain path answers today (on the sample)."""
    got = plain_digests(SAMPLE)
    stale = [NAMES[k] for k, d in zip(SAMPLE, got) if golden[NAMES[k]] != d]
    assert not stale, f"the plain path answers {len(stale)} files otherwise ({stale[:3]}...): {REWRITE}"
    assert len({NAMES[k].rsplit("/", 1)[0] for k in SAMPLE}) == len({n.rsplit("/", 1)[0] for n in NAMES})


def test_accelerated_batched_equals_plain(golden) -> None:
    """Every file, in batches of 100 as `aslrules check` grounds them (situations without questions
    list options)."""
    together = [digest(x) for k in range(0, len(FACTS), 100) for x in FAST.solve_many(FACTS[k:k + 100])]
    differ = [n for n, d in zip(NAMES, together) if golden[n] != d]
    assert not differ, f"the accelerated answers of {len(differ)} files are not the plain path's: {differ[:5]}"


def test_accelerated_one_at_a_time_equals_plain(golden) -> None:
    """Each file of the sample alone, its renaming rules applied as the atoms are read (`few`,
    aslrules/fast/views.py); the other tests here solve without them."""
    for k in SAMPLE:
        assert digest(FAST.solve(FACTS[k], few=True)) == golden[NAMES[k]], NAMES[k]


def test_unpruned_and_public_api_paths_equal_plain(golden) -> None:
    """Each shortcut on its own: no pruning; the public API instead of clingo's C functions."""
    for solver in (Accelerated(prune=False), Accelerated(direct=False)):
        assert [digest(x) for x in solver.solve_many([FACTS[k] for k in SAMPLE])] == [golden[NAMES[k]] for k in SAMPLE]
        assert [digest(solver.solve(FACTS[k])) for k in SAMPLE[1::4]] == [golden[NAMES[k]] for k in SAMPLE[1::4]]


def test_every_case_file_is_compared() -> None:
    cases = iter_case_files([str(ROOT / "tests" / "cases")])
    assert cases and set(cases) <= set(FILES)


def test_plain_is_picked_by_the_environment(monkeypatch) -> None:
    monkeypatch.setenv("ASLRULES_PLAIN", "1")
    assert isinstance(fast.solver(), fast.Plain)
    monkeypatch.delenv("ASLRULES_PLAIN")
    assert isinstance(fast.solver(), Accelerated)


def test_pruning_drops_rules() -> None:
    """A plain First Fire question needs no Snap Shot rule, and far from all of the KB."""
    sit = load_file(ROOT / "tests" / "cases" / "a8_1" / "dff_in_mph.yaml")
    program = parse_files(kb_files())
    relevance = Relevance(program)
    kept = [program[i] for i in relevance.live(relevance.domain(build_facts(sit).facts))
            if program[i].ast_type.name == "Rule"]
    assert len(kept) < 0.7 * sum(1 for s in program if s.ast_type.name == "Rule")
    assert not [str(s) for s in kept if s.location.begin.filename.endswith("snap_shot.lp")]
    assert any(s.location.begin.filename.endswith("first_fire.lp") for s in kept)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_accelerated_on_mutated_situations(text: str) -> None:
    try:
        sit = load_text(text, "fuzz.yaml")
    except InputError:
        return
    facts = build_facts(sit, list_options=not sit.expect).facts
    expected = shown(PLAIN.solve(facts))
    assert shown(FAST.solve(facts)) == expected
    assert shown(FAST.solve(facts, few=True)) == expected


# --------------------------------------------------------------------------- worker processes


def test_workers_keep_every_answer() -> None:
    cases = [s for s in SITUATIONS if s.expect][::5]
    alone = check(cases, workers=1, batch_size=7)
    shared = check(cases, workers=2, batch_size=7)
    assert [(o.situation.path, o.index, o.answer) for o in shared] == \
           [(o.situation.path, o.index, o.answer) for o in alone]


def test_workers_report_input_errors() -> None:
    """An InputError found while answering (a range between boards) crosses the process boundary."""
    text = (ROOT / "tests" / "data" / "two_boards_no_range.yaml").read_text(encoding="utf-8")
    cases = [s for s in SITUATIONS if s.expect][:5] + [load_text(text, "boards.yaml")]
    with pytest.raises(InputError) as e:
        check(cases, workers=2, batch_size=2)
    assert e.value.file == "boards.yaml" and e.value.path == "lines_of_sight"


def _dies(eng, chunk):
    os._exit(3)


def _raises(eng, chunk):
    raise RuntimeError("boom")


@pytest.mark.parametrize("answer, message", [(_dies, "worker process failed (BrokenProcessPool"),
                                             (_raises, "worker process failed: RuntimeError: boom")])
def test_a_failing_worker_is_an_engine_error(monkeypatch, tmp_path, answer, message) -> None:
    """A worker that dies or raises is an EngineError in the parent, which the CLI prints on one
    line (exit 2), whether the workers check loaded cases or load the files themselves."""
    from aslrules.cli import main

    monkeypatch.setattr(core, "_answer_chunk", answer)  # forked workers inherit it
    cases = [s for s in SITUATIONS if s.expect][:6]
    with pytest.raises(EngineError) as e:
        check(cases, workers=2, batch_size=2)
    assert message in str(e.value)
    paths = [str(p) for p in FILES if load_file(p).expect][:6]
    with pytest.raises(EngineError):
        core.check_files(paths, workers=2, batch_size=2)
    err = tmp_path / "err.txt"
    import contextlib
    import io

    with open(err, "w") as f, contextlib.redirect_stderr(f), contextlib.redirect_stdout(io.StringIO()):
        code = main(["check", "tests/cases", "-j", "2"])
    assert code == 2
    lines = err.read_text().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("aslrules: error: engine: a worker process failed")


def test_workers_started_afresh_make_the_same_solver() -> None:
    """Spawned workers make their solver from `spec()`: plain and accelerated alike."""
    import multiprocessing

    cases = [s for s in SITUATIONS if s.expect][:4]
    spawn = multiprocessing.get_context("spawn")
    for solver in (fast.Plain(), Accelerated(direct=False)):
        assert type(fast.from_spec(solver.spec())) is type(solver)
        got = pool.run(solver, core._pool_chunk, [cases[:2], cases[2:]], workers=2, context=spawn)
        assert got == [core._pool_chunk(FAST, cases[:2]), core._pool_chunk(FAST, cases[2:])]


# --------------------------------------------------------------------------- the cache


def _entries(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.bin"))


CACHED = [f for f, s in zip(FACTS, SITUATIONS) if s.expect][:5]


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> tuple[Path, list[list[str]]]:
    """A cache directory the accelerated solver filled (the analysis made once for these tests),
    and its answers for CACHED."""
    root = tmp_path_factory.mktemp("cache")
    old = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(root)
    try:
        answers = [shown(x) for x in Accelerated().solve_many(CACHED)]
    finally:
        if old is None:
            del os.environ["XDG_CACHE_HOME"]
        else:
            os.environ["XDG_CACHE_HOME"] = old
    return root, answers


def _copy(made, tmp_path: Path, monkeypatch) -> Path:
    shutil.copytree(made[0], tmp_path / "c")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "c"))
    return tmp_path / "c"


def test_cache_is_made_then_read(made, tmp_path, monkeypatch) -> None:
    """The parsed KB with its relevance analysis, and the batch rewrite, are stored, then read
    instead of made again."""
    root = _copy(made, tmp_path, monkeypatch)
    assert [p.name for p in _entries(root)] == ["batch.bin", "program.bin"]
    monkeypatch.setattr(Relevance, "__init__", lambda *a: pytest.fail("the analysis was made again"))
    monkeypatch.setattr(accelerated, "batch_program", lambda *a: pytest.fail("the batch rewrite was made again"))
    read = Accelerated()
    assert [shown(x) for x in read.solve_many(CACHED)] == made[1]
    assert read.relevance().sensitive == FAST.relevance().sensitive
    assert read.relevance().rules == FAST.relevance().rules


def test_a_question_parses_only_the_statements_it_keeps(made, tmp_path, monkeypatch) -> None:
    """From the cache, the KB's statements are texts parsed when first read (program.Statements):
    one question parses those relevance pruning keeps, not the KB, and answers as before; every
    statement parsed later is the statement the KB parses to."""
    _copy(made, tmp_path, monkeypatch)
    read = Accelerated()
    assert read.program._parsed.count(None) == len(read.program)
    assert shown(read.solve(CACHED[0])) == made[1][0]
    parsed = len(read.program) - read.program._parsed.count(None)
    assert 0 < parsed < len(read.program) / 2
    assert [str(x) for x in read.program] == [str(x) for x in FAST.program]


def test_damaged_cache_entries_are_rebuilt(made, tmp_path, monkeypatch) -> None:
    """A damaged entry reads as missing: the solver makes it again, answers the same, and stores
    it sound again."""
    root = _copy(made, tmp_path, monkeypatch)
    for p in _entries(root):
        data = p.read_bytes()
        p.write_bytes(data[:-100] + bytes([data[-100] ^ 1]) + data[-99:])
    assert all(Cache(kb_files(), fast.VERSION).read(p.stem) is None for p in _entries(root / "aslrules"))
    assert [shown(x) for x in Accelerated().solve_many(CACHED)] == made[1]
    assert all(Cache(kb_files(), fast.VERSION).read(p.stem) is not None for p in _entries(root / "aslrules"))


def test_a_damaged_entry_reads_as_missing(tmp_path) -> None:
    """Garbage, truncation, a flipped byte, an empty file or another key's sound entry: None."""
    cache = Cache(kb_files(), "v", tmp_path)
    value = ("text " * 100, [(1, [("p", 2)], {"a": None})], {(("q", 1), 0)})
    cache.write("e", value)
    good = cache.path("e").read_bytes()
    assert cache.read("e") == value
    other = Cache(kb_files(), "another version", tmp_path / "x")
    other.write("e", value)
    for data in (b"garbage ( :- {", good[:len(good) // 2], good[:-1], good[:-5] + bytes([good[-5] ^ 1]) + good[-4:],
                 b"", other.path("e").read_bytes()):
        cache.path("e").write_bytes(data)
        assert cache.read("e") is None
    assert cache.read("missing") is None


def test_the_cache_key_follows_the_kb_and_the_version(tmp_path) -> None:
    files = kb_files()
    assert Cache(files, "1", tmp_path).key == Cache(files, "1", tmp_path).key
    assert Cache(files, "1", tmp_path).key != Cache(files, "2", tmp_path).key
    assert Cache(files, "1", tmp_path).key != Cache(files[:-1], "1", tmp_path).key


def test_a_read_only_cache_directory_works(made, tmp_path, monkeypatch) -> None:
    """A filled cache in a read-only directory is read; nothing is written."""
    root = _copy(made, tmp_path, monkeypatch)
    before = {p: p.read_bytes() for p in _entries(root)}
    for p in [root, *root.rglob("*")]:
        p.chmod(p.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    try:
        monkeypatch.setattr(Relevance, "__init__", lambda *a: pytest.fail("the analysis was made again"))
        assert [shown(x) for x in Accelerated().solve_many(CACHED)] == made[1]
        assert {p: p.read_bytes() for p in _entries(root)} == before
    finally:
        for p in [root, *root.rglob("*")]:
            p.chmod(p.stat().st_mode | stat.S_IWUSR)


def test_an_unwritable_cache_works(tmp_path, monkeypatch) -> None:
    """Where nothing can be written (a file stands where the cache directory would be: what a
    read-only home gives, even to root), the solver makes the analysis and answers."""
    (tmp_path / "aslrules").write_text("not a directory", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    solver = Accelerated()
    assert [shown(solver.solve(f)) for f in CACHED] == [shown(FAST.solve(f)) for f in CACHED]
    assert (tmp_path / "aslrules").read_text(encoding="utf-8") == "not a directory"


# --------------------------------------------------------------------------- the relevance analysis


def _toy(text: str) -> tuple[list, Relevance]:
    from clingo import ast

    stms: list = []
    ast.parse_string(text, stms.append)
    return stms, Relevance(stms)


def _toy_model(program: list, facts: str) -> list:
    """The shown symbols of a toy program's answer set with `facts` (program text)."""
    from clingo import ast

    ctl = clingo.Control(["--warn=none"])
    with ast.ProgramBuilder(ctl) as builder:
        for x in program:
            builder.add(x)
    ctl.add("base", [], facts)
    ctl.ground([("base", [])])
    with ctl.solve(yield_=True) as handle:
        return list(next(iter(handle)).symbols(shown=True))


def test_the_atoms_of_a_statement_are_found_reading_only_the_fields_that_hold_them() -> None:
    """program.symbolic_atoms reads only the fields that may hold an atom (a term never does), and
    walks a node of another kind in full: it visits the atoms a walk of every field visits
    (program._Visit, clingo's Transformer), in the same order, on every statement of the KB and on
    heads and bodies of every kind (pools, aggregates of both kinds, disjunctions, conditional
    literals, a theory atom); _atoms_in names their predicates."""
    from clingo import ast

    from aslrules.fast.program import _atoms_in, _Visit, symbolic_atoms

    toy: list = []
    ast.parse_string("#theory t { s { }; &g/0: s, any }. "
                     "a(X;Y) :- b(X,Y), not c(X), X = #count { Z: d(Z), not e(Z) }, f(W) : g(W). "
                     "h ; i(1) : j. 2 { k(X) : l(X); m } :- 1 < #sum { 1,X: o(X), not y(X) }. "
                     "#sum { 1,X: n(X) : o(X) } :- z. "
                     "p(f(q)) :- &g { u: r(1) }. s(X) :- t(X), X < 3, not not v. #show w : x.", toy.append)
    for stm in [*parse_files(kb_files()), *toy]:
        ours: list = []
        every: list = []
        symbolic_atoms(stm, lambda x: ours.append(str(x)))
        _Visit(lambda x: every.append(str(x)))(stm)
        assert ours == every, str(stm)
    names: list = []
    for stm in toy:
        _atoms_in(stm, names)
    assert set(names) >= {
        ("a", 1), ("b", 2), ("c", 1), ("d", 1), ("e", 1), ("f", 1), ("g", 1), ("h", 0), ("i", 1), ("j", 0),
        ("k", 1), ("l", 1), ("m", 0), ("n", 1), ("o", 1), ("y", 1), ("z", 0), ("r", 1), ("s", 1), ("t", 1),
        ("v", 0), ("x", 0)}


def test_relevance_on_toy_programs() -> None:
    """What the analysis keeps, on programs small enough to see by eye."""
    from clingo import Function, Number

    stms, rel = _toy("q(X) :- p(X). r(X) :- q(X). z :- w. s(X) :- p(X), kind(X, big). #show r/1. #show s/1.")
    kept = lambda facts: [str(stms[i]) for i in rel.live(rel.domain(facts)) if stms[i].ast_type.name == "Rule"]
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


def _simplified_rules(text: str, facts: list) -> list[str]:
    from aslrules.fast.relevance import simplified

    stms, rel = _toy(text)
    keep, _, edits = rel.simplify(rel.domain(facts))
    return [str(simplified(stms[i], edits[i]) if i in edits else stms[i]) for i in keep
            if stms[i].ast_type.name == "Rule"]


def test_relevance_simplifies_the_rules_it_keeps() -> None:
    """A kept rule loses the literals that always hold for the facts (`not p(...)` where nothing
    can derive a matching p) and the aggregate elements that never count; an aggregate left with
    no element, or only numbers (#max, #min), becomes its value compared with its guards.  Where a
    matching atom may exist, the rule stays as it is.  The answers are the same either way."""
    from clingo import Function, Number

    text = ("r(X) :- p(X), not q(X), not k(X,big). "
            "c(X,N) :- p(X), N = #count { Y: q(Y) }. "
            "m(X,N) :- p(X), N = #max { 0; Y: q(Y) }, N < 5. "
            "s(X,N) :- p(X), N = #sum { 1,Y: q(Y); 2,Y: p(Y) }. "
            "t(X) :- p(X), 1 <= #count { Y: q(Y) } <= 3. "
            "k(X,small) :- p(X). "
            "#show r/1. #show c/2. #show m/2. #show s/2. #show t/1.")
    p1 = [("p", (Number(1),))]
    assert _simplified_rules(text, p1) == [
        "r(X) :- p(X).",  # no q at all, and k only `small`
        "c(X,N) :- p(X); N = 0.",
        "m(X,N) :- p(X); N = 0; N < 5.",
        "s(X,N) :- p(X); N = #sum { 2,Y: p(Y) }.",
        "t(X) :- p(X); 1 <= 0; 0 <= 3.",  # both guards
        "k(X,small) :- p(X).",
    ]
    with_q = [*p1, ("q", (Number(2),))]  # a q fact: every literal and element over q may matter
    assert _simplified_rules(text, with_q) == [
        "r(X) :- p(X); not q(X).",
        "c(X,N) :- p(X); N = #count { Y: q(Y) }.",
        "m(X,N) :- p(X); N = #max { 0; Y: q(Y) }; N < 5.",
        "s(X,N) :- p(X); N = #sum { 1,Y: q(Y); 2,Y: p(Y) }.",
        "t(X) :- p(X); 1 <= #count { Y: q(Y) } <= 3.",
        "k(X,small) :- p(X).",
    ]
    with_k = [*p1, ("k", (Number(1), Function("big")))]  # a `big` k may match
    assert _simplified_rules(text, with_k)[0] == "r(X) :- p(X); not k(X,big)."
    for facts in (p1, with_q, with_k):  # the same answers as the program unsimplified
        answers = []
        for rules in (_simplified_rules(text, facts), [text]):
            ctl = clingo.Control(["--warn=none"])
            ctl.add("base", [], " ".join(rules) + " #show r/1. #show c/2. #show m/2. #show s/2. #show t/1.")
            ctl.add("base", [], "".join(f"{Function(n, list(a))}." for n, a in facts))
            ctl.ground([("base", [])])
            with ctl.solve(yield_=True) as handle:
                answers.append(sorted(map(str, next(iter(handle)).symbols(shown=True))))
        assert answers[0] == answers[1]


def test_a_rule_its_simplification_leaves_false_is_dropped_with_what_only_it_derives() -> None:
    """`N = #max { Y: q(Y) }, N > 0` with no q becomes `N = #inf; N > 0`, which holds never: the
    rule goes (engine: the analysis again without it), and so does a rule that reads only what it
    derives; with a q fact both stay.  A comparison of values that holds, or one still open,
    keeps its rule."""
    from clingo import Number

    from aslrules.fast.relevance import never_holds, simplified

    text = "m(X,N) :- p(X), N = #max { Y: q(Y) }, N > 0. u(X) :- m(X,_). v(X) :- p(X). #show u/1. #show v/1."
    stms, rel = _toy(text)
    m, u = (next(i for i, x in enumerate(stms) if str(x).startswith(h)) for h in ("m(", "u("))
    p1 = rel.domain([("p", (Number(1),))])
    keep, _, edits = rel.simplify(p1)
    assert str(simplified(stms[m], edits[m])) == "m(X,N) :- p(X); N = #inf; N > 0."
    dead = {i for i, e in edits.items() if never_holds(simplified(stms[i], e))}
    assert dead == {m}
    assert [str(stms[i]) for i in rel.simplify(p1, dead)[0] if stms[i].ast_type.name == "Rule"] == ["v(X) :- p(X)."]
    keep, _, edits = rel.simplify(rel.domain([("p", (Number(1),)), ("q", (Number(2),))]))
    assert {m, u} <= set(keep) and not any(never_holds(simplified(stms[i], e)) for i, e in edits.items())
    for rule, never in (("a(X) :- p(X), N = 0, N < 5.", False), ("a(X) :- p(X), 1 <= 0.", True),
                        ("a(X) :- p(X), N = #sup, X < N.", False), ("a(X,N) :- p(X), N = 2, N != 2.", True)):
        assert never_holds(_toy(rule)[0][-1]) is never, rule


def test_relevance_tells_strings_apart_and_reads_comparisons_with_values() -> None:
    """A string is a value of its own (a weapon kind "LMG" is not an "PF"), and `X = v`, `X = (v;w)`
    and `X != v` are tested against the values X may take: a rule they make false for every such
    value cannot fire.  (Numbers stay one token: arithmetic makes them.)"""
    from clingo import Function, Number, String

    text = ('pf(W) :- kind(W,K), K = ("PF";"PFk"). mg(W) :- kind(W,K), mg_kind(K). mg_kind("LMG";"MMG"). '
            'not_now(P) :- phase(P), P != mph. out(W) :- kind(W,"PF"). '
            '#show pf/1. #show mg/1. #show not_now/1. #show out/1.')
    stms, rel = _toy(text)
    heads = lambda facts: sorted(str(stms[i].head) for i in rel.live(rel.domain(facts))
                                 if stms[i].ast_type.name == "Rule" and stms[i].body)
    lmg = [("kind", (String("w1"), String("LMG"))), ("phase", (Function("mph"),))]
    assert heads(lmg) == ["mg(W)"]
    pf = [("kind", (String("w1"), String("PF"))), ("phase", (Function("dfph"),))]
    assert heads(pf) == ["not_now(P)", "out(W)", "pf(W)"]  # "PF" is no mg_kind
    # a `#const` name is its value, not a constant: `P != n` with n = 3 is no test of `n`
    stms, rel = _toy("#const n = 3. a(P) :- p(P), P != n. #show a/1.")
    assert any(str(stms[i]).startswith("a(P)") for i in rel.live(rel.domain([("p", (Function("n"),))])))
    # numbers: one token for all, so a number compared with a value keeps its rule
    stms, rel = _toy("a(X) :- n(X), X != 2. #show a/1.")
    assert rel.live(rel.domain([("n", (Number(2),))])) != [i for i, x in enumerate(stms) if x.ast_type.name != "Rule"]


def _views_answer(text: str, facts: str) -> tuple[list[str], list[str], list[str]]:
    """The program's shown atoms grounded as it is, and with its renaming rules applied as the atoms
    are read (aslrules/fast/views.py); and the rules left to ground."""
    from clingo import ast

    from aslrules.fast.views import Views
    from aslrules.symbols import symbol_value

    stms: list = []
    ast.parse_string(text, stms.append)
    views = Views(stms)
    answers = [[symbol_value(x) for x in _toy_model(program, facts)] for program in (stms, views.program)]
    return shown(answers[0]), shown(views.apply(answers[1])), [str(x) for x in views.program
                                                                if x.ast_type.name == "Rule"]


def test_renaming_rules_applied_as_the_atoms_are_read() -> None:
    """`h(..) :- b(..).` whose head only is shown is left out of the grounding and applied to the b
    atoms read: a body value to match, a variable met twice, functions and tuples in the head, a
    variable left out (two b atoms, one h atom), a head another rule also makes (one atom).  A rule
    whose head is read by a rule, or with a second literal, stays."""
    text = ("fig(Q,fp,fp(V)) :- fp(Q,V). fig(Q,half,(X,)) :- half(Q,X,X). fig(Q,zero,none) :- half(Q,0,Y). "
            "role(Q,firer,F) :- opt(Q,F,O). fig(Q,fp,fp(1)) :- q(Q). used(Q) :- mid(Q,V). mid(Q,V) :- fp(Q,V). "
            "fig(Q,two,V) :- fp(Q,V), V > 2. "
            "#show fig/3. #show role/3. #show used/1. #show mid/2.")
    facts = "q(1). q(2). fp(1,1). fp(2,5). half(1,3,3). half(2,0,4). opt(1,f,a). opt(1,f,b). opt(2,g,a)."
    plain, viewed, left = _views_answer(text, facts)
    assert viewed == plain
    assert left == ["mid(Q,V) :- fp(Q,V).", "fig(Q,two,V) :- fp(Q,V); V > 2."]  # read by `used`; two literals
    assert plain.count("role(1,firer,f)") == 1 and plain.count("fig(1,fp,fp(1))") == 1
    # a program that shows terms, or shows no signature, is left as it is
    for other in ("a(X) :- b(X). #show a/1. #show c(X) : b(X).", "a(X) :- b(X)."):
        assert _views_answer(other, "b(1).")[2] == ["a(X) :- b(X)."]


# --------------------------------------------------------------------------- clingo's C functions


def _atoms_after(facts, case, direct: bool, keep=None) -> list[str]:
    from aslrules.symbols import Facts

    ctl = clingo.Control(["--warn=none"])
    with ctl.backend() as backend:
        capi.add_facts(backend, Facts.of(facts).table, case, keep=keep, direct=direct)
    ctl.ground([("base", [])])
    return sorted(str(a.symbol) for a in ctl.symbolic_atoms)


def test_facts_through_the_c_api_equal_facts_through_the_python_api() -> None:
    """capi.add_facts through clingo's C functions (each signature's arguments in one C array) adds
    exactly the atoms the public Backend API adds, with and without a case argument, for wide
    facts and facts with no argument, for facts the cases of a batch share, and when only some
    predicates are kept."""
    from clingo import Function, Number, String

    from aslrules.symbols import Facts

    assert capi.AVAILABLE, f"clingo {clingo.__version__}: the C path is not in use"
    wide = ("wide", tuple(Number(k) for k in range(40)))
    for sit in SITUATIONS[::10]:
        facts = [*build_facts(sit).facts, wide, ("title", (String('x"). #false. y("'),)), ("c", (Function("k"),)),
                 ("flag", ())]
        for case in (None, Number(3)):
            assert _atoms_after(facts, case, True) == _atoms_after(facts, case, False)
        batch = {}
        for direct in (True, False):  # shared facts: once for the batch, without a case argument
            shared = capi.Shared({("hex", 4), ("wide", 40)})
            ctl = clingo.Control(["--warn=none"])
            for case in (Number(1), Number(2)):
                with ctl.backend() as backend:
                    capi.add_facts(backend, Facts.of(facts).table, case, shared=shared, direct=direct)
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
    """capi.read_atoms (C functions) and symbols.read_atoms (public API) read the same values;
    a Term prints as clingo prints the symbol, and sorts as clingo sorts symbols."""
    from clingo import Function, Number, String

    from aslrules import symbols

    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], 'p(-3;0;7). p("a";"b\\"c\\n\\\\";""). p(k;f(1);f(x,"y");(1,);(1,2);g((a,b),fp(672))).')
    ctl.ground([("base", [])])
    syms = [a.symbol for a in ctl.symbolic_atoms]
    syms += [Function("q", [String(k)]) for k in ('x"). #false. y("', "é", "\\")]
    direct = capi.read_atoms(syms)
    public = symbols.read_atoms(syms)
    assert direct == public == capi.read_atoms(syms, direct=False)
    assert [str(t) for t in direct] == [str(s) for s in syms]
    assert sorted(direct, key=symbols.sort_key) == [symbols.symbol_value(s) for s in sorted(syms)]
    assert capi.read_atoms([Number(-5)]) == [-5]


def test_a_models_symbols_read_after_its_control_is_freed_are_the_same() -> None:
    """capi.model_symbols takes a model's shown symbols (C: one array of codes); read after the
    Control is freed (clingo keeps symbols for the process's life), with the heap's free memory
    given back, they read as the public API reads them while the model is there."""
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], 'p(1..3). q(X,"s",f(X,(X,a))) :- p(X). #show q/3. #show p/1.')
    ctl.ground([("base", [])])
    with ctl.solve(yield_=True) as handle:
        model = next(iter(handle))
        public = symbols_read(model.symbols(shown=True))
        direct, plain = capi.model_symbols(model), capi.model_symbols(model, direct=False)
    del ctl, handle, model
    capi.give_back_memory()
    assert capi.read_symbols(direct) == capi.read_symbols(plain, direct=False) == public and len(public) == 6


def test_values_read_are_kept_between_models_and_threads_read_apart(monkeypatch) -> None:
    """The C reader keeps the values it read for the next model (a code is one symbol for the
    process's life) and drops them past `capi.KNOWN`: models read one after another, and four
    threads reading at once, read as the public API reads them."""
    import threading

    monkeypatch.setattr(capi, "KNOWN", 50)
    ctl = clingo.Control(["--warn=none"])
    ctl.add("base", [], 'p(1..300). q(X,"s",f(X,(X,a)),"t") :- p(X). r(X,"u",g(X)) :- p(X), X < 40.')
    ctl.ground([("base", [])])
    syms = [a.symbol for a in ctl.symbolic_atoms]
    public = symbols_read(syms)
    parts = [syms[:40], syms[20:90], syms, syms[::-7]]
    expected = [symbols_read(part) for part in parts]
    assert [capi.read_symbols([s._rep for s in part]) for part in parts] == expected
    results: list = []

    def read() -> None:
        results.append([capi.read_atoms(syms) for _ in range(5)])

    threads = [threading.Thread(target=read) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [[public] * 5] * 4


def test_the_c_path_is_used_on_verified_clingo_versions_only(monkeypatch) -> None:
    """On a clingo it was not verified on (6.x renames the private bindings), capi falls back to the
    public API, and the accelerated solver gives the same answers."""
    assert capi.supported("5.8.3") and capi.supported("5.7.0")
    assert not capi.supported("6.0.0") and not capi.supported("5.6.2") and not capi.supported("weird")
    monkeypatch.setattr(clingo, "__version__", "6.0.0")
    try:
        other = importlib.reload(capi)
        assert not other.AVAILABLE
        solver = Accelerated()
        assert not solver.direct
        facts = [f for f, s in zip(FACTS, SITUATIONS) if s.expect][:10]
        assert [shown(x) for x in solver.solve_many(facts)] == [shown(FAST.solve(f)) for f in facts]
    finally:
        monkeypatch.undo()
        importlib.reload(capi)
    assert capi.AVAILABLE


def test_answers_are_the_same_read_either_way() -> None:
    """Whole answers (verdicts, figures, reasons in their order) do not depend on the reading path."""
    from aslrules.core import ask

    public = Accelerated(direct=False)
    for sit in [SITUATIONS[k] for k in SAMPLE if SITUATIONS[k].data.input_error is None]:  # (ask refuses those)
        assert ask(sit, eng=FAST) == ask(sit, eng=public), sit.path
    sit = load_file(ROOT / "examples" / "berserk_charge.yaml")
    assert ask(sit, eng=FAST) == ask(sit, eng=PLAIN)


def write_golden() -> None:
    import json

    data = dict(zip(NAMES, plain_digests(list(range(len(NAMES))))))
    GOLDEN.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(data)} golden answers in {GOLDEN}")


if __name__ == "__main__":
    import sys

    if "--golden" in sys.argv:
        write_golden()
