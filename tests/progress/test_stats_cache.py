"""The statistics cache ``P.stats``: the figures from it are those of the whole log.

Real stores on disk, filled from synthetic histories (:mod:`tests.synthetic_history`)
through the store's own bulk path (``merge_batch``, as ``quizzer merge`` brings Anki's
answers in), then answered, undone (in the journal and in the month files), compacted
across months, merged into again, and asked for in another zone and day start. Each
time the figures from the cache equal :func:`compute_stats` over ``store.reviews()``
(the log read whole), and the cache is shown to be what was used.
"""

from __future__ import annotations

import contextlib
import io
import random
from dataclasses import replace
from datetime import datetime, timedelta, tzinfo
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from quizzer.cli.main import main
from quizzer.progress import aggregates, files, open_store
from quizzer.progress.figurecache import figures_path
from quizzer.progress.store import Store
from quizzer.services.stats import stats_from_store, unseen_new
from quizzer.stats.compute import compute_stats
from quizzer.stats.figures import Stats
from tests.progress.store_builder import GRADES
from tests.synthetic_history import TZ, make_deck, make_history

DECK = make_deck()


def _open(db: Path, tz: tzinfo = TZ, **kw: Any) -> Store:
    return open_store(db, tz=tz, rng=random.Random(3), **kw)


def _from_log(store: Store, now: datetime, tz: tzinfo | None = None) -> Stats:
    """Every figure counted from the whole log, as before the cache."""
    zone = tz or store.tz
    states = list(store.cards())
    return compute_stats(
        store.reviews(),
        states,
        now,
        zone,
        store.settings.day_start_hour,
        decks=[DECK],
        unseen_new=unseen_new([DECK], (s.card_id for s in states)),
        parameters=store.settings.parameters,
        timezone_name=stats_from_store(store, [DECK], now=now, tz=zone).timezone,
    )


def _same(store: Store, now: datetime, tz: tzinfo | None = None) -> dict[str, Any]:
    got = stats_from_store(store, [DECK], now=now, tz=tz)
    expected = _from_log(store, now, tz)
    assert got == expected
    assert got.to_dict() == expected.to_dict()
    assert got.total_reviews == len(store.reviews())
    return got.to_dict()


def _status(db: Path, tz: tzinfo = TZ, hour: int = 4) -> str:
    return aggregates.current(db, aggregates.Key(tz.key, hour), tz)[1]  # type: ignore[attr-defined]


def _filled(db: Path, seed: int) -> datetime:
    history = make_history(seed, n_cards=30, days=120)
    with _open(db) as store:
        store.merge_batch(history.reviews, history.cards)
    return history.now


def test_figures_from_the_cache_equal_the_whole_log_through_a_learners_history(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.json"
    now = _filled(db, seed=1)
    assert _status(db) == "missing"  # nothing asked for statistics yet
    with _open(db, read_only=True) as reader:
        first = _same(reader, now)  # counted from the log, then cached (no writer around)
    assert first["totals"]["reviews"] > 300
    assert _status(db) == "ok"
    assert len({r["reviewed_at"][:7] for r in _log_dicts(db)}) >= 4  # across months

    with _open(db) as store:
        _same(store, now)  # from the cache: the writer keeps it up to date from here on
        later = now + timedelta(hours=2)
        for i, card in enumerate(list(store.cards())[:8]):
            store.record(card.card_id, GRADES[i % 4], later + timedelta(minutes=i))
        assert store.undo() is not None  # an answer of this session, still in the journal
        _same(store, later + timedelta(hours=1))
    assert _status(db) == "ok"  # written at the close's compaction, tied to the new months

    with _open(db) as store:
        undone = store.undo()  # an answer already in its month file
        assert undone is not None
        _same(store, later + timedelta(hours=1))
        store.record(undone.card_id, 3, later + timedelta(hours=3))
    with _open(db, read_only=True) as reader:
        assert _status(db) == "ok"
        _same(reader, later + timedelta(hours=4))
        _same(reader, later + timedelta(days=40))  # a quiet month later: today empty

    with _open(db) as store:  # Anki's answers merged in: a compaction, a batch, another
        more = make_history(2, n_cards=20, days=60, end=(later + timedelta(days=20)).date())
        store.merge_batch(
            [replace(r, id="anki-" + r.id, mode="anki") for r in more.reviews], more.cards
        )
        _same(store, more.now + timedelta(hours=1))
    assert _status(db) == "ok"
    with _open(db, read_only=True) as reader:
        got = _same(reader, more.now + timedelta(hours=1))
    assert got["sources"]["by_source"]["anki"]["answers"] > 100


def _log_dicts(db: Path) -> list[dict[str, Any]]:
    with _open(db, read_only=True) as store:
        return [r.to_dict() for r in store.reviews()]


def test_another_zone_or_day_start_counts_again_and_is_still_exact(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    now = _filled(db, seed=4)
    with _open(db) as store:
        _same(store, now)
    assert _status(db) == "ok"
    paris = ZoneInfo("Europe/Paris")  # its DST changes move answers across study days
    assert _status(db, paris) == "counted for another time zone or day start"
    with _open(db, tz=paris) as store:
        _same(store, now)
        _same(store, now, tz=ZoneInfo("America/Sao_Paulo"))  # asked for another zone once
        store.set_settings(replace(store.settings, day_start_hour=0))
        _same(store, now)
    assert _status(db, paris, 0) == "ok"


@pytest.mark.parametrize(
    "damage",
    [
        lambda raw: raw[: len(raw) // 2],
        lambda raw: raw[:40] + bytes([raw[40] ^ 1]) + raw[41:],
        lambda raw: b"quizzer-stats 1 00000000\n{}",
        lambda raw: b"",
    ],
    ids=["half", "flipped", "planted", "emptied"],
)
def test_a_damaged_cache_is_counted_again_from_the_log(tmp_path: Path, damage: Any) -> None:
    db = tmp_path / "p.json"
    now = _filled(db, seed=5)
    with _open(db) as store:
        _same(store, now)
    cache = files.stats_path(db)
    cache.write_bytes(damage(cache.read_bytes()))
    assert _status(db) != "ok"
    said = _doctor_check(db)[1]  # (the synthetic card states differ from a replay: problems)
    assert "note: p.json.stats: the statistics cache is" in said and "nothing is lost" in said
    assert not [line for line in said.splitlines() if "problem" in line and "stats" in line]
    with _open(db, read_only=True) as reader:
        _same(reader, now)  # the day's figures, kept in P.figures: the tally isn't needed
    figures_path(db).unlink()
    with _open(db, read_only=True) as reader:
        _same(reader, now)
    assert _status(db) == "ok"  # written anew


def test_a_cache_from_an_older_log_is_not_used(tmp_path: Path) -> None:
    """A stale copy (kept from before answers were added) is out of date, never believed."""
    db = tmp_path / "p.json"
    now = _filled(db, seed=6)
    with _open(db) as store:
        _same(store, now)
    old = files.stats_path(db).read_bytes()
    with _open(db) as store:
        card = next(store.cards())
        store.record(card.card_id, 3, now + timedelta(minutes=5))
    files.stats_path(db).write_bytes(old)
    assert _status(db).startswith("out of date")
    with _open(db, read_only=True) as reader:
        _same(reader, now + timedelta(minutes=10))


def test_a_clock_before_the_newest_answers_counts_from_the_log(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    _filled(db, seed=7)
    with _open(db, read_only=True) as reader:
        log = reader.reviews()
        then = log[len(log) // 2].reviewed_at + timedelta(minutes=1)
        figures = _same(reader, then)  # the cache can't tell that day's distinct cards
    assert figures["today"]["cards"] > 0


def test_the_system_zone_has_a_stable_key(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TZ", "Asia/Dhaka")
    db = tmp_path / "p.json"
    now = _filled(db, seed=8)
    with open_store(db) as store:  # the system's zone: the figures a user gets
        _same(store, now)
    assert _status(db) == "ok"
    with open_store(db, read_only=True) as reader:
        _same(reader, now + timedelta(seconds=1))


def _doctor_check(db: Path) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(["doctor", "--check", "--db", str(db)])
    return code, out.getvalue()


def test_a_deck_not_studied_yet_counts_its_cards_as_new(tmp_path: Path) -> None:
    """A fresh store: the deck's cards in the direction the app starts it in are New (not 0)."""
    from quizzer.cards.card import CardKey, Pair

    db = tmp_path / "p.json"
    now = datetime(2026, 3, 1, 12, tzinfo=TZ)
    with _open(db) as store:
        assert stats_from_store(store, [DECK], now=now).states.new == len(DECK.concepts) == 12
        pair = Pair("ru", "term", "bn", "definition")
        store.record(CardKey(DECK.concepts[0].uid, pair), 3, now)
        states = stats_from_store(store, [DECK], now=now).states
    assert (states.new, states.learning + states.young) == (11, 1)  # the direction studied
