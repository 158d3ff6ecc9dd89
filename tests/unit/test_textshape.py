"""Display preparation: Arabic wrapped then shaped and reordered, Bengali measured as drawn."""

from __future__ import annotations

import unicodedata

import pytest
from rich.cells import cell_len
from rich.segment import Segment

from quizzer.ui.drawn_cells import fit_line
from quizzer.ui.textshape import (
    base_direction,
    cells,
    clusters,
    display_text,
    resolve_rtl_mode,
    visual_lines,
    wrap_cells,
)

ARABIC = "التكميم هو تقليل دقة الأوزان في النماذج الكبيرة"
BENGALI = "আমি বাংলায় গান গাই"


def _presentation_forms(text: str) -> int:
    return sum(0xFE70 <= ord(ch) <= 0xFEFF for ch in text)


def test_bengali_measures_what_tmux_draws() -> None:
    # Checked in tmux 3.3 (glibc wcwidth): each spacing vowel sign takes a cell.
    assert cells(BENGALI) == 18
    assert cells("বা") == 2
    # Non-spacing marks stay zero: virama, nukta.
    assert cells("ক্ষ") == 2
    assert cells("য়") == 1
    assert cell_len(BENGALI) == 12  # Rich's own count, left alone


def test_other_scripts_measure_as_rich_does() -> None:
    for text in ("abc", "日本", "é", "Привет"):
        assert cells(text) == cell_len(text), text


def test_every_bengali_spacing_mark_is_one_cell() -> None:
    marks = [chr(cp) for cp in range(0x0980, 0x0A00) if unicodedata.category(chr(cp)) == "Mc"]
    assert len(marks) >= 9
    assert all(cells("ক" + m) == 2 for m in marks)


def test_rtl_mode_resolution() -> None:
    assert resolve_rtl_mode("auto", {"VTE_VERSION": "7600"}) == "terminal"
    assert resolve_rtl_mode("auto", {}) == "app"
    assert resolve_rtl_mode("terminal", {}) == "terminal"
    with pytest.raises(ValueError):
        resolve_rtl_mode("sideways", {})


def test_wrap_respects_width_and_keeps_words() -> None:
    lines = wrap_cells(BENGALI + " " + BENGALI, 20)
    assert all(cell_len(line) <= 20 for line in lines)
    assert " ".join(lines) == BENGALI + " " + BENGALI
    assert wrap_cells("abcdefghij", 4) == ["abcd", "efgh", "ij"]


def test_wrap_cuts_long_words_between_grapheme_clusters() -> None:
    """A word longer than the line is cut between clusters: no piece starts with a vowel
    sign (`quizzer show` once printed «ব» / «িট»)."""
    lines = wrap_cells("কিকিকিকি", 3)
    assert lines == ["কি", "কি", "কি", "কি"]
    lines = wrap_cells("প্রি-ট্রেইন্ড", 4)
    assert "".join(lines) == "প্রি-ট্রেইন্ড"
    assert all(unicodedata.category(line[0])[0] != "M" for line in lines)
    assert all(cell_len(line) <= 4 for line in lines)


def test_wrap_never_breaks_at_a_no_break_space() -> None:
    assert wrap_cells("0,1\u00a0% des", 6) == ["0,1\u00a0%", "des"]
    assert wrap_cells("une  phrase\tici", 40) == ["une phrase ici"]


def test_arabic_app_mode_is_visual_and_joined() -> None:
    lines = visual_lines(ARABIC, 20, "app")
    assert len(lines) > 1
    assert all(cell_len(line) <= 20 for line in lines)
    for line in lines:
        assert _presentation_forms(line) > len(line) // 2
    # Wrapped first, in logical order: the first line holds the first words, reversed.
    first_word = "التكميم"
    assert lines[0].endswith(display_text(first_word, "app"))


def test_arabic_terminal_mode_stays_logical() -> None:
    lines = visual_lines(ARABIC, 20, "terminal")
    assert " ".join(lines) == ARABIC
    assert _presentation_forms("".join(lines)) == 0


def test_mixed_line_keeps_latin_runs_readable() -> None:
    shown = display_text("طريقة LoRA للتكييف", "app")
    assert "LoRA" in shown
    assert base_direction("طريقة LoRA") == "R"
    assert base_direction("LoRA طريقة") == "L"


def test_non_rtl_text_is_untouched() -> None:
    assert display_text("[bold]x[/]", "app") == "[bold]x[/]"
    assert visual_lines(BENGALI, 0, "app") == [BENGALI]


def test_brackets_in_an_arabic_line_are_mirrored_into_visual_order() -> None:
    """Reordered for a terminal without bidi, "(PEFT)" must still read "(PEFT)", not ")PEFT(":
    the bracket characters swap (Unicode mirroring) when the line is reversed."""
    from quizzer.ui.textshape import shape_line

    visual = shape_line("الضبط الدقيق الفعال للمعلمات (PEFT)")
    assert visual.startswith("(PEFT) ")
    assert ")PEFT(" not in visual
    assert shape_line("نص [bold] هنا").count("[bold]") == 1


def _marks(text: str) -> list[str]:
    return sorted(ch for ch in text if unicodedata.category(ch) == "Mn")


@pytest.mark.parametrize("text", ["مسبقًا", "تحسّن الأوزان", "المُحسِّن", "שָׁלוֹם עוֹלָם"])
def test_shaping_keeps_every_mark(text: str) -> None:
    shaped = display_text(text)
    assert _marks(shaped) == _marks(text)
    # Each mark right after a letter (a terminal draws it on the cell before it).
    assert not unicodedata.combining(shaped[0])


def test_a_mark_stays_on_its_letter_in_visual_order() -> None:
    # تحسّن: the shadda sits on the seen; reversed, the seen (medial form) comes before it.
    assert display_text("تحسّن") == "\ufee6\ufeb4\u0651\ufea4\ufe97"


@pytest.mark.parametrize(
    ("text", "letters"),
    [
        ("یادگیری ماشین", "یگ"),  # Persian yeh and gaf
        ("پژوهش", "پژ"),  # Persian peh and jeh
        ("ٹھیک ہے بڑا", "ٹھیکہےڑ"),  # Urdu tteh, do-chashmi heh, heh goal, yeh barree, rreh
    ],
)
def test_persian_and_urdu_letters_are_joined(text: str, letters: str) -> None:
    shaped = display_text(text)
    assert not set(letters) & set(shaped), shaped  # each became a presentation form
    assert all(0xFB50 <= ord(ch) <= 0xFEFF for ch in shaped if not ch.isspace())


def test_hebrew_is_reordered_with_its_points() -> None:
    assert display_text("שָׁלוֹם") == "ם" + "ו\u05b9" + "ל" + "ש\u05b8\u05c1"


#: A sentence per script the width rules differ for.
SAMPLES = {
    "hi": "क्षत्रिय हिन्दी में मशीन लर्निंग मॉडल का प्रशिक्षण",
    "ja": "量子化はモデルの重みを少ないビットで保存する手法です",
    "zh": "量化是用更少的比特存储模型权重的方法",
    "fa": "یادگیری ماشین با داده‌های کم",
    "ur": "مشین لرننگ کے لیے ڈیٹا",
    "bn": BENGALI,
    "ar": "تحسّن الأوزان مسبقًا",
}


@pytest.mark.parametrize("lang", sorted(SAMPLES))
def test_cells_measure_what_the_c_library_gives_tmux(lang: str) -> None:
    from tests.e2e.tmux_support import terminal_width

    text = SAMPLES[lang]
    assert cells(text) == sum(terminal_width(ch) for ch in text)
    # A line Rich lays out 30 cells wide (the text, then blanks) is drawn 30 cells wide
    # once fitted: its border would line up.
    line = [Segment(text), Segment(" " * (30 - cell_len(text)))]
    assert sum(terminal_width(ch) for s in fit_line(line, 30) for ch in s.text) == 30


def test_cell_rules() -> None:
    assert cells("日本語") == 6  # wide: two cells each
    assert cells("ｶﾀｶﾅ") == 4  # half-width katakana: one
    assert cells("e\u0301") == 1  # a combining mark: none
    assert cells("हिन्दी") == 5  # spacing vowel signs: one each, virama none
    assert cells("می\u200cخواهم") == 7  # ZWNJ: none


@pytest.mark.parametrize("width", [3, 4, 5, 7])
@pytest.mark.parametrize("lang", ["hi", "ja", "zh", "bn"])
def test_wrapping_keeps_clusters_whole_and_lines_within_width(lang: str, width: int) -> None:
    text = SAMPLES[lang]
    lines = wrap_cells(text, width)
    assert all(cells(line) <= width for line in lines)
    # Nothing lost, and every line starts on a cluster: joined, the clusters are the text's.
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    pieces = [c for line in lines for c in clusters(line) if c != " "]
    assert pieces == [c for c in clusters(text) if c != " "]


def test_conjuncts_are_one_cluster() -> None:
    assert clusters("क्षत्रिय") == ["क्ष", "त्रि", "य"]
    assert clusters("স্ত্রী") == ["স্ত্রী"]


def test_urdu_heh_with_hamza_is_joined_with_its_hamza() -> None:
    # نقطۂ نظر: the reshaper has no forms for ۂ; decomposed (ہ and hamza above) it joins.
    shaped = display_text("نقطۂ")
    assert "\u06c2" not in shaped and "\u0654" in shaped
    assert shaped[0] == "\ufba7"  # heh goal, final form (the word ends on it, leftmost)
    assert shaped[2] == "\ufec4"  # the tah before it medial: joined to it
