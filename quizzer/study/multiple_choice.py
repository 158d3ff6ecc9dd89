"""Multiple-choice options: the right answer among confusable distractors from the same deck.

Distractors are texts of the same language and side as the answer, taken from
other concepts of the same deck, ranked by how easily they are confused with the
answer: shared words first (the three parallelism concepts go together), then
similar length and spelling. A little seeded noise varies the picks between
equally confusable candidates. No two options have the same text after
normalisation (accents ignored), and the right one lands at a random position.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from rapidfuzz import fuzz

from quizzer.concepts.concept import Concept
from quizzer.concepts.languages import Side
from quizzer.concepts.normalize import compact, comparison_key, normalize

#: Options shown when the deck has enough distinct texts.
DEFAULT_OPTIONS = 4
#: Words shorter than this don't make two texts confusable ("of", "de", "в", "ال").
_MIN_WORD = 3


@dataclass(frozen=True, slots=True)
class Option:
    """One option: the concept it belongs to and its text (as written in the deck)."""

    concept_uid: str
    text: str
    correct: bool


@dataclass(frozen=True, slots=True)
class ChoiceSet:
    """The options of one multiple-choice question, in display order."""

    options: tuple[Option, ...]
    answer_index: int

    @property
    def answer(self) -> Option:
        """The right option."""
        return self.options[self.answer_index]

    def is_correct(self, index: int) -> bool:
        """Whether picking option ``index`` (0-based) is right."""
        return index == self.answer_index


def _words(key: str, lang: str) -> frozenset[str]:
    words = key.split()
    if lang == "ar":
        # The article is written joined: "التوازي" and "توازي" share a word.
        words = [w[2:] if w.startswith("ال") and len(w) > 4 else w for w in words]
    return frozenset(w for w in words if len(w) >= _MIN_WORD)


def confusability(answer: str, other: str, lang: str) -> float:
    """How easily ``other`` is mistaken for ``answer`` (higher is more confusable).

    Shared words weigh most (0–3), then length similarity (0–1) and overall
    spelling similarity (0–1).
    """
    a, b = normalize(answer, lang), normalize(other, lang)
    wa, wb = _words(a, lang), _words(b, lang)
    shared = len(wa & wb) / len(wa | wb) if wa and wb else 0.0
    length = 1.0 - abs(len(a) - len(b)) / max(len(a), len(b), 1)
    spelling = fuzz.ratio(a, b) / 100.0
    return 3.0 * shared + length + spelling


def make_choices(
    concept: Concept,
    pool: Iterable[Concept],
    lang: str,
    side: Side,
    rng: random.Random,
    n: int = DEFAULT_OPTIONS,
) -> ChoiceSet:
    """Options for recalling ``concept``'s ``lang`` ``side`` text.

    ``pool`` is usually the concept's deck; concepts of other decks, concepts
    lacking the text and texts equal (after normalisation) to one already chosen
    are skipped, so a small deck gives fewer than ``n`` options. Raises
    ``ValueError`` if ``concept`` has no such text.
    """
    answer_text = concept.text(lang, side)
    if answer_text is None:
        raise ValueError(f"{concept.uid} has no {lang} {side}")
    seen = {compact(comparison_key(answer_text, lang, accents=False))}
    candidates: list[tuple[float, Option]] = []
    for other in pool:
        if other.uid == concept.uid or other.deck != concept.deck:
            continue
        text = other.text(lang, side)
        if text is None:
            continue
        key = compact(comparison_key(text, lang, accents=False))
        if key in seen:
            continue
        seen.add(key)
        # The noise (< 0.3) reorders near-ties but never beats a shared word.
        score = confusability(answer_text, text, lang) + 0.3 * rng.random()
        candidates.append((score, Option(other.uid, text, False)))
    candidates.sort(key=lambda item: -item[0])
    distractors = [option for _score, option in candidates[: max(n - 1, 0)]]
    rng.shuffle(distractors)
    answer_index = rng.randrange(len(distractors) + 1)
    distractors.insert(answer_index, Option(concept.uid, answer_text, True))
    return ChoiceSet(tuple(distractors), answer_index)
