"""`quizzer import` of glossaries in learners' own languages, without `--lang`: each entry
tagged right, the report naming each file's language with how sure it is, and the ten
files, parallel, made one deck of concepts in ten languages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quizzer.library.decks import read_deck
from tests.cli_support import run

GLOSSARIES = Path(__file__).resolve().parents[1] / "data" / "glossaries"
LANGS = ("es", "de", "pt", "tr", "id", "fa", "ur", "hi", "ja", "zh")


@pytest.mark.parametrize("lang", LANGS)
def test_a_glossary_imports_in_its_own_language(decks, capsys, lang):
    code, out, err = run(capsys, "import", str(GLOSSARIES / f"{lang}.txt"), "--deck", lang)
    assert code == 0, err
    assert f"{lang}.txt: {lang} (" in out and "entries" in out and "sure)" in out
    deck = read_deck(decks / f"{lang}.toml")
    tags = [lang_ for concept in deck for lang_ in concept.languages]
    assert len(tags) == len(deck) >= 30
    assert sum(tag == lang for tag in tags) / len(tags) >= 0.95


@pytest.mark.parametrize("lang", LANGS)
def test_a_short_glossary_imports_in_its_own_language_every_entry(decks, capsys, lang):
    # 13 networking terms: a single entry tagged wrong would be under 95% right.
    source = GLOSSARIES / "networking" / f"{lang}.txt"
    code, out, err = run(capsys, "import", str(source), "--deck", lang)
    assert code == 0, err
    assert f"{lang}.txt: {lang} (" in out and "13 entries" in out
    deck = read_deck(decks / f"{lang}.toml")
    assert [concept.languages for concept in deck] == [(lang,)] * 13


def test_ten_parallel_glossaries_make_concepts_in_ten_languages(decks, capsys):
    files = [str(GLOSSARIES / f"{lang}.txt") for lang in LANGS]
    code, out, err = run(capsys, "import", *files, "--deck", "ml", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert {
        file: [found["lang"] for found in langs] for file, langs in report["languages"].items()
    } == {f"{lang}.txt": [lang] for lang in LANGS}
    deck = read_deck(decks / "ml.toml")
    assert deck.languages == LANGS  # in the order the files came
    assert all(concept.languages == LANGS for concept in deck)
    assert "[concepts.ind.term]" in (decks / "ml.toml").read_text(encoding="utf-8")
    code, shown, _err = run(capsys, "show", "ml", "--json")
    assert code == 0
    first = json.loads(shown)[0]
    assert first["languages"]["id"]["term"] == "Pembelajaran mesin"
    assert first["languages"]["fa"]["term"] == "یادگیری ماشین"


def test_lang_overrides_detection_and_an_invalid_tag_is_refused(decks, capsys):
    source = str(GLOSSARIES / "ur.txt")
    code, _out, err = run(capsys, "import", source, "--deck", "urdu", "--lang", "ur-PK")
    assert code == 0, err
    assert read_deck(decks / "urdu.toml").languages == ("ur-PK",)
    code, _out, err = run(capsys, "import", source, "--deck", "bad", "--lang", "urdu-pk")
    assert code == 2
    assert "unknown language 'urdu-pk'" in err
    assert not (decks / "bad.toml").exists()
