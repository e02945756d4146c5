"""The conflicts of `aslrules rulings` two ways (not a test): our MARCO over clingo's cores
(aslrules.consistency.conflicts) and clingexplaid's (SubsetComputer.multiple: MARCO with linear
elimination, from musclingo), on the same rulings.

    python bench/mus.py [--runs N] [FOLDER...]

clingexplaid is not a dependency of aslrules: `pip install clingexplaid` to run this.  FOLDER
defaults to the synthetic 90-ruling folder of bench/rulings.py.  Prints the import time, the
minimal unsatisfiable subsets each finds (they must agree) and the CPU ms of each, min and
median of N runs.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("folders", nargs="*")
    args = p.parse_args()
    t = time.process_time()
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", "import clingexplaid.unsat"],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit("clingexplaid is not installed: pip install clingexplaid")
    own_import = [line for line in done.stderr.splitlines() if line.rstrip().endswith("clingexplaid.unsat")]
    from clingo import Function, String
    from clingexplaid.unsat import SubsetComputer

    from aslrules import consistency as C
    from aslrules.rulings import load_rulings

    with tempfile.TemporaryDirectory() as d:
        folders = args.folders
        if not folders:
            from bench.rulings import synthetic

            synthetic(Path(d), 90)
            folders = [d]
        rulings = load_rulings(folders)
        rep = C.report(rulings)
    results = rep.results
    candidates = [r for r in results if r.status == "needs_reading" and C.S.RULING_WEIGHTS[r.ruling.status] > 0]

    def ours() -> list[list[str]]:
        return sorted(sorted(r.id for r in c.rulings) for c in C.conflicts(results))

    def theirs() -> list[list[str]]:
        ctl, _ = C._control(candidates)
        sc = SubsetComputer(ctl, [(Function("holds", [String(r.id)]), True) for r in candidates])
        return sorted(sorted(a.symbol.arguments[0].string for a in mus.assumptions) for mus in sc.multiple())

    a, b = ours(), theirs()
    print(f"{len(candidates)} candidate rulings (of {len(results)}); clingexplaid import "
          f"{own_import[-1].split('|')[1].strip() if own_import else '?'} us cumulative")
    print(f"  ours:         {len(a)} MUS {a}")
    print(f"  clingexplaid: {len(b)} MUS {b}")
    print(f"  agree: {a == b}")
    for name, fn in (("ours", ours), ("clingexplaid", theirs)):
        times = []
        for _ in range(args.runs):
            t = time.process_time()
            fn()
            times.append((time.process_time() - t) * 1000)
        print(f"  {name:13} CPU ms min {min(times):.1f}, median {statistics.median(times):.1f} ({args.runs} runs)")


if __name__ == "__main__":
    main()
