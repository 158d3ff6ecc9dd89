"""`quizzer stats --json`, `quizzer log export --csv` and `quizzer optimize` on a real store."""

from __future__ import annotations

import csv
import json
import random
import time
from collections import Counter
from datetime import UTC, date, datetime, timedelta
from itertools import pairwise
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import fsrs_rs_python
import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.cli.main import main
from quizzer.cli.stats_cmd import CSV_COLUMNS
from quizzer.library.decks import write_deck
from quizzer.progress import open_store
from quizzer.scheduling.answer import Answer
from quizzer.scheduling.grades import Grade
from quizzer.scheduling.optimizer import DEFAULT_PARAMETERS, MIN_REVIEWS
from quizzer.scheduling.review import Review
from quizzer.scheduling.settings import SchedulerSettings
from tests.cli_support import run
from tests.synthetic_history import GRADES, LEARNER_PARAMS, PAIRS, make_deck

EN_BN = Pair("en", "term", "bn", "term")
RU_AR = Pair("ru", "term", "ar", "definition")
TOP_KEYS = {
    "generated_at",
    "timezone",
    "day_start_hour",
    "decks",
    "totals",
    "today",
    "streak",
    "states",
    "retention",
    "reviews_per_day",
    "forecast",
    "mastery",
    "hardest",
    "languages",
    "pairs",
    "sources",
    "practice",
    "db",
}


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user deck folder holding the synthetic deck (texts with markup-like brackets)."""
    decks = tmp_path / "decks"
    write_deck(make_deck(), decks / "synth.toml")
    monkeypatch.setenv("QUIZZER_DECKS", str(decks))
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.delenv("QUIZZER_DB", raising=False)
    return tmp_path


@pytest.fixture
def local_tz(monkeypatch: pytest.MonkeyPatch):
    """Set the process's $TZ (libc included, so the store's local zone follows); restored after."""

    def use(value: str) -> None:
        monkeypatch.setenv("TZ", value)
        time.tzset()

    yield use
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def seeded(env: Path) -> tuple[Path, list[Review]]:
    """A store with 5 en→bn and 3 ru→ar cards answered over 20 days, 2 answers today.

    Returns the store path and the answers as recorded (the seeded history).
    """
    path = env / "progress.json"
    rng = random.Random(3)
    now = datetime.now(UTC)
    log: list[Review] = []
    with open_store(path) as store:
        keys = [CardKey(f"synth/c{i:02d}", EN_BN) for i in range(5)]
        keys += [CardKey(f"synth/c{i:02d}", RU_AR) for i in range(5, 8)]
        for day in range(20, 0, -1):
            for key in keys:
                state = store.card(key)
                moment = now - timedelta(days=day, minutes=rng.randrange(0, 60))
                if state is None or state.due <= moment:
                    log.append(
                        store.record(
                            key,
                            rng.choice([1, 3, 3, 3, 4]),
                            moment,
                            Answer(
                                mode=rng.choice(["flip", "choice", "typed"]),
                                duration_ms=rng.randrange(1000, 9000),
                                typed="ответ, «данные»",
                            ),
                        )
                    )
        log.append(store.record(keys[0], 3, now - timedelta(seconds=30), Answer(duration_ms=1234)))
        log.append(store.record(keys[6], 1, now - timedelta(seconds=20), Answer(duration_ms=4321)))
        store.set_suspended(keys[7], True, now)
    return path, log


@pytest.fixture
def store_path(seeded: tuple[Path, list[Review]]) -> Path:
    return seeded[0]


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(list(argv)) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


HAND_TZ = "America/Sao_Paulo"  # UTC-3, no DST since 2019: the study day differs from UTC's


def hand_day(moment: datetime, zone: str = HAND_TZ) -> date:
    """The study day, by hand: the local date, or the day before when it is before 04:00."""
    local = moment.astimezone(ZoneInfo(zone))
    return local.date() - timedelta(days=1) if local.hour < 4 else local.date()


def test_stats_json_keys_types_and_values(seeded, local_tz, capsys) -> None:
    store_path, log = seeded
    local_tz(HAND_TZ)
    data = run_json(capsys, "stats", "--db", str(store_path), "--json")
    with open_store(store_path, read_only=True) as store:
        cards = {c.card_id: c for c in store.cards()}
    assert set(data) == TOP_KEYS
    assert data["timezone"] == HAND_TZ and data["day_start_hour"] == 4
    assert "synth" in data["decks"]
    assert data["totals"] == {"reviews": len(log), "cards": 8}

    now = datetime.fromisoformat(data["generated_at"])
    today = hand_day(now)
    days = [hand_day(r.reviewed_at) for r in log]
    todays = [r for r, d in zip(log, days, strict=True) if d == today]
    assert data["today"] == {
        "day": today.isoformat(),
        "cards": len({r.card_id for r in todays}),
        "reviews": len(todays),
        "passed": sum(r.grade != 1 for r in todays),
        "correct_rate": (sum(r.grade != 1 for r in todays) / len(todays)) if todays else None,
        "time_ms": sum(r.duration_ms for r in todays),
    }
    # Streak by hand: walk back from today (or yesterday if today has no answer yet).
    studied = set(days)
    cursor = today if today in studied else today - timedelta(days=1)
    current = 0
    while cursor in studied:
        current, cursor = current + 1, cursor - timedelta(days=1)
    ordered = sorted(studied)
    longest = run = 1
    for a, b in pairwise(ordered):
        run = run + 1 if (b - a).days == 1 else 1
        longest = max(longest, run)
    assert data["streak"] == {
        "current": current,
        "longest": longest,
        "studied_today": today in studied,
        "days_studied": len(studied),
    }
    assert current >= 1  # answers today (or just before 04:00: yesterday)

    states = data["states"]
    # New: the 12 concepts in each of the 2 directions studied, minus the 8 cards studied.
    assert states["new"] == 12 * 2 - 8 and states["suspended"] == 1
    live = [c for c in cards.values() if not c.suspended]
    review = [c for c in live if c.phase == "review"]
    assert states["mature"] == sum(c.scheduled_days >= 21 for c in review)
    assert states["young"] == sum(c.scheduled_days < 21 for c in review)
    assert states["learning"] == sum(c.phase == "learning" for c in live)
    assert states["relearning"] == sum(c.phase == "relearning" for c in live)
    assert states["total"] == 8 + states["new"]

    for window in (7, 30, 365):
        expected = {"young": [0, 0], "mature": [0, 0]}
        for r, d in zip(log, days, strict=True):
            if r.phase == "review" and 0 <= (today - d).days < window:
                kind = "mature" if r.last_interval_days >= 21 else "young"
                expected[kind][0 if r.grade != 1 else 1] += 1
        for kind, (passed, failed) in expected.items():
            cell = data["retention"][str(window)][kind]
            assert (cell["passed"], cell["failed"]) == (passed, failed), (window, kind)
            assert cell["rate"] == (passed / (passed + failed) if passed + failed else None)

    per_day = Counter(days)
    expected_days = [today - timedelta(days=i) for i in range(364, -1, -1)]
    assert [d["day"] for d in data["reviews_per_day"]] == [d.isoformat() for d in expected_days]
    assert [d["reviews"] for d in data["reviews_per_day"]] == [per_day[d] for d in expected_days]

    buckets = [0] * 30
    overdue = 0
    for c in live:
        offset = (hand_day(c.due) - today).days
        overdue += offset < 0
        if offset < 30:
            buckets[max(0, offset)] += 1
    forecast = data["forecast"]
    assert forecast["days"] == buckets and forecast["overdue"] == overdue
    assert forecast["start"] == today.isoformat() and forecast["total"] == sum(buckets)

    mastery = data["mastery"]
    assert mastery["languages"] == ["bn", "ar"]
    rows = {row["concept"]: row for row in mastery["concepts"]}
    assert len(rows) == 12 and rows["synth/c00"]["name"] == "c00 [b]en[/b] term"
    decay = DEFAULT_PARAMETERS[20]
    factor = 0.9 ** (-1 / decay) - 1
    for card_id, c in cards.items():
        key = CardKey.parse(card_id)
        assert c.last_review is not None  # every card here was answered
        # Study days, as the scheduler counts them (Anki's delta_t), not 24-hour periods.
        elapsed = max(0, (today - hand_day(c.last_review)).days)
        recall = (1 + factor * elapsed / c.stability) ** -decay
        cell = rows[key.concept_uid]["languages"][key.pair.answer_lang]
        assert cell == {"recall": pytest.approx(recall, rel=1e-9), "cards": 1}
    assert rows["synth/c09"]["languages"] == {} and rows["synth/c09"]["recall"] is None

    lapses = Counter(
        CardKey.parse(r.card_id).concept_uid for r in log if r.phase == "review" and r.grade == 1
    )
    assert {h["concept"]: h["lapses"] for h in data["hardest"]} == dict(lapses)
    pairs = Counter("en>bn" if CardKey.parse(r.card_id).pair == EN_BN else "ru>ar" for r in log)
    assert {p["key"]: p["reviews"] for p in data["pairs"]} == dict(pairs)
    assert {s["key"]: s["reviews"] for s in data["languages"]} == {
        "bn": pairs["en>bn"],
        "ar": pairs["ru>ar"],
    }


def test_stats_deck_filter_and_empty_store(
    store_path: Path, env: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    other = run_json(capsys, "stats", "--db", str(store_path), "--json", "--deck", "quantization")
    assert other["decks"] == ["quantization"]
    assert other["totals"] == {"reviews": 0, "cards": 0}
    assert len(other["mastery"]["concepts"]) == 20
    # No store yet at the default place (a learner who hasn't studied): empty figures.
    monkeypatch.setenv("QUIZZER_DB", str(env / "none.json"))
    empty = run_json(capsys, "stats", "--json")
    assert empty["totals"]["reviews"] == 0 and empty["today"]["correct_rate"] is None
    assert not (env / "none.json").exists()  # looking never creates a store
    assert main(["stats", "--db", str(store_path), "--deck", "no-such-deck"]) == 2
    assert "no deck named" in capsys.readouterr().err


def test_stats_terminal_shows_deck_text_literally(store_path: Path, capsys) -> None:
    assert main(["stats", "--db", str(store_path), "--deck", "synth"]) == 0
    out = capsys.readouterr().out
    assert "c00 [b]en[/b] term" in out  # markup-like text stays text
    assert "True retention" in out and "Predicted recall now" in out and "busiest day" in out
    assert any(glyph in out for glyph in "░▒▓█")


def test_log_export_csv(store_path: Path, env: Path, capsys) -> None:
    out = env / "export" / "log.csv"
    out.parent.mkdir()
    assert main(["log", "export", "--csv", str(out), "--db", str(store_path)]) == 0
    with open_store(store_path, read_only=True) as store:
        reviews = sorted(store.reviews(), key=lambda r: (r.reviewed_at, r.id))
    with open(out, encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert tuple(rows[0].keys()) == CSV_COLUMNS
    assert len(rows) == len(reviews)
    for row, review in zip(rows, reviews, strict=True):
        assert row["review_id"] == review.id
        utc = datetime.fromisoformat(row["reviewed_at_utc"])
        local = datetime.fromisoformat(row["reviewed_at_local"])
        assert utc == local == review.reviewed_at
        assert utc.utcoffset() == timedelta(0)
        key = CardKey.parse(review.card_id)
        assert (row["deck"], row["concept"]) == ("synth", key.concept_id)
        assert (row["prompt_lang"], row["answer_lang"]) == (
            key.pair.prompt_lang,
            key.pair.answer_lang,
        )
        assert int(row["grade"]) == review.grade and row["mode"] == review.mode
        assert int(row["duration_ms"]) == review.duration_ms
    assert rows[0]["typed"] == "ответ, «данные»"  # UTF-8 and a comma survive
    assert main(["log", "export", "--csv", "-", "--db", str(store_path)]) == 0
    assert capsys.readouterr().out == out.read_bytes().decode("utf-8")
    assert (
        main(["log", "export", "--csv", "-", "--db", str(store_path), "--deck", "quantization"])
        == 0
    )
    assert capsys.readouterr().out.splitlines() == [",".join(CSV_COLUMNS)]
    assert main(["log", "export", "--csv", str(env), "--db", str(store_path)]) == 2


def _simulated_store(path: Path, n_cards: int, days: int, seed: int) -> None:
    """Answers drawn from a learner model unlike FSRS's defaults, recorded through the store."""
    rng = random.Random(seed)
    truth = fsrs_rs_python.FSRS(LEARNER_PARAMS)
    start = datetime(2025, 1, 1, 10, tzinfo=UTC)
    end = start + timedelta(days=days)
    settings = SchedulerSettings(fuzz=False)
    with open_store(path, rng=random.Random(seed)) as store:
        store.set_settings(settings)
        keys = [
            CardKey(f"synth/c{i // len(PAIRS):02d}", PAIRS[i % len(PAIRS)]) for i in range(n_cards)
        ]
        events = [(start + timedelta(days=rng.randrange(0, days // 2)), k) for k in keys]
        memory: dict[str, tuple[fsrs_rs_python.MemoryState, datetime]] = {}
        while events:
            events.sort(key=lambda e: e[0])
            moment, key = events.pop(0)
            if moment > end:
                continue
            known = memory.get(key.id)
            if known is None:
                grade: Grade = rng.choices((1, 2, 3, 4), (0.25, 0.15, 0.5, 0.1))[0]
                delta = 0
            else:
                state, last = known
                delta = (moment.date() - last.date()).days
                factor = 0.9 ** (1 / -LEARNER_PARAMS[20]) - 1
                p = (
                    0.8
                    if delta == 0
                    else (1 + factor * delta / state.stability) ** -LEARNER_PARAMS[20]
                )
                grade = 1 if rng.random() > p else 3
            new = getattr(
                truth.next_states(known[0] if known else None, 0.9, delta), GRADES[grade - 1]
            )
            memory[key.id] = (new.memory, moment)
            store.record(key, grade, moment, Answer(duration_ms=1000))
            state_now = store.card(key)
            assert state_now is not None
            due = state_now.due
            events.append((max(due, moment + timedelta(minutes=1)), key))


def test_optimize_refuses_small_log_and_changes_nothing(store_path: Path, capsys) -> None:
    assert main(["optimize", "--db", str(store_path)]) == 0
    out = capsys.readouterr().out
    assert "Not enough reviews" in out and f"at least {MIN_REVIEWS}" in out
    assert "Nothing was changed" in out
    with open_store(store_path, read_only=True) as store:
        assert store.settings.parameters == DEFAULT_PARAMETERS


def test_optimize_stores_parameters_the_scheduler_uses(env: Path, capsys) -> None:
    path = env / "big.json"
    _simulated_store(path, n_cards=150, days=300, seed=11)
    data = run_json(capsys, "optimize", "--db", str(path), "--json")
    assert data["status"] == "optimized", data["message"]
    assert data["after"]["log_loss"] < data["before"]["log_loss"]
    assert data["usable_reviews"] >= MIN_REVIEWS
    assert data["before_parameters"] == "defaults"
    held = data["evaluated_on"]
    assert held["set"] == "held_out_cards" and held["cards"] > 0
    assert held["reviews"] + held["train_reviews"] == data["usable_reviews"]
    # Run again: "before" is now the stored fit, which the same fit can't beat.
    assert main(["optimize", "--db", str(path)]) == 0
    out = capsys.readouterr().out
    assert "In use now" in out and "FSRS defaults" not in out
    assert f"{data['after']['log_loss']:.4f}" in out  # the stored fit's figure is "before"
    assert "parameters in use; nothing was changed" in " ".join(out.split())
    with open_store(path) as store:
        params = store.settings.parameters
        assert list(params) == data["parameters"] and params != DEFAULT_PARAMETERS
        # The scheduler uses them: a new card's Easy interval follows the fitted w[3].
        key = CardKey("synth/c00", Pair("fr", "definition", "en", "term"))
        now = datetime(2026, 1, 1, 12, tzinfo=UTC)
        fitted_preview = store.preview(key, now)
        store.set_settings(SchedulerSettings(fuzz=False))
        default_preview = store.preview(key, now)
    assert fitted_preview != default_preview


def test_mistyped_db_is_refused_and_nothing_is_created(store_path: Path, env: Path, capsys) -> None:
    typo = env / "progres.json"
    before = sorted(p.name for p in env.iterdir())
    for argv in (
        ["optimize", "--db", str(typo)],
        ["optimize", "--db", str(typo), "--json"],
        ["stats", "--db", str(typo)],
        ["stats", "--db", str(typo), "--json"],
        ["log", "export", "--csv", "-", "--db", str(typo)],
    ):
        assert main(argv) == 3, argv
        captured = capsys.readouterr()
        assert "no progress store here" in captured.err and str(typo) in captured.err
        assert "--db" in captured.err  # the hint says what to check
        assert captured.out == "" and "Traceback" not in captured.err
    assert main(["optimize", "--db", str(env)]) == 3  # a folder is no store file
    assert "folder" in capsys.readouterr().err
    assert sorted(p.name for p in env.iterdir()) == before  # no empty store left behind


def test_stats_names_the_time_zone(store_path: Path, capsys, local_tz) -> None:
    local_tz("Europe/Paris")
    data = run_json(capsys, "stats", "--db", str(store_path), "--json")
    assert data["timezone"] == "Europe/Paris"
    assert main(["stats", "--db", str(store_path)]) == 0
    out = capsys.readouterr().out
    assert "(Europe/Paris)" in out and "ZoneInfo" not in out
    # A POSIX rule without a zone name: the offset it gives now.
    local_tz("<+0530>-5:30")
    data = run_json(capsys, "stats", "--db", str(store_path), "--json")
    assert data["timezone"] == "UTC+05:30"


#: Paris wall times around the 2026-03-29 change (02:00 CET -> 03:00 CEST), with the study
#: day each belongs to. A fixed UTC+1 would move the 29th and 30th back a day, a fixed UTC+2
#: the 27th's 03:30 forward: either way the 7-day streak breaks.
PARIS_LOG = (
    ((3, 25, 10, 0), 25),
    ((3, 27, 3, 30), 26),  # CET, before 04:00: still the 26th
    ((3, 27, 20, 0), 27),
    ((3, 28, 4, 30), 28),
    ((3, 29, 3, 30), 28),  # CEST already (the clock jumped at 02:00), before 04:00
    ((3, 29, 4, 30), 29),  # 02:30 UTC
    ((3, 30, 4, 15), 30),  # 02:15 UTC
    ((3, 31, 5, 0), 31),
)


def test_streak_across_the_dst_change_with_the_stores_local_zone(env: Path, local_tz) -> None:
    from quizzer.services.stats import stats_from_store

    local_tz("Europe/Paris")
    paris = ZoneInfo("Europe/Paris")
    path = env / "paris.json"
    key = CardKey("synth/c00", EN_BN)
    with open_store(path) as store:  # the store's own zone: the system's, DST-aware
        for (mo, d, h, mi), _day in PARIS_LOG:
            store.record(key, 3, datetime(2026, mo, d, h, mi, tzinfo=paris).astimezone(UTC))
    for (mo, d, h, mi), day in PARIS_LOG:  # the hand table agrees with the wall clock
        assert hand_day(datetime(2026, mo, d, h, mi, tzinfo=paris), "Europe/Paris").day == day
    now = datetime(2026, 3, 31, 12, tzinfo=paris).astimezone(UTC)
    with open_store(path, read_only=True) as store:
        stats = stats_from_store(store, [make_deck()], now=now)
    assert stats.timezone == "Europe/Paris"
    assert (stats.streak.current, stats.streak.longest, stats.streak.days_studied) == (7, 7, 7)
    assert stats.today.day == date(2026, 3, 31) and stats.today.reviews == 1
    per_day = Counter(day for _, day in PARIS_LOG)
    assert {d.day.day: d.reviews for d in stats.heatmap if d.reviews} == dict(per_day)
    # One day later, without an answer yet, the streak lives on; two days later it is over.
    with open_store(path, read_only=True) as store:
        later = stats_from_store(store, [], now=now + timedelta(days=1))
        gone = stats_from_store(store, [], now=now + timedelta(days=2))
    assert (later.streak.current, later.streak.studied_today) == (7, False)
    assert (gone.streak.current, gone.streak.longest) == (0, 7)


def test_log_export_refuses_a_missing_folder_and_creates_none(
    store_path: Path, tmp_path: Path
) -> None:
    target = tmp_path / "no-such-folder" / "sub" / "log.csv"
    assert main(["log", "export", "--csv", str(target), "--db", str(store_path)]) == 2
    assert not (tmp_path / "no-such-folder").exists()


def test_streak_lengths_read_as_english() -> None:
    from quizzer.ui.stats_render import _days

    assert (_days(0), _days(1), _days(2)) == ("0 days", "1 day", "2 days")


def test_optimize_with_too_few_answers_explains_it_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    db = tmp_path / "p.json"
    with open_store(db) as store:
        store.record(
            CardKey.parse("quantization/gptq|en:term>en:definition"),
            3,
            datetime(2026, 1, 1, 10, tzinfo=UTC),
            Answer(duration_ms=1000),
        )
    code, out, _err = run(capsys, "optimize", "--db", str(db))
    assert code == 0
    assert out.count("on a later day than the card's previous answer") == 1
    assert out.count("at least 400") == 1 and "400 needed" not in out  # said once
    assert "Nothing was changed" in out and "400 more" in out
