"""Readable ids: transliteration of Bengali, Cyrillic and Arabic terms, and deck ids from titles."""

from __future__ import annotations

from pathlib import Path

import pytest

from quizzer.glossary.align import align
from quizzer.glossary.entries import SourceEntry, SourceFile
from quizzer.glossary.slug import fully_transliterable, slugify
from quizzer.library.importer import import_glossaries

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("term", "slug"),
    [
        ("প্যারালেলিজম", "paralelijom"),  # ya-phala before া: the æ of loans, silent
        ("মডেল প্যারালেলিজম", "model-paralelijom"),
        ("ফ্ল্যাশ অ্যাটেনশন", "flash-atenshon"),
        ("লো-র\u200d্যাঙ্ক", "lo-rangk"),  # ZWJ chooses a glyph shape: no sound, no hyphen
        ("টেনসর", "tensor"),  # no inherent vowel between a vowel and a voweled consonant
        ("জিরো রিডানডেন্সি অপ্টিমাইজার", "jiro-ridandensi-optimaijar"),
        ("গ্রেডিয়েন্ট শব্দ ইনজেকশন", "grediyent-shobd-injekshon"),
        ("ব্যবহার", "byobhar"),  # ya-phala before a consonant: "y"
        ("Глоссарий ИИ", "glossariy-ii"),
        ("Flash Attention", "flash-attention"),
        ("Quantification Symétrique", "quantification-symetrique"),
    ],
)
def test_slugs_read_like_the_word(term: str, slug: str) -> None:
    assert slugify(term) == slug


def test_no_bengali_slug_keeps_the_raw_ya_phala_j() -> None:
    for path in sorted((ROOT / "data").glob("*.txt")):
        for line in path.read_text(encoding="utf-8").split("\n"):
            assert "jja" not in slugify(line) and "pja" not in slugify(line)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("Глоссарий ИИ", True), ("এআই গ্লসারি", True), ("AI terms", True), ("术语表 AI", False)],
)
def test_fully_transliterable(text: str, expected: bool) -> None:
    assert fully_transliterable(text) is expected


def _one(term: str, lang: str) -> SourceFile:
    entry = SourceEntry("a.txt", 0, lang, term, "A definition.", 3, 4)
    return SourceFile("a.txt", "T", (entry,))


@pytest.mark.parametrize(
    ("term", "lang", "cid"),
    [
        ("Адаптация (Low-Rank Adaptation/Адаптация низкого ранга)", "ru", "low-rank-adaptation"),
        ("LoRA (Low-Rank Adaptation/Адаптация низкого ранга)", "ru", "lora"),
        ("Zero Redundancy Optimizer (ZeRO/Оптимизатор нулевой избыточности)", "ru", "zero"),
        ("Оптимизатор (нулевой избыточности)", "ru", "optimizator"),
    ],
)
def test_concept_ids_prefer_latin_text(term: str, lang: str, cid: str) -> None:
    deck, _report = align([_one(term, lang)], deck_id="x", deck_name="X")
    assert deck.concepts[0].id == cid


GLOSSARY = "{title}\nSubtitle\nПервый термин\nЭто первое определение.\n"


@pytest.mark.parametrize(
    ("title", "deck_id"),
    [("Глоссарий ИИ", "glossariy-ii"), ("My AI Terms", "my-ai-terms"), ("术语表", "terms-file")],
)
def test_deck_id_and_name_come_from_the_title(tmp_path: Path, title: str, deck_id: str) -> None:
    path = tmp_path / "terms-file.txt"
    path.write_text(GLOSSARY.format(title=title), encoding="utf-8")
    result = import_glossaries([path], into=tmp_path / "decks")
    assert (result.deck.id, result.deck.name) == (deck_id, title)
    assert result.path.name == f"{deck_id}.toml"


def test_the_first_files_title_names_a_deck_of_several(tmp_path: Path) -> None:
    first = tmp_path / "b.txt"
    first.write_text(GLOSSARY.format(title="Глоссарий ИИ"), encoding="utf-8")
    second = tmp_path / "a.txt"
    second.write_text(
        "AI glossary\nSub\nFirst term\nIt is the first definition.\n", encoding="utf-8"
    )
    result = import_glossaries([first, second], into=tmp_path / "decks")
    assert (result.deck.id, result.deck.name) == ("glossariy-ii", "Глоссарий ИИ")


@pytest.mark.parametrize(
    ("term", "slug"),
    [
        ("ग्रेडिएंट डिसेंट", "grediemt-disemt"),
        ("梯度下降", "tiduxiajiang"),
        ("過学習", "guoxuexi"),
        ("バッチ正規化", "batchizhengguihua"),
        ("학습률", "hagseublyul"),
        ("Aşırı öğrenme", "asiri-ogrenme"),  # the dotless ı is a letter, not dropped
    ],
)
def test_a_script_without_a_table_here_is_still_spelt_in_the_id(term: str, slug: str) -> None:
    # Hindi, Chinese, Japanese and Korean concepts were all named concept, concept-2…
    assert slugify(term) == slug
