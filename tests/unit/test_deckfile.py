"""Deck files: exact round trip, and validation errors that name file, concept, field and line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quizzer.concepts import deck as deckfile
from quizzer.concepts import deckwriter, tables_json
from quizzer.concepts.concept import Concept, Entry, Provenance, Text
from quizzer.concepts.deck import Deck, DeckFormatError
from quizzer.errors import InputError
from quizzer.library.decks import read_deck, write_deck


def _get(deck: Deck, concept_id: str) -> Concept:
    """The concept ``concept_id`` of ``deck``, which must have it."""
    concept = deck.get(concept_id)
    assert concept is not None, concept_id
    return concept


DECKS = Path(__file__).resolve().parents[2] / "decks"

GOOD = """format = 1
id = "mini"
name = "Mini"

[[concepts]]
id = "lora"
acronym = "LoRA"

[concepts.bn.term]
text = "লোরা"
source = "seed"
file = "000_048e4d4c80912def.txt"
line = 5

[concepts.bn.definition]
text = "সংজ্ঞা"
source = "authored"

[[concepts]]
id = "peft"

[concepts.en.term]
text = "PEFT"
source = "authored"

[concepts.en.definition]
text = "A definition."
source = "corrected"
file = "x.txt"
line = 4
original = "A defnition."
reason = "typo"
"""


def tricky_deck(controls: bool = False) -> Deck:
    """Texts that need care in TOML; with ``controls``, also characters a deck file refuses
    on load (the writers must still agree on them)."""

    def authored(text: str) -> Text:
        return Text(text, Provenance("authored"))

    texts = [
        '[bold]x[/] "quoted" \\ back\\slash',
        "<script>alert('x')</script> {{Front}}",
        "تقليم التوكن الديناميكي\u200f",
        "লোরা (লো-র্যাঙ্ক অ্যাডাপ্টেশন)",
        "a\ttab, ZWNJ \u200c and ZWJ \u200d, LRM \u200e",
        "Ёжик — «кавычки» 'single'",
    ]
    if controls:
        texts += ["line one\nline two", "controls \x01 \x7f \x1f \b \f \r end"]
    concepts = tuple(
        Concept(
            id=f"c{i}",
            deck="tricky",
            acronym="A[b]" if i == 0 else None,
            entries={"en": Entry(authored(text), authored(text[::-1]))},
        )
        for i, text in enumerate(texts)
    )
    return Deck("tricky", "Tricky [deck]", concepts, description="with 'quotes' and \\")


def test_good_deck_loads() -> None:
    deck = deckfile.loads(GOOD)
    assert [c.id for c in deck] == ["lora", "peft"]
    assert _get(deck, "lora").entries["bn"].term.source.line == 5
    assert _get(deck, "peft").entries["en"].definition.source.original == "A defnition."
    assert deck.source_counts() == {"seed": 1, "authored": 2, "corrected": 1}


def test_round_trip_of_written_text() -> None:
    text = deckfile.dumps(deckfile.loads(GOOD))
    assert deckfile.dumps(deckfile.loads(text)) == text


def test_round_trip_of_tricky_texts() -> None:
    deck = tricky_deck()
    text = deckfile.dumps(deck)
    again = deckfile.loads(text)
    assert again == deck
    assert deckfile.dumps(again) == text
    assert "লোরা" in text  # UTF-8, not \\u escapes


@pytest.mark.parametrize("path", sorted(DECKS.glob("*.toml")), ids=lambda p: p.name)
def test_bundled_deck_files_round_trip_exactly(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert deckfile.dumps(deckfile.loads(text)) == text


def test_bundled_decks_exist() -> None:
    assert {p.stem for p in DECKS.glob("*.toml")} >= {"training-efficiency", "quantization"}


def test_write_then_read_through_the_library(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "tricky.toml"
    write_deck(tricky_deck(), path)
    assert read_deck(path) == tricky_deck()
    assert [p.name for p in path.parent.iterdir()] == ["tricky.toml"]  # no temp file left


def _broken(tmp_path: Path, text: str) -> InputError:
    path = tmp_path / "broken.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as info:
        read_deck(path)
    assert str(path) in str(info.value)
    return info.value


def test_missing_source_names_file_concept_field_and_line(tmp_path: Path) -> None:
    err = _broken(tmp_path, GOOD.replace('source = "authored"\n', "", 1))
    message = str(err)
    assert "'lora'" in message and "lora.bn.definition.source" in message and "missing" in message
    assert err.line == 6  # the concept's id line
    assert f"broken.toml:{err.line}:" in message
    assert "quizzer validate" in (err.hint or "")


def test_missing_definition(tmp_path: Path) -> None:
    text = GOOD.split("[concepts.bn.definition]")[0] + GOOD.split('source = "authored"\n', 1)[1]
    err = _broken(tmp_path, text)
    assert "lora.bn.definition" in str(err) and "missing" in str(err)


def test_missing_text(tmp_path: Path) -> None:
    err = _broken(tmp_path, GOOD.replace('text = "PEFT"\n', ""))
    assert "peft.en.term.text" in str(err)
    assert err.line == 20  # id = "peft"


def test_corrected_without_original(tmp_path: Path) -> None:
    err = _broken(tmp_path, GOOD.replace('original = "A defnition."\n', ""))
    assert "peft.en.definition.original" in str(err)


def test_seed_without_line(tmp_path: Path) -> None:
    err = _broken(tmp_path, GOOD.replace("line = 5\n", ""))
    assert "lora.bn.term.line" in str(err)


def test_duplicate_concept_ids(tmp_path: Path) -> None:
    err = _broken(tmp_path, GOOD.replace('id = "peft"', 'id = "lora"'))
    assert "duplicate concept id 'lora'" in str(err)
    assert err.line == 20  # the second one's id line, not the first's


def test_unknown_language_field(tmp_path: Path) -> None:
    err = _broken(tmp_path, GOOD.replace("[concepts.bn.term]", "[concepts.xx.term]", 1))
    assert "lora.xx" in str(err) and "unknown field" in str(err)
    assert "not id, acronym or a language tag" in str(err)


def test_a_language_key_not_in_standard_form_is_refused_with_the_form(tmp_path: Path) -> None:
    err = _broken(tmp_path, GOOD.replace("[concepts.bn.", "[concepts.BN."))
    assert "write this language's key as bn" in str(err)


def test_bad_toml_names_the_line(tmp_path: Path) -> None:
    err = _broken(tmp_path, GOOD.replace('acronym = "LoRA"', "acronym = LoRA"))
    assert err.line == 7
    assert "not valid TOML" in str(err)


def test_wrong_format_version(tmp_path: Path) -> None:
    err = _broken(tmp_path, GOOD.replace("format = 1", "format = 2"))
    assert err.line == 1 and "format must be 1" in str(err)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ('format = 1\nid = "x"\nname = "X"\nconcepts = [1]\n', "concept #1 must be a table"),
        ('format = 1\nid = "x"\nname = "X"\ndescription = 3\n', "description must be a string"),
        (GOOD.replace('file = "x.txt"', "file = 3"), "peft.en.definition.file"),
        (GOOD.replace("line = 5", "line = true"), "lora.bn.term.line"),
    ],
)
def test_wrong_types_are_errors_not_crashes(tmp_path: Path, text: str, needle: str) -> None:
    assert needle in str(_broken(tmp_path, text))


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes(GOOD.replace("Mini", "Mïni").encode("latin-1", errors="replace"))
    with pytest.raises(InputError, match="not UTF-8") as info:
        read_deck(path)
    assert info.value.line == 3


def test_deck_format_error_is_a_value_error() -> None:
    with pytest.raises(DeckFormatError):
        deckfile.loads("format = 1\n")


def _tiny() -> Deck:
    text = Text("x", Provenance("authored"))
    return Deck("tiny", "Tiny", (Concept("a", "tiny", None, {"en": Entry(text, text)}),))


@pytest.mark.parametrize(
    "deck",
    [
        pytest.param(tricky_deck(), id="tricky"),
        pytest.param(tricky_deck(controls=True), id="tricky-controls"),
        pytest.param(deckfile.loads(GOOD), id="good"),
        pytest.param(_tiny(), id="tiny-inline"),
        pytest.param(Deck("empty", "Empty"), id="empty"),
        *(
            pytest.param(deckfile.loads(p.read_text(encoding="utf-8")), id=p.name)
            for p in sorted(DECKS.glob("*.toml"))
        ),
    ],
)
def test_fast_writer_matches_dumps(deck: Deck) -> None:
    assert deckwriter.dumps(deck) == deckfile.dumps(deck)


@pytest.mark.parametrize("special", ["\t", "\x7f", "\\t", '"', "\\", "\x1b", "\n", "plain"])
def test_fast_writers_match_for_each_character_they_quote_apart(special: str) -> None:
    # Seed texts (the one-f-string block) with one character each that json's escaper,
    # which both fast writers quote with, writes otherwise than TOML (tab, DEL) or alike.
    def seed(text: str, line: int) -> Text:
        return Text(text, Provenance("seed", file=f"g{special}.txt", line=line))

    concepts = tuple(
        Concept(
            id=f"c{i}",
            deck="d",
            acronym=None,
            entries={"bn": Entry(seed(f"term {i} {special} " * 4, i), seed("definition " * 9, i))},
        )
        for i in range(1, 4)
    )
    deck = Deck("d", f"Deck {special}", concepts)
    assert deckwriter.dumps(deck) == deckfile.dumps(deck)
    tables = json.dumps(deck.to_dict(), ensure_ascii=False, separators=(",", ":"))
    assert tables_json.dumps(deck) == tables


@pytest.mark.parametrize(
    ("char", "code"),
    [
        ("\x1b", "U+001B"),
        ("\x07", "U+0007"),
        ("\n", "U+000A"),
        ("\x9b", "U+009B"),
        ("\u202e", "U+202E"),
        ("\u2066", "U+2066"),
    ],
)
def test_control_and_bidi_override_characters_are_refused(
    tmp_path: Path, char: str, code: str
) -> None:
    escaped = f"\\u{ord(char):04x}"
    err = _broken(tmp_path, GOOD.replace('text = "PEFT"', f'text = "RED{escaped}[31m"'))
    assert "peft.en.term.text" in str(err) and code in str(err)
    assert err.line == 20  # the concept's id line


def test_terminal_escape_in_a_provenance_field_is_refused(tmp_path: Path) -> None:
    err = _broken(tmp_path, GOOD.replace('reason = "typo"', 'reason = "x\\u001b]0;pwned\\u0007"'))
    assert "peft.en.definition.reason" in str(err) and "U+001B" in str(err)


def test_escape_in_the_deck_name_is_refused(tmp_path: Path) -> None:
    err = _broken(tmp_path, GOOD.replace('name = "Mini"', 'name = "Mini\\u001b[2J"'))
    assert "deck name" in str(err) and "U+001B" in str(err) and err.line == 3


def test_marks_and_joiners_are_kept(tmp_path: Path) -> None:
    kept = "\u09b0\u200d\u09cd\u09af \u200c \u200e \u200f \ttab"
    deck = deckfile.loads(GOOD.replace('text = "PEFT"', f'text = "{kept}"'))
    assert _get(deck, "peft").entries["en"].term.text == kept


def test_header_fits_any_deck_not_only_the_bundled_ones() -> None:
    # User decks are imported from the user's own files: no "data/" folder, no "us".
    assert "data/" not in deckfile.HEADER and " us" not in deckfile.HEADER
    assert "glossary file, named with its line" in deckfile.HEADER
    assert deckfile.dumps(Deck("empty", "Empty")).startswith(deckfile.HEADER)


@pytest.mark.parametrize(
    "deck",
    [
        pytest.param(tricky_deck(), id="tricky"),
        pytest.param(tricky_deck(controls=True), id="tricky-controls"),
        pytest.param(deckfile.loads(GOOD), id="good"),
        pytest.param(_tiny(), id="tiny"),
        pytest.param(Deck("empty", "Empty", description='Ein "Deck"\tmit\\'), id="empty"),
        *(
            pytest.param(deckfile.loads(p.read_text(encoding="utf-8")), id=p.name)
            for p in sorted(DECKS.glob("*.toml"))
        ),
    ],
)
def test_fast_tables_json_matches_json_dumps(deck: Deck) -> None:
    expected = json.dumps(deck.to_dict(), ensure_ascii=False, separators=(",", ":"))
    assert tables_json.dumps(deck) == expected


def test_tables_json_falls_back_for_what_it_does_not_render() -> None:
    odd = Text("x", Provenance("seed", file="f.txt", line=True))
    deck = Deck("odd", "Odd", (Concept("a", "odd", None, {"en": Entry(odd, odd)}),))
    assert '"line":true' in tables_json.dumps(deck)
    assert tables_json.dumps(deck) == json.dumps(
        deck.to_dict(), ensure_ascii=False, separators=(",", ":")
    )
