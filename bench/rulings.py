"""The curator's commands timed (not a test): `aslrules rulings` on a folder, `distinguish` per pair.

    python bench/rulings.py [--runs N] [--distinguish] [FOLDER...]

* report: CPU time (user + system) of `python -m aslrules rulings FOLDER...` in a new process
  (the KB's analysis cached, as after any first run), min and median of N runs (default 5),
  with the number of rulings, cases and case runs; and, in this process, where the time goes: loading, answering the
  runs, the fit, the conflicts.  A case runs under the defaults, once more for each value of
  each reading the static analysis lets through, and under every assignment of the readings
  that changed its answers.  FOLDER defaults to tests/data/rulings/report and, when it is
  there, rulings/ (the corpus), each timed on its own; `--synthetic N` adds a folder of N
  rulings made from tests/cases (each case file a ruling, its `readings:` dropped), the size
  of the Perry Sez corpus by default (90);
* --distinguish: for every pair of values of every named reading, CPU and wall seconds of
  `python -m aslrules distinguish` in a new process, with what it found.

Only the standard library and aslrules.
"""

from __future__ import annotations

import argparse
import itertools
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def cpu_run(args: list[str]) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """(CPU s, wall s, the process) of `python -m aslrules ARGS`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "aslrules", *args], capture_output=True, text=True, cwd=ROOT)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"aslrules {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall, done


def synthetic(folder: Path, n: int) -> None:
    """N ruling files made from the repo's case files (several cases to a ruling when there are
    fewer rulings than files), as the Perry Sez corpus is: mostly one or two cases each."""
    import yaml

    files = [f for f in sorted((ROOT / "tests" / "cases").rglob("*.yaml"))  # replays state no expect: items
             if (yaml.safe_load(f.read_text(encoding="utf-8")) or {}).get("expect")]
    groups = [files[k::n] for k in range(n)]
    for k, group in enumerate(groups):
        cases = []
        rules = []
        for f in group:
            case = yaml.safe_load(f.read_text(encoding="utf-8"))
            case.pop("readings", None)
            cases.append(case)
            rules.append(f.parent.name.replace("_", ".").upper())
        ruling = {"ruling": f"S{k}", "source": "synthetic (bench/rulings.py)", "status": "current",
                  "rules": sorted(set(rules))[:3], "question": "q", "answer": "a", "cases": cases}
        (folder / f"S{k}.yaml").write_text(yaml.safe_dump(ruling, sort_keys=False), encoding="utf-8")


def profile(paths: list[str]) -> str:
    """Where the report's time goes, in this process (CPU s)."""
    from aslrules import consistency as C
    from aslrules.core import engine
    from aslrules.rulings import load_rulings

    eng = engine()
    t = time.process_time()
    rulings = load_rulings(paths)
    t_load = time.process_time() - t
    t = time.process_time()
    tables = C.run_tables(rulings, eng)
    t_run = time.process_time() - t
    by = {}
    for x in tables:
        by.setdefault(id(x.ruling), []).append(x)
    t = time.process_time()
    results = [C.judge(r, by.get(id(r), [])) for r in rulings]
    fit = C.fit(results)
    t_fit = time.process_time() - t
    t = time.process_time()
    conflicts = C.conflicts(results)
    t_conf = time.process_time() - t
    runs = sum(x.answered for x in tables)
    return (f"{len(rulings)} rulings, {len(tables)} cases, {runs} case runs; load {t_load:.2f} s, answer "
            f"{t_run:.2f} s, judge+fit {t_fit * 1000:.1f} ms, conflicts {t_conf * 1000:.1f} ms "
            f"({len(conflicts)} found; fit unique: {fit.unique})")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--synthetic", type=int, default=90, metavar="N", help="rulings in the synthetic folder (0: none)")
    p.add_argument("--distinguish", action="store_true")
    p.add_argument("folders", nargs="*")
    args = p.parse_args()
    folders = args.folders or [str(ROOT / "tests" / "data" / "rulings" / "report")] + \
        ([str(ROOT / "rulings")] if (ROOT / "rulings").is_dir() else [])
    with tempfile.TemporaryDirectory() as d:
        if args.synthetic and not args.folders:
            synthetic(Path(d), args.synthetic)
            folders.append(d)
        cpu_run(["rulings", folders[0]])  # the KB's analysis cached
        for folder in folders:
            name = "synthetic" if folder == d else os.path.relpath(folder, ROOT)
            cpus = [cpu_run(["rulings", folder])[0] for _ in range(args.runs)]
            print(f"aslrules rulings {name}: CPU s min {min(cpus):.2f}, median {statistics.median(cpus):.2f} "
                  f"({args.runs} runs, new process each)")
            print(f"  in process: {profile([folder])}")
    if args.distinguish:
        from aslrules.schema import READINGS

        for name, values in READINGS.items():
            for a, b in itertools.combinations(values, 2):
                cpu, wall, done = cpu_run(["distinguish", f"{name}={a}", f"{name}={b}"])
                print(f"distinguish {name}={a} {name}={b}: CPU {cpu:.1f} s, wall {wall:.1f} s; "
                      f"{done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ''}")


if __name__ == "__main__":
    main()
