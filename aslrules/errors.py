"""Errors the user can act on: each names the file, line, field path and what was expected."""

from __future__ import annotations


class InputError(Exception):
    """A situation or case file that cannot be read.  The CLI prints it on one line, exit 2."""

    def __init__(self, file: str, line: int | None, path: str, expected: str, got: object = None):
        self.file, self.line, self.path, self.expected, self.got = file, line, path, expected, got
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        text = f"{where}: {self.path or '(top level)'}: expected {self.expected}"
        if self.got is not None:
            got = repr(self.got)
            text += f", got {got if len(got) <= 60 else got[:57] + '...'}"
        return text.replace("\n", " ")


class EngineError(InputError):
    """The engine could not answer: a worker process died or failed, or the KB has no answer.

    Not the user's file's fault, but a message, not a traceback: it is an InputError so that the
    CLI prints it on one line and exits 2."""

    def __init__(self, message: str):
        self.message = message
        super().__init__("", None, "", message)

    def __str__(self) -> str:
        return f"engine: {self.message}".replace("\n", " ")

    def __reduce__(self) -> tuple:
        return (EngineError, (self.message,))
