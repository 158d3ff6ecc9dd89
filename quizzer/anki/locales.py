"""Which voice speaks a language: Anki's text-to-speech locale and espeak-ng's voice.

Both come from the language's BCP 47 tag and CLDR's likely subtags (langcodes), not from a
list of languages: ``es`` is most likely Spanish of Spain (``es_ES``), ``pt`` Portuguese of
Brazil, ``zh-Hans`` Chinese of China (``zh_CN``), ``fa`` Persian of Iran (``fa_IR``).
"""

from __future__ import annotations

import functools
import subprocess
from collections.abc import Collection

import langcodes

#: Where a language's text-to-speech voices are published under another region than CLDR's
#: likeliest one. Modern Standard Arabic voices ship as ``ar-SA`` (Windows, macOS, Google);
#: CLDR's likeliest Arabic is Egypt's, for which fewer devices have a voice.
_TTS_REGION_OVERRIDES: dict[str, str] = {"ar": "SA"}

#: How far (langcodes' tag distance) an espeak-ng voice's language may be from the one
#: asked for: a regional variant (de for de-CH: 4, sr for sr-Latn: 5) speaks it; a voice in
#: another script or language (Mandarin in simplified characters for zh-Hant) doesn't.
MAX_VOICE_DISTANCE = 10


def tts_locale(tag: str) -> str:
    """Anki's ``{{tts LANG_REGION:Field}}`` locale for the language ``tag``: its language
    and region, the region CLDR's likeliest when the tag names none (``es`` → ``es_ES``,
    ``pt-BR`` → ``pt_BR``, ``zh-Hans`` → ``zh_CN``, ``fa`` → ``fa_IR``). A language
    spoken in no one region (Esperanto) is its language code alone."""
    language = langcodes.Language.get(tag)
    likely = language.maximize()
    code = str(likely.language)
    region = language.territory or _TTS_REGION_OVERRIDES.get(code) or likely.territory
    if not region or not str(region).isalpha():  # "001", the world
        return code
    return f"{code}_{region}"


@functools.lru_cache(maxsize=4)
def espeak_languages(program: str) -> tuple[str, ...]:
    """The language codes of the voices ``program`` (espeak-ng) has, from ``--voices``."""
    done = subprocess.run(
        [program, "--voices"], capture_output=True, text=True, check=False, timeout=30
    )
    codes: list[str] = []
    for line in done.stdout.splitlines()[1:]:
        columns = line.split()
        if len(columns) >= 2:
            codes.append(columns[1])
    return tuple(codes)


def espeak_voice(tag: str, available: Collection[str]) -> str | None:
    """The espeak-ng voice (a language code of ``available``) for the language ``tag``, or
    ``None`` when espeak-ng has none close enough (:data:`MAX_VOICE_DISTANCE`).

    The tag's language in its likeliest region is taken as it is when espeak-ng has it
    (``en`` → ``en-us``, ``pt`` → ``pt-br``, ``fr`` → ``fr-fr``); else the closest voice by
    langcodes' distance (``zh-Hans`` → ``cmn``, Mandarin; ``es-MX`` → ``es-419``)."""
    usable = [code for code in available if "-x-" not in code and langcodes.tag_is_valid(code)]
    if not usable:
        return None
    language = langcodes.Language.get(tag)
    likely = language.maximize()
    region = language.territory or likely.territory
    by_lower = {code.lower(): code for code in usable}
    regional = f"{likely.language}-{region}".lower()
    if regional in by_lower:
        return by_lower[regional]
    found, distance = langcodes.closest_match(tag, usable, max_distance=MAX_VOICE_DISTANCE)
    return found if distance <= MAX_VOICE_DISTANCE and found != "und" else None
