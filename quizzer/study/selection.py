"""What the learner chose to study: a deck, a direction between two languages, a quiz mode."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from quizzer.cards.card import Pair
from quizzer.concepts.languages import both_names
from quizzer.scheduling.grades import MODES
from quizzer.study.cram import parse_cram

#: What a learner can choose on the home screen and with ``--mode``: the quiz modes,
#: whose answers are recorded, and Match, a timed game that records nothing.
STUDY_MODES: tuple[str, ...] = (*MODES, "match")

#: The settings key under which the home screen remembers the last choice.
SETTINGS_KEY = "ui.last_choice"


@dataclass(frozen=True, slots=True)
class StudyChoice:
    """A deck id, a :class:`Pair` and a mode (flip, choice, typed, learn or match).

    ``also``: further directions studied with ``pair``, in the order picked; a concept's new
    card in a later one waits for its earlier ones (the direction ladder of the due queue).
    ``more_decks``: further decks studied with ``deck`` in one session.
    ``cram``: practice, which changes no schedule, on a selection of
    :data:`~quizzer.study.cram.CRAM_CHOICES` (``None``: a session on the due cards).
    """

    deck: str
    pair: Pair
    mode: str = "flip"
    also: tuple[Pair, ...] = ()
    more_decks: tuple[str, ...] = ()
    cram: str | None = None

    def __post_init__(self) -> None:
        if self.mode not in STUDY_MODES:
            raise ValueError(f"mode must be one of {', '.join(STUDY_MODES)}, not {self.mode!r}")
        if len(set(self.pairs)) != len(self.pairs):
            raise ValueError("a direction is chosen twice")
        if len(set(self.decks)) != len(self.decks):
            raise ValueError("a deck is chosen twice")
        if self.cram is not None:
            object.__setattr__(self, "cram", parse_cram(self.cram))

    @property
    def decks(self) -> tuple[str, ...]:
        """Every deck chosen, the first first."""
        return (self.deck, *self.more_decks)

    @property
    def pairs(self) -> tuple[Pair, ...]:
        """Every direction chosen, the first first."""
        return (self.pair, *self.also)

    def pair_label(self, name: Callable[[str], str] = both_names) -> str:
        """``"Russian · Русский term → English definition"`` (``… (then reverse)`` with its
        reverse), each language named by ``name``: the UI passes one that draws the name
        for its terminal (an Arabic name joined and right to left)."""
        p = self.pair
        label = f"{name(p.prompt_lang)} {p.prompt_side} → {name(p.answer_lang)} {p.answer_side}"
        if self.also == (reverse(p),):
            return label + " (then reverse)"
        if self.also:
            return label + f" (+{len(self.also)} directions)"
        return label

    def to_dict(self) -> dict[str, Any]:
        """For the store's settings."""
        out: dict[str, Any] = {"deck": self.deck, "pair": self.pair.code, "mode": self.mode}
        if self.also:
            out["also"] = [p.code for p in self.also]
        if self.more_decks:
            out["more_decks"] = list(self.more_decks)
        return out

    @classmethod
    def from_dict(cls, data: Any) -> StudyChoice | None:
        """Inverse of :meth:`to_dict`; ``None`` for anything unreadable (an old or edited file)."""
        try:
            also = tuple(Pair.parse(str(code)) for code in data.get("also", ()))
            more = tuple(str(deck) for deck in data.get("more_decks", ()))
            pair = Pair.parse(str(data["pair"]))
            return cls(str(data["deck"]), pair, str(data["mode"]), also, more)
        except (KeyError, TypeError, ValueError, AttributeError):
            return None


def reverse(pair: Pair) -> Pair:
    """``pair`` the other way round: its answer becomes the prompt."""
    return Pair(pair.answer_lang, pair.answer_side, pair.prompt_lang, pair.prompt_side)


def default_pair(languages: Sequence[str] = ()) -> Pair:
    """The first-run direction for a deck with ``languages`` (unknown when empty): read an
    English definition, recall the term; a deck without English (a French-only one, say)
    goes from its first language's term to its definition."""
    if not languages or "en" in languages:
        return Pair("en", "definition", "en", "term")
    return Pair(languages[0], "term", languages[0], "definition")


def fits(pair: Pair, languages: Sequence[str]) -> bool:
    """Whether a deck with ``languages`` (unknown when empty) has both languages of ``pair``."""
    return has_languages(languages, (pair.prompt_lang, pair.answer_lang))


def has_languages(languages: Sequence[str], wanted: Iterable[str]) -> bool:
    """Whether a deck with ``languages`` (unknown when empty) has every language ``wanted``
    (also for a prompt and answer that aren't a valid :class:`Pair` yet)."""
    return not languages or set(wanted) <= set(languages)


#: Modes where the answer is typed, in full, into a one-line field.
TYPING_MODES = ("typed", "learn")


def typing_long_answers(pair: Pair, mode: str) -> bool:
    """Whether ``mode`` has the learner type ``pair``'s answers and those are definitions.

    A definition is a sentence or two (a bundled one runs 15–30 words): typed whole into
    a one-line field it scrolls sideways, and one slip fails it, so the home screen says
    so and offers choice mode. Decided by the side, not by measuring the deck's texts:
    the home screen knows the direction before any big deck is loaded.
    """
    return mode in TYPING_MODES and pair.answer_side == "definition"
