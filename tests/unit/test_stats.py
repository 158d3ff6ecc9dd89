"""Statistics over the review log: each figure against a hand computation.

Small hand-built logs pin the definitions (4 AM boundary, windows, buckets);
a synthetic history from a fixed seed is then checked figure by figure against
straightforward recomputations written independently of quizzer.stats.
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, date, datetime, timedelta, timezone
from itertools import count
from zoneinfo import ZoneInfo

import fsrs
import pytest

from quizzer.scheduling.card_state import CardState
from quizzer.scheduling.review import Review
from quizzer.scheduling.scheduler import fsrs_view
from quizzer.scheduling.studyday import study_day
from quizzer.stats.activity import streak_stats, today_stats
from quizzer.stats.cardfacts import retrievability
from quizzer.stats.cards import due_forecast, state_counts
from quizzer.stats.compute import compute_stats, timezone_label
from quizzer.stats.hardest import hardest_concepts
from quizzer.stats.mastery import mastery
from quizzer.stats.retention import true_retention
from tests.synthetic_history import TZ, make_deck, make_history

_ids = count()
C1 = "synth/c00|en:term>bn:term"
C2 = "synth/c01|ru:term>fr:definition"


#: Where a made-up card state's times start when the test gives none.
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def snapshot(
    card_id: str,
    phase: str,
    *,
    due: datetime | None = None,
    stability: float | None = None,
    last_review: datetime | None = None,
    interval_days: float = 0.0,
    suspended: bool = False,
    leech: bool = False,
) -> CardState:
    """A card state with the figures a test gives; the times it doesn't give are made up
    consistently (a studied card was last reviewed ``interval_days`` before it is due)."""
    if phase != "new" and last_review is None:
        last_review = (due or T0) - timedelta(days=interval_days)
    if due is None:
        due = (last_review or T0) + timedelta(days=interval_days)
    return CardState.studied(
        card_id,
        phase,  # type: ignore[arg-type]
        due,
        last_review=last_review,
        stability=stability,
        suspended=suspended,
        leech=leech,
    )


def local(y: int, mo: int, d: int, h: int, mi: int = 0) -> datetime:
    """A Dhaka (UTC+6) wall-clock time as an aware UTC datetime."""
    return datetime(y, mo, d, h, mi, tzinfo=TZ).astimezone(UTC)


def rev(
    at: datetime,
    grade: int = 3,
    card: str = C1,
    phase: str = "review",
    last_interval: float = 5.0,
    duration: int = 1000,
) -> Review:
    return Review(
        id=f"r{next(_ids)}",
        card_id=card,
        reviewed_at=at,
        grade=grade,  # type: ignore[arg-type]
        mode="flip",
        duration_ms=duration,
        phase=phase,  # type: ignore[arg-type]
        last_interval_days=last_interval,
    )


def independent_day(moment: datetime) -> date:
    """The study day by hand: before 04:00 local it is still yesterday."""
    t = moment.astimezone(TZ)
    return t.date() - timedelta(days=1) if t.hour < 4 else t.date()


# ----------------------------------------------------------------- hand-built logs


def test_study_day_boundary_is_4am_local() -> None:
    assert study_day(local(2026, 3, 4, 3, 59), TZ, 4) == date(2026, 3, 3)
    assert study_day(local(2026, 3, 4, 4, 0), TZ, 4) == date(2026, 3, 4)
    # 22:00 UTC on the 3rd is 04:00 on the 4th in Dhaka.
    assert study_day(datetime(2026, 3, 3, 22, 0, tzinfo=UTC), TZ, 4) == date(2026, 3, 4)
    assert study_day(local(2026, 3, 4, 0, 30), TZ, 0) == date(2026, 3, 4)


def test_streak_across_the_4am_boundary() -> None:
    # Mon 21:00, Tue 02:30 (still Monday), Wed 03:59 (still Tuesday), Wed 04:00 (Wednesday).
    log = [
        rev(local(2026, 3, 2, 21)),
        rev(local(2026, 3, 4, 2, 30)),
        rev(local(2026, 3, 4, 3, 59)),
    ]
    now = local(2026, 3, 4, 12)
    # Without the Wednesday-morning answer: Monday and Tuesday only; today not yet studied.
    s = streak_stats(log, now, TZ, 4)
    assert (s.current, s.longest, s.studied_today, s.days_studied) == (2, 2, False, 2)
    s = streak_stats([*log, rev(local(2026, 3, 4, 4, 0))], now, TZ, 4)
    assert (s.current, s.longest, s.studied_today, s.days_studied) == (3, 3, True, 3)
    # With a midnight boundary the same answers fall on Mon, Wed, Wed: the streak is 1.
    s = streak_stats(log, now, TZ, 0)
    assert (s.current, s.longest, s.studied_today) == (1, 1, True)
    # Two days later nothing was studied yesterday or today: the streak is broken.
    s = streak_stats(log, local(2026, 3, 6, 12), TZ, 4)
    assert (s.current, s.longest) == (0, 2)
    # At 03:00 on Thursday it is still Wednesday's study day.
    s = streak_stats(log, local(2026, 3, 5, 3), TZ, 4)
    assert s.current == 2


def test_longest_streak_with_gap() -> None:
    days = [1, 2, 3, 5, 6, 9]
    log = [rev(local(2026, 1, d, 10)) for d in days]
    s = streak_stats(log, local(2026, 1, 9, 20), TZ, 4)
    assert (s.current, s.longest, s.days_studied) == (1, 3, 6)


def test_today_counts_cards_rate_and_time() -> None:
    now = local(2026, 3, 4, 23)
    log = [
        rev(local(2026, 3, 4, 3, 0), grade=1, duration=9999),  # yesterday's study day
        rev(local(2026, 3, 4, 5, 0), grade=1, duration=2000),
        rev(local(2026, 3, 4, 5, 1), grade=3, duration=3000),
        rev(local(2026, 3, 4, 9, 0), grade=4, card=C2, duration=4000),
        rev(local(2026, 3, 5, 1, 0), grade=2, card=C2, duration=500),  # after midnight: today
    ]
    t = today_stats(log, now, TZ, 4)
    assert (t.day, t.cards, t.reviews, t.passed, t.time_ms) == (date(2026, 3, 4), 2, 4, 3, 9500)
    assert t.correct_rate == pytest.approx(0.75)


def test_state_counts_by_hand() -> None:
    cards = [
        snapshot("synth/c00|en:term>bn:term", "new"),
        snapshot("synth/c01|en:term>bn:term", "learning"),
        snapshot("synth/c02|en:term>bn:term", "review", interval_days=20.9),
        snapshot("synth/c03|en:term>bn:term", "review", interval_days=21.0),
        snapshot("synth/c04|en:term>bn:term", "review", interval_days=400),
        snapshot("synth/c05|en:term>bn:term", "relearning"),
        snapshot("synth/c06|en:term>bn:term", "review", interval_days=90, suspended=True),
        snapshot("synth/c07|en:term>bn:term", "relearning", leech=True, suspended=True),
        snapshot("synth/c08|en:term>bn:term", "review", interval_days=3, leech=True),
    ]
    s = state_counts(cards, unseen_new=10)
    assert (s.new, s.learning, s.young, s.mature, s.relearning, s.suspended, s.leeches) == (
        11,
        1,
        2,
        2,
        1,
        2,
        2,
    )
    assert s.total == 9 + 10


def test_true_retention_by_hand() -> None:
    now = local(2026, 3, 31, 12)
    log = [
        # today: young pass, young fail, mature pass
        rev(local(2026, 3, 31, 8), grade=3, last_interval=3),
        rev(local(2026, 3, 31, 9), grade=1, last_interval=20.99),
        rev(local(2026, 3, 31, 10), grade=2, last_interval=21),
        # 6 days ago (inside 7 days): mature fail; learning/relearning/new are not counted
        rev(local(2026, 3, 25, 8), grade=1, last_interval=40),
        rev(local(2026, 3, 25, 8), grade=1, phase="learning", last_interval=0),
        rev(local(2026, 3, 25, 8), grade=3, phase="relearning", last_interval=0),
        rev(local(2026, 3, 25, 8), grade=3, phase="new", last_interval=0),
        # 7 days ago by study day (Mar 25 02:00 local belongs to Mar 24): only in 30 and 365
        rev(local(2026, 3, 25, 2), grade=4, last_interval=10),
        # 200 days ago: only in 365; 400 days ago: nowhere
        rev(now - timedelta(days=200), grade=3, last_interval=60),
        rev(now - timedelta(days=400), grade=1, last_interval=60),
    ]
    r7, r30, r365 = true_retention(log, now, TZ, 4)
    assert (r7.young.passed, r7.young.failed, r7.mature.passed, r7.mature.failed) == (1, 1, 1, 1)
    assert r7.all.rate == pytest.approx(0.5)
    assert (r30.young.passed, r30.young.failed, r30.mature.passed, r30.mature.failed) == (
        2,
        1,
        1,
        1,
    )
    assert (r365.young.total, r365.mature.passed, r365.mature.failed) == (3, 2, 1)
    assert r365.all.rate == pytest.approx(4 / 6)
    empty = true_retention([], now, TZ, 4)[0]
    assert empty.all.rate is None


def test_due_forecast_by_hand() -> None:
    now = local(2026, 3, 10, 12)
    card = "synth/c00|en:term>bn:term"
    cards = [
        snapshot(card, "review", due=local(2026, 3, 8, 12)),  # overdue → today
        snapshot(card, "learning", due=local(2026, 3, 10, 12, 10)),  # later today
        snapshot(card, "review", due=local(2026, 3, 11, 3)),  # 03:00 tomorrow: today
        snapshot(card, "review", due=local(2026, 3, 11, 5)),  # tomorrow
        snapshot(card, "relearning", due=local(2026, 4, 8, 5)),  # day 29: last one
        snapshot(card, "review", due=local(2026, 4, 9, 5)),  # day 30: beyond
        snapshot(card, "new"),
        snapshot(card, "review", due=local(2026, 3, 11, 5), suspended=True),
    ]
    f = due_forecast(cards, now, TZ, 4)
    assert f.start == date(2026, 3, 10)
    assert len(f.days) == 30
    assert f.overdue == 1
    assert (f.days[0], f.days[1], f.days[29]) == (3, 1, 1)
    assert f.total == 5


def test_retrievability_matches_fsrs_and_hand_formula() -> None:
    decay = -0.1542
    factor = 0.9 ** (1 / decay) - 1
    assert retrievability(10, 10) == pytest.approx(0.9)
    assert retrievability(1, 3) == pytest.approx((1 + factor * 3) ** decay)
    assert retrievability(7, 0) == 1.0
    scheduler = fsrs.Scheduler()
    now = local(2026, 3, 10, 12)
    for stability, days in [(0.5, 1), (3.2, 7), (40.0, 13), (200.0, 365)]:
        card = fsrs.Card(card_id=1, stability=stability, last_review=now - timedelta(days=days))
        assert retrievability(stability, days) == pytest.approx(
            scheduler.get_card_retrievability(card, now)
        )


def test_mastery_table_by_hand() -> None:
    now = local(2026, 3, 10, 12)

    def ago(days: int) -> datetime:
        return now - timedelta(days=days)

    cards = [
        # c00 answered in bn twice (R 0.9 and 1.0) and in en once (R 0.9)
        snapshot("synth/c00|en:term>bn:term", "review", stability=10, last_review=ago(10)),
        snapshot("synth/c00|ru:term>bn:definition", "review", stability=4, last_review=now),
        snapshot("synth/c00|ar:definition>en:term", "review", stability=5, last_review=ago(5)),
        # never reviewed: no cell
        snapshot("synth/c01|en:term>fr:term", "new"),
    ]
    langs, rows = mastery(cards, now, ["synth/c01", "synth/c00"], tz=TZ)
    assert langs == ("bn", "en")  # by tag: no deck gives an order here
    assert [r.concept_uid for r in rows] == ["synth/c01", "synth/c00"]
    assert rows[0].cells == {} and rows[0].recall is None
    c00 = rows[1]
    assert c00.cells["bn"].cards == 2
    assert c00.cells["bn"].recall == pytest.approx(0.95)
    assert c00.cells["en"].recall == pytest.approx(0.9)
    assert c00.recall == pytest.approx((0.9 + 1.0 + 0.9) / 3)


def test_hardest_concepts_rank_by_lapses() -> None:
    a, b, c = (f"synth/c0{i}|en:term>bn:term" for i in range(3))
    log = [
        rev(local(2026, 3, 1, 9), grade=1, card=a),
        rev(local(2026, 3, 2, 9), grade=1, card=a),
        rev(local(2026, 3, 3, 9), grade=1, card=b),
        rev(local(2026, 3, 3, 9), grade=1, card=b, phase="learning"),  # Again, not a lapse
        rev(local(2026, 3, 3, 9), grade=1, card=b.replace("bn:term", "ru:term")),
        rev(local(2026, 3, 4, 9), grade=1, card=c, phase="relearning"),  # no lapse at all
    ]
    hard = hardest_concepts(log)
    assert [(h.concept_uid, h.lapses, h.again, h.reviews) for h in hard] == [
        ("synth/c01", 2, 3, 3),
        ("synth/c00", 2, 2, 2),
    ]


# ----------------------------------------------------------------- synthetic history


@pytest.fixture(scope="module")
def history():
    return make_history(seed=20260331, n_cards=60, days=365)


@pytest.fixture(scope="module")
def stats(history):
    return compute_stats(history.reviews, history.cards, history.now, TZ, 4, decks=[make_deck()])


def test_synthetic_history_is_deterministic(history) -> None:
    again = make_history(seed=20260331, n_cards=60, days=365)
    assert [r.to_dict() for r in again.reviews] == [r.to_dict() for r in history.reviews]
    assert len(history.reviews) > 1000
    assert {r.phase for r in history.reviews} == {"new", "learning", "review", "relearning"}
    # Some answers fall after midnight, before 4 AM: the boundary is exercised.
    assert any(r.reviewed_at.astimezone(TZ).hour < 4 for r in history.reviews)


def test_synthetic_today_and_streak(history, stats) -> None:
    today = independent_day(history.now)
    todays = [r for r in history.reviews if independent_day(r.reviewed_at) == today]
    assert stats.today.reviews == len(todays)
    assert stats.today.cards == len({r.card_id for r in todays})
    assert stats.today.time_ms == sum(r.duration_ms for r in todays)
    days = {independent_day(r.reviewed_at) for r in history.reviews}
    d = today if today in days else today - timedelta(days=1)
    run = 0
    while d in days:
        run += 1
        d -= timedelta(days=1)
    assert stats.streak.current == run
    assert stats.streak.days_studied == len(days)


def test_synthetic_retention(history, stats) -> None:
    today = independent_day(history.now)
    for window in (7, 30, 365):
        picked = [
            r
            for r in history.reviews
            if r.phase == "review" and (today - independent_day(r.reviewed_at)).days < window
        ]
        young = [r for r in picked if r.last_interval_days < 21]
        mature = [r for r in picked if r.last_interval_days >= 21]
        got = stats.retention_for(window)
        assert got is not None
        assert got.young.passed == sum(r.grade > 1 for r in young)
        assert got.young.failed == sum(r.grade == 1 for r in young)
        assert got.mature.passed == sum(r.grade > 1 for r in mature)
        assert got.mature.failed == sum(r.grade == 1 for r in mature)
    assert stats.retention_for(365).mature.total > 0  # the history reaches mature intervals


def test_synthetic_heatmap_forecast_states(history, stats) -> None:
    today = independent_day(history.now)
    assert len(stats.heatmap) == 365
    assert stats.heatmap[-1].day == today
    per_day = Counter(independent_day(r.reviewed_at) for r in history.reviews)
    for cell in stats.heatmap:
        assert cell.reviews == per_day.get(cell.day, 0)
    assert sum(c.reviews for c in stats.heatmap) == len(history.reviews)

    expected = [0] * 30
    for card in history.cards:
        if card.suspended or card.due is None or card.phase == "new":
            continue
        offset = max(0, (independent_day(card.due) - today).days)
        if offset < 30:
            expected[offset] += 1
    assert list(stats.forecast.days) == expected
    assert stats.forecast.total > 0

    live = [c for c in history.cards if not c.suspended]
    assert stats.states.suspended == len(history.cards) - len(live)
    assert stats.states.mature == sum(c.phase == "review" and c.scheduled_days >= 21 for c in live)
    assert stats.states.young == sum(c.phase == "review" and c.scheduled_days < 21 for c in live)
    assert stats.states.leeches == sum(c.leech for c in history.cards)
    assert stats.states.total == len(history.cards)


def test_synthetic_mastery_equals_fsrs_retrievability(history, stats) -> None:
    scheduler = fsrs.Scheduler()
    by_cell: dict[tuple[str, str], list[float]] = {}
    for card_id, card in history.fsrs_cards.items():
        if card.last_review is None:
            continue
        uid, pair = card_id.split("|")
        lang = pair.split(">")[1].split(":")[0]
        # py-fsrs's curve, elapsed time counted in study days (the scheduler's rule)
        view = fsrs_view(card, history.now, history.tz, 4)
        value = scheduler.get_card_retrievability(view, history.now)
        by_cell.setdefault((uid, lang), []).append(value)
    rows = {row.concept_uid: row for row in stats.mastery}
    assert len(rows) == 12  # every concept of the deck, studied or not
    assert stats.mastery_languages == ("en", "bn", "ar", "ru")
    for (uid, lang), values in by_cell.items():
        cell = rows[uid].cells[lang]
        assert cell.cards == len(values)
        assert cell.recall == pytest.approx(sum(values) / len(values))


def test_synthetic_summaries_and_hardest(history, stats) -> None:
    assert sum(s.reviews for s in stats.languages) == len(history.reviews)
    assert sum(s.reviews for s in stats.pairs) == len(history.reviews)
    by_pair = Counter(
        "{}>{}".format(
            r.card_id.split("|")[1].split(">")[0].split(":")[0],
            r.card_id.split(">")[1].split(":")[0],
        )
        for r in history.reviews
    )
    assert {s.key: s.reviews for s in stats.pairs} == dict(by_pair)
    lapses = Counter(
        r.card_id.split("|")[0] for r in history.reviews if r.phase == "review" and r.grade == 1
    )
    top = lapses.most_common(1)[0][1]
    assert stats.hardest[0].lapses == top
    assert all(lapses[h.concept_uid] == h.lapses for h in stats.hardest)


def test_to_dict_is_json_and_deck_filter(history, stats) -> None:
    data = json.loads(json.dumps(stats.to_dict(), ensure_ascii=False))
    assert data["totals"]["reviews"] == len(history.reviews)
    assert data["forecast"]["days"] == list(stats.forecast.days)
    assert set(data["retention"]) == {"7", "30", "365"}
    other = compute_stats(
        history.reviews, history.cards, history.now, TZ, 4, deck_ids={"no-such-deck"}
    )
    assert other.total_reviews == 0 and other.states.total == 0
    assert other.today.correct_rate is None


def test_timezone_label_is_a_name_or_an_offset_never_a_repr() -> None:
    now = datetime(2026, 7, 1, 12, tzinfo=UTC)
    assert timezone_label(TZ, now) == "Asia/Dhaka"
    assert timezone_label(UTC, now) == "UTC"
    assert timezone_label(timezone(timedelta(hours=5, minutes=30)), now) == "UTC+05:30"
    assert timezone_label(timezone(timedelta(hours=-3, minutes=-30)), now) == "UTC-03:30"
    stats = compute_stats([], [], now, timezone(timedelta(hours=-5)), 4)
    assert stats.timezone == "UTC-05:00" and stats.to_dict()["timezone"] == "UTC-05:00"
    named = compute_stats(
        [], [], now, timezone(timedelta(hours=1)), 4, timezone_name="Europe/Paris"
    )
    assert named.to_dict()["timezone"] == "Europe/Paris"


def test_streak_across_the_4am_boundary_on_a_dst_change() -> None:
    """Europe/Paris, 2026-03-29: 02:00 CET jumps to 03:00 CEST; the day still starts at 04:00."""
    paris = ZoneInfo("Europe/Paris")

    def at(d: int, h: int, mi: int = 0) -> datetime:
        return datetime(2026, 3, d, h, mi, tzinfo=paris).astimezone(UTC)

    log = [
        rev(at(25, 10)),
        rev(at(27, 3, 30)),  # CET 02:30 UTC: study day 26 (a fixed UTC+2 would say 27)
        rev(at(27, 20)),
        rev(at(28, 4, 30)),
        rev(at(29, 3, 30)),  # CEST, 01:30 UTC: study day 28
        rev(at(29, 4, 30)),  # CEST, 02:30 UTC: study day 29 (a fixed UTC+1 would say 28)
        rev(at(30, 4, 15)),  # 02:15 UTC: study day 30
        rev(at(31, 5)),
    ]
    assert at(29, 4, 30) == datetime(2026, 3, 29, 2, 30, tzinfo=UTC)  # the clock did change
    now = at(31, 12)
    streak = streak_stats(log, now, paris, 4)
    assert (streak.current, streak.longest, streak.days_studied) == (7, 7, 7)
    # Just before 04:00 CEST on April 1st it is still the 31st; just after, a new day.
    before_four = datetime(2026, 4, 1, 3, 59, tzinfo=paris).astimezone(UTC)
    after_four = datetime(2026, 4, 1, 4, 1, tzinfo=paris).astimezone(UTC)
    assert streak_stats(log, before_four, paris, 4).studied_today
    after = streak_stats(log, after_four, paris, 4)
    assert (after.studied_today, after.current) == (False, 7)
    stats = compute_stats(log, [], now, paris, 4)
    assert stats.timezone == "Europe/Paris"
    assert [(d.day.day, d.reviews) for d in stats.heatmap[-7:]] == [
        (25, 1),
        (26, 1),
        (27, 1),
        (28, 2),
        (29, 1),
        (30, 1),
        (31, 1),
    ]


@pytest.mark.parametrize(
    "zone",
    [
        "Europe/Paris",
        "America/New_York",
        "America/St_Johns",  # UTC-3:30, DST
        "Australia/Lord_Howe",  # a 30-minute DST shift
        "Pacific/Chatham",  # UTC+12:45 / +13:45
        "Asia/Kathmandu",  # UTC+5:45, no DST
        "America/Sao_Paulo",
        "UTC",
    ],
)
@pytest.mark.parametrize("hour", [0, 4, 23])
def test_fast_study_days_agree_with_study_day_around_every_change(zone: str, hour: int) -> None:
    """The per-UTC-day offset shortcut gives study_day's answer for every moment, DST included."""
    from quizzer.stats.days import dated_reviews as _dated

    tz = ZoneInfo(zone)
    start = datetime(2025, 1, 1, tzinfo=UTC)
    changes = [
        start + timedelta(hours=h)
        for h in range(1, 2 * 8760)
        if (start + timedelta(hours=h)).astimezone(tz).utcoffset()
        != (start + timedelta(hours=h - 1)).astimezone(tz).utcoffset()
    ]
    moments = [start + timedelta(minutes=37 * i) for i in range(0, 2 * 525600 // 37, 50)]
    for change in changes:  # every 5 minutes for two days either side of each change
        moments += [change + timedelta(minutes=5 * i) for i in range(-576, 577)]
    log = [rev(m) for m in moments]
    fast = [d for _, d in _dated(log, tz, hour)]
    assert fast == [study_day(m, tz, hour) for m in moments]
    # The zones with DST were exercised (Sao Paulo has had none since 2019).
    assert zone in ("UTC", "Asia/Kathmandu", "America/Sao_Paulo") or len(changes) == 4


@pytest.mark.parametrize("zone", ["Europe/Paris", "Australia/Lord_Howe"])
def test_fast_study_days_with_the_system_zone(zone: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The store's default zone (the system's, DST-aware) takes the same shortcut and agrees."""
    import time

    from quizzer.progress.store import system_zone
    from quizzer.stats.days import dated_reviews as _dated

    monkeypatch.setenv("TZ", zone)
    time.tzset()
    try:
        tz = system_zone()
        start = datetime(2026, 1, 1, tzinfo=UTC)
        moments = [start + timedelta(minutes=13 * i) for i in range(0, 365 * 24 * 60 // 13, 3)]
        log = [rev(m) for m in moments]
        assert [d for _, d in _dated(log, tz, 4)] == [study_day(m, tz, 4) for m in moments]
        assert [d for _, d in _dated(log, tz, 4)] == [
            study_day(m, ZoneInfo(zone), 4) for m in moments
        ]
    finally:
        monkeypatch.undo()
        time.tzset()


def test_a_deck_without_english_names_its_concepts_by_its_own_terms() -> None:
    """A deck without English lists a term of its own, not the id ``adaptery``.

    The first language the concept has, in the order its deck file gives them.
    """
    from quizzer.concepts.deck import Deck
    from tests.factories import concept

    deck = Deck(
        id="ru-ar",
        name="ru-ar",
        concepts=(
            concept(
                "ru-ar", "adaptery", {"ru": ("Адаптеры", "определение"), "ar": ("المحولات", "ت")}
            ),
            concept("ru-ar", "only-ar", {"ar": ("المحولات الخفيفة", "تعريف")}),
            concept("ru-ar", "lora", {"ru": ("Низкоранговая адаптация", "о")}, acronym="LoRA"),
        ),
    )
    stats = compute_stats([], [], datetime(2026, 3, 1, tzinfo=UTC), UTC, 4, decks=[deck])
    assert stats.concept_names == {
        "ru-ar/adaptery": "Адаптеры",
        "ru-ar/only-ar": "المحولات الخفيفة",
        "ru-ar/lora": "LoRA",
    }
    assert [row["name"] for row in stats.to_dict()["mastery"]["concepts"]] == [
        "Адаптеры",
        "المحولات الخفيفة",
        "LoRA",
    ]
