"""`quizzer settings`: every scheduling setting can be shown and changed from the command line."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.cli.main import main
from quizzer.cli.settings_cmd import apply_changes
from quizzer.errors import InputError
from quizzer.progress import open_store
from quizzer.scheduling.settings import SchedulerSettings
from tests.progress import store_builder as sb

NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
KEY = CardKey("demo/c0", Pair("ru", "term", "bn", "definition"))


def _quizzer(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "quizzer", *args], capture_output=True, text=True, timeout=60
    )


def test_settings_set_show_reset_and_used_by_the_scheduler(tmp_path: Path) -> None:
    db = tmp_path / "p.json"
    result = _quizzer(
        "settings", "--db", str(db),
        "--set", "desired_retention=0.85",
        "--set", "learning_steps=30s 5m",
        "--set", "relearning-steps=2m",
        "--set", "maximum_interval=200",
        "--set", "fuzz=off",
        "--set", "day_start_hour=6",
        "--set", "new_per_day=7",
        "--set", "reviews_per_day=50",
        "--set", "new_order=random",
        "--set", "bury_siblings=no",
        "--set", "leech_threshold=5",
        "--set", "leech_every=2",
        "--set", "leech_action=flag",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "learning_steps     30s 5m   (changed)" in result.stdout
    expected = SchedulerSettings(
        desired_retention=0.85,
        learning_steps_s=(30, 300),
        relearning_steps_s=(120,),
        maximum_interval_days=200,
        fuzz=False,
        day_start_hour=6,
        new_per_day=7,
        reviews_per_day=50,
        new_order="random",
        bury_siblings=False,
        leech_threshold=5,
        leech_every=2,
        leech_action="flag",
    )
    with open_store(db, tz=UTC, rng=random.Random(1)) as store:
        assert store.settings == expected
        # The first learning step is the one set: Again on a new card brings it back in 30 s.
        assert store.preview(KEY, NOW)[1].total_seconds() == 30
    shown = _quizzer("settings", "--db", str(db), "--json")
    assert shown.returncode == 0 and json.loads(shown.stdout) == expected.to_dict()
    reset = _quizzer("settings", "--db", str(db), "--reset", "learning_steps", "--json")
    assert json.loads(reset.stdout)["learning_steps_s"] == [60, 600]
    assert json.loads(reset.stdout)["new_per_day"] == 7
    every = _quizzer("settings", "--db", str(db), "--reset", "all", "--json")
    assert json.loads(every.stdout) == SchedulerSettings().to_dict()


@pytest.mark.parametrize(
    ("item", "words"),
    [
        ("colour=blue", "unknown setting 'colour'"),
        ("new_per_day", "expected KEY=VALUE"),
        ("new_per_day=-1", "new_per_day must be at least 0"),
        ("new_per_day=many", "whole number"),
        ("desired_retention=1.5", "below 1"),
        ("learning_steps=1x", "not a duration"),
        ("learning_steps=0m", "positive"),
        ("day_start_hour=24", "0-23"),
        ("fuzz=maybe", "on or off"),
        ("leech_action=delete", "suspend, flag"),
        ("parameters=1,2,3", "21 numbers"),
    ],
)
def test_bad_settings_exit_2_with_a_clear_message_and_store_unchanged(
    tmp_path: Path, item: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "p.json"
    assert main(["settings", "--db", str(db), "--set", "new_per_day=9"]) == 0
    before = sb.contents(db)
    capsys.readouterr()
    assert main(["settings", "--db", str(db), "--set", item]) == 2  # in-process: main's handling
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err
    assert sb.contents(db) == before
    with open_store(db, read_only=True, tz=UTC) as store:
        assert store.settings.new_per_day == 9


def test_bad_setting_never_creates_a_store(tmp_path: Path) -> None:
    db = tmp_path / "typo.json"
    assert _quizzer("settings", "--db", str(db), "--set", "new_per_day=x").returncode == 2
    assert not db.exists()
    shown = _quizzer("settings", "--db", str(db))
    assert shown.returncode == 0 and "defaults" in shown.stdout and not db.exists()


def test_apply_changes_unknown_reset_key() -> None:
    with pytest.raises(InputError, match="unknown setting"):
        apply_changes(SchedulerSettings(), [], ["nope"])


def test_setting_and_resetting_the_same_key_at_once_is_refused() -> None:
    from quizzer.errors import InputError
    from quizzer.scheduling.settings import SchedulerSettings

    with pytest.raises(InputError, match="both set and reset"):
        apply_changes(SchedulerSettings(), ["new_per_day=5"], ["new-per-day"])
    assert (
        apply_changes(SchedulerSettings(), ["new_per_day=5"], ["reviews_per_day"]).new_per_day == 5
    )
