"""Characters a glossary line or a deck text may not hold.

Texts are single-line plain data shown in terminals and Anki. C0/C1 control
characters (ESC starts terminal escape sequences, BEL, NUL…) and the bidi
embedding/override/isolate controls (U+202A–U+202E, U+2066–U+2069, which can make
text display in an order other than the stored one) are refused. Tab is allowed
(it is plain spacing); so are ZWJ/ZWNJ (U+200D/U+200C, Bengali spelling needs them)
and the directional marks LRM/RLM (U+200E/U+200F, harmless hints for mixed
Arabic/Latin text).
"""

from __future__ import annotations

import re

from quizzer.errors import CONTROL_CHARS

#: Longest text (term, definition, original, reason) a deck may hold. A glossary line becomes
#: a text and may be as long (the glossary parser's limit): a definition is a paragraph, and
#: 10,000 characters are pages of one. Anything longer is no flashcard text but a pasted
#: document or damage, and costs every command that shows or counts it (a 5-million-character
#: term made `stats` take 24-32 s).
MAX_TEXT_CHARS = 10_000

#: One forbidden character: C0 controls but tab, DEL, C1 controls, bidi embeddings/isolates
#: (the characters :func:`quizzer.errors.shown` escapes when printing).
FORBIDDEN_RE = re.compile(f"[{CONTROL_CHARS}]")


def forbidden_char(text: str) -> str | None:
    """The first forbidden character of ``text`` as ``"U+001B"``, or ``None`` when clean."""
    found = FORBIDDEN_RE.search(text)
    return None if found is None else f"U+{ord(found.group()):04X}"


def describe(code: str) -> str:
    """What a forbidden character is, for error messages (``"U+001B (a control character)"``)."""
    value = int(code[2:], 16)
    kind = "a bidi control character" if value >= 0x202A else "a control character"
    return f"{code} ({kind})"
