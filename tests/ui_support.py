"""Shared helpers for the UI tests: a real store in tmp_path, real decks, the real app."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from textual.notifications import SeverityLevel
from textual.pilot import Pilot
from textual.screen import Screen

from quizzer.cards.card import CardKey, Pair
from quizzer.concepts.concept import Concept
from quizzer.concepts.deck import Deck
from quizzer.library.decks import load_library
from quizzer.progress import open_store
from quizzer.scheduling.review import Review
from quizzer.services.study import StudyService
from quizzer.study.answers import AnswerCheck
from quizzer.study.flow import SessionFlow, StudyFlow, card_texts
from quizzer.study.flow_learn import LearnFlow
from quizzer.study.learn import LearnRound
from quizzer.study.learn_record import LearnQuestion
from quizzer.study.multiple_choice import ChoiceSet
from quizzer.study.selection import StudyChoice
from quizzer.study.session import Session
from quizzer.ui import app as app_module
from quizzer.ui.app import QuizzerApp
from quizzer.ui.screens.study import StudyScreen
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


@dataclass(frozen=True, slots=True)
class Notice:
    """A notification the app showed."""

    message: str
    severity: SeverityLevel


class NoticedApp(QuizzerApp):
    """The quizzer app, keeping the notifications it showed (:attr:`notices`, in order)."""

    #: The app's stylesheet (Textual reads a relative path beside the subclass's module).
    CSS_PATH = str(Path(app_module.__file__).with_name("quizzer.tcss"))

    def __init__(self, service: StudyService, **kwargs: Any) -> None:
        super().__init__(service, **kwargs)
        self.notices: list[Notice] = []

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Show the notification, and keep it."""
        self.notices.append(Notice(message, severity))
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)


def make_app(
    db: Path,
    choice: StudyChoice | None = None,
    decks: list[Deck] | None = None,
    rtl_mode: str = "app",
    seed: int = 7,
) -> NoticedApp:
    """The app on a fresh store at ``db`` (fixed seeds so choices repeat)."""
    store = open_store(db, rng=random.Random(seed))
    service = StudyService(store, decks if decks is not None else bundled_decks(), seed=seed)
    return NoticedApp(service, start=choice, rtl_mode=rtl_mode)


def reviews(db: Path) -> list[Review]:
    """The review log of the store at ``db`` (opened read-only, after the app closed it)."""
    with open_store(db, read_only=True) as store:
        return store.reviews()


def choice(deck: str, pair: str, mode: str) -> StudyChoice:
    """A study choice from a pair code like ``"en:term>bn:term"``."""
    return StudyChoice(deck, Pair.parse(pair), mode)


NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


async def show_summary(pilot: Pilot[Any]) -> None:
    """Push a summary of a 12-card choice session (for the summary snapshots)."""
    summary = SessionSummary(
        deck_name="Quantization",
        pair_label="Russian · Русский term → English term",
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


# -- what the study screen's flow holds (the screen itself only drives the flow) ----------


def flow_of(screen: Screen[Any]) -> StudyFlow:
    """The study flow of ``screen``, a study screen that has started it."""
    assert isinstance(screen, StudyScreen), screen
    assert screen.flow is not None, "the study flow starts on mount"
    return screen.flow


def card_of(screen: Screen[Any]) -> CardKey:
    """The card on ``screen``, a study screen showing one."""
    card = flow_of(screen).card
    assert card is not None, "no card on screen"
    return card


def session_of(screen: Screen[Any]) -> Session:
    """The session of due cards (not in learn mode)."""
    flow = flow_of(screen)
    assert isinstance(flow, SessionFlow), "a session of due cards, not learn mode"
    return flow.session


def learn_of(screen: Screen[Any]) -> LearnFlow | None:
    """The learn rounds (``None`` outside learn mode)."""
    flow = flow_of(screen)
    return flow if isinstance(flow, LearnFlow) else None


def _learning(screen: Screen[Any]) -> LearnFlow:
    learn = learn_of(screen)
    assert learn is not None, "learn mode"
    return learn


def round_of(screen: Screen[Any]) -> LearnRound:
    """Learn mode: the round being asked."""
    learn_round = _learning(screen).round
    assert learn_round is not None, "no round being asked"
    return learn_round


def rounds_of(screen: Screen[Any]) -> list[tuple[Concept, ...]]:
    """Learn mode: the rounds not started yet."""
    return _learning(screen).rounds


def question_of(screen: Screen[Any]) -> LearnQuestion:
    """Learn mode: the question on screen."""
    question = _learning(screen).question
    assert question is not None, "no question on screen"
    return question


def choices_of(screen: Screen[Any]) -> ChoiceSet:
    """The options of the choice question on screen."""
    choices = flow_of(screen).choices
    assert choices is not None, "no choice question on screen"
    return choices


def check_of(screen: Screen[Any]) -> AnswerCheck:
    """The check of the answer just typed."""
    check = flow_of(screen).check
    assert check is not None, "no typed answer checked"
    return check


def texts_of(screen: Screen[Any], card: CardKey | None = None) -> tuple[Concept, str, str]:
    """(concept, prompt, answer) of ``card``, by default the card on ``screen``."""
    assert isinstance(screen, StudyScreen), screen
    card = card if card is not None else screen.card
    assert card is not None, "no card on screen"
    return card_texts(screen.deck, card)
