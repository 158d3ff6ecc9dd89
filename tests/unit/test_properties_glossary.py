"""Property: the glossary reader never raises anything but its own errors, and reads back
what a glossary holds.

Any bytes through ``decode`` and ``parse`` give a glossary or a :class:`SourceError`
(never an ``IndexError``, ``UnicodeError``…); any file through the importer's
``read_glossary`` gives entries or an :class:`InputError`.
"""

from __future__ import annotations

import codecs
import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from quizzer.errors import InputError, SourceError
from quizzer.glossary.parse import decode, parse
from quizzer.library.importer import read_glossary
from tests.strategies import BOUNDED, any_text, plain_text

#: Line ends and blank-line runs a real glossary may use between lines.
_BREAKS = st.sampled_from(["\n", "\r\n", "\r", "\n\n", "\r\n\r\n", "\n \t\n"])

#: Bytes a hostile or broken file may hold: raw bytes, marks, encodings, NULs, odd lines.
_BYTES = st.one_of(
    st.binary(max_size=300),
    any_text.map(lambda text: text.encode("utf-8")),
    st.tuples(
        st.sampled_from(
            [b"", codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF32_LE]
        ),
        st.lists(any_text, max_size=8).map("\n".join),
        st.sampled_from(["utf-8", "utf-16-le", "utf-16-be", "utf-32-le", "cp1251", "latin-1"]),
    ).map(lambda parts: parts[0] + parts[1].encode(parts[2], errors="replace")),
)


@BOUNDED
@given(_BYTES)
def test_any_bytes_give_a_glossary_or_a_source_error(data: bytes) -> None:
    try:
        glossary = parse(decode(data))
    except SourceError as exc:
        assert exc.message and (exc.line is None or exc.line >= 1)
        return
    assert len(glossary.entries) >= 1
    for entry in glossary.entries:
        assert entry.term and entry.definition and entry.term_line < entry.definition_line


@BOUNDED
@given(st.lists(any_text, max_size=12), _BREAKS)
def test_any_lines_give_a_glossary_or_a_source_error(lines: list[str], end: str) -> None:
    try:
        parse(end.join(lines))
    except SourceError as exc:
        assert exc.message


def _outcome(text: str, **kw: object) -> object:
    try:
        return parse(text, **kw)  # type: ignore[arg-type]
    except SourceError as exc:
        return (exc.message, exc.line, exc.hint)


@BOUNDED
@given(st.lists(st.one_of(any_text, plain_text), max_size=12), _BREAKS, st.booleans())
def test_lines_taken_at_once_read_as_lines_taken_one_by_one(
    lines: list[str], end: str, final: bool
) -> None:
    # A progress bar makes the parser take every line in turn: the same glossary, or the
    # same error on the same line, as the lines taken at once (no blank line between them).
    text = end.join(lines) + (end if final else "")
    assert _outcome(text) == _outcome(text, progress=lambda done, total: None)


@st.composite
def glossaries(draw: st.DrawFn) -> tuple[str, str, list[tuple[str, str]]]:
    title, subtitle = draw(plain_text), draw(plain_text)
    pairs = draw(st.lists(st.tuples(plain_text, plain_text), min_size=1, max_size=8))
    return title, subtitle, pairs


@BOUNDED
@given(glossaries(), _BREAKS, st.booleans(), st.sampled_from(["utf-8", "utf-8-sig", "utf-16"]))
def test_a_glossary_reads_back_its_lines(
    glossary: tuple[str, str, list[tuple[str, str]]], end: str, final: bool, codec: str
) -> None:
    title, subtitle, pairs = glossary
    lines = [title, subtitle] + [line for pair in pairs for line in pair]
    text = end.join(lines) + (end if final else "")
    parsed = parse(decode(text.encode(codec)))
    assert (parsed.title, parsed.subtitle) == (title.strip(), subtitle.strip())
    assert [(e.term, e.definition) for e in parsed.entries] == [
        (term.strip(), definition.strip()) for term, definition in pairs
    ]


@BOUNDED
@given(_BYTES)
def test_reading_any_file_gives_entries_or_an_input_error(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "g.txt"
        path.write_bytes(data)
        try:
            source = read_glossary(path)
        except InputError as exc:
            assert exc.path == path and exc.message
            return
    assert source.entries and all(e.lang for e in source.entries)
