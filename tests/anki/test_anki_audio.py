"""Audio on the cards: Anki's text-to-speech tag on every term side, and ``--audio``
recordings made by espeak-ng, imported into Anki's own engine."""

from __future__ import annotations

import os
import shutil
import zipfile
from dataclasses import replace

import anki.collection  # noqa: F401  (anki.sound imported first hits a cycle inside anki)
import pytest
from anki.sound import SoundOrVideoTag, TTSTag

from quizzer.anki import export_apkg
from quizzer.anki.audio import audio_cache, find_voices, media_name, record_terms
from quizzer.anki.genanki_model import build_model
from quizzer.anki.locales import tts_locale
from quizzer.anki.model import FIELD_INDEX, audio_field
from quizzer.anki.model import field_name as field
from quizzer.cli.main import main
from quizzer.concepts.deck import Deck
from quizzer.errors import InputError
from quizzer.library.decks import write_deck
from tests.anki_support import fixture_deck, import_package, notes_by_uid, open_collection, recent

needs_espeak = pytest.mark.skipif(
    shutil.which("espeak-ng") is None, reason="espeak-ng is not installed (.ci/run installs it)"
)


needs_lame = pytest.mark.skipif(
    shutil.which("lame") is None, reason="LAME is not installed (.ci/run installs it)"
)


@pytest.fixture(params=["wav", "mp3"])
def encoding(request, tmp_path, monkeypatch):
    """Recordings as WAV (a PATH with espeak-ng but no LAME) or as MP3 (LAME installed);
    each test gets its own audio cache."""
    monkeypatch.setenv("QUIZZER_CACHE", str(tmp_path / "cache"))
    espeak = shutil.which("espeak-ng")
    if espeak is None:
        pytest.skip("espeak-ng is not installed (.ci/run installs it)")
    if request.param == "wav":
        only = tmp_path / "bin"
        only.mkdir()
        (only / "espeak-ng").symlink_to(espeak)
        monkeypatch.setenv("PATH", str(only))
    elif shutil.which("lame") is None:
        pytest.skip("LAME is not installed (.ci/run installs it)")
    return request.param


def _mp3_ok(data: bytes) -> bool:
    """An MP3 file: after an optional ID3v2 tag, an MPEG audio frame header that says
    something playable (a bitrate and a sample rate), and more than one frame of data."""
    if data[:3] == b"ID3" and len(data) > 10:
        data = data[10 + int.from_bytes(bytes(b & 0x7F for b in data[6:10]), "big") :]
    if len(data) < 256 or data[0] != 0xFF or data[1] & 0xE0 != 0xE0:
        return False
    bitrate, rate = data[2] >> 4, (data[2] >> 2) & 3
    return bitrate not in (0, 15) and rate != 3


def _sound_ok(data: bytes, kind: str) -> bool:
    return _mp3_ok(data) if kind == "mp3" else _wav_ok(data)


def _wav_ok(data: bytes) -> bool:
    """A WAV file with a RIFF/WAVE header, a format chunk and a non-empty data chunk."""
    if len(data) < 44 or data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        return False
    at = 12
    while at + 8 <= len(data):
        chunk, size = data[at : at + 4], int.from_bytes(data[at + 4 : at + 8], "little")
        if chunk == b"data":
            return size > 0 and at + 8 + size <= len(data)
        at += 8 + size + (size & 1)
    return False


def test_every_term_side_carries_the_tts_tag_of_its_language():
    model = build_model()
    assert len(model.templates) == 70
    for template in model.templates:
        kind, pair = template["name"].split(" ")
        source, target = pair.split("→")
        if kind in ("meaning", "translate"):  # the prompt is a term
            assert f"{{{{tts {tts_locale(source)}:{field(source, 'term')}}}}}" in template["qfmt"]
        if kind in ("term", "translate"):  # the answer is a term
            assert f"{{{{tts {tts_locale(target)}:{field(target, 'term')}}}}}" in template["afmt"]
        if kind == "term":
            assert "{{tts" not in template["qfmt"]  # a definition prompt isn't read out
    assert [tts_locale(lang) for lang in ("en", "bn", "ar", "ru", "fr")] == [
        "en_US",
        "bn_BD",
        "ar_SA",
        "ru_RU",
        "fr_FR",
    ]


def test_anki_speaks_the_prompt_term_in_its_language(tmp_path):
    deck = fixture_deck()
    out = tmp_path / "tts.apkg"
    export_apkg([deck], out, timestamp=recent(600))
    col = open_collection(tmp_path)
    try:
        import_package(col, out)
        (cid,) = col.find_cards('"Concept:fixture/lora" "card:translate ar→en"')
        (tag,) = col.get_card(cid).question_av_tags()
        assert isinstance(tag, TTSTag)
        assert tag.lang == "ar_SA" and tag.field_text == deck.concepts[0].text("ar", "term")
        (cid,) = col.find_cards('"Concept:fixture/lora" "card:translate en→bn"')
        (tag,) = col.get_card(cid).answer_av_tags()
        assert isinstance(tag, TTSTag) and tag.lang == "bn_BD"
    finally:
        col.close()


def _deck() -> Deck:
    """The fixture deck's first two concepts (deck files hold single-line texts): 7 terms."""
    deck = fixture_deck()
    return replace(deck, concepts=deck.concepts[:2])


def _export(tmp_path, capsys, name: str):
    decks_dir = tmp_path / "decks"
    decks_dir.mkdir(exist_ok=True)
    write_deck(_deck(), decks_dir / "fixture.toml")
    out = tmp_path / name
    argv = ["export", "anki", "--out", str(out), "--decks-dir", str(decks_dir), "--deck", "fixture"]
    code = main([*argv, "--audio", "--timestamp", str(int(recent(600)))])
    return code, out, capsys.readouterr()


def test_audio_gives_every_term_a_recording_anki_plays(tmp_path, capsys, encoding):
    code, out, captured = _export(tmp_path, capsys, "audio.apkg")
    assert code == 0, captured.err
    terms = {(lang, e.term.text) for c in _deck() for lang, e in c.entries.items()}
    assert f"Audio: {len(terms)} term recordings ({len(terms)} new, 0 reused" in captured.out
    assert "Package: " in captured.out and " MB with 7 sound files." in captured.out
    col = open_collection(tmp_path)
    try:
        import_package(col, out)
        media = col.media.dir()
        seen = set()
        for concept in _deck():
            note = notes_by_uid(col)[concept.uid]
            for lang in concept.languages:
                value = note.fields[FIELD_INDEX[audio_field(lang)]]
                assert value.startswith("[sound:") and value.endswith(f".{encoding}]")
                name = value[len("[sound:") : -1]
                with open(os.path.join(media, name), "rb") as sound:
                    assert _sound_ok(sound.read(), encoding), name
                seen.add(name)
        assert len(seen) == len(terms) == 7
        # the recording plays instead of the device's text-to-speech
        (cid,) = col.find_cards('"Concept:fixture/lora" "card:translate ar→en"')
        (tag,) = col.get_card(cid).question_av_tags()
        assert isinstance(tag, SoundOrVideoTag) and tag.filename in seen
    finally:
        col.close()


def test_a_re_export_reuses_the_recordings(tmp_path, capsys, encoding):
    code, first, captured = _export(tmp_path, capsys, "first.apkg")
    assert code == 0 and "(7 new, 0 reused" in captured.out
    folder = audio_cache()
    assert folder.parent == tmp_path / "cache"
    made = {path.name: path.stat().st_mtime_ns for path in folder.glob(f"*.{encoding}")}
    assert len(made) == 7
    code, second, captured = _export(tmp_path, capsys, "second.apkg")
    assert code == 0
    assert "(0 new, 7 reused" in captured.out
    assert {path.name: path.stat().st_mtime_ns for path in folder.glob(f"*.{encoding}")} == made
    with zipfile.ZipFile(first) as a, zipfile.ZipFile(second) as b:
        assert a.read("media") == b.read("media")
        assert all(a.read(str(i)) == b.read(str(i)) for i in range(7))


@needs_espeak
@needs_lame
def test_mp3_recordings_are_smaller_than_the_wav_they_come_from(tmp_path, monkeypatch):
    monkeypatch.setenv("QUIZZER_CACHE", str(tmp_path / "cache"))
    mp3 = record_terms([_deck()]).files
    only = tmp_path / "bin"
    only.mkdir()
    (only / "espeak-ng").symlink_to(shutil.which("espeak-ng"))
    monkeypatch.setenv("PATH", str(only))
    wav = record_terms([_deck()]).files
    assert set(mp3) == set(wav)
    for term in mp3:
        assert mp3[term].suffix == ".mp3" and wav[term].suffix == ".wav"
        assert mp3[term].stat().st_size < wav[term].stat().st_size / 2


@needs_espeak
def test_recording_names_hash_text_and_voice():
    voices = find_voices(["en", "fr"])
    assert media_name("LoRA", voices["en"]) == media_name("LoRA", voices["en"])
    assert media_name("LoRA", voices["en"]) != media_name("LoRA", voices["fr"])
    assert media_name("LoRA", voices["en"]) != media_name("LoRa", voices["en"])


def test_without_a_speech_engine_audio_is_a_clear_error(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    with pytest.raises(InputError):
        find_voices(["en"])
    code, out, captured = _export(tmp_path, capsys, "none.apkg")
    assert code == 2
    assert "--audio needs a speech engine" in captured.err and "espeak-ng" in captured.err
    assert "Traceback" not in captured.err
    assert not out.exists()
