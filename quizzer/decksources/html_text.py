"""Anki field HTML reduced to the plain text it shows.

Anki keeps a field as HTML: ``<b>cat</b>``, ``the house &amp; home``, ``<div>…</div>``
per line, ``[sound:…]`` for audio. quizzer keeps texts as plain data, so tags are
dropped, entities decoded, line and block breaks become one space, and sound and image
references go. The result is never markup again: it is escaped wherever it is shown.
"""

from __future__ import annotations

import re
import unicodedata
from html.parser import HTMLParser

#: Elements whose start or end breaks a line when Anki shows them.
_BREAKS = frozenset({"br", "div", "p", "li", "ul", "ol", "tr", "td", "th", "h1", "h2", "h3"})
#: Elements whose content is never shown as text.
_HIDDEN = frozenset({"script", "style", "head", "title"})
_SOUND_RE = re.compile(r"\[sound:[^\]]*\]")
_SPACE_RE = re.compile(r"\s+")
#: Characters a text may not hold (controls but tab, bidi embeddings, overrides, isolates):
#: a field can carry them invisibly, and they are no part of what it says.
_INVISIBLE_RE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, _attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            self._hidden += 1
        elif tag in _BREAKS:
            self.parts.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN:
            self._hidden = max(0, self._hidden - 1)
        elif tag in _BREAKS:
            self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


def html_to_text(value: str) -> str:
    """The text an HTML field shows, on one line, NFC, trimmed (``""`` for a blank field)."""
    if "<" in value or "&" in value:
        parser = _Text()
        parser.feed(value)
        parser.close()
        value = "".join(parser.parts)
    return plain_text(_SOUND_RE.sub(" ", value))


def plain_text(value: str) -> str:
    """A plain-text cell as a text: invisible controls dropped, spaces collapsed, NFC."""
    value = _INVISIBLE_RE.sub("", value.replace("\xa0", " "))
    return unicodedata.normalize("NFC", _SPACE_RE.sub(" ", value).strip())
