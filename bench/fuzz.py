"""Fuzz the command line (not a test): hostile inputs for `aslrules ask FILE` and
`aslrules check FILE|DIR`, each judged on its own.

    python bench/fuzz.py [--seed N] [--count N] [--jobs N] [--timeout S] [--keep DIR]
                         [--only CATEGORY,...] [--no-sigint] [-v]

Defaults: --seed 1, --count 2000, --jobs 2, --timeout 20 (seconds per input).  The same
seed and count give the same inputs.  About 2.5 minutes for 2,000 inputs on two cores.

Bad outcomes, each counted per category:

* traceback: "Traceback (most recent call last)" on stderr, or an exception escaping main();
* signal: the process died by a signal (libyaml's C parser can overflow its stack);
* hang: no answer within --timeout seconds;
* exit: an exit status other than 0, 1 or 2 (or 1 from `ask`, which has no failures to report);
* format: exit 2 with a stderr that is not one line `aslrules: error: FILE[:LINE]: PATH: message`;
* accepted: exit 0 or 1 for an input that must be rejected (exit 2): YAML 1.1 number forms
  (`010`, `1:30`, `0x10`, `0o7`, `1_000`), expectations no answer can have, ids with control
  characters, bombs, bytes that are no UTF-8 YAML, semantic nonsense, `check` on a file with
  no expectations; or the wrong verdict on a filesystem oddity (a `*.YAML` case not found);
* unnamed: exit 2 whose message does not name the field at fault (semantic nonsense);
* wrong: an accepted number gives a wrong answer (numeric: `ask --format json` shows a negative
  FP or Residual FP, or not the FP the input must have: FP scaled by 64 beyond 32 bits).

Values a number field accepts although they are off the 1/64 grid, huge or tiny are listed
as "accepted extremes" (not counted as bad: the format does not say).

Categories: wrong_types (every field path of every YAML file under examples/ and tests/cases/,
its value replaced by a string, int, float, list, mapping, null, bool and huge int), numeric
(0, -1, 2**31, 2**63, 11184811, 1e308, .inf, .nan, 0.3333333, 1e-20, 0.01), yaml11 (number
forms and impossible expectations), unicode (NUL, ESC sequences, RTL marks, emoji, lone
surrogates, very long strings in ids, titles, sides), bombs (10,000-deep nesting, billion
laughs), bytes (random bytes, invalid UTF-8, UTF-16/32 BOMs, an empty file, a 2 MiB file),
fs (a FIFO as FILE, a directory as FILE, symlink loops, unreadable files and subdirectories
read by an unprivileged user, `*.YAML` files, a directory with no cases), semantic (nonsense
that must be an error naming the field), mutations (lines of the repo's cases deleted,
duplicated, swapped, characters changed).  Last, a Ctrl-C check: `aslrules check tests/cases`
is sent SIGINT (its process group, as Ctrl-C does) after 0.5 s and after 0.25 s, and must exit 130
without a traceback.

How inputs run: most run one at a time in a long-lived driver process per job that calls
aslrules.cli.main (fast: the KB is parsed once); an input whose outcome there is bad is run
again in a fresh `python -m aslrules` process, and that run is the one reported (its
traceback is the real one).  The bombs, the raw bytes and the filesystem oddities always run
in a fresh process.  A driver that dies or hangs is replaced; only that input is charged.

Output: per-category counts, then each distinct failure (category, outcome, the last line of
the traceback or of stderr, how many inputs hit it, the smallest input's description).  With
--keep DIR every failing input is written there (`NNNN-category.yaml` or a description of
the filesystem setup, and `NNNN-category.txt` with the command, exit status and stderr).
Exit status 0 when nothing bad was found, 1 otherwise.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import contextlib
import io
import json
import os
import random
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS_DIRS = [ROOT / "examples", ROOT / "tests" / "cases"]
TEMPLATE = ROOT / "examples" / "a8_41_ex_case.yaml"
SITUATION = ROOT / "examples" / "berserk_charge.yaml"
BAD = ("traceback", "signal", "hang", "exit", "format", "accepted", "unnamed", "wrong")
HOLE = "__FUZZ_VALUE__"  # placeholder swapped for a literal YAML text after dumping

# --------------------------------------------------------------------------- inputs


@dataclass
class Input:
    category: str
    what: str                      # a one-line description of the input
    data: bytes | None = None      # the file's bytes (None: `setup` makes the target)
    command: str = "check"         # "ask" or "check"
    expect: str = "any"            # "any", "reject" (exit 2) or "pass" (exit 0)
    name_field: str | None = None  # with "reject": the field path the message must name ("a|b": either)
    fresh: bool = False            # always run in a fresh process
    setup: Callable[[Path], tuple[Path, dict]] | None = None  # makes the target in a folder
    extra: list[str] = field(default_factory=list)
    note_accepted: bool = False    # list it under "accepted extremes" when it exits 0 or 1
    group: str = ""                # what failures of this input have in common with others (the report's key)
    fp: int | None = None          # with `ask --format json`: the FP the first answer must have if accepted
    index: int = 0


def _yaml():
    import yaml
    return yaml


def corpus() -> list[tuple[Path, object]]:
    yaml = _yaml()
    files = sorted(p for d in CORPUS_DIRS for p in d.rglob("*") if p.suffix in (".yaml", ".yml"))
    return [(p, yaml.safe_load(p.read_text(encoding="utf-8"))) for p in files]


def walk(doc: object, path: tuple = ()) -> Iterator[tuple[tuple, object]]:
    """(path, value) of every node below the root: a path is a tuple of keys and indices."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield (*path, k), v
            yield from walk(v, (*path, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield (*path, i), v
            yield from walk(v, (*path, i))


def norm(path: tuple) -> str:
    out = ""
    for k in path:
        out += "[]" if isinstance(k, int) else (f".{k}" if out else str(k))
    return out


def field_path(path: tuple) -> str:
    """The loader's way of naming a field: units[2].weapons[0].rof."""
    out = ""
    for k in path:
        out += f"[{k}]" if isinstance(k, int) else (f".{k}" if out else str(k))
    return out


def replaced(doc: object, path: tuple, value: object) -> object:
    import copy
    new = copy.deepcopy(doc)
    node = new
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    return new


def dump(doc: object, literal: str | None = None) -> bytes:
    """YAML text of doc; with `literal`, the HOLE placeholder becomes that text as written."""
    text = _yaml().safe_dump(doc, sort_keys=False, allow_unicode=True, width=1 << 16)
    if literal is not None:
        text = text.replace(repr(HOLE)[1:-1], literal).replace(f"'{literal}'", literal)
    return text.encode("utf-8", "surrogatepass")


def is_case(doc: object) -> bool:
    return isinstance(doc, dict) and bool(doc.get("expect"))


def command_for(doc: object, rng: random.Random) -> str:
    return rng.choice(("ask", "check")) if is_case(doc) else "ask"


WRONG_TYPES: list[tuple[str, object]] = [
    ("string", "fuzz text"), ("int", 7), ("float", 2.5), ("list", [1, "x"]), ("mapping", {"k": 1}),
    ("null", None), ("bool", True), ("huge int", 2 ** 200),
]


def gen_wrong_types(rng: random.Random, docs: list[tuple[Path, object]]) -> list[Input]:
    """Every distinct field path (indices folded), each with every other type, in rounds so that a
    short run still covers every path once."""
    instances: dict[str, list[tuple[Path, object, tuple, object]]] = defaultdict(list)
    for p, doc in docs:
        for path, value in walk(doc):
            instances[norm(path)].append((p, doc, path, value))
    rounds: list[list[Input]] = [[] for _ in WRONG_TYPES]
    for key in sorted(instances):
        p, doc, path, value = rng.choice(instances[key])
        kinds = [k for k in WRONG_TYPES if type(k[1]) is not type(value) or k[0] == "huge int"]
        rng.shuffle(kinds)
        for r, (kind, new) in enumerate(kinds):
            rounds[r].append(Input("wrong_types", f"{p.relative_to(ROOT)}: {field_path(path)} := {kind} {new!r}",
                                   dump(replaced(doc, path, new)), command_for(doc, rng)))
    out = []
    for r in rounds:
        rng.shuffle(r)
        out += r
    return out


NUMERIC = ["0", "-1", str(2 ** 31), str(2 ** 63), "11184811", "1.0e+308", ".inf", "-.inf", ".nan",
           "0.3333333", "1.0e-20", "0.01"]
OUT_OF_DOMAIN = {str(2 ** 31), str(2 ** 63), "11184811", "1.0e+308", "0.3333333", "1.0e-20", "0.01"}


def number_paths(docs: list[tuple[Path, object]]) -> dict[str, list[tuple[Path, object, tuple]]]:
    found: dict[str, list[tuple[Path, object, tuple]]] = defaultdict(list)
    for p, doc in docs:
        for path, value in walk(doc):
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                found[norm(path)].append((p, doc, path))
    return found


def gen_numeric(rng: random.Random, docs: list[tuple[Path, object]]) -> list[Input]:
    out = []
    for key, inst in sorted(number_paths(docs).items()):
        for literal in NUMERIC:
            p, doc, path = rng.choice(inst)
            cmd = command_for(doc, rng)
            out.append(Input("numeric", f"{p.relative_to(ROOT)}: {field_path(path)} := {literal}",
                             dump(replaced(doc, path, HOLE), literal), cmd,
                             extra=["--format", "json"] if cmd == "ask" else [],
                             note_accepted=literal in OUT_OF_DOMAIN, group=f"{key} := {literal}"))
    rng.shuffle(out)
    # FP near what a 32-bit number holds once scaled by 64: the TPBF case's LMG (4 + fp) x 3
    tpbf = (ROOT / "tests" / "cases" / "a7_212" / "tpbf.yaml").read_text(encoding="utf-8")
    wraps = [Input("numeric", f"tests/cases/a7_212/tpbf.yaml: units[0].weapons[0].fp := {fp} (TPBF: (4 + fp) x 3 FP)",
                   tpbf.replace("fp: 3, range: 8", f"fp: {fp}, range: 8").encode(), "ask", extra=["--format", "json"],
                   fp=(4 + fp) * 3, group="TPBF FP x 64 beyond 32 bits")
             for fp in (5592405, 5592406, 11184810, 11184811, 22369621, 2 ** 25, 2 ** 31 // 64)]
    return wraps + out


YAML11 = ["010", "1:30", "0x10", "0o7", "1_000", "0b11", "1_0.5", "1:30.5"]
BAD_EXPECT = [("ift_column", "7"), ("ift_column", "13"), ("ift_column", "0"), ("because", "[true]"),
              ("because", "[null]"), ("because", "[1.5]"), ("verdict", "yes"), ("verdict", "maybe"),
              ("drm", "1.5"), ("fp", "-2"), ("residual_fp", "-1"), ("leader_direction", "1"),
              ("after", "{g-467: bogus}"), ("after", "{nobody: final_fire}"), ("breakdown", "{g-lmg: 1.5}"),
              ("fpf_nmc_dr", "31"), ("fpf_nmc_dr", "2.5"), ("because", "A8.1")]
# (an NMC's Final DR beyond 12 is possible with a positive DRM, so the bound is wider: -10..30)


def gen_yaml11(rng: random.Random, docs: list[tuple[Path, object]]) -> list[Input]:
    out = []
    for key, inst in sorted(number_paths(docs).items()):
        for literal in YAML11:
            p, doc, path = rng.choice(inst)
            out.append(Input("yaml11", f"{p.relative_to(ROOT)}: {field_path(path)} := {literal}",
                             dump(replaced(doc, path, HOLE), literal), command_for(doc, rng),
                             expect="reject", name_field=field_path(path), group=f"a number field := {literal}"))
    rng.shuffle(out)
    yaml = _yaml()
    base = yaml.safe_load(TEMPLATE.read_text(encoding="utf-8"))
    expectations = []
    for key, literal in BAD_EXPECT:
        path = ("expect", 0, key)
        expectations.append(Input("yaml11", f"{TEMPLATE.relative_to(ROOT)}: {field_path(path)} := {literal}",
                                  dump(replaced(base, path, HOLE), literal), "check",
                                  expect="reject", name_field=field_path(path),
                                  group=f"{field_path(path)} := {literal}"))
    return expectations + out


UNICODE = [("NUL", "a\0b"), ("ESC sequence", "\x1b[31mred\x1b[0m\x1b]0;title\x07"), ("RTL mark", "g\u202e764-g"),
           ("emoji", "\U0001F4A5tank\U0001F600"), ("lone surrogate", "x\ud800y"), ("newline", "a\nb"),
           ("NEL and LS", "a\x85b\u2028c"), ("BOM inside", "\ufeffg"), ("combining", "e\u0301\u0301\u0301"),
           ("very long", "x" * 100_000), ("very long emoji", "\U0001F600" * 20_000), ("tab and CR", "a\tb\rc"),
           ("backslashes and quotes", "a\\\"'b"), ("ASP-like", 'a"). #program base. b("'), ("DEL and C1", "a\x7f\x9bb")]


def _quoted(text: str) -> str:
    """A YAML double-quoted scalar holding `text` exactly (control characters escaped)."""
    out = []
    for ch in text:
        o = ord(ch)
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif o < 0x20 or o == 0x7F or 0x80 <= o < 0xA0 or o in (0x2028, 0x2029, 0xFEFF) or 0xD800 <= o < 0xE000:
            out.append(f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def gen_unicode(rng: random.Random, docs: list[tuple[Path, object]]) -> list[Input]:
    yaml = _yaml()
    base = yaml.safe_load(TEMPLATE.read_text(encoding="utf-8"))
    ids = {u["id"] for u in base["units"]} | {w["id"] for u in base["units"] for w in u.get("weapons", [])}
    out = []
    for label, text in UNICODE:
        lit = _quoted(text)
        # the title, the source: free text
        for key in ("title", "source"):
            out.append(Input("unicode", f"{key} := {label}", dump(replaced(base, (key,), HOLE), lit),
                             rng.choice(("ask", "check"))))
        # a side, everywhere it is named (the attacker too, or only one unit's)
        doc = json.loads(json.dumps(base).replace('"russian"', json.dumps(HOLE)))
        out.append(Input("unicode", f"the russian side renamed := {label}", dump(doc, lit), rng.choice(("ask", "check"))))
        out.append(Input("unicode", f"units[0].side := {label}", dump(replaced(base, ("units", 0, "side"), HOLE), lit),
                         "ask"))
        # an id, defined and used: must be rejected (letters, digits, '-' and '_')
        victim = rng.choice(sorted(ids))
        doc = json.loads(json.dumps(base).replace(json.dumps(victim), json.dumps(HOLE)))
        out.append(Input("unicode", f"id {victim} everywhere := {label}", dump(doc, lit), rng.choice(("ask", "check")),
                         expect="any" if re.fullmatch("[A-Za-z0-9_-]+", text) else "reject"))
        # a hex id and a location key
        out.append(Input("unicode", f"units[2].hex := {label}", dump(replaced(base, ("units", 2, "hex"), HOLE), lit),
                         "ask", expect="reject", name_field="units[2].hex"))
        out.append(Input("unicode", f"--firer {label}", TEMPLATE.read_bytes(), "ask", extra=["--firer", text],
                         expect="reject", name_field="--firer"))
    # argv cannot hold NUL nor a lone surrogate
    return [i for i in out if not re.search("[\0\ud800-\udfff]", "".join(i.extra))]


def gen_bombs(rng: random.Random, docs: list[tuple[Path, object]]) -> list[Input]:
    body = TEMPLATE.read_text(encoding="utf-8")
    laughs = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
    for k in range(1, 10):
        laughs += f"a{k}: &a{k} [" + ", ".join([f"*a{k - 1}"] * 10) + "]\n"
    items = [
        ("flow sequence nested 10,000 deep", "[" * 10_000 + "]" * 10_000 + "\n"),
        ("flow sequence nested 100,000 deep", "[" * 100_000 + "]" * 100_000 + "\n"),
        ("flow sequence nested 400,000 deep (unclosed)", "[" * 400_000 + "\n"),
        ("flow mapping nested 10,000 deep", "{a: " * 10_000 + "1" + "}" * 10_000 + "\n"),
        ("block mapping nested 5,000 deep", "".join(" " * i + "a:\n" for i in range(5_000)) + " " * 5_000 + "1\n"),
        ("block sequence nested 10,000 deep", "- " * 10_000 + "1\n"),
        ("units: nested 10,000 deep", body.replace("units:", "units: " + "[" * 10_000 + "]" * 10_000 + "\nunitz:", 1)),
        ("title: nested 10,000 deep", body.replace("title:", "title: " + "[" * 10_000 + "]" * 10_000 + "\ntitlez:", 1)),
        ("billion laughs at top level", laughs),
        ("billion laughs in a field", laughs.replace("a9:", "title:") + body.split("\n", 1)[1].replace("title:", "t:")),
        ("billion laughs under units", body.replace("units:", laughs.replace("a9:", "zz:") + "units:", 1)),
        ("alias used as a mapping key 10,000 times", "k: &k x\n" + "".join(f"? *k\n: {i}\n" for i in range(10_000))),
        ("anchor on the root mapping and merge keys", "base: &b {title: t}\n" + "".join(f"m{i}: {{<<: *b}}\n" for i in range(5000))),
        ("a flow sequence of 300,000 items", "units: [" + ", ".join(["1"] * 300_000) + "]\n"),
        ("50,000 units that are each an alias of one unit",
         body.replace("units:\n", "units:\n  - &u {id: u0, side: german, type: squad, counter: 4-6-7, hex: A1}\n"
                      + "  - *u\n" * 50_000, 1)),
    ]
    out = []
    for what, text in items:
        for cmd in ("ask", "check"):
            out.append(Input("bombs", what, text.encode("utf-8"), cmd, expect="reject", fresh=True))
    return out


def gen_bytes(rng: random.Random, docs: list[tuple[Path, object]]) -> list[Input]:
    good = TEMPLATE.read_text(encoding="utf-8")
    items: list[tuple[str, bytes, str]] = [
        ("empty file", b"", "reject"),
        ("only whitespace", b"  \n\n\t\n", "reject"),
        ("only a comment", b"# nothing\n", "reject"),
        ("a document marker only", b"---\n", "reject"),
        ("two documents", good.encode() + b"\n---\n" + good.encode(), "reject"),
        ("a scalar document", b"42\n", "reject"),
        ("a list document", b"- 1\n- 2\n", "reject"),
        ("UTF-8 BOM then the case", b"\xef\xbb\xbf" + good.encode(), "any"),
        ("UTF-16 LE BOM then the case", b"\xff\xfe" + good.encode("utf-16-le"), "reject"),
        ("UTF-16 BE BOM then the case", b"\xfe\xff" + good.encode("utf-16-be"), "reject"),
        ("UTF-32 LE BOM then the case", b"\xff\xfe\x00\x00" + good.encode("utf-32-le"), "reject"),
        ("the case in UTF-16 without BOM", good.encode("utf-16-le"), "reject"),
        ("invalid UTF-8 in the title", good.replace("title: ", "title: \udcff\udcfe", 1).encode("utf-8", "surrogateescape"), "reject"),
        ("an overlong UTF-8 NUL", good.replace("title: ", "title: \udcc0\udc80", 1).encode("utf-8", "surrogateescape"), "reject"),
        ("UTF-8 of a lone surrogate", good.replace("title: ", "title: \ud800", 1).encode("utf-8", "surrogatepass"), "reject"),
        ("a raw NUL in the title", good.replace("title: ", "title: a\0b", 1).encode(), "reject"),
        ("a raw ESC in the title", good.replace("title: ", "title: \x1b[2J", 1).encode(), "reject"),
        ("CR line ends only", good.replace("\n", "\r").encode(), "any"),
        ("CRLF line ends", good.replace("\n", "\r\n").encode(), "any"),
        ("no final newline, truncated mid-line", good.encode()[: len(good) // 2], "any"),
        ("a 2 MiB file (comment lines, then the case)", b"# " + b"x" * 78 + b"\n" * 1 + (b"#" * 79 + b"\n") * 26_300 + good.encode(), "reject"),
        ("exactly 1 MiB + 1 byte", good.encode() + b"#" * ((1 << 20) + 1 - len(good.encode())), "reject"),
        ("exactly 1 MiB", good.encode() + b"\n#" + b"x" * ((1 << 20) - 2 - len(good.encode())), "any"),
        ("a 1 MiB single-line title", b"title: " + b"x" * ((1 << 20) - 100) + b"\n" + good.split("\n", 1)[1].encode(), "any"),
        ("a tab-indented mapping", good.replace("  ", "\t").encode(), "reject"),
        ("a YAML directive", b"%YAML 1.2\n---\n" + good.encode(), "any"),
        ("an unknown tag", good.replace("phase: MPh", "phase: !!python/object:os.system MPh").encode(), "reject"),
        ("a python tag", b"!!python/object/apply:os.system [echo hi]\n", "reject"),
        ("a binary tag", good.replace("title: ", "title: !!binary aGVsbG8= #", 1).encode(), "reject"),
        ("a set tag", good.replace("title: ", "title: !!set {a, b} #", 1).encode(), "reject"),
        ("a timestamp title", good.replace("title: ", "title: 2001-12-14 #", 1).encode(), "any"),
    ]
    for k in range(12):
        n = rng.choice((1, 7, 64, 512, 4096, 65536))
        items.append((f"{n} random bytes (#{k})", bytes(rng.getrandbits(8) for _ in range(n)), "reject"))
    for k in range(6):  # random bytes spliced into the case
        b = bytearray(good.encode())
        at = rng.randrange(len(b))
        b[at:at] = bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 8)))
        items.append((f"random bytes spliced at byte {at} (#{k})", bytes(b), "any"))
    out = []
    for what, data, expect in items:
        for cmd in ("ask", "check"):
            out.append(Input("bytes", what, data, cmd, expect=expect, fresh=True))
    return out


# --------------------------------------------------------------------------- filesystem oddities

def _fifo(d: Path) -> tuple[Path, dict]:
    os.mkfifo(d / "fifo.yaml")
    return d / "fifo.yaml", {}


def _fifo_in_dir(d: Path) -> tuple[Path, dict]:
    (d / "cases").mkdir()
    shutil.copy(TEMPLATE, d / "cases" / "a_good.yaml")
    os.mkfifo(d / "cases" / "b_fifo.yaml")
    return d / "cases", {}


def _dir_as_file(d: Path) -> tuple[Path, dict]:
    (d / "dir.yaml").mkdir()
    shutil.copy(TEMPLATE, d / "dir.yaml" / "inner.yaml")
    return d / "dir.yaml", {}


def _loop(d: Path) -> tuple[Path, dict]:
    os.symlink("b.yaml", d / "a.yaml")
    os.symlink("a.yaml", d / "b.yaml")
    return d / "a.yaml", {}


def _loop_in_dir(d: Path) -> tuple[Path, dict]:
    (d / "cases").mkdir()
    shutil.copy(TEMPLATE, d / "cases" / "good.yaml")
    os.symlink("x.yaml", d / "cases" / "y.yaml")
    os.symlink("y.yaml", d / "cases" / "x.yaml")
    return d / "cases", {}


def _dir_loop_in_dir(d: Path) -> tuple[Path, dict]:
    (d / "cases" / "sub").mkdir(parents=True)
    shutil.copy(TEMPLATE, d / "cases" / "sub" / "good.yaml")
    os.symlink("..", d / "cases" / "sub" / "up")
    return d / "cases", {}


def _dangling(d: Path) -> tuple[Path, dict]:
    os.symlink("nowhere.yaml", d / "dangling.yaml")
    return d / "dangling.yaml", {}


def _missing(d: Path) -> tuple[Path, dict]:
    return d / "missing.yaml", {}


def _nobody(d: Path) -> None:
    os.chmod(d, 0o755)


def _unreadable(d: Path) -> tuple[Path, dict]:
    _nobody(d)
    shutil.copy(TEMPLATE, d / "secret.yaml")
    os.chmod(d / "secret.yaml", 0)
    return d / "secret.yaml", {"user": 65534}


def _unreadable_root(d: Path) -> tuple[Path, dict]:
    shutil.copy(TEMPLATE, d / "secret.yaml")
    os.chmod(d / "secret.yaml", 0)
    return d / "secret.yaml", {}


def _unreadable_subdir(d: Path) -> tuple[Path, dict]:
    _nobody(d)
    (d / "cases" / "locked").mkdir(parents=True)
    shutil.copy(TEMPLATE, d / "cases" / "good.yaml")
    shutil.copy(TEMPLATE, d / "cases" / "locked" / "hidden.yaml")
    os.chmod(d / "cases", 0o755)
    os.chmod(d / "cases" / "locked", 0)
    return d / "cases", {"user": 65534}


def _upper_only(d: Path) -> tuple[Path, dict]:
    (d / "cases").mkdir()
    shutil.copy(TEMPLATE, d / "cases" / "EX.YAML")
    return d / "cases", {}


def _upper_and_lower(d: Path) -> tuple[Path, dict]:
    (d / "cases").mkdir()
    shutil.copy(TEMPLATE, d / "cases" / "good.yaml")
    (d / "cases" / "WRONG.YAML").write_text(
        TEMPLATE.read_text(encoding="utf-8").replace("verdict: allowed", "verdict: forbidden"), encoding="utf-8")
    return d / "cases", {}


def _mixed_case_yml(d: Path) -> tuple[Path, dict]:
    (d / "cases").mkdir()
    shutil.copy(TEMPLATE, d / "cases" / "ex.Yml")
    return d / "cases", {}


def _no_cases(d: Path) -> tuple[Path, dict]:
    (d / "cases").mkdir()
    (d / "cases" / "notes.txt").write_text("no cases here\n")
    return d / "cases", {}


def _empty_dir(d: Path) -> tuple[Path, dict]:
    (d / "cases").mkdir()
    return d / "cases", {}


def _empty_yaml_in_dir(d: Path) -> tuple[Path, dict]:
    (d / "cases").mkdir()
    shutil.copy(TEMPLATE, d / "cases" / "a_good.yaml")
    (d / "cases" / "b_empty.yaml").write_bytes(b"")
    return d / "cases", {}


def _situation_only_dir(d: Path) -> tuple[Path, dict]:
    (d / "cases").mkdir()
    shutil.copy(SITUATION, d / "cases" / "situation.yaml")
    return d / "cases", {}


def _dev_zero(d: Path) -> tuple[Path, dict]:
    os.symlink("/dev/zero", d / "zero.yaml")
    return d / "zero.yaml", {}


def _dev_urandom(d: Path) -> tuple[Path, dict]:
    os.symlink("/dev/urandom", d / "random.yaml")
    return d / "random.yaml", {}


def _proc_file(d: Path) -> tuple[Path, dict]:
    return Path("/proc/self/status"), {}


FS: list[tuple[str, Callable[[Path], tuple[Path, dict]], tuple[str, ...], str]] = [
    ("a FIFO given as FILE", _fifo, ("ask", "check"), "reject"),
    ("a directory holding a FIFO named *.yaml", _fifo_in_dir, ("check",), "reject"),
    ("a directory given as FILE", _dir_as_file, ("ask",), "reject"),
    ("a symlink loop given as FILE", _loop, ("ask", "check"), "reject"),
    ("a directory holding a symlink loop", _loop_in_dir, ("check",), "reject"),
    ("a directory holding a symlink to its parent", _dir_loop_in_dir, ("check",), "pass"),
    ("a dangling symlink given as FILE", _dangling, ("ask", "check"), "reject"),
    ("a missing file", _missing, ("ask", "check"), "reject"),
    ("a file with mode 000, read by an unprivileged user", _unreadable, ("ask", "check"), "reject"),
    ("a file with mode 000, read by root", _unreadable_root, ("ask", "check"), "any"),
    ("a directory with a mode-000 subdirectory, read by an unprivileged user", _unreadable_subdir, ("check",),
     "reject"),
    ("a directory whose only case is EX.YAML", _upper_only, ("check",), "pass"),
    ("a directory with good.yaml and a failing WRONG.YAML (must be found: exit 1)", _upper_and_lower, ("check",),
     "fail"),
    ("a directory whose only case is ex.Yml", _mixed_case_yml, ("check",), "pass"),
    ("a directory with no cases (a .txt only)", _no_cases, ("check",), "reject"),
    ("an empty directory", _empty_dir, ("check",), "reject"),
    ("a directory with a good case and an empty .yaml", _empty_yaml_in_dir, ("check",), "reject"),
    ("a directory whose only file has no expectations", _situation_only_dir, ("check",), "reject"),
    ("/dev/zero given as FILE", _dev_zero, ("ask", "check"), "reject"),
    ("/dev/urandom given as FILE", _dev_urandom, ("ask", "check"), "reject"),
    ("/proc/self/status given as FILE", _proc_file, ("ask",), "reject"),
]


def gen_fs(rng: random.Random, docs: list[tuple[Path, object]]) -> list[Input]:
    return [Input("fs", what, None, cmd, expect=expect, fresh=True, setup=setup)
            for what, setup, cmds, expect in FS for cmd in cmds]


# --------------------------------------------------------------------------- semantic nonsense

def gen_semantic(rng: random.Random, docs: list[tuple[Path, object]]) -> list[Input]:
    yaml = _yaml()
    base = yaml.safe_load(TEMPLATE.read_text(encoding="utf-8"))
    # units: 0 g-467 (X2, with g-lmg), 1 g-81 leader (X2), 2 r-628 moving in W2 from V2
    extra_russian = {"id": "r-447", "side": "russian", "type": "squad", "counter": "4-4-7", "hex": "V2"}
    items: list[tuple[str, list[tuple[tuple, object]], str]] = [
        ("moving.from not adjacent to the unit's hex", [(("units", 2, "moving", "from"), "V5")], "units[2].moving.from"),
        ("moving.from is the unit's own hex", [(("units", 2, "moving", "from"), "W2")], "units[2].moving.from"),
        # (`from: 3V2` beside unprefixed W2 is not on another board: the file's one board is 3, so
        # W2 is 3W2, adjacent to it)
        ("attacker is no side (typo Russian)", [(("attacker",), "Russian")], "attacker"),
        ("attacker is no side (typo russain)", [(("attacker",), "russain")], "attacker"),
        ("a unit's side is a typo of the attacker", [(("units", 2, "side"), "Russian")], "units[2].side|attacker"),
        ("directed names an enemy", [(("units", 1, "directed"), ["r-628"])], "units[1].directed"),
        ("directed names the leader himself", [(("units", 1, "directed"), ["g-81"])], "units[1].directed"),
        ("directed names a friend and an enemy", [(("units", 1, "directed"), ["g-467", "r-628"])],
         "units[1].directed"),
        ("attacked_here.by names the target", [(("units", 2, "attacked_here"), [{"by": ["r-628"], "option": "first_fire"}])],
         "units[2].attacked_here[0].by"),
        ("attacked_here.by names a friend of the target",
         [(("units", 3), extra_russian), (("units", 2, "attacked_here"), [{"by": ["r-447"], "option": "first_fire"}])],
         "units[2].attacked_here[0].by"),
        ("at_mf above mf_here", [(("units", 2, "attacked_here"), [{"option": "residual_fp", "fp": 2, "at_mf": 3}])],
         "units[2].attacked_here[0].at_mf"),
        ("two lines_of_sight for one pair that disagree",
         [(("lines_of_sight",), [{"from": "X2", "to": "W2", "hindrance": 1}, {"from": "X2", "to": "W2", "blocked": True}])],
         "lines_of_sight[1]"),
        ("two lines_of_sight for one pair, reversed, that disagree",
         [(("lines_of_sight",), [{"from": "X2", "to": "W2", "hindrance": 1}, {"from": "W2", "to": "X2", "hindrance": 2}])],
         "lines_of_sight[1]"),
        ("a range override between hexes on one board", [(("lines_of_sight",), [{"from": "X2", "to": "W2", "range": 5}])],
         "lines_of_sight[0].range"),
        ("the director is not a leader", [(("expect", 0, "attack", "director"), "g-467")], "expect[0].attack.director"),
        # (an enemy leader as `director` is a question the KB answers, forbidden by A7.53:
        # tests/cases/a7_53/enemy_leader.yaml; not input nonsense)
        ("a weapon with the id of a unit", [(("units", 0, "weapons", 0, "id"), "g-81")], "units[0].weapons[0].id"),
        ("two moving units in different hexes",
         [(("units", 3), dict(extra_russian, moving={"from": "U2", "mf_here": 1}))], "units[2].moving|units[3].moving"),
    ]
    out = []
    for what, edits, name in items:
        doc = base
        for path, value in edits:
            if path[:2] == ("units", 3):
                doc = json.loads(json.dumps(doc))
                doc["units"].append(value)
            else:
                doc = replaced(doc, path, value) if _has_parent(doc, path) else _set_deep(doc, path, value)
        for cmd in ("ask", "check"):
            out.append(Input("semantic", what, dump(doc), cmd, expect="reject", name_field=name))
    no_expect = {k: v for k, v in base.items() if k != "expect"}
    out.append(Input("semantic", "check on a file with no expectations", dump(no_expect), "check", expect="reject"))
    out.append(Input("semantic", "check on a file with `expect: []`", dump(dict(no_expect, expect=[])), "check",
                     expect="reject"))
    out.append(Input("semantic", "check on examples/berserk_charge.yaml (a situation)", SITUATION.read_bytes(), "check",
                     expect="reject"))
    return out


def _has_parent(doc: object, path: tuple) -> bool:
    node = doc
    for k in path[:-1]:
        try:
            node = node[k]
        except (KeyError, IndexError, TypeError):
            return False
    return True


def _set_deep(doc: object, path: tuple, value: object) -> object:
    new = json.loads(json.dumps(doc))
    node = new
    for k in path[:-1]:
        node = node.setdefault(k, {})
    node[path[-1]] = value
    return new


# --------------------------------------------------------------------------- random mutations

MUTATION_CHARS = list(":-[]{}&*!%@`|>'\"#,?\t ") + ["\n", "0", "9", ".", "x", "\u00e9", "\U0001F600", "\x00", "\x1b"]


def mutate(text: str, rng: random.Random) -> tuple[str, list[str]]:
    lines = text.splitlines(keepends=True)
    done = []
    for _ in range(rng.choice((1, 1, 2, 3))):
        if not lines:
            break
        op = rng.choice(("delete", "duplicate", "swap", "char", "char", "char", "indent", "truncate", "insert"))
        i = rng.randrange(len(lines))
        if op == "delete":
            done.append(f"deleted line {i + 1} {lines[i].strip()!r}")
            del lines[i]
        elif op == "duplicate":
            done.append(f"duplicated line {i + 1} {lines[i].strip()!r}")
            lines.insert(i, lines[i])
        elif op == "swap" and i + 1 < len(lines):
            done.append(f"swapped lines {i + 1} and {i + 2}")
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
        elif op == "indent":
            n = rng.choice((-2, -1, 1, 2))
            done.append(f"indent of line {i + 1} {n:+}")
            lines[i] = lines[i][-n:] if n < 0 else " " * n + lines[i]
        elif op == "truncate":
            cut = rng.randrange(sum(map(len, lines)) + 1)
            done.append(f"truncated at char {cut}")
            lines = ["".join(lines)[:cut]]
        elif op == "insert":
            line = lines[rng.randrange(len(lines))]
            done.append(f"inserted a copy of {line.strip()!r} at line {i + 1}")
            lines.insert(i, line)
        else:
            line = lines[i]
            if not line:
                continue
            j = rng.randrange(len(line))
            c = rng.choice(MUTATION_CHARS)
            kind = rng.choice(("replace", "insert", "delete"))
            if kind == "replace":
                lines[i] = line[:j] + c + line[j + 1:]
            elif kind == "insert":
                lines[i] = line[:j] + c + line[j:]
            else:
                lines[i] = line[:j] + line[j + 1:]
            done.append(f"line {i + 1} col {j + 1}: delete {line[j]!r}" if kind == "delete"
                        else f"line {i + 1} col {j + 1}: {kind} {c!r}" + (f" (was {line[j]!r})" if kind == "replace" else ""))
    return "".join(lines), done


def gen_mutations(rng: random.Random, docs: list[tuple[Path, object]], n: int) -> list[Input]:
    files = [p for p, _ in docs]
    out = []
    for _ in range(n):
        p = rng.choice(files)
        text, done = mutate(p.read_text(encoding="utf-8"), rng)
        out.append(Input("mutations", f"{p.relative_to(ROOT)}: " + "; ".join(done),
                         text.encode("utf-8", "surrogatepass"), rng.choice(("ask", "check"))))
    return out


# --------------------------------------------------------------------------- the plan

SHARES = {"wrong_types": 0.33, "numeric": 0.12, "yaml11": 0.08, "unicode": 0.05}  # of --count; mutations: the rest
FIXED = ("bombs", "bytes", "fs", "semantic")  # every item, whatever --count


def plan(seed: int, count: int, only: set[str] | None) -> list[Input]:
    docs = corpus()
    gens = {"wrong_types": gen_wrong_types, "numeric": gen_numeric, "yaml11": gen_yaml11, "unicode": gen_unicode,
            "bombs": gen_bombs, "bytes": gen_bytes, "fs": gen_fs, "semantic": gen_semantic}
    chosen: list[Input] = []
    for name in [*FIXED, *SHARES]:
        if only and name not in only:
            continue
        items = gens[name](random.Random(f"{seed}:{name}"), docs)
        if name in SHARES:
            items = items[:max(1, round(SHARES[name] * count))]
        chosen += items
    if not only or "mutations" in only:
        chosen += gen_mutations(random.Random(f"{seed}:mutations"), docs, max(100, count - len(chosen)))
    for k, item in enumerate(chosen):
        item.index = k
    return chosen


# --------------------------------------------------------------------------- running

ERROR_RE = re.compile(r"aslrules: error: (?P<file>.+?)(?::(?P<line>[0-9]+))?: (?P<path>[^:]+): (?P<msg>\S.*)")


@dataclass
class Result:
    rc: int | None          # None: hang
    out: str
    err: str
    fresh: bool
    seconds: float


def driver() -> None:
    """Run inputs in this process, one per line of stdin ({"argv": [...]}), answering one JSON line each."""
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8")
    capture = tempfile.TemporaryFile()
    os.dup2(capture.fileno(), 1)
    os.dup2(capture.fileno(), 2)
    sys.path.insert(0, str(ROOT))
    from aslrules.cli import main
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        main(["ask", str(SITUATION)])  # parse the KB once
    channel.write("ready\n")
    channel.flush()
    for line in iter(sys.stdin.readline, ""):
        argv = json.loads(line)["argv"]
        capture.seek(0)
        capture.truncate()
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = main(argv)
            except SystemExit as e:
                rc = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
                if not isinstance(e.code, (int, type(None))):
                    print(e.code, file=sys.stderr)
            except BaseException:
                traceback.print_exc()
                rc = 1
        sys.stdout.flush()
        sys.stderr.flush()
        capture.seek(0)
        raw = capture.read().decode("utf-8", "replace")
        channel.write(json.dumps({"rc": rc, "out": out.getvalue()[-20000:], "err": (err.getvalue() + raw)[-20000:]},
                                 ensure_ascii=True) + "\n")
        channel.flush()


class Driver:
    def __init__(self) -> None:
        self.proc: subprocess.Popen | None = None
        self.buf = b""

    def start(self) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--driver"], cwd=ROOT, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     start_new_session=True)
        self.buf = b""
        if self._line(180) != "ready":
            raise RuntimeError("the fuzz driver did not start")

    def _line(self, timeout: float) -> str | None:
        assert self.proc and self.proc.stdout
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    return None
                self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.proc = None

    def run(self, argv: list[str], timeout: float) -> Result:
        if self.proc is None:
            self.start()
        assert self.proc and self.proc.stdin
        t = time.monotonic()
        try:
            self.proc.stdin.write((json.dumps({"argv": argv}) + "\n").encode())
            self.proc.stdin.flush()
            line = self._line(timeout)
        except TimeoutError:
            self.stop()
            return Result(None, "", "", False, time.monotonic() - t)
        except BrokenPipeError:
            line = None
        if line is None:  # died: by a signal, or exited
            rc = self.proc.wait()
            self.proc = None
            return Result(rc, "", "", False, time.monotonic() - t)
        d = json.loads(line)
        return Result(d["rc"], d["out"], d["err"], False, time.monotonic() - t)


def run_fresh(argv: list[str], timeout: float, user: int | None = None) -> Result:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    t = time.monotonic()
    kwargs = {"user": user, "group": user, "extra_groups": []} if user is not None else {}
    proc = subprocess.Popen([sys.executable, "-m", "aslrules", *argv], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True, **kwargs)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return Result(None, "", "", True, time.monotonic() - t)
    return Result(proc.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), True,
                  time.monotonic() - t)


_DROP: list[bool] = []


def can_drop_privileges() -> bool:
    """Whether this interpreter runs as user nobody (65534): not when it lives under /root."""
    if not _DROP:
        try:
            ok = os.geteuid() == 0 and subprocess.run([sys.executable, "-c", "import clingo, yaml"], user=65534,
                                                      group=65534, extra_groups=[], capture_output=True,
                                                      timeout=60).returncode == 0
        except OSError:
            ok = False
        _DROP.append(ok)
    return _DROP[0]


def judge(item: Input, target: Path, r: Result) -> tuple[str, str]:
    """(outcome, detail): outcome is "ok-accepted", "ok-rejected" or one of BAD."""
    if r.rc is None:
        return "hang", f"no answer in the time allowed ({r.seconds:.0f} s)"
    if r.rc < 0:
        return "signal", f"killed by {signal.Signals(-r.rc).name}"
    if "Traceback (most recent call last)" in r.err or "Traceback (most recent call last)" in r.out:
        lines = [x for x in r.err.strip().splitlines() if x.strip()]
        return "traceback", lines[-1] if lines else "(empty)"
    if r.rc not in (0, 1, 2):
        return "exit", f"exit {r.rc}: {last_line(r.err)}"
    if r.rc == 1 and item.command == "ask":
        return "exit", f"exit 1 from ask: {last_line(r.err)}"
    if r.rc == 2:
        lines = r.err.strip().splitlines()
        m = ERROR_RE.fullmatch(lines[0]) if len(lines) == 1 else None
        shown = str(target)
        if m is None or not (m["file"] == shown or m["file"].startswith(shown + os.sep)):
            return "format", f"{format_problem(lines, shown)}: {r.err.strip()[:300]!r}"
        if item.expect == "pass" or item.expect == "fail":
            return "accepted", f"expected exit {0 if item.expect == 'pass' else 1}, got 2: {lines[0][:300]}"
        if item.name_field and "expected a YAML document" not in m["msg"] and not any(re.search(re.escape(name) + r"(?![0-9a-z_])", m["path"] + " " + m["msg"])
                                       for name in item.name_field.split("|")):
            return "unnamed", f"the message does not name {item.name_field}: {lines[0][:300]}"
        return "ok-rejected", lines[0]
    if item.expect == "reject":
        return "accepted", f"exit {r.rc} for an input that must be rejected: {last_line(r.out)[:200]}"
    if item.expect == "pass" and r.rc != 0:
        return "accepted", f"expected exit 0, got {r.rc}: {last_line(r.out)[:200]}"
    if item.expect == "fail" and r.rc != 1:
        return "accepted", f"expected exit 1 (a failing case found), got {r.rc}: {last_line(r.out)[:200]}"
    if "--format" in item.extra and r.rc == 0:
        return json_problems(item, r.out)
    return "ok-accepted", last_line(r.out)[:200]


def json_problems(item: Input, out: str) -> tuple[str, str]:
    """An accepted input's answers: no negative FP or Residual FP, and the FP `item.fp` when given."""
    from fractions import Fraction
    try:
        answers = json.loads(out)["answers"]
    except (ValueError, KeyError, TypeError):
        return "format", f"`--format json` printed no JSON answers: {out[:200]!r}"
    for k, a in enumerate(answers):
        for key in ("fp", "residual_fp"):
            value = a.get(key)
            if value is not None and Fraction(str(value)) < 0:
                return "wrong", f"answer {k}: {key} {value} (a negative FP)"
    if item.fp is not None and answers and Fraction(str(answers[0].get("fp"))) != item.fp:
        return "wrong", f"answer 0: fp {answers[0].get('fp')}, verdict {answers[0].get('verdict')}, expected fp {item.fp}"
    return "ok-accepted", f"{len(answers)} answers"


def format_problem(lines: list[str], shown: str) -> str:
    if len(lines) != 1:
        return f"{len(lines)} stderr lines"
    prefix = "aslrules: error: "
    if not lines[0].startswith(prefix + shown):
        return "no `aslrules: error: FILE` prefix"
    rest = re.sub(r"^(/[^:]*)?(:[0-9]+)?: ", "", lines[0][len(prefix + shown):])
    if ": " in rest.split(": expected")[0] or ":" in rest.split(": ")[0]:
        return "the PATH holds a ':' (an unknown key written as it is)"
    return "no PATH: message after FILE[:LINE]"


def last_line(text: str) -> str:
    lines = [x for x in text.strip().splitlines() if x.strip()]
    return lines[-1] if lines else ""


@dataclass
class Verdict:
    item: Input
    argv: list[str]
    outcome: str
    detail: str
    result: Result
    confirmed_fresh: bool
    in_process: str | None = None  # the driver's outcome, when the fresh run differs


class Runner:
    def __init__(self, timeout: float, workdir: Path) -> None:
        self.timeout = timeout
        self.workdir = workdir
        self.local = threading.local()
        self.drivers: list[Driver] = []
        self.lock = threading.Lock()

    def driver(self) -> Driver:
        d = getattr(self.local, "driver", None)
        if d is None:
            d = self.local.driver = Driver()
            with self.lock:
                self.drivers.append(d)
        return d

    def prepare(self, item: Input) -> tuple[Path, dict]:
        d = self.workdir / f"{item.index:05}"
        d.mkdir()
        if item.setup is not None:
            return item.setup(d)
        target = d / f"{item.category}.yaml"
        target.write_bytes(item.data or b"")
        return target, {}

    def run(self, item: Input) -> Verdict:
        target, opts = self.prepare(item)
        argv = [item.command, str(target), *item.extra]
        if item.fresh or opts:
            user = opts.get("user")
            if user is not None and not can_drop_privileges():
                # root reads a mode-000 file: only a crash, a hang or a malformed message counts
                item.what += " (run as root: the interpreter is not runnable by an unprivileged user)"
                item.expect, user = "any", None
            r = run_fresh(argv, self.timeout, user)
            outcome, detail = judge(item, target, r)
            return Verdict(item, argv, outcome, detail, r, True)
        r = self.driver().run(argv, self.timeout)
        outcome, detail = judge(item, target, r)
        if outcome not in BAD:
            return Verdict(item, argv, outcome, detail, r, False)
        fresh = run_fresh(argv, self.timeout)  # the real thing, in a process of its own
        f_outcome, f_detail = judge(item, target, fresh)
        v = Verdict(item, argv, f_outcome, f_detail, fresh, True)
        if f_outcome != outcome:
            v.in_process = f"{outcome}: {detail}"
        return v

    def close(self) -> None:
        for d in self.drivers:
            d.stop()


def sigint_check(delay: float, timeout: float) -> tuple[str, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "aslrules", "check", "tests/cases"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    time.sleep(delay)
    if proc.poll() is not None:
        proc.communicate()
        return "ok", f"SIGINT after {delay} s: the check had finished already (exit {proc.returncode}): not tested"
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C does: the whole foreground process group
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return "hang", f"SIGINT after {delay} s: still running after {timeout} s"
    text = err.decode("utf-8", "replace")
    if proc.returncode == -signal.SIGINT and not text and b"passed," in out:
        # the check had printed its summary and was exiting (Python resets SIGINT while it exits)
        return "ok", f"SIGINT after {delay} s: it came as the finished check exited (its summary printed)"
    if proc.returncode == 130 and "Traceback" not in text:
        return "ok", f"SIGINT after {delay} s: exit 130, stderr {text.strip()[:100]!r}"
    kind = "traceback" if "Traceback" in text else ("signal" if proc.returncode < 0 else "exit")
    return kind, (f"SIGINT after {delay} s: exit {proc.returncode}"
                  + (f", traceback ending {last_line(text)!r}" if "Traceback" in text else f", stderr {text.strip()[:200]!r}"))


# --------------------------------------------------------------------------- report

def signature(v: Verdict) -> tuple[str, str, str]:
    """What makes two failures the same: category, outcome and the detail with the input's own
    values (paths, quoted texts, numbers) blanked."""
    detail = v.detail
    if v.outcome == "traceback":
        frames = re.findall(r'File "([^"]*aslrules[^"]*)", line [0-9]+, in (\S+)', v.result.err)
        where = f"{Path(frames[-1][0]).name}:{frames[-1][1]}" if frames else ""
        blanked = re.sub(r"[0-9]+", "N", re.sub(r"(['\"]).*?\1", "Q", detail))
        detail = f"{blanked[:120]} [{where}]"
    elif v.outcome == "format":
        detail = detail.split(": ", 1)[0]
    elif v.item.group:
        detail = v.item.group
    elif v.outcome == "accepted" and v.item.category in ("semantic", "fs", "bytes", "bombs", "unicode"):
        detail = v.item.what
    elif v.outcome in ("format", "unnamed", "accepted"):
        detail = re.sub(r"/tmp/\S+", "FILE", detail)
        detail = re.sub(r"(got|, got) .*", "got ...", detail)
        detail = re.sub(r"[0-9]+", "N", detail)[:160]
        if v.item.category in ("semantic", "fs", "bytes", "bombs", "yaml11"):
            detail = v.item.what + " | " + detail
    else:
        detail = v.item.what if v.item.category in ("fs", "bombs", "bytes") else detail
    return v.item.category, v.outcome, detail


def keep(v: Verdict, directory: Path, target_dir: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    stem = f"{v.item.index:04}-{v.item.category}"
    if v.item.data is not None:
        (directory / f"{stem}.yaml").write_bytes(v.item.data)
    (directory / f"{stem}.txt").write_text(
        f"category: {v.item.category}\ninput: {v.item.what}\ncommand: aslrules {' '.join(v.argv)}\n"
        f"outcome: {v.outcome}: {v.detail}\nexit: {v.result.rc}\n"
        + (f"in process: {v.in_process}\n" if v.in_process else "")
        + f"--- stderr\n{v.result.err}\n--- stdout (end)\n{v.result.out[-2000:]}\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Fuzz the aslrules command line (see the module docstring).")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=2000, help="inputs in all (at least the fixed categories)")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--timeout", type=float, default=20.0, help="seconds per input")
    p.add_argument("--keep", type=Path, help="write each failing input to this folder")
    p.add_argument("--only", help="comma-separated categories")
    p.add_argument("--no-sigint", action="store_true", help="skip the Ctrl-C check")
    p.add_argument("-v", "--verbose", action="store_true", help="print each bad outcome as it comes")
    p.add_argument("--driver", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.driver:
        driver()
        return 0
    only = set(args.only.split(",")) if args.only else None
    items = plan(args.seed, args.count, only)
    print(f"fuzz: seed {args.seed}, {len(items)} inputs, {args.jobs} jobs, timeout {args.timeout:g} s", flush=True)
    start = time.monotonic()
    workdir = Path(tempfile.mkdtemp(prefix="aslrules-fuzz-"))
    os.chmod(workdir, 0o755)
    runner = Runner(args.timeout, workdir)
    verdicts: list[Verdict] = []
    try:
        with cf.ThreadPoolExecutor(args.jobs) as pool:
            for n, v in enumerate(pool.map(runner.run, items), 1):
                verdicts.append(v)
                if v.outcome in BAD and args.verbose:
                    print(f"  [{v.item.index}] {v.item.category} {v.outcome}: {v.detail[:160]} <- {v.item.what[:120]}",
                          flush=True)
                if args.keep and v.outcome in BAD:
                    keep(v, args.keep, workdir)
                if n % 250 == 0:
                    print(f"  {n}/{len(items)} inputs, {time.monotonic() - start:.0f} s", flush=True)
    finally:
        runner.close()
        for d in workdir.iterdir():  # undo chmod 000 before removing
            for sub in [d, *d.rglob("*")]:
                with contextlib.suppress(OSError):
                    if not sub.is_symlink():
                        os.chmod(sub, 0o755)
        shutil.rmtree(workdir, ignore_errors=True)
    sigint = [] if args.no_sigint or only else [sigint_check(0.5, args.timeout), sigint_check(0.25, args.timeout)]
    elapsed = time.monotonic() - start

    table: dict[str, Counter] = defaultdict(Counter)
    for v in verdicts:
        table[v.item.category][v.outcome] += 1
    cols = ["inputs", "ok-accepted", "ok-rejected", *BAD]
    print(f"\n{'category':<12}" + "".join(f"{c:>12}" for c in cols))
    total: Counter = Counter()
    for cat in sorted(table):
        row = table[cat]
        row["inputs"] = sum(row.values())
        total.update(row)
        print(f"{cat:<12}" + "".join(f"{row[c]:>12}" for c in cols))
    print(f"{'all':<12}" + "".join(f"{total[c]:>12}" for c in cols))
    bad = sum(total[c] for c in BAD)
    print(f"\n{len(verdicts)} inputs in {elapsed:.0f} s: {bad} bad "
          + ", ".join(f"{total[c]} {c}" for c in BAD))
    for kind, detail in sigint:
        print(f"Ctrl-C check: {kind}: {detail}")
    bad += sum(kind != "ok" for kind, _ in sigint)

    groups: dict[tuple[str, str, str], list[Verdict]] = defaultdict(list)
    for v in verdicts:
        if v.outcome in BAD:
            groups[signature(v)].append(v)
    if groups:
        print(f"\n{len(groups)} distinct failures (category | outcome | what | count | smallest input):")
    for k, (sig, vs) in enumerate(sorted(groups.items()), 1):
        smallest = min(vs, key=lambda v: (len(v.item.data or b""), v.item.index))
        print(f"{k:3}. {sig[0]} | {sig[1]} | {sig[2][:200]} | {len(vs)} input(s)")
        print(f"     smallest, input #{smallest.item.index}: aslrules {smallest.item.command} ... : "
              f"{smallest.item.what[:300]}")
        print(f"     -> {smallest.detail[:300]}")
        if smallest.outcome == "traceback":
            frames = re.findall(r'File "([^"]*aslrules[^"]*)", line ([0-9]+), in (\S+)', smallest.result.err)
            if frames:
                print(f"     raised in {Path(frames[-1][0]).name}:{frames[-1][1]} ({frames[-1][2]})")
        if smallest.in_process:
            print(f"     (in the long-lived process: {smallest.in_process[:200]})")
    accepted = [v for v in verdicts if v.item.note_accepted and v.outcome == "ok-accepted"]
    if accepted:
        print(f"\naccepted extremes (not counted as bad): {len(accepted)} inputs: "
              + "; ".join(sorted(v.item.group for v in accepted)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
