"""Function words and letters that tell languages written in one script apart.

Latin text (French, English, Spanish, German, …) is told apart by its frequent short
words (``le``, ``the``, ``der``) and by letters peculiar to one language (``ç``,
``ñ``, ``ß``); Cyrillic Bulgarian from Russian by a few words. The tables are small
on purpose: a definition has enough function words, a term rarely any.
"""

from __future__ import annotations

import re

from quizzer.glossary.scripts import DeletingTable


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


#: Function words of Bulgarian and of Russian, for Cyrillic text without ы/э/ё.
BULGARIAN_WORDS = _wordset("са във със които това който която ще към е")
RUSSIAN_WORDS = _wordset("что это для который которые которая как или чтобы при был")

# Function words per Latin-script language: frequent, short, and mostly exclusive.
_LATIN_WORDS: dict[str, frozenset[str]] = {
    "en": _wordset(
        "the of and to in is are for with by that which this from as an on or be it its "
        "at into while without their used using between than can not more such has have "
        "was were these those each other only also when how all during across through within"
    ),
    "fr": _wordset(
        "le la les des du de un une et est sont pour dans avec sur par qui que ne pas au aux "
        "ce cette ces son sa ses leur leurs lors selon sans entre mais où aucune aucun "
        "en à plus il elle ou été être très l' d' qu' n' s' c' j'"
    ),
    "es": _wordset(
        "el la los las del de y en para con que por una es se su sus al como entre sin pero más "
        "según cuando donde muy"
    ),
    "de": _wordset(
        "der die das und ist mit für von zu den dem des ein eine einer eines nicht auf im "
        "wird werden sich auch durch oder bei zur zum beim über unter wie als nach"
    ),
    "it": _wordset(
        "il lo la l' gli della delle dei di e è per con che una un nel nella sono da sul alla "
        "degli come anche senza"
    ),
    "pt": _wordset(
        "o os as de do da dos das e é para com que uma um em no na por ao não são pelo pela "
        "mais como sem entre"
    ),
    "nl": _wordset(
        "de het een en van is voor met op te dat die in zijn niet door worden wordt ook bij naar om"
    ),
    "pl": _wordset("i w z na do się jest nie że to od przez dla oraz jak są po który która"),
    "tr": _wordset("ve bir bu için ile da de olarak olan daha gibi çok veya"),
    "sv": _wordset("och att det som en ett är för med på av till den inte om"),
}
_WORD_OWNERS: dict[str, tuple[str, ...]] = {}
for _lang, _vocab in _LATIN_WORDS.items():
    for _word in _vocab:
        _WORD_OWNERS[_word] = (*_WORD_OWNERS.get(_word, ()), _lang)

# Letters that point to one Latin-script language.
_LATIN_LETTERS: dict[str, str] = {
    "fr": "çœêëîïôûùÿâ",
    "es": "ñ¿¡",
    "de": "äöüß",
    "pt": "ãõ",
    "pl": "ąćęłńśźż",
    "tr": "ğışİ",
    "sv": "å",
}
# letter → (language, weight); é/à are shared by French, Spanish, Portuguese and Italian,
# so they are only weak French evidence.
_LETTER_WEIGHTS: dict[str, tuple[str, float]] = {
    ch: (lang, 0.5) for lang, letters in _LATIN_LETTERS.items() for ch in letters
}
_LETTER_WEIGHTS.update({"é": ("fr", 0.25), "à": ("fr", 0.25)})
# Deletes every character but those letters (Latin-range ones without a lookup miss).
_LETTER_TABLE = DeletingTable.fromkeys(range(0x250))
_LETTER_TABLE.update({ord(ch): ch for ch in _LETTER_WEIGHTS})
#: A word, with the apostrophe of an elision ("l'", "dell'"), or a lone apostrophe.
WORD_RE = re.compile(r"[^\W\d_]+'?|'", re.UNICODE)


def latin_scores(text: str) -> dict[str, float]:
    """Evidence per Latin-script language: function words, plus letters peculiar to one."""
    lowered = text.lower().replace("\u2019", "'")
    scores = dict.fromkeys(_LATIN_WORDS, 0.0)
    for word in WORD_RE.findall(lowered):
        owners = _WORD_OWNERS.get(word)
        if owners is None and word.endswith("'"):
            owners = _WORD_OWNERS.get(word[:-1])  # "aujourd'", "dell'": the word itself
        if owners:
            # A word several languages share ("de", "que") is weak evidence for each.
            for lang in owners:
                scores[lang] += 1.0 / len(owners)
    distinctive = lowered.translate(_LETTER_TABLE)  # only the letters in _LETTER_WEIGHTS
    for ch in set(distinctive):
        lang, weight = _LETTER_WEIGHTS[ch]
        scores[lang] += weight * distinctive.count(ch)
    return scores
