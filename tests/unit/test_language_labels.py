"""The lines naming languages: both names where the line has room, the name in itself
where not, cut between grapheme clusters where even that is too long; each name drawn on
its own so the English line around it keeps reading left to right."""

from __future__ import annotations

from quizzer.cards.card import Pair
from quizzer.study.selection import StudyChoice, reverse
from quizzer.ui.language_labels import fit_caption, named, pick_caption
from quizzer.ui.textshape import cells, display_text

AR = display_text("العربية")


def test_named_draws_each_name_on_its_own() -> None:
    wide, narrow = named(lambda name: f"{name('ar')} term → {name('bn')} def", "app")
    assert wide == f"Arabic · {AR} term → Bangla · বাংলা def"
    # Shaped with its line, a line starting with an Arabic name would read right to left:
    # "def বাংলা → term العربية".
    assert narrow == f"{AR} term → বাংলা def"
    assert narrow != display_text("العربية term → বাংলা def")


def test_terminal_mode_leaves_the_names_as_written() -> None:
    assert named(lambda name: name("ar"), "terminal") == ("Arabic · العربية", "العربية")


def test_a_caption_fits_by_the_cells_the_terminal_draws() -> None:
    captions = named(lambda name: f"{name('bn')} definition", "app")
    assert cells(captions[0]) == 25  # Bengali vowel signs take a cell each
    assert fit_caption(captions, 25) == "Bangla · বাংলা definition"
    assert fit_caption(captions, 24) == "বাংলা definition"
    assert pick_caption(captions, 10) == "বাংলা definition"  # to be wrapped
    # বাং is one cluster (ব with its two signs), three cells: kept whole or left out.
    assert fit_caption(captions, 4) == "বাং…"
    assert fit_caption(captions, 3) == "…"


def test_the_session_label_names_the_languages_with_the_given_names() -> None:
    pair = Pair("ar", "term", "bn", "definition")
    choice = StudyChoice("quantization", pair)
    assert choice.pair_label() == "Arabic · العربية term → Bangla · বাংলা definition"
    both = StudyChoice("quantization", pair, also=(reverse(pair),))
    assert both.pair_label(str.upper) == "AR term → BN definition (then reverse)"
