"""Errors meant for the user, not for a traceback."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


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
            where = str(self.path)
            if self.line is not None:
                where += f":{self.line}"
            where += ": "
        text = f"{where}{self.message}"
        if self.hint:
            text += f"\n  hint: {self.hint}"
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
