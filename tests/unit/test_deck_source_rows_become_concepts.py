"""Rows become concepts: columns mapped to languages and sides, one text per language made
term and definition, ids that survive a re-import (by GUID, else by term)."""

from __future__ import annotations

import pytest

from quizzer.concepts.deck import Deck
from quizzer.concepts.languages import Side
from quizzer.decksources.anki_notes import (
    NoteType,
    card_direction,
    field_refs,
    package_deck,
    template_of,
)
from quizzer.decksources.build import build_deck, guid_tag, tag_of
from quizzer.decksources.columns import Column, column_from_name, parse_columns, resolve
from quizzer.decksources.table import DeckSourceError, Row

MAPPING: list[tuple[str, Side] | None] = [("fr", "term"), ("en", "term")]


def _build(rows: list[Row], existing: Deck | None = None) -> Deck:
    deck, _report = build_deck(
        rows, MAPPING, deck_id="words", deck_name="Words", file="f.txt", existing=existing
    )
    return deck


def test_column_names_and_the_columns_option() -> None:
    assert column_from_name("term_en") == Column("en", "term")
    assert column_from_name("definition_fr") == Column("fr", "definition")
    assert column_from_name("fr:def") == Column("fr", "definition")
    assert column_from_name("English") == Column("en")
    assert column_from_name("Front") is None
    # Names of languages, in English or in themselves; not field names that start with one,
    # nor "Pinyin" (a Chinese deck's romanisation, and the name of a language of Cameroon).
    assert column_from_name("español") == Column("es")
    assert column_from_name("Bengali definition") == Column("bn", "definition")
    assert column_from_name("pt-br") == Column("pt-BR")
    assert column_from_name("English audio") is None
    assert column_from_name("Pinyin") is None
    assert parse_columns("fr:term, en:t ,-") == [Column("fr", "term"), Column("en", "term"), None]
    assert resolve([Column("en"), Column("en"), Column("fr")]) == [
        ("en", "term"),
        ("en", "definition"),
        ("fr", "term"),
    ]
    with pytest.raises(DeckSourceError, match="third column in en"):
        resolve([Column("en")] * 3)


def test_one_text_per_language_is_its_term_and_definition() -> None:
    deck = _build([Row(3, ("chien", "dog"))])
    (concept,) = deck.concepts
    assert concept.text("fr", "term") == concept.text("fr", "definition") == "chien"
    assert concept.entries["en"].definition.source.line == 3


def test_rows_without_guid_keep_their_concept_by_term() -> None:
    first = _build([Row(1, ("chien", "dog")), Row(2, ("banc", "bench")), Row(3, ("banc", "bank"))])
    ids = [c.id for c in first]
    assert len(set(ids)) == 3
    second = _build(
        [Row(1, ("chien", "hound")), Row(2, ("banc", "bench")), Row(3, ("banc", "bank"))], first
    )
    assert [c.id for c in second] == ids
    assert second.concepts[0].text("en", "term") == "hound"


def test_rows_with_guid_keep_their_concept_whatever_the_text() -> None:
    first = _build([Row(1, ("chien", "dog"), guid="Ab3+x")])
    (concept,) = first.concepts
    assert tag_of(concept.id) == guid_tag("Ab3+x")
    assert concept.id.startswith("dog-")
    second = _build([Row(1, ("chat", "cat"), guid="Ab3+x")], first)
    assert [c.id for c in second] == [concept.id]
    assert second.concepts[0].text("en", "term") == "cat"
    with pytest.raises(DeckSourceError, match="also line 1") as caught:
        _build([Row(1, ("a", "b"), guid="g"), Row(4, ("c", "d"), guid="g")])
    assert caught.value.line == 4


def test_template_fields_and_card_directions() -> None:
    assert field_refs("{{#Add Reverse}}{{text:Back}}{{/Add Reverse}}{{FrontSide}}") == ["Back"]
    assert field_refs("{{tts fr_FR:Front}} {{type:Back}}") == ["Front", "Back"]
    forward = template_of(0, "Card 1", "{{Front}}", "{{FrontSide}}<hr id=answer>{{Back}}")
    reverse = template_of(1, "Card 2", "{{Back}}", "{{FrontSide}}<hr id=answer>{{Front}}")
    basic = NoteType(1, "Basic (and reversed card)", ("Front", "Back"), (forward, reverse), False)
    (concept,) = _build([Row(1, ("chien", "dog"), guid="g")]).concepts
    values = ("<b>chien</b>", "dog")
    assert card_direction(concept, basic, values, 0) == ("fr", "term", "en", "term")
    assert card_direction(concept, basic, values, 1) == ("en", "term", "fr", "term")
    assert card_direction(concept, basic, ("chat", "dog"), 0) is None
    assert card_direction(concept, basic, values, 7) is None
    # "Basic (type in the answer)": the typed box on the question is the answer's field.
    typed = template_of(0, "Card 1", "{{Front}}\n{{type:Back}}", "{{Front}}<hr>{{type:Back}}")
    assert (typed.front, typed.back) == (("Front",), ("Back",))


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        ({"Spanish::Animals": 6}, "Spanish::Animals"),
        ({"Spanish::Verbs": 4, "Spanish::Nouns": 8, "Default": 0}, "Spanish"),
        ({"Spanish": 2, "Spanish::Verbs": 4}, "Spanish"),
        ({"Spanish": 2, "German": 5}, "German"),
        ({"Default": 6}, None),
        ({}, None),
    ],
)
def test_a_packages_deck_is_the_one_its_cards_are_all_under(
    cards: dict[str, int], name: str | None
) -> None:
    assert package_deck(cards) == name
