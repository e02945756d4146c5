"""Instructions per warm question (not a test): what a question costs, whatever the machine's speed.

    python bench/instructions.py [--units N] [--questions K]

Wall-clock figures on this kind of machine swing by up to 1.7x over minutes (see bench/run.py),
so two sessions' milliseconds do not compare; instruction counts do.  valgrind's callgrind
counts every instruction of a process that asks bench/run.py's N-unit question K times after
warming up, and of one that only warms up; the difference over K is one warm question, Python,
clingo and the allocator included.  The same is done for clingo alone on the program aslrules
grounds for that question (its pruned KB and facts, as bench/run.py's "clingo alone, pruned
KB"), so the ratio is measured too.  Needs valgrind; four runs of about 15 s each.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent

# The child process: warm up (two questions), then `questions` more, of one kind.
_CHILD = """
import sys
sys.path.insert(0, {bench!r})
from run import clingo_alone, pruned_program, situation
from aslrules.core import ask, engine
from aslrules.loader import load_text

kind, units, questions = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
sit = load_text(situation(units, seed=units), "bench.yaml")
eng = engine()
if kind == "ask":
    run = lambda: ask(sit, eng=eng)
else:  # clingo alone on aslrules' pruned program for this question (bench/run.py)
    program, text = pruned_program(sit)
    with open(sys.argv[4], "w") as f:
        f.write(program)
    run = lambda: clingo_alone([sys.argv[4]], text)
answer = ask(sit, eng=eng)
assert answer[0].verdict == "allowed" and answer[0].figure("fp") == 14, answer[0]
run()
run()
for _ in range(questions):
    run()
"""


def collected(kind: str, units: int, questions: int, scratch: str, valgrind: bool = True) -> int:
    """Instructions callgrind counts for a child process asking `questions` warm questions.

    The children share a cache directory of their own (beside `scratch`), filled by a first
    child run without valgrind: another process's cache entries come and go."""
    code = _CHILD.format(bench=str(BENCH))
    # one hash seed for every child: with Python's random one, the count of a run moves by about
    # 0.2 M (the order of sets and dicts); fixed, two runs give the same count
    env = dict(os.environ, XDG_CACHE_HOME=str(Path(scratch).parent / "cache"), PYTHONHASHSEED="0")
    env.pop("ASLRULES_NO_CACHE", None)
    cmd = [sys.executable, "-c", code, kind, str(units), str(questions), scratch]
    if not valgrind:
        subprocess.run(cmd, check=True, env=env, capture_output=True)
        return 0
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd]
    r = subprocess.run(cmd, check=False, capture_output=True, text=True, env=env)
    found = re.search(r"Collected\s*:\s*(\d+)", r.stderr)
    if r.returncode != 0 or not found:
        raise SystemExit(f"callgrind run failed ({kind}, {questions} questions):\n{r.stderr[-2000:]}")
    return int(found.group(1))


def per_question(kind: str, units: int, questions: int, scratch: str) -> float:
    return (collected(kind, units, questions, scratch) - collected(kind, units, 0, scratch)) / questions


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--units", type=int, default=20, help="units in the generated situation (default 20)")
    p.add_argument("--questions", type=int, default=20, help="warm questions counted (default 20)")
    args = p.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("bench/instructions.py needs valgrind (callgrind)")
    with tempfile.TemporaryDirectory() as d:
        scratch = str(Path(d) / "pruned.lp")
        collected("ask", args.units, 0, scratch, valgrind=False)  # fills the cache
        ours = per_question("ask", args.units, args.questions, scratch)
        alone = per_question("clingo", args.units, args.questions, scratch)
    print(f"instructions per warm question, {args.units} units (callgrind, {args.questions} questions):")
    print(f"  aslrules ask:                 {ours / 1e6:8.2f} M")
    print(f"  clingo alone, pruned KB:      {alone / 1e6:8.2f} M")
    print(f"  ratio:                        {ours / alone:8.2f}   target <= 1.5")


if __name__ == "__main__":
    main()
