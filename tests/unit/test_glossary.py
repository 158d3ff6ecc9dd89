"""The glossary parser: tolerant of real files, strict about broken ones, exact on texts."""

from __future__ import annotations

import codecs
import itertools
from pathlib import Path

import pytest

from quizzer.glossary.parse import MAX_LINE_CHARS, GlossaryError, decode, parse

DATA = Path(__file__).resolve().parents[2] / "data"
SEEDS = {
    "000_048e4d4c80912def.txt": 16,
    "002_8ab2fe190dc945a0.txt": 16,
    "003_b43aa0d0eec52a3f.txt": 20,
    "004_578e64a8672be48f.txt": 16,
}

PLAIN = "Title\nSub\nTerm one\nDefinition one.\nTerm two\nDefinition two."


@pytest.mark.parametrize(("name", "count"), SEEDS.items())
def test_seed_files_parse_with_line_numbers(name: str, count: int) -> None:
    raw = (DATA / name).read_bytes()
    glossary = parse(decode(raw))
    assert len(glossary) == count
    lines = raw.decode("utf-8").split("\n")
    assert glossary.title == lines[0]
    for entry in glossary.entries:
        assert entry.term == lines[entry.term_line - 1]
        assert entry.definition == lines[entry.definition_line - 1]
        assert entry.definition_line == entry.term_line + 1
    assert [e.term_line for e in glossary.entries] == list(range(3, 3 + 2 * count, 2))


def test_lora_is_on_line_5_of_the_russian_file() -> None:
    glossary = parse(decode((DATA / "004_578e64a8672be48f.txt").read_bytes()))
    lora = glossary.entries[1]
    assert lora.term.startswith("LoRA (Low-Rank Adaptation")
    assert (lora.term_line, lora.definition_line, lora.index) == (5, 6, 1)


@pytest.mark.parametrize(
    "variant",
    [
        PLAIN,
        PLAIN + "\n",
        PLAIN.replace("\n", "\r\n") + "\r\n",
        PLAIN.replace("\n", "\r"),
        "\ufeff" + PLAIN,
        PLAIN.replace("\n", "  \n") + "   ",
        PLAIN.replace("\nTerm", "\n\n\nTerm"),
        "\n\n" + PLAIN + "\n\n\n",
    ],
    ids=["plain", "final-newline", "crlf", "cr", "bom", "trailing-spaces", "blank-lines", "edges"],
)
def test_tolerant_variants_give_the_same_texts(variant: str) -> None:
    glossary = parse(variant)
    assert (glossary.title, glossary.subtitle) == ("Title", "Sub")
    assert [(e.term, e.definition) for e in glossary.entries] == [
        ("Term one", "Definition one."),
        ("Term two", "Definition two."),
    ]


def test_line_numbers_count_blank_lines() -> None:
    glossary = parse("T\nS\n\nA\na def\n\n\nB\nb def\n")
    assert [(e.term_line, e.definition_line) for e in glossary.entries] == [(4, 5), (8, 9)]


def test_bom_bytes_and_utf16_decode() -> None:
    assert decode(codecs.BOM_UTF8 + PLAIN.encode()) == PLAIN
    assert decode(codecs.BOM_UTF16_LE + PLAIN.encode("utf-16-le")) == PLAIN


def test_markup_and_templates_are_kept_literally() -> None:
    text = "T\nS\n[bold]x[/] <script>alert(1)</script>\n{{Front}} \\n [red]"
    entry = parse(text).entries[0]
    assert entry.term == "[bold]x[/] <script>alert(1)</script>"
    assert entry.definition == "{{Front}} \\n [red]"


def test_no_unicode_normalisation() -> None:
    # ড + nukta stays decomposed, as the file has it.
    term = "ডা\u09bc টা"
    entry = parse(f"T\nS\n{term}\ndef").entries[0]
    assert entry.term == term


def test_binary_file_is_refused() -> None:
    with pytest.raises(GlossaryError, match="the file is not text") as info:
        decode(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert info.value.line == 3  # the NUL follows the second newline
    assert info.value.message.startswith("a NUL byte at line 3, column 1:")


def test_undecodable_bytes_name_the_line() -> None:
    data = b"T\nS\nterm\n" + "définition".encode("latin-1")
    with pytest.raises(GlossaryError, match="not UTF-8") as info:
        decode(data)
    assert info.value.line == 4
    assert "UTF-8" in (info.value.hint or "")


@pytest.mark.parametrize("text", ["", "\n\n  \n", "\ufeff"])
def test_empty_file(text: str) -> None:
    with pytest.raises(GlossaryError, match="empty") as info:
        parse(text)
    assert info.value.line == 1


def test_header_only() -> None:
    with pytest.raises(GlossaryError, match="no term/definition pair") as info:
        parse("Title\nSubtitle\n")
    assert info.value.line == 2


def test_odd_line_count_names_the_unpaired_last_line() -> None:
    with pytest.raises(GlossaryError, match="odd number") as info:
        parse("T\nS\nA\na def\nB\nb def\nC")
    assert info.value.line == 7


def test_odd_line_count_with_blank_separated_entries_names_the_broken_entry() -> None:
    text = "T\nS\n\nA\na def\n\nB\n\nC\nc def\n"
    with pytest.raises(GlossaryError, match="odd number") as info:
        parse(text)
    assert info.value.line == 7  # B has no definition


def test_overlong_line() -> None:
    text = "T\nS\nterm\n" + "x" * (MAX_LINE_CHARS + 1)
    with pytest.raises(GlossaryError, match="characters long") as info:
        parse(text)
    assert info.value.line == 4
    parse("T\nS\nterm\n" + "x" * MAX_LINE_CHARS)  # the limit itself is fine


def test_control_characters_are_refused() -> None:
    with pytest.raises(GlossaryError, match="U\\+001B") as info:
        parse("T\nS\nterm \x1b[31m\ndef")
    assert info.value.line == 3


def test_progress_callback_reaches_the_total() -> None:
    calls: list[tuple[int, int]] = []
    text = "T\nS\n" + "\n".join(f"t{i}\nd{i}" for i in range(500))
    parse(text, progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (1002, 1002)
    assert len(calls) > 10
    assert all(a <= b for (a, _), (b, _) in itertools.pairwise(calls))


@pytest.mark.parametrize("char", ["\u202e", "\u2067", "\x9b", "\x07"])
def test_bidi_overrides_and_c1_controls_are_refused(char: str) -> None:
    with pytest.raises(GlossaryError, match=f"U\\+{ord(char):04X}") as info:
        parse(f"T\nS\nterm\ndef {char}inition")
    assert info.value.line == 4


def test_joiners_and_directional_marks_are_kept() -> None:
    term = "র\u200d্যাঙ্ক \u200c x\u200f"
    assert parse(f"T\nS\n{term}\ndef").entries[0].term == term


RU_TEXT = "Глоссарий ИИ\nТермины\nАдаптеры\nМодули, добавляемые в модель для обучения.\n"
AR_TEXT = "قاموس\nمصطلحات\nالمحولات\nوحدات صغيرة تضاف إلى النموذج.\n"
FR_TEXT = "Glossaire\nTermes\nQuantification Symétrique\nUne méthode où l'échelle est fixée.\n"


@pytest.mark.parametrize(
    ("text", "codec", "guess"),
    [
        (FR_TEXT, "cp1252", "WINDOWS-1252"),
        (FR_TEXT, "latin-1", "WINDOWS-1252"),
        (RU_TEXT, "cp1251", "WINDOWS-1251"),
        (AR_TEXT, "cp1256", "WINDOWS-1256"),
    ],
)
def test_non_utf8_hint_guesses_the_encoding(text: str, codec: str, guess: str) -> None:
    with pytest.raises(GlossaryError) as info:
        decode(text.encode(codec))
    assert f"iconv -f {guess} -t UTF-8" in (info.value.hint or "")


def test_non_utf8_hint_without_a_guess_is_neutral() -> None:
    data = bytes(range(0x80, 0x100)) * 4  # no language in particular
    with pytest.raises(GlossaryError) as info:
        decode(data)
    hint = info.value.hint or ""
    assert "-f <its encoding>" in hint and "WINDOWS" not in hint
