"""The on-disk cache of the KB's analysis (parsed program, batch rewrite, relevance analysis).

Walking the KB's AST from Python costs about a second; a cold `aslrules ask` should not pay
that each time.  An entry lives in the user's cache directory under a key that hashes the
KB files' names and contents, the fast package's `VERSION`, clingo's version (the program
text is clingo's own) and Python's (marshal's format).  Any change to them makes a new key.

An entry is one file: a header (a magic string, the full key, the SHA-256 of the payload)
and the payload, `marshal` of plain tuples, lists, dicts and sets (no JSON to parse).  On
load the header is checked against the key and the payload against its hash, so a
truncated, damaged or foreign entry reads as missing: the caller rebuilds it and writes it
again.  A directory that cannot be written (a read-only home) means no cache, not an error.
"""

from __future__ import annotations

import hashlib
import logging
import marshal
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import clingo

log = logging.getLogger(__name__)

_MAGIC = b"aslrules-kb-cache\n"
_KEEP = 7  # entries of other keys kept (other KB versions, other checkouts)


def key(files: Sequence[Path], version: str) -> str:
    """The hex SHA-256 of what an entry depends on."""
    h = hashlib.sha256()
    for part in (version, clingo.__version__, f"{sys.version_info[0]}.{sys.version_info[1]}",
                 str(marshal.version)):
        h.update(part.encode() + b"\0")
    for f in files:
        h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def directory() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "aslrules"


class Cache:
    """Named entries for one key; `read` gives None for anything but a sound entry."""

    def __init__(self, files: Sequence[Path], version: str, root: Path | None = None):
        self.key = key(files, version)
        self.dir = (root or directory()) / self.key[:24]

    def path(self, name: str) -> Path:
        return self.dir / f"{name}.bin"

    def read(self, name: str) -> Any | None:
        """The value stored under `name`, or None if missing, damaged or not of this key."""
        try:
            data = self.path(name).read_bytes()
        except OSError:
            return None
        head = len(_MAGIC) + 64 + 32
        if len(data) < head or not data.startswith(_MAGIC):
            return None
        stored_key = data[len(_MAGIC):len(_MAGIC) + 64]
        digest, payload = data[len(_MAGIC) + 64:head], data[head:]
        if stored_key != self.key.encode() or hashlib.sha256(payload).digest() != digest:
            log.info("cache entry %s is damaged or stale: rebuilt", self.path(name))
            return None
        try:
            return marshal.loads(payload)
        except (ValueError, EOFError, TypeError):  # pragma: no cover - the hash matched
            return None

    def write(self, name: str, value: Any) -> None:
        """Store `value` (plain data marshal can write) under `name`; no error if it cannot be."""
        try:
            payload = marshal.dumps(value)
            if not self.dir.is_dir():  # a new key: forget all but the latest few
                old = sorted(self.dir.parent.glob("*"), key=lambda p: p.stat().st_mtime) \
                    if self.dir.parent.is_dir() else []
                for stale in old[:-_KEEP]:
                    shutil.rmtree(stale, ignore_errors=True)
            self.dir.mkdir(parents=True, exist_ok=True)
            tmp = self.dir / f".{name}.{os.getpid()}"
            tmp.write_bytes(_MAGIC + self.key.encode() + hashlib.sha256(payload).digest() + payload)
            os.replace(tmp, self.path(name))
        except (OSError, ValueError) as e:  # a read-only home: work without the cache
            log.info("cannot write the cache %s: %s", self.dir, e)
