"""Recordings of every term for ``quizzer export anki --audio``, made offline.

The engine is piper when it is installed and has a voice for the language (a
``<locale>*.onnx`` or ``<lang>*.onnx`` model in ``$QUIZZER_PIPER_VOICES``), else
espeak-ng with the voice :func:`quizzer.anki.locales.espeak_voice` picks for the
language's BCP 47 tag (about a hundred languages). A language no engine has a voice
for gets no recording: its cards keep Anki's ``{{tts}}`` tag, and the report says so.
The engines write WAV; when LAME is installed the recording is encoded to MP3, about a
fifth of the size (every Anki plays both).
Each file is named by a hash of engine, voice, format and text, and kept in the
user's cache dir (``audio/``): a re-export, or another deck with the same term,
reuses it instead of speaking again. A file is written to a temporary name and
renamed once complete, so an interrupted run never leaves a truncated recording
to be reused.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from hashlib import blake2b
from pathlib import Path

from quizzer.anki.locales import espeak_languages, espeak_voice, tts_locale
from quizzer.anki.model import NoteType, audio_field
from quizzer.concepts.concept import Concept
from quizzer.concepts.deck import Deck
from quizzer.errors import InputError
from quizzer.paths import cache_dir

#: Where piper voice models are looked for: ``<lang>…onnx`` files.
ENV_PIPER_VOICES = "QUIZZER_PIPER_VOICES"
#: Prefix of every recording quizzer puts in an Anki collection's media folder.
MEDIA_PREFIX = "quizzer-"

#: A term's text and language → its recording.
Recordings = Mapping[tuple[str, str], Path]
#: Zip entries of a package's media: the ``media`` map, then the files by number.
MediaEntries = Sequence[tuple[str, bytes]]


@dataclass(frozen=True, slots=True)
class Voice:
    """How to speak one language: the engine's program and its voice (name or model file)."""

    engine: str
    program: str
    voice: str
    #: LAME, to encode the recording to MP3; ``None``: keep the WAV.
    encoder: str | None = None

    @property
    def suffix(self) -> str:
        """The recording's file type: ``.mp3`` with an encoder, else ``.wav``."""
        return ".mp3" if self.encoder else ".wav"

    def command(self, out: Path) -> list[str]:
        """The command line that reads text on stdin and writes a WAV file to ``out``."""
        if self.engine == "piper":
            return [self.program, "--model", self.voice, "--output_file", str(out)]
        # -z: no pause after the last word (a quarter of a term's recording was silence)
        return [self.program, "-z", "-v", self.voice, "-w", str(out), "--stdin"]


def _piper_voice(lang: str) -> str | None:
    folder = os.environ.get(ENV_PIPER_VOICES)
    if not folder or not Path(folder).is_dir():
        return None
    # Piper names its models by locale (pt_BR-faber-medium.onnx); the language alone as well.
    for prefix in (tts_locale(lang), lang):
        models = sorted(Path(folder).glob(f"{prefix}*.onnx"))
        if models:
            return str(models[0])
    return None


def audio_cache() -> Path:
    """Where recordings are kept between exports: ``<cache dir>/audio``."""
    return cache_dir() / "audio"


def find_voices(languages: Iterable[str]) -> dict[str, Voice]:
    """A voice per language that an engine can speak (a language without one is left out:
    its cards keep Anki's text-to-speech), or an :class:`InputError` (exit 2) when no
    engine is installed at all."""
    piper, espeak, lame = shutil.which("piper"), shutil.which("espeak-ng"), shutil.which("lame")
    if not piper and not espeak:
        raise InputError(
            "--audio needs a speech engine, and none is installed",
            hint="install espeak-ng (e.g. `apt-get install espeak-ng`, `brew install "
            "espeak-ng`), or piper with a voice model in $" + ENV_PIPER_VOICES + "; "
            "without --audio the cards still speak with the device's text-to-speech",
        )
    voices: dict[str, Voice] = {}
    for lang in languages:
        model = _piper_voice(lang) if piper else None
        if piper and model:
            voices[lang] = Voice("piper", piper, model, lame)
            continue
        code = espeak_voice(lang, espeak_languages(espeak)) if espeak else None
        if espeak and code:
            voices[lang] = Voice("espeak-ng", espeak, code, lame)
    return voices


def media_name(text: str, voice: Voice) -> str:
    """The recording's file name: a hash of engine, voice, format and text (so re-exports
    reuse it)."""
    key = "\x1f".join((voice.engine, Path(voice.voice).name, voice.suffix, text))
    digest = blake2b(key.encode("utf-8"), digest_size=10).hexdigest()
    return f"{MEDIA_PREFIX}{digest}{voice.suffix}"


def is_recording(path: Path) -> bool:
    """Whether ``path`` holds a non-empty recording: a WAV file (RIFF/WAVE header and some
    samples) or an MP3 file (an ID3 tag or an MPEG audio frame sync, and some frames)."""
    try:
        with path.open("rb") as handle:
            head = handle.read(12)
        size = path.stat().st_size
    except OSError:
        return False
    if head[:4] == b"RIFF" and head[8:12] == b"WAVE":
        return size > 44
    mpeg = len(head) > 1 and head[0] == 0xFF and head[1] & 0xE0 == 0xE0
    return (mpeg or head[:3] == b"ID3") and size > 128


@dataclass(slots=True)
class AudioReport:
    """What :func:`record_terms` did: the recordings and how many were spoken anew."""

    files: dict[tuple[str, str], Path] = field(default_factory=dict)
    made: int = 0
    reused: int = 0
    folder: Path | None = None
    #: Languages no engine has a voice for: their terms keep Anki's ``{{tts}}`` tag.
    unvoiced: tuple[str, ...] = ()

    def unvoiced_notice(self) -> str | None:
        """One line naming the languages without a voice, or ``None``."""
        if not self.unvoiced:
            return None
        named = ", ".join(f"{lang} (tts {tts_locale(lang)})" for lang in self.unvoiced)
        return (
            f"No voice for {named}: those terms have no recording and their cards keep "
            "Anki's text-to-speech tag, which the device speaks if it has the language."
        )


def _run(command: list[str], stdin: bytes = b"") -> None:
    subprocess.run(command, input=stdin, check=True, capture_output=True, timeout=60)


def _speak(text: str, voice: Voice, out: Path) -> None:
    partial = out.with_name(f".{out.name}.{os.getpid()}.part")
    wav = partial.with_name(partial.name + ".wav") if voice.encoder else partial
    try:
        _run(voice.command(wav), text.encode("utf-8"))
        if voice.encoder and is_recording(wav):
            # mono speech: LAME's VBR quality 6 keeps it clear at a fifth of the WAV's size
            _run([voice.encoder, "--quiet", "-V", "6", str(wav), str(partial)])
        if not is_recording(partial):
            raise InputError(
                f"{voice.engine} made no sound for {text!r}",
                hint=f"check that `{voice.engine}` works with voice {voice.voice}",
            )
        partial.replace(out)
    except (OSError, subprocess.SubprocessError) as exc:
        raise InputError(
            f"{voice.engine} could not speak {text!r}: {exc}",
            hint=f"check that `{voice.engine}` runs, with voice {voice.voice}",
        ) from exc
    finally:
        partial.unlink(missing_ok=True)
        wav.unlink(missing_ok=True)


def record_terms(
    decks: Iterable[Deck],
    *,
    languages: Collection[str] | None = None,
    folder: Path | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> AudioReport:
    """A recording of every term of ``decks`` (in ``languages``, default all), from the
    cache or spoken now.

    ``folder`` defaults to :func:`audio_cache`. Raises :class:`InputError` when no
    engine is installed (before anything is spoken) or when the engine fails.
    """
    terms = dict.fromkeys(
        (lang, entry.term.text)
        for deck in decks
        for concept in deck
        for lang, entry in concept.entries.items()
        if languages is None or lang in languages
    )
    languages_used = sorted({lang for lang, _ in terms})
    voices = find_voices(languages_used)
    folder = folder or audio_cache()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(
            f"can't create the audio cache {folder}: {exc.strerror or exc}",
            hint="set $QUIZZER_CACHE to a writable folder",
        ) from exc
    unvoiced = tuple(lang for lang in languages_used if lang not in voices)
    report = AudioReport(folder=folder, unvoiced=unvoiced)
    missing: list[tuple[str, Voice, Path]] = []
    for lang, text in terms:
        if lang not in voices:
            continue
        out = folder / media_name(text, voices[lang])
        if is_recording(out):
            report.reused += 1
        else:
            missing.append((text, voices[lang], out))
        report.files[(lang, text)] = out
    # Each engine run is a process of its own: a few at a time use the machine's cores.
    workers = max(1, min(4, os.cpu_count() or 1))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        jobs = [pool.submit(_speak, *job) for job in missing]
        for done, job in enumerate(jobs, 1):
            job.result()  # an engine's failure stops the export with its message
            report.made += 1
            if on_progress:
                on_progress(done, len(jobs))
    return report


def with_sounds(
    fields: list[str], concept: Concept, note_type: NoteType, recordings: Recordings | None
) -> list[str]:
    """A note's ``fields`` with each term's recording in its audio field (``[sound:…]``)."""
    for lang, entry in concept.entries.items() if recordings else ():
        sound = recordings.get((lang, entry.term.text)) if recordings else None
        if sound is not None and lang in note_type.languages:
            fields[note_type.field_index[audio_field(lang)]] = f"[sound:{sound.name}]"
    return fields


def used_recordings(
    decks: Iterable[Deck], written: Collection[str], recordings: Recordings | None
) -> list[Path]:
    """The recordings of the concepts (uids) ``written`` to the package, for its media."""
    if not recordings:
        return []
    return [
        sound
        for deck in decks
        for concept in deck
        if concept.uid in written
        for lang, entry in concept.entries.items()
        if (sound := recordings.get((lang, entry.term.text))) is not None
    ]


def media_entries(files: Iterable[Path]) -> list[tuple[str, bytes]]:
    """The package's media entries: the ``media`` map (``{"0": "file name", …}``), then
    each file's bytes under its number; empty without files."""
    unique = sorted(set(files), key=lambda path: path.name)
    if not unique:
        return []
    names = {str(i): path.name for i, path in enumerate(unique)}
    entries = [("media", json.dumps(names, ensure_ascii=False).encode("utf-8"))]
    return entries + [(str(i), path.read_bytes()) for i, path in enumerate(unique)]
