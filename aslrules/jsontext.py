"""JSON text as the CLI prints it: indented by two spaces, ASCII only (what `json.dumps(obj,
indent=2)` gives), written by msgspec's encoder: a listing of thousands of answers is tens of
megabytes of JSON, and the standard library's indenting encoder is pure Python."""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import islice
from typing import Any, TextIO

import msgspec

_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def _escape(m: re.Match) -> str:
    code = ord(m.group())
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000  # a UTF-16 surrogate pair, as json.dumps writes it
    return f"\\u{0xD800 | (code >> 10):04x}\\u{0xDC00 | (code & 0x3FF):04x}"


def json_text(obj: Any) -> str:
    """`obj` (dicts, lists, str, int, float, bool, None) as `json.dumps(obj, indent=2)` writes it."""
    text = msgspec.json.format(msgspec.json.encode(obj), indent=2).decode()
    # non-ASCII characters occur only inside strings, where \\uXXXX means the same
    return text if text.isascii() else _NON_ASCII.sub(_escape, text)


def write_json(out: TextIO, obj: dict[str, Any], key: str, items: Iterable[Any], chunk: int = 256) -> None:
    """Write `json_text(obj)`, with `obj[key]` the list of `items`, and a newline, `chunk` items at
    a time: a listing's answers are made into data and text a few hundred at once, never all held
    as data and as one text at once (at 250 units a side that text is 70 MB).  The text is
    json_text's: a chunk is written as the list of a key of an object, so its items come indented
    as `obj[key]`'s (four spaces), and the text around them is cut off."""
    rest = iter(items)
    batch = list(islice(rest, chunk))
    if not batch:
        out.write(json_text({**obj, key: []}) + "\n")
        return
    marker = "\x00item"
    head, _, tail = json_text({**obj, key: [marker]}).partition(f'    "{json_text(marker)[1:-1]}"')
    out.write(head)
    while batch:
        out.write(json_text({"": batch})[_CUT_HEAD:-_CUT_TAIL])
        batch = list(islice(rest, chunk))
        if batch:
            out.write(",\n")
    out.write(tail + "\n")


# json_text({"": items}) is '{\n  "": [\n' + the items, each indented by four spaces + '\n  ]\n}'
_CUT_HEAD, _CUT_TAIL = len('{\n  "": [\n'), len("\n  ]\n}")
