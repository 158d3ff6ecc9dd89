"""Upgrading a store of today's single-writer layout (schema 1, 2 and 4, made by that code:
tests/progress/data/old_stores) into this device's events: every answer arrives with its
review id, undone answers stay out, flags and settings come along, the old files are kept."""

from __future__ import annotations

import hashlib
import json
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import quizzer.progress.device as device
import quizzer.progress.devicelog as devicelog
import quizzer.progress.events as events
import quizzer.progress.layout as layout
import quizzer.progress.upgrade as upgrade
from quizzer.errors import StoreError

OLD_STORES = Path(__file__).parent / "data" / "old_stores"
NOW = datetime(2026, 12, 5, 9, 0, tzinfo=UTC)


def _copy(tmp_path: Path, schema: str) -> Path:
    shutil.copytree(OLD_STORES / schema, tmp_path / "data")
    return tmp_path / "data" / "progress.json"


def _hashes(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _log(store: Path) -> list[dict[str, Any]]:
    (folder,) = layout.device_folders(store)
    result = devicelog.read_since(folder)
    assert result.damage == [] and result.losses == []
    return result.events


def _ms(text: str) -> int:
    return events.to_ms(datetime.fromisoformat(text))


@pytest.mark.parametrize("schema", ["schema1", "schema2", "schema4"])
def test_every_answer_arrives_with_its_review_id(
    tmp_path: Path, schema: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(device.ENV_DEVICE, "laptop")
    store = _copy(tmp_path, schema)
    before = _hashes(store.parent)
    expected = json.loads((OLD_STORES / f"{schema}.expected.json").read_text())
    assert upgrade.needs_upgrade(store)
    done = upgrade.upgrade(store, NOW)
    assert done.answers == len(expected["reviews"]) and done.skipped == []
    assert str(done.answers) in done.notice
    assert layout.read_marker(store) is not None and not upgrade.needs_upgrade(store)
    logged = _log(store)
    typed = [events.from_dict(event) for event in logged]  # all valid for the new store
    answers = [event for event in logged if event["op"] == "answer"]
    assert sorted(a["review"] for a in answers) == sorted(r["id"] for r in expected["reviews"])
    by_review = {a["review"]: a for a in answers}
    for review in expected["reviews"]:
        answer = by_review[review["id"]]
        assert answer["card"] == review["card_id"] and answer["grade"] == review["grade"]
        assert answer["at"] == _ms(review["reviewed_at"]) and answer["mode"] == review["mode"]
        assert answer["ms"] == review["duration_ms"] and answer.get("typed") == review["typed"]
        assert answer.get("due") == (_ms(review["due"]) if review["due"] else None)
    assert [e.seq for e in typed] == list(range(1, len(typed) + 1))
    assert {e["dev"] for e in logged} == {"laptop"}
    assert sorted(e["card"] for e in logged if e["op"] == "suspend") == expected["suspended"]
    assert sorted(e["card"] for e in logged if e["op"] == "leech") == expected["leeches"]
    (settings,) = [e for e in logged if e["op"] == "settings"]
    assert settings["values"]["desired_retention"] == expected["settings"]["desired_retention"]
    # The old files, byte for byte, under P.legacy-v2; nothing left beside the folder.
    legacy = tmp_path / "data" / "progress.json.legacy-v2"
    for name, digest in before.items():
        assert _hashes(legacy)[name] == digest
    assert sorted(p.name for p in store.parent.iterdir()) == [
        "progress.json",
        "progress.json.legacy-v2",
    ]


def test_undone_answers_stay_out(tmp_path: Path) -> None:
    store = _copy(tmp_path, "schema4")
    upgrade.upgrade(store, NOW)
    expected = json.loads((OLD_STORES / "schema4.expected.json").read_text())
    answers = [e for e in _log(store) if e["op"] == "answer"]
    assert len(answers) == len(expected["reviews"]) == 27  # 29 given, 2 taken back
    assert not [e for e in _log(store) if e["op"] == "undo"]


def test_a_file_that_is_no_old_store_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    path.write_text('{"hello": 1}')
    with pytest.raises(StoreError, match="neither a store folder nor an old one"):
        upgrade.upgrade(path, NOW)
    assert path.read_text() == '{"hello": 1}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["progress.json"]


def test_an_upgrade_that_fails_after_claiming_lets_the_device_go(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(device.ENV_DEVICE, "desk")
    store = _copy(tmp_path, "schema1")
    # An upgrade killed after moving the old files and making the folder, then something
    # else wrote this device's folder: refused, never mixed in.
    upgrade.migrating_path(store).write_text("{}")
    upgrade._move_old_files(store, layout.legacy_dir(store))
    layout.create_store(store)
    log = devicelog.DeviceLog(layout.device_dir(store, "desk"), "desk", NOW)
    log.append(
        [{"id": "desk-1", "dev": "desk", "seq": 1, "at": 1, "op": "suspend", "card": "x"}], NOW
    )
    log.append(
        [{"id": "desk-2", "dev": "desk", "seq": 2, "at": 1, "op": "suspend", "card": "x"}], NOW
    )
    log.close()
    for _ in range(2):
        with pytest.raises(StoreError, match="events an upgrade didn't write"):
            upgrade.upgrade(store, NOW)
        with device.claim_device(store, NOW) as claimed:  # the lock was let go
            assert claimed.device == "desk"
    assert upgrade.needs_upgrade(store)  # still marked: nothing was called done
    assert (tmp_path / "data" / "progress.json.legacy-v2" / "progress.json").is_file()


def test_an_old_store_whose_answers_lack_a_phase_upgrades(tmp_path: Path) -> None:
    store = _copy(tmp_path, "schema1")
    doc = json.loads((tmp_path / "data" / "progress.json").read_text())
    assert all("phase" not in r for r in doc["reviews"].values())
    assert upgrade.upgrade(store, NOW).answers == 7


def test_a_damaged_journal_line_is_reported_and_the_rest_arrives(tmp_path: Path) -> None:
    store = _copy(tmp_path, "schema2")
    journal = tmp_path / "data" / "progress.json.journal"
    lines = journal.read_bytes().split(b"\n")
    lines[1] = lines[1][:20] + b"X" + lines[1][21:]
    journal.write_bytes(b"\n".join(lines))
    done = upgrade.upgrade(store, NOW)
    assert any("progress.json.journal:2: a damaged journal line" in s for s in done.skipped)
    assert "unreadable" in done.notice


def test_an_old_quizzer_still_writing_the_store_stops_the_upgrade(tmp_path: Path) -> None:
    import fcntl
    import os

    store = _copy(tmp_path, "schema4")
    before = _hashes(store.parent)
    lock = store.with_name("progress.json.lock")
    fd = os.open(lock, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        with pytest.raises(StoreError, match="another quizzer is writing this store"):
            upgrade.upgrade(store, NOW)
    finally:
        os.close(fd)
    after = _hashes(store.parent)
    assert after == before | {"progress.json.lock": after["progress.json.lock"]}
    assert not upgrade.migrating_path(store).exists()
    assert upgrade.upgrade(store, NOW).answers == 27


def test_the_apps_files_beside_the_store_stay_where_they_are(tmp_path: Path) -> None:
    store = _copy(tmp_path, "schema1")
    for name in ("progress.json.ui.json", "progress.json.anki.json"):
        (tmp_path / "data" / name).write_text('{"kept": true}')
    upgrade.upgrade(store, NOW)
    assert sorted(p.name for p in store.parent.iterdir()) == [
        "progress.json",
        "progress.json.anki.json",
        "progress.json.legacy-v2",
        "progress.json.ui.json",
    ]


def test_an_old_table_with_ids_that_are_no_numbers_is_upgraded_not_a_python_error(
    tmp_path: Path,
) -> None:
    """TinyDB names documents by numbers as text; another id (a hand edit) used to stop the
    upgrade with Python's own words (``invalid literal for int()``)."""
    store = _copy(tmp_path, "schema1")
    doc = json.loads(store.read_text())
    reviews = doc["reviews"]
    first = next(iter(reviews))
    reviews["x"] = reviews.pop(first)
    store.write_text(json.dumps(doc))
    done = upgrade.upgrade(store, NOW)
    expected = json.loads((OLD_STORES / "schema1.expected.json").read_text())
    assert done.answers == len(expected["reviews"])


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"meta": {"1": {"schema": "4"}}}', "its meta.schema is no version quizzer wrote"),
        ("[1, 2", "it is not JSON"),
    ],
)
def test_a_file_that_is_no_old_store_is_told_in_words(
    tmp_path: Path, text: str, words: str
) -> None:
    path = tmp_path / "progress.json"
    path.write_text(text)
    with pytest.raises(StoreError) as refused:
        upgrade.check_old_store(path)
    assert words in refused.value.message
    assert "'4'" not in refused.value.message and "Error" not in refused.value.message
