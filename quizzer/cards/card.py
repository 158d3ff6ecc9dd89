"""Card identity: a card is a concept studied in one direction between two languages.

A card's id is built from its parts, so editing or re-importing glossaries
never orphans progress: ``"training-efficiency/lora|ru:term>bn:definition"``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from hashlib import blake2b
from typing import TYPE_CHECKING

from quizzer.concepts.languages import SIDES, TAG_SHAPE, Side

if TYPE_CHECKING:
    from quizzer.concepts.concept import Concept


_TAG = TAG_SHAPE.pattern.strip("^$")
_CARD_RE = re.compile(
    rf"^(?P<uid>[a-z0-9-]+/[a-z0-9-]+)\|(?P<pl>{_TAG}):(?P<ps>term|definition)"
    rf">(?P<al>{_TAG}):(?P<as>term|definition)$"
)


@dataclass(frozen=True, slots=True, order=True)
class Pair:
    """A study direction: what the prompt shows and what the learner must recall."""

    prompt_lang: str
    prompt_side: Side
    answer_lang: str
    answer_side: Side

    def __post_init__(self) -> None:
        for lang in (self.prompt_lang, self.answer_lang):
            # The shape only: tags are checked where they come in (commands, deck files,
            # imports), and a card's come from those; a lookup per card would cost the
            # start-up the tag tables' load.
            if not TAG_SHAPE.match(lang):
                raise ValueError(f"unknown language {lang!r}")
        for side in (self.prompt_side, self.answer_side):
            if side not in SIDES:
                raise ValueError(f"unknown side {side!r} (term or definition)")
        if (self.prompt_lang, self.prompt_side) == (self.answer_lang, self.answer_side):
            raise ValueError("prompt and answer are the same text")

    @property
    def code(self) -> str:
        """Compact form, e.g. ``"ru:term>bn:definition"``."""
        return f"{self.prompt_lang}:{self.prompt_side}>{self.answer_lang}:{self.answer_side}"

    @classmethod
    def parse(cls, code: str) -> Pair:
        """Inverse of :attr:`code`."""
        try:
            prompt, answer = code.split(">")
            pl, ps = prompt.split(":")
            al, as_ = answer.split(":")
        except ValueError:
            raise ValueError(f"not a pair code like 'ru:term>bn:definition': {code!r}") from None
        return cls(pl, ps, al, as_)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True, order=True)
class CardKey:
    """A card: one concept (namespaced uid ``deck/concept``) in one :class:`Pair` direction."""

    concept_uid: str
    pair: Pair

    @property
    def id(self) -> str:
        """The stable string id stored in progress and review logs."""
        return f"{self.concept_uid}|{self.pair.code}"

    @property
    def deck(self) -> str:
        """The deck id part of the concept uid."""
        return self.concept_uid.split("/", 1)[0]

    @property
    def concept_id(self) -> str:
        """The concept id within its deck."""
        return self.concept_uid.split("/", 1)[1]

    @property
    def int_id(self) -> int:
        """A stable 62-bit integer for APIs that want numeric ids (``fsrs.Card``, Anki)."""
        return int_id_of(self.id)

    @classmethod
    def parse(cls, card_id: str) -> CardKey:
        """Inverse of :attr:`id`; ``ValueError`` on a malformed id."""
        m = _CARD_RE.match(card_id)
        if not m:
            raise ValueError(f"not a card id: {card_id!r}")
        return cls(m["uid"], Pair(m["pl"], m["ps"], m["al"], m["as"]))  # type: ignore[arg-type]


def int_id_of(card_id: str) -> int:
    """:attr:`CardKey.int_id` of the card whose id is ``card_id``: a hash of the id, so a
    state read back from a cache needn't parse its id for it (the parse was half of
    building the 20,000 states `quizzer stats` reads over a million answers)."""
    digest = blake2b(card_id.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 2


def _same_text(a: str, b: str) -> bool:
    return unicodedata.normalize("NFC", a).casefold() == unicodedata.normalize("NFC", b).casefold()


def has_card(concept: Concept, pair: Pair) -> bool:
    """Whether ``concept`` can be studied in direction ``pair``.

    It needs both texts, and they must differ: a name written alike in both
    languages (GPTQ, SmoothQuant) would make a card that shows its own answer.
    """
    prompt = concept.text(pair.prompt_lang, pair.prompt_side)
    answer = concept.text(pair.answer_lang, pair.answer_side)
    if not prompt or not answer:
        return False
    return not _same_text(prompt, answer)
