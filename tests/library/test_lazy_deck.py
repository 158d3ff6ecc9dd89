"""A deck opened from its validated cached parse builds each concept's texts when first read:
what a session or the home screen shows is the same as from the eager
deck — every concept, text, language and card, the same queue and the same first card."""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path

import pytest

from quizzer.cards.card import Pair, has_card
from quizzer.concepts.concept import Entry, Provenance, Text
from quizzer.concepts.deck import Deck
from quizzer.concepts.languages import SIDES
from quizzer.library import cache as deckcache
from quizzer.library.decks import (
    deck_from_valid_tables,
    lazy_deck_from_valid_tables,
    read_deck,
    write_deck,
)
from quizzer.library.importer import import_glossaries
from quizzer.library.summary import read_summary, validated_tables
from quizzer.paths import bundled_decks_dir
from quizzer.progress import open_store
from quizzer.services.library import DeckShelf, open_shelf
from quizzer.services.sessions import start_flow
from quizzer.services.study import StudyService
from quizzer.study.selection import StudyChoice
from tests.factories import BUNDLED_LANGUAGES, concept

ROOT = Path(__file__).resolve().parents[2]
TRAINING = sorted((ROOT / "data").glob("00[024]_*.txt"))
NOW = datetime(2026, 5, 4, 10, 0, tzinfo=UTC)


def _decks(tmp_path: Path) -> list[Path]:
    """The bundled decks, an imported one, and one with every kind of field."""
    fixed = Text(
        "Fixed", Provenance("corrected", file="g.txt", line=3, original="Fxd", reason="typo")
    )
    first = concept("mixed", "a", {"en": ("A", "Def a."), "ru": ("А", "Опр.")}, acronym="AA")
    first = first.with_entry("en", Entry(fixed, first.entries["en"].definition))
    same = concept("mixed", "b", {"fr": ("GPTQ", "gptq"), "en": ("GPTQ", "Def b.")})
    mixed = Deck("mixed", "Mixed", (first, same), "Desc")
    path = tmp_path / "mixed.toml"
    write_deck(mixed, path)
    imported = import_glossaries(TRAINING, deck="ai", into=tmp_path / "decks").path
    return [*sorted(bundled_decks_dir().glob("*.toml")), imported, path]


@pytest.mark.parametrize("big", [False, True])
def test_a_lazy_deck_shows_what_the_eager_deck_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, big: bool
) -> None:
    """Also from a big deck's entry (every entry taken for big here), whose concepts' texts
    are decoded when read."""
    if big:
        monkeypatch.setattr(deckcache, "BIG_ENTRY_BYTES", 0)
    for path in _decks(tmp_path):
        tables = validated_tables(read_summary(path), lazy=True)
        assert tables is not None, path
        eager, lazy = read_deck(path), lazy_deck_from_valid_tables(tables)
        assert lazy == eager
        assert eager == deck_from_valid_tables(validated_tables(read_summary(path)) or {})
        assert lazy.languages == eager.languages
        assert lazy.source_counts() == eager.source_counts()
        for a, b in zip(lazy.concepts, eager.concepts, strict=True):
            assert list(a.entries) == list(b.entries) and len(a.entries) == len(b.entries)
            assert a.label == b.label and a.to_dict() == b.to_dict()
            for lang in BUNDLED_LANGUAGES:
                assert (lang in a.entries) == (lang in b.entries)
                assert a.entries.get(lang) == b.entries.get(lang)
                for side in SIDES:
                    assert a.text(lang, side) == b.text(lang, side)
            with pytest.raises(KeyError):
                a.entries["xx"]
        pairs = [Pair("en", "term", "fr", "term"), Pair("ru", "term", "en", "definition")]
        for pair in pairs:
            assert [has_card(c, pair) for c in lazy] == [has_card(c, pair) for c in eager]


def test_a_lazy_concept_builds_only_the_languages_read(tmp_path: Path) -> None:
    path = _decks(tmp_path)[-2]  # the imported deck: bn, ar, ru
    tables = validated_tables(read_summary(path))
    assert tables is not None
    lazy = lazy_deck_from_valid_tables(tables)
    first = lazy.concepts[0]
    built = first.entries._built  # type: ignore[attr-defined]
    assert first.text("ru", "term") == read_deck(path).concepts[0].text("ru", "term")
    assert built == {}  # a text is read from the table: no entry built for it
    entry = first.entries["ru"]
    assert set(built) == {"ru"} and first.entries["ru"] is entry  # built once, then kept
    assert first.text("ru", "definition") == entry.definition.text


def test_a_big_entry_leaves_each_text_undecoded_until_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(deckcache, "BIG_ENTRY_BYTES", 0)
    path = _decks(tmp_path)[-2]  # the imported deck: bn, ar, ru
    tables = validated_tables(read_summary(path), lazy=True)
    assert tables is not None
    item = tables["concepts"][0]
    assert set(item) - {"id", "acronym"} == {"bn", "ar", "ru"}
    assert not any(isinstance(item[lang], dict) for lang in ("bn", "ar", "ru"))
    lazy = lazy_deck_from_valid_tables(tables)
    eager = read_deck(path).concepts[0]
    first = lazy.concepts[0]
    assert (first.id, first.uid, first.acronym) == (eager.id, eager.uid, eager.acronym)
    assert first.languages == eager.languages == ("bn", "ar", "ru")  # no text decoded
    assert not any(isinstance(item[lang], dict) for lang in ("bn", "ar", "ru"))
    assert first.text("ru", "term") == eager.text("ru", "term")
    assert isinstance(item["ru"], dict) and not isinstance(item["bn"], dict)  # ru's only
    assert first.entries["bn"] == eager.entries["bn"]


@pytest.mark.parametrize(
    "damage",
    [
        lambda e: e[: len(e) // 2],  # cut short
        lambda e: e.replace(b'"concepts":[', b'"concepts":[7,', 1),  # a concept not a table
        lambda e: e.replace(b'"id":"a"', b'"id":5', 1),  # an id not a string
        lambda e: e.replace(b'"name":"Mixed"', b'"name":null', 1),
        lambda e: b"[]",
    ],
)
def test_a_damaged_big_entry_is_a_miss(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: object
) -> None:
    """The deck is then read from its file: the shelf gives the deck as written."""
    decks, deck = _shelf_with_mixed(tmp_path, monkeypatch)
    monkeypatch.setattr(deckcache, "BIG_ENTRY_BYTES", 0)
    summary = read_summary(decks / "mixed.toml")
    assert validated_tables(summary, lazy=True) is not None
    entry = deckcache._entry(summary.key, "tables", None)
    entry.write_bytes(damage(entry.read_bytes()))  # type: ignore[operator]
    assert validated_tables(summary, lazy=True) is None
    assert open_shelf(decks)["mixed"] == deck


@pytest.mark.parametrize("mode", ["flip", "choice", "typed", "learn"])
def test_a_session_on_the_shelf_starts_as_on_the_eager_deck(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    """The queue and the first card (with its choices) are the same from the shelf's lazy
    deck as from the deck read eagerly from its file."""
    monkeypatch.setattr(deckcache, "RACY_NS", 0)
    decks = tmp_path / "decks"
    import_glossaries(TRAINING, deck="ai", into=decks)
    time.sleep(0.05)
    shelf = open_shelf(decks)
    choice = StudyChoice("ai", Pair("ru", "term", "bn", "definition"), mode)
    eager = read_deck(decks / "ai.toml")
    firsts = []
    sources: tuple[Mapping[str, Deck] | list[Deck], ...] = (shelf, [eager])
    for i, source in enumerate(sources):
        with open_store(tmp_path / f"p{i}.json", tz=UTC, rng=random.Random(1)) as store:
            service = StudyService(store, source, seed=7)
            queue = store.due_cards(service.deck("ai"), [choice.pair], NOW)
            flow = start_flow(service, choice, NOW)
            assert flow.next(NOW)
            options = [o.text for o in flow.choices.options] if flow.choices else []
            firsts.append((queue, flow.card, options, service.counts("ai", choice.pair, NOW)))
    assert isinstance(shelf, DeckShelf) and shelf.ready("ai")
    assert shelf["ai"].concepts[0].entries.__class__.__name__ == "LazyEntries"
    assert firsts[0] == firsts[1] and firsts[0][0].new


def _shelf_with_mixed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Deck]:
    monkeypatch.setattr(deckcache, "RACY_NS", 0)
    decks = tmp_path / "decks"
    decks.mkdir()
    a = concept("mixed", "a", {"en": ("A", "Def a."), "ru": ("А", "Опр.")})
    b = concept("mixed", "b", {"en": ("B", "Def b.")})  # no Russian: no en→ru card
    c = concept("mixed", "c", {"en": ("GPTQ", "Def c."), "ru": ("gptq", "Опр. c.")})
    d = concept("mixed", "d", {"en": ("D", "Def d."), "ru": ("Д", "Опр. d.")})
    deck = Deck("mixed", "Mixed", (a, b, c, d))
    write_deck(deck, decks / "mixed.toml")
    time.sleep(0.05)
    return decks, deck


PAIR = Pair("en", "term", "ru", "term")


def test_the_shelf_keeps_a_decks_cards_in_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    decks, deck = _shelf_with_mixed(tmp_path, monkeypatch)
    expected = [f"mixed/{c}" for c in ("a", "d")]  # b lacks ru, c's texts are the same
    first = open_shelf(decks)
    assert [k.concept_uid for k in first.cards("mixed", PAIR)] == expected
    key = read_summary(decks / "mixed.toml").key
    assert deckcache.get_cards(key) == {PAIR.code: [0, 3]}
    again = open_shelf(decks)  # a new process: from the cache entry, the same cards
    assert again.cards("mixed", PAIR) == first.cards("mixed", PAIR)
    with open_store(tmp_path / "p.json", tz=UTC) as store:
        shelf_queue = StudyService(store, again).due_cards("mixed", PAIR, NOW)
        assert shelf_queue == store.due_cards(deck, [PAIR], NOW)


@pytest.mark.parametrize("lie", [[0, 1, 2, 3], [0, 9], [3, 0], "all", [0.0]])
def test_a_lying_cards_entry_is_caught_and_computed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lie: object
) -> None:
    decks, deck = _shelf_with_mixed(tmp_path, monkeypatch)
    key = read_summary(decks / "mixed.toml").key
    deckcache.put_cards(key, {PAIR.code: lie})
    with open_store(tmp_path / "p.json", tz=UTC) as store:
        service = StudyService(store, open_shelf(decks))
        queue = service.due_cards("mixed", PAIR, NOW)
        assert queue == store.due_cards(deck, [PAIR], NOW)
        assert [k.concept_uid for k in queue.cards] == ["mixed/a", "mixed/d"]
        assert service.counts("mixed", PAIR, NOW) == (2, 0)
    assert open_shelf(decks).cards("mixed", PAIR) == list(queue.cards)
