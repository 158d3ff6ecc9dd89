"""The character diff between a typed answer and the form it came closest to, as data.

Cut at grapheme clusters, so a Bengali vowel sign or an Arabic haraka never leaves
its letter; the UI colours the runs (:class:`DiffSegment`).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Literal

from rapidfuzz.distance import Levenshtein

from quizzer.concepts.normalize import comparison_key, graphemes, normalize

DiffOp = Literal["equal", "extra", "missing"]


@dataclass(frozen=True, slots=True)
class DiffSegment:
    """A run of the character diff.

    ``equal``: typed and expected agree; ``extra``: typed but not expected;
    ``missing``: expected but not typed. Joining equal+extra gives the typed
    text, equal+missing the expected form.
    """

    op: DiffOp
    text: str


def char_diff(typed: str, expected: str, lang: str) -> tuple[DiffSegment, ...]:
    """A grapheme-cluster diff of ``typed`` against ``expected`` for the UI to colour.

    Clusters compare by their normalised key with accents kept, so case and
    Arabic harakat don't count as differences but French accents do. Clusters
    that are invisible (tatweel, a lone joiner) ride along with a neighbour;
    punctuation compares as itself, so an agreeing ``)`` is never marked.
    Where one cluster was typed for one expected and they share their base
    letter («ন্স» for «ন্সি»), only the differing vowel signs or marks are
    marked: the smallest edit, never a whole letter shown struck and re-typed.
    Between two agreeing runs the differences read as one ``extra`` run then one
    ``missing`` run («টিউনিন» for «টিউনিং»: extra «নিন», missing «নিং»), never
    interleaved pieces; runs never split a grapheme cluster.
    """

    def clusters(text: str) -> tuple[list[str], list[str]]:
        if not normalize(text, lang):
            # Only punctuation or markup ("[/]"): every character counts as written.
            parts = graphemes(text)
            return parts, [comparison_key(c, lang) or " " for c in parts]
        texts: list[str] = []
        keys: list[str] = []
        pending = ""
        for cluster in graphemes(text):
            key = normalize(cluster, lang) if cluster.strip() else " "
            if key == "" and not _invisible(cluster):
                key = cluster  # punctuation: agrees only with itself
            if key == "" and texts:
                texts[-1] += cluster
            elif key == "":
                pending += cluster
            else:
                texts.append(pending + cluster)
                keys.append(key)
                pending = ""
        if pending:
            texts.append(pending)
            keys.append("")
        return texts, keys

    typed_texts, typed_keys = clusters(typed.strip())
    exp_texts, exp_keys = clusters(expected.strip())
    segments: list[DiffSegment] = []

    def emit(op: DiffOp, text: str) -> None:
        if not text:
            return
        if segments and segments[-1].op == op:
            segments[-1] = DiffSegment(op, segments[-1].text + text)
        else:
            segments.append(DiffSegment(op, text))

    # Between two runs that agree, all that was typed is one "extra" run and all
    # that was expected one "missing" run: interleaved replace/insert steps
    # («নি»→«নিং», then an extra «ন») would read as a jumble of pieces.
    extra: list[str] = []
    missing: list[str] = []
    for code in Levenshtein.opcodes(typed_keys, exp_keys):
        if code.tag == "equal":
            emit("extra", "".join(extra))
            emit("missing", "".join(missing))
            extra.clear()
            missing.clear()
            # Show the expected spelling (with its harakat) where the two agree.
            emit("equal", "".join(exp_texts[code.dest_start : code.dest_end]))
        elif code.src_end - code.src_start == 1 and code.dest_end - code.dest_start == 1:
            typed_one, exp_one = typed_texts[code.src_start], exp_texts[code.dest_start]
            base = _shared_base(typed_one, exp_one)
            if base and not extra and not missing:
                emit("equal", base)
                extra.append(typed_one[len(base) :])
                missing.append(exp_one[len(base) :])
            else:
                extra.append(typed_one)
                missing.append(exp_one)
        else:
            extra.extend(typed_texts[code.src_start : code.src_end])
            missing.extend(exp_texts[code.dest_start : code.dest_end])
    emit("extra", "".join(extra))
    emit("missing", "".join(missing))
    return tuple(segments)


def _invisible(cluster: str) -> bool:
    """Tatweel, joiners and lone marks: nothing a reader sees as a character of its own."""
    return all(unicodedata.category(ch) in ("Mn", "Me", "Cf", "Lm") for ch in cluster)


def _shared_base(typed: str, expected: str) -> str:
    """The common start of two clusters when it ends before a mark («ন্স», «ন্সি» → «ন্স»).

    Empty when the clusters differ in their base letter: then the whole cluster differs.
    """
    n = 0
    while n < min(len(typed), len(expected)) and typed[n] == expected[n]:
        n += 1
    rest = typed[n:] + expected[n:]
    if n == 0 or not rest or unicodedata.category(rest[0])[0] != "M":
        return ""
    if any(unicodedata.category(ch)[0] != "M" for ch in typed[n:] + expected[n:]):
        return ""
    return typed[:n]
