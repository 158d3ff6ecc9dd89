"""Alignment of several glossaries into one deck, and idempotent merging into an existing deck."""

from __future__ import annotations

from pathlib import Path

import pytest

from quizzer.concepts import deck as deckfile
from quizzer.concepts.concept import SLUG_RE, Concept, Entry, Provenance, Text
from quizzer.concepts.deck import Deck
from quizzer.concepts.term_parts import acronym_of
from quizzer.glossary.align import align
from quizzer.glossary.entries import AlignError, SourceEntry, SourceFile
from quizzer.glossary.language_id import tag_entries
from quizzer.glossary.mapping import MappingError, parse_mapping
from quizzer.glossary.parse import decode, parse


def _get(deck: Deck, concept_id: str) -> Concept:
    """The concept ``concept_id`` of ``deck``, which must have it."""
    concept = deck.get(concept_id)
    assert concept is not None, concept_id
    return concept


ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"
BN, AR, RU = "000_048e4d4c80912def.txt", "002_8ab2fe190dc945a0.txt", "004_578e64a8672be48f.txt"
TRAINING = (BN, AR, RU)


def source(name: str, text: str | None = None) -> SourceFile:
    """Parse and tag a glossary (from data/ unless ``text`` is given)."""
    if text is None:
        text = decode((DATA / name).read_bytes())
    glossary = parse(text)
    langs = tag_entries([(e.term, e.definition, e.term_line) for e in glossary.entries])
    entries = tuple(
        SourceEntry(name, e.index, lang, e.term, e.definition, e.term_line, e.definition_line)
        for e, lang in zip(glossary.entries, langs, strict=True)
    )
    return SourceFile(name, glossary.title, entries)


def training_deck() -> deckfile.Deck:
    deck, _report = align([source(n) for n in TRAINING], deck_id="ai", deck_name="AI")
    return deck


def test_three_training_files_make_one_deck_of_16_trilingual_concepts() -> None:
    deck, report = align([source(n) for n in TRAINING], deck_id="ai", deck_name="AI")
    assert len(deck) == 16
    assert all(c.languages == ("bn", "ar", "ru") for c in deck)
    raw = {n: (DATA / n).read_text(encoding="utf-8").split("\n") for n in TRAINING}
    for i, concept in enumerate(deck):
        for lang, name in zip(("bn", "ar", "ru"), TRAINING, strict=True):
            entry = concept.entries[lang]
            assert entry.term.source.file == name
            assert entry.term.source.line == 3 + 2 * i
            assert entry.term.text == raw[name][2 + 2 * i]
            assert entry.definition.text == raw[name][3 + 2 * i]
            assert entry.definition.source.line == 4 + 2 * i
    ids = [c.id for c in deck]
    assert ids[:2] == ["peft", "lora"] and "zero" in ids and "moe" in ids
    assert ids[3] == "flash-attention"  # from the Russian term's Latin spelling
    assert len(set(ids)) == 16
    assert _get(deck, "lora").acronym == "LoRA"
    # The Arabic MoE entry has no acronym and still lands in the MoE concept, by position.
    moe = next(c for c in report.concepts if c.concept_id == "moe")
    methods = {m.entry.lang: m.method for m in moe.matches}
    assert methods == {"bn": "new", "ar": "position", "ru": "acronym+position"}
    assert moe.confidence == pytest.approx(0.9)
    assert not report.unsure


def test_realigning_the_same_files_changes_nothing() -> None:
    first = training_deck()
    again, report = align(
        [source(n) for n in TRAINING], deck_id="ai", deck_name="AI", existing=first
    )
    assert deckfile.dumps(again) == deckfile.dumps(first)
    assert {c.status for c in report.concepts} == {"unchanged"}


def test_file_order_does_not_change_the_concepts() -> None:
    a = training_deck()
    b, _ = align([source(n) for n in (RU, BN, AR)], deck_id="ai", deck_name="AI")
    by_term = {c.entries["bn"].term.text: c.entries["ar"].term.text for c in a}
    assert {c.entries["bn"].term.text: c.entries["ar"].term.text for c in b} == by_term


def test_edited_file_updates_texts_and_keeps_ids() -> None:
    first = training_deck()
    text = decode((DATA / BN).read_bytes()).split("\n")
    text[4] = "লোরা (সম্পাদিত)"  # line 5: the LoRA term, edited
    text[5] = text[5] + " সম্পাদিত।"  # line 6: its definition
    edited = source(BN, "\n".join(text))
    deck, report = align([edited], deck_id="ai", deck_name="AI", existing=first)
    assert [c.id for c in deck] == [c.id for c in first]
    lora = _get(deck, "lora")
    assert lora.entries["bn"].term.text == "লোরা (সম্পাদিত)"
    assert lora.entries["bn"].definition.text.endswith(" সম্পাদিত।")
    assert lora.entries["ar"] == _get(first, "lora").entries["ar"]
    statuses = {c.concept_id: c.status for c in report.concepts}
    assert statuses["lora"] == "updated"
    assert [k for k, v in statuses.items() if v != "unchanged"] == ["lora"]
    assert {m.method for m in report.concepts[1].matches} == {"provenance"}


def test_inserted_entry_becomes_a_new_concept_and_others_keep_their_ids() -> None:
    first = training_deck()
    lines = decode((DATA / BN).read_bytes()).split("\n")
    lines[2:2] = ["নতুন শব্দ", "একটি নতুন সংজ্ঞা।"]
    deck, report = align(
        [source(BN, "\n".join(lines))], deck_id="ai", deck_name="AI", existing=first
    )
    assert len(deck) == 17
    assert [c.id for c in deck][:16] == [c.id for c in first]
    new = deck.concepts[16]
    assert new.entries["bn"].term.text == "নতুন শব্দ" and new.languages == ("bn",)
    assert _get(deck, "peft").entries["bn"].term.source.line == 5  # moved down two lines
    assert report.count("new") == 1 and report.count("updated") == 16


def test_acronyms_align_files_in_different_orders() -> None:
    a = source(
        "a.txt",
        "T\nS\nPeft word (PEFT)\nIt is a method.\nZeRO thing (ZeRO)\nIt is a tool.\n"
        "Other thing\nIt is the other one.",
    )
    b = source(
        "b.txt",
        "T\nS\nОптимизатор (ZeRO)\nЭто фреймворк.\nЛишний\nЭто лишнее.\nМетод (PEFT)\nЭто метод.",
    )
    deck, report = align([a, b], deck_id="x", deck_name="X")
    assert [c.id for c in deck] == ["peft", "zero", "other-thing", "lishniy"]
    assert _get(deck, "zero").entries["ru"].term.text == "Оптимизатор (ZeRO)"
    assert _get(deck, "peft").entries["ru"].term.source.line == 7
    lishniy = next(c for c in report.concepts if c.concept_id == "lishniy")
    # Not parallel (the acronyms disagree with the positions), so "Лишний" stays apart,
    # flagged: it might be the Russian text of "Other thing".
    assert lishniy.unsure
    assert any("don't line up" in note for note in report.notes)


def test_parallel_files_without_acronyms_are_aligned_but_unsure() -> None:
    a = source("a.txt", "T\nS\nOne\nIt is the first.\nTwo\nIt is the second.")
    b = source("b.txt", "T\nS\nОдин\nЭто первый.\nДва\nЭто второй.")
    deck, report = align([a, b], deck_id="x", deck_name="X")
    assert len(deck) == 2 and deck.concepts[1].entries["ru"].term.text == "Два"
    assert all(c.unsure for c in report.concepts)
    assert report.concepts[0].confidence == pytest.approx(0.6)


def test_conflicting_acronyms_prevent_position_alignment() -> None:
    a = source("a.txt", "T\nS\nAlpha (ABC)\nIt is the first.\nBeta\nIt is the second.")
    b = source("b.txt", "T\nS\nАльфа (XYZ)\nЭто первый.\nБета\nЭто второй.")
    deck, report = align([a, b], deck_id="x", deck_name="X")
    assert len(deck) == 4
    assert any("don't line up" in note for note in report.notes)


def test_mapping_file_overrides_alignment() -> None:
    a = source("a.txt", "T\nS\nOne\nIt is the first.\nTwo\nIt is the second.")
    b = source("b.txt", "T\nS\nДва\nЭто второй.\nОдин\nЭто первый.")
    mapping = parse_mapping('["b.txt"]\n3 = "two"\n5 = "one"\n')
    deck, report = align([a, b], deck_id="x", deck_name="X", mapping=mapping)
    assert [c.id for c in deck] == ["one", "two"]
    assert _get(deck, "two").entries["ru"].term.text == "Два"
    assert _get(deck, "one").entries["ru"].term.text == "Один"
    assert {m.method for c in report.concepts for m in c.matches if m.entry.file == "b.txt"} == {
        "map"
    }


def test_mapping_to_an_unknown_id_or_a_definition_line_is_refused() -> None:
    """An unknown id matches nothing (it no longer makes a new concept)."""
    a = source("a.txt", "T\nS\nOne\nIt is the first.")
    with pytest.raises(MappingError, match="neither in deck 'x' nor made by this import"):
        align([a], deck_id="x", deck_name="X", mapping={("a.txt", 3): "uno"})
    with pytest.raises(MappingError, match="names a definition") as info:
        align([a], deck_id="x", deck_name="X", mapping={("a.txt", 4): "uno"})
    assert info.value.hint == 'use the line of the term: 3 = "uno"'


def test_mapping_errors() -> None:
    a = source("a.txt", "T\nS\nOne\nIt is the first.\nTwo\nIt is the second.")
    with pytest.raises(AlignError, match="holds no entry") as info:
        align([a], deck_id="x", deck_name="X", mapping={("a.txt", 99): "one"})
    assert (info.value.file, info.value.line) == ("a.txt", 99)
    with pytest.raises(AlignError, match="already has a en text") as info:
        align([a], deck_id="x", deck_name="X", mapping={("a.txt", 3): "k", ("a.txt", 5): "k"})
    assert info.value.line == 5
    with pytest.raises(AlignError, match="not valid TOML") as info:
        parse_mapping('["a.txt"]\n3 = \n')
    assert info.value.line == 2
    with pytest.raises(AlignError, match="not a concept id"):
        parse_mapping('["a.txt"]\n3 = "Not A Slug"\n')
    with pytest.raises(AlignError, match="not a line number"):
        parse_mapping('["a.txt"]\nthree = "one"\n')


def test_duplicate_file_names_are_refused() -> None:
    a = source("a.txt", "T\nS\nOne\nIt is the first.")
    with pytest.raises(AlignError, match="same file name"):
        align([a, a], deck_id="x", deck_name="X")


def test_new_ids_are_unique_slugs() -> None:
    a = source("a.txt", "T\nS\nSame term\nIt is one.\nSame term\nIt is another.\nОдин\nЭто.")
    deck, _ = align([a], deck_id="x", deck_name="X")
    assert [c.id for c in deck] == ["same-term", "same-term-2", "odin"]
    for concept in deck:
        assert SLUG_RE.match(concept.id)


@pytest.mark.parametrize(
    ("term", "acronym"),
    [
        ("প্যারামিটার এফিসিয়েন্ট ফাইন-টিউনিং (PEFT)", "PEFT"),
        ("Zero Redundancy Optimizer (ZeRO/Оптимизатор нулевой избыточности)", "ZeRO"),
        ("LoRA (Low-Rank Adaptation/Адаптация низкого ранга)", "LoRA"),
        ("GPTQ", "GPTQ"),
        ("LLM.int8()", None),
        ("SmoothQuant", None),
        ("DeepSpeed (ZeRO)", "ZeRO"),
        ("QLoRA", "QLoRA"),
        ("GPT-4", "GPT-4"),
        ("Scale (S)", None),
        ("Flash Attention", None),
        ("Scale Factor", None),
        ("لورا (التكييف منخفض الرتبة)", None),
        ("خليط الخبراء", None),
    ],
)
def test_acronym_of(term: str, acronym: str | None) -> None:
    assert acronym_of(term) == acronym


def test_importing_the_seeds_into_the_bundled_deck_changes_nothing() -> None:
    """The bundled deck's seed and corrected texts match the files, so a merge is a no-op;
    authored texts and corrections survive."""
    path = ROOT / "decks" / "training-efficiency.toml"
    assert path.exists(), "decks/training-efficiency.toml is missing"
    text = path.read_text(encoding="utf-8")
    bundled = deckfile.loads(text)
    merged, report = align(
        [source(n) for n in TRAINING], deck_id=bundled.id, deck_name=bundled.name, existing=bundled
    )
    merged = deckfile.Deck(merged.id, merged.name, merged.concepts, bundled.description)
    assert deckfile.dumps(merged) == text
    assert {c.status for c in report.concepts} == {"unchanged"}
    assert {m.method for c in report.concepts for m in c.matches} == {"text"}


def test_a_correction_survives_until_its_seed_changes() -> None:
    first = training_deck()
    lora = _get(first, "lora")
    seed = lora.entries["ar"].definition
    fixed = Concept(
        lora.id,
        lora.deck,
        lora.acronym,
        {
            **lora.entries,
            "ar": Entry(
                lora.entries["ar"].term,
                Text(
                    "نص مصحح",
                    Provenance(
                        "corrected",
                        seed.source.file,
                        seed.source.line,
                        original=seed.text,
                        reason="typo",
                    ),
                ),
            ),
        },
    )
    corrected = deckfile.Deck("ai", "AI", tuple(fixed if c.id == "lora" else c for c in first))
    again, _ = align(
        [source(n) for n in TRAINING], deck_id="ai", deck_name="AI", existing=corrected
    )
    assert deckfile.dumps(again) == deckfile.dumps(corrected)

    lines = decode((DATA / AR).read_bytes()).split("\n")
    lines[5] = "تعريف جديد للورا."
    changed, report = align(
        [source(AR, "\n".join(lines))], deck_id="ai", deck_name="AI", existing=corrected
    )
    definition = _get(changed, "lora").entries["ar"].definition
    assert (definition.text, definition.source.kind) == ("تعريف جديد للورا.", "seed")
    assert any("correction" in note for note in report.notes)


def test_reimport_with_duplicate_terms_is_idempotent() -> None:
    text = "T\nS\nSame term\nIt is one.\nSame term\nIt is another."
    first, _ = align([source("a.txt", text)], deck_id="x", deck_name="X")
    again, report = align([source("a.txt", text)], deck_id="x", deck_name="X", existing=first)
    assert deckfile.dumps(again) == deckfile.dumps(first)
    assert [m.method for c in report.concepts for m in c.matches] == ["provenance"] * 2


def test_entry_removed_from_a_file_is_kept_and_reported() -> None:
    first = training_deck()
    lines = decode((DATA / BN).read_bytes()).split("\n")
    del lines[4:6]  # LoRA's Bengali term and definition
    deck, report = align(
        [source(BN, "\n".join(lines))], deck_id="ai", deck_name="AI", existing=first
    )
    assert _get(deck, "lora").entries["bn"] == _get(first, "lora").entries["bn"]
    assert [c.id for c in deck] == [c.id for c in first]
    assert any("'lora' kept its bn texts from line 5" in note for note in report.notes)


def _arabic_without_adapters() -> SourceFile:
    lines = decode((DATA / AR).read_bytes()).split("\n")
    assert lines[6] == "المحولات"
    del lines[6:8]  # the Arabic "adapters" entry (term and definition)
    return source(AR, "\n".join(lines))


def test_an_entry_missing_from_one_parallel_file_unsettles_only_its_segment() -> None:
    deck, report = align(
        [source(BN), _arabic_without_adapters(), source(RU)], deck_id="ai", deck_name="AI"
    )
    # PEFT and ZeRO are sure in all three files; after ZeRO both files have 10 entries,
    # so those align by position; between PEFT and ZeRO the Arabic file has 3 entries
    # for 4 concepts: they stay apart, unsure, naming the concepts they likely belong to.
    assert len(deck) == 19
    first = deck.concepts[:16]
    assert all(c.languages == ("bn", "ru") for c in first[1:5])
    assert all(c.languages == ("bn", "ar", "ru") for c in (first[0], *first[5:]))
    assert _get(deck, "moe").entries["ar"].term.text == "خليط الخبراء"
    ids = [c.id for c in first]
    unsure = {c.concept_id: c for c in report.unsure}
    assert len(unsure) == 3
    likely = [unsure[c.id].likely for c in deck.concepts[16:]]
    assert likely == [(ids[1], ids[2]), (ids[2], ids[3]), (ids[3], ids[4])]
    for concept, right in zip(deck.concepts[16:], [1, 3, 4], strict=True):
        assert ids[right] in unsure[concept.id].likely  # the true concept is always named
    assert any("15 entries" in note for note in report.notes)


def test_the_likely_ids_in_a_mapping_file_complete_the_alignment() -> None:
    files = [source(BN), _arabic_without_adapters(), source(RU)]
    deck, _report = align(files, deck_id="ai", deck_name="AI")
    ids = [c.id for c in deck]
    mapping = {(AR, 5): ids[1], (AR, 7): ids[3], (AR, 9): ids[4]}
    fixed, report = align(files, deck_id="ai", deck_name="AI", mapping=mapping)
    assert len(fixed) == 16 and not report.unsure
    assert fixed.concepts[2].languages == ("bn", "ru")  # adapters: no Arabic text
    assert fixed.concepts[3].entries["ar"].term.text == "الانتباه السريع"


@pytest.mark.parametrize("name", ["quantization", "training-efficiency"])
def test_acronyms_agree_with_every_bundled_concept(name: str) -> None:
    bundled = deckfile.loads((ROOT / "decks" / f"{name}.toml").read_text(encoding="utf-8"))
    for concept in bundled:
        found = {acronym_of(t.text) for lang, side, t in concept.texts() if side == "term"}
        assert found - {None} <= {concept.acronym}, concept.id


def test_importing_003_into_the_bundled_quantization_deck_keeps_its_acronyms() -> None:
    bundled = deckfile.loads((ROOT / "decks" / "quantization.toml").read_text(encoding="utf-8"))
    merged, _report = align(
        [source("003_b43aa0d0eec52a3f.txt")],
        deck_id=bundled.id,
        deck_name=bundled.name,
        existing=bundled,
    )
    assert [(c.id, c.acronym) for c in merged] == [(c.id, c.acronym) for c in bundled]
