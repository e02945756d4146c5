"""Cold start (not a test): CPU time of `python -m aslrules ask FILE` in a new process.

    python bench/cold.py [--runs N] [FILE]

Two figures, each the min and median of N runs (default 7) of user + system CPU time, which
moves less with the machine's load than wall time:

* cache miss: a fresh, empty cache directory each run (XDG_CACHE_HOME), so the KB is parsed and
  analysed from scratch and the analysis written;
* cache hit: one cache directory filled by a first run, then read by every run.

FILE defaults to examples/berserk_charge.yaml.  The runs use the aslrules found
from the current directory (run it from the source tree), its modules compiled to bytecode as
`pip install` leaves them (PYTHONDONTWRITEBYTECODE is dropped, and a first run writes them).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cpu_ms(path: str, cache: str) -> float:
    """User + system CPU ms of one `ask` in a child process whose cache lives in `cache`."""
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    env.pop("ASLRULES_NO_CACHE", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run([sys.executable, "-m", "aslrules", "ask", path], env=env, capture_output=True, text=True,
                       check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise SystemExit(f"ask {path} failed:\n{r.stdout}{r.stderr}")
    return ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1000


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("file", nargs="?", default=str(ROOT / "examples" / "berserk_charge.yaml"))
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as d:
        cpu_ms(args.file, str(Path(d) / "bytecode"))  # writes the modules' bytecode
        miss = []
        for k in range(args.runs):
            miss.append(cpu_ms(args.file, str(Path(d) / f"miss{k}")))
        warm = str(Path(d) / "hit")
        cpu_ms(args.file, warm)
        hit = [cpu_ms(args.file, warm) for _ in range(args.runs)]
    print(f"`python -m aslrules ask {os.path.relpath(args.file)}`, CPU ms (user + system), {args.runs} runs:")
    for name, xs in (("cache miss", miss), ("cache hit", hit)):
        print(f"  {name:10}  min {min(xs):7.0f}   median {statistics.median(xs):7.0f}")


if __name__ == "__main__":
    main()
