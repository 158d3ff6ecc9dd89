"""`quizzer cards --json` names the device of every answer of every card listed from the
device folders, listed once for the whole run, never by reading each device's log again
per card (the real command in-process, a real store with answers from two devices)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import quizzer.progress.devices as devices_module
import quizzer.services.cards as cards_service
from quizzer.cards.card import CardKey, Pair
from quizzer.cli.main import main
from quizzer.progress import open_store
from quizzer.progress.layout import device_folders
from quizzer.scheduling.answer import Answer

PAIR = Pair("en", "term", "bn", "term")
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
CONCEPTS = ("peft", "lora", "adapters", "flash-attention", "dynamic-token-pruning")


def test_every_answer_names_its_device_from_one_listing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "p.json"
    for device in ("laptop", "phone"):
        monkeypatch.setenv("QUIZZER_DEVICE", device)
        with open_store(db, rng=random.Random(1)) as store:
            for i, concept in enumerate(CONCEPTS):
                key = CardKey(f"training-efficiency/{concept}", PAIR)
                store.record(key, 3, T0 + timedelta(minutes=i), Answer(duration_ms=900))
    calls: dict[str, int] = {}

    def counted(name: str, func: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            calls[name] = calls.get(name, 0) + 1
            return func(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(
        devices_module, "list_devices", counted("devices", devices_module.list_devices)
    )
    monkeypatch.setattr(
        cards_service, "device_folders", counted("folders", device_folders), raising=False
    )
    argv = ["cards", "training-efficiency", "--direction", PAIR.code, "--json", "--db", str(db)]
    assert main(argv) == 0
    cards = json.loads(capsys.readouterr().out)["cards"]
    studied = [card for card in cards if card["history"]]
    assert {card["concept"] for card in studied} == set(CONCEPTS)
    for card in studied:
        assert sorted(answer["device"] for answer in card["history"]) == ["laptop", "phone"]
    assert len(cards) > len(CONCEPTS)  # the others listed too, new, without answers
    assert calls.get("devices", 0) == 0
    assert calls["folders"] == 1
