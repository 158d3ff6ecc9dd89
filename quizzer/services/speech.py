"""Hearing a text: espeak-ng speaks it in its language, with the voice the Anki ``--audio``
export picks for that language (:func:`quizzer.anki.locales.espeak_voice`). Without
espeak-ng, or without a voice for the language, nothing is spoken and the learner is told
why; nothing else changes."""

from __future__ import annotations

import shutil
import subprocess
import threading
from functools import cache
from pathlib import Path

from quizzer.concepts.languages import language_name

#: The longest text spoken (a definition runs to a few hundred characters).
MAX_SPOKEN = 1000


@cache
def _espeak() -> tuple[str, tuple[str, ...]] | None:
    """espeak-ng's program and its voices' language codes, asked once per run."""
    program = shutil.which("espeak-ng")
    if program is None:
        return None
    # Imported here: the study screen imports this module, and Anki's code waits until a
    # card is spoken (the first card shows without it).
    from quizzer.anki.locales import espeak_languages

    try:
        return program, espeak_languages(program)
    except (OSError, subprocess.SubprocessError):
        return None


def voice_for(lang: str) -> tuple[str, str] | None:
    """espeak-ng's program and its voice for ``lang``, or ``None`` without one."""
    found = _espeak()
    if found is None:
        return None
    program, available = found
    from quizzer.anki.locales import espeak_voice

    voice = espeak_voice(lang, available)
    return None if voice is None else (program, voice)


def speak(text: str, lang: str, *, wav: Path | None = None) -> str | None:
    """Speak ``text`` in ``lang`` without waiting for it to finish; ``None`` when it is being
    spoken, else what stops it, for the learner. ``wav`` writes the sound to that file
    instead of playing it (and waits: the file is complete when this returns)."""
    if shutil.which("espeak-ng") is None:
        return "Install espeak-ng to hear the terms (e.g. apt-get install espeak-ng)."
    found = voice_for(lang)
    if found is None:
        return f"espeak-ng has no voice for {language_name(lang)}."
    program, voice = found
    command = [program, "-z", "-v", voice, "--stdin"]
    if wav is not None:
        command += ["-w", str(wav)]
    data = text[:MAX_SPOKEN].encode("utf-8")
    try:
        process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    except OSError as exc:
        return f"Can't run espeak-ng: {exc.strerror or exc}"
    if wav is not None:
        process.communicate(data, timeout=60)
        return None
    # Spoken in the background: a thread feeds it and reaps it, the screen goes on.
    threading.Thread(target=process.communicate, args=(data,), daemon=True).start()
    return None
