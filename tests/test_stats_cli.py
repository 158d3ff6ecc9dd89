"""`quizzer stats --json`, `quizzer log export --csv` and `quizzer optimize` on a real store."""

from __future__ import annotations

import csv
import json
import random
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import fsrs_rs_python
import pytest
from synthetic_history import GRADES, LEARNER_PARAMS, PAIRS, make_deck

from quizzer.cli.main import main
from quizzer.cli.stats_cmd import CSV_COLUMNS
from quizzer.core.cards import CardKey, Pair
from quizzer.core.scheduling import SchedulerSettings
from quizzer.core.stats import study_day
from quizzer.library import write_deck
from quizzer.optimizer import DEFAULT_PARAMETERS, MIN_REVIEWS
from quizzer.progress_stats import system_timezone_name
from quizzer.store import open_store

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
def store_path(env: Path) -> Path:
    """A store with 5 en→bn and 3 ru→ar cards answered over 20 days, 2 answers today."""
    path = env / "progress.json"
    rng = random.Random(3)
    now = datetime.now(UTC)
    with open_store(path) as store:
        keys = [CardKey(f"synth/c{i:02d}", EN_BN) for i in range(5)]
        keys += [CardKey(f"synth/c{i:02d}", RU_AR) for i in range(5, 8)]
        for day in range(20, 0, -1):
            for key in keys:
                state = store.card(key)
                moment = now - timedelta(days=day, minutes=rng.randrange(0, 60))
                if state is None or state.due <= moment:
                    store.record(
                        key,
                        rng.choice([1, 3, 3, 3, 4]),
                        moment,
                        mode=rng.choice(["flip", "choice", "typed"]),
                        duration_ms=rng.randrange(1000, 9000),
                        typed="ответ, «данные»",
                    )
        store.record(keys[0], 3, now - timedelta(seconds=30), duration_ms=1234)
        store.record(keys[6], 1, now - timedelta(seconds=20), duration_ms=4321)
        store.set_suspended(keys[7], True, now)
    return path


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_stats_json_keys_types_and_values(store_path: Path, capsys) -> None:
    data = run_json(capsys, "stats", "--db", str(store_path), "--json")
    with open_store(store_path, read_only=True) as store:
        reviews = store.reviews()
        cards = list(store.cards())
        hour = store.settings.day_start_hour
    assert set(data) == TOP_KEYS
    assert isinstance(data["generated_at"], str) and data["day_start_hour"] == hour == 4
    assert "synth" in data["decks"]
    assert data["totals"] == {"reviews": len(reviews), "cards": len(cards)}

    now = datetime.fromisoformat(data["generated_at"])
    today = study_day(now, None, hour)
    todays = [r for r in reviews if study_day(r.reviewed_at, None, hour) == today]
    assert data["today"]["day"] == today.isoformat()
    assert data["today"]["reviews"] == len(todays)
    assert data["today"]["cards"] == len({r.card_id for r in todays})
    assert data["today"]["time_ms"] == sum(r.duration_ms for r in todays)
    assert data["today"]["passed"] == sum(r.grade > 1 for r in todays)
    assert data["streak"]["studied_today"] is bool(todays)
    study_days = {study_day(r.reviewed_at, None, hour) for r in reviews}
    assert data["streak"]["days_studied"] == len(study_days)
    assert data["streak"]["current"] >= 1

    states = data["states"]
    assert all(isinstance(v, int) for v in states.values())
    assert states["suspended"] == 1
    # New: the 12 concepts in each of the 2 directions studied, minus the 8 cards studied.
    assert states["new"] == 12 * 2 - 8
    assert states["total"] == len(cards) + states["new"]
    assert states["young"] + states["mature"] == sum(
        c.phase == "review" and not c.suspended for c in cards
    )

    review_phase = [r for r in reviews if r.phase == "review"]
    r365 = data["retention"]["365"]
    assert r365["all"]["total"] == len(review_phase)
    assert r365["all"]["passed"] == sum(r.grade > 1 for r in review_phase)
    for window in ("7", "30", "365"):
        for kind in ("young", "mature", "all"):
            cell = data["retention"][window][kind]
            assert cell["passed"] + cell["failed"] == cell["total"]
            assert cell["rate"] is None or 0 <= cell["rate"] <= 1

    days = data["reviews_per_day"]
    assert len(days) == 365 and days[-1]["day"] == today.isoformat()
    assert sum(d["reviews"] for d in days) == len(reviews)

    forecast = data["forecast"]
    assert len(forecast["days"]) == 30 and forecast["start"] == today.isoformat()
    live = [c for c in cards if not c.suspended]
    due_soon = [c for c in live if study_day(c.due, None, hour) <= today + timedelta(days=29)]
    assert forecast["total"] == sum(forecast["days"]) == len(due_soon)

    mastery = data["mastery"]
    assert mastery["languages"] == ["bn", "ar"]
    rows = {row["concept"]: row for row in mastery["concepts"]}
    assert len(rows) == 12 and rows["synth/c00"]["name"] == "c00 [b]en[/b] term"
    assert set(rows["synth/c00"]["languages"]) == {"bn"}
    assert set(rows["synth/c05"]["languages"]) == {"ar"}
    assert rows["synth/c09"]["languages"] == {} and rows["synth/c09"]["recall"] is None
    assert sum(cell["cards"] for r in rows.values() for cell in r["languages"].values()) == 8
    for row in rows.values():
        for cell in row["languages"].values():
            assert 0 < cell["recall"] <= 1

    lapses = sum(r.phase == "review" and r.grade == 1 for r in reviews)
    assert sum(h["lapses"] for h in data["hardest"]) == lapses
    assert {p["key"] for p in data["pairs"]} == {"en>bn", "ru>ar"}
    assert sum(p["reviews"] for p in data["pairs"]) == len(reviews)
    assert {s["key"] for s in data["languages"]} == {"bn", "ar"}


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
    assert "True retention" in out and "Mastery" in out and "busiest day" in out
    assert any(glyph in out for glyph in "░▒▓█")


def test_log_export_csv(store_path: Path, env: Path, capsys) -> None:
    out = env / "export" / "log.csv"
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
    assert capsys.readouterr().out == out.read_text(encoding="utf-8")
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
        memory: dict[str, tuple[object, datetime]] = {}
        while events:
            events.sort(key=lambda e: e[0])
            moment, key = events.pop(0)
            if moment > end:
                continue
            known = memory.get(key.id)
            if known is None:
                grade = rng.choices((1, 2, 3, 4), (0.25, 0.15, 0.5, 0.1))[0]
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
            store.record(key, grade, moment, duration_ms=1000)
            due = store.card(key).due
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


@pytest.fixture
def local_tz(monkeypatch: pytest.MonkeyPatch):
    """Set the process's $TZ (libc included); restored afterwards."""

    def use(value: str) -> None:
        monkeypatch.setenv("TZ", value)
        time.tzset()

    yield use
    monkeypatch.undo()
    time.tzset()


def test_stats_names_the_time_zone(store_path: Path, capsys, local_tz) -> None:
    local_tz("Europe/Paris")
    data = run_json(capsys, "stats", "--db", str(store_path), "--json")
    assert data["timezone"] == "Europe/Paris"
    assert main(["stats", "--db", str(store_path)]) == 0
    out = capsys.readouterr().out
    assert "(Europe/Paris)" in out and "LocalTimezone" not in out
    # A POSIX rule without a zone name: the offset it gives now.
    local_tz("<+0530>-5:30")
    data = run_json(capsys, "stats", "--db", str(store_path), "--json")
    assert data["timezone"] == "UTC+05:30"


def test_system_timezone_name_from_tz_or_localtime_link(tmp_path: Path) -> None:
    assert system_timezone_name({"TZ": "America/Sao_Paulo"}) == "America/Sao_Paulo"
    assert system_timezone_name({"TZ": ":Asia/Dhaka"}) == "Asia/Dhaka"
    assert system_timezone_name({"TZ": "CET-1CEST"}) is None
    link = tmp_path / "localtime"
    link.symlink_to("/usr/share/zoneinfo/Europe/Paris")
    assert system_timezone_name({}, localtime=link) == "Europe/Paris"
    assert system_timezone_name({}, localtime=tmp_path / "missing") is None
