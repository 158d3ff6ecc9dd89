"""Multiple-choice options: confusable distractors, no duplicates, random but seeded position."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from quizzer.concepts.deck import Deck
from quizzer.concepts.normalize import compact, normalize
from quizzer.study.multiple_choice import ChoiceSet, confusability, make_choices
from tests.factories import bundled, concept, mini_deck

PARALLELISM = {"model-parallelism", "pipeline-parallelism", "tensor-parallelism"}


def _ids(choices: ChoiceSet) -> set[str]:
    return {o.concept_uid.split("/", 1)[1] for o in choices.options}


@pytest.mark.parametrize(
    ("lang", "side"),
    [("en", "term"), ("bn", "term"), ("ar", "term"), ("ru", "definition"), ("fr", "term")],
)
def test_four_options_one_right_all_from_the_deck_language_and_side(lang: str, side: str) -> None:
    deck = bundled("training-efficiency")
    target = deck.get("lora")
    assert target is not None
    for seed in range(20):
        choices = make_choices(target, deck.concepts, lang, side, random.Random(seed))  # type: ignore[arg-type]
        assert len(choices.options) == 4
        assert [o.correct for o in choices.options].count(True) == 1
        assert choices.answer.concept_uid == target.uid
        assert choices.answer.text == target.text(lang, side)  # type: ignore[arg-type]
        deck_texts = {c.text(lang, side) for c in deck}  # type: ignore[arg-type]
        assert all(o.text in deck_texts for o in choices.options)
        assert all(o.concept_uid.startswith("training-efficiency/") for o in choices.options)
        assert choices.is_correct(choices.answer_index)
        assert not any(choices.is_correct(i) for i in range(4) if i != choices.answer_index)


@pytest.mark.parametrize("lang", ["en", "ru", "ar", "fr"])
def test_parallelism_concepts_come_together(lang: str) -> None:
    deck = bundled("training-efficiency")
    for cid in sorted(PARALLELISM):
        target = deck.get(cid)
        assert target is not None
        for seed in range(10):
            choices = make_choices(target, deck.concepts, lang, "term", random.Random(seed))
            assert _ids(choices) >= PARALLELISM, (lang, cid, seed, choices)


def test_quantization_variants_are_confusable() -> None:
    deck = bundled("quantization")
    target = deck.get("symmetric-quantization")
    assert target is not None
    choices = make_choices(target, deck.concepts, "en", "term", random.Random(1))
    assert "asymmetric-quantization" in _ids(choices)
    # All options share the word "quantization" with the answer.
    assert all("quantization" in normalize(o.text, "en") for o in choices.options)


def test_confusability_prefers_shared_words_then_length() -> None:
    answer = "Model Parallelism"
    assert confusability(answer, "Tensor Parallelism", "en") > confusability(
        answer, "Adapters", "en"
    )
    assert confusability(answer, "Curriculum Learning", "en") > confusability(
        answer, "Layer-wise Learning Rate Decay", "en"
    )
    # The Arabic article doesn't hide a shared word.
    assert confusability("التوازي النموذجي", "توازي خط الأنابيب", "ar") >= 3 * (1 / 5)


def test_never_two_identical_texts_after_normalisation() -> None:
    deck = mini_deck(
        "dups",
        [
            "Flash Attention",
            "flash attention",
            "Flash-Attention",
            "FLASH  ATTENTION",
            "Adapters",
            "Tensor Parallelism",
            "Model Parallelism",
        ],
    )
    for target in deck:
        for seed in range(15):
            choices = make_choices(target, deck.concepts, "en", "term", random.Random(seed))
            keys = [compact(normalize(o.text, "en")) for o in choices.options]
            assert len(keys) == len(set(keys)), choices
            assert len(choices.options) == 4


def test_texts_differing_only_in_accents_count_as_one() -> None:
    deck = mini_deck(
        "fr-dups",
        ["Quantification Symétrique", "Quantification Symetrique", "Élagage", "Elagage", "Biais"],
        lang="fr",
    )
    choices = make_choices(deck.concepts[0], deck.concepts, "fr", "term", random.Random(2))
    assert sorted(o.text for o in choices.options) == [
        "Biais",
        "Quantification Symétrique",
        "Élagage",
    ]


def test_fewer_options_when_the_deck_has_fewer_distinct_texts() -> None:
    deck = mini_deck("small", ["GPTQ", "AWQ", "gptq", "SmoothQuant"])
    target = deck.concepts[1]  # AWQ
    choices = make_choices(target, deck.concepts, "en", "term", random.Random(0))
    assert sorted(o.text.casefold() for o in choices.options) == ["awq", "gptq", "smoothquant"]
    alone = mini_deck("alone", ["LoRA"])
    single = make_choices(alone.concepts[0], alone.concepts, "en", "term", random.Random(0))
    assert [o.text for o in single.options] == ["LoRA"]
    assert single.answer_index == 0


def test_concepts_of_other_decks_and_without_the_text_are_skipped() -> None:
    mine = mini_deck("mine", ["Model Parallelism", "Adapters"])
    other = mini_deck("other", ["Tensor Parallelism", "Pipeline Parallelism", "Data Parallelism"])
    no_ru = concept("mine", "x", {"ru": ("Тензорный параллелизм", "определение")})
    pool = [*mine.concepts, *other.concepts, no_ru]
    choices = make_choices(mine.concepts[0], pool, "en", "term", random.Random(3))
    assert {o.text for o in choices.options} == {"Model Parallelism", "Adapters"}


def test_missing_answer_text_is_an_error() -> None:
    target = concept("d", "only-ru", {"ru": ("Адаптеры", "определение")})
    with pytest.raises(ValueError, match="no bn term"):
        make_choices(target, [target], "bn", "term", random.Random(0))


def test_right_answer_position_is_random_and_seeded() -> None:
    deck: Deck = bundled("training-efficiency")
    target = deck.get("peft")
    assert target is not None
    positions = Counter(
        make_choices(target, deck.concepts, "en", "term", random.Random(seed)).answer_index
        for seed in range(200)
    )
    assert set(positions) == {0, 1, 2, 3}
    assert min(positions.values()) > 25  # roughly uniform: 50 expected each
    first = make_choices(target, deck.concepts, "bn", "term", random.Random(42))
    again = make_choices(target, deck.concepts, "bn", "term", random.Random(42))
    assert first == again


def test_distractor_choice_varies_among_near_ties() -> None:
    deck = bundled("training-efficiency")
    target = deck.get("adapters")
    assert target is not None
    seen = {
        frozenset(_ids(make_choices(target, deck.concepts, "en", "term", random.Random(s))))
        for s in range(30)
    }
    assert len(seen) > 1
