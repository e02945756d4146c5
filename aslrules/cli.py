"""Command line: `aslrules ask FILE`, `check FILE|DIR...`, `replay FILE`, `validate FILE...`, `new [FILE]`,
`schema`.

Exit codes: 0 done (every expectation holds), 1 an expectation failed, 2 input that cannot be
read (one line `file:line: field.path: expected ...`), 130 interrupted.  The solver is
imported only by the commands that need it: `--version` and `schema` start in a few ms.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import sys
from collections.abc import Sequence

from . import __version__, curator_cli
from .web import command as web_command
from .errors import InputError

log = logging.getLogger("aslrules")

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """User text as it may reach a terminal: control characters (escape sequences, bidi
    overrides) shown as escapes, never acted on."""
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="aslrules",
        description="Answer Advanced Squad Leader defensive fire questions by reasoning over the rules (A8, the "
        "First Fire flowchart, the Covered Arc chart), with the rules that decided each answer.",
    )
    p.add_argument("--version", action="version", version=f"aslrules {__version__}")
    p.add_argument("-v", "--verbose", action="store_true", help="log what the engine does")
    sub = p.add_subparsers(dest="command", required=True)
    a = sub.add_parser("ask", help="answer a situation's questions, or list every DEFENDER fire option",
                       description="Answer the questions of a situation (its ask: and expect: items), each with "
                       "its verdict, figures and the rules that decided it; with no question, list every DEFENDER "
                       "fire option against the mover (MPh) or each enemy Location (DFPh): each unit and weapon "
                       "alone, the Fire Groups of each Location with its directing leader, of each unit with its "
                       "SW and of each chain of ADJACENT Locations; mandatory attacks first, then the allowed ones "
                       "best first (IFT column, then DRM), then one line per forbidden one. Example: aslrules ask "
                       "examples/berserk_charge.yaml --firer g-467")
    a.add_argument("file", help="a situation or case file (YAML); - reads it from standard input")
    a.add_argument("--format", choices=("text", "json"), default="text")
    a.add_argument("--firer", metavar="ID",
                   help="only the attacks this DEFENDER unit or weapon (or, for a unit, one of its weapons) takes "
                   "part in: alone and in Fire Groups; with questions, those it fires in")
    a.add_argument("--target", metavar="ID",
                   help="listing: only the attacks on this ATTACKER unit (in the MPh the moving stack it is in, in "
                   "the DFPh its Location)")
    a.add_argument("--all", action="store_true",
                   help="listing: show the forbidden attacks in full (by default one line each, with the first "
                   "rule that forbids it), and judge in full those out of reach (by default judged on range, LOS "
                   "and a Known enemy in the firer's Location alone)")
    c = sub.add_parser("check", help="check cases: which expectations hold",
                       description="Answer every expect: item of the cases and compare the answers with what they "
                       "state; print each failure with the answer given, then 'N passed, M failed'. Exit 0 when all "
                       "hold, 1 when one fails, 2 when a file cannot be read. Example: aslrules check tests/cases")
    c.add_argument("paths", nargs="+", metavar="FILE|DIR", help="case files, or directories of them")
    c.add_argument("--format", choices=("text", "json"), default="text")
    c.add_argument("-j", "--jobs", type=_jobs, metavar="N",
                   help="worker processes for the batches of 100 cases (default: one per CPU, at most 4)")
    s = sub.add_parser("schema", help="print the situation format as JSON Schema (for editors), or its reference",
                       description="Print the situation and case format (aslrules/1) as JSON Schema, for an "
                       "editor's completion and checks; --format markdown prints the field reference of "
                       "docs/format.md. Example: aslrules schema > aslrules.schema.json")
    s.add_argument("--format", choices=("json", "markdown"), default="json")
    v = sub.add_parser("validate", help="check situation files without answering them",
                       description="Read each file as ask and check would, and check what only the map can tell "
                       "(adjacent hexes, hexspines, one moving stack): print 'FILE: ok' or its error. Exit 0 when "
                       "every file is sound, 2 otherwise. Example: aslrules validate examples/*.yaml")
    v.add_argument("files", nargs="+", metavar="FILE", help="situation or case files (YAML); - for standard input")
    r = sub.add_parser("replay", help="walk a situation's sequence: of steps, the state carried by the rules",
                       description="Replay the ATTACKER's MPh (and the DFPh after it) as its sequence: states it: "
                       "before each attack the KB says whether it is allowed, mandatory or forbidden (with figures "
                       "and reasons); after it, what it changes (fire counters, Residual FP, Morale Checks, ...). "
                       "Exit 0 when every step is legal and every expect: item holds, 1 otherwise, 2 on bad input. "
                       "--at N prints the situation as it stands before step N, a file aslrules ask answers. "
                       "Example: aslrules replay tests/cases/replays/ex_8_41.yaml")
    r.add_argument("file", help="a situation file with a sequence: (YAML); - reads it from standard input")
    r.add_argument("--format", choices=("text", "json"), default="text")
    r.add_argument("--at", type=_step_number, metavar="N", help="print the situation before step N (1 = as written)")
    n = sub.add_parser("new", help="write a commented skeleton situation to start from",
                       description="Print a commented skeleton situation (or write it to FILE, never over an "
                       "existing one): edit it, then aslrules validate and aslrules ask it. "
                       "Example: aslrules new my_turn.yaml")
    n.add_argument("file", nargs="?", help="where to write it (default: standard output)")
    curator_cli.add_parsers(sub)
    web_command.add_parsers(sub)
    return p


def _step_number(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"a step number, 1 or more (got {text!r})")
    return n


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


def _load(name: str):
    """A situation file, or standard input for `-`."""
    from .loader import load_file, load_text

    if name == "-":
        return load_text(sys.stdin.read(), "<stdin>")
    return load_file(name)


def _cmd_ask(args: argparse.Namespace) -> int:
    import gc

    from .core import ask

    # One answer set, read into answers and written once, then the process ends: the cyclic
    # collector's passes over its hundreds of thousands of objects (a listing) free nothing and
    # cost about a seventh of the command (docs/performance.md).
    gc.disable()
    from .render import answer_lines, listing_lines, write_answers_json

    sit = _load(args.file)
    questions = sit.expect + sit.ask
    if not questions and args.firer is None and len(sit.units) >= LISTING_HINT_UNITS:
        print(f"aslrules: listing every fire option of {len(sit.units)} units may take a while; "
              "--firer ID lists one unit's options", file=sys.stderr)
    if args.firer is not None:
        owned = {u.id: {u.id, *(w.id for w in u.weapons)} for u in sit.units}
        owned.update({w.id: {w.id} for u in sit.units for w in u.weapons})
        if args.firer not in owned:
            raise InputError(args.file, None, "--firer", "the id of a unit or weapon defined in units", args.firer)
    if args.target is not None and args.target not in {u.id for u in sit.units}:
        raise InputError(args.file, None, "--target", "the id of a unit defined in units", args.target)
    answers = ask(sit, firer=args.firer, target=None if questions else args.target, full=args.all)
    if args.target is not None and questions:  # declared questions: those aimed at the target
        answers = [a for a in answers if args.target in a.targets]
    if args.firer is not None and questions:  # declared questions: show those the firer takes part in
        answers = [a for a in answers if owned[args.firer] & set(a.firers)]
    if args.format == "json":
        write_answers_json(sys.stdout, args.file, sit.title, answers, listing=not questions)
        return _done(args, 0)
    out = [f"{args.file}: {sit.title}" if sit.title else args.file]
    if not answers and questions:
        out.append("  no question " + " and ".join(
            x for x in (args.firer and f"in which {args.firer} fires", args.target and f"aimed at {args.target}") if x))
    elif not answers:
        out.append("  no fire options: no DEFENDER unit, or nothing to fire at")
    if questions:
        for a in answers:
            out.extend(answer_lines(a, indent="  "))
    else:
        out.extend(listing_lines(answers, indent="  ", full=args.all))
    print("\n".join(printable(line) for line in out))
    return _done(args, 0)


def _cmd_check(args: argparse.Namespace) -> int:
    from .core import check_files
    from .loader import case_files
    from .render import outcome_lines

    files = case_files(args.paths)
    report = check_files(files, workers=args.jobs)
    if report.passed + report.failed == 0:
        raise InputError(" ".join(args.paths), None, "expect",
                         "cases with expectations to check (a situation without `expect:` is answered by "
                         "`aslrules ask`)")
    if args.format == "json":
        json.dump({"passed": report.passed, "failed": report.failed, "failures": [
            {"file": o.situation.path, "line": o.expectation.line, "index": o.index,
             "mismatches": [{"field": m.field, "expected": str(m.expected), "actual": str(m.actual)}
                            for m in o.mismatches],
             "answer": o.answer.as_dict()} for o in report.failures]}, sys.stdout, indent=2)
        print()
    else:
        lines = [line for o in report.failures for line in outcome_lines(o)]
        lines.append(f"{report.passed} passed, {report.failed} failed")
        print("\n".join(printable(line) for line in lines))
    return _done(args, 0 if report.failed == 0 else 1)


def _cmd_replay(args: argparse.Namespace) -> int:
    from .replay import replay, replay_dict, replay_lines, situation_at

    sit = _load(args.file)
    if args.at is not None:
        sys.stdout.write(situation_at(sit, args.at))
        return 0
    rep = replay(sit)
    if args.format == "json":
        json.dump(replay_dict(rep), sys.stdout, indent=2)
        print()
    else:
        print("\n".join(printable(line) for line in replay_lines(rep)))
    return 0 if rep.ok else 1


def _cmd_validate(args: argparse.Namespace) -> int:
    from .core import validate

    bad = 0
    for name in args.files:
        try:
            validate(_load(name))
            print(printable(f"{name}: ok"))
        except InputError as e:
            bad += 1
            print(f"aslrules: error: {printable(str(e))}", file=sys.stderr)
    return 2 if bad else 0


SKELETON = """\
# A situation in the aslrules/1 format (docs/format.md; `aslrules schema` for an editor).
# Edit it, then: aslrules validate FILE && aslrules ask FILE
title: my situation                 # free text
phase: MPh                          # the ATTACKER's phase: MPh, DFPh, ...
attacker: russian                   # the side whose Player Turn it is; any other side DEFENDS
locations:                          # terrain of the Locations that matter (default open ground)
  X2: {terrain: stone building, tem: 3}
lines_of_sight: []                  # only those that are not clear: {from: T9, to: T7, hindrance: 1}
units:
  - id: g-467                       # unique: letters, digits, '-', '_'
    side: german
    type: squad                     # squad half_squad crew leader hero vehicle gun
    counter: 4-6-7                  # FP-range-morale; a leader: 8-1
    hex: X2
    weapons:
      - {id: g-lmg, kind: LMG, fp: 3, range: 8, rof: 1, breakdown: 11}
  - {id: g-81, side: german, type: leader, counter: 8-1, hex: X2}
  - id: r-628
    side: russian
    type: squad
    counter: 6-2-8
    hex: W2
    moving: {from: V2, mf_here: 1}  # the unit now moving: the hex it left, MF spent here
ask:                                # questions to answer (leave out to list every fire option)
  - attack: {option: first_fire, firers: [g-467, g-lmg], director: g-81, targets: [r-628]}
"""


def _cmd_new(args: argparse.Namespace) -> int:
    if args.file is None:
        sys.stdout.write(SKELETON)
        return 0
    try:
        with open(args.file, "x", encoding="utf-8") as out:
            out.write(SKELETON)
    except OSError as error:
        raise InputError(args.file, None, "", "a new file to write", error.strerror or str(error)) from None
    print(printable(f"{args.file}: written; aslrules validate {args.file} && aslrules ask {args.file}"))
    return 0


def _cmd_schema(args: argparse.Namespace) -> int:
    if args.format == "markdown":
        from .reference import markdown

        print(markdown())
    else:
        from .schema import json_schema

        json.dump(json_schema(), sys.stdout, indent=2)
        print()
    return 0


_COMMANDS = {"ask": _cmd_ask, "check": _cmd_check, "schema": _cmd_schema, "validate": _cmd_validate,
             "new": _cmd_new, "replay": _cmd_replay, **curator_cli.COMMANDS,
             **web_command.COMMANDS}


def _done(args: argparse.Namespace, code: int) -> int:
    """The end of a command whose answers fill the heap (`ask`, `check`).  Run as the program
    (`run`), the process ends here, its output flushed, without freeing those answers object by
    object, nor clingo's symbols at the interpreter's exit: the system takes the memory back
    with the process, as compilers do (about 5 % of the CPU time of a 120-a-side DFPh listing,
    docs/performance.md).  In a process that goes on (`main` called by a test or a program), it
    only returns the exit status."""
    if not getattr(args, "exit_at_end", False):
        return code
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:  # a closed pipe, a full disk: the interpreter's own exit reports it, as ever
        return code
    os._exit(code)


def main(argv: Sequence[str] | None = None, *, exit_at_end: bool = False) -> int:
    """The command line; `exit_at_end`: end the process as soon as a large command's output is
    out (`run`, `_done`)."""
    args = _parser().parse_args(argv)
    args.exit_at_end = exit_at_end
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(name)s: %(message)s")
    try:
        return _COMMANDS[args.command](args)
    except InputError as e:
        print(f"aslrules: error: {printable(str(e))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("aslrules: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def run() -> None:
    """The `aslrules` program (its console script and `python -m aslrules`)."""
    sys.exit(main(exit_at_end=True))


if __name__ == "__main__":
    run()
