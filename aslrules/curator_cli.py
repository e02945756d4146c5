"""The curator's subcommands: `aslrules rulings`, `aslrules distinguish`, `aslrules qa`.

Registered by aslrules/cli.py (`add_parsers`, `COMMANDS`); like the rest of the command line,
the solver is imported only when a command runs.  Exit codes as for `check`: 0 done, 1 a
finding (a current ruling does not hold under the readings that fit; no distinguishing
situation found), 2 input that cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable

from .errors import InputError


def add_parsers(sub: argparse._SubParsersAction) -> None:
    r = sub.add_parser("rulings", help="the curator's report: which Q&A rulings the rules and each other allow",
                       description="Check ruling files (docs/rulings.md) under every assignment of the named "
                       "readings and report: each ruling's status (holds, holds only under readings, contradicted, "
                       "not encodable), the readings that fit the most current rulings, every minimal set of "
                       "conflicting rulings, what --reading values overturn, and a summary by rule id. Exit 0 when "
                       "every current ruling holds under the readings that fit, 1 otherwise, 2 on unreadable input. "
                       "Example: aslrules rulings rulings/perry-sez --reading a7353=restrictive")
    r.add_argument("paths", nargs="*", metavar="FILE|DIR", help="ruling files, or directories of them")
    r.add_argument("--format", choices=("text", "json"), default="text")
    r.add_argument("--reading", action="append", default=[], metavar="NAME=VALUE",
                   help="errata impact: report the rulings whose status changes with this reading value "
                   "(repeatable)")
    r.add_argument("--snapshot", metavar="FILE",
                   help="also write what the report decides (each ruling's status and the readings it holds "
                   "under, the readings that fit, the conflicts) to FILE as JSON, to commit and compare")
    r.add_argument("--against", metavar="FILE",
                   help="compare with a snapshot --snapshot wrote: print what moved, a line each; exit 0 when "
                   "nothing did, 1 otherwise")
    r.add_argument("--reference", action="store_true",
                   help="print the ruling format's field reference (Markdown, for docs/rulings.md) and exit")
    d = sub.add_parser("distinguish", help="find a small situation where two values of a named reading differ",
                       description="Search small situations (the repo's cases, shrunk, and variations of their "
                       "fields) for one whose answer differs between two values of a named reading; write the "
                       "smallest found (fewest units, then fewest facts) as a case file under the first value, "
                       "with both answers in comments. Exit 0 when one is found, 1 when none is in the space "
                       "searched. Example: aslrules distinguish a7353=permissive a7353=restrictive -o case.yaml")
    d.add_argument("values", nargs=2, metavar="NAME=VALUE", help="the two values of one named reading")
    d.add_argument("-o", "--output", metavar="FILE", help="write the case there (default: standard output)")
    d.add_argument("--seeds", nargs="*", metavar="FILE|DIR",
                   help="situations to start from (default: the repo's tests/cases and examples)")
    d.add_argument("--budget", type=float, default=50.0, metavar="SECONDS",
                   help="stop searching after this many seconds of CPU time (default 50)")
    q = sub.add_parser("qa", help="import or export asl-rulebook2's Q+A JSON",
                       description="import: make ruling skeletons (question, answer, rule ids, source; no cases) "
                       "from an asl-rulebook2 Q+A file; export: write ruling files as such a Q+A file, each "
                       "answer followed by its check status. Example: aslrules qa export rulings/perry-sez -o "
                       "q+a/aslrules.json")
    qs = q.add_subparsers(dest="qa_command", required=True)
    qi = qs.add_parser("import", help="Q+A JSON -> ruling skeletons",
                       description="Write one ruling skeleton per answered question of a Q+A file into DIR "
                       "(never over an existing file). Example: aslrules qa import q+a/ps.json --sources "
                       "q+a/sources.json -d rulings/imported")
    qi.add_argument("file", help="an asl-rulebook2 Q+A file: {chapter: [{caption, ruleids, content: [...]}]}")
    qi.add_argument("--sources", metavar="FILE", help="its sources map ({\"ps\": \"Perry Sez\"}; default: that one)")
    qi.add_argument("-d", "--directory", required=True, metavar="DIR", help="where to write the ruling files")
    qe = qs.add_parser("export", help="ruling files -> Q+A JSON, with their check status",
                       description="Check the rulings (as aslrules rulings does) and write them as an asl-rulebook2 "
                       "Q+A file, each answer followed by its status. Example: aslrules qa export "
                       "rulings/perry-sez -o q+a/aslrules.json --sources-out q+a/sources.json")
    qe.add_argument("paths", nargs="+", metavar="FILE|DIR", help="ruling files, or directories of them")
    qe.add_argument("-o", "--output", metavar="FILE", help="the Q+A file (default: standard output)")
    qe.add_argument("--sources-out", metavar="FILE", help="also write the sources map there")


def _cmd_rulings(args: argparse.Namespace) -> int:
    from .cli import printable

    if args.reference:
        from .rulings import field_reference

        print(field_reference())
        return 0
    if not args.paths:
        raise InputError("aslrules rulings", None, "", "ruling files or directories to check")
    from .consistency import as_json, parse_readings, report, snapshot, snapshot_changes, text_lines
    from .rulings import load_rulings

    overrides = parse_readings(args.reading)
    if (args.snapshot or args.against) and overrides:
        raise InputError("aslrules rulings", None, "--reading", "no --reading with --snapshot or --against "
                         "(a snapshot is of the default readings)")
    rep = report(load_rulings(args.paths), overrides=overrides)
    if args.snapshot:
        _write_snapshot(args.snapshot, snapshot(rep))
    if args.against:
        changes = snapshot_changes(_read_snapshot(args.against), snapshot(rep))
        print("\n".join(printable(line) for line in changes) if changes else f"no ruling moved from {args.against}")
        return 1 if changes else 0
    if args.format == "json":
        json.dump(as_json(rep), sys.stdout, indent=2)
        print()
    else:
        print("\n".join(printable(line) for line in text_lines(rep)))
    return 0 if rep.ok else 1


def _write_snapshot(path: str, data: dict) -> None:
    try:
        with open(path, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=1, sort_keys=True)
            out.write("\n")
    except OSError as error:
        raise InputError(path, None, "", "a file that can be written", error.strerror or str(error)) from None


def _read_snapshot(path: str) -> dict:
    from .rulings import read_text

    text = read_text(path)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise InputError(path, None, "", "a snapshot as aslrules rulings --snapshot writes it (JSON)",
                         str(error)[:80]) from None
    if not isinstance(data, dict) or not isinstance(data.get("rulings"), dict):
        raise InputError(path, 1, "", "a snapshot as aslrules rulings --snapshot writes it: an object with "
                         "\"rulings\"")
    return data


def _cmd_distinguish(args: argparse.Namespace) -> int:
    from .cli import printable
    from .distinguish import distinguish, parse_pair

    name, a, b = parse_pair(args.values)
    found = distinguish(name, a, b, seeds=args.seeds, budget=args.budget)
    if found.case_text is None:
        print(printable(found.summary()), file=sys.stderr)
        return 1
    if args.output:
        try:
            with open(args.output, "x", encoding="utf-8") as out:
                out.write(found.case_text)
        except OSError as error:
            raise InputError(args.output, None, "", "a new file to write", error.strerror or str(error)) from None
        print(printable(f"{args.output}: written; {found.summary()}"))
    else:
        sys.stdout.write(found.case_text)
        print(printable(found.summary()), file=sys.stderr)
    return 0


def _cmd_qa(args: argparse.Namespace) -> int:
    from .cli import printable
    from . import qa

    if args.qa_command == "import":
        written = qa.import_file(args.file, args.directory, sources=args.sources)
        for path in written:
            print(printable(f"{path}: written"))
        return 0
    data, sources = qa.export(args.paths)
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if args.output:
        qa.write_new(args.output, text)
    else:
        sys.stdout.write(text)
    if args.sources_out:
        qa.write_new(args.sources_out, json.dumps(sources, indent=2, ensure_ascii=False) + "\n")
    return 0


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "rulings": _cmd_rulings, "distinguish": _cmd_distinguish, "qa": _cmd_qa,
}
