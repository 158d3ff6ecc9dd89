"""Errors meant for the user, not for a traceback."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

#: Characters that act on a terminal instead of showing (C0 controls but tab, DEL, C1
#: controls, bidi embeddings/overrides/isolates): never deck text, never printed raw.
CONTROL_CHARS = "\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069"


@functools.cache
def _unshowable_re() -> re.Pattern[str]:
    """What :func:`shown` escapes: the control characters, and the lone surrogates that stand
    for a file name's undecodable bytes (they can't even be encoded for the terminal)."""
    # Compiled when first needed (~0.4 ms), not at start-up: most runs show no error.
    return re.compile(f"[{CONTROL_CHARS}\ud800-\udfff]")


def _escape(found: re.Match[str]) -> str:
    code = ord(found.group())
    if 0xDC80 <= code <= 0xDCFF:  # os.fsdecode's stand-in for the raw byte code - 0xDC00
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def shown(value: object) -> str:
    """``value`` (a path, a name, a message) as it may reach a terminal.

    A file name or argument may hold ESC (``\\e]52;…`` writes the clipboard, ``\\e[2J``
    clears the screen), newlines or U+202E: they are printed as escapes (``\\x1b``, as
    ``repr`` writes them), everything else (Bengali, Arabic…) as it is.
    """
    return _unshowable_re().sub(_escape, str(value))


@dataclass
class QuizzerError(Exception):
    """A mistake in the user's input or environment, reported without a traceback.

    ``message`` says what is wrong, ``hint`` what to do about it; ``path`` and
    ``line`` locate it when it comes from a file.
    """

    message: str
    hint: str | None = None
    path: Path | str | None = None
    line: int | None = None

    def __post_init__(self) -> None:
        super().__init__(self.message)

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            where = shown(self.path)
            if self.line is not None:
                where += f":{self.line}"
            where += ": "
        text = f"{where}{shown(self.message)}"
        if self.hint:
            text += f"\n  hint: {shown(self.hint)}"
        return text


class InputError(QuizzerError):
    """Bad user input: a glossary, a deck file, a command-line value (exit code 2)."""


class StoreError(QuizzerError):
    """The progress store can't be opened or written as asked (exit code 3)."""


class SourceError(ValueError):
    """Text from a file that can't be read as asked: the base of every parse error.

    ``message`` says what is wrong, ``line`` (1-based) and ``file`` where, ``hint``
    what to do, ``field`` which record field (a dotted path) when there is one. The
    pure parsers raise these; the commands turn them into an :class:`InputError`
    with :meth:`to_input_error`, which names the file the user gave.
    """

    def __init__(
        self,
        message: str,
        line: int | None = None,
        hint: str | None = None,
        *,
        file: str | None = None,
        field: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.hint = hint
        self.file = file
        self.field = field

    def to_input_error(self, path: Path | str | None = None, hint: str | None = None) -> InputError:
        """This error for the user: at ``path`` (else :attr:`file`), with ``hint`` if given."""
        return InputError(
            self.message,
            hint=hint or self.hint or None,
            path=path if path is not None else self.file,
            line=self.line,
        )
