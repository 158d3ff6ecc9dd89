"""Which language each glossary entry is written in: the script first, then a detector.

* The script of an entry's letters (term and definition together) decides when only one
  language lingua knows is written in it: Bengali script is Bengali, Hangul Korean, kana
  Japanese, Greek Greek.
* Within a script shared by several languages (Latin, Cyrillic, Arabic, Devanagari, Han)
  lingua decides, restricted to the languages that script allows
  (:mod:`quizzer.glossary.language_id_detector`), over term and definition together: a
  term alone is often an acronym or an English loan (``GPTQ``, ``Scale Factor``) in any
  glossary, and the definition carries the sentence.
* A file is surveyed first: a sample of its entries, each read by a fast detector over
  every candidate of their script, gives the languages the file holds; then each entry is
  decided among those few. The sample's majority and any language with a third of it are
  surely in the file. Any other language the sample names (at least once in a hundred)
  is one of the file's only when the full detector confirms it: at least half of the
  entries that voted for it are read as it, and surely (:data:`CONFIRM_SURE`), against
  the languages surely there. French entries that are a tenth of an English file are
  confirmed (the full detector is all but certain of each); a detector's slips in a file
  of one language (Marathi read in a Hindi glossary, Malay in an Indonesian one) are
  not, so such a file is never split by them, and a mixed file (French entries in a
  Bengali glossary) is still tagged entry by entry.
* Each entry of a mixed file is read by the fast detector among the file's languages
  first, and its answer taken when it is sure (:data:`FAST_SURE`) and names a language
  the survey trusts: the sample's majority when it alone is surely there; when two or
  more are, those of them the full detector confirms as above (on a file of one-line
  definitions the fast reading can name a neighbour for a third of the entries, 99.9%
  sure of some: Portuguese in a Spanish glossary, Malay in an Indonesian one).
  Every other entry is decided at full accuracy. The fast detector is sure of more short
  entries than the full one is; between close languages (Malay slips in an Indonesian
  glossary, where Malay holds a sixth of the sample) its sureness would tag entries the
  full detector can't tell, so an answer naming a language the survey found only a few
  times is checked.
* An entry that can't be told (no letters, or a script lingua doesn't know) takes the
  majority of its file, and the report says so with a note; when nothing in the file can
  be told, the import stops and asks for ``--lang TAG``, which overrides detection.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import quizzer.glossary.language_id_detector as detector
from quizzer.concepts.languages import LanguageTagError, check_language, language_name
from quizzer.errors import SourceError
from quizzer.glossary.scripts import SCRIPT_NAMES, entry_script, run_re

#: Entries of one script surveyed to find the languages a file holds (evenly spread).
SURVEY_SIZE = 300
#: Entries decided in one call of the detector (which spreads them over the cores); the
#: progress bar moves once per batch.
DECIDE_BATCH = 2000
#: An entry decided among several languages with less confidence than this can't be told:
#: it takes the majority of the entries in its script (Indonesian and Malay, Spanish and
#: Galician share most of their words; a short entry can lean either way).
SURE = 0.75
#: A language the survey names for at least this share of its sample (and at least once)
#: is checked by the full detector; rarer votes are not worth loading its model for.
SURVEY_SHARE = 1 / 100
#: Entries that voted for a language checked by the full detector, at most.
CONFIRM_SAMPLE = 30
#: The full detector confirms a language an entry voted for at this confidence or more.
CONFIRM_SURE = 0.9
#: The fast detector's answer for an entry is taken at this confidence or more (when it
#: names a language the survey trusts); below, the entry is decided at full accuracy.
FAST_SURE = 0.99
#: A language with at least this share of the surveyed entries is surely in the file (and
#: its sure fast answers are taken when the full detector confirms it, or it is alone).
TRUSTED_SHARE = 1 / 3


class LanguageIdError(SourceError):
    """An entry's language can't be told, or ``--lang`` is not a language; ``line`` is
    1-based."""


@dataclass(frozen=True, slots=True)
class FileLanguage:
    """One language of a file: how many entries have it and their mean confidence (0–1)."""

    lang: str
    entries: int
    confidence: float


@dataclass(frozen=True, slots=True)
class Tagging:
    """The language of each entry of a file, how sure each is, and notes on entries that
    took the file's majority."""

    langs: tuple[str, ...]
    confidences: tuple[float, ...]
    #: (term line, what happened): entries that couldn't be told.
    notes: tuple[tuple[int, str], ...] = ()

    def languages(self) -> tuple[FileLanguage, ...]:
        """The file's languages in the order they first come, with counts and confidence."""
        totals: dict[str, list[float]] = {}
        for lang, confidence in zip(self.langs, self.confidences, strict=True):
            totals.setdefault(lang, []).append(confidence)
        return tuple(
            FileLanguage(lang, len(values), sum(values) / len(values))
            for lang, values in totals.items()
        )


def _hint() -> str:
    return "say which language the file is in with --lang TAG (a BCP 47 tag: es, pt-BR, fa…)"


def _forced(forced: str, count: int) -> Tagging:
    try:
        lang = check_language(forced)
    except LanguageTagError as exc:
        raise LanguageIdError(f"--lang: {exc.problem}", None, exc.hint) from None
    return Tagging((lang,) * count, (1.0,) * count)


def _survey(
    texts: Sequence[str], indices: list[int], tags: tuple[str, ...]
) -> tuple[tuple[str, ...], frozenset[str], Counter[str], int]:
    """The languages of ``tags`` a sample of the entries at ``indices`` shows (sorted: those
    surely there and those the full detector confirms), those of them whose sure fast
    answers are taken, the votes of the sample, and its size."""
    sample = _spread(indices, SURVEY_SIZE)
    read = detector.survey([texts[i] for i in sample], tags)
    votes = Counter(v for v in read if v)
    if not votes:
        return (), frozenset(), votes, len(sample)

    def voters(lang: str) -> list[str]:
        return [texts[i] for i, vote in zip(sample, read, strict=True) if vote == lang]

    sure = _trusted(tuple(votes), votes, len(sample))
    least = max(1, math.ceil(len(sample) * SURVEY_SHARE))
    found = set(sure)
    for lang, count in votes.items():
        if lang in sure or count < least:
            continue
        if _confirmed(voters(lang)[:CONFIRM_SAMPLE], lang, tuple(sorted({*sure, lang}))):
            found.add(lang)
    trusted = sure
    if len(sure) > 1:
        # Two languages with a third of the sample each may be one language and the fast
        # reading's slips on short entries (Portuguese for 6 of 15 one-line Spanish
        # definitions, each 99.9% sure; Malay for half of an Indonesian glossary): its sure
        # answers are taken only for a language the full detector confirms. The entries
        # of one it doesn't are all decided in full.
        among = tuple(sorted(sure))
        trusted = frozenset(
            lang for lang in sure if _confirmed(voters(lang)[:CONFIRM_SAMPLE], lang, among)
        )
    return tuple(sorted(found)), trusted, votes, len(sample)


def _confirmed(voters: list[str], lang: str, among: tuple[str, ...]) -> bool:
    """Whether at least half of ``voters`` are ``lang`` to the full detector deciding
    ``among``, each at :data:`CONFIRM_SURE` or more."""
    decided = detector.decide_many(voters, among)
    sure = sum(1 for found, confidence in decided if found == lang and confidence >= CONFIRM_SURE)
    return 2 * sure >= len(voters)


#: The golden ratio's fractional part: its multiples modulo 1 spread evenly over [0, 1)
#: without repeating any period, so a sample of a file alternating two languages (or
#: any pattern) sees all of them; a plain stride of 166 saw only the even entries.
_GOLDEN = 0.6180339887498949


def _spread(indices: list[int], size: int) -> list[int]:
    """At most ``size`` of ``indices``, spread over them without following any period."""
    if len(indices) <= size:
        return indices
    n = len(indices)
    return [indices[i] for i in sorted({int((k * _GOLDEN) % 1.0 * n) for k in range(size)})]


def tag_file(
    entries: Sequence[tuple[str, str, int]],
    forced: str | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> Tagging:
    """The language of each ``(term, definition, line)``; all ``forced`` when given.

    Raises :class:`LanguageIdError` when ``forced`` is not a valid tag, or when no entry
    of the file can be told. ``progress(done, total)`` is called now and then.
    """
    total = len(entries)
    if forced is not None:
        return _forced(forced, total)
    texts = [f"{term}\n{definition}" for term, definition, _line in entries]
    langs: list[str | None] = [None] * total
    confidences = [0.0] * total
    why: dict[int, str] = {}
    leaning: dict[int, str] = {}  # what an entry not told for sure leans to
    by_script: dict[str | None, list[int]] = {}
    for i, text in enumerate(texts):
        script = entry_script(text)
        if script == "Latn":
            script = _definitions_script(entries[i][1])
        by_script.setdefault(script, []).append(i)
    _loans_in_the_main_script(texts, by_script)
    done, step = 0, max(1, total // 100)

    def tick(count: int) -> None:
        nonlocal done
        before, done = done, done + count
        if progress is not None and (done // step != before // step or done == total):
            progress(done, total)

    for script, indices in by_script.items():
        tags = detector.candidates(script) if script else ()
        if not tags:
            reason = (
                f"{SCRIPT_NAMES.get(script, script)} script, which the detector doesn't know"
                if script
                else "no letters"
            )
            why.update(dict.fromkeys(indices, reason))
            tick(len(indices))
            continue
        found, trusted, votes, surveyed = (
            (tags, frozenset(tags), Counter(), 0)
            if len(tags) == 1
            else _survey(texts, indices, tags)
        )
        if len(found) == 1:
            # One language in this script: every entry in it has it, as sure as the survey.
            share = votes[found[0]] / surveyed if surveyed else 1.0
            for i in indices:
                langs[i], confidences[i] = found[0], share
            tick(len(indices))
            continue
        if not found:
            why.update(dict.fromkeys(indices, "the detector found no language in the sample"))
            tick(len(indices))
            continue
        for start in range(0, len(indices), DECIDE_BATCH):
            batch = indices[start : start + DECIDE_BATCH]
            decided = _decide([texts[i] for i in batch], found, trusted)
            for i, (lang, confidence) in zip(batch, decided, strict=True):
                if lang is None:
                    why[i] = "too little text to go on"
                elif confidence < SURE:
                    why[i] = f"{language_name(lang)} at only {confidence:.0%}"
                    leaning[i] = lang
                    lang = None
                langs[i], confidences[i] = lang, confidence
            tick(len(batch))
    return _fill(entries, langs, confidences, why, leaning, by_script)


def _definitions_script(definition: str) -> str:
    """The script of an entry Latin letters dominate: its definition's, when that is
    another script's. An English term (``Primary key``, 10 Latin letters) with a Japanese
    definition (``表の各行を一意に識別する列。``, 8 Han characters and 5 kana) is Japanese:
    the definition carries the sentence."""
    script = entry_script(definition)
    return script if script is not None else "Latn"


#: Scripts whose files also write Han characters: a Japanese or Korean entry's Han letters
#: are its own (as :func:`~quizzer.glossary.scripts.entry_script` reads them).
_WRITES_HAN = frozenset({"Kana", "Hang"})


def _loans_in_the_main_script(texts: Sequence[str], by_script: dict[str | None, list[int]]) -> None:
    """Move to the file's main script (the most entries') the entries that Latin letters
    dominate but whose other letters are of that script.

    Latin letters among another script's are loans and acronyms (``REST API``, ``HTTP``,
    ``Web``): ``REST API`` with a Chinese definition of 11 Han characters and 7 Latin
    letters has more Latin letters than Han ones, yet it is Chinese. Only in a file mostly
    in that script: in an English file a term quoting ``देवनागरी`` or ``η`` stays Latin,
    and the French entries of a Bengali glossary have no Bengali letters.
    """
    latin = by_script.get("Latn")
    main = max(
        (s for s in by_script if s is not None), key=lambda s: len(by_script[s]), default=None
    )
    if not latin or main is None or main == "Latn":
        return
    own = {main, "Hani"} if main in _WRITES_HAN else {main}
    moved = {i for i in latin if entry_script(run_re("Latn").sub("", texts[i])) in own}
    if not moved:
        return
    by_script["Latn"] = [i for i in latin if i not in moved]
    if not by_script["Latn"]:
        del by_script["Latn"]
    by_script[main] = sorted([*by_script[main], *moved])


def _trusted(found: tuple[str, ...], votes: Counter[str], surveyed: int) -> frozenset[str]:
    """The languages of ``found`` whose sure fast answers are taken: the survey's majority
    and any with :data:`TRUSTED_SHARE` of the sample."""
    majority = max(found, key=lambda lang: votes[lang])
    clear = {lang for lang in found if votes[lang] >= surveyed * TRUSTED_SHARE}
    return frozenset({majority, *clear})


def _decide(
    texts: list[str], found: tuple[str, ...], trusted: frozenset[str]
) -> list[tuple[str | None, float]]:
    """The language among ``found`` of each text and its confidence: the fast detector's
    answer when it is sure and trusted, else the full detector's."""
    decided = detector.read_fast(texts, found)
    doubtful = [
        k
        for k, (lang, confidence) in enumerate(decided)
        if lang not in trusted or confidence < FAST_SURE
    ]
    if doubtful:
        full = detector.decide_many([texts[k] for k in doubtful], found)
        for k, answer in zip(doubtful, full, strict=True):
            decided[k] = answer
    return decided


def _fill(
    entries: Sequence[tuple[str, str, int]],
    langs: list[str | None],
    confidences: list[float],
    why: dict[int, str],
    leaning: dict[int, str],
    by_script: dict[str | None, list[int]],
) -> Tagging:
    """Entries that couldn't be told take the majority of the told entries in their script
    (else of what its entries lean to, else of the whole file), each with a note unless it
    leaned that way anyway."""
    if not why:
        return Tagging(tuple(lang or "" for lang in langs), tuple(confidences))
    told = Counter(lang for lang in langs if lang) or Counter(leaning.values())
    if not told:
        first = min(why)
        raise LanguageIdError(
            f"can't tell this entry's language ({why[first]})", entries[first][2], _hint()
        )
    majority = told.most_common(1)[0][0]
    notes: list[tuple[int, str]] = []
    for indices in by_script.values():
        in_script: Counter[str] = Counter(
            lang for i in indices if (lang := langs[i]) is not None
        ) or Counter(leaning[i] for i in indices if i in leaning)
        chosen = in_script.most_common(1)[0][0] if in_script else majority
        for i in indices:
            if i in why:
                langs[i] = chosen
                if leaning.get(i) == chosen:
                    continue
                notes.append(
                    (
                        entries[i][2],
                        f"can't tell this entry's language ({why[i]}): took "
                        f"{chosen} ({language_name(chosen)}), the file's majority",
                    )
                )
    notes.sort()
    return Tagging(tuple(lang or majority for lang in langs), tuple(confidences), tuple(notes))


def tag_entries(
    entries: Sequence[tuple[str, str, int]],
    forced: str | None = None,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> list[str]:
    """The language of each ``(term, definition, line)`` (see :func:`tag_file`)."""
    return list(tag_file(entries, forced, progress=progress).langs)


#: Letters a column's texts need in all before a detector weighing many languages (Latin,
#: Cyrillic) tells theirs: a few words alone ("perro", "gato") are as likely Italian as
#: Spanish to any detector.
COLUMN_LETTERS = 20
#: A column's language must weigh this many times the next likeliest one: on a few words
#: a closer call is as often a neighbouring language (Malay for Indonesian, Ukrainian for
#: Russian). On 255 columns of 4 to 8 common words in 13 languages, this took 232 right
#: and 3 wrong; taking any answer over half the evidence took 242 right and 6 wrong.
COLUMN_LEAD = 1.5
#: A script shared by at most this many languages (Arabic script: Arabic, Persian, Urdu;
#: Devanagari: Hindi, Marathi; Han: Chinese, Japanese) tells a column of fewer letters…
FEW_CANDIDATES = 3
#: …when the detector is at least this sure of one of them.
FEW_LETTERS_SURE = 0.9


@dataclass(frozen=True, slots=True)
class TextsLanguage:
    """The language of texts read together, or (``lang`` ``None``) why it can't be told."""

    lang: str | None
    why: str = ""


def language_of_texts(texts: Sequence[str]) -> TextsLanguage:
    """The language of ``texts`` (a column of a spreadsheet, say) read together.

    The script decides when it is only one language's (kana, Hangul, Greek…) however few
    the letters. Otherwise the texts pooled are read by lingua among the script's languages
    (the fast detector names the three likeliest, the full one decides among them); its
    answer is taken when it weighs :data:`COLUMN_LEAD` times the next one and the texts
    hold :data:`COLUMN_LETTERS` letters, or, in a script of at most
    :data:`FEW_CANDIDATES` languages, with fewer letters when it is
    :data:`FEW_LETTERS_SURE`."""
    # The texts pooled: a column of single words says little word by word.
    pooled = "\n".join(texts)
    script = entry_script(pooled)
    if script is None:
        return TextsLanguage(None, "no letters")
    tags = detector.candidates(script)
    if not tags:
        return TextsLanguage(
            None, f"{SCRIPT_NAMES.get(script, script)} script, which the detector doesn't know"
        )
    if len(tags) == 1:
        return TextsLanguage(tags[0])
    letters = sum(ch.isalpha() for ch in pooled)
    few = letters < COLUMN_LETTERS
    if few and len(tags) > FEW_CANDIDATES:
        return TextsLanguage(None, f"too few letters ({letters}) to tell which language")
    likely = detector.shortlist(pooled, tags)
    if len(likely) <= 1:
        return TextsLanguage(likely[0]) if likely else TextsLanguage(None, "no known words")
    ranked = detector.ranked(pooled, likely)
    if not ranked:
        return TextsLanguage(None, "no known words")
    (lang, confidence), (_next, runner_up) = ranked[0], ranked[1]
    if confidence >= FEW_LETTERS_SURE if few else confidence >= COLUMN_LEAD * runner_up:
        return TextsLanguage(lang)
    return TextsLanguage(
        None,
        f"too little text to tell which language ({language_name(lang)} at only "
        f"{confidence:.0%}, {language_name(_next)} {runner_up:.0%})",
    )
