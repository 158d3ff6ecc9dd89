"""Lines of the app that name languages, drawn as the card captions draw them.

A language is named in English and in itself (``Bangla · বাংলা``) where the line has room,
in itself only (``বাংলা``) where it hasn't, and each name is drawn as it reads: an Arabic
or Persian name joined and right to left with its marks kept (:func:`display_text`).

Each name is shaped on its own, never the line around it: the line is English, read left
to right, and a right-to-left name in it must stay where the sentence puts it. Shaped with
its line, a name at the start would turn the whole line right to left ("term العربية"), and
a name with brackets (``العربية (مصر)``) would lose one to the English word after it.
"""

from __future__ import annotations

from collections.abc import Callable

from quizzer.concepts.languages import both_names, native_name
from quizzer.ui.textshape import cells, clip, display_text

#: A language's name by its tag, drawn for the terminal.
Names = Callable[[str], str]

#: A line where it has room (languages named in English and in themselves), and the
#: shorter line where it hasn't (named in themselves); both drawn as they read.
Captions = tuple[str, str]


def drawn_names(rtl_mode: str) -> tuple[Names, Names]:
    """(both names, the name in itself), each drawn as it reads in ``rtl_mode``."""

    def both(tag: str) -> str:
        return display_text(both_names(tag), rtl_mode)

    def native(tag: str) -> str:
        return display_text(native_name(tag), rtl_mode)

    return both, native


def named(build: Callable[[Names], str], rtl_mode: str) -> Captions:
    """The line ``build`` makes with a name function, made with each language named in
    English and in itself, then in itself only: ``named(lambda name: f"Type the
    {name('bn')} term", mode)`` gives ``("Type the Bangla · বাংলা term", "Type the বাংলা
    term")``."""
    both, native = drawn_names(rtl_mode)
    return build(both), build(native)


def same(text: str) -> Captions:
    """A line that names no language: the same where there is room and where not."""
    return text, text


def pick_caption(captions: Captions, width: int) -> str:
    """The first of ``captions`` that fits ``width`` cells (as the terminal draws them),
    else the shorter one as it is (for a widget that wraps it)."""
    wide, narrow = captions
    return wide if cells(wide) <= width else narrow


def fit_caption(captions: Captions, width: int) -> str:
    """The first of ``captions`` that fits a line ``width`` cells wide, else the shorter
    one cut between grapheme clusters, "…" marking the cut."""
    return clip(pick_caption(captions, width), width)
