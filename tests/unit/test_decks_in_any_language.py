"""Decks, concepts and cards hold any BCP 47 language; the bundled five keep their keys."""

from __future__ import annotations

from pathlib import Path

import pytest

from quizzer.cards.card import CardKey, Pair
from quizzer.concepts import deck as deckfile
from quizzer.concepts import deckwriter, tables_json
from quizzer.concepts.deck import Deck
from quizzer.concepts.languages import check_language, deck_key, tag_of_key
from quizzer.library.decks import read_deck, write_deck
from tests.factories import bundled, concept

TEXTS = {
    "es": ("Aprendizaje automático", "Rama de la inteligencia artificial."),
    "pt-BR": ("Aprendizado de máquina", "Área da inteligência artificial."),
    "id": ("Pembelajaran mesin", "Cabang kecerdasan buatan."),
    "zh-Hans": ("机器学习", "人工智能的一个分支。"),
    "fa": ("یادگیری ماشین", "شاخه‌ای از هوش مصنوعی."),
}


def _deck() -> Deck:
    return Deck("ml", "ML", (concept("ml", "ml", TEXTS, acronym="ML"),))


def test_a_deck_in_five_new_languages_round_trips_in_order(tmp_path: Path) -> None:
    deck = _deck()
    text = deckwriter.dumps(deck)
    assert text == deckfile.dumps(deck)
    # Indonesian's tag is also the name of the concept's id field: its table is "ind".
    assert "[concepts.ind.term]" in text and "[concepts.id.term]" not in text
    assert "[concepts.pt-BR.term]" in text
    again = deckfile.loads(text)
    assert again == deck
    assert again.languages == ("es", "pt-BR", "id", "zh-Hans", "fa")
    path = tmp_path / "ml.toml"
    write_deck(deck, path)
    assert read_deck(path) == deck
    assert tables_json.dumps(deck) == tables_json.dumps(again)


def test_the_bundled_decks_keep_their_languages_and_order() -> None:
    for deck_id in ("training-efficiency", "quantization"):
        assert bundled(deck_id).languages == ("en", "bn", "ar", "ru", "fr")


@pytest.mark.parametrize(
    "card_id",
    [
        "ml/ml|es:term>pt-BR:definition",
        "ml/ml|id:definition>zh-Hans:term",
        "training-efficiency/lora|ru:term>bn:definition",
    ],
)
def test_card_ids_with_any_tag_parse_back(card_id: str) -> None:
    assert CardKey.parse(card_id).id == card_id


def test_a_card_in_something_not_shaped_like_a_tag_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown language 'e n'"):
        Pair("e n", "term", "en", "definition")


def test_indonesians_deck_key_is_what_langcodes_says() -> None:
    import langcodes

    assert deck_key("id") == langcodes.Language.get("id").to_alpha3() == "ind"
    assert check_language("ind") == tag_of_key("ind") == "id"
    assert deck_key("es") == tag_of_key("es") == "es"
