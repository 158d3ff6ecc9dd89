"""What the study screen says about a typed answer: right, right with a note, almost, or
wrong (and whether it is another concept's text), from the answer checker's own verdict."""

from __future__ import annotations

from quizzer.study.answers import Verdict, check_answer
from quizzer.ui.widgets.answer_diff import verdict_line


def test_an_exact_answer_is_right_without_notes() -> None:
    check = check_answer("Quantization", "Quantization", "en")
    assert check.verdict is Verdict.EXACT
    assert verdict_line(check) == ("✓ Right", "right")


def test_an_accepted_answer_is_right_and_says_why() -> None:
    check = check_answer("cafe", "café", "fr")
    assert check.verdict is Verdict.ACCEPTED
    line, kind = verdict_line(check)
    assert kind == "right" and line.startswith("✓ Right (") and "accents" in line


def test_a_near_miss_is_almost() -> None:
    check = check_answer("Quantizaton", "Quantization", "en")
    assert check.verdict is Verdict.NEAR
    line, kind = verdict_line(check)
    assert kind == "near" and line.startswith("≈ Almost")


def test_a_wrong_answer_is_not_quite_or_another_concept() -> None:
    check = check_answer("banana", "Quantization", "en")
    assert check.verdict is Verdict.WRONG
    assert verdict_line(check) == ("✗ Not quite", "wrong")
    other = check_answer("Distillation", "Quantization", "en", others=["Distillation"])
    assert other.verdict is Verdict.WRONG and other.confused_with
    assert verdict_line(other) == ("✗ That is another concept", "wrong")


def test_a_retyped_prompt_is_told_as_the_prompt() -> None:
    check = check_answer("Quantization", "কোয়ান্টাইজেশন", "bn", prompt=("Quantization", "en"))
    assert verdict_line(check) == ("✗ That is the prompt, retyped", "wrong")
