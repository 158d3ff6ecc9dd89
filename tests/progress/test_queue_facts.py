"""The due queue from the stored records' queue facts: the same queue as
from every card's whole state, and a bad value it reads is still damage naming the file.

Real stores on disk: answers recorded, buried, suspended and compacted through the store,
then reopened, so the queue reads the snapshot's records, not states built while answering.
"""

from __future__ import annotations

import json
import random
import shutil
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quizzer.cards.card import CardKey, Pair, has_card
from quizzer.cli.main import main
from quizzer.errors import StoreError
from quizzer.progress import open_store
from quizzer.scheduling.queue import due_queue
from tests.factories import ru_bn_deck

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
RU_BN = Pair("ru", "term", "bn", "definition")
BN_RU = Pair("bn", "term", "ru", "definition")
DECK = ru_bn_deck("demo", 40)
LAST = T0 + timedelta(days=16)


def _open(db: Path, **kw: object):
    return open_store(db, tz=UTC, rng=random.Random(3), **kw)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Reviews, lapses, learning steps, a bury, a suspension, cards answered today."""
    db = tmp_path_factory.mktemp("facts") / "p.json"
    rng = random.Random(5)
    with _open(db) as store:
        for day in range(6):
            now = T0 + timedelta(days=3 * day)
            for i in range(0, 40, 2 if day < 3 else 3):
                pair = RU_BN if i % 5 else BN_RU
                store.record(CardKey(f"demo/c{i}", pair), rng.choice((1, 3, 3, 4)), now)
        store.bury(CardKey("demo/c4", RU_BN), LAST)
        store.set_suspended(CardKey("demo/c6", RU_BN), True, LAST)
        store.record(CardKey("demo/c9", BN_RU), 1, LAST)
        store.record(CardKey("demo/c10", RU_BN), 3, LAST)
    return db


def _copy(template: Path, tmp_path: Path) -> Path:
    shutil.copytree(template.parent, tmp_path / "s")
    return tmp_path / "s" / template.name


def _whole_state_queue(store, pair: Pair, now: datetime):
    """The queue as it was chosen before queue facts: every candidate's whole state."""
    candidates = [CardKey(c.uid, pair) for c in DECK.concepts if has_card(c, pair)]
    states = {}
    for card_id in [k.id for k in candidates] + [r[1] for r in store.state.recent]:
        state = store.card(card_id)
        if state is not None:
            states[card_id] = state
    return due_queue(
        candidates, states, now, store.tz_at(now), store.settings, store.today(DECK.id, now)
    )


MOMENTS = [LAST, LAST + timedelta(minutes=20), LAST + timedelta(hours=20), LAST + timedelta(days=9)]


@pytest.mark.parametrize("bury_siblings", [True, False])
@pytest.mark.parametrize("new_order", ["deck", "random"])
def test_the_queue_from_facts_is_the_queue_from_whole_states(
    template: Path, tmp_path: Path, bury_siblings: bool, new_order: str
) -> None:
    db = _copy(template, tmp_path)
    with _open(db) as store:
        settings = replace(store.settings, bury_siblings=bury_siblings, new_order=new_order)
        store.set_settings(replace(settings, new_per_day=7, reviews_per_day=9))
    with _open(db) as store:
        seen = set()
        for pair in (RU_BN, BN_RU):
            for now in MOMENTS:
                queue = store.due_cards(DECK, [pair], now)
                assert queue == _whole_state_queue(store, pair, now)
                seen.add((bool(queue.learning), bool(queue.review), bool(queue.buried)))
        # The moments cover learning, review and buried cards, so the comparison means something.
        assert any(s[0] for s in seen) and any(s[1] for s in seen) and any(s[2] for s in seen)


def _damage(db: Path, card: CardKey, field: str, value: object) -> None:
    """Set one field of ``card``'s record in the snapshot (the card index stays valid)."""
    doc = json.loads(db.read_text(encoding="utf-8"))
    records = [r for r in doc["cards"].values() if r["card_id"] == card.id]
    assert records, card.id
    records[0][field] = value
    db.write_text(json.dumps(doc), encoding="utf-8")
    db.with_name(db.name + ".cards.idx").unlink(missing_ok=True)


def _queued_and_not(template: Path) -> tuple[CardKey, CardKey]:
    with _open(template, read_only=True) as store:
        queue = store.due_cards(DECK, [RU_BN], LAST + timedelta(days=9))
        queued = queue.review[0]
        studied = [s.key for s in store.cards() if s.key.pair == RU_BN and not s.is_new]
    later = [k for k in studied if k not in queue.cards and not store_suspended(template, k)]
    return queued, later[0]


def store_suspended(db: Path, key: CardKey) -> bool:
    with _open(db, read_only=True) as store:
        state = store.card(key)
        return bool(state and state.suspended)


@pytest.mark.parametrize(
    ("field", "value"),
    [("due", "not a time"), ("due", "2026-03-20T09:00:00"), ("reps", -1), ("state", 9)],
)
def test_a_bad_value_the_queue_reads_is_damage_naming_the_file(
    template: Path, tmp_path: Path, field: str, value: object
) -> None:
    db = _copy(template, tmp_path)
    _queued, other = _queued_and_not(template)
    _damage(db, other, field, value)  # a card the queue doesn't pick: its facts are read
    with _open(db) as store, pytest.raises(StoreError) as caught:
        store.due_cards(DECK, [RU_BN], LAST + timedelta(days=9))
    assert str(db) in str(caught.value.path) and other.id in str(caught.value)
    assert main(["doctor", "--check", "--db", str(db)]) != 0


def test_a_queued_card_is_read_whole(template: Path, tmp_path: Path) -> None:
    """A value the queue doesn't read (stability) is checked when its card is queued; in a
    card not queued, the doctor finds it."""
    db = _copy(template, tmp_path)
    queued, other = _queued_and_not(template)
    _damage(db, queued, "stability", "high")
    with _open(db) as store, pytest.raises(StoreError) as caught:
        store.due_cards(DECK, [RU_BN], LAST + timedelta(days=9))
    assert queued.id in str(caught.value)
    db2 = _copy(template, tmp_path / "b")
    _damage(db2, other, "stability", "high")
    with _open(db2) as store:
        queue = store.due_cards(DECK, [RU_BN], LAST + timedelta(days=9))
    assert queued in queue.cards
    assert main(["doctor", "--check", "--db", str(db2)]) != 0
