"""Property: any text a deck may hold writes to a deck file and reads back identically.

Both renderers (``deck.dumps`` through tomli_w and the fast ``deckwriter.dumps``) give the
same bytes, the validating loader gives back the same deck, and rendering that gives the
same bytes again.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from quizzer.concepts import deck as deckfile
from quizzer.concepts import deckwriter
from quizzer.concepts.concept import SLUG_RE, Concept, Entry, Provenance, Text
from quizzer.concepts.deck import Deck
from tests.factories import BUNDLED_LANGUAGES
from tests.strategies import BOUNDED, plain_text

slugs = st.lists(st.text("abcxyz0129", min_size=1, max_size=6), min_size=1, max_size=3).map(
    "-".join
)

provenances = st.one_of(
    st.just(Provenance("authored")),
    st.builds(
        lambda file, line: Provenance("seed", file=file, line=line),
        plain_text,
        st.integers(1, 10**6),
    ),
    st.builds(
        lambda file, line, original, reason: Provenance(
            "corrected", file=file, line=line, original=original, reason=reason
        ),
        plain_text,
        st.integers(1, 10**6),
        plain_text,
        plain_text,
    ),
)
texts = st.builds(Text, plain_text, provenances)
entries = st.builds(Entry, texts, texts)


@st.composite
def concepts(draw: st.DrawFn, cid: str, deck_id: str) -> Concept:
    langs = draw(st.lists(st.sampled_from(BUNDLED_LANGUAGES), min_size=1, max_size=3, unique=True))
    by_lang = {lang: draw(entries) for lang in BUNDLED_LANGUAGES if lang in langs}
    acronym = draw(st.one_of(st.none(), plain_text))
    return Concept(id=cid, deck=deck_id, acronym=acronym, entries=by_lang)


@st.composite
def decks(draw: st.DrawFn) -> Deck:
    deck_id = draw(slugs)
    ids = draw(st.lists(slugs, min_size=0, max_size=4, unique=True))
    description = draw(
        st.one_of(st.just(""), st.lists(plain_text, min_size=1, max_size=3).map("\n".join))
    )
    return Deck(
        id=deck_id,
        name=draw(plain_text),
        concepts=tuple(draw(concepts(cid, deck_id)) for cid in ids),
        description=description,
    )


@BOUNDED
@given(decks())
def test_any_deck_writes_and_reads_back_identically(deck: Deck) -> None:
    assert SLUG_RE.match(deck.id)
    text = deckfile.dumps(deck)
    assert deckwriter.dumps(deck) == text
    loaded = deckfile.loads(text)
    assert loaded == deck
    assert deckfile.dumps(loaded) == text


@BOUNDED
@given(st.lists(plain_text, min_size=1, max_size=20))
def test_a_deck_of_many_texts_round_trips_through_the_fast_writer(words: list[str]) -> None:
    # Big enough concepts that deckwriter renders itself instead of falling back to tomli_w.
    deck = Deck(
        id="words",
        name=words[0],
        concepts=tuple(
            Concept(
                id=f"c{i}",
                deck="words",
                acronym=None,
                entries={
                    "en": Entry(
                        Text(word + " " * 2 + "x" * 80, Provenance("authored")),
                        Text(word, Provenance("seed", file=word, line=i + 1)),
                    )
                },
            )
            for i, word in enumerate(words)
        ),
    )
    text = deckwriter.dumps(deck)
    assert text == deckfile.dumps(deck)
    assert deckfile.loads(text) == deck
