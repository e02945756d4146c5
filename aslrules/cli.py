"""Command line: `aslrules ask FILE` and `aslrules check FILE|DIR...`."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Sequence

from . import __version__
from .core import ask, check_files, iter_case_files
from .errors import InputError
from .loader import load_file
from .render import answer_lines, outcome_lines

log = logging.getLogger("aslrules")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="aslrules",
        description="Answer Advanced Squad Leader defensive fire questions by reasoning over the rules (A8, the "
        "First Fire flowchart, the Covered Arc chart), with the rules that decided each answer.",
    )
    p.add_argument("--version", action="version", version=f"aslrules {__version__}")
    p.add_argument("-v", "--verbose", action="store_true", help="log what the engine does")
    sub = p.add_subparsers(dest="command", required=True)
    a = sub.add_parser("ask", help="answer a situation's questions, or list every DEFENDER fire option")
    a.add_argument("file", help="a situation or case file (YAML)")
    a.add_argument("--format", choices=("text", "json"), default="text")
    a.add_argument("--firer", help="only this unit's (and its weapons') options; with questions, those it fires in")
    c = sub.add_parser("check", help="check cases: which expectations hold")
    c.add_argument("paths", nargs="+", metavar="FILE|DIR", help="case files, or directories of them")
    c.add_argument("--format", choices=("text", "json"), default="text")
    c.add_argument("-j", "--jobs", type=_jobs, metavar="N",
                   help="worker processes for the batches of 100 cases (default: one per CPU, at most 4)")
    return p


def _jobs(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"a number of processes, 1 or more (got {text!r})")
    return n


#: From this many units, listing every fire option gets a hint first: the list grows with the
#: number of firer-target pairs (500 units: 10 s in the MPh, 74 s in the DFPh, bench-like files).
LISTING_HINT_UNITS = 100


def _cmd_ask(args: argparse.Namespace) -> int:
    sit = load_file(args.file)
    if not sit.expect and args.firer is None and len(sit.units) >= LISTING_HINT_UNITS:
        print(f"aslrules: listing every fire option of {len(sit.units)} units may take a while; "
              "--firer ID lists one unit's options", file=sys.stderr)
    if args.firer is not None:
        owned = {u.id: {u.id, *(w.id for w in u.weapons)} for u in sit.units}
        owned.update({w.id: {w.id} for u in sit.units for w in u.weapons})
        if args.firer not in owned:
            raise InputError(args.file, None, "--firer", "the id of a unit or weapon defined in units", args.firer)
    answers = ask(sit, firer=args.firer)
    if args.firer is not None and sit.expect:  # declared questions: show those the firer takes part in
        answers = [a for a in answers if owned[args.firer] & set(a.firers)]
    if args.format == "json":
        json.dump({"file": args.file, "title": sit.title, "answers": [a.as_dict() for a in answers]},
                  sys.stdout, indent=2)
        print()
        return 0
    print(f"{args.file}: {sit.title}" if sit.title else args.file)
    if not answers and sit.expect:
        print(f"  no question in which {args.firer} fires")
    elif not answers:
        print("  no fire options: no DEFENDER unit, or nothing to fire at")
    for a in answers:
        print("\n".join(answer_lines(a, indent="  ")))
    return 0


def _cmd_check(args: argparse.Namespace) -> int:
    files = iter_case_files(args.paths)
    if not files:
        raise InputError(" ".join(args.paths), None, "", "a case file or a directory holding *.yaml cases")
    report = check_files(files, workers=args.jobs)
    if args.format == "json":
        json.dump({"passed": report.passed, "failed": report.failed, "failures": [
            {"file": o.situation.path, "line": o.expectation.line, "index": o.index,
             "mismatches": [{"field": m.field, "expected": str(m.expected), "actual": str(m.actual)}
                            for m in o.mismatches],
             "answer": o.answer.as_dict()} for o in report.failures]}, sys.stdout, indent=2)
        print()
    else:
        for o in report.failures:
            print("\n".join(outcome_lines(o)))
        print(f"{report.passed} passed, {report.failed} failed")
    return 0 if report.failed == 0 else 1


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(name)s: %(message)s")
    try:
        return _cmd_ask(args) if args.command == "ask" else _cmd_check(args)
    except InputError as e:
        print(f"aslrules: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
