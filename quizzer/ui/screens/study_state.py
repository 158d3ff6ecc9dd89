"""What the study screen shows, read-only: the flow, the card, its options and check.

:class:`FlowScreen` is the study screen's base: the screen drives the flow
(:mod:`quizzer.ui.screens.study`); these properties read it, and tests and
debugging read them. The engine properties (:attr:`FlowScreen.session`,
:attr:`FlowScreen.round`...) are for them only: the screen never asks which
engine runs.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from quizzer.cards.card import CardKey
from quizzer.concepts.concept import Concept
from quizzer.concepts.deck import Deck
from quizzer.study.flow import SessionFlow, StudyFlow, card_texts
from quizzer.study.selection import StudyChoice
from quizzer.study.session import Session
from quizzer.ui.app_access import QuizzerScreen
from quizzer.ui.textshape import display_text

if TYPE_CHECKING:
    from quizzer.study.answers import AnswerCheck
    from quizzer.study.flow_learn import LearnFlow
    from quizzer.study.learn import LearnRound
    from quizzer.study.learn_record import LearnQuestion
    from quizzer.study.multiple_choice import ChoiceSet


class FlowScreen(QuizzerScreen[None]):
    """A screen showing a :class:`StudyFlow` for ``choice`` (started by the subclass)."""

    def __init__(self, choice: StudyChoice) -> None:
        super().__init__()
        self.choice = choice
        #: What is studied; started on mount.
        self.flow: StudyFlow | None = None
        self._phase = "question"

    def start_flow(
        self, now: datetime, on_leech: Callable[[CardKey, bool], None] | None = None
    ) -> StudyFlow:
        """The flow for :attr:`choice` at ``now``, its header counting new / learning / due."""
        return self.service.start_flow(self.choice, now, on_leech=on_leech)

    @property
    def phase(self) -> str:
        """``question``, ``revealed`` (flip, answer shown) or ``feedback`` (after an answer)."""
        return self._phase

    @phase.setter
    def phase(self, value: str) -> None:
        changed = value != self._phase
        self._phase = value
        if changed and self.is_mounted:
            # The footer recomposes on every refresh: only when the live keys change.
            self.refresh_bindings()

    @property
    def _flow(self) -> StudyFlow:
        assert self.flow is not None, "the study flow starts on mount"
        return self.flow

    @property
    def deck(self) -> Deck:
        """The deck being studied."""
        return self.service.deck(self.choice.deck)

    @property
    def card(self) -> CardKey | None:
        """The card on screen."""
        return self.flow.card if self.flow is not None else None

    @property
    def choices(self) -> ChoiceSet | None:
        """The options of the choice question on screen."""
        return self.flow.choices if self.flow is not None else None

    @property
    def check(self) -> AnswerCheck | None:
        """The check of the answer just typed."""
        return self.flow.check if self.flow is not None else None

    # The engines, for tests and debugging: the screen itself only talks to the flow.

    @property
    def session(self) -> Session | None:
        """The session of due cards (``None`` in learn mode)."""
        return self.flow.session if isinstance(self.flow, SessionFlow) else None

    def _learn(self) -> LearnFlow | None:
        if self.choice.mode != "learn" or self.flow is None:
            return None
        from quizzer.study.flow_learn import LearnFlow

        assert isinstance(self.flow, LearnFlow)
        return self.flow

    @property
    def round(self) -> LearnRound | None:
        """Learn mode: the round being asked."""
        learn = self._learn()
        return learn.round if learn is not None else None

    @property
    def rounds(self) -> list[tuple[Concept, ...]]:
        """Learn mode: the rounds not started yet."""
        learn = self._learn()
        return learn.rounds if learn is not None else []

    @property
    def question(self) -> LearnQuestion | None:
        """Learn mode: the question on screen."""
        learn = self._learn()
        return learn.question if learn is not None else None

    def _where(self) -> tuple[str, str]:
        """(deck name, ``en def → en term · mode``) for the header."""
        p = self.choice.pair
        short = {"term": "term", "definition": "def"}
        pair = f"{p.prompt_lang} {short[p.prompt_side]} → {p.answer_lang} {short[p.answer_side]}"
        return display_text(self.deck.name, self.rtl_mode), f"{pair} · {self.choice.mode}"

    def _texts(self, key: CardKey) -> tuple[Concept, str, str]:
        return card_texts(self.deck, key)

    def _stage(self) -> str | None:
        return self.flow.stage if self.flow is not None else self.choice.mode
