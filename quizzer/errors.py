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
