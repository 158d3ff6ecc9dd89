"""Snapshot tests (pytest-textual-snapshot) of every screen and mode at 80×24.

Regenerate after a deliberate change with
``pytest tests/ui/test_screen_snapshots.py --snapshot-update`` and look at the SVGs in
tests/ui/__snapshots__/ before committing them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from tests.ui_support import choice, choices_of, make_app, show_summary

SIZE = (80, 24)


def test_home(snap_compare, tmp_path: Path) -> None:
    assert snap_compare(make_app(tmp_path / "p.json"), terminal_size=SIZE)


def test_flip_revealed_bengali(snap_compare, tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json", choice("quantization", "en:term>bn:term", "flip"))
    assert snap_compare(app, press=["space"], terminal_size=SIZE)


def test_flip_arabic_prompt_app_mode(snap_compare, tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json", choice("quantization", "ar:definition>en:term", "flip"))
    assert snap_compare(app, terminal_size=SIZE)


def test_choice_after_answer(snap_compare, tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json", choice("training-efficiency", "ru:term>en:term", "choice"))

    async def answer(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        await pilot.press(str(choices_of(pilot.app.screen).answer_index + 1))
        await pilot.pause()

    assert snap_compare(app, run_before=answer, terminal_size=SIZE)


def test_typed_near_miss(snap_compare, tmp_path: Path) -> None:
    app = make_app(
        tmp_path / "p.json", choice("training-efficiency", "en:definition>en:term", "typed")
    )
    assert snap_compare(
        app, press=[*"Paremeter-Efficient Fine-Tuning", "enter"], terminal_size=SIZE
    )


def test_learn_first_question(snap_compare, tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json", choice("quantization", "fr:term>en:term", "learn"))
    assert snap_compare(app, press=["_"], terminal_size=SIZE)


def test_summary(snap_compare, tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json")
    assert snap_compare(app, run_before=show_summary, terminal_size=SIZE)


def test_help(snap_compare, tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json", choice("quantization", "en:term>bn:term", "flip"))
    assert snap_compare(app, press=["question_mark"], terminal_size=SIZE)


def test_light_theme(snap_compare, tmp_path: Path) -> None:
    app = make_app(tmp_path / "p.json", choice("quantization", "en:term>ru:term", "flip"))
    assert snap_compare(app, press=["ctrl+t", "space"], terminal_size=SIZE)
