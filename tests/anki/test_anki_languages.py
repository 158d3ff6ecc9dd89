"""Decks in any language export to Anki with a note type of their own language set, each
term spoken in its language's locale, and every text marked with its language and
direction; read back by Anki's own engine."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from quizzer.anki.model import BASE, note_type_for
from quizzer.cli.main import main
from tests.anki_support import import_package, open_collection

needs_espeak = pytest.mark.skipif(
    shutil.which("espeak-ng") is None, reason="espeak-ng is not installed"
)

SPANISH = """\
format = 1
id = "ml-es"
name = "Aprendizaje automático"

[[concepts]]
id = "overfitting"

[concepts.en.term]
text = "Overfitting"
source = "authored"

[concepts.en.definition]
text = "When a model learns its training data too closely to generalise."
source = "authored"

[concepts.es.term]
text = "Sobreajuste"
source = "authored"

[concepts.es.definition]
text = "Cuando un modelo aprende sus datos de entrenamiento tan de cerca que no generaliza."
source = "authored"

[[concepts]]
id = "learning-rate"

[concepts.en.term]
text = "Learning rate"
source = "authored"

[concepts.en.definition]
text = "How far each training step moves the weights."
source = "authored"

[concepts.es.term]
text = "Tasa de aprendizaje"
source = "authored"

[concepts.es.definition]
text = "Cuánto mueve los pesos cada paso del entrenamiento."
source = "authored"
"""


def _deck_file(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _export(tmp_path: Path, deck: str, *extra: str) -> Path:
    out = tmp_path / f"{deck}.apkg"
    code = main(
        [
            "export",
            "anki",
            "--out",
            str(out),
            "--deck",
            deck,
            "--decks-dir",
            str(tmp_path / "decks"),
            "--db",
            str(tmp_path / "store"),
            *extra,
        ]
    )
    assert code == 0
    return out


def _two_language_deck(lang: str, term: str, definition: str) -> str:
    """A deck file of one concept in English and ``lang``."""
    return f"""\
format = 1
id = "ml-es"
name = "Overfitting"

[[concepts]]
id = "overfitting"

[concepts.en.term]
text = "Overfitting"
source = "authored"

[concepts.en.definition]
text = "When a model learns its training data too closely to generalise."
source = "authored"

[concepts.{lang}.term]
text = "{term}"
source = "authored"

[concepts.{lang}.definition]
text = "{definition}"
source = "authored"
"""


def test_a_spanish_english_deck_has_its_own_note_type_spanish_voice_and_lang(
    tmp_path: Path,
) -> None:
    _deck_file(tmp_path / "decks", "ml-es", SPANISH)
    out = _export(tmp_path, "ml-es", "--all")
    col = open_collection(tmp_path)
    try:
        import_package(col, out)
        models = [m for m in col.models.all() if m["name"].startswith("quizzer")]
        assert [m["name"] for m in models] == ["quizzer: en es"]
        (model,) = models
        assert model["id"] == note_type_for({"es", "en"}).id != BASE.id
        fields = [f["name"] for f in model["flds"]]
        assert "Spanish term" in fields and "Spanish definition" in fields
        notes = [col.get_note(nid) for nid in col.find_notes("")]
        assert len(notes) == 2
        terms = {note["Spanish term"] for note in notes}
        assert terms == {"Sobreajuste", "Tasa de aprendizaje"}
        templates = model["tmpls"]
        html = "".join(t["qfmt"] + t["afmt"] for t in templates)
        assert "{{tts es_ES:Spanish term}}" in html
        assert "{{tts en_US:English term}}" in html
        # Every Spanish field's element says it is Spanish, left to right.
        for name in ("Spanish term", "Spanish definition"):
            for found in re.finditer(r"<(\w+)([^>]*)>\{\{" + re.escape(name) + r"\}\}", html):
                assert 'lang="es"' in found.group(2) and 'dir="ltr"' in found.group(2)
        # Anki's engine renders a card speaking Spanish in Spain's locale.
        cards = [col.get_card(cid) for cid in col.find_cards("")]
        spoken = [tag for card in cards for tag in card.question_av_tags()]
        assert any(getattr(tag, "lang", "") == "es_ES" for tag in spoken)
        rendered = "".join(card.question() + card.answer() for card in cards)
        assert 'lang="es"' in rendered and "Sobreajuste" in rendered
    finally:
        col.close()


@pytest.mark.parametrize(
    ("lang", "locale", "direction", "term", "definition"),
    [
        ("fa", "fa_IR", "rtl", "بیش‌برازش", "وقتی مدل داده‌های آموزشی را بیش از حد یاد می‌گیرد."),
        ("ur", "ur_PK", "rtl", "اوور فٹنگ", "جب ماڈل تربیتی ڈیٹا کو حد سے زیادہ سیکھ لے۔"),
        ("hi", "hi_IN", "ltr", "ओवरफ़िटिंग", "जब मॉडल प्रशिक्षण डेटा को बहुत बारीकी से सीख लेता है।"),
        ("zh-Hans", "zh_CN", "ltr", "过拟合", "模型把训练数据学得过细而无法泛化。"),
        ("pt-BR", "pt_BR", "ltr", "Sobreajuste", "Quando o modelo aprende demais os dados."),
    ],
)
def test_each_language_gets_its_locale_and_direction(
    tmp_path: Path, lang: str, locale: str, direction: str, term: str, definition: str
) -> None:
    _deck_file(tmp_path / "decks", "ml-es", _two_language_deck(lang, term, definition))
    out = _export(tmp_path, "ml-es", "--all")
    col = open_collection(tmp_path)
    try:
        import_package(col, out)
        (model,) = [m for m in col.models.all() if m["name"].startswith("quizzer")]
        html = "".join(t["qfmt"] + t["afmt"] for t in model["tmpls"])
        assert f"{{{{tts {locale}:" in html
        assert f'dir="{direction}" lang="{lang}"' in html
        assert f'[lang="{lang}"]' in model["css"] or lang == "pt-BR"  # its script's fonts
        rendered = "".join(col.get_card(cid).answer() for cid in col.find_cards(""))
        assert term in rendered
    finally:
        col.close()


@needs_espeak
def test_audio_speaks_each_language_with_its_voice_and_says_which_have_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("QUIZZER_CACHE", str(tmp_path / "cache"))
    text = _two_language_deck("zh-Hant", "過擬合", "模型把訓練資料學得過細而無法泛化。")
    _deck_file(tmp_path / "decks", "ml-es", text)
    out = _export(tmp_path, "ml-es", "--audio", "--all")
    told = capsys.readouterr().out
    # espeak-ng speaks Mandarin in simplified characters, not Chinese in traditional ones.
    assert "No voice for zh-Hant (tts zh_TW)" in told
    col = open_collection(tmp_path)
    try:
        import_package(col, out)
        notes = {col.get_note(nid)["English term"]: col.get_note(nid) for nid in col.find_notes("")}
        overfitting = notes["Overfitting"]
        assert overfitting["English audio"].startswith("[sound:quizzer-")
        assert overfitting["Chinese (Traditional) audio"] == ""  # no recording...
        (model,) = [m for m in col.models.all() if m["name"].startswith("quizzer")]
        html = "".join(t["qfmt"] + t["afmt"] for t in model["tmpls"])
        assert "{{tts zh_TW:Chinese (Traditional) term}}" in html  # ...the tts tag stays
    finally:
        col.close()


@needs_espeak
@pytest.mark.parametrize(
    ("lang", "field", "term"),
    [("fa", "Persian", "بیش‌برازش"), ("hi", "Hindi", "ओवरफ़िटिंग"), ("zh-Hans", "Chinese", "过拟合")],
)
def test_audio_records_each_language_espeak_speaks(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    lang: str,
    field: str,
    term: str,
) -> None:
    monkeypatch.setenv("QUIZZER_CACHE", str(tmp_path / "cache"))
    _deck_file(tmp_path / "decks", "ml-es", _two_language_deck(lang, term, "—"))
    out = _export(tmp_path, "ml-es", "--audio", "--all")
    assert "No voice" not in capsys.readouterr().out
    col = open_collection(tmp_path)
    try:
        import_package(col, out)
        (nid,) = col.find_notes("")
        note = col.get_note(nid)
        model = col.models.get(note.mid)
        assert model is not None
        names = [f["name"] for f in model["flds"]]
        audio = next(name for name in names if name.startswith(field) and name.endswith("audio"))
        assert note[audio].startswith("[sound:quizzer-")
    finally:
        col.close()
