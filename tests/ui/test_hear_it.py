"""Hearing a term: Ctrl+L speaks the card's prompt (then its answer) through espeak-ng, with the
voice the Anki --audio export uses; without espeak-ng the learner is told, and nothing else
changes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from quizzer.anki.audio import find_voices
from quizzer.services.speech import speak, voice_for
from quizzer.ui.screens.study import StudyScreen
from tests.ui_support import choice, make_app, reviews

needs_espeak = pytest.mark.skipif(
    shutil.which("espeak-ng") is None,
    reason="espeak-ng is not installed (apt-get install espeak-ng)",
)


@needs_espeak
@pytest.mark.parametrize("lang", ["bn", "ar", "ru", "en"])
def test_the_voice_is_the_anki_exports(lang: str) -> None:
    found = voice_for(lang)
    assert found is not None
    assert found[1] == find_voices([lang])[lang].voice


@needs_espeak
def test_a_term_is_spoken(tmp_path: Path) -> None:
    wav = tmp_path / "term.wav"
    assert speak("লোরা (লো-র্যাঙ্ক অ্যাডাপ্টেশন)", "bn", wav=wav) is None
    data = wav.read_bytes()
    assert data[:4] == b"RIFF" and data[8:12] == b"WAVE"
    assert len(data) > 10_000  # about a second of speech, not an empty file


def test_without_espeak_the_learner_is_told(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no espeak-ng on it
    problem = speak("لورا", "ar")
    assert problem is not None and "espeak-ng" in problem


async def test_ctrl_l_in_a_session_tells_and_changes_nothing_without_espeak(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "p.json"
    app = make_app(db, choice("quantization", "en:term>bn:term", "flip"))
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StudyScreen)
        card = screen.card
        monkeypatch.setenv("PATH", str(tmp_path))
        await pilot.press("ctrl+l")
        await pilot.pause()
        assert any("espeak-ng" in n.message for n in app.notices)
        assert screen.card == card and screen.phase == "question"
        await pilot.press("q", "enter")
    assert reviews(db) == []
