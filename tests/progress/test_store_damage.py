"""Damage the doctor and ordinary opens must name (not crash on): bad card states, odd layouts."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.errors import StoreError
from quizzer.progress import SCHEMA_VERSION, backup_path, doctor
from quizzer.progress.journal_events import card_data
from quizzer.progress.state import State

NOW = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
RU_BN = Pair("ru", "term", "bn", "definition")
KEY = CardKey("training-efficiency/lora", RU_BN)
KEY2 = CardKey("training-efficiency/peft", RU_BN)


def _quizzer(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "quizzer", *args], capture_output=True, text=True, timeout=60
    )


def _two_compactions(open_db, db: Path) -> dict[str, dict[str, Any]]:
    """A store whose P.bak holds KEY and whose snapshot holds KEY and KEY2; their states."""
    with open_db(db) as store:
        store.record(KEY, 3, NOW)
    with open_db(db) as store:
        store.record(KEY2, 4, NOW + timedelta(minutes=5))
        return {k.id: store.card(k).to_dict() for k in (KEY, KEY2)}


def _break_card_id(db: Path, card: CardKey) -> bytes:
    doc = json.loads(db.read_text(encoding="utf-8"))
    for data in doc["cards"].values():
        if data["card_id"] == card.id:
            data["card_id"] = "broken id"
    raw = json.dumps(doc, ensure_ascii=False).encode("utf-8")
    db.write_bytes(raw)
    return raw


def test_doctor_keeps_the_good_backup_and_rebuilds_from_it_when_a_card_id_is_broken(
    tmp_path: Path,
    open_db,
) -> None:
    db = tmp_path / "p.json"
    expected = _two_compactions(open_db, db)
    good_backup = backup_path(db).read_bytes()
    damaged = _break_card_id(db, KEY)
    result = _quizzer("doctor", "--db", str(db))
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 0, result.stdout + result.stderr
    assert "card state" in result.stdout and "repaired" in result.stdout
    # The damaged snapshot was kept aside, never copied over the last good backup.
    assert backup_path(db).read_bytes() == good_backup
    kept = [p for p in tmp_path.iterdir() if p.name.startswith("p.json.damaged-")]
    assert len(kept) == 1 and kept[0].read_bytes() == damaged
    with open_db(db) as store:
        # KEY comes back from the backup; KEY2 (answered after it) from the previous journal.
        assert store.card(KEY).to_dict() == expected[KEY.id]
        assert store.card(KEY2).to_dict() == expected[KEY2.id]
    assert doctor.check(db).healthy


def test_doctor_without_a_backup_salvages_the_good_cards(tmp_path: Path, open_db) -> None:
    db = tmp_path / "p.json"
    expected = _two_compactions(open_db, db)
    backup_path(db).unlink()
    _break_card_id(db, KEY)
    report = doctor.repair(db)
    assert report.healthy, report.problems
    assert any("broken id" in a for a in report.actions), report.actions
    with open_db(db) as store:
        assert store.card(KEY2).to_dict() == expected[KEY2.id]


def test_state_to_document_never_raises_on_a_bad_card_id() -> None:
    st = State()
    st.raw = {"broken id": card_data({"card_id": "broken id", "due": NOW.isoformat()})}
    doc = st.to_document(0)
    assert [d["card_id"] for d in doc["cards"].values()] == ["broken id"]
    assert State.from_document(doc).raw.keys() == {"broken id"}


@pytest.mark.parametrize(
    "doc",
    [
        {"meta": 5},
        {"meta": {"1": {"schema": SCHEMA_VERSION, "gen": "x"}}},
        {"meta": {"1": {"schema": SCHEMA_VERSION, "gen": 1}}, "cards": []},
        {"meta": {"1": {"schema": SCHEMA_VERSION, "gen": 1}}, "cards": {"1": 7}},
        {
            "meta": {"1": {"schema": SCHEMA_VERSION, "gen": 1}},
            "settings": {"1": {"day_start_hour": 99}},
        },
        {"meta": {"1": {"schema": SCHEMA_VERSION, "gen": 1, "undo": 4}}},
    ],
)
def test_wrong_layout_is_reported_as_snapshot_damage(
    tmp_path: Path, doc: dict[str, Any], open_db
) -> None:
    db = tmp_path / "p.json"
    with open_db(db) as store:
        store.record(KEY, 3, NOW)
    with open_db(db) as store:
        store.record(KEY2, 3, NOW + timedelta(minutes=1))
    db.write_text(json.dumps(doc), encoding="utf-8")
    found = doctor.check(db)
    assert not found.healthy and any(str(db) in p for p in found.problems)
    with pytest.raises(StoreError) as err:
        open_db(db)
    assert "quizzer doctor" in str(err.value.hint)
    result = _quizzer("doctor", "--db", str(db))
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 0, result.stdout + result.stderr
    with open_db(db) as store:
        assert store.card(KEY) is not None and store.card(KEY2) is not None


def test_a_bad_card_state_is_a_store_error_naming_the_file_not_a_traceback(
    tmp_path: Path,
    open_db,
) -> None:
    db = tmp_path / "p.json"
    _two_compactions(open_db, db)
    doc = json.loads(db.read_text(encoding="utf-8"))
    for data in doc["cards"].values():
        if data["card_id"] == KEY.id:
            data["due"] = "not a time"
    db.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(StoreError) as err, open_db(db) as store:
        list(store.cards())
    assert str(db) in str(err.value) and "quizzer doctor" in str(err.value.hint)
    _break_card_id(db, KEY2)
    result = _quizzer("stats", "--db", str(db))
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 3 and "quizzer doctor" in result.stderr


@pytest.mark.parametrize(
    ("raw", "pos", "words"),
    [
        (b'{"meta": {"1": {"schema": 3, "note": "cut sho', 37, "unterminated string)"),
        (b'{"meta": ', 9, "expecting value)"),
        (b'{"meta": {}} trailing', 13, "extra data)"),
    ],
)
def test_invalid_json_message_reads_well(
    tmp_path: Path, raw: bytes, pos: int, words: str, open_db
) -> None:
    db = tmp_path / "p.json"
    db.write_bytes(raw)
    with pytest.raises(StoreError) as err:
        open_db(db)
    message = err.value.message
    assert message.startswith("progress store is damaged (invalid JSON at line 1, column ")
    assert f"column {pos + 1}, byte {pos}: " in message
    assert message.endswith(words), message
    assert " at;" not in message and "starting at" not in message
