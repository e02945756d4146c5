"""Benchmark (not a test): how fast aslrules answers, against the targets of issue 2.

    python bench/run.py [--quick]

For a 20-unit and a 500-unit generated situation (units spread over one board, one
moving stack, one declared attack):

* load: reading the YAML file (the loader);
* warm: ms per question in process (the solver kept, N repeats): the median, on which the
  target is judged, and the fastest repeat (what the code costs while the machine runs at
  its best: its speed changes over minutes); the median split into building the facts,
  solving (pruning the KB to the rules that may fire, Control, ProgramBuilder, backend
  facts, ground, solve) and reading the answers;
  every repeat takes each of these measures and the clingo-alone ones in turn, so
  that their ratios compare like with like when the machine's speed changes; within a
  repeat each measure runs twice in a row and the second run is the one measured, as a
  process answering questions one after another runs them: the first run after other
  work pays for the caches and the allocator that work left behind (a question right
  after the full-KB clingo-alone run took 13.2 ms against 10.3-10.9 ms after another
  question, medians of 40 in one process, 2026-11-22); that first run is shown too, as
  "right after other work";
* clingo alone: the same question given to a plain clingo.Control by a one-off script
  (ctl.load of the KB files, the facts as text, ground, solve); and again with only the
  rules and facts aslrules itself grounds (its pruned program), the fairer baseline;
  each ratio is the warm Python total over that;
* cold: median of 5 `python -m aslrules check FILE` runs of that one case (the KB
  analysis is cached in ~/.cache/aslrules after the first run), and the largest peak
  resident memory of those processes;

and, for a batch of 1,000 cases (tests/cases taken in turn, and generated 20-unit
cases), cases per second through aslrules.core.check (100 cases per grounding, the cases
loaded already) and through core.check_files (the same cases as files, loaded too, as
`aslrules check` does), in one process and in one worker process per CPU; last,
`aslrules check tests/cases` in a new process, loading included, with one process and
with the default workers: time and peak memory.

Last, the listing (`aslrules ask FILE --format json` of a situation with no question: every
DEFENDER fire option) of generated situations at 30, 60, 120 and 250 units a side, in the MPh
and the DFPh (`listing_situation`), each in a new process: CPU seconds (user + system, with and
without start-up), peak memory, the number of answers, and the fitted growth exponents of the
CPU time and of the answers (`--listing` runs only these rows).  Run it with aslrules installed
(`pip install .`): an editable checkout where PYTHONDONTWRITEBYTECODE is set compiles every
module in every new process (docs/performance.md "Measuring").

Only the standard library and aslrules (and clingo, which aslrules runs on).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import clingo

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the source tree's aslrules, installed or not

from aslrules.answers import read_answers
from aslrules.core import ask, build_facts, check, check_files, engine, iter_case_files
from aslrules.loader import load_file, load_text
from aslrules.solve import kb_files

COLUMNS = [chr(c) for c in range(ord("A"), ord("Z") + 1)] + [chr(c) * 2 for c in range(ord("A"), ord("G") + 1)]
# every hex of the board but those of the declared attack (D4 -> D5, entered from D6)
HEXES = [f"{c}{r}" for i, c in enumerate(COLUMNS) for r in range(1 if i % 2 == 0 else 0, 11)
         if f"{c}{r}" not in ("D4", "D5", "D6")]
TERRAIN = ["{terrain: woods, tem: 1}", "{terrain: stone building, tem: 3}", "{terrain: wooden building, tem: 2}",
           "{terrain: grain, tem: 0}"]


def situation(n_units: int, seed: int) -> str:
    """A situation of n_units spread over one board: half German (the DEFENDER), half Russian,
    one Russian squad moving into D5, and a German 4-6-7 with a LMG in D4 firing at it."""
    rng = random.Random(seed)
    lines = [f"title: bench {n_units} units, seed {seed}", "source: bench/run.py (generated)",
             "phase: MPh", "attacker: russian", "locations:"]
    for h in rng.sample(HEXES, 30):
        lines.append(f"  {h}: {rng.choice(TERRAIN)}")
    lines.append("lines_of_sight:")
    for _ in range(10):
        a, b = rng.sample(HEXES, 2)
        lines.append(f"  - {{from: {a}, to: {b}, hindrance: {rng.randint(1, 3)}}}")
    lines.append("units:")
    lines.append("  - {id: g-fire, side: german, type: squad, counter: 4-6-7, hex: D4, "
                 "weapons: [{id: g-fire-lmg, kind: LMG, fp: 3, range: 8, rof: 1, breakdown: 11}]}")
    lines.append("  - {id: g-lead, side: german, type: leader, counter: 8-1, hex: D4}")
    lines.append("  - {id: r-move, side: russian, type: squad, counter: 6-2-8, hex: D5, "
                 "moving: {from: D6, mf_here: 1}}")
    for k in range(n_units - 3):
        hex_ = rng.choice(HEXES)
        if k % 2 == 0:
            weapons = f", weapons: [{{id: g{k}-mg, kind: LMG, fp: 3, range: 8, rof: 1, breakdown: 11}}]" \
                if k % 6 == 0 else ""
            fire = rng.choice(["", "", "", ", fire: first_fire"])
            lines.append(f"  - {{id: g{k}, side: german, type: squad, counter: 4-6-7, hex: {hex_}{fire}{weapons}}}")
        else:
            lines.append(f"  - {{id: r{k}, side: russian, type: squad, counter: 4-4-7, hex: {hex_}}}")
    lines += ["expect:",
              "  - attack: {option: first_fire, firers: [g-fire, g-fire-lmg], director: g-lead, targets: [r-move]}",
              "    verdict: allowed", "    fp: 14", "    ift_column: 12", "    drm: -3"]
    return "\n".join(lines) + "\n"


# The listing's DEFENDER units, in turn: (type, counter, its weapon or None)
_LIST_GERMANS = [("squad", "4-6-7", "LMG"), ("squad", "4-6-7", None), ("leader", "8-1", None),
                 ("half_squad", "2-4-7", None), ("crew", "2-2-8", "HMG"), ("squad", "4-6-7", "MMG"),
                 ("squad", "4-6-7", None), ("half_squad", "2-4-7", "LMG"), ("squad", "4-6-7", None),
                 ("leader", "9-2", None)]
_LIST_RUSSIANS = [("squad", "4-4-7", None), ("squad", "4-4-7", "LMG"), ("half_squad", "2-3-7", None),
                  ("leader", "8-0", None), ("crew", "2-2-8", "MMG"), ("squad", "4-4-7", None)]
_WEAPONS = {"LMG": "fp: 3, range: 8, rof: 1, breakdown: 11", "MMG": "fp: 4, range: 10, rof: 2, breakdown: 12",
            "HMG": "fp: 5, range: 12, rof: 3, breakdown: 12"}


def listing_situation(per_side: int, phase: str, seed: int) -> str:
    """A situation with no question (`aslrules ask` lists every DEFENDER fire option): per_side
    German (DEFENDER) and per_side Russian units over one board, clear LOS everywhere: squads,
    half-squads, crews and leaders, LMG/MMG/HMG; some Germans marked First Fire.  In the MPh one
    Russian squad moves into D5 from D6; in the DFPh every Russian Location is a target."""
    rng = random.Random(seed)
    lines = [f"title: listing {per_side} units a side, {phase}, seed {seed}", "source: bench/run.py (generated)",
             f"phase: {phase}", "attacker: russian", "locations:"]
    for h in rng.sample(HEXES, 40):
        lines.append(f"  {h}: {rng.choice(TERRAIN)}")
    lines.append("units:")
    for side, table in (("german", _LIST_GERMANS), ("russian", _LIST_RUSSIANS)):
        for k in range(per_side):
            kind, counter, weapon = table[k % len(table)]
            uid = f"{side[0]}{k}"
            fire = ", fire: first_fire" if side == "german" and phase == "MPh" and kind != "leader" \
                and rng.random() < 0.25 else ""
            if side == "russian" and k == 0:
                hex_, move = "D5", ", moving: {from: D6, mf_here: 1}"
            else:
                hex_, move = rng.choice(HEXES), ""
            weapons = f", weapons: [{{id: {uid}-w, kind: {weapon}, {_WEAPONS[weapon]}}}]" if weapon else ""
            lines.append(f"  - {{id: {uid}, side: {side}, type: {kind}, counter: {counter}, hex: {hex_}"
                         f"{fire}{move}{weapons}}}")
    return "\n".join(lines) + "\n"


def facts_text(sit) -> str:
    """The situation's facts as program text: a one-off for the clingo-alone baseline only
    (aslrules itself never formats facts into text)."""
    return "".join(f"{clingo.Function(p, list(args))}.\n" for p, args in build_facts(sit).facts)


def pruned_program(sit) -> tuple[str, str]:
    """What aslrules grounds for the situation's question, as program text: the rules its
    relevance analysis keeps (aslrules/fast/relevance.py) and the facts they may read.  For the
    clingo-alone baseline only."""
    from aslrules.fast import solver

    facts = build_facts(sit).facts
    program, needed = solver(accelerate=True).pruned(facts)
    text = "".join(f"{clingo.Function(p, list(a))}.\n" for p, a in facts if needed is None or (p, len(a)) in needed)
    return "\n".join(str(s) for s in program), text


def clingo_alone(files: list[str], facts: str) -> int:
    ctl = clingo.Control(["--warn=none"])
    for f in files:
        ctl.load(f)
    ctl.add("base", [], facts)
    ctl.ground([("base", [])])
    n = 0
    with ctl.solve(yield_=True) as handle:
        for m in handle:
            n = len(m.symbols(shown=True))
            break
    return n


# `python -m aslrules ARGS`, reporting its peak resident memory at exit.  VmHWM (Linux) is the
# peak of the process's own memory; the rusage of a child (ru_maxrss) would also count the bench
# process it was forked from.
_CLI = """
import atexit, os, runpy, sys
def _peak():
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    sys.stderr.write("\\nbench-peak-kib " + line.split()[1] + "\\n")
    except OSError:
        pass
atexit.register(_peak)
_exit = os._exit
def _exit_reporting(code):  # `ask` and `check` end the process at once (aslrules/cli.py _done)
    _peak()
    sys.stderr.flush()
    _exit(code)
os._exit = _exit_reporting
sys.argv = ["aslrules", *sys.argv[1:]]
runpy.run_module("aslrules", run_name="__main__")
"""


# `python -m aslrules ARGS` with its standard output thrown away, reporting its CPU seconds after
# start-up (Python, the imports and the cached KB: what every command pays) and its peak memory.
_LISTING_CLI = """
import atexit, os, resource, runpy, sys, time
import aslrules.core, aslrules.cli, aslrules.render
aslrules.core.engine()
start = time.process_time()
def _report():
    sys.stdout.flush()
    peak = 0
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                peak = int(line.split()[1])
    sys.stderr.write(f"\\nbench-listing {time.process_time() - start} {peak}\\n")
atexit.register(_report)
_exit = os._exit
def _exit_reporting(code):  # `ask` ends the process at once (aslrules/cli.py _done)
    _report()
    sys.stderr.flush()
    _exit(code)
os._exit = _exit_reporting
sys.argv = ["aslrules", *sys.argv[1:]]
runpy.run_module("aslrules", run_name="__main__")
"""


def run_listing(path: str) -> dict[str, float]:
    """`aslrules ask FILE --format json` (no questions: the listing) in a new process: its CPU seconds
    (user + system, start-up included), those after start-up, its peak memory (MiB) and the number
    of answers listed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run([sys.executable, "-c", _LISTING_CLI, "ask", path, "--format", "json"],
                       capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise SystemExit(f"bench listing {path} failed:\n{r.stderr}")
    cpu, peak = next(line.split()[1:] for line in r.stderr.splitlines() if line.startswith("bench-listing "))
    total = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"cpu": total, "listing": float(cpu), "rss": int(peak) / 1024,
            "answers": len(json.loads(r.stdout)["answers"])}


def growth(sizes: list[int], values: list[float]) -> float:
    """The exponent k of the least-squares fit values ~ c * sizes**k (on a log-log scale)."""
    xs, ys = [math.log(x) for x in sizes], [math.log(y) for y in values]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


LISTING_SIZES = (30, 60, 120, 250)


def listings(repeats: int, tmp: Path) -> dict[str, dict[int, dict[str, float]]]:
    """Each phase's listing at LISTING_SIZES units a side, `repeats` runs each (one size after the
    other within a repeat): per size the min and median of each measure."""
    paths = {}
    for phase in ("MPh", "DFPh"):
        for n in LISTING_SIZES:
            paths[phase, n] = str(tmp / f"listing_{phase}_{n}.yaml")
            Path(paths[phase, n]).write_text(listing_situation(n, phase, seed=n), encoding="utf-8")
    runs: dict[tuple[str, int], list[dict[str, float]]] = {key: [] for key in paths}
    for _ in range(repeats):
        for key, path in paths.items():
            runs[key].append(run_listing(path))
    out: dict[str, dict[int, dict[str, float]]] = {}
    for (phase, n), rs in runs.items():
        row = {f"{k}_min": min(r[k] for r in rs) for k in ("cpu", "listing", "rss")}
        row.update({f"{k}_median": statistics.median(r[k] for r in rs) for k in ("cpu", "listing", "rss")})
        row["answers"] = rs[0]["answers"]
        out.setdefault(phase, {})[n] = row
    return out


def print_listings(rows: dict[str, dict[int, dict[str, float]]], repeats: int) -> None:
    print(f"\nlisting every fire option (`aslrules ask FILE --format json`, no questions), new process, "
          f"min / median of {repeats}:")
    print(f"  {'':6}{'units a side':>13}{'answers':>9}{'CPU s':>16}{'after start-up':>18}{'peak MiB':>16}")
    for phase, by_n in rows.items():
        for n, r in by_n.items():
            print(f"  {phase:6}{n:>13}{r['answers']:>9}{r['cpu_min']:>8.2f} /{r['cpu_median']:>6.2f}"
                  f"{r['listing_min']:>10.2f} /{r['listing_median']:>6.2f}{r['rss_min']:>8.0f} /{r['rss_median']:>6.0f}")
        sizes = list(by_n)
        k_cpu = growth(sizes, [by_n[n]["listing_median"] for n in sizes])
        k_ans = growth(sizes, [by_n[n]["answers"] for n in sizes])
        print(f"  {phase:6} growth exponent: CPU after start-up {k_cpu:.2f}, answers {k_ans:.2f}")
    dfph, mph = rows.get("DFPh", {}), rows.get("MPh", {})
    if 120 in dfph and 250 in dfph and mph:
        d120, d250 = dfph[120], dfph[250]
        k_m = growth(list(mph), [r["listing_median"] for r in mph.values()])
        k_d = growth(list(dfph), [r["listing_median"] for r in dfph.values()])
        k_a = growth(list(dfph), [r["answers"] for r in dfph.values()])

        def ok(good: bool) -> str:
            return "ok" if good else "MISSED"

        print(f"  targets: DFPh at 120 <= 3 s and <= 400 MB: {ok(d120['cpu_median'] <= 3)} / "
              f"{ok(d120['rss_median'] <= 400 * 1e6 / 2**20)}; MPh exponent <= 1.3: {ok(k_m <= 1.3)}; "
              f"DFPh exponent <= answers' + 0.2: {ok(k_d <= k_a + 0.2)}; DFPh at 250 < 30 s and < 1.5 GB: "
              f"{ok(d250['cpu_median'] < 30)} / {ok(d250['rss_median'] < 1.5e9 / 2**20)}")


def run_cli(*args: str) -> tuple[float, float | None]:
    """`python -m aslrules ARGS` in a new process: wall ms, and its peak resident memory in MiB
    (None where /proc is not there to tell)."""
    t = time.perf_counter()
    r = subprocess.run([sys.executable, "-c", _CLI, *args], capture_output=True, text=True)
    ms = (time.perf_counter() - t) * 1000
    if r.returncode != 0:
        raise SystemExit(f"bench run {args} failed:\n{r.stdout}{r.stderr}")
    peak = [line.split()[1] for line in r.stderr.splitlines() if line.startswith("bench-peak-kib ")]
    return ms, int(peak[-1]) / 1024 if peak else None


def cold_cli(path: str, repeats: int) -> tuple[float, float | None]:
    """Median wall ms of `check FILE` in a new process, and the largest peak memory seen."""
    runs = [run_cli("check", path) for _ in range(repeats)]
    rss = [r for _, r in runs if r is not None]
    return statistics.median(ms for ms, _ in runs), max(rss) if rss else None


def measure_situation(n_units: int, repeats: int, tmp: Path) -> dict[str, float]:
    text = situation(n_units, seed=n_units)
    path = tmp / f"bench_{n_units}.yaml"
    path.write_text(text, encoding="utf-8")
    sit = load_file(path)
    eng = engine()
    answers = ask(sit, eng=eng)  # warm up, and check the answer is the expected one
    assert answers[0].verdict == "allowed" and answers[0].figure("fp") == 14, answers[0]
    facts = build_facts(sit).facts
    symbols = eng.solve(facts)
    files = [str(f) for f in kb_files()]
    ftext = facts_text(sit)
    # the same, given only the rules and facts aslrules grounds (its relevance pruning)
    program, ptext = pruned_program(sit)
    with tempfile.NamedTemporaryFile("w", suffix=".lp", delete=False) as f:
        f.write(program)
    # Each repeat takes every measure in turn, so that all of them, and so their ratios, see the
    # same speed of the machine (it changes by up to 1.7x over minutes on this kind of machine);
    # each runs twice in a row, the second run measured (the first: see the docstring).
    measures: dict[str, Callable[[], object]] = {
        "load": lambda: load_text(text, str(path)),
        "warm": lambda: ask(sit, eng=eng),
        "facts": lambda: build_facts(sit),
        "solve": lambda: eng.solve(facts),
        "read": lambda: read_answers(symbols),
        "clingo": lambda: clingo_alone(files, ftext),
        "clingo_pruned": lambda: clingo_alone([f.name], ptext),
    }
    times: dict[str, list[float]] = {k: [] for k in measures}
    first: dict[str, list[float]] = {k: [] for k in measures}  # each measure's first run in a repeat
    try:
        for _ in range(repeats):
            for key, fn in measures.items():
                for into in (first, times):
                    t = time.perf_counter()
                    fn()
                    into[key].append((time.perf_counter() - t) * 1000)
    finally:
        os.unlink(f.name)
    row: dict[str, float | None] = {k: statistics.median(v) for k, v in times.items()}
    # the fastest repeat: what the code costs when the machine runs at its best (timeit's reading)
    row["warm_fastest"] = min(times["warm"])
    row["warm_first"] = statistics.median(first["warm"])
    row["clingo_pruned_fastest"] = min(times["clingo_pruned"])
    row["ratio"] = row["warm"] / row["clingo"]
    row["ratio_pruned"] = row["warm"] / row["clingo_pruned"]
    row["cold"], row["cold_rss"] = cold_cli(str(path), 5)
    return row


def measure_batch(sits: list, paths: list[str], workers: int) -> dict[str, float]:
    """Cases per second through core.check (cases loaded already), and through core.check_files
    (what `aslrules check` runs: the files loaded too, by the workers)."""
    check(sits[:10], workers=1)  # warm (the batch rewrite of the KB is made once per process)
    t = time.perf_counter()
    outcomes = check(sits, workers=workers)
    t_check = time.perf_counter() - t
    failed = [o for o in outcomes if not o.passed]
    assert not failed, (failed[0].situation.path, failed[0].mismatches)
    t = time.perf_counter()
    report = check_files(paths, workers=workers)
    t_files = time.perf_counter() - t
    assert report.failed == 0 and report.passed == len(outcomes), report.failures[:1]
    return {"cps": len(sits) / t_check, "files_cps": len(paths) / t_files}


def batches(n_cases: int, tmp: Path) -> dict[str, dict[str, float]]:
    """Cases per second for n_cases generated 20-unit cases, and for n_cases taken in turn
    from tests/cases (what a curator checks), in one process and in worker processes."""
    texts = [situation(20, seed=1000 + k) for k in range(n_cases)]
    generated = [load_text(x, f"case{k}.yaml") for k, x in enumerate(texts)]
    generated_paths = []
    for k, x in enumerate(texts):
        generated_paths.append(str(tmp / f"case{k:04}.yaml"))
        Path(generated_paths[-1]).write_text(x, encoding="utf-8")
    root = Path(__file__).resolve().parent.parent / "tests" / "cases"
    files = iter_case_files([str(root)])
    examples = [load_file(f) for f in files]
    examples = [examples[k % len(examples)] for k in range(n_cases)]
    example_paths = [files[k % len(files)] for k in range(n_cases)]
    cpus = os.cpu_count() or 1
    out = {}
    for name, sits, paths in (("tests/cases", examples, example_paths),
                              ("generated 20-unit", generated, generated_paths)):
        default = min(cpus, 4)  # what `aslrules check` uses: one worker process per CPU, at most 4
        for workers in sorted({1, default}):
            row = measure_batch(sits, paths, workers)
            row["default"] = workers == default
            out[f"{name}, {workers} process{'es' if workers > 1 else ''}"] = row
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="fewer repeats and a batch of 200 cases")
    p.add_argument("--listing", action="store_true", help="only the listing rows")
    args = p.parse_args()
    repeats = 5 if args.quick else 21
    n_cases = 200 if args.quick else 1000
    list_repeats = 1 if args.quick else 3
    if args.listing:
        with tempfile.TemporaryDirectory() as d:
            print_listings(listings(list_repeats, Path(d)), list_repeats)
        return
    print(f"aslrules bench: clingo {clingo.__version__}, Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} CPUs, {len(kb_files())} KB files, median of {repeats} (cold: of 5)")
    with tempfile.TemporaryDirectory() as d:
        rows = {n: measure_situation(n, repeats, Path(d)) for n in (20, 500)}
        batch = batches(n_cases, Path(d))
        listed = listings(list_repeats, Path(d))

    def ok(good: bool) -> str:
        return "ok" if good else "MISSED"

    print()
    print(f"{'':34}{'20 units':>12}{'500 units':>12}   target")
    lines = [
        ("load YAML (ms)", "load"),
        ("warm question, total (ms)", "warm"),
        ("  fastest repeat (ms)", "warm_fastest"),
        ("  right after other work (ms)", "warm_first"),
        ("  build facts (ms)", "facts"),
        ("  prune+Control+ground+solve (ms)", "solve"),
        ("  read answers (ms)", "read"),
        ("clingo alone, KB files (ms)", "clingo"),
        ("Python total / clingo alone", "ratio"),
        ("clingo alone, pruned KB (ms)", "clingo_pruned"),
        ("Python total / that", "ratio_pruned"),
        ("  fastest repeat (ms)", "clingo_pruned_fastest"),
        ("cold CLI `check FILE` (ms)", "cold"),
        ("  its peak memory (MiB)", "cold_rss"),
    ]
    for label, key in lines:
        a, b = rows[20][key], rows[500][key]
        if a is None or b is None:
            print(f"{label:34}{'n/a':>12}{'n/a':>12}")
            continue
        fmt = "{:>12.2f}" if key.startswith("ratio") else "{:>12.1f}"
        target = ""
        if key == "warm":
            target = f"<= 10 ms at 20 units: {ok(a <= 10)}; <= 1000 ms at 500: {ok(b <= 1000)}"
        elif key.startswith("ratio"):
            target = f"<= 1.5x: {ok(a <= 1.5)} / {ok(b <= 1.5)}"
        elif key == "cold":
            target = f"one question at 500 units <= 1 s, cold: {ok(b <= 1000)}"
        print(f"{label:34}" + fmt.format(a) + fmt.format(b) + ("   " + target if target else ""))
    print()
    print(f"batch of {n_cases} cases (100 per grounding){'':12}core.check   target >= 500   files loaded too")
    for name, r in batch.items():
        verdict = ok(r["cps"] >= 500) if r["default"] else "(not default)"
        print(f"  {name:46}{r['cps']:>6.0f}/s   {verdict:13}   {r['files_cps']:>6.0f}/s")
    print("  the target is judged on `aslrules check`'s default: one worker process per CPU (at most 4);")
    print("  core.check takes loaded cases; core.check_files (what `aslrules check` runs) the files, each")
    print("  worker loading those it checks")
    root = Path(__file__).resolve().parent.parent / "tests" / "cases"
    n_files = len(iter_case_files([str(root)]))
    print(f"\ncold CLI `check tests/cases` ({n_files} files, loading included):")
    for jobs, note in (("1", "one process does everything"), (str(min(os.cpu_count() or 1, 4)), "the default")):
        ms, rss = run_cli("check", str(root), "--jobs", jobs)
        peak = "n/a" if rss is None else f"{rss:.0f} MiB"
        print(f"  --jobs {jobs} ({note}): {ms:.0f} ms, {n_files / ms * 1000:.0f} files/s, "
              f"peak memory {peak}{' (the parent; each worker is a fork of it)' if jobs != '1' else ''}")
    print_listings(listed, list_repeats)

if __name__ == "__main__":
    main()
