"""What the page can do, without the web framework: open a file, check it, ask it, replay it, save it.

The server is started on one file or one directory (`aslrules serve FILE|DIR`): those files are
the only ones it reads and writes (by name, from its own list: a request never names a path), and
a new file goes into that directory only by an explicit save-as.  A situation the page sends is the
format's own mapping (JSON); it is written as YAML and read by the loader, so every error is the
loader's own message, and the answers are those of `aslrules ask FILE --format json`, produced by
the CLI's own code (`_cli_json`).  Nothing here decides anything about ASL.
"""

from __future__ import annotations

import functools
import io
import json
import os
import re
import sys
import threading
from contextlib import contextmanager, redirect_stdout
from fractions import Fraction
from typing import Any

import msgspec
import yaml

from ..errors import InputError
from ..loader import CASE_SUFFIXES, _scalar, compose, load_text
from ..model import Situation

#: One question at a time: the solver and the CLI's standard output are the process's own.
LOCK = threading.RLock()

#: A file name save-as may create: a plain name in the served directory, a YAML suffix.
NEW_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,100}\.ya?ml")


def error_dict(e: InputError, name: str | None = None) -> dict[str, Any]:
    """An InputError for the page: the loader's message, and the field path it names (where the
    page shows it).  `name` replaces `<stdin>`, the CLI's name for a situation read from standard
    input."""
    file = name if name is not None and e.file in ("<stdin>", "-") else e.file
    if file != e.file:
        e = InputError(file, e.line, e.path, e.expected, e.got)
    message = str(e)
    return {"message": message, "file": e.file, "line": e.line, "path": e.path,
            "expected": getattr(e, "expected", ""), "got": None if e.got is None else str(e.got)}


class Problem(Exception):
    """A request the server refuses (not an input file's error): a message and an HTTP status."""

    def __init__(self, message: str, status: int = 400, path: str = ""):
        super().__init__(message)
        self.message, self.status, self.path = message, status, path


# --------------------------------------------------------------------------- YAML out


def _enc(x: Any) -> Any:
    if isinstance(x, Fraction):
        return int(x) if x.denominator == 1 else float(x)
    raise NotImplementedError(type(x))


def builtins(obj: Any) -> Any:
    """A loaded situation (schema Structs) as the format's plain mapping: defaults left out,
    exact numbers as JSON numbers (multiples of 1/64: exact in binary)."""
    out = msgspec.to_builtins(obj, enc_hook=_enc)
    if isinstance(out, dict):  # a mapping of defaults only (readings: {}) says nothing
        out = {k: v for k, v in out.items() if v != {}}
    return out


class _Dumper(yaml.SafeDumper):
    """YAML as the format reads it: a text that the loader would read as a number, flag or null
    (`1e2`, `on`, `~`) is quoted; floats written as the shortest decimal."""


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = None if isinstance(_scalar(value, True, None), str) and value.strip() == value and value else "'"
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


def _float(dumper: yaml.SafeDumper, value: float) -> yaml.Node:
    return dumper.represent_scalar("tag:yaml.org,2002:float", repr(value))


_Dumper.add_representer(str, _str)
_Dumper.add_representer(float, _float)


def situation_yaml(data: Any) -> str:
    """The page's situation as a format file."""
    if not isinstance(data, dict):
        raise Problem("the situation: a mapping of the format (docs/format.md)", path="")
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=None, width=100)


def comment_lines(text: str) -> list[int]:
    """The lines of a YAML text that hold a comment (a `#` outside every scalar)."""
    scalars: list[tuple[int, int]] = []
    try:
        for tok in yaml.scan(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
            if isinstance(tok, yaml.ScalarToken):
                scalars.append((tok.start_mark.index, tok.end_mark.index))
    except yaml.YAMLError:
        pass
    lines = []
    k = 0
    for m in re.finditer("#", text):
        i = m.start()
        while k < len(scalars) and scalars[k][1] <= i:
            k += 1
        if k < len(scalars) and scalars[k][0] <= i < scalars[k][1]:
            continue
        if i == 0 or text[i - 1] in " \t\r\n":
            line = text.count("\n", 0, i) + 1
            if not lines or lines[-1] != line:
                lines.append(line)
    return lines


# --------------------------------------------------------------------------- the CLI's own answers


@contextmanager
def _stdin(text: str | None):
    if text is None:
        yield
        return
    saved = sys.stdin
    sys.stdin = io.StringIO(text)
    try:
        yield
    finally:
        sys.stdin = saved


@functools.cache
def _parser() -> Any:
    from .. import cli

    return cli._parser()


def _cli_json(argv: list[str], stdin_text: str | None = None) -> str:
    """Run an `aslrules` command in this process (its own code, the solver kept warm) and return
    what it writes on standard output; its InputError is raised as the CLI would report it."""
    from .. import cli

    args = _parser().parse_args(argv)
    out = io.StringIO()
    with LOCK, redirect_stdout(out), _stdin(stdin_text):
        cli._COMMANDS[args.command](args)
    return out.getvalue()


@functools.cache
def ask_options() -> frozenset[str]:
    """The options `aslrules ask` takes here (--firer; --target where the listing has it)."""
    parser = _parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    return frozenset(s for a in sub.choices["ask"]._actions for s in a.option_strings)


# --------------------------------------------------------------------------- the workspace


class Workspace:
    """The files the server was started on, and what the page may do with them."""

    def __init__(self, target: str, rulings: str | None = None):
        from ..loader import case_files

        self.target = target
        if os.path.isdir(target):
            self.directory = target
            found = case_files([target]) if _has_yaml(target) else []
            self.files = {os.path.relpath(p, target): p for p in found}
        elif os.path.isfile(target):
            self.directory = os.path.dirname(target) or "."
            self.files = {os.path.basename(target): target}
        else:
            raise InputError(target, None, "", "a situation file or a directory of them", "nothing there")
        from .rules import Rules

        self.rules = Rules(rulings)
        self._disk: dict[str, tuple[Any, Any]] = {}  # path -> ((size, mtime, inode), its situation)

    # -- files

    def path(self, name: str) -> str:
        path = self.files.get(name)
        if path is None:
            raise Problem(f"a file this server was started on ({', '.join(sorted(self.files)) or 'none'}), "
                          f"got {name!r}", status=404)
        return path

    def file_list(self) -> dict[str, Any]:
        """The files, and what the page needs to show answers as the CLI does: the figures' labels
        (render.LABELS, in their order; null: not a line of its own) and whether `ask` has --target."""
        from ..render import LABELS

        return {"directory": self.directory, "files": sorted(self.files), "labels": LABELS,
                "target_option": "--target" in ask_options()}

    def open(self, name: str) -> dict[str, Any]:
        """A file's text, its situation as the format's mapping, the loader's error if any, and
        the lines of its comments (a save writes the situation without them)."""
        from ..rulings import read_text

        path = self.path(name)
        try:
            text = read_text(path)
        except InputError as e:
            return {"name": name, "path": path, "text": "", "data": None, "error": error_dict(e), "comments": []}
        error = None
        data: Any = None
        try:
            data = builtins(load_text(text, path).data)
        except InputError as e:
            error = error_dict(e)
            try:
                data = _plain(compose(text, path)[0])
            except InputError:
                data = None
        return {"name": name, "path": path, "text": text, "data": data, "error": error,
                "comments": comment_lines(text)}

    # -- checking

    def load(self, name: str, data: Any) -> tuple[Situation, str]:
        """The page's situation, written as YAML and read by the loader (its errors as they are)."""
        path = self.path(name)
        text = situation_yaml(data)
        return load_text(text, path), text

    def validate(self, name: str, data: Any, *, kb: bool = True) -> dict[str, Any]:
        """The loader's check and, with `kb`, what only the map can tell (the KB's input checks)."""
        from ..core import validate

        sit, text = self.load(name, data)
        if kb:
            with LOCK:
                validate(sit)
        return {"ok": True, "yaml": text}

    def _as_saved(self, name: str, data: Any) -> bool:
        """Whether the page's situation is the file's as it is on disk (read again when the file
        changes: its size and time of change are the key)."""
        from ..loader import load_file

        path = self.path(name)
        try:
            st = os.stat(path)
        except OSError:
            return False
        key = (path, st.st_size, st.st_mtime_ns, st.st_ino)
        if self._disk.get(path, (None,))[0] != key:
            try:
                self._disk[path] = (key, builtins(load_file(path).data))
            except InputError:
                self._disk[path] = (key, None)
        return self._disk[path][1] == data

    def ask(self, name: str, data: Any, firer: str | None = None, target: str | None = None) -> str:
        """`aslrules ask FILE --format json` on the page's situation: FILE itself when the situation
        is the file's as saved, else `-` with the situation on standard input.  The CLI's output,
        as it writes it."""
        path = self.path(name)
        opts: list[str] = []
        if firer:
            opts += ["--firer", firer]
        if target:
            if "--target" not in ask_options():
                raise Problem("--target: this aslrules lists no attacks by target; click a DEFENDER unit",
                              path="target")
            opts += ["--target", target]
        if self._as_saved(name, data):
            return _cli_json(["ask", path, "--format", "json", *opts])
        if not isinstance(data, dict):
            raise Problem("the situation: a mapping of the format (docs/format.md)", path="")
        # JSON is YAML: the loader reads it as it reads the YAML a save writes (quoted texts stay
        # texts), and it is written 20x faster.  An error is reported on the YAML, whose lines are
        # those of the file a save would write.
        try:
            return _cli_json(["ask", "-", "--format", "json", *opts], stdin_text=json.dumps(data, indent=0))
        except InputError:
            pass
        try:
            return _cli_json(["ask", "-", "--format", "json", *opts], stdin_text=situation_yaml(data))
        except InputError as e:
            raise _named(e, path) from None

    def replay(self, name: str, data: Any) -> dict[str, Any]:
        """`aslrules replay FILE --format json` on the page's situation, with the situation before
        each step (and after the last) as the format's mapping."""
        from ..replay import change_text, replay, replay_dict

        sit, _ = self.load(name, data)
        if not sit.data.sequence:
            raise Problem("a situation with a sequence: of steps to replay (docs/replay.md)", path="sequence")
        with LOCK:
            rep = replay(sit)
        out = replay_dict(rep)
        out["ok"] = rep.ok
        for step, result in zip(out["steps"], rep.steps):
            step["changes_text"] = [change_text(c) for c in result.changes if c.field != "attacked_by"]
        out["states"] = [builtins(msgspec.structs.replace(s, sequence=[], expect=[], ask=[])) for s in rep.states]
        return out

    # -- saving

    def save(self, name: str, data: Any, *, save_as: str | None = None, drop_comments: bool = False) -> dict[str, Any]:
        """Write the page's situation: over the file it came from, or (save-as) into a new file of
        the served directory.  The file written is read back and must load as the situation sent."""
        source = self.path(name)
        if save_as is not None:
            if not NEW_NAME.fullmatch(save_as) or save_as in (".yaml", ".yml"):
                raise Problem("save as: a new file name in the served directory, like my_turn.yaml (letters, "
                              f"digits, '_', '-', '.'; ending .yaml), got {save_as!r}", path="save_as")
            path = os.path.join(self.directory, save_as)
            new_name = os.path.relpath(path, self.directory)
        else:
            path, new_name = source, name
        text = situation_yaml(data)
        sit = load_text(text, path)
        if save_as is None and not drop_comments:
            try:
                from ..rulings import read_text

                comments = comment_lines(read_text(path))
            except InputError:
                comments = []
            if comments:
                raise Problem(f"{name} has comments (lines {', '.join(map(str, comments))}) that a save does not "
                              "keep: save again to drop them, or save as a new file", status=409)
        try:
            with open(path, "x" if save_as is not None else "w", encoding="utf-8") as out:
                out.write(text)
        except FileExistsError:
            raise Problem(f"save as: a new file, {save_as} exists already", path="save_as", status=409) from None
        except OSError as error:
            raise Problem(f"{path}: cannot write: {error.strerror or error}", status=500) from None
        from ..loader import load_file

        back = load_file(path)
        if back.data != sit.data:  # pragma: no cover - the dumper writes what the loader reads
            raise Problem(f"{path}: written, but it does not load back as the situation sent", status=500)
        if save_as is not None:
            self.files[new_name] = path
        return {"saved": new_name, "path": path, "text": text}


def _named(e: InputError, path: str) -> InputError:
    if e.file in ("<stdin>", "-"):
        return InputError(path, e.line, e.path, e.expected, e.got)
    return e


def _has_yaml(directory: str) -> bool:
    for _, _, names in os.walk(directory):
        if any(n.lower().endswith(CASE_SUFFIXES) for n in names):
            return True
    return False


def _plain(value: Any) -> Any:
    """Composed YAML values for JSON (exact numbers as numbers)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, Fraction):
        return _enc(value)
    return value
