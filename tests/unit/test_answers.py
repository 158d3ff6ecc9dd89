"""Typed-answer checking: accepted forms, verdicts, character diffs, transliteration, grades."""

from __future__ import annotations

import itertools
import random
import unicodedata

import pytest

from quizzer.cards.card import Pair
from quizzer.concepts.normalize import compact, normalize
from quizzer.study.answer_diff import DiffSegment, char_diff
from quizzer.study.answer_forms import AnswerForm, answer_forms
from quizzer.study.answer_transliteration import transliteration_similarity
from quizzer.study.answers import (
    NEAR_THRESHOLD,
    NOTE_ACCENTS,
    NOTE_ACRONYM,
    NOTE_NEAR,
    NOTE_OTHER_CONCEPT,
    NOTE_PART,
    NOTE_PROMPT,
    NOTE_TRANSLITERATION,
    AnswerCheck,
    Verdict,
    check_answer,
    check_card_answer,
    grade_for,
    other_texts,
)
from quizzer.study.multiple_choice import make_choices
from tests.factories import bundled, concept

# Texts as they appear in the glossaries in data/.
EN_PEFT = "Parameter-Efficient Fine-Tuning (PEFT)"
RU_LORA = "LoRA (Low-Rank Adaptation/Адаптация низкого ранга)"
RU_ZERO = "Zero Redundancy Optimizer (ZeRO/Оптимизатор нулевой избыточности)"
RU_PEFT = "Параметр-эффективная тонкая настройка (PEFT)"
RU_TENSOR = "Тензорный параллелизм"
RU_MODEL_PAR = "Параллелизм моделей"
BN_PEFT = "প্যারামিটার এফিসিয়েন্ট ফাইন-টিউনিং (PEFT)"
BN_LORA = "লোরা (লো-র্যাঙ্ক অ্যাডাপ্টেশন)"
BN_MODEL_PAR = "মডেল প্যারালেলিজম"
AR_LORA = "لورا (التكييف منخفض الرتبة)"
AR_MODEL_PAR = "التوازي النموذجي"
AR_OPTIMIZER_SHARDING = "تجزئة حالة المُحسِّن"
FR_SYM = "Quantification Symétrique"
LLM_INT8 = "LLM.int8()"


def _ops(segments: tuple[DiffSegment, ...]) -> list[tuple[str, str]]:
    return [(s.op, s.text) for s in segments]


# -- accepted forms ----------------------------------------------------------------


def test_forms_of_term_with_acronym_in_parenthesis() -> None:
    forms = answer_forms(EN_PEFT, "en", acronym="PEFT")
    assert forms == (
        AnswerForm(EN_PEFT, "full"),
        AnswerForm("Parameter-Efficient Fine-Tuning", "term"),
        AnswerForm("PEFT", "acronym"),
    )


def test_forms_of_a_slash_parenthesis() -> None:
    forms = answer_forms(RU_LORA, "ru", acronym="LoRA")
    assert [(f.text, f.kind) for f in forms] == [
        (RU_LORA, "full"),
        ("LoRA", "term"),
        ("Low-Rank Adaptation", "part"),
        ("Адаптация низкого ранга", "part"),
    ]
    zero = answer_forms(RU_ZERO, "ru", acronym="ZeRO")
    assert ("ZeRO", "acronym") in [(f.text, f.kind) for f in zero]
    assert ("Оптимизатор нулевой избыточности", "part") in [(f.text, f.kind) for f in zero]


def test_forms_without_parenthesis_or_with_empty_one() -> None:
    assert answer_forms(RU_TENSOR, "ru") == (AnswerForm(RU_TENSOR, "full"),)
    assert answer_forms(LLM_INT8, "en") == (AnswerForm(LLM_INT8, "full"),)


def test_concept_acronym_accepted_only_where_it_shows_knowledge() -> None:
    # Latin-script languages: the acronym is an answer in its own right.
    assert AnswerForm("LoRA", "acronym") in answer_forms("Low-Rank Adaptation", "en", "LoRA")
    # Bengali «লোরা» doesn't contain it: typing "LoRA" proves nothing about Bengali.
    assert all(f.text != "LoRA" for f in answer_forms(BN_LORA, "bn", acronym="LoRA"))
    # ...but when the Bengali text carries the acronym, it is accepted.
    assert AnswerForm("PEFT", "acronym") in answer_forms(BN_PEFT, "bn", acronym="PEFT")


# -- verdicts --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "expected", "lang"),
    [
        (EN_PEFT, EN_PEFT, "en"),
        ("parameter efficient fine tuning", EN_PEFT, "en"),  # term without parenthesis
        ("Parameter-Efficient Fine-Tuning PEFT", EN_PEFT, "en"),
        ("LoRA", RU_LORA, "ru"),
        ("lora", RU_LORA, "ru"),
        ("тензорный   параллелизм", RU_TENSOR, "ru"),
        ("Тёнзорный параллелизм", RU_TENSOR, "ru"),  # ё = е
        (BN_MODEL_PAR, BN_MODEL_PAR, "bn"),
        ("লোরা", BN_LORA, "bn"),
        ("লো-র\u200d্যাঙ্ক অ্যাডাপ্টেশন", "লো-র্যাঙ্ক অ্যাডাপ্টেশন", "bn"),  # ZWJ form
        ("تجزئة حالة المحسن", AR_OPTIMIZER_SHARDING, "ar"),  # without tashkeel
        ("تجزيه حاله المحسن", AR_OPTIMIZER_SHARDING, "ar"),  # hamza/ta marbuta typed plainly
        ("التوازى النموذجى", AR_MODEL_PAR, "ar"),  # alif maqsura for ya
        ("إلتوازي النموذجي", AR_MODEL_PAR, "ar"),  # hamza under alef
        ("لورا", AR_LORA, "ar"),
        ("llm int8", LLM_INT8, "en"),
        ("quantification symétrique", FR_SYM, "fr"),
    ],
)
def test_exact(typed: str, expected: str, lang: str) -> None:
    result = check_answer(typed, expected, lang)
    assert result.verdict is Verdict.EXACT, result
    assert result.correct
    assert result.notes == ()
    assert result.diff == ()


def test_acronym_is_accepted_with_a_note() -> None:
    result = check_answer("PEFT", EN_PEFT, "en", acronym="PEFT")
    assert result.verdict is Verdict.ACCEPTED
    assert result.notes == (NOTE_ACRONYM,)
    assert result.matched == "PEFT"
    assert result.expected == EN_PEFT
    assert check_answer("zero", RU_ZERO, "ru").notes == (NOTE_ACRONYM,)
    assert check_answer("peft", RU_PEFT, "ru", acronym="PEFT").verdict is Verdict.ACCEPTED


def test_other_part_of_parenthesis_is_accepted_with_a_note() -> None:
    for typed in ("Low Rank Adaptation", "адаптация низкого ранга"):
        result = check_answer(typed, RU_LORA, "ru", acronym="LoRA")
        assert result.verdict is Verdict.ACCEPTED
        assert result.notes == (NOTE_PART,)


def test_french_accents_differ_is_accepted_and_pointed_out() -> None:
    result = check_answer("Quantification Symetrique", FR_SYM, "fr")
    assert result.verdict is Verdict.ACCEPTED
    assert result.notes == (NOTE_ACCENTS,)
    assert ("missing", "é") in _ops(result.diff)
    assert ("extra", "e") in _ops(result.diff)
    assert "".join(s.text for s in result.diff if s.op != "extra") == FR_SYM
    wrong_accent = check_answer("Quantification Symètrique", FR_SYM, "fr")
    assert wrong_accent.verdict is Verdict.ACCEPTED and NOTE_ACCENTS in wrong_accent.notes


def test_near_miss_has_a_character_diff() -> None:
    result = check_answer("quantificaton symétrique", FR_SYM, "fr")
    assert result.verdict is Verdict.NEAR
    assert result.notes == (NOTE_NEAR,)
    assert result.correct and not result.right and result.can_override
    assert result.similarity >= NEAR_THRESHOLD
    assert _ops(result.diff) == [
        ("equal", "Quantificat"),
        ("missing", "i"),
        ("equal", "on Symétrique"),
    ]


def test_near_miss_on_an_acronym() -> None:
    result = check_answer("PEFF", EN_PEFT, "en", acronym="PEFT")
    assert result.verdict is Verdict.NEAR
    assert result.matched == "PEFT"


def test_bengali_near_miss_diff_keeps_conjuncts_whole() -> None:
    # Missing the ya-phala (্য) is a spelling mistake, not a match.
    result = check_answer("মডেল পারালেলিজম", BN_MODEL_PAR, "bn")
    assert result.verdict is Verdict.NEAR
    ops = _ops(result.diff)
    assert ("missing", "প্যা") in ops and ("extra", "পা") in ops
    # Every segment is whole clusters: no segment starts with a vowel sign or virama.
    for segment in result.diff:
        assert segment.text[0] not in "\u09be\u09bf\u09c7\u09cb\u09cd"


def test_arabic_near_miss_diff_ignores_harakat() -> None:
    result = check_answer("تجزئة حالة المحسنن", AR_OPTIMIZER_SHARDING, "ar")
    assert result.verdict is Verdict.NEAR
    ops = _ops(result.diff)
    assert ops[-1] == ("extra", "ن")
    # The equal part is shown as the expected spelling, harakat included.
    assert ops[0] == ("equal", AR_OPTIMIZER_SHARDING)


def test_russian_near_miss() -> None:
    result = check_answer("Тензорный паралелизм", RU_TENSOR, "ru")
    assert result.verdict is Verdict.NEAR
    assert ("missing", "л") in _ops(result.diff)


@pytest.mark.parametrize(
    ("typed", "expected", "lang"),
    [
        ("model parallelism", BN_MODEL_PAR, "bn"),
        ("model paralelijom", BN_MODEL_PAR, "bn"),
        ("tenzornyy parallelizm", RU_TENSOR, "ru"),
        ("tenzornii parallelism", RU_TENSOR, "ru"),
        ("al-tawazi al-namudhaji", AR_MODEL_PAR, "ar"),
        ("lora", AR_LORA, "ar"),
        ("LoRA", BN_LORA, "bn"),
    ],
)
def test_latin_transliteration_is_a_near_miss(typed: str, expected: str, lang: str) -> None:
    result = check_answer(typed, expected, lang)
    assert result.verdict is Verdict.NEAR, result
    assert result.notes == (NOTE_NEAR, NOTE_TRANSLITERATION)
    assert result.correct and not result.right and result.grade() == 2
    assert result.diff == ()


@pytest.mark.parametrize(
    ("typed", "expected", "lang"),
    [
        ("tensor", BN_MODEL_PAR, "bn"),
        ("adapters", AR_MODEL_PAR, "ar"),
        ("gradient", RU_TENSOR, "ru"),
        ("Тензорный параллелизм", "Параллелизм моделей", "ru"),
        ("Mixed Precision", FR_SYM, "fr"),
        ("   ", EN_PEFT, "en"),
        ("", RU_LORA, "ru"),
    ],
)
def test_wrong(typed: str, expected: str, lang: str) -> None:
    result = check_answer(typed, expected, lang)
    assert result.verdict is Verdict.WRONG, result
    assert not result.correct
    assert result.similarity < NEAR_THRESHOLD


def test_transliteration_only_for_bn_ar_ru() -> None:
    # French typed without its script makes no sense: Latin answers to Latin texts are
    # judged by spelling only.
    assert check_answer("kvantifikasion", FR_SYM, "fr").verdict is Verdict.WRONG
    assert transliteration_similarity("tenzornyy parallelizm", RU_TENSOR) == 100.0
    assert transliteration_similarity("gradient", RU_TENSOR) < 60


def test_unrelated_short_latin_answer_is_not_a_transliteration() -> None:
    assert check_answer("x", AR_LORA, "ar").verdict is Verdict.WRONG
    assert check_answer("moe", BN_LORA, "bn").verdict is Verdict.WRONG


def test_char_diff_reconstructs_both_texts() -> None:
    typed, expected = "Tensr Parallelizm", "Tensor parallelism"
    segments = char_diff(typed, expected, "en")
    assert "".join(s.text for s in segments if s.op != "missing").casefold() == typed.casefold()
    assert "".join(s.text for s in segments if s.op != "extra") == expected
    assert all(s.text for s in segments)
    # Adjacent segments never share an op (they are merged).
    assert all(a.op != b.op for a, b in itertools.pairwise(segments))


def test_char_diff_tatweel_is_not_a_difference() -> None:
    segments = char_diff("التوازي", "التـــوازي", "ar")
    assert [s.op for s in segments] == ["equal"]


# -- grades ----------------------------------------------------------------------


def test_grade_mapping() -> None:
    assert grade_for(Verdict.WRONG) == 1
    assert grade_for(Verdict.NEAR) == 2
    assert grade_for(Verdict.EXACT) == 3
    assert grade_for(Verdict.ACCEPTED) == 3
    assert grade_for(Verdict.EXACT, hint_used=True) == 2
    assert grade_for(Verdict.EXACT, duration_ms=25_000) == 2
    assert grade_for(Verdict.EXACT, duration_ms=5_000) == 3
    assert grade_for(Verdict.EXACT, duration_ms=5_000, slow_ms=4_000) == 2
    assert grade_for(Verdict.WRONG, overridden=True) == 3
    assert grade_for(Verdict.NEAR, overridden=True) == 3
    assert grade_for(Verdict.NEAR, overridden=True, hint_used=True) == 2
    assert grade_for(Verdict.WRONG, hint_used=True) == 1
    assert {grade_for(v) for v in Verdict} <= {1, 2, 3}  # never Easy automatically


def test_near_miss_policy_correct_is_exactly_a_passing_grade() -> None:
    """A near miss is a pass graded Hard, recorded correct; only it can be overridden."""
    cases = {
        Verdict.EXACT: check_answer("Параллелизм моделей", RU_MODEL_PAR, "ru"),
        Verdict.ACCEPTED: check_answer("PEFT", EN_PEFT, "en"),
        Verdict.NEAR: check_answer("Параллелизм моделеи", RU_MODEL_PAR, "ru"),
        Verdict.WRONG: check_answer("Тензорный параллелизм", RU_MODEL_PAR, "ru"),
    }
    translit = check_answer("parallelizm modeley", RU_MODEL_PAR, "ru")
    for verdict, check in [*cases.items(), (Verdict.NEAR, translit)]:
        assert check.verdict is verdict, check
        for kwargs in ({}, {"hint_used": True}, {"duration_ms": 60_000}, {"duration_ms": 10}):
            grade = check.grade(**kwargs)
            assert grade == grade_for(check.verdict, **kwargs)
            assert check.correct == (grade >= 2) == check.verdict.correct
        assert check.right == (verdict in (Verdict.EXACT, Verdict.ACCEPTED))
        assert check.can_override == (verdict is Verdict.NEAR)
        assert (NOTE_NEAR in check.notes) == (verdict is Verdict.NEAR)
    assert cases[Verdict.NEAR].grade() == translit.grade() == 2
    assert cases[Verdict.NEAR].grade(overridden=True) == 3
    assert cases[Verdict.NEAR].grade(overridden=True, hint_used=True) == 2
    for verdict in (Verdict.EXACT, Verdict.WRONG):
        with pytest.raises(ValueError, match="overridden"):
            cases[verdict].grade(overridden=True)


# -- confusion with other concepts ---------------------------------------------------


def _quant_check(cid: str, typed: str, lang: str = "en") -> tuple[str, AnswerCheck]:
    deck = bundled("quantization")
    target = deck.get(cid)
    assert target is not None
    expected = target.text(lang, "term")
    assert expected is not None
    others = other_texts(target, deck, lang, "term")
    return expected, check_answer(typed, expected, lang, acronym=target.acronym, others=others)


def test_another_concepts_term_is_wrong_not_a_near_miss() -> None:
    # Without the deck's other terms, one letter away looks like a typo...
    assert check_answer("Symmetric Quantization", "Asymmetric Quantization", "en").verdict is (
        Verdict.NEAR
    )
    # ...with them, it is the opposite concept.
    _, result = _quant_check("asymmetric-quantization", "Symmetric Quantization")
    assert result.verdict is Verdict.WRONG
    assert result.notes == (NOTE_OTHER_CONCEPT,)
    assert result.confused_with == "Symmetric Quantization"
    _, ru = _quant_check("asymmetric-quantization", "Симметричное квантование", "ru")
    assert ru.confused_with == "Симметричное квантование"
    _, noise = _quant_check("quantization-noise", "quantization")
    assert noise.verdict is Verdict.WRONG


def test_a_typo_of_our_own_term_stays_a_near_miss_among_others() -> None:
    _, result = _quant_check("asymmetric-quantization", "Asymetric Quantization")
    assert result.verdict is Verdict.NEAR and result.confused_with is None
    _, right = _quant_check("ptq", "PTQ")
    assert right.verdict is Verdict.ACCEPTED


def test_different_numbers_are_never_a_near_miss() -> None:
    assert check_answer("8-bit Quantization", "4-bit Quantization", "en").verdict is Verdict.WRONG
    assert check_answer("৮-বিট কোয়ান্টিফিকেশন", "৪-বিট কোয়ান্টিফিকেশন", "bn").verdict is (Verdict.WRONG)
    assert check_answer("4-bit Quantizaton", "4-bit Quantization", "en").verdict is Verdict.NEAR
    # Bengali digits typed as ASCII are the same number.
    assert check_answer("8-বিট কোয়ান্টিফিকেশন", "৮-বিট কোয়ান্টিফিকেশন", "bn").verdict is (Verdict.EXACT)


def test_other_texts_lists_the_rest_of_the_deck() -> None:
    deck = bundled("training-efficiency")
    target = deck.get("lora")
    assert target is not None
    texts = other_texts(target, deck, "ru", "term")
    assert len(texts) == 15
    assert target.text("ru", "term") not in texts
    assert "Тензорный параллелизм" in texts


def test_definitions_accept_no_acronym_or_parenthesis_part() -> None:
    deck = bundled("training-efficiency")
    lora = deck.get("lora")
    assert lora is not None
    definition = lora.text("en", "definition")
    assert definition is not None and len(definition.split()) > 8
    assert answer_forms(definition, "en", acronym="LoRA") == (AnswerForm(definition, "full"),)
    for side in ("definition", None):
        result = check_answer("LoRA", definition, "en", acronym="LoRA", side=side)
        assert result.verdict is Verdict.WRONG
    # A short text said to be a definition is treated as one.
    short = "Low-Rank Adaptation (LoRA)"
    assert check_answer("LoRA", short, "en", side="definition").verdict is Verdict.WRONG
    assert check_answer("LoRA", short, "en", side="term").verdict is Verdict.ACCEPTED
    # The full definition typed out (case and punctuation aside) is exact.
    typed = definition.upper().replace(",", "")
    assert check_answer(typed, definition, "en", side="definition").verdict is Verdict.EXACT


# -- odd input never crashes ------------------------------------------------------

ODD = (
    "",
    " ",
    "[/]",
    "[@click=app.quit]",
    "()",
    "(/)",
    "x (/)",
    "{{Front}}",
    "<script>alert(1)</script>",
    "[bold]LoRA[/bold]",
    "\u200f",  # RLM alone
    "\u200fمعرفة\u200e",
    "\u0301",  # a lone combining acute
    "\u09cd\u09bc",  # a lone Bengali virama and nukta
    "\u0640\u0640",  # tatweel only
    "ё\u0308\u0308\u0308",
    "আমি" + "\u09be" * 50,
    "x" * 5000,
    "Параллелизм " * 300,
    "\u0301" * 3000,
)


def test_a_punctuation_only_term_is_compared_as_written() -> None:
    for lang in ("en", "fr", "ru", "bn", "ar"):
        assert [f.text for f in answer_forms("[/]", lang)] == ["[/]"]
        assert check_answer("[/]", "[/]", lang).verdict is Verdict.EXACT
        assert check_answer("[ / ]", "[/]", lang).verdict is Verdict.EXACT
        assert check_answer("()", "[/]", lang).verdict is Verdict.WRONG
        assert check_answer("LoRA", "[/]", lang).verdict is Verdict.WRONG
        assert check_answer("[/]", "LoRA", lang).verdict is Verdict.WRONG
    assert answer_forms("", "en") == (AnswerForm("", "full"),)
    assert char_diff("()", "[/]", "en") == (
        DiffSegment("extra", "()"),
        DiffSegment("missing", "[/]"),
    )


@pytest.mark.slow
def test_odd_strings_never_crash_the_checker_or_the_diff() -> None:
    for expected in ODD:
        for typed in (*ODD[:14], "lora", "Параллелизм", "x" * 5000):
            for lang in ("en", "bn", "ar"):
                check = check_answer(typed, expected, lang, acronym="LoRA", others=ODD[:10])
                assert check.verdict in Verdict
                segments = char_diff(typed, expected, lang)
                # The diff still spells what was typed (the expected side shows
                # the expected spelling where the two agree).
                typed_side = "".join(s.text for s in segments if s.op != "missing")
                expected_side = "".join(s.text for s in segments if s.op != "extra")
                assert compact(normalize(typed_side, lang)) == compact(normalize(typed, lang))
                assert expected_side == unicodedata.normalize("NFC", expected.strip())


def test_odd_strings_never_crash_choices() -> None:
    texts = [t for t in ODD if t.strip()]
    deck = [concept("odd", f"c{i}", {"en": (t, t)}) for i, t in enumerate(texts)]
    for target in deck:
        choices = make_choices(target, deck, "en", "term", random.Random(1))
        assert choices.answer.concept_uid == target.uid
        assert len({o.text for o in choices.options}) == len(choices.options) == 4


def test_diff_reads_as_one_extra_and_one_missing_run_between_agreements() -> None:
    typed, expected = "ফাইন-টিউনিন", "ফাইন-টিউনিং"
    # «নি» agrees with the start of «নিং»: the slip is the typed «ন» for the anusvara.
    assert char_diff(typed, expected, "bn") == (
        DiffSegment("equal", "ফাইন-টিউনি"),
        DiffSegment("extra", "ন"),
        DiffSegment("missing", "ং"),
    )
    # Two separate slips stay two places, each extra-then-missing.
    ops = [(s.op, s.text) for s in char_diff("Parallelizm modelej", "Parallelism models", "en")]
    assert ops == [
        ("equal", "Paralleli"),
        ("extra", "z"),
        ("missing", "s"),
        ("equal", "m model"),
        ("extra", "ej"),
        ("missing", "s"),
    ]
    for typed, expected, lang in (
        ("মডেল প্যারালেলিজম", "মডেল প্যারালেলিজম্‌", "bn"),
        ("কোয়ান্টিফিকেশন", "কোয়ান্টাইজেশন", "bn"),
        ("التوازي النموذجي", "التوازي البياناتي", "ar"),
        ("Тензорный паралелизм", "Тензорный параллелизм", "ru"),
    ):
        segments = char_diff(typed, expected, lang)
        # Never two non-equal runs of the same kind in a row, never missing before extra.
        for a, b in itertools.pairwise(segments):
            assert a.op != b.op
            assert (a.op, b.op) != ("missing", "extra")
        # Each run is whole grapheme clusters of its text.
        for seg in segments:
            assert seg.text[0] not in "\u09be\u09bf\u09c0\u09c1\u09c7\u09cb\u09cd\u0982"
        assert "".join(s.text for s in segments if s.op != "extra") == expected


def test_diff_marks_only_the_typo_not_the_punctuation_after_it() -> None:
    """«ранго)» for «ранга)» marks «о»/«а», not the agreeing «)» twice."""
    assert char_diff("низкого ранго)", "низкого ранга)", "ru") == (
        DiffSegment("equal", "низкого ранг"),
        DiffSegment("extra", "о"),
        DiffSegment("missing", "а"),
        DiffSegment("equal", ")"),
    )
    assert char_diff("LoRA (low rank).", "LoRA (low-rank).", "en") == (
        DiffSegment("equal", "LoRA (low"),
        DiffSegment("extra", " "),
        DiffSegment("missing", "-"),
        DiffSegment("equal", "rank)."),
    )


def test_a_dropped_bengali_vowel_sign_is_the_one_missing_piece() -> None:
    """«রিডানডেন্স» for «রিডানডেন্সি» is missing «ি», not «ন্স» struck and re-typed."""
    assert char_diff("রিডানডেন্স", "রিডানডেন্সি", "bn") == (
        DiffSegment("equal", "রিডানডেন্স"),
        DiffSegment("missing", "ি"),
    )
    # A wrong vowel sign on the right letter: only the signs differ.
    assert char_diff("কা", "কি", "bn") == (
        DiffSegment("equal", "ক"),
        DiffSegment("extra", "া"),
        DiffSegment("missing", "ি"),
    )
    # A different letter is a different cluster, marked whole.
    assert char_diff("কি", "খি", "bn") == (DiffSegment("extra", "কি"), DiffSegment("missing", "খি"))


@pytest.mark.parametrize(
    "typed", ["Post-Training Quantization (PTQ)", "post-training quantization"]
)
def test_retyping_the_prompt_is_wrong_never_a_transliteration(typed: str) -> None:
    deck = bundled("quantization")
    ptq = next(c for c in deck.concepts if c.id == "ptq")
    en_bn = Pair("en", "term", "bn", "term")
    result = check_card_answer(typed, ptq, deck.concepts, en_bn)
    assert result.verdict is Verdict.WRONG, result
    assert result.notes == (NOTE_PROMPT,)
    assert result.grade() == 1 and not result.can_override


def test_a_prompt_that_is_also_the_answer_stays_right() -> None:
    result = check_answer("LoRA", "LoRA", "fr", prompt=("LoRA", "en"))
    assert result.verdict is Verdict.EXACT
