"""The import's fast paths give exactly the answers of the plain rules they replace."""

from __future__ import annotations

import random
import re
import unicodedata
from collections import Counter
from pathlib import Path

from anyascii import anyascii

from quizzer.glossary import scripts, slug

DATA = Path(__file__).resolve().parents[2] / "data"
LINES = [
    line.strip()
    for path in sorted(DATA.glob("*.txt"))
    for line in path.read_text(encoding="utf-8").splitlines()
    if line.strip()
]


def test_bengali_is_spelt_word_by_word_as_it_is_whole() -> None:
    bengali = [line for line in LINES if any("\u0980" <= ch <= "\u09ff" for ch in line)]
    assert len(bengali) > 50
    for line in bengali:
        # _bengali_word is the letter-by-letter rule run over the whole line at once.
        assert slug._bengali(line) == slug._bengali_word.__wrapped__(line), line


def test_bengali_numbers_are_spelt_apart_as_they_are_in_the_word() -> None:
    # Digit runs are spelt on their own (numbered terms would otherwise miss the word
    # cache): random words of letters, signs, virama, nukta, joiners and digits agree.
    rng = random.Random(11)
    alphabet = "কখগযড়রঅআইািুে়্\u200d\u200cংঁৎ০১৯ a-Жب৳৺\u200e(।"
    samples = ["পদ ১২৩", "৮-বিট", "ক১", "ক্১", "ক্য১", "১ক", "কো২য়", "অ্যা৩", "কaখ", "ক-্য", "ক্(য"]
    samples += [
        "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 10))) for _ in range(4000)
    ]
    for text in samples:
        assert slug._bengali(text) == slug._bengali_word.__wrapped__(text), repr(text)
    assert slug.slugify("পদ নম্বর ১২৩") == "pod-nombor-123"


def counted_dominant(text: str) -> str | None:
    """The plain rule: count every script's letters, the most (first seen on a tie) wins."""
    counts = scripts.script_counts(text)
    return counts.most_common(1)[0][0] if counts else None


def mixed_texts(seed: int, alphabet: str, longest: int, count: int) -> list[str]:
    """The glossary's lines, then ``count`` random texts of ``alphabet``'s characters."""
    rng = random.Random(seed)
    return [
        *LINES,
        *("".join(rng.choices(alphabet, k=rng.randint(0, longest))) for _ in range(count)),
    ]


def test_dominant_script_fast_path_agrees_with_counting() -> None:
    samples = ["", "123", "PEFT পদ্ধতি", "LoRA метод", "ক a"]
    samples += mixed_texts(7, "abZé Жж бاب كক খ ১ . , ( ) 9 \x01\x02αअ", 12, 6000)
    for text in samples:
        assert scripts.dominant_script(text) == counted_dominant(text), repr(text)
    assert Counter(scripts.dominant_script(line) for line in LINES)["Beng"] > 50


def test_script_of_agrees_with_the_letter_classes_everywhere() -> None:
    # The letter spans (bisected per character) and the regex classes made from them
    # (searched per text) are two views of one table: they agree on every code point.
    for point in range(0x11000):
        ch = chr(point)
        expected = next((n for n in scripts.SCRIPT_NAMES if scripts.run_re(n).fullmatch(ch)), None)
        assert scripts.script_of(ch) == expected, hex(point)
        assert (scripts._ANY_LETTER_RE.fullmatch(ch) is not None) == (expected is not None)
    assert [scripts.script_of(ch) for ch in "aকЖب১।5 "] == [
        "Latn", "Beng", "Cyrl", "Arab", None, None, None, None,
    ]  # fmt: skip


def test_slugs_made_many_at_once_are_the_slugs_made_one_by_one() -> None:
    # slugify_many spells the texts joined by line breaks: every script, joiners in and out
    # of Bengali words (U+200C is a letter's neighbour in Persian), accents, Greek final
    # sigma, the Kelvin sign, ligatures, digits, long texts cut at 48, line breaks inside.
    rng = random.Random(13)
    alphabet = [
        *"abcXYZ éÉàŁü ЖжЁё бابك کی ক খ্য র ১২৩ 0 9 -_/.(),; ΣσαİK\u212aﬁ\u200c\u200d\t",
        "অ্যা", "প্যা", "ড়", " (PEFT)", "a" * 30, "\n", "バ", "ग्र", "학", "ı",
    ]  # fmt: skip
    samples = [*LINES, "", "-", "পদ নম্বর ১২৩", "اب\u200cت", "ক\u200dর", "ΟΔΟΣ", "x" * 60]
    samples += [
        "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12))) for _ in range(3000)
    ]
    expected = [slug.slugify(text) for text in samples]
    # Each run of what a slug doesn't hold is one hyphen (ASCII text: made so by translate).
    by_pattern = [re.sub("[^a-z0-9]+", "-", slug._latin_lower(t)).strip("-") for t in samples]
    assert expected == [slug._cut(text, 48) for text in by_pattern]
    assert slug.slugify_many(samples) == expected
    without_breaks = [text.replace("\n", " ") for text in samples]
    assert slug.slugify_many(without_breaks) == [slug.slugify(t) for t in without_breaks]
    no_joiners = [t.replace("\u200c", "").replace("\u200d", "") for t in without_breaks]
    assert slug.slugify_many(no_joiners) == [slug.slugify(t) for t in no_joiners]
    assert slug.slugify_many(["Flash Attention", "লোরা ২"], max_len=5) == ["flash", "lora"]
    assert slug.slugify_many([]) == []


def test_accents_dropped_by_the_marks_found_are_the_accents_of_every_character() -> None:
    # _latin_lower removes the combining marks it finds among a text's distinct characters;
    # the plain rule tests every character of the decomposed text.
    rng = random.Random(17)
    alphabet = (
        "aeiouéèêëçñøßÅǅ\u0301\u0308\u0327\u20d7\u1dc0 Жй ΐ ḱ ḯ ক ب\u064b İıﬁ\u212bバハ\u3099학"
    )
    samples = [*LINES, "", "plain", "Éléphant", "Ça\u0327a"]
    samples += ["".join(rng.choices(alphabet, k=rng.randint(0, 20))) for _ in range(3000)]
    for text in samples:
        decomposed = unicodedata.normalize("NFKD", slug.transliterate(text))
        plain = "".join(
            ch for ch in decomposed if not unicodedata.combining(ch) or ch in "\u3099\u309a"
        )
        # What no table spells (ı, ß, Greek, kana) is spelt by anyascii, kana composed again.
        if not plain.isascii():
            plain = anyascii(unicodedata.normalize("NFC", plain))
        plain = plain.lower()
        assert slug._latin_lower(text) == plain, repr(text)
    assert slug._latin_lower("Éléphant Ça") == "elephant ca"


def test_concept_ids_named_together_are_the_ids_named_one_at_a_time() -> None:
    from quizzer.concepts.concept import Entry, Provenance, Text
    from quizzer.glossary.concept_ids import new_concept_ids
    from quizzer.glossary.slot import Slot

    def slot(acronym: str | None, **terms: str) -> Slot:
        seed = Provenance("seed", "g.txt", 3)
        entries = {lang: Entry(Text(t, seed), Text("d", seed)) for lang, t in terms.items()}
        return Slot(None, acronym, entries)

    slots = [
        slot(None, bn="লোরা ২"),
        slot(None, bn="লোরা ২"),  # the same term: its id numbered
        slot("PEFT", bn="প্যারামিটার (PEFT)"),
        slot("--", ru="Адаптеры"),  # an acronym with no slug: the term decides
        slot(None, ru="Адаптация (Low-Rank Adaptation)"),
        slot(None, fr="Quantification"),
        slot(None, bn="মডেল", ru="Модель"),
        slot(None, ar="?"),
        slot(None, en="lora"),  # taken already
    ]
    taken = {"lora"}
    # (what main's one-slot-at-a-time naming gave for these slots)
    assert new_concept_ids(slots, taken) == [
        "lora-2", "lora-2-2", "peft", "adaptery", "low-rank-adaptation",
        "quantification", "model", "concept", "lora-3",
    ]  # fmt: skip
    assert {"lora-2-2", "concept", "lora-3"} <= taken


def test_letters_counted_by_runs_with_spaces_are_the_letters_there_are() -> None:
    samples = ["", " ", "PEFT  পদ্ধতি যা", "ক a", "  কখ  "]
    samples += mixed_texts(11, "ab Z é  Жж бاب كক খ ১ .  ,(9αअ\t", 16, 3000)
    for text in samples:
        counts = scripts.script_counts(text)
        for name in ("Beng", "Latn", "Cyrl", "Arab"):
            assert scripts.letter_count(name, text) == counts[name], (name, repr(text))
