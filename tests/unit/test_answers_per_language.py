"""Typed answers get the verdict their language's row of the answer-rules table gives."""

from __future__ import annotations

import pytest

from quizzer.concepts.answer_rules import DEFAULT, RULES, rules_for
from quizzer.concepts.normalize import graphemes, normalize
from quizzer.study.answers import NOTE_ACCENTS, NOTE_NEAR, Verdict, check_answer

EXACT, ACCEPTED, NEAR, WRONG = Verdict.EXACT, Verdict.ACCEPTED, Verdict.NEAR, Verdict.WRONG


@pytest.mark.parametrize(
    ("lang", "expected", "typed", "verdict"),
    [
        # Spanish, Portuguese, Vietnamese: accents (and ñ, ç) are spelling; without them a
        # near miss, passed as Hard and shown.
        ("es", "Aprendizaje automático", "aprendizaje automatico", NEAR),
        ("es", "Año bisiesto", "ano bisiesto", NEAR),
        ("es", "Aprendizaje automático", "APRENDIZAJE AUTOMÁTICO", EXACT),
        ("pt-BR", "Regularização", "regularizacao", NEAR),
        ("pt", "Época", "epoca", NEAR),
        ("vi", "học máy", "hoc may", NEAR),
        ("vi", "học máy", "học máy", EXACT),
        # French: accents accepted and pointed out (as before).
        ("fr", "Quantification Symétrique", "quantification symetrique", ACCEPTED),
        # German: ß is ss and ä ö ü are ae oe ue; an umlaut left bare is a near miss.
        ("de", "Maß", "mass", EXACT),
        ("de", "Überanpassung", "Ueberanpassung", EXACT),
        ("de", "Überanpassung", "Uberanpassung", NEAR),
        # Turkish: I is the capital of ı and İ of i.
        ("tr", "ışık", "IŞIK", EXACT),
        ("tr", "ince ayar", "İNCE AYAR", EXACT),
        ("tr", "ince ayar", "INCE AYAR", NEAR),  # ınce: one letter off
        ("tr", "Öğrenme oranı", "ogrenme orani", NEAR),  # accents, and ı typed as i
        ("tr", "ışık", "isik", WRONG),  # ı is not i: two letters of four
        # Arabic, Persian, Urdu: tashkeel optional, alef forms folded.
        ("ar", "مسبقًا", "مسبقا", EXACT),
        ("ar", "تحسّن", "تحسن", EXACT),
        ("ar", "أداة", "اداة", EXACT),
        ("fa", "مدل زبانی", "مدلِ زبانی", EXACT),
        ("ur", "لسانی ماڈل", "لِسانی ماڈل", EXACT),
        ("ur", "تہہ", "ته\u0647", EXACT),  # heh goal typed on an Arabic keyboard
        ("ur", "کتاب", "كتاب", EXACT),  # keheh typed as Arabic kaf
        ("ur", "ڈیٹا", "ڈیٹے", NEAR),  # yeh barree is a letter of its own: one off
        # Persian ZWNJ is spelling: left out, a near miss.
        ("fa", "می‌خواهم", "میخواهم", NEAR),
        ("fa", "می‌خواهم", "می‌خواهم", EXACT),
        # Hindi and Bengali: virama kept; a cluster off is one slip.
        ("hi", "क्षमता", "कषमता", NEAR),  # the virama left out: one slip
        ("hi", "प्रशिक्षण", "प्रशिक्शण", NEAR),  # one cluster off
        ("hi", "क्षमता", "गणना", WRONG),
        ("hi", "क्षमता", "क्षमता", EXACT),
        ("bn", "ক্ষমতা", "কষমতা", NEAR),
        # Chinese, Japanese: full and half width folded; no word splitting needed.
        ("ja", "ＲｅＬＵ関数", "ReLU関数", EXACT),
        ("ja", "バッチ", "ﾊﾞｯﾁ", EXACT),
        ("zh", "机器学习", "机器 学习", EXACT),
        ("zh-Hant", "ＧＰＵ並行", "GPU並行", EXACT),
        # Any other language: NFC and case folding only; nothing stripped or folded.
        ("pl", "żółw", "zolw", WRONG),
        ("pl", "Żółw", "żółw", EXACT),
        ("sw", "Ujifunzaji wa mashine", "ujifunzaji wa mashine", EXACT),
    ],
)
def test_each_language_gets_the_verdict_of_its_rules(
    lang: str, expected: str, typed: str, verdict: Verdict
) -> None:
    check = check_answer(typed, expected, lang, side="term")
    assert check.verdict is verdict, (check.verdict, check.notes)
    if verdict is NEAR and lang in ("es", "pt", "pt-BR", "vi"):
        assert check.notes[:2] == (NOTE_NEAR, NOTE_ACCENTS)
        assert check.correct and not check.right  # passed, graded Hard


def test_a_near_miss_on_accents_is_hard_and_accepted_accents_are_good() -> None:
    near = check_answer("aprendizaje automatico", "Aprendizaje automático", "es", side="term")
    accepted = check_answer("symetrique", "Symétrique", "fr", side="term")
    assert near.grade() == 2  # Hard
    assert accepted.grade() == 3  # Good


def test_rows_are_found_by_language_subtag_and_others_get_the_default() -> None:
    assert rules_for("pt-BR") is RULES["pt"]
    assert rules_for("zh-Hant") is RULES["zh"]
    assert rules_for("sr-Latn") is DEFAULT
    assert rules_for("xx") is DEFAULT


def test_the_default_strips_nothing_but_invisible_shaping() -> None:
    text = "Ｆｕｌｌ\u00ad ścieżka\u0301"  # a soft hyphen: invisible
    assert normalize(text, "pl") == "ｆｕｌｌ ścieżká"  # NFC, folded case, nothing else
    assert normalize(text, "pl", accents=False) == normalize(text, "pl")


def test_devanagari_conjuncts_stay_whole_clusters() -> None:
    assert graphemes("क्षमता") == ["क्ष", "म", "ता"]
