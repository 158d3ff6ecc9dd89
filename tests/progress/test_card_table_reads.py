"""The lazily read card table (``progress.cardtable``): records read as asked, damage named.

Real stores on disk. A card index "that fits" damaged bytes is made the way a compaction
makes one (``cardindex.encode`` over the bytes on disk), so that the damage is met where
the table reads a record or the whole table, not where the index is checked.
"""

from __future__ import annotations

import json
import os
import shutil
import zlib
from collections.abc import Container
from pathlib import Path
from typing import cast

import pytest

from quizzer.errors import StoreError
from quizzer.progress import cardindex
from quizzer.progress.cardindex import index_path
from quizzer.progress.journal_events import CardData
from tests.progress.store_builder import JULY, card, open_db

CARD0 = card(0).id


@pytest.fixture(scope="module")
def compacted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three cards answered in one session, compacted: a snapshot, its index, no journal."""
    db = tmp_path_factory.mktemp("table") / "p.json"
    with open_db(db) as store:
        for i in range(3):
            store.record(card(i), 3, JULY)
    return db


@pytest.fixture
def store_db(compacted: Path, tmp_path: Path) -> Path:
    """A copy of ``compacted`` of the test's own."""
    shutil.copytree(compacted.parent, tmp_path / "s")
    return tmp_path / "s" / "p.json"


def _damage_under_a_fitting_index(db: Path, old: bytes, new: bytes) -> None:
    """Replace ``old`` by ``new`` (same length) in the snapshot's cards table, with an
    index that fits."""
    raw = db.read_bytes()
    spans = cardindex.scan(raw, json.loads(raw))
    assert spans is not None
    head, cards = raw[: spans.cards_open], raw[spans.cards_open :]
    assert len(old) == len(new) and cards.count(old) == 1
    bad = head + cards.replace(old, new)
    db.write_bytes(bad)
    index_path(db).write_bytes(cardindex.encode(bad, spans, os.stat(db)))


def _assert_damage_named(caught: pytest.ExceptionInfo[StoreError], db: Path, what: str) -> None:
    assert caught.value.message.startswith(f"progress store is damaged ({what}")
    assert caught.value.hint == f"run `quizzer doctor --db {db}` to restore it from the backup"
    assert caught.value.path == db


@pytest.mark.parametrize("read", ["one card", "every card"])
def test_an_unreadable_record_under_a_fitting_index_is_damage_named(
    store_db: Path, read: str
) -> None:
    _damage_under_a_fitting_index(
        store_db, f'"card_id":"{CARD0}"'.encode(), f'"card_id":"{CARD0}'.encode() + b"\x01"
    )
    with open_db(store_db, read_only=True) as store:
        assert store.state.raw.lazy
        with pytest.raises(StoreError) as caught:
            store.card(card(0)) if read == "one card" else len(store)
    what = "a card record is unreadable" if read == "one card" else "the cards table is unreadable"
    _assert_damage_named(caught, store_db, what)


def test_a_lazy_table_names_its_snapshot_by_the_size_and_crc_its_index_holds(
    store_db: Path,
) -> None:
    raw = store_db.read_bytes()
    with open_db(store_db, read_only=True) as store:
        assert store.state.raw.lazy
        assert store.cards_fingerprint() == f"crc32:{len(raw)}:{zlib.crc32(raw):08x}"
        assert store.state.raw.lazy  # named without reading the table


@pytest.mark.parametrize("read", ["one card", "every card", "prefetch"])
def test_a_record_without_its_card_id_under_a_fitting_index_is_damage_named(
    store_db: Path, read: str
) -> None:
    _damage_under_a_fitting_index(
        store_db, f'"card_id":"{CARD0}"'.encode(), f'"card_iX":"{CARD0}"'.encode()
    )
    with open_db(store_db, read_only=True) as store, pytest.raises(StoreError) as caught:
        if read == "prefetch":  # read at once, after a card never studied
            store.state.raw.prefetch([card(7).id, CARD0])
        else:
            store.card(card(0)) if read == "one card" else len(store)
    _assert_damage_named(caught, store_db, f'card record "{card(0).int_id}" has no card id)')


def test_a_cards_table_that_is_no_table_under_a_fitting_index_is_damage_named(
    store_db: Path,
) -> None:
    raw = store_db.read_bytes()
    spans = cardindex.scan(raw, json.loads(raw))
    assert spans is not None
    bad = raw[: spans.cards_open] + b"[1,2]}"
    store_db.write_bytes(bad)
    index_path(store_db).write_bytes(cardindex.encode(bad, spans, os.stat(store_db)))
    with open_db(store_db, read_only=True) as store:
        assert store.state.raw.lazy
        with pytest.raises(StoreError) as caught:
            len(store)
    _assert_damage_named(caught, store_db, "the cards table is not a table)")


def test_records_handed_out_while_lazy_are_the_ones_the_whole_table_holds(
    store_db: Path,
) -> None:
    with open_db(store_db, read_only=True) as store:
        table = store.state.raw
        first = table[CARD0]
        assert repr(table) == "CardTable(lazy)"
        assert dict(table.items())[CARD0] is first and not table.lazy
        assert table[CARD0] is first and repr(table) == "CardTable(3)"


def test_a_prefetch_keeps_what_was_set_or_read_while_lazy(store_db: Path) -> None:
    with open_db(store_db, read_only=True) as store:
        table = store.state.raw
        read, changed = table[card(1).id], cast(CardData, {**table[CARD0], "lapses": 9})
        table[CARD0] = changed
        table.prefetch([CARD0, card(1).id, card(2).id, card(1).id])
        assert table.lazy and table[CARD0] is changed and table[card(1).id] is read
        assert table[card(2).id]["card_id"] == card(2).id


def test_only_card_ids_are_in_the_table(store_db: Path) -> None:
    with open_db(store_db, read_only=True) as store:
        table: Container[object] = store.state.raw
        assert CARD0 in table and card(7).id not in table
        assert 5 not in table and None not in table  # as a dict of str keys
