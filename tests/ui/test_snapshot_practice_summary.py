"""Snapshots of a practice session's end at 60×20 and 80×24: what was practised and how it
went, and nothing of the schedule (no next due card)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from quizzer.ui.screens.summary import SessionSummary, SummaryScreen
from tests.ui_support import NOW, make_app


async def _practice_summary(pilot: Pilot[Any]) -> None:
    summary = SessionSummary(
        deck_name="Quantization",
        pair_label="English term → Russian · Русский term",
        mode="choice",
        studied=12,
        correct=11,
        seconds=185,
        next_due=None,
        answers=14,
        practice="today's failures",
    )
    await pilot.app.push_screen(
        SummaryScreen(summary, from_home=True, deck_id="quantization", now=NOW)
    )
    await pilot.pause()


@pytest.mark.parametrize("size", [(60, 20), (80, 24)])
def test_practice_summary(snap_compare, tmp_path: Path, size: tuple[int, int]) -> None:
    app = make_app(tmp_path / "p.json")
    assert snap_compare(app, run_before=_practice_summary, terminal_size=size)
