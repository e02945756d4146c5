"""Ruling files (docs/rulings.md): one published Q&A ruling and the cases that encode it.

Read as strictly as a situation file, by the same machinery: `loader.compose` gives the values
with their lines, msgspec converts them into `schema.Ruling` (whose cases are the format's
`Situation`s), and each case is checked by the situation loader's own checker, its messages
naming the field inside the ruling file (`file:line: cases[0].units[1].hex: expected ...`).

Nothing here knows an ASL rule: `aslrules.consistency` runs the cases through the KB.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from typing import Any

import msgspec

from . import schema as S
from .errors import InputError
from .loader import MAX_BYTES, _got, _path_text, _Reader, case_files, compose
from .reference import defaults, describe, struct_fields
from .model import Situation

__all__ = ["Ruling", "load_ruling_file", "load_ruling_text", "ruling_files", "field_reference"]


@dataclass
class Ruling:
    """A loaded ruling file: its fields (`data`, a schema.Ruling) and its cases, checked."""

    path: str
    data: S.Ruling
    cases: list[Situation] = field(default_factory=list)
    lines: dict[tuple, tuple[int, int]] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.data.ruling

    @property
    def status(self) -> str:
        return self.data.status

    def line(self, path: tuple) -> int | None:
        from .model import line_at

        return line_at(self.lines, path)

    def case_line(self, k: int) -> int:
        return self.line(("cases", k)) or 0


class _CaseReader(_Reader):
    """A case inside a ruling file: its lines are the file's, its paths are named from the
    ruling's top (`cases[0].units[1].hex`)."""

    prefix: tuple = ()

    def fail(self, path: tuple, expected: str, got: object = None, *, key: bool = False):  # type: ignore[override]
        raise InputError(self.name, self.line(path, key), _path_text(self.prefix + path), expected, got)


def load_ruling_file(path: str | os.PathLike[str]) -> Ruling:
    """Read and check one ruling file (a regular file of at most 1 MiB of UTF-8)."""
    return load_ruling_text(read_text(path), os.fspath(path))


def read_text(path: str | os.PathLike[str]) -> str:
    """A file's text, checked as the situation loader checks a file: regular, at most 1 MiB, UTF-8."""
    name = os.fspath(path)
    try:
        info = os.stat(name)
        if not stat.S_ISREG(info.st_mode):  # a FIFO would block, a device never end
            what = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise InputError(name, None, "", "a regular file", what)
        with open(name, "rb") as stream:
            data = stream.read(MAX_BYTES + 1)
    except OSError as error:
        raise InputError(name, None, "", "a readable file", error.strerror or str(error)) from None
    if len(data) > MAX_BYTES:
        raise InputError(name, None, "", "a file of at most 1 MiB")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(name, None, "", "UTF-8 text", f"byte {error.start}") from None


def load_ruling_text(text: str, name: str = "<string>") -> Ruling:
    """Check a ruling given as text; `name` stands for the file in messages."""
    if len(text) > MAX_BYTES:
        raise InputError(name, None, "", "a file of at most 1 MiB")
    data, lines, texts = compose(text, name)
    if not isinstance(data, dict):
        got = "nothing" if data is None else _got(data)
        raise InputError(name, 1, "", "a mapping (the ruling)" + (", the file is empty" if data is None else ""),
                         None if data is None else got)
    doc = _Reader(name, lines, texts)
    ruling: S.Ruling = doc.convert(data, S.Ruling, ())
    _check_ruling(doc, ruling, data)
    cases = []
    raw_cases = data.get("cases") or []
    for k, raw in enumerate(raw_cases):
        prefix = ("cases", k)
        if "readings" in raw:
            doc.fail(prefix + ("readings",), "no readings: in a ruling's case (aslrules rulings tries every "
                     "assignment of the named readings)", key=True)
        if not raw.get("expect"):
            doc.fail(prefix, "a case with expect: items (each states a part of the ruling's answer)")
        n = len(prefix)
        sub = _CaseReader(name, {p[n:]: v for p, v in lines.items() if p[:n] == prefix},
                          {p[n:]: v for p, v in texts.items() if p[:n] == prefix})
        sub.prefix = prefix
        sit = sub.read(raw)
        if not sit.data.source:  # a case's failures name the ruling's source
            sit.data = msgspec.structs.replace(sit.data, source=f"{ruling.ruling}: {ruling.source}")
        cases.append(sit)
    return Ruling(name, ruling, cases, lines)


def _check_ruling(doc: _Reader, r: S.Ruling, raw: dict[str, Any]) -> None:
    """The checks between a ruling's fields."""
    if r.overturned_by and r.status != "obsolete":
        doc.fail(("overturned_by",), "overturned_by only on an obsolete ruling (status: obsolete)",
                 r.status, key=True)
    for k, rv in enumerate(r.overturned_by):
        values = S.READINGS.get(rv.reading)
        if values is None:
            doc.fail(("overturned_by", k, "reading"), f"a named reading: one of {', '.join(S.READINGS)}", rv.reading)
        if rv.value not in values:
            doc.fail(("overturned_by", k, "value"), f"a value of {rv.reading}: one of {', '.join(values)}", rv.value)
    seen: dict[str, int] = {}
    for k, rv in enumerate(r.overturned_by):
        if rv.reading in seen:
            doc.fail(("overturned_by", k, "reading"), f"each reading once, {rv.reading} is already given "
                     f"at overturned_by[{seen[rv.reading]}]", rv.reading)
        seen[rv.reading] = k
    if not r.cases and r.not_encodable is None:
        doc.fail(("cases",), "cases that encode the ruling, or not_encodable: saying what is missing", key=True)
    for key in ("question", "answer"):
        if not getattr(r, key).strip():
            doc.fail((key,), "the text of the " + key, getattr(r, key))


def ruling_files(paths: list[str] | tuple[str, ...]) -> list[str]:
    """The ruling files named, directories expanded into their *.yaml files, sorted."""
    return case_files(list(paths))


def load_rulings(paths: list[str] | tuple[str, ...]) -> list[Ruling]:
    """Every ruling file under `paths`; two files with one ruling id are an InputError."""
    rulings = [load_ruling_file(p) for p in ruling_files(paths)]
    seen: dict[str, Ruling] = {}
    for r in rulings:
        first = seen.get(r.id)
        if first is not None:
            raise InputError(r.path, r.line(("ruling",)), "ruling",
                             f"a ruling id used once, {r.id} is also {first.path}", r.id)
        seen[r.id] = r
    return rulings


# --------------------------------------------------------------------------- the field reference

BEGIN = "<!-- ruling field reference: generated by `aslrules rulings --reference`; do not edit by hand -->"
END = "<!-- end of the ruling field reference -->"

SECTIONS: list[tuple[str, type]] = [
    ("A ruling file (top level)", S.Ruling),
    ("`overturned_by` items", S.ReadingValue),
]


def field_reference() -> str:
    """The ruling format's field reference as Markdown, between BEGIN and END (docs/rulings.md)."""
    from .reference import _default

    out = [BEGIN, ""]
    for title, cls in SECTIONS:
        out += [f"### {title} ({cls.__name__})", "", "| field | value | default | meaning |", "|---|---|---|---|"]
        defaults_ = defaults(cls)
        for encoded, (attr, tp, extra) in struct_fields(cls).items():
            value = describe(tp, brief=True).replace("|", "\\|")
            if encoded == "cases":
                value = "a list of situations (docs/format.md), each with expect: items"
            out.append(f"| `{encoded}` | {value} | {_default(defaults_.get(attr, msgspec.NODEFAULT))} "
                       f"| {extra.get('description', '')} |")
        out.append("")
    out.append(END)
    return "\n".join(out)
