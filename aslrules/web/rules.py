"""Where a rule id of an answer leads: its statements (the rules-in-scope list) and the ruling files
that bear on it, with their check status (`aslrules rulings`, run in a separate process)."""

from __future__ import annotations

import multiprocessing
import os
import threading
from typing import Any

from ..errors import InputError
from ..scope import base_ids, read_scope, scope_file

__all__ = ["Rules", "base_ids", "read_scope", "scope_file"]


def _check(paths: list[str]) -> dict[str, Any]:
    """`aslrules rulings PATHS --format json`, in a worker process."""
    from ..consistency import as_json, report
    from ..rulings import load_rulings

    return as_json(report(load_rulings(paths)))


class Rules:
    """The statements by rule id, the rulings folder's files, and their check status."""

    def __init__(self, rulings: str | None):
        self.statements = read_scope(scope_file())
        self.known = {s["rule"] for s in self.statements}
        self.rulings_dir = rulings
        self.rulings: list[dict[str, Any]] = []
        self.rulings_error: str | None = None
        self._proc: Any = None
        self._recv: Any = None
        self._result: tuple[str, Any] | None = None
        self._lock = threading.Lock()
        if rulings is not None:
            self._load(rulings)

    def _load(self, directory: str) -> None:
        from ..rulings import load_rulings

        if not os.path.isdir(directory):
            self.rulings_error = f"{directory}: not a directory of ruling files"
            return
        try:
            loaded = load_rulings([directory])
        except InputError as e:
            self.rulings_error = str(e)
            return
        for r in loaded:
            d = r.data
            self.rulings.append({"ruling": r.id, "file": r.path, "status": d.status, "rules": list(d.rules),
                                 "question": d.question, "answer": d.answer, "source": d.source,
                                 "not_encodable": d.not_encodable, "cases": len(r.cases)})

    def index(self) -> dict[str, Any]:
        return {"statements": self.statements, "rulings": self.rulings, "rulings_dir": self.rulings_dir,
                "rulings_error": self.rulings_error}

    def start_check(self) -> None:
        """Check the rulings (as `aslrules rulings` does) in a worker process, once: a daemon, so
        it ends with the server."""
        with self._lock:
            if self._proc is None and self.rulings:
                ctx = multiprocessing.get_context("spawn")
                recv, send = ctx.Pipe(duplex=False)
                self._proc = ctx.Process(target=_check_into, args=([self.rulings_dir], send), daemon=True)
                self._proc.start()
                send.close()
                self._recv = recv

    def check_status(self) -> dict[str, Any]:
        """{state: none | checking | done | error, rulings: {id: {check, verdict}}}."""
        if not self.rulings:
            return {"state": "none", "rulings": {}}
        self.start_check()
        with self._lock:
            if self._result is None:
                if self._recv.poll():
                    try:
                        self._result = self._recv.recv()
                    except EOFError:
                        self._result = ("error", "the rulings check stopped without an answer")
                elif not self._proc.is_alive():
                    self._result = ("error", "the rulings check stopped without an answer")
                else:
                    return {"state": "checking", "rulings": {}}
        state, rep = self._result
        if state == "error":
            return {"state": "error", "message": rep, "rulings": {}}
        return {"state": "done", "fit": rep["fit"]["readings"],
                "rulings": {r["ruling"]: {"check": r["check"], "verdict": r["verdict"]} for r in rep["rulings"]}}


def _check_into(paths: list[str], conn: Any) -> None:
    """The worker: the report, or a message (never a traceback), sent to the server."""
    try:
        conn.send(("done", _check(paths)))
    except InputError as e:
        conn.send(("error", str(e)))
    except Exception as e:  # noqa: BLE001 - a message on the page
        conn.send(("error", f"the rulings check failed: {type(e).__name__}: {e}"))
    finally:
        conn.close()


def default_rulings() -> str | None:
    """The rulings folder the server uses when none is given: ./rulings, if there is one."""
    return "rulings" if os.path.isdir("rulings") and any(
        n.endswith((".yaml", ".yml")) for _, _, ns in os.walk("rulings") for n in ns) else None

