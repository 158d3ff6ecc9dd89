"""--with-progress: cards studied in the terminal continue in Anki where they left off."""

from __future__ import annotations

import sqlite3
import zipfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from anki.collection import Collection

from quizzer.anki import export_apkg
from quizzer.anki.model import Direction, Kind, every_direction
from quizzer.anki.progress import (
    fill_package,
    progress_from_reviews,
    study_day,
)
from quizzer.cards.card import CardKey, Pair
from quizzer.cli.main import main
from quizzer.library.decks import deck_files, read_deck
from quizzer.paths import bundled_decks_dir
from quizzer.progress import open_store
from quizzer.scheduling.answer import Answer
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.grades import CardPhase, Grade
from quizzer.scheduling.review import Review
from quizzer.services.anki_export import read_store
from tests.anki_support import (
    db_of,
    import_package,
    notes_by_uid,
    open_collection,
    recent,
    template_name,
)
from tests.factories import BUNDLED_LANGUAGES

if TYPE_CHECKING:
    from anki.cards import Card

DAY = timedelta(days=1)


def _key(uid: str, code: str) -> CardKey:
    return CardKey(uid, Pair.parse(code))


@pytest.fixture
def studied(tmp_path):
    """A real progress store with answers: new→review, review→longer review, a lapse, learning."""
    db = tmp_path / "progress.json"
    now = datetime.now(UTC)
    te = "training-efficiency"
    plan: list[tuple[CardKey, list[tuple[float, Grade]]]] = [
        # (card, [(days ago, grade), ...])
        (_key(f"{te}/lora", "en:term>bn:definition"), [(3, 4)]),
        (_key(f"{te}/peft", "ru:term>ar:term"), [(30, 4), (12, 3)]),
        (_key(f"{te}/zero", "bn:definition>fr:term"), [(40, 4), (20, 4), (2, 1)]),
        (_key("quantization/gptq", "ar:term>en:definition"), [(0.02, 3)]),
        (_key("quantization/awq", "fr:term>ru:term"), [(9, 3), (8.99, 3), (6, 3)]),
    ]
    with open_store(db) as store:
        for key, answers in plan:
            for days_ago, grade in answers:
                store.record(
                    key, grade, now - days_ago * DAY, Answer(mode="flip", duration_ms=2500)
                )
    return db, [key for key, _ in plan], now


def _anki_card(col: Collection, key: CardKey) -> Card:
    kinds: dict[tuple[str, str], Kind] = {
        ("term", "definition"): "meaning",
        ("definition", "term"): "term",
        ("term", "term"): "translate",
    }
    kind = kinds[(key.pair.prompt_side, key.pair.answer_side)]
    name = Direction(kind, key.pair.prompt_lang, key.pair.answer_lang).name
    note = notes_by_uid(col)[key.concept_uid]
    (card,) = [c for c in note.cards() if template_name(c) == name]
    return card


def test_studied_cards_continue_in_anki(tmp_path, studied, monkeypatch, capsys):
    db, keys, now = studied
    monkeypatch.setenv("QUIZZER_DECKS", str(tmp_path / "no-user-decks"))
    out = tmp_path / "progress.apkg"
    argv = ["export", "anki", "--out", str(out), "--with-progress", "--db", str(db), "--all"]
    assert main([*argv, "--timestamp", str(int(recent(60)))]) == 0
    with open_store(db, read_only=True) as store:
        states = {key.id: store.card(key) for key in keys}
        found = {card_id: state for card_id, state in states.items() if state is not None}
        assert len(found) == len(states)
        reviews = store.reviews()
    assert f"{len(keys)} studied cards scheduled, {len(reviews)} reviews" in capsys.readouterr().out

    col = open_collection(tmp_path)
    try:
        import_package(col, out, scheduling=True)
        assert col.note_count() == 36 and col.card_count() == 2390
        today = col.sched.today
        checked_review = checked_learning = 0
        for key in keys:
            card, state = _anki_card(col, key), found[key.id]
            expected_days = (study_day(state.due) - study_day(now)).days
            assert card.reps == state.reps and card.lapses == state.lapses
            assert card.memory_state is not None
            assert card.memory_state.stability == pytest.approx(state.stability, abs=1e-3)
            assert card.memory_state.difficulty == pytest.approx(state.difficulty, abs=1e-3)
            if state.phase == "review":
                assert (card.type, card.queue) == (2, 2)
                assert abs((card.due - today) - expected_days) <= 1
                assert card.ivl == round(state.scheduled_days)
                checked_review += 1
            else:
                assert card.type in (1, 3)
                if card.queue == 1:  # intraday learning: due is an epoch second
                    assert abs(card.due - state.due.timestamp()) < 2
                else:
                    assert card.queue == 3
                    assert abs((card.due - today) - expected_days) <= 1
                checked_learning += 1
            revlog = db_of(col).list("select ease from revlog where cid = ? order by id", card.id)
            assert revlog == [r.grade for r in reviews if r.card_id == key.id]
        assert checked_review >= 2 and checked_learning >= 1
        assert db_of(col).scalar("select count() from revlog") == len(reviews)
        assert db_of(col).scalar("select count() from cards where type = 0") == 2390 - len(keys)
    finally:
        col.close()


def test_studied_cards_left_out_of_the_export_are_reported(tmp_path, studied, monkeypatch, capsys):
    db, keys, _now = studied
    monkeypatch.setenv("QUIZZER_DECKS", str(tmp_path / "no-user-decks"))
    out = tmp_path / "part.apkg"
    argv = ["export", "anki", "--out", str(out), "--with-progress", "--db", str(db), "--all"]
    # only quantization, only meaning ar→en: of the five studied cards, gptq's is in
    argv += ["--deck", "quantization", "--pair", "ar:en", "--kinds", "meaning"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "1 studied cards scheduled, 1 reviews" in captured.out
    assert "4 studied cards are not in this export" in captured.err
    col = open_collection(tmp_path)
    try:
        import_package(col, out, scheduling=True)
        assert db_of(col).scalar("select count() from cards where type != 0") == 1
        assert db_of(col).scalar("select count() from revlog") == 1
        assert _anki_card(col, keys[3]).type != 0
    finally:
        col.close()
    # everything exported: nothing to report
    assert main(argv[:7]) == 0
    assert "not in this export" not in capsys.readouterr().err


def test_without_scheduling_anki_imports_everything_as_new(tmp_path, studied, monkeypatch):
    db, _keys, _now = studied
    monkeypatch.setenv("QUIZZER_DECKS", str(tmp_path / "no-user-decks"))
    out = tmp_path / "progress.apkg"
    assert main(["export", "anki", "--out", str(out), "--with-progress", "--db", str(db)]) == 0
    col = open_collection(tmp_path)
    try:
        import_package(col, out, scheduling=False)
        assert db_of(col).scalar("select count() from cards where type != 0") == 0
        assert db_of(col).scalar("select count() from revlog") == 0
    finally:
        col.close()


def test_filling_a_package_on_disk_matches_filling_during_export(tmp_path, studied):
    db, _keys, _now = studied
    decks = [read_deck(p) for p in deck_files(bundled_decks_dir())]
    states, reviews, tz = read_store(db)
    stamp = recent(60)
    inline, later = tmp_path / "inline.apkg", tmp_path / "later.apkg"
    every = every_direction(BUNDLED_LANGUAGES)
    export_apkg(
        decks, inline, directions=every, timestamp=stamp, progress=states, reviews=reviews, tz=tz
    )
    # knowing which cards are studied (as the command always does), as the inline export
    export_apkg(decks, later, directions=every, timestamp=stamp, studied=states)
    assert fill_package(later, states, reviews, tz=tz) == (len(states), len(reviews), 0)

    def rows(path: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
        db_file = tmp_path / f"{path.stem}.anki2"
        with zipfile.ZipFile(path) as archive:
            db_file.write_bytes(archive.read("collection.anki2"))
        with sqlite3.connect(db_file) as conn:
            return (
                conn.execute("select * from cards order by id").fetchall(),
                conn.execute("select * from revlog order by id").fetchall(),
            )

    assert rows(inline) == rows(later)
    assert len(rows(later)[1]) == len(reviews)


def test_progress_from_reviews_derives_state():
    t0 = datetime(2026, 1, 1, 12, tzinfo=UTC)
    card = "training-efficiency/lora|en:term>bn:definition"

    def review(
        n: int,
        at: datetime,
        grade: Grade,
        phase: CardPhase,
        ivl: float,
        stability: float,
        last_ivl: float = 0.0,
    ) -> Review:
        return Review(
            id=f"r{n}",
            card_id=card,
            reviewed_at=at,
            grade=grade,
            mode="flip",
            duration_ms=1000,
            phase=phase,
            last_interval_days=last_ivl,
            interval_days=ivl,
            due=at + timedelta(days=ivl),
            stability=stability,
            difficulty=5.0,
        )

    log = [
        review(1, t0, 4, "new", 8.0, 8.3),
        review(2, t0 + 8 * DAY, 3, "review", 20.0, 21.0, 8.0),
        review(3, t0 + 28 * DAY, 1, "review", 10 / 1440, 3.0, 20.0),
    ]
    got = progress_from_reviews(reversed(log))[card]
    assert got.phase == "relearning" and got.reps == 3 and got.lapses == 1
    assert got.stability == 3.0 and got.last_review == t0 + 28 * DAY
    got = progress_from_reviews(log[:2])[card]
    assert got.phase == "review" and got.scheduled_days == 20.0 and got.lapses == 0


def test_state_dict_understands_fsrs_card_shape():
    due = datetime(2026, 2, 1, tzinfo=UTC)
    last = datetime(2026, 1, 20, tzinfo=UTC)
    got = CardState.from_dict(
        {
            "card_id": "quantization/awq|en:term>fr:term",
            "state": 2,
            "stability": 12.5,
            "difficulty": 4.2,
            "due": due.isoformat(),
            "last_review": last.isoformat(),
            "reps": 4,
            "lapses": 1,
            "suspended": True,
        },
    )
    assert got.phase == "review" and got.scheduled_days == 12.0
    assert (got.reps, got.lapses, got.suspended) == (4, 1, True)
    with pytest.raises(ValueError):
        CardState.from_dict({"card_id": "x/y|en:term>fr:term", "state": 9, "due": due.isoformat()})
