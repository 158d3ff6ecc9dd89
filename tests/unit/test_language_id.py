"""Language tagging: ours by script or by French/English words; others detected, never filed."""

from __future__ import annotations

from pathlib import Path

import pytest

from quizzer.glossary.language_id import LanguageIdError, identify, tag_entries
from quizzer.glossary.parse import decode, parse

DATA = Path(__file__).resolve().parents[2] / "data"


def _tags(name: str) -> list[str]:
    glossary = parse(decode((DATA / name).read_bytes()))
    return tag_entries([(e.term, e.definition, e.term_line) for e in glossary.entries])


@pytest.mark.parametrize(
    ("name", "lang"),
    [
        ("000_048e4d4c80912def.txt", "bn"),
        ("002_8ab2fe190dc945a0.txt", "ar"),
        ("004_578e64a8672be48f.txt", "ru"),
    ],
)
def test_training_glossaries_are_tagged_by_script(name: str, lang: str) -> None:
    assert _tags(name) == [lang] * 16


def test_quantization_glossary_has_eight_french_entries() -> None:
    tags = _tags("003_b43aa0d0eec52a3f.txt")
    # Entries 9-16 (GPTQ … Zero Point) are French; the others Bengali.
    assert tags == ["bn"] * 8 + ["fr"] * 8 + ["bn"] * 4


def test_neutral_or_english_term_with_french_definition_is_french() -> None:
    assert (
        identify(
            "Scale Factor",
            "Paramètre multiplicatif utilisé pour mapper les valeurs "
            "continues dans la plage quantifiée.",
        ).lang
        == "fr"
    )
    assert identify("GPTQ", "Technique avancée optimisant les poids quantifiés.").lang == "fr"


def test_english() -> None:
    guess = identify(
        "Flash Attention", "An exact implementation of attention that is optimised for GPUs."
    )
    assert guess.lang == "en"


def test_mixed_script_definition_goes_by_the_majority() -> None:
    assert (
        identify("LoRA", "Метод PEFT, внедряющий матрицы низкого ранга в слои Transformer").lang
        == "ru"
    )
    assert identify("x", "طريقة PEFT تضخم مصفوفات منخفضة الرتبة في طبقات Transformer").lang == "ar"


@pytest.mark.parametrize(
    ("definition", "lang"),
    [
        ("روشی برای کاهش حافظه در آموزش مدل‌های بزرگ که پارامترها را تقسیم می‌کند.", "fa"),
        ("बड़े मॉडलों के प्रशिक्षण में स्मृति कम करने की एक तकनीक।", "hi"),
        ("Técnica que reduce el uso de memoria durante el entrenamiento de los modelos.", "es"),
        ("Eine Technik, die den Speicherbedarf beim Training von großen Modellen senkt.", "de"),
        ("Tecnica che riduce la memoria durante l'addestramento dei modelli della rete.", "it"),
        ("Це техніка для зменшення пам'яті під час навчання великих моделей.", "uk"),
        ("মডেলৰ ওজন কমোৱাৰ পদ্ধতি", "as"),
    ],
)
def test_other_languages_are_recognised(definition: str, lang: str) -> None:
    assert identify("term", definition).lang == lang


@pytest.mark.parametrize(
    ("definition", "named"),
    [
        ("روشی برای کاهش حافظه در آموزش مدل‌های بزرگ که پارامترها را تقسیم می‌کند.", "Persian"),
        ("बड़े मॉडलों के प्रशिक्षण में स्मृति कम करने की एक तकनीक।", "Hindi"),
        (
            "Técnica que reduce el uso de memoria durante el entrenamiento de los modelos.",
            "Spanish",
        ),
        ("大型模型训练中减少内存的技术", "Chinese"),
    ],
)
def test_a_file_in_another_language_stops_with_a_lang_hint(definition: str, named: str) -> None:
    entries = [("t1", definition, 3), ("t2", definition, 5)]
    with pytest.raises(LanguageIdError) as info:
        tag_entries(entries)
    assert named in info.value.message
    assert info.value.line == 3
    assert info.value.hint is not None and "--lang" in info.value.hint


def test_forced_language_overrides_detection() -> None:
    entries = [("t", "روشی برای کاهش حافظه که پارامترها را تقسیم می‌کند.", 3)]
    assert tag_entries(entries, forced="ar") == ["ar"]
    with pytest.raises(LanguageIdError):
        tag_entries(entries, forced="fa")


def test_undecided_latin_entry_follows_the_file() -> None:
    entries = [
        ("AWQ", "Méthode pondérant l'importance des poids selon les activations.", 3),
        ("Zero Point", "Offset", 5),
    ]
    assert tag_entries(entries) == ["fr", "fr"]


def test_nothing_decides_asks_for_lang() -> None:
    with pytest.raises(LanguageIdError, match="can't tell") as info:
        tag_entries([("GPTQ", "Quantization", 3)])
    assert info.value.line == 3


def test_terse_english_glossary_follows_its_decided_entries() -> None:
    entries = [
        ("ZeRO", "Reduces memory by sharding optimizer states across GPUs.", 3),
        ("Reversible layers", "Layers whose activations can be rebuilt from their outputs.", 5),
        ("Tensor parallelism", "Splits weight tensors over devices.", 7),
    ]
    assert [identify(t, d).lang for t, d, _ in entries] == ["en", "en", None]
    assert tag_entries(entries) == ["en", "en", "en"]


def test_the_entry_refused_or_undecided_is_named_by_its_own_line() -> None:
    # Most entries share one verdict, checked once: the one that differs is still named.
    bengali = ("লোরা", "একটি কৌশল যা মডেলের ওজন পরিবর্তন করে।", 3)
    persian = ("t", "روشی برای کاهش حافظه که پارامترها را تقسیم می‌کند.", 9)
    with pytest.raises(LanguageIdError, match="Persian") as info:
        tag_entries([bengali, bengali, persian, bengali])
    assert info.value.line == 9
    with pytest.raises(LanguageIdError, match="can't tell") as info:
        tag_entries([bengali, ("GPTQ", "Quantization", 7), bengali])
    assert info.value.line == 7
    assert tag_entries([bengali, bengali]) == ["bn", "bn"]
