"""One study flow for the study screen, whatever engine runs it.

The screen shows a card, takes an answer (a grade, an option or typed text),
offers "I was right", undo and bury, shows progress and ends with a summary.
Due cards run on a :class:`~quizzer.study.session.Session` (:class:`SessionFlow`),
learn mode on :class:`~quizzer.study.learn.LearnRound` objects
(:class:`~quizzer.study.flow_learn.LearnFlow`); both implement
:class:`StudyFlow`, so the screen calls one API and never asks which it has.

Pure: every method that acts takes ``now`` (and answer times in milliseconds,
measured by the caller); randomness comes from the ``rng`` given.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Literal, Protocol

from quizzer.cards.card import CardKey
from quizzer.concepts.concept import Concept
from quizzer.concepts.deck import Deck
from quizzer.scheduling.grades import GRADE_NAMES, Grade
from quizzer.scheduling.queue import DueQueue
from quizzer.study.session import Session

if TYPE_CHECKING:
    # The answer check and the options (and rapidfuzz under them) are imported by the
    # first choice or typed answer: a flip session, the commonest, never loads them.
    from quizzer.study.answers import AnswerCheck
    from quizzer.study.multiple_choice import ChoiceSet

#: The kind of question on screen: a card to flip, four options, or an answer to type.
Stage = Literal["flip", "choice", "typed"]


def card_texts(deck: Deck, card: CardKey) -> tuple[Concept, str, str]:
    """(concept, prompt text, answer text) of ``card`` in ``deck``."""
    concept = deck.get(card.concept_id)
    if concept is None or concept.uid != card.concept_uid:
        # Several decks studied as one: two may use the same concept id.
        concept = next((c for c in deck.concepts if c.uid == card.concept_uid), None)
    assert concept is not None
    p = card.pair
    prompt = concept.text(p.prompt_lang, p.prompt_side) or ""
    answer = concept.text(p.answer_lang, p.answer_side) or ""
    return concept, prompt, answer


#: What a card of a session was when the session started (Anki's three counts).
CardKind = Literal["new", "learning", "review"]


def queue_kinds(queue: DueQueue) -> dict[str, CardKind]:
    """Card id → kind for every card of ``queue``."""
    kinds: dict[str, CardKind] = {}
    for kind, cards in (("learning", queue.learning), ("review", queue.review), ("new", queue.new)):
        for card in cards:
            kinds.setdefault(card.id, kind)  # type: ignore[arg-type]
    return kinds


@dataclass(frozen=True, slots=True)
class Progress:
    """For the header: ``done`` and ``left`` counts, and ``extra`` (``"round 1/3"``) or ``""``.

    A session also counts what is left as Anki does (the current card included):
    ``new``, ``learning`` (in its steps: a card coming back in minutes is not one
    more card) and ``due`` reviews; ``new`` is ``None`` without such counts.
    """

    done: int
    left: int
    extra: str = ""
    new: int | None = None
    learning: int = 0
    due: int = 0

    @property
    def counts(self) -> str:
        """``"3 done · new 17 · learning 1 · due 0"`` (or ``"3 done · 11 left"``)."""
        if self.new is None:
            return f"{self.done} done · {self.left} left"
        return f"{self.done} done · new {self.new} · learning {self.learning} · due {self.due}"


@dataclass(frozen=True, slots=True)
class ChoiceOutcome:
    """A multiple-choice answer: ``right``, and what comes next (``"Good"``, ``"now type it"``)."""

    right: bool
    outcome: str


@dataclass(frozen=True, slots=True)
class TypedOutcome:
    """A typed answer: its check, whether "I was right" is offered, and what happens next."""

    check: AnswerCheck
    can_override: bool
    outcome: str


@dataclass(frozen=True, slots=True)
class Undone:
    """What :meth:`StudyFlow.undo` did: ``undone`` (a card to show again) and what to tell."""

    undone: bool
    message: str


@dataclass(frozen=True, slots=True)
class FlowSummary:
    """The end of a sitting.

    ``studied`` counts distinct cards answered (a session: a card failed and asked
    again is one card, as the home screen, the header and the statistics count it) or
    questions (learn mode, ``questions`` True); ``answers`` is every answer given,
    which ``correct`` is out of. ``saved`` is the concepts recorded in learn mode
    (``None`` for a session) and ``unsaved`` those answered but not yet typed right.
    """

    studied: int
    correct: int
    seconds: float
    next_due: datetime | None
    questions: bool = False
    saved: int | None = None
    unsaved: int = 0
    #: Every answer given (``None``: one per item ``studied``, as in learn mode).
    answers: int | None = None

    @property
    def answered(self) -> int:
        """Answers given: what ``correct`` is out of."""
        return self.studied if self.answers is None else self.answers


class StudyFlow(Protocol):
    """What the study screen drives: one card or question at a time."""

    @property
    def card(self) -> CardKey | None:
        """The card shown by the last :meth:`next` (kept through its feedback)."""
        ...

    @property
    def stage(self) -> Stage | None:
        """How the current card is asked (``None`` before any question)."""
        ...

    @property
    def choices(self) -> ChoiceSet | None:
        """The options of the current choice question."""
        ...

    @property
    def check(self) -> AnswerCheck | None:
        """The check of the last typed answer to the current card (``None`` until then)."""
        ...

    @property
    def may_override(self) -> bool:
        """Whether "I was right" is on offer for the last typed answer."""
        ...

    @property
    def finished(self) -> bool:
        """Nothing (more) to study."""
        ...

    def next(self, now: datetime) -> bool:
        """Show the next card or question at ``now``; False when nothing is left."""
        ...

    def reveal(self) -> None:
        """Flip the current card (flip stage)."""
        ...

    def grade(self, grade: Grade, now: datetime) -> None:
        """Grade the revealed card (flip stage)."""
        ...

    def choose(self, index: int, now: datetime, duration_ms: int) -> ChoiceOutcome:
        """Answer the current choice question with option ``index`` (0-based)."""
        ...

    def type_answer(self, text: str, now: datetime, duration_ms: int) -> TypedOutcome:
        """Check and record ``text`` typed for the current card."""
        ...

    def override(self, now: datetime) -> bool:
        """ "I was right" for the last typed answer; False when not possible (nothing done)."""
        ...

    def undo(self) -> Undone:
        """Take back the last answer, override or bury."""
        ...

    def bury(self, now: datetime) -> str | None:
        """Bury the current card; what to tell, or ``None`` when there was nothing to bury."""
        ...

    def progress(self) -> Progress:
        """Counts for the header."""
        ...

    @property
    def unsaved(self) -> int:
        """Concepts answered but not recorded yet (ending now would lose them)."""
        ...

    def summary(self, now: datetime, sitting_seconds: float) -> FlowSummary:
        """The summary at ``now``; ``sitting_seconds`` is the wall time since the start."""
        ...


class AnswerVerdict:
    """The typed-answer verdict both flows keep: the last check and whether it was overridden.

    "I was right" is offered once per answer, only while the check allows it.
    """

    def __init__(self) -> None:
        self._check: AnswerCheck | None = None
        self._overridden = False

    @property
    def check(self) -> AnswerCheck | None:
        """See :attr:`StudyFlow.check`."""
        return self._check

    @property
    def may_override(self) -> bool:
        """See :attr:`StudyFlow.may_override`."""
        check = self._check
        return check is not None and check.can_override and not self._overridden


class SessionFlow(AnswerVerdict):
    """:class:`StudyFlow` over a :class:`Session` of due cards, asked as ``stage``.

    ``pool`` (the deck) gives the texts, the choice distractors and the typed
    answer check; ``rng`` draws the options. ``undone_message`` says what the
    scheduler's last undo took back (default: ``"Taken back."``).
    """

    def __init__(
        self,
        session: Session,
        deck: Deck,
        stage: Stage,
        rng: random.Random,
        undone_message: Callable[[], str] | None = None,
        *,
        kinds: Mapping[str, CardKind] | None = None,
    ) -> None:
        self.session = session
        self.deck = deck
        self._stage: Stage = stage
        self.rng = rng
        self._undone_message = undone_message
        self._card: CardKey | None = None
        self._choices: ChoiceSet | None = None
        #: The session's cards in their starting order (the current one first).
        self._initial = [c for c in (session.current, *session.queue) if c is not None]
        if kinds is None:
            due_queue = getattr(session.scheduler, "due_queue", None)
            if callable(due_queue):
                kinds = queue_kinds(due_queue(session.started_at))
        self._kinds: dict[str, CardKind] | None = None if kinds is None else dict(kinds)
        if stage != "flip":
            # Its answers' check loaded as the session starts, not on its first answer.
            import quizzer.study.answers  # noqa: F401
        super().__init__()

    @property
    def kinds_known(self) -> bool:
        """Whether the new / learning / due counts know each card's kind."""
        return self._kinds is not None

    @property
    def card(self) -> CardKey | None:
        """See :attr:`StudyFlow.card`."""
        return self._card

    @property
    def stage(self) -> Stage:
        """See :attr:`StudyFlow.stage`: the session's mode, for every card."""
        return self._stage

    @property
    def choices(self) -> ChoiceSet | None:
        """See :attr:`StudyFlow.choices`."""
        return self._choices

    @property
    def finished(self) -> bool:
        """See :attr:`StudyFlow.finished`."""
        return self.session.finished

    def next(self, now: datetime) -> bool:
        """See :meth:`StudyFlow.next`; a choice card draws its options here."""
        self._check = None
        self._overridden = False
        if self.session.finished:
            return False
        self.session.show(now)
        self._card = card = self.session.current
        assert card is not None
        if self._stage == "choice":
            from quizzer.study.multiple_choice import make_choices

            concept, _prompt, _answer = card_texts(self.deck, card)
            p = card.pair
            self._choices = make_choices(
                concept, self.deck.concepts, p.answer_lang, p.answer_side, self.rng
            )
        return True

    def reveal(self) -> None:
        """See :meth:`StudyFlow.reveal`."""
        self.session.reveal()

    def grade(self, grade: Grade, now: datetime) -> None:
        """See :meth:`StudyFlow.grade`."""
        self.session.answer(grade, now)

    def choose(self, index: int, now: datetime, duration_ms: int) -> ChoiceOutcome:
        """See :meth:`StudyFlow.choose`: right is Good (Hard when slow), wrong is Again."""
        from quizzer.study.answers import Verdict, grade_for

        assert self._choices is not None
        right = self._choices.is_correct(index)
        verdict = Verdict.EXACT if right else Verdict.WRONG
        grade = grade_for(verdict, duration_ms=duration_ms)
        self.session.answer(grade, now, correct=right)
        return ChoiceOutcome(right, GRADE_NAMES[grade])

    def type_answer(self, text: str, now: datetime, duration_ms: int) -> TypedOutcome:
        """See :meth:`StudyFlow.type_answer`: graded by :func:`~quizzer.study.answers.grade_for`."""
        from quizzer.study.answers import check_card_answer, grade_for

        assert self._card is not None
        concept, _prompt, _answer = card_texts(self.deck, self._card)
        check = check_card_answer(text, concept, self.deck.concepts, self._card.pair)
        grade = grade_for(check.verdict, duration_ms=duration_ms)
        self.session.answer(grade, now, typed=text, correct=check.correct)
        self._check = check
        return TypedOutcome(check, check.can_override, GRADE_NAMES[grade])

    def override(self, now: datetime) -> bool:
        """See :meth:`StudyFlow.override`: the last review is recorded again, overridden."""
        check = self._check
        if check is None or not self.may_override:
            return False
        last = self.session.reviews[-1] if self.session.reviews else None
        if last is None or last.overridden:
            return False
        from quizzer.study.answers import grade_for

        self.session.override(grade_for(check.verdict, overridden=True), now)
        self._overridden = True
        return True

    def undo(self) -> Undone:
        """See :meth:`StudyFlow.undo`."""
        if not self.session.can_undo:
            return Undone(False, "Nothing to undo.")
        self.session.undo()
        message = self._undone_message() if self._undone_message is not None else "Taken back."
        return Undone(True, message)

    def bury(self, now: datetime) -> str | None:
        """See :meth:`StudyFlow.bury`."""
        if self.session.finished:
            return None
        self.session.bury(now)
        return "Buried until tomorrow."

    def progress(self) -> Progress:
        """See :meth:`StudyFlow.progress`: answers given, cards left, by kind.

        A card answered in this session and still in it came back for a learning
        step: it counts as learning. Without :attr:`kinds_known`, no kinds.
        """
        s, kinds = self.session, self._kinds
        if kinds is None:
            return Progress(s.done, s.left)
        answered = {r.card_id for r in s.reviews}
        cards = [*s.queue, *(p.card for p in s.later), *([s.current] if s.current else [])]
        n = Counter("learning" if c.id in answered else kinds.get(c.id, "review") for c in cards)
        return Progress(s.done, s.left, new=n["new"], learning=n["learning"], due=n["review"])

    @property
    def unsaved(self) -> int:
        """See :attr:`StudyFlow.unsaved`: a session records every answer at once."""
        return 0

    def summary(self, now: datetime, sitting_seconds: float) -> FlowSummary:
        """See :meth:`StudyFlow.summary`: time is the answer times added up."""
        s = self.session.summary(now)
        seconds = s.time_spent.total_seconds()
        return FlowSummary(s.cards_studied, s.correct, seconds, s.next_due, answers=s.answers)
