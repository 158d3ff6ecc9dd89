"""Which directions a deck can be studied in (study/selection.py), pure."""

from __future__ import annotations

from quizzer.cards.card import Pair
from quizzer.study.selection import fits, has_languages, typing_long_answers


def test_a_deck_has_languages_when_it_holds_every_one_wanted() -> None:
    assert has_languages(("en", "fr"), ["en", "fr"])
    assert has_languages(("en", "fr"), ["fr", "fr"])  # prompt and answer in one language
    assert not has_languages(("en", "fr"), ["en", "ru"])
    assert not has_languages(("fr",), ["en"])
    assert has_languages((), ["ru", "ar"])  # languages not known yet: anything may fit


def test_a_pair_fits_a_deck_with_both_of_its_languages() -> None:
    assert fits(Pair("fr", "term", "fr", "definition"), ("fr",))
    assert not fits(Pair("en", "definition", "fr", "term"), ("fr",))
    assert fits(Pair("en", "definition", "ru", "term"), ())


def test_only_typing_definitions_counts_as_long_answers() -> None:
    to_definition = Pair("en", "term", "bn", "definition")
    to_term = Pair("en", "definition", "en", "term")
    assert typing_long_answers(to_definition, "typed")
    assert typing_long_answers(to_definition, "learn")
    assert not typing_long_answers(to_definition, "choice")
    assert not typing_long_answers(to_definition, "flip")
    assert not typing_long_answers(to_term, "typed")
