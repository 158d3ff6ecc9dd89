"""`quizzer merge` of Anki's own exports: history out to Anki, 30 answers there, back again.

The round trip runs once per module with the real engine: a quizzer history (mornings
and evenings over ten days) → ``export_apkg`` with progress (what ``export anki
--with-progress`` runs) → Anki import with scheduling and FSRS on (quizzer's parameters
and retention) → 30 answers in Anki → Anki's ``.apkg`` with scheduling, its ``.colpkg``
and a legacy ``.apkg`` → ``quizzer merge``.
"""

from __future__ import annotations

import itertools
import shutil
import sqlite3
import zipfile
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import anki.collection  # noqa: F401  (anki.cards imported first hits a cycle inside anki)
import pytest
from anki.cards import CardId
from anki.collection import Collection
from anki.decks import DeckId

from quizzer.anki import export_apkg
from quizzer.anki.model import directions_for
from quizzer.anki.notes import from_field
from quizzer.anki.package_reader import direction_of
from quizzer.anki.progress import study_day
from quizzer.cards.card import CardKey
from quizzer.cli.main import main
from quizzer.progress import open_store
from quizzer.scheduling.answer import Answer
from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.grades import Grade
from quizzer.services.merge import epoch_ms, merge_file
from tests.anki_support import db_of, export_with_scheduling, import_package
from tests.factories import ru_bn_deck

DIRECTIONS = directions_for(("meaning", "translate"), [("ru", "bn"), ("bn", "ru")])
EASES: tuple[Grade, ...] = (3, 3, 4, 1, 3, 2, 4, 3)


@dataclass
class RoundTrip:
    db: Path
    apkg: Path
    colpkg: Path
    legacy: Path
    #: quizzer card id → Anki's due (study days from today) per card answered in Anki
    anki_due: dict[str, int]
    #: quizzer card id → Anki's (stability, difficulty) after those answers
    anki_memory: dict[str, tuple[float, float]]
    #: revlog ids of the 30 answers given in Anki
    anki_rows: set[int]
    exported_rows: int
    #: every revlog id of the Anki collection after the 30 answers
    all_rows: set[int]
    #: the Anki collection itself
    collection: Path


def _card_id(col: Collection, card) -> str:
    note = col.get_note(card.nid)
    direction = direction_of(card.template()["name"])
    assert direction is not None
    return CardKey(from_field(note.fields[0]), direction.pair).id


def _history(db: Path, now: datetime) -> None:
    """Ten days of answers at 08:00 and 21:00 UTC on eight cards of the demo deck."""
    deck = ru_bn_deck("demo", 12)
    keys = [CardKey(c.uid, d.pair) for c in deck.concepts[:4] for d in DIRECTIONS[:2]]
    start = (now - timedelta(days=11)).replace(hour=8, minute=0, second=0, microsecond=0)
    grading: tuple[Grade, ...] = (3, 3, 1, 3, 4, 3, 2)
    grades = itertools.cycle(grading)
    with open_store(db) as store:
        for day in range(10):
            for hour in (0, 13):  # 08:00 and 21:00
                at = start + timedelta(days=day, hours=hour)
                for i, key in enumerate(keys):
                    if (day + i) % 3 == 0 or day == 0:
                        store.record(key, next(grades), at, Answer(duration_ms=2000 + i))


@pytest.fixture(scope="module")
def trip(tmp_path_factory) -> RoundTrip:
    tmp = tmp_path_factory.mktemp("trip")
    db = tmp / "progress.json"
    now = datetime.now(UTC)
    _history(db, now)
    with open_store(db, read_only=True) as store:
        reviews = store.reviews()
        states = {c.card_id: c for c in store.cards()}
        settings = store.settings
    out = tmp / "quizzer.apkg"
    result = export_apkg(
        [ru_bn_deck("demo", 12)],
        out,
        directions=DIRECTIONS,
        progress=states,
        reviews=reviews,
        timestamp=now.timestamp() - 120,
    )
    (tmp / "anki").mkdir()
    col = Collection(str(tmp / "anki" / "collection.anki2"))
    try:
        col.set_config("fsrs", True)
        import_package(col, out, scheduling=True)
        for did in col.decks.all_names_and_ids():
            conf = col.decks.config_dict_for_deck_id(DeckId(did.id))
            conf["fsrsParams6"] = list(settings.parameters)
            conf["desiredRetention"] = settings.desired_retention
            conf["new"]["perDay"] = 200
            conf["rev"]["perDay"] = 500
            col.decks.update_config(conf)
        deck_id = col.decks.id_for_name("AI Glossary")
        assert deck_id is not None
        col.decks.select(deck_id)
        before = set(db_of(col).list("select id from revlog"))
        anki_due: dict[str, CardId] = {}
        for ease in itertools.islice(itertools.cycle(EASES), 30):
            card = col.sched.getCard()
            assert card is not None
            col.sched.answerCard(card, ease)
            anki_due[_card_id(col, card)] = card.id
        all_rows = set(db_of(col).list("select id from revlog"))
        rows = all_rows - before
        assert len(rows) == 30
        due_days, memory = {}, {}
        for card_id, cid in anki_due.items():
            card = col.get_card(cid)
            assert card.memory_state is not None
            memory[card_id] = (card.memory_state.stability, card.memory_state.difficulty)
            if card.queue in (2, 3):
                due_days[card_id] = card.due - col.sched.today
            else:  # intraday learning: an epoch second
                due = datetime.fromtimestamp(card.due, UTC)
                due_days[card_id] = (study_day(due) - study_day(datetime.now(UTC))).days
        apkg, colpkg, legacy = tmp / "anki.apkg", tmp / "anki.colpkg", tmp / "legacy.apkg"
        export_with_scheduling(col, apkg, full=True)
        export_with_scheduling(col, legacy, legacy=True, full=True)
        col.export_collection_package(str(colpkg), include_media=True, legacy=False)
    finally:
        col.close()
    return RoundTrip(
        db,
        apkg,
        colpkg,
        legacy,
        due_days,
        memory,
        rows,
        result.revlog_rows,
        all_rows,
        tmp / "anki" / "collection.anki2",
    )


def _copy_store(trip: RoundTrip, tmp_path: Path) -> Path:
    copy = tmp_path / trip.db.name
    shutil.copytree(trip.db, copy, ignore=shutil.ignore_patterns("lock"))
    return copy


def test_packages_are_the_formats_anki_writes(trip):
    with zipfile.ZipFile(trip.apkg) as z:
        assert {"meta", "collection.anki21b", "collection.anki2"} <= set(z.namelist())
        assert z.read("meta") == b"\x08\x03"  # PackageMetadata { version: LATEST }
    with zipfile.ZipFile(trip.colpkg) as z:
        assert "collection.anki21b" in z.namelist()
    with zipfile.ZipFile(trip.legacy) as z:
        assert "collection.anki21" in z.namelist() and "collection.anki21b" not in z.namelist()


def test_merge_adds_exactly_the_answers_given_in_anki(trip, tmp_path):
    db = _copy_store(trip, tmp_path)
    with open_store(db, read_only=True) as store:
        before = {r.id for r in store.reviews()}
    report = merge_file(trip.apkg, db)
    assert report.total == 30
    assert report.known == trip.exported_rows  # quizzer's own rows, recognised and skipped
    with open_store(db, read_only=True) as store:
        added = [r for r in store.reviews() if r.id not in before]
    assert sorted(epoch_ms(r.reviewed_at) for r in added) == sorted(trip.anki_rows)
    assert {r.mode for r in added} == {"anki"}
    assert all(r.stability is not None and r.due is not None for r in added)
    # The doctor finds every card state to be what its log replays to.
    assert main(["doctor", "--check", "--db", str(db)]) == 0
    # Again: nothing. The .colpkg and the legacy .apkg of the same collection: nothing.
    for again in (trip.apkg, trip.colpkg, trip.legacy):
        second = merge_file(again, db)
        assert second.total == 0 and second.known == trip.exported_rows + 30, again


def test_colpkg_first_then_apkg_adds_nothing_more(trip, tmp_path):
    db = _copy_store(trip, tmp_path)
    assert merge_file(trip.colpkg, db).total == 30
    assert merge_file(trip.legacy, db).total == 0
    assert merge_file(trip.apkg, db).total == 0


def _merged(trip: RoundTrip, tmp_path: Path) -> dict[str, tuple[CardState, int, bool]]:
    """Per card answered in Anki: (our state, our due in study days, only Anki answers?)."""
    db = _copy_store(trip, tmp_path)
    merge_file(trip.apkg, db)
    today = study_day(datetime.now(UTC))
    out = {}
    with open_store(db, read_only=True) as store:
        for card_id in trip.anki_due:
            state = store.card(card_id)
            assert state is not None
            only_anki = {r.mode for r in store.reviews(card_id)} == {"anki"}
            out[card_id] = (state, (study_day(state.due) - today).days, only_anki)
    return out


def test_due_days_agree_with_anki(trip, tmp_path):
    """For every card answered in Anki, quizzer's next study day is Anki's own: the
    interval Anki gave (fuzz included) is taken, not recomputed."""
    merged = _merged(trip, tmp_path)
    assert len(merged) >= 20
    differing = {
        card_id: (ours, trip.anki_due[card_id])
        for card_id, (_state, ours, _) in merged.items()
        if ours != trip.anki_due[card_id]
    }
    assert differing == {}


def test_memory_states_agree_with_anki(trip, tmp_path):
    """Stability and difficulty within 1% of Anki's, for every card answered there: those
    answered only in Anki and those with a terminal history before (study days counted
    alike on both sides)."""
    merged = _merged(trip, tmp_path)
    kinds = set()
    for card_id, (state, _, only_anki) in merged.items():
        stability, difficulty = trip.anki_memory[card_id]
        assert state.stability == pytest.approx(stability, rel=0.01), card_id
        assert state.difficulty == pytest.approx(difficulty, rel=0.01), card_id
        kinds.add(only_anki)
    assert kinds == {True, False}


def test_dry_run_lists_per_deck_and_direction_and_writes_nothing(trip, tmp_path, capsys):
    db = _copy_store(trip, tmp_path)
    files = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    assert main(["merge", str(trip.apkg), "--dry-run", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "would add 30 answers" in out
    assert "  demo  ru:term>bn:definition  " in out
    assert "dry run: nothing was written" in out
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == files
    assert main(["merge", str(trip.apkg), "--db", str(db)]) == 0
    assert "added 30 answers" in capsys.readouterr().out


def test_a_new_export_carries_the_merged_history_back_without_doubling(trip, tmp_path):
    db = _copy_store(trip, tmp_path)
    merge_file(trip.apkg, db)
    with open_store(db, read_only=True) as store:
        reviews = store.reviews()
        states = {c.card_id: c for c in store.cards()}
    out = tmp_path / "again.apkg"
    result = export_apkg(
        [ru_bn_deck("demo", 12)], out, directions=DIRECTIONS, progress=states, reviews=reviews
    )
    assert result.revlog_rows == trip.exported_rows + 30
    with zipfile.ZipFile(out) as package:
        (tmp_path / "again.anki2").write_bytes(package.read("collection.anki2"))
    conn = sqlite3.connect(tmp_path / "again.anki2")
    try:
        ids = {row[0] for row in conn.execute("select id from revlog")}
    finally:
        conn.close()
    assert ids == trip.all_rows  # the same rows as Anki's, so Anki adds none of them again
    copy = tmp_path / "anki" / "collection.anki2"
    copy.parent.mkdir()
    copy.write_bytes(trip.collection.read_bytes())
    col = Collection(str(copy))
    try:
        import_package(col, out, scheduling=True)
        assert db_of(col).scalar("select count() from revlog") == len(trip.all_rows)
    finally:
        col.close()
