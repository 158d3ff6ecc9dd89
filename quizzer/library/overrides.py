"""A learner's edits to the texts of a bundled deck, kept beside the user decks.

A bundled deck's file ships with quizzer and is replaced by an upgrade, so an edit made in
the card browser goes to ``<user decks>/overrides/<deck id>.json`` and is laid over the deck
each time it is loaded: the edited text takes the place of the shipped one, with the text
before it kept as its provenance (``corrected``, ``original``) and the concept id unchanged,
so progress and Anki notes stay attached. An edit to one of the learner's own decks is
written in that deck's file instead (:mod:`quizzer.services.cards`).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from quizzer.concepts.concept import Concept, Entry, Provenance, Text
from quizzer.concepts.deck import Deck
from quizzer.concepts.textrules import MAX_TEXT_CHARS, describe, forbidden_char
from quizzer.errors import InputError
from quizzer.fsutil import atomic_write_text, read_regular_file

#: The folder of override files inside the user decks folder.
FOLDER = "overrides"
#: The largest override file read (a few thousand edits).
MAX_BYTES = 4 << 20
#: Why an edited text differs from the one before it, as its provenance says.
REASON = "edited by the learner in quizzer"


def override_path(decks_dir: Path, deck_id: str) -> Path:
    """Where the edits to bundled deck ``deck_id`` are kept."""
    return decks_dir / FOLDER / f"{deck_id}.json"


def read_overrides(path: Path) -> dict[tuple[str, str, str], str]:
    """The edits in ``path``: (concept id, language, side) → text; none when there is no
    file. A damaged file is an :class:`InputError` naming it and what is wrong."""
    if not path.is_file():
        return {}
    try:
        data = json.loads(read_regular_file(path, MAX_BYTES, "override file"))
        edits = data["texts"]
        out: dict[tuple[str, str, str], str] = {}
        for item in edits:
            key = (str(item["concept"]), str(item["lang"]), str(item["side"]))
            text = item["text"]
            if (
                not isinstance(text, str)
                or not text.strip()
                or key[2] not in ("term", "definition")
                or text_problem(text) is not None
            ):
                raise ValueError(f"a bad edit: {item!r:.80}")
            out[key] = text
        return out
    except (ValueError, KeyError, TypeError) as exc:
        raise InputError(
            f"the override file can't be read: {exc}",
            hint="move it away to load the deck as it shipped",
            path=path,
        ) from None


def write_override(path: Path, concept_id: str, lang: str, side: str, text: str) -> None:
    """Keep one edit in ``path`` (atomically; an earlier edit of the same text is replaced)."""
    edits = read_overrides(path)
    edits[(concept_id, lang, side)] = text
    items = [
        {"concept": c, "lang": lang_, "side": side_, "text": value}
        for (c, lang_, side_), value in sorted(edits.items())
    ]
    body = {"format": "quizzer-overrides", "version": 1, "texts": items}
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(body, ensure_ascii=False, indent=1) + "\n")


def text_problem(text: str) -> InputError | None:
    """What keeps ``text`` from being a deck text, said for the learner who typed it (too
    long, or holding a control character), or ``None`` when it may be one."""
    if len(text) > MAX_TEXT_CHARS:
        return InputError(
            f"the new text is {len(text):,} characters long; a text holds at most "
            f"{MAX_TEXT_CHARS:,}",
            hint="shorten it: a card's text is a term or a paragraph, not a document",
        )
    bad = forbidden_char(text)
    if bad is not None:
        return InputError(
            f"the new text holds {describe(bad)}: a text is plain, on one line",
            hint="type it again without that character (a line break, an escape, a "
            "direction override)",
        )
    return None


def edited(before: Text, text: str) -> Text:
    """``text`` in place of ``before``: a correction keeping the first original and, for a
    text from a glossary, its file and line. A text no deck may hold is an
    :class:`InputError` (:func:`text_problem`)."""
    problem = text_problem(text)
    if problem is not None:
        raise problem
    source = before.source
    original = source.original if source.kind == "corrected" and source.original else before.text
    return Text(
        text,
        Provenance(
            "corrected", file=source.file, line=source.line, original=original, reason=REASON
        ),
    )


def with_text(concept: Concept, lang: str, side: str, text: str) -> Concept:
    """``concept`` with its ``lang`` ``side`` text edited to ``text`` (:func:`edited`)."""
    entry = concept.entries.get(lang)
    if entry is None:
        raise InputError(f"{concept.uid} has no {lang} text", hint="edit a text it has")
    before = entry.side(side)  # type: ignore[arg-type]
    new = edited(before, text)
    changed = Entry(new, entry.definition) if side == "term" else Entry(entry.term, new)
    return concept.with_entry(lang, changed)


def apply_overrides(deck: Deck, edits: dict[tuple[str, str, str], str]) -> Deck:
    """``deck`` with ``edits`` laid over it (edits of texts it no longer has are left out)."""
    if not edits:
        return deck
    concepts = []
    for concept in deck.concepts:
        for (cid, lang, side), text in edits.items():
            if cid == concept.id and lang in concept.entries:
                current = concept.entries[lang].side(side)  # type: ignore[arg-type]
                if current.text != text:
                    concept = with_text(concept, lang, side, text)
        concepts.append(concept)
    return replace(deck, concepts=tuple(concepts))


def overridden(deck: Deck, decks_dir: Path) -> Deck:
    """``deck`` (a bundled one) with the learner's edits from ``decks_dir``, if any."""
    return apply_overrides(deck, read_overrides(override_path(decks_dir, deck.id)))
