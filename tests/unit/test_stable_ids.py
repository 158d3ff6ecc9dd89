"""A concept's ids never change: card ids and their numbers, review ids, Anki's ids and GUID.

Progress, review logs and Anki notes are keyed by ids derived from the concept's uid
(BLAKE2b digests, and genanki's GUID); a different digest would orphan a learner's
progress and duplicate every note in Anki. The values below were computed once and are
fixed for good.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from quizzer.anki.ids import note_guid, stable_id, stable_id62
from quizzer.cards.card import CardKey, Pair, has_card, int_id_of
from quizzer.scheduling.answer import review_id
from quizzer.scheduling.optimizer import is_held_out
from tests.factories import concept

LORA = concept(
    "training-efficiency",
    "lora",
    {"en": ("LoRA", "low-rank adaptation"), "bn": ("লোরা", "নিম্ন-র‍্যাঙ্ক অভিযোজন")},
    acronym="LoRA",
)


@pytest.mark.parametrize(
    ("pair", "card_id", "int_id"),
    [
        (
            Pair("en", "term", "bn", "definition"),
            "training-efficiency/lora|en:term>bn:definition",
            2189044464160147195,
        ),
        (
            Pair("bn", "term", "en", "term"),
            "training-efficiency/lora|bn:term>en:term",
            4315598556688804899,
        ),
        (
            Pair("en", "definition", "bn", "term"),
            "training-efficiency/lora|en:definition>bn:term",
            1629676906696011292,
        ),
    ],
)
def test_a_concepts_card_ids_are_fixed(pair: Pair, card_id: str, int_id: int) -> None:
    assert has_card(LORA, pair)
    key = CardKey(LORA.uid, pair)
    assert key.id == card_id
    assert key.int_id == int_id
    assert int_id_of(card_id) == int_id  # what a state read back from a cache gets
    assert CardKey.parse(card_id) == key


def test_a_review_id_is_fixed() -> None:
    at = datetime(2026, 3, 4, 5, 6, 7, tzinfo=UTC)
    card_id = "training-efficiency/lora|en:term>bn:term"
    assert review_id(card_id, at, 3) == "1772600767000-67a10ba6"


def test_the_held_out_cards_are_fixed() -> None:
    held = [i for i in range(12) if is_held_out(f"training-efficiency/c{i}|en:term>bn:term")]
    assert held == [2, 8]


def test_anki_ids_and_the_note_guid_are_fixed() -> None:
    assert stable_id("model", "quizzer") == 1210190623
    assert stable_id62("field", "x") == 1060865283805625098
    assert note_guid(LORA.uid) == "gZIMl,&oXm"
