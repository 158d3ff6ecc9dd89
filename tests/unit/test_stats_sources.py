"""Where answers came from: answers per source (quiz mode or Anki), and Anki counted alike.

The figure is checked against a hand-built log (the 4 AM boundary of the 30-day window,
shares, pass rates); every other figure must not care whether an answer came from Anki.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, date, datetime, timedelta
from itertools import count

from rich.console import Console

from quizzer.scheduling.grades import LOG_MODES
from quizzer.scheduling.review import Review
from quizzer.stats.compute import compute_stats
from quizzer.stats.sources import answer_sources
from quizzer.stats.tally import tally_of
from quizzer.ui.stats_render import detail_tables, sources_table
from tests.synthetic_history import TZ, make_deck, make_history

_ids = count()
CARD = "synth/c00|en:term>bn:term"
#: 12:00 in Dhaka (UTC+6) on study day 2026-03-31.
NOW = datetime(2026, 3, 31, 12, tzinfo=TZ).astimezone(UTC)


def rev(at: datetime, mode: str, grade: int = 3) -> Review:
    return Review(
        id=f"s{next(_ids)}",
        card_id=CARD,
        reviewed_at=at,
        grade=grade,  # type: ignore[arg-type]
        mode=mode,  # type: ignore[arg-type]
        duration_ms=1000,
    )


def local(d: date, hour: int, minute: int = 0) -> datetime:
    return datetime(d.year, d.month, d.day, hour, minute, tzinfo=TZ).astimezone(UTC)


def test_answers_per_source_all_time_and_in_the_last_30_study_days() -> None:
    today = date(2026, 3, 31)
    first = today - timedelta(days=29)  # the window's first study day
    log = [
        rev(local(today, 9), "flip"),
        rev(local(today, 9, 5), "flip", grade=1),
        rev(local(first, 4, 0), "anki"),  # 04:00: study day `first`, inside
        rev(local(first, 3, 59), "anki", grade=1),  # 03:59: the day before, outside
        rev(local(first - timedelta(days=40), 12), "anki"),
        rev(local(today - timedelta(days=3), 20), "typed"),
        rev(local(today - timedelta(days=3), 21), "learn"),
    ]
    sources = answer_sources(tally_of(log, TZ, 4).deck(), today)
    assert [c.mode for c in sources.counts] == list(LOG_MODES)
    by = {c.mode: c for c in sources.counts}
    assert (by["anki"].reviews, by["anki"].recent, by["anki"].passed) == (3, 1, 2)
    assert (by["flip"].reviews, by["flip"].recent, by["flip"].passed) == (2, 2, 1)
    assert (by["choice"].reviews, by["choice"].recent) == (0, 0)
    assert by["choice"].correct_rate is None and by["flip"].correct_rate == 0.5
    assert sources.total == 7 and sources.recent_total == 5
    assert [c.mode for c in sources.used] == ["flip", "typed", "learn", "anki"]
    assert sources.share(by["anki"]) == 3 / 7 and sources.recent_share(by["anki"]) == 1 / 5
    data = sources.to_dict()
    assert data["recent_days"] == 30 and data["total"] == 7
    assert data["by_source"]["anki"] == {
        "answers": 3,
        "share": 3 / 7,
        "recent_answers": 1,
        "recent_share": 1 / 5,
        "passed": 2,
        "correct_rate": 2 / 3,
    }
    assert data["by_source"]["choice"]["share"] == 0.0


def test_an_empty_log_has_no_sources_table() -> None:
    stats = compute_stats([], [], NOW, TZ, 4)
    assert stats.sources.total == 0 and stats.sources.recent_total == 0
    assert stats.to_dict()["sources"]["by_source"]["anki"]["share"] is None
    assert sources_table(stats).row_count == 0
    assert "stats-sources" not in [name for name, _ in detail_tables(stats)]


def _without(data: dict[str, object], *keys: str) -> dict[str, object]:
    return {k: v for k, v in data.items() if k not in keys}


def test_every_other_figure_counts_anki_answers_like_the_others() -> None:
    history = make_history(seed=7, n_cards=30, days=120)
    deck = make_deck()
    # A quarter of the answers given in Anki instead: the same times, grades and phases.
    relabelled = [
        dataclasses.replace(r, mode="anki") if i % 4 == 0 else r
        for i, r in enumerate(history.reviews)
    ]
    plain = compute_stats(history.reviews, history.cards, history.now, history.tz, 4, decks=[deck])
    mixed = compute_stats(relabelled, history.cards, history.now, history.tz, 4, decks=[deck])
    assert _without(mixed.to_dict(), "sources") == _without(plain.to_dict(), "sources")
    assert mixed.total_reviews == len(history.reviews) > 0
    anki = next(c for c in mixed.sources.counts if c.mode == "anki")
    assert anki.reviews == len(history.reviews[::4])
    assert mixed.sources.total == plain.sources.total == len(history.reviews)


def test_the_sources_table_reads_at_60_columns() -> None:
    history = make_history(seed=7, n_cards=30, days=120)
    log = [
        dataclasses.replace(r, mode="anki") if i % 3 == 0 else r
        for i, r in enumerate(history.reviews)
    ]
    stats = compute_stats(log, history.cards, history.now, history.tz, 4)
    console = Console(width=60, record=True)
    console.print(sources_table(stats))
    lines = console.export_text().splitlines()
    assert max(len(line) for line in lines) <= 60
    rows = {line.split("│")[1].strip(): line for line in lines if line.count("│") == 6}
    assert list(rows) == ["Flip", "Multiple choice", "Typed", "In quizzer", "Anki", "All"]
    anki = next(c for c in stats.sources.counts if c.mode == "anki")
    assert f"│ {anki.reviews:>7} │" in rows["Anki"]
    assert f"│ {len(log):>7} │ 100.0% │" in rows["All"]
    assert "quizzer merge" in lines[-1]
