"""A store put inside a synced folder (``~/Sync/quizzer``, as the docs suggest) gets nothing
written beside it: the remembered choice and the record of Anki exports are each machine's
own, kept in its local state folder, so two devices never write one file there. A file an
earlier version kept beside the store is read as a starting point and never written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quizzer.cards.card import Pair
from quizzer.cli.main import main
from quizzer.paths import beside_store, machine_file
from quizzer.progress import open_store
from quizzer.services.anki_export import read_exported
from quizzer.services.study import StudyService
from quizzer.study.selection import StudyChoice
from tests.ui_support import bundled_decks


def _choice(mode: str) -> StudyChoice:
    return StudyChoice("quantization", Pair("en", "term", "bn", "term"), mode)


def _files(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("device", ["laptop", "desktop"])
def test_remembering_a_choice_and_exporting_write_only_the_store_and_this_machine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, device: str
) -> None:
    synced = tmp_path / "Sync"
    store = synced / "quizzer"
    monkeypatch.setenv("QUIZZER_DEVICE", device)
    with open_store(store) as opened:
        StudyService(opened, bundled_decks()).remember(_choice("choice"))
    out = tmp_path / "out.apkg"
    assert main(["export", "anki", "--out", str(out), "--all", "--db", str(store)]) == 0
    assert {p.name for p in synced.iterdir()} == {"quizzer"}
    outside = {f for f in _files(store) if not f.startswith(f"devices/{device}/")}
    assert outside == {"quizzer-store.json"}
    assert machine_file(store, ".ui.json").is_file()
    assert read_exported(store)  # this machine's record, in its own state folder


def test_a_choice_kept_beside_the_store_by_an_earlier_version_is_read_never_written(
    tmp_path: Path,
) -> None:
    store = tmp_path / "p.json"
    with open_store(store) as opened:
        old = beside_store(store, ".ui.json")
        first = StudyService(opened, bundled_decks())
        old.write_text(json.dumps({"ui.last_choice": _choice("typed").to_dict()}), encoding="utf-8")
        kept = old.read_bytes()
        assert first.last_choice() == _choice("typed")
        first.remember(_choice("flip"))
        assert first.last_choice() == _choice("flip")
    assert old.read_bytes() == kept
    assert machine_file(store, ".ui.json").is_file()


def test_an_export_record_kept_beside_the_store_is_read_then_this_machines_is_written(
    tmp_path: Path,
) -> None:
    store = tmp_path / "store.json"
    old = beside_store(store, ".anki.json")
    old.write_text(
        json.dumps({"kind": "quizzer-anki-exports", "decks": {"quantization": ["x"]}}),
        encoding="utf-8",
    )
    kept = old.read_bytes()
    assert read_exported(store) == {"quantization": {"x"}}
    out = tmp_path / "out.apkg"
    assert main(["export", "anki", "--out", str(out), "--all", "--db", str(store)]) == 0
    assert old.read_bytes() == kept
    mine = read_exported(store)
    assert mine is not None and "x" in mine["quantization"] and len(mine["quantization"]) > 1
