"""The statistics cache ``P.stats`` at its edges.

Real stores on disk, filled as in :mod:`tests.progress.test_stats_cache`. What a caller
sees is checked: the figures equal :func:`compute_stats` over the whole log read back
(``_same``), what :func:`aggregates.current` says of the cache (``_status``: ``"ok"`` means
the cache was used, brought up to date with the journal), and what ``doctor`` says.
"""

from __future__ import annotations

import contextlib
import io
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from quizzer.cli.main import main
from quizzer.progress import aggregates, doctor, files, monthfile, reviewlog
from quizzer.progress.figurecache import figures_path
from quizzer.progress.sealedfile import seal
from quizzer.stats.tally import tally_of
from tests.progress.test_stats_cache import _filled, _open, _same, _status
from tests.synthetic_history import TZ, make_history


def _doctor(db: Path, *args: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        main(["doctor", *args, "--db", str(db)])
    return out.getvalue()


def _cached(db: Path, now: Any) -> None:
    """Count the figures once (the cache written), then drop the day's figures cache so the
    next ask reads the tally (``P.stats``), not ``P.figures``."""
    with _open(db, read_only=True) as reader:
        _same(reader, now)
    assert _status(db) == "ok"
    figures_path(db).unlink()


def test_a_reader_beside_a_writer_folds_its_journal_answers_and_undos_into_the_cache(
    tmp_path: Path,
) -> None:
    """Answers and undos past the cache's end of the journal are counted in and out: an
    undo of an answer of the journal and one of an answer already in its month file."""
    db = tmp_path / "p.json"
    now = _filled(db, seed=31)
    with _open(db) as store:  # answers on the undo stack, folded into their months at close
        cards = [c.card_id for c in store.cards()][:4]
        for i, card in enumerate(cards):
            store.record(card, (1, 2, 3, 4)[i], now + timedelta(minutes=i))
    _cached(db, now + timedelta(hours=1))
    with _open(db) as writer:
        writer.record(cards[0], 4, now + timedelta(hours=2))
        assert writer.undo() is not None  # the journal's own answer
        month_answer = writer.undo()  # cards[3]'s answer, in its month file
        assert month_answer is not None and month_answer.card_id == cards[3]
        writer.record(cards[1], 2, now + timedelta(hours=3))
        with _open(db, read_only=True) as reader:
            assert _status(db) == "ok"  # the cache, brought up to date
            _same(reader, now + timedelta(hours=4))
            live, _ = aggregates.current(db, aggregates.Key(TZ.key, 4), TZ)
            assert live is not None
            expected = tally_of(reader.reviews(), TZ, 4)
            assert live.tally.to_data() == expected.to_data()
            assert month_answer.id not in {r.id for r in reader.reviews()}


def _rewrite_a_month(db: Path) -> None:
    """One month file (and its mirror) rewritten with as many answers, one grade changed, as
    the same generation: a copy the snapshot vouches for, not the one the cache counted."""
    month = files.months(db)[-1]
    file = reviewlog.month_path(db, month)
    copy = monthfile.read_copy(file, month)
    assert copy.gen is not None and copy.reviews
    reviews = [dict(r) for r in copy.reviews]
    reviews[0]["grade"] = 1 if reviews[0]["grade"] != 1 else 4
    raw = monthfile.encode(month, reviews, copy.gen)  # type: ignore[arg-type]
    file.write_bytes(raw)
    reviewlog.mirror_path(file).write_bytes(raw)


def test_a_month_rewritten_with_as_many_answers_makes_the_cache_out_of_date(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.json"
    now = _filled(db, seed=32)
    _cached(db, now)
    before = aggregates.month_seals(db)
    _rewrite_a_month(db)
    after = aggregates.month_seals(db)
    assert [m for m in before if before[m] != after[m]] == [files.months(db)[-1]]
    assert all(isinstance(crc, str) and len(crc) == 8 for crc in after.values())
    assert _status(db) == "out of date (the review log's months changed)"
    with _open(db, read_only=True) as reader:
        _same(reader, now)  # the new grade counted, from the log
    assert _status(db) == "ok"


def test_a_month_read_from_its_mirror_still_vouches_for_the_cache(tmp_path: Path) -> None:
    """A month file gone, its mirror intact: the log is the same, so the cache still is."""
    db = tmp_path / "p.json"
    now = _filled(db, seed=33)
    _cached(db, now)
    seals = aggregates.month_seals(db)
    reviewlog.month_path(db, files.months(db)[0]).unlink()
    assert aggregates.month_seals(db) == seals
    assert _status(db) == "ok"
    with _open(db, read_only=True) as reader:
        _same(reader, now)


def _planted(db: Path, document: dict[str, Any]) -> None:
    files.stats_path(db).write_bytes(seal(aggregates.MAGIC, aggregates.VERSION, document))


def test_each_unusable_cache_says_why_and_the_figures_are_counted_from_the_log(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.json"
    now = _filled(db, seed=34)
    _cached(db, now)
    cache = files.stats_path(db)
    good = cache.read_bytes()
    tally = aggregates.read(db)[0]["tally"].to_data()  # type: ignore[index]
    tie = aggregates.read(db)[0]["tie"]  # type: ignore[index]
    cases: list[tuple[Any, str]] = [
        (figures_path, "not a statistics cache of this version"),
        (lambda: good[:30] + bytes([good[30] ^ 1]) + good[31:], "damaged (its checksum"),
        ({"tie": [], "undoable": {}, "tally": tally}, 'damaged ("tie" or "undoable" is not a'),
        ({"tie": {}, "undoable": [], "tally": tally}, 'damaged ("tie" or "undoable" is not a'),
        ({"tie": {}, "undoable": {}, "tally": "none"}, "damaged (a value is of the wrong kind)"),
        ({"undoable": {}, "tally": tally}, "damaged (tie is missing)"),
        (
            {
                "tie": {**tie, "journal": {**tie["journal"], "end": str(tie["journal"]["end"])}},
                "undoable": {},
                "tally": tally,
            },
            "out of date (the journal changed)",
        ),  # an end that isn't a number
    ]
    for damage, why in cases:
        if isinstance(damage, dict):
            _planted(db, damage)
        elif damage is figures_path:  # the other cache's file, under this one's name
            with _open(db, read_only=True) as reader:
                _same(reader, now)
            cache.write_bytes(figures_path(db).read_bytes())
        else:
            cache.write_bytes(damage())
        figures_path(db).unlink(missing_ok=True)
        status = _status(db)
        assert status.startswith(why), (why, status)
        with _open(db, read_only=True) as reader:
            _same(reader, now)
        assert _status(db) == "ok"  # written anew


def test_a_cache_that_cant_be_written_or_read_is_no_error(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    now = _filled(db, seed=35)
    files.stats_path(db).mkdir()  # a directory where the cache goes
    assert _status(db) == "can't be read (Is a directory)"
    with _open(db, read_only=True) as reader:
        _same(reader, now)
        live = aggregates.current(db, aggregates.Key(TZ.key, 4), TZ)[0]
        assert live is None
        counted = aggregates.from_log(
            db,
            reader.state.gen,
            reader.state.months,
            aggregates.Key(TZ.key, 4),
            TZ,
            reader.state.undo,
        )[0]
        assert aggregates.save(db, counted) is False
        files.stats_path(db).rmdir()
        assert aggregates.save(db, counted) is True
    assert _status(db) == "ok"


def test_a_writer_that_never_shows_statistics_leaves_the_cache_up_to_date(
    tmp_path: Path,
) -> None:
    db = tmp_path / "p.json"
    now = _filled(db, seed=36)
    _cached(db, now)
    with _open(db) as store:
        for i, card in enumerate(list(store.cards())[:3]):
            store.record(card.card_id, 3, now + timedelta(minutes=i + 1))
        assert store.undo() is not None
    assert _status(db) == "ok"  # tied to the months the close's compaction wrote
    with _open(db, read_only=True) as reader:
        _same(reader, now + timedelta(hours=1))


def test_a_writers_tally_follows_its_answers(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    now = _filled(db, seed=37)
    with _open(db) as store:
        store.stats_tally()
        card = next(store.cards()).card_id
        store.record(card, 2, now + timedelta(minutes=1))
        again = store.stats_tally()
        assert again.to_data() == tally_of(store.reviews(), TZ, 4).to_data()
    with _open(db, read_only=True) as reader:
        assert reader.stats_tally().to_data() == again.to_data()


def test_a_compaction_after_the_day_start_changed_drops_the_stale_tally(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    now = _filled(db, seed=38)
    more = make_history(9, n_cards=5, days=10, end=(now + timedelta(days=3)).date())
    with _open(db) as store:
        _same(store, now)
        store.set_settings(replace(store.settings, day_start_hour=0))
        store.merge_batch(
            [replace(r, id="anki-" + r.id, mode="anki") for r in more.reviews], more.cards
        )
        _same(store, more.now + timedelta(hours=1))
    assert _status(db, hour=0) == "ok"


def test_doctor_speaks_of_the_cache_only_when_it_is_unusable_and_rebuilds_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TZ", TZ.key)  # the doctor's zone is the system's
    db = tmp_path / "p.json"
    now = _filled(db, seed=39)
    assert "statistics" not in _doctor(db, "--check")  # missing: never shown yet
    assert "statistics" not in _doctor(db)
    assert not files.stats_path(db).exists()
    _cached(db, now)
    assert "statistics" not in _doctor(db, "--check")  # up to date
    assert "statistics" not in _doctor(db)
    cache = files.stats_path(db)
    cache.write_bytes(cache.read_bytes()[:-3])
    said = _doctor(db, "--check")
    assert (
        "note: p.json.stats: the statistics cache is damaged (its checksum doesn't match its "
        "bytes); it only sums the review log (nothing is lost): it is counted again from the "
        "log when next shown"
    ) in said.replace("\n  ", " ")
    assert "repaired" not in _doctor(db)  # a note: nothing to repair
    # The repair (run when the store has a problem) rebuilds it, once.
    rebuilt = "rebuilt the statistics cache p.json.stats from the review log"
    assert rebuilt in doctor.repair(db).actions
    assert _status(db) == "ok"
    assert not [action for action in doctor.repair(db).actions if "statistics" in action]


def test_the_cache_a_writer_leaves_knows_its_undo_stack(tmp_path: Path) -> None:
    """Written at the close's compaction with the answers an undo may take back: the next
    session's undo of one of them is counted out of the cache, not counted again."""
    db = tmp_path / "p.json"
    now = _filled(db, seed=40)
    with _open(db) as store:
        _same(store, now)  # the writer's live tally, written at close
        card = next(store.cards()).card_id
        store.record(card, 4, now + timedelta(minutes=1))
    figures_path(db).unlink()
    with _open(db) as writer:
        assert writer.undo() is not None  # the answer, now in its month file
        with _open(db, read_only=True) as reader:
            assert _status(db) == "ok"
            _same(reader, now + timedelta(hours=1))
