"""Hypothesis strategies shared by the property tests, and their bounded settings."""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from quizzer.concepts.textrules import FORBIDDEN_RE

#: Property tests stay fast and repeatable in CI: a fixed example budget, no deadline
#: (the machine is shared), the same examples every run, no database in the repo.
BOUNDED = settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)

#: Scripts a deck holds, plus Latin with accents, digits, punctuation and markup-like
#: characters; then anything else Unicode has (but surrogates, which no file can hold).
_SCRIPTS = st.sampled_from(
    [chr(c) for c in range(0x0980, 0x0A00)]  # Bengali (virama, nukta, khanda ta…)
    + [chr(c) for c in range(0x0600, 0x0700)]  # Arabic (tashkeel, alef forms, tatweel)
    + [chr(c) for c in range(0x0400, 0x0460)]  # Cyrillic
    + list("abcdeéèêàçœßABCZ019 -_.,;:'\"\\/()[]{}<>&#*\t")
    + ["\u200c", "\u200d", "\u200e", "\u200f", "\u00a0", "\u2028", "\ufeff"]
)
_ANY = st.characters(exclude_categories=["Cs"])

#: Any character at all but surrogates (control characters included).
any_text = st.text(st.one_of(_SCRIPTS, _ANY), max_size=40)

#: Text a deck may hold: single-line plain text, not blank, no control or bidi characters.
plain_text = (
    st.text(st.one_of(_SCRIPTS, _SCRIPTS, _ANY), min_size=1, max_size=40)
    .map(lambda text: FORBIDDEN_RE.sub("", text))
    .filter(lambda text: text.strip() != "")
)
