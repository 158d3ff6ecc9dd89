"""What a learner reads on a card: the bundled decks exported, imported into Anki's own engine,
rendered by it (``card.question()``/``card.answer()`` with the note type's CSS), and compared
with the HTML snapshots in ``__snapshots__/test_anki_faces/`` (``scripts/render_cards.py``
turns those into screenshots). Colours are checked with the WCAG contrast formula."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

import pytest
from anki.collection import Collection
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from quizzer.anki import export_apkg
from quizzer.anki.faces import CSS, LIGHT, NIGHT, NIGHT_SELECTORS, also_seen, label, question
from quizzer.anki.model import FIELD_INDEX, KINDS, Direction, variants_field
from quizzer.anki.notes import from_field
from quizzer.concepts.concept import Concept
from quizzer.concepts.languages import Side
from tests.anki_support import import_package, notes_by_uid, open_collection, recent
from tests.factories import bundled

if TYPE_CHECKING:
    from anki.cards import Card

#: (deck, concept, kind, from, to): every kind, an Arabic and a Bengali prompt and answer,
#: a same-language card, a reader variant on each side and a mistranslation that is not one.
CARDS = [
    ("training-efficiency", "adapters", "meaning", "ar", "en"),
    ("quantization", "quantization", "translate", "en", "bn"),
    ("training-efficiency", "lora", "term", "ru", "fr"),
    ("quantization", "gptq", "meaning", "fr", "fr"),
    ("training-efficiency", "pipeline-parallelism", "translate", "bn", "ar"),
]


class HTMLSnapshot(SingleFileSnapshotExtension):
    """One ``.html`` file per rendered face, stored as text so a diff reads."""

    _write_mode = WriteMode.TEXT
    _file_extension = "html"


def card_id(card: tuple[str, str, str, str, str]) -> str:
    _, concept, kind, source, target = card
    return f"{kind}-{source}-{target}-{concept}"


@pytest.fixture(scope="module")
def anki(tmp_path_factory):
    """The bundled decks with the directions of :data:`CARDS`, imported into Anki."""
    tmp = tmp_path_factory.mktemp("faces")
    directions = sorted({Direction(kind, a, b) for _, _, kind, a, b in CARDS})  # type: ignore[arg-type]
    out = tmp / "faces.apkg"
    export_apkg(
        [bundled("quantization"), bundled("training-efficiency")],
        out,
        directions=directions,
        timestamp=recent(600),
    )
    col = open_collection(tmp)
    import_package(col, out)
    yield col
    col.close()


def _card(col: Collection, card: tuple[str, str, str, str, str]) -> Card:
    deck, concept, kind, source, target = card
    assert kind in KINDS
    name = Direction(kind, source, target).name
    (cid,) = col.find_cards(f'"Concept:{deck}/{concept}" "card:{name}"')
    return col.get_card(cid)


def _concept(deck_id: str, concept_id: str) -> Concept:
    found = bundled(deck_id).get(concept_id)
    assert found is not None, concept_id
    return found


def _text(concept: Concept, lang: str, side: Side) -> str:
    text = concept.text(lang, side)
    assert text is not None, (concept.uid, lang, side)
    return text


def rendered(col, card) -> tuple[str, str]:
    """Front and back as Anki shows them: its ``<style>`` with the note type's CSS, then
    the rendered template."""
    found = _card(col, card)
    return found.question(), found.answer()


@pytest.mark.parametrize("face", ["front", "back"])
@pytest.mark.parametrize("card", CARDS, ids=card_id)
def test_rendered_card_matches_its_snapshot(anki, card, face, snapshot):
    """The HTML Anki renders (its style sheet is :data:`quizzer.anki.faces.CSS`, checked
    below, and not repeated in every snapshot)."""
    output = _card(anki, card).render_output()
    html = output.question_text if face == "front" else output.answer_text
    assert output.css == CSS
    assert html == snapshot.use_extension(HTMLSnapshot)


def test_front_names_the_card_in_words_and_asks_per_kind(anki):
    front, _ = rendered(anki, CARDS[0])
    assert label(Direction("meaning", "ar", "en")) == "Arabic → English · definition"
    assert ">Arabic → English · definition<" in front
    assert "meaning ar→en" not in front  # the template's technical name stays in the browser
    # the prompt's language in its own name, and its side, above the prompt
    assert '<span class="chip-lang" dir="rtl" lang="ar">العربية</span>' in front
    assert label(Direction("meaning", "fr", "fr")) == "French · term → definition"


def test_meaning_and_translate_cards_differ_beyond_a_grey_word(anki):
    meaning = Direction("meaning", "en", "bn")
    translate = Direction("translate", "en", "bn")
    assert question(meaning) != question(translate)
    front, _ = rendered(anki, CARDS[1])  # translate en→bn
    assert 'class="face kind-translate"' in front and ">Translate</span>" in front
    assert ">Say it in Bengali.<" in front
    front, _ = rendered(anki, CARDS[0])  # meaning ar→en
    assert 'class="face kind-meaning"' in front and ">Meaning</span>" in front
    # each kind has its own accent colour (badge, border, question), in both modes
    for colours in (LIGHT, NIGHT):
        assert len({colours["meaning"], colours["term"], colours["translate"]}) == 3


def test_back_shows_answer_prompt_definition_and_the_other_languages(anki):
    adapters = _concept("training-efficiency", "adapters")
    _, back = rendered(anki, CARDS[0])  # meaning ar→en
    answer = back.split('<hr id="answer">')[1]
    assert _text(adapters, "en", "definition") in answer
    assert _text(adapters, "ar", "definition") in answer  # the prompt's own definition
    assert _text(adapters, "en", "term") in answer
    for lang in ("bn", "ru", "fr"):
        term = _text(adapters, lang, "term")
        assert f'<span class="ctx-term" dir="ltr" lang="{lang}">{term}</span>' in answer
    assert 'class="ctx" dir="rtl"' not in answer  # Arabic is the prompt, not context


def test_also_seen_shows_variants_readers_meet_not_typos(anki):
    notes = notes_by_uid(anki)
    variants = {
        (uid, lang): from_field(note.fields[FIELD_INDEX[variants_field(lang)]])
        for uid, note in notes.items()
        for lang in ("en", "bn", "ar", "ru", "fr")
        if note.fields[FIELD_INDEX[variants_field(lang)]]
    }
    assert variants[("training-efficiency/adapters", "ar")] == "المحولات"
    assert variants[("quantization/quantization", "bn")] == "কোয়ান্টিফিকেশন"
    # corrected for a mistranslation, a typo, capitalisation: the original is no variant
    assert ("training-efficiency/pipeline-parallelism", "ar") not in variants
    assert ("training-efficiency/zero", "ar") not in variants
    assert ("quantization/symmetric-quantization", "fr") not in variants
    corrected_terms = [
        (deck.id, c.id, lang)
        for deck in (bundled("quantization"), bundled("training-efficiency"))
        for c in deck
        for lang in c.languages
        if c.entries[lang].term.source.kind == "corrected"
    ]
    assert len(variants) < len(corrected_terms)
    _, back = rendered(anki, CARDS[0])
    assert 'also seen:</span> <span dir="rtl" lang="ar">المحولات</span>' in back
    _, back = rendered(anki, CARDS[1])  # the Bengali answer
    assert '<span dir="ltr" lang="bn">কোয়ান্টিফিকেশন</span>' in back.split('<hr id="answer">')[1]
    _, back = rendered(anki, CARDS[4])
    assert "also seen" not in back and "التوازي الخطي" not in back


def test_also_seen_rule():
    zero = _concept("training-efficiency", "zero")
    assert (zero.entries["ar"].term.source.reason or "").startswith("Mistranslation")
    assert also_seen(zero.entries["ar"].term) is None
    assert also_seen(zero.entries["en"].term) is None  # not corrected at all


def test_tags_for_deck_direction_and_corrections(anki):
    notes = notes_by_uid(anki)
    adapters = notes["training-efficiency/adapters"]
    assert {"deck::training-efficiency", "direction::ar-en", "quizzer::corrected"} <= set(
        adapters.tags
    )
    assert "direction::en-bn" in adapters.tags  # the concept has en and bn: that card exists
    peft = notes["training-efficiency/peft"]
    assert not any(
        t.source.kind == "corrected" for _, _, t in _concept("training-efficiency", "peft").texts()
    )
    assert "quizzer::corrected" not in peft.tags


class _LanguageOfText(HTMLParser):
    """Every piece of text with the nearest ``lang`` and ``dir`` around it."""

    VOID: ClassVar[frozenset[str]] = frozenset({"br", "hr", "img", "meta", "input"})

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, str | None, str | None]] = []
        self.unlabelled: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        values = dict(attrs)
        self.stack.append((tag, values.get("lang"), values.get("dir")))

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        while self.stack and self.stack.pop()[0] != tag:
            pass

    def handle_data(self, data):
        text = re.sub(r"\[anki:play:[qa]:\d+\]", "", data).strip(" ·→")
        if not text.strip() or any(tag == "style" for tag, _, _ in self.stack):
            return
        langs = [lang for _, lang, _ in self.stack if lang]
        dirs = [d for _, _, d in self.stack if d]
        if not langs or not dirs:
            self.unlabelled.append(text)


@pytest.mark.parametrize("card", CARDS, ids=card_id)
def test_every_text_carries_its_language_and_direction(anki, card):
    for html in rendered(anki, card):
        parser = _LanguageOfText()
        parser.feed(html)
        assert parser.unlabelled == []


# --- colours and sizes, from the CSS Anki stores with the note type -------------------------


def _luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(fg: str, bg: str) -> float:
    """WCAG 2 contrast ratio of two ``#rrggbb`` colours."""
    high, low = sorted((_luminance(fg), _luminance(bg)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _variables(css: str, selector: str) -> dict[str, str]:
    match = re.search(re.escape(selector) + r"\s*\{([^}]*)\}", css)
    assert match, f"no rule for {selector}"
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})", match.group(1)))


@pytest.fixture(scope="module")
def css(anki: Collection) -> str:
    note = anki.get_note(anki.find_notes("")[0])
    model = anki.models.get(note.mid)
    assert model is not None
    return str(model["css"])


#: (foreground, background, minimum): text 4.5:1, context lines 3:1 (WCAG AA, large/UI 3:1).
PAIRS = [
    ("text", "bg", 4.5),  # prompt, answer, context terms
    ("muted", "bg", 3.0),  # context definitions, label, chips, also seen
    ("meaning", "bg", 4.5),  # the question sentence and chip language, per kind
    ("term", "bg", 4.5),
    ("translate", "bg", 4.5),
    ("badge-text", "meaning", 4.5),
    ("badge-text", "term", 4.5),
    ("badge-text", "translate", 4.5),
]


@pytest.mark.parametrize("mode", ["light", "night"])
def test_contrast_in_light_and_night_mode(css, mode):
    colours = _variables(css, ".card" if mode == "light" else NIGHT_SELECTORS)
    assert colours == (LIGHT if mode == "light" else NIGHT)
    low = {
        (fg, bg): round(ratio, 2)
        for fg, bg, least in PAIRS
        if (ratio := contrast(colours[fg], colours[bg])) < least
    }
    assert low == {}
    assert contrast("#555555", "#222222") < 3  # the formula tells the old night context apart


def test_night_mode_follows_desktop_and_ankidroid_classes(css):
    for selector in (".card.nightMode", ".card.night_mode", ".nightMode .card"):
        assert selector in css


def _font_size(css: str, selector: str) -> float:
    match = re.search(
        r"(?:^|[},\s])" + re.escape(selector) + r"[^{]*\{[^}]*font-size:\s*([\d.]+)em", css
    )
    return float(match.group(1)) if match else 1.0


def test_arabic_and_bengali_context_are_no_smaller_than_latin(css):
    context = _font_size(css, ".context")
    assert context >= 0.75
    latin = context * _font_size(css, '.ctx[lang="en"]')
    for lang in ("ar", "bn"):
        assert context * _font_size(css, f'.ctx[lang="{lang}"]') > latin
    assert _font_size(css, '.ctx[lang="ar"]') >= 1.2  # Naskh needs the size


def test_snapshots_are_kept(request):
    folder = Path(request.path).parent / "__snapshots__" / "test_anki_faces"
    assert len(list(folder.glob("*.html"))) == 2 * len(CARDS)
