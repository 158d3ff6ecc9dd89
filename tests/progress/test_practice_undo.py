"""A device takes back its own practice answers (cram, match) like its answers: an undo event
in its own log, newest first, across a reopen; never another device's practice answer, never
a card's schedule (real store folders on disk)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import quizzer.progress.events as ev
from quizzer.progress.store import Store, open_store
from quizzer.scheduling.review import Review

T0 = datetime(2026, 3, 1, 9, tzinfo=UTC)
CARD = "demo/c0|en:term>en:definition"
OTHER = "demo/c1|en:term>en:definition"


def as_device(monkeypatch: pytest.MonkeyPatch, name: str, path: Path) -> Store:
    monkeypatch.setenv("QUIZZER_DEVICE", name)
    return open_store(path, tz=UTC)


def test_practice_answers_are_undone_newest_first_and_only_on_their_device(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "store"
    with as_device(monkeypatch, "laptop", path) as a:
        a.record(CARD, 3, T0)
        state = a.card(CARD)
        a.record_practice(CARD, 1, T0 + timedelta(minutes=1), None, "cram")
        a.record_practice(OTHER, 4, T0 + timedelta(minutes=2), None, "match")
        assert a.undo_depth == 3
    with as_device(monkeypatch, "desktop", path) as b:
        b.record_practice(CARD, 2, T0 + timedelta(minutes=3), None, "cram")
        taken = b.undo()
        assert isinstance(taken, ev.Practice) and taken.dev == "desktop"
        assert b.undo() is None  # the laptop's practice answers are not the desktop's to undo
        assert [(p.dev, p.mode) for p in b.practice()] == [("laptop", "cram"), ("laptop", "match")]
    with as_device(monkeypatch, "laptop", path) as a:
        taken = a.undo()  # after a reopen: the newest first
        assert isinstance(taken, ev.Practice)
        assert (taken.card, taken.mode, taken.grade) == (OTHER, "match", 4)
        assert [p.card for p in a.practice()] == [CARD]
        assert a.card(CARD) == state  # practice and its undo change no schedule
    with as_device(monkeypatch, "laptop", path) as a:
        assert [p.card for p in a.practice()] == [CARD]  # the undo is in the log
        taken = a.undo()
        assert isinstance(taken, ev.Practice) and taken.card == CARD
        assert a.practice() == [] and a.card(CARD) == state
        answer = a.undo()  # then the scheduled answer given before
        assert isinstance(answer, Review) and answer.card_id == CARD
        assert a.card(CARD) is None and a.undo() is None
