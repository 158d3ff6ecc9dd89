"""Review rows as Anki writes them: the revlog ``factor`` of an FSRS answer (issue 10, item 7).

Anki's own engine answers cards with FSRS on; the factor it logs must be what
:func:`quizzer.anki.progress.revlog_factor` gives for the difficulty it reports.
"""

from __future__ import annotations

import sqlite3
import zipfile
from datetime import UTC, datetime, timedelta

from anki.collection import Collection
from anki_support import fixture_deck

from quizzer.anki import export_apkg
from quizzer.anki.progress import progress_from_reviews, revlog_factor
from quizzer.cards.card import CardKey, Pair
from quizzer.progress import open_store
from quizzer.scheduling.answer import Answer


def test_revlog_factor_matches_the_rows_anki_writes(tmp_path) -> None:
    col = Collection(str(tmp_path / "c.anki2"))
    try:
        col.set_config("fsrs", True)
        basic = col.models.by_name("Basic")
        for i in range(3):
            note = col.new_note(basic)
            note["Front"], note["Back"] = f"q{i}", "a"
            col.add_note(note, 1)
        seen = []
        for ease in (3, 1, 4, 2, 3, 3):
            card = col.sched.getCard()
            assert card is not None
            col.sched.answerCard(card, ease)
            card.load()
            factor = col.db.scalar(
                "select factor from revlog where cid = ? order by id desc limit 1", card.id
            )
            assert card.memory_state is not None
            seen.append((card.memory_state.difficulty, factor))
    finally:
        col.close()
    assert len({f for _, f in seen}) >= 3  # several difficulties, not one value checked
    for difficulty, factor in seen:
        assert revlog_factor(difficulty) == factor, (difficulty, factor)


def test_exported_review_rows_carry_anki_factors(tmp_path) -> None:
    deck = fixture_deck()
    key = CardKey(deck.concepts[0].uid, Pair("en", "term", "fr", "term"))
    start = datetime(2026, 3, 1, 9, tzinfo=UTC)
    with open_store(tmp_path / "p.json", tz=UTC) as store:
        for day, grade in ((0, 3), (2, 1), (3, 3), (9, 4)):
            store.record(key, grade, start + timedelta(days=day), Answer(duration_ms=1500))
        reviews = store.reviews()
    out = tmp_path / "deck.apkg"
    export_apkg([deck], out, progress=progress_from_reviews(reviews), reviews=reviews)
    with zipfile.ZipFile(out) as package:
        (tmp_path / "col.anki2").write_bytes(package.read("collection.anki2"))
    conn = sqlite3.connect(tmp_path / "col.anki2")
    try:
        factors = [row[0] for row in conn.execute("select factor from revlog order by id")]
    finally:
        conn.close()
    assert factors == [revlog_factor(r.difficulty) for r in reviews if r.difficulty is not None]
    assert all(100 <= f <= 1100 for f in factors)
