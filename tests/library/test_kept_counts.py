"""A big deck's home-screen counts kept between launches: always the counts
of the plain computation (the store's due queue over the deck read from its file), through
answers, buries, learning steps coming due, a new day, other settings and an edited deck;
a damaged, foreign or deleted entry only means counting again."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.concepts.deck import Deck
from quizzer.library import cache as deckcache
from quizzer.library.decks import read_deck, write_deck
from quizzer.progress import Store, open_store
from quizzer.scheduling.answer import Answer
from quizzer.scheduling.queue import DueQueue
from quizzer.services import library as shelf_module
from quizzer.services.library import open_shelf
from quizzer.services.study import StudyService
from tests.factories import concept

PAIR = Pair("en", "term", "ru", "definition")
NOW = datetime(2026, 5, 4, 10, 0, tzinfo=UTC)
DECK = "many"


@pytest.fixture
def decks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder with a deck of six concepts, counted as a big deck (``SMALL_DECK`` = 2)."""
    monkeypatch.setattr(shelf_module, "SMALL_DECK", 2)
    monkeypatch.setattr(deckcache, "RACY_NS", 0)  # a file just written is known by its stat
    folder = tmp_path / "decks"
    folder.mkdir()
    _write(folder, 6)
    return folder


def _write(folder: Path, size: int) -> None:
    concepts = tuple(
        concept(DECK, f"c{i}", {"en": (f"Term {i}", f"Def {i}."), "ru": (f"Т {i}", f"О {i}.")})
        for i in range(size)
    )
    write_deck(Deck(DECK, "Many", concepts), folder / f"{DECK}.toml")


def plain(store: Store, folder: Path, now: datetime) -> tuple[int, int]:
    """The counts from the deck's file and the store, with no cache in between."""
    queue = store.due_cards(read_deck(folder / f"{DECK}.toml"), [PAIR], now)
    return len(queue.new), len(queue.learning) + len(queue.review)


def launch(store: Store, folder: Path) -> StudyService:
    """A fresh service over the library, as a new launch opens it."""
    return StudyService(store, open_shelf(folder))


def entries() -> list[Path]:
    return sorted((Path(os.environ["QUIZZER_CACHE"]) / "counts").glob("*.json"))


def card(i: int) -> CardKey:
    return CardKey(f"{DECK}/c{i}", PAIR)


def test_kept_counts_are_the_plain_ones_through_answers_steps_buries_and_days(
    tmp_path: Path, decks: Path
) -> None:
    with open_store(tmp_path / "p.json", tz=UTC) as store:
        first = launch(store, decks)
        assert not first.counts_ready(DECK, PAIR, NOW)  # nothing kept: counted by a worker
        assert first.counts(DECK, PAIR, NOW) == plain(store, decks, NOW) == (6, 0)
        assert launch(store, decks).counts_ready(DECK, PAIR, NOW)  # kept: shown at once
        assert launch(store, decks).counts(DECK, PAIR, NOW) == (6, 0)

        # An answer changes the card states: counted again, and kept anew.
        store.record(card(0), 1, NOW, Answer(mode="flip"))
        later = NOW + timedelta(seconds=5)
        assert not launch(store, decks).counts_ready(DECK, PAIR, later)
        assert launch(store, decks).counts(DECK, PAIR, later) == plain(store, decks, later)
        assert launch(store, decks).counts_ready(DECK, PAIR, later)
        # The relearning card's step comes due: the kept counts stop holding then.
        stepped = store.card(card(0))
        assert stepped is not None and later < stepped.card.due
        due_at = stepped.card.due + timedelta(seconds=1)
        assert not launch(store, decks).counts_ready(DECK, PAIR, due_at)
        counted = launch(store, decks).counts(DECK, PAIR, due_at)
        assert counted == plain(store, decks, due_at)
        assert counted[1] == 1  # (the card answered "again" is due once its step is)
        # Before the moment the counts were kept, they don't hold either (a clock set back).
        assert not launch(store, decks).counts_ready(DECK, PAIR, later)

        store.bury(card(1), due_at)
        for moment in (due_at, due_at + timedelta(hours=1), NOW + timedelta(days=1, hours=1)):
            assert launch(store, decks).counts(DECK, PAIR, moment) == plain(store, decks, moment)
        # A new day: what was kept yesterday does not hold.
        assert not launch(store, decks).counts_ready(DECK, PAIR, NOW + timedelta(days=2))


def test_other_settings_or_an_edited_deck_count_again(tmp_path: Path, decks: Path) -> None:
    with open_store(tmp_path / "p.json", tz=UTC) as store:
        assert launch(store, decks).counts(DECK, PAIR, NOW) == (6, 0)
        store.set_settings(replace(store.settings, new_per_day=4))
        assert not launch(store, decks).counts_ready(DECK, PAIR, NOW)
        assert launch(store, decks).counts(DECK, PAIR, NOW) == plain(store, decks, NOW) == (4, 0)
        store.set_settings(replace(store.settings, new_per_day=20))
        _write(decks, 9)  # the deck file changes: its hash is another key
        assert not launch(store, decks).counts_ready(DECK, PAIR, NOW)
        assert launch(store, decks).counts(DECK, PAIR, NOW) == plain(store, decks, NOW) == (9, 0)


@pytest.mark.parametrize(
    "damage",
    [
        b"",
        b"\x00\xff not json",
        b"[]",
        b'{"tie": 1}',
        b"{" * 5000,
        "negative",
        "directory",
        "deleted",
    ],
)
def test_a_damaged_or_deleted_entry_is_counted_again_silently(
    tmp_path: Path, decks: Path, damage: bytes | str
) -> None:
    with open_store(tmp_path / "p.json", tz=UTC) as store:
        store.record(card(2), 3, NOW, Answer(mode="flip"))
        counts = launch(store, decks).counts(DECK, PAIR, NOW)
        (entry,) = entries()
        if damage == "negative":  # the right tie, impossible counts
            entry.write_text(entry.read_text("utf-8").replace('"new": 5', '"new": -5'), "utf-8")
        elif damage == "directory":
            entry.unlink()
            entry.mkdir()
        elif damage == "deleted":
            entry.unlink()
        else:
            assert isinstance(damage, bytes)
            entry.write_bytes(damage)
        again = launch(store, decks)
        assert not again.counts_ready(DECK, PAIR, NOW)
        assert again.counts(DECK, PAIR, NOW) == counts == plain(store, decks, NOW)
        if damage != "directory":  # (a directory planted there stays; nothing is kept)
            assert launch(store, decks).counts_ready(DECK, PAIR, NOW)  # kept anew


def test_counts_kept_from_the_final_states_hold_after_the_closing_compaction(
    tmp_path: Path, decks: Path
) -> None:
    path = tmp_path / "p.json"
    open_store(path).close()
    service = launch(open_store(path, tz=UTC), decks)
    service.store.record(card(3), 3, NOW, Answer(mode="flip"))
    later = NOW + timedelta(minutes=1)
    counted = service.counts(DECK, PAIR, later)  # after the session: the home screen recounts
    service.close()  # compacts: a new snapshot holds the same card states
    with open_store(path, tz=UTC) as store:
        assert launch(store, decks).counts_ready(DECK, PAIR, later)
        assert (
            launch(store, decks).counts(DECK, PAIR, later) == counted == plain(store, decks, later)
        )

    # An answer after the counts were kept: they are not carried over.
    for entry in entries():
        entry.unlink()
    service = launch(open_store(path, tz=UTC), decks)
    assert service.counts(DECK, PAIR, later) == counted  # counted and kept again
    service.store.record(card(4), 3, later, Answer(mode="flip"))
    service.close()
    with open_store(path, tz=UTC) as store:
        assert not launch(store, decks).counts_ready(DECK, PAIR, later)
        assert launch(store, decks).counts(DECK, PAIR, later) == plain(store, decks, later)


def plain_queue(store: Store, folder: Path, now: datetime) -> DueQueue:
    """The due queue from the deck's file and the store, with no cache in between."""
    return store.due_cards(read_deck(folder / f"{DECK}.toml"), [PAIR], now)


def _unread(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the candidates of each queue the store builds from now on (a kept queue's cards
    are queued again over themselves, not over the deck's every card)."""
    queue, sizes = store.due_cards, []

    def counted(
        deck: Deck, pairs: list[Pair], now: datetime, candidates: object = None
    ) -> DueQueue:
        sizes.append(len(candidates) if isinstance(candidates, list) else len(deck))
        return queue(deck, pairs, now, candidates)  # type: ignore[arg-type]

    monkeypatch.setattr(store, "due_cards", counted)
    return sizes


def test_a_session_starts_on_the_queue_kept_with_the_counts(
    tmp_path: Path, decks: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_store(tmp_path / "p.json", tz=UTC) as store:
        store.record(card(1), 1, NOW, Answer(mode="flip"))  # learning, due again in minutes
        store.record(card(2), 3, NOW, Answer(mode="flip"))
        store.bury(card(4), NOW)
        later = NOW + timedelta(seconds=30)
        expected = plain_queue(store, decks, later)
        assert launch(store, decks).counts(DECK, PAIR, later) == plain(store, decks, later)
        assert expected.new and expected.buried and expected.next_learning_due is not None
        with monkeypatch.context() as patch:
            sizes = _unread(store, patch)
            assert launch(store, decks).due_cards(DECK, PAIR, later) == expected
            assert sizes == [len(expected.cards)] and len(expected.cards) < 6
        # Once the learning step comes due, the kept queue no longer holds: computed again.
        stepped = expected.next_learning_due + timedelta(seconds=1)
        assert launch(store, decks).due_cards(DECK, PAIR, stepped) == plain_queue(
            store, decks, stepped
        )


def test_a_sessions_queue_is_kept_when_the_store_closes_with_its_states(
    tmp_path: Path, decks: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "p.json"
    with open_store(path, tz=UTC) as store:
        store.record(card(5), 3, NOW, Answer(mode="flip"))  # not due again today
    service = launch(open_store(path, tz=UTC), decks)
    queue = service.due_cards(DECK, PAIR, NOW)  # a session's queue: nothing written yet
    assert entries() == []
    service.close()
    with open_store(path, tz=UTC) as store:
        with monkeypatch.context() as patch:
            sizes = _unread(store, patch)
            assert launch(store, decks).due_cards(DECK, PAIR, NOW) == queue
            assert sizes == [len(queue.cards)] == [5]
        assert queue == plain_queue(store, decks, NOW)

    # An answer after the queue was computed: that queue is not kept.
    for entry in entries():
        entry.unlink()
    service = launch(open_store(path, tz=UTC), decks)
    service.due_cards(DECK, PAIR, NOW)
    service.store.record(card(0), 3, NOW, Answer(mode="flip"))
    service.close()
    assert entries() == []


@pytest.mark.parametrize(
    "lie",
    ["another card", "another index", "one card short", "no zone", "left", "not due", "reordered"],
)
def test_a_kept_queue_that_does_not_add_up_is_computed_again(
    tmp_path: Path, decks: Path, lie: str
) -> None:
    with open_store(tmp_path / "p.json", tz=UTC) as store:
        store.record(card(1), 1, NOW, Answer(mode="flip"))
        launch(store, decks).counts(DECK, PAIR, NOW)
        (entry,) = entries()
        kept = json.loads(entry.read_text("utf-8"))
        queue = kept["queue"]
        if lie == "another card":
            queue["new"][0][1] = CardKey("other/c0", PAIR).id
        elif lie == "another index":
            queue["new"][0][0] = 99
        elif lie == "one card short":
            queue["new"].pop()
        elif lie == "no zone":
            queue["next_learning_due"] = "2026-05-04T10:10:00"
        elif lie == "not due":  # the learning card, not due yet, as if it were: counts agree
            queue["learning"] = [[1, card(1).id]]
            queue["new"].pop()
        elif lie == "reordered":
            queue["new"].reverse()
        else:
            queue["new_left"] = "20"
        entry.write_text(json.dumps(kept), "utf-8")
        assert launch(store, decks).due_cards(DECK, PAIR, NOW) == plain_queue(store, decks, NOW)


def test_a_long_kept_queue_is_found_again(
    tmp_path: Path, decks: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A queue of 2,000 new cards is kept in an entry of about 90 kB, read back whole."""
    _write(decks, 2_000)
    with open_store(tmp_path / "p.json", tz=UTC) as store:
        store.set_settings(replace(store.settings, new_per_day=5_000))
        counted = launch(store, decks).counts(DECK, PAIR, NOW)
        assert counted == plain(store, decks, NOW) == (2_000, 0)
        (entry,) = entries()
        assert entry.stat().st_size > 1 << 16
        assert launch(store, decks).counts_ready(DECK, PAIR, NOW)  # kept: shown at once
        with monkeypatch.context() as patch:
            sizes = _unread(store, patch)
            queue = launch(store, decks).due_cards(DECK, PAIR, NOW)
            assert sizes == [2_000]  # the kept queue's cards, queued again once
        assert queue == plain_queue(store, decks, NOW)
