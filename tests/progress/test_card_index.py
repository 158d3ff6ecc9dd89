"""The card index: opening reads only the cards it touches, and the index
is a cache — deleted, damaged or stale, the snapshot is read whole with the same results.

Real stores on disk: answers recorded, buried and suspended through the store, compacted.
"""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.cli.main import main
from quizzer.errors import StoreError
from quizzer.progress import cardindex, open_store
from quizzer.progress.cardindex import index_path
from quizzer.progress.snapshot import AtomicJSONStorage
from tests.factories import ru_bn_deck

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
RU_BN = Pair("ru", "term", "bn", "definition")
BN_RU = Pair("bn", "term", "ru", "definition")
DECK = ru_bn_deck("demo", 40)


def _open(db: Path, **kw: object):
    return open_store(db, tz=UTC, rng=random.Random(3), **kw)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store over 40 concepts in two directions: reviews, lapses, learning steps, a bury,
    a suspension, and cards answered today (whose siblings are buried)."""
    db = tmp_path_factory.mktemp("index") / "p.json"
    rng = random.Random(11)
    with _open(db) as store:
        for day in range(6):
            now = T0 + timedelta(days=3 * day)
            for i in range(0, 40, 2 if day < 3 else 3):
                pair = RU_BN if i % 5 else BN_RU
                store.record(CardKey(f"demo/c{i}", pair), rng.choice((1, 3, 3, 4)), now)
        last = T0 + timedelta(days=16)
        store.bury(CardKey("demo/c4", RU_BN), last)
        store.set_suspended(CardKey("demo/c6", RU_BN), True, last)
        store.record(CardKey("demo/c9", BN_RU), 3, last)
    return db


def _copy(template: Path, tmp_path: Path) -> Path:
    shutil.copytree(template.parent, tmp_path)
    return tmp_path / template.name


def _view(db: Path) -> tuple[object, ...]:
    """What a session sees of the store: both directions' due queues and every card state."""
    now = T0 + timedelta(days=16, hours=2)
    with _open(db, read_only=True) as store:
        queues = tuple(store.due_cards(DECK, [pair], now) for pair in (RU_BN, BN_RU))
        lazy = store.state.raw.lazy
        states = sorted((s.card_id, s.to_dict()) for s in store.cards())
        return lazy, queues, states, len(store)


def test_a_compaction_keeps_an_index_and_opening_reads_cards_lazily(template: Path) -> None:
    assert index_path(template).is_file()
    with _open(template, read_only=True) as store:
        assert store.state.raw.lazy  # nothing parsed beyond the head yet
        assert store.card(CardKey("demo/c9", BN_RU)) is not None
        assert store.card(CardKey("demo/c1", BN_RU)) is None  # never studied
        assert store.state.raw.lazy
        assert len(store) == len(json.loads(template.read_bytes())["cards"]) > 20
        assert not store.state.raw.lazy


def test_same_queues_and_cards_with_the_index_deleted_damaged_or_stale(
    template: Path, tmp_path: Path
) -> None:
    lazy, *expected = _view(template)
    assert lazy
    damages: dict[str, Callable[[Path], object]] = {
        "deleted": lambda p: p.unlink(),
        "emptied": lambda p: p.write_bytes(b""),
        "flipped": lambda p: p.write_bytes(bytes([p.read_bytes()[0] ^ 1]) + p.read_bytes()[1:]),
        "cut": lambda p: p.write_bytes(p.read_bytes()[:-9]),
        "body flipped": lambda p: p.write_bytes(p.read_bytes()[:-5] + b"\xff" * 5),
    }
    for name, damage in damages.items():
        db = _copy(template, tmp_path / name)
        damage(index_path(db))
        lazy, *seen = _view(db)
        assert not lazy and seen == expected, name
        with _open(db):  # a writer rebuilds the index it found unfit
            pass
        lazy, *seen = _view(db)
        assert lazy and seen == expected, name


def test_an_edited_snapshot_is_read_whole_not_through_its_old_index(
    template: Path, tmp_path: Path
) -> None:
    db = _copy(template, tmp_path / "store")
    doc = json.loads(db.read_bytes())
    card = next(d for d in doc["cards"].values() if d["card_id"] == "demo/c9|bn:term>ru:definition")
    card["lapses"] = 7  # same layout, other bytes: the index no longer fits
    db.write_bytes(json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode())
    with _open(db, read_only=True) as store:
        assert not store.state.raw.lazy
        assert store.card("demo/c9|bn:term>ru:definition").lapses == 7


def test_changes_while_lazy_are_kept_in_order_in_the_next_snapshot(
    template: Path, tmp_path: Path
) -> None:
    lazy_db, whole_db = _copy(template, tmp_path / "a"), _copy(template, tmp_path / "b")
    index_path(whole_db).unlink()
    later = T0 + timedelta(days=20)
    for db in (lazy_db, whole_db):
        with _open(db) as store:
            for i in (1, 2, 3):
                store.record(CardKey(f"demo/c{i}", RU_BN), 3, later + timedelta(minutes=i))
            store.bury(CardKey("demo/c2", RU_BN), later + timedelta(minutes=5))
            store.undo()
            store.undo()
            store.set_suspended(CardKey("demo/c8", RU_BN), True, later)
    # Every state byte for byte alike; the snapshots differ only in when each was created.
    docs = [json.loads(db.read_bytes()) for db in (lazy_db, whole_db)]
    assert docs[0]["cards"] == docs[1]["cards"]
    assert list(docs[0]["cards"]) == list(docs[1]["cards"])
    assert _view(lazy_db) == _view(whole_db)


def test_a_bad_value_under_a_fitting_index_is_damage_named_and_found_by_the_doctor(
    template: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _copy(template, tmp_path / "store")
    doc = json.loads(db.read_bytes())
    card = next(d for d in doc["cards"].values() if d["card_id"] == "demo/c9|bn:term>ru:definition")
    card["due"] = "2026-03-20T09:00:00"  # no UTC offset: no quizzer writes that
    AtomicJSONStorage(db).write(doc)  # as a compaction would: the index fits these bytes
    with _open(db, read_only=True) as store:
        assert store.state.raw.lazy
        with pytest.raises(StoreError) as caught:
            store.card("demo/c9|bn:term>ru:definition")
    assert "due has no UTC offset" in caught.value.message
    assert str(caught.value.path) == str(db)
    assert main(["doctor", "--check", "--db", str(db)]) != 0
    assert "due has no UTC offset" in capsys.readouterr().out


def test_the_snapshot_is_hashed_unless_its_stat_is_the_recorded_one_and_older_than_the_index(
    template: Path, tmp_path: Path
) -> None:
    db = _copy(template, tmp_path / "store")
    raw = db.read_bytes()
    doc = json.loads(raw)
    info = db.stat()
    spans = cardindex.scan(raw, doc)
    assert spans is not None and len(spans) == len(doc["cards"])
    data = cardindex.encode(raw, spans, info)
    other = raw[:-3] + b"  }"  # same size, other bytes
    after = info.st_ctime_ns + 1
    assert cardindex.decode(data, raw) is not None  # hashed: these bytes
    assert cardindex.decode(data, other) is None  # hashed: not these
    # The recorded stat, changed before the index was written: taken as these bytes unread.
    assert cardindex.decode(data, other, info, after) is not None
    # Racy (the index no newer than the change) or another stat: hashed again.
    assert cardindex.decode(data, other, info, info.st_ctime_ns) is None
    (tmp_path / "touched").write_bytes(raw)
    assert cardindex.decode(data, other, (tmp_path / "touched").stat(), after + 10**12) is None


def test_a_document_in_another_key_order_gets_no_index() -> None:
    # The spans are found by the layout snapshot.dumps writes; any other order of the same
    # tables is not that layout, even when its cards are a table and its last bytes fit.
    doc = {"cards": {}, "meta": {"schema": 4}, "settings": {}}
    raw = json.dumps(doc, separators=(",", ":")).encode()
    assert raw.endswith(b"}}")
    assert cardindex.scan(raw, doc) is None
    same_order = {"meta": {"schema": 4}, "settings": {}, "cards": {}}
    spans = cardindex.scan(json.dumps(same_order, separators=(",", ":")).encode(), same_order)
    assert spans is not None and len(spans) == 0
