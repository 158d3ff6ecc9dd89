"""The day's figures cache ``P.figures``: served only while it is the store's.

Real stores on disk (:mod:`tests.synthetic_history` through ``merge_batch``). Each
time, the figures equal :func:`compute_stats` over the whole log read back
(``_same``): a cache that is no longer the store's is never served.
"""

from __future__ import annotations

from dataclasses import asdict, replace
from datetime import timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from quizzer.progress.figurecache import figures_path
from quizzer.services.stats import stats_from_store
from tests.progress.test_stats_cache import DECK, _doctor_check, _filled, _open, _same


def test_the_figures_are_the_whole_logs_through_answers_undo_compaction_days_and_zones(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.json"
    now = _filled(db, seed=11)
    with _open(db, read_only=True) as reader:
        _same(reader, now)
        assert figures_path(db).exists()
        _same(reader, now + timedelta(hours=1))  # the same study day: served
    with _open(db, read_only=True) as reader:  # another process, same files: served
        _same(reader, now)

    with _open(db) as store:
        _same(store, now)  # a writer holds the same states: served
        card = next(store.cards())
        store.record(card.card_id, 1, now + timedelta(minutes=5))
        _same(store, now + timedelta(minutes=6))  # a new answer: counted
        assert store.undo() is not None
        _same(store, now + timedelta(minutes=7))  # taken back: counted
        store.record(card.card_id, 4, now + timedelta(minutes=8))
    with _open(db, read_only=True) as reader:  # compacted at the close: other files
        _same(reader, now + timedelta(minutes=9))
        _same(reader, now + timedelta(days=1))  # a new study day
        _same(reader, now + timedelta(days=1), tz=ZoneInfo("America/Sao_Paulo"))  # another zone
        _same(reader, now + timedelta(days=1))  # the file holds one day's figures: counted
    with _open(db) as store:
        store.set_settings(replace(store.settings, day_start_hour=0))  # another day start
        _same(store, now + timedelta(days=1))
        params = store.settings.parameters
        store.set_settings(replace(store.settings, parameters=(*params[:20], 0.3)))
        _same(store, now + timedelta(days=1))  # other FSRS parameters (another decay)


@pytest.mark.parametrize(
    "damage",
    [
        lambda raw: raw[: len(raw) // 2],
        lambda raw: raw[:60] + bytes([raw[60] ^ 1]) + raw[61:],
        lambda raw: b"quizzer-figures 1 %08x\n{}" % 0,
        lambda raw: b"",
        None,  # deleted
    ],
    ids=["half", "flipped", "planted", "emptied", "deleted"],
)
def test_a_damaged_or_deleted_figures_file_gives_the_same_figures_silently(
    tmp_path: Path, damage: Any
) -> None:
    db = tmp_path / "p.json"
    now = _filled(db, seed=12)
    with _open(db, read_only=True) as reader:
        _same(reader, now)
    file = figures_path(db)
    if damage is None:
        file.unlink()
    else:
        file.write_bytes(damage(file.read_bytes()))
    said = _doctor_check(db)[1]
    assert "figures" not in said  # nothing to repair: it is only counted again
    with _open(db, read_only=True) as reader:
        _same(reader, now)
        _same(reader, now)  # written anew, and served


def test_a_reader_opened_before_an_answer_never_passes_its_states_off_as_newer(
    tmp_path: Path,
) -> None:
    """A reader that opened before a writer answered counts its own (older) card states
    against the newer log; a later reader, with the newer states, must not be served that."""
    db = tmp_path / "p.json"
    now = _filled(db, seed=13)
    later = now + timedelta(minutes=2)
    with _open(db) as writer:
        with _open(db, read_only=True) as early:
            card = next(c for c in writer.cards() if c.phase == "review" and not c.suspended)
            writer.record(card.card_id, 1, now + timedelta(minutes=1))  # a lapse: relearning
            early_states = asdict(stats_from_store(early, [DECK], now=later).states)
        assert figures_path(db).exists()
        with _open(db, read_only=True) as late:
            late_states = _same(late, later)["states"]
    assert late_states["relearning"] == early_states["relearning"] + 1


def test_the_card_states_hash_is_the_same_lazy_or_read_whole_and_moves_with_a_change(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.json"
    now = _filled(db, seed=14)
    with _open(db):
        pass  # a writer leaves the card index: later opens read card records lazily
    with _open(db, read_only=True) as reader:
        table = reader.state.raw
        assert bool(table.lazy)
        lazy = table.fingerprint()
        assert len(list(table)) == 30 and not table.lazy  # read whole
        assert table.fingerprint() == lazy
    with _open(db) as store:
        assert store.state.raw.fingerprint() == lazy
        card = next(store.cards())
        store.record(card.card_id, 3, now + timedelta(minutes=1))
        moved = store.state.raw.fingerprint()
        assert moved != lazy
        list(store.state.raw)
        assert store.state.raw.fingerprint() == moved


@pytest.mark.parametrize("on", [True, False])
def test_the_figures_leave_the_garbage_collector_as_they_found_it(tmp_path: Path, on: bool) -> None:
    """Counted (then served) with the collector paused: on again after if it was on, still
    off if the caller had paused it (the app's start-up pause, ``gc_pause``); served, what
    the app froze at its first paint stays frozen."""
    import gc

    db = tmp_path / "p.json"
    now = _filled(db, seed=13)
    (gc.enable if on else gc.disable)()
    try:
        with _open(db, read_only=True) as reader:
            _same(reader, now)  # counted (reading the whole log)
            assert gc.isenabled() is on
            gc.freeze()
            frozen = gc.get_freeze_count()
            _same(reader, now)  # served
            assert gc.isenabled() is on
            assert gc.get_freeze_count() >= frozen
    finally:
        gc.unfreeze()
        gc.enable()
