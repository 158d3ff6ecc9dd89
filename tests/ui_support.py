"""Shared helpers for the UI tests: a real store in tmp_path, real decks, the real app."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

from textual.pilot import Pilot

from quizzer.cards.card import Pair
from quizzer.concepts.deck import Deck
from quizzer.library.decks import load_library
from quizzer.progress import open_store
from quizzer.services.study import StudyService
from quizzer.study.selection import StudyChoice
from quizzer.ui.app import QuizzerApp
from quizzer.ui.screens.summary import SessionSummary, SummaryScreen
from tests.factories import concept


def bundled_decks() -> list[Deck]:
    """The decks shipped in decks/ (read from disk)."""
    return [item.deck for item in load_library(Path("/nonexistent-user-decks"))]


def markup_deck() -> Deck:
    """A deck whose texts look like Rich/Textual markup and must show literally."""
    items = [
        concept("tricky", "bold", {"en": ("[bold]loud[/]", "a [red]red[/red] herring")}),
        concept("tricky", "click", {"en": ("[@click=app.quit]bye[/]", "[b]not bold")}),
        concept("tricky", "close", {"en": ("[/]", "closing tag [/] alone")}),
        concept("tricky", "plain", {"en": ("plain", "an ordinary [ bracket")}),
    ]
    return Deck(id="tricky", name="Tricky [markup]", concepts=tuple(items))


def make_app(
    db: Path,
    choice: StudyChoice | None = None,
    decks: list[Deck] | None = None,
    rtl_mode: str = "app",
    seed: int = 7,
) -> QuizzerApp:
    """The app on a fresh store at ``db`` (fixed seeds so choices repeat)."""
    store = open_store(db, rng=random.Random(seed))
    service = StudyService(store, decks if decks is not None else bundled_decks(), seed=seed)
    return QuizzerApp(service, start=choice, rtl_mode=rtl_mode)


def reviews(db: Path) -> list:
    """The review log of the store at ``db`` (opened read-only, after the app closed it)."""
    with open_store(db, read_only=True) as store:
        return store.reviews()


def choice(deck: str, pair: str, mode: str) -> StudyChoice:
    """A study choice from a pair code like ``"en:term>bn:term"``."""
    return StudyChoice(deck, Pair.parse(pair), mode)


NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


async def show_summary(pilot: Pilot) -> None:
    """Push a summary of a 12-card choice session (for the summary snapshots)."""
    summary = SessionSummary(
        deck_name="Quantization",
        pair_label="Russian term → English term",
        mode="choice",
        studied=12,
        correct=9,
        seconds=185,
        next_due=NOW + timedelta(minutes=10),
    )
    await pilot.app.push_screen(
        SummaryScreen(summary, from_home=True, deck_id="quantization", now=NOW)
    )
    await pilot.pause()
