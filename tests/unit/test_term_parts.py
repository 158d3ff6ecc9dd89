"""The two rules glossary alignment and answer checking share: what an acronym is, and
how a term's closing parenthesis splits into alternatives."""

from __future__ import annotations

import pytest

from quizzer.concepts.term_parts import (
    ACRONYM_MAX_LEN,
    acronym_of,
    looks_like_acronym,
    paren_parts,
    split_alternatives,
    term_head,
)
from quizzer.glossary.entries import SourceEntry
from quizzer.study.answer_forms import answer_forms
from quizzer.study.answers import Verdict, check_answer


@pytest.mark.parametrize(
    "text",
    ["PEFT", "GPTQ", "LoRA", "ZeRO", "MoE", "QLoRA", "GPT-4", "AWQ", "FP8-E4M3", " PEFT "],
)
def test_acronyms(text: str) -> None:
    assert looks_like_acronym(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "LLM.int8()",  # a code name: dots and brackets
        "LLM.int8",  # the capital count alone would take it: no dots
        "U.S.",  # dotted initialisms are not in the glossaries' vocabulary
        "SmoothQuant",  # CamelCase name: more lower-case than capitals
        "DeepSpeed",
        "Flash Attention",  # words, and a space
        "Scale",
        "S",  # one capital
        "vLLM",  # starts lower-case
        "GPT-",  # ends with a hyphen
        "Lora",
        "ПЭФТ",  # Cyrillic capitals don't count: acronyms are written in Latin letters
        "লোরা",  # Bengali
        "لورا",  # Arabic
        "PEFT/LoRA",  # two alternatives, not one acronym
    ],
)
def test_not_acronyms(text: str) -> None:
    assert not looks_like_acronym(text)


def test_acronym_length_limit() -> None:
    assert looks_like_acronym("GPT-NeoX-20B")  # 12 characters
    assert looks_like_acronym("A" * ACRONYM_MAX_LEN)
    assert not looks_like_acronym("A" * (ACRONYM_MAX_LEN + 1))


@pytest.mark.parametrize(
    ("inner", "parts"),
    [
        ("PEFT", ("PEFT",)),
        (
            "Low-Rank Adaptation/Адаптация низкого ранга",
            ("Low-Rank Adaptation", "Адаптация низкого ранга"),
        ),
        ("ZeRO / Оптимизатор", ("ZeRO", "Оптимизатор")),
        ("A; B", ("A", "B")),
        # A comma lists different things, so it doesn't separate alternatives.
        ("scale, zero point", ("scale, zero point",)),
        ("/", ()),
        ("", ()),
        (" / ; ", ()),
    ],
)
def test_split_alternatives(inner: str, parts: tuple[str, ...]) -> None:
    assert split_alternatives(inner) == parts


@pytest.mark.parametrize(
    ("term", "parts"),
    [
        ("Parameter-Efficient Fine-Tuning (PEFT)", ("Parameter-Efficient Fine-Tuning", ("PEFT",))),
        (
            "LoRA (Low-Rank Adaptation/Адаптация низкого ранга)",
            ("LoRA", ("Low-Rank Adaptation", "Адаптация низкого ранга")),
        ),
        ("প্যারামিটার এফিসিয়েন্ট ফাইন-টিউনিং (PEFT)", ("প্যারামিটার এফিসিয়েন্ট ফাইন-টিউনিং", ("PEFT",))),
        ("لورا (التكييف منخفض الرتبة)", ("لورا", ("التكييف منخفض الرتبة",))),
        ("  Term (A/B)  ", ("Term", ("A", "B"))),
        ("x (/)", ("x", ())),
        # Chinese and Japanese: no space before it, full-width or not.
        ("图形处理器（GPU）", ("图形处理器", ("GPU",))),
        ("图形处理器(GPU)", ("图形处理器", ("GPU",))),
        ("画像処理装置 （GPU）", ("画像処理装置", ("GPU",))),
        ("量子化（りょうしか）", ("量子化", ("りょうしか",))),
        ("関数f(x)", None),  # after a Latin letter: part of the name
        # Not a closing parenthesis of alternatives:
        ("LLM.int8()", None),  # empty, and part of a code name
        ("f(x)", None),  # no space before it: part of the name
        ("A (B) C", None),  # text after it
        ("A (B (C))", None),  # nested
        ("(PEFT)", None),  # no head
        ("GPTQ", None),
        ("Flash Attention", None),
        ("", None),
    ],
)
def test_paren_parts(term: str, parts: tuple[str, tuple[str, ...]] | None) -> None:
    assert paren_parts(term) == parts


def test_term_head() -> None:
    assert term_head("Parameter-Efficient Fine-Tuning (PEFT)") == "Parameter-Efficient Fine-Tuning"
    assert term_head(" LLM.int8() ") == "LLM.int8()"
    assert term_head("") == ""


@pytest.mark.parametrize(
    ("term", "acronym"),
    [
        ("GPTQ", "GPTQ"),
        ("DeepSpeed (ZeRO)", "ZeRO"),
        ("LoRA (Low-Rank Adaptation)", "LoRA"),  # the head, when no part is one
        ("X (Low-Rank Adaptation/LoRA)", "LoRA"),  # the first part that is one
        ("X (PEFT, LoRA)", None),  # a comma doesn't separate alternatives
        ("LLM.int8()", None),
        ("Flash Attention", None),
        ("প্যারামিটার এফিসিয়েন্ট ফাইন-টিউনিং (PEFT)", "PEFT"),
        ("খলিত বিশেষজ্ঞ", None),
        ("خليط الخبراء (MoE)", "MoE"),
        ("", None),
    ],
)
def test_acronym_of(term: str, acronym: str | None) -> None:
    assert acronym_of(term) == acronym


@pytest.mark.parametrize(
    "term",
    [
        "Zero Redundancy Optimizer (ZeRO/Оптимизатор нулевой избыточности)",
        "Foo (SmoothQuant/GPTQ)",
        "Term (LLM.int8/PEFT)",
        "Quantization (scale, zero point)",
        "LLM.int8()",
    ],
)
def test_alignment_and_answers_agree_on_the_acronym(term: str) -> None:
    """The part alignment takes for the concept's acronym is the part answer checking
    accepts as an acronym (the first, when there are several)."""
    entry = SourceEntry("a.txt", 0, "en", term, "A definition.", 3, 4)
    acronyms = [f.text for f in answer_forms(term, "ru") if f.kind == "acronym"]
    assert entry.acronym == (acronyms[0] if acronyms else None)


@pytest.mark.parametrize(
    ("term", "lang"),
    [
        ("图形处理器（GPU）", "zh"),
        ("アプリケーションプログラミングインターフェース（API）", "ja"),
        ("图形处理器(GPU)", "zh-Hans"),
    ],
)
def test_a_cjk_terms_parenthesis_gives_its_acronym_and_its_head_as_answers(
    term: str, lang: str
) -> None:
    # Chinese and Japanese glossaries write "图形处理器（GPU）": its acronym aligns it with the
    # other languages' GPU entry, and GPU or the term without it is a right answer.
    acronym = acronym_of(term)
    assert acronym is not None
    assert check_answer(acronym, term, lang, side="term").verdict is Verdict.ACCEPTED
    assert check_answer(term_head(term), term, lang, side="term").verdict.right
    assert len(term_head(term)) < len(term)
