"""The glossary text format: decoding the bytes and splitting them into entries.

A glossary is plain text: line 1 a title, line 2 a subtitle, then alternating
term line / definition line. Real files vary, so the parser accepts a UTF-8 BOM,
CRLF or CR line ends, blank lines anywhere, leading/trailing spaces and a final
newline or none. Texts are otherwise kept exactly as written (no Unicode
normalisation: it would rewrite Bengali nukta letters and break the promise that
a seed text equals the file's text).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable
from dataclasses import dataclass

from quizzer.concepts.textrules import FORBIDDEN_RE, describe
from quizzer.errors import SourceError

#: Longest line accepted; longer lines are almost always a binary or minified file.
MAX_LINE_CHARS = 10_000

#: Largest glossary file read; bigger is refused unread. 50,000 entries with long
#: definitions take ~23 MB and 200,000 ~92 MB; the deck written from a glossary of this
#: size (~1.5x its bytes) stays under the deck loader's 256 MB.
MAX_GLOSSARY_BYTES = 128 * 2**20

#: Control characters (terminal escapes, NULs, bidi overrides…): never glossary text.
_CONTROL_RE = FORBIDDEN_RE


#: A line that reads as source code or markup, not as a term or a definition: a Markdown
#: heading, list item, quote, table row or code fence, an HTML tag, a comment, a Python or
#: C-like statement, a line ending in a colon or an opening brace, an assignment.
_CODE_OR_MARKUP_RE = re.compile(
    r"(?:#|```|~~~|<[A-Za-z/!]|\||[-*+>] |\d+\. |//|/\*|\{|\}|@[A-Za-z]"
    r"|(?:import|from|def|class|return|if|for|while|elif|else|try|except|with|const|let|var"
    r"|function|public|private|static|package|use|fn|#include)\b)"
    r"|.*(?:[:{;]$|\s(?:=|==|:=|\+=|->|=>)\s)"
)

#: How many entries are looked at to tell a file that is not a glossary, and what share of
#: their lines reading as code or markup refuses it. A real glossary's lines almost never
#: do (a term may end in a colon now and then); a program or a Markdown page reads so
#: from its first lines on.
_LOOKED_AT = 100
_CODE_SHARE = 0.4
#: More words than this in a term line: a sentence, not a term.
_TERM_WORDS = 12


class GlossaryError(SourceError):
    """A glossary can't be read; ``line`` is 1-based when known, ``hint`` says what to do."""


@dataclass(frozen=True, slots=True)
class GlossaryEntry:
    """One term and its definition, with their 1-based line numbers in the file."""

    index: int
    term: str
    definition: str
    term_line: int
    definition_line: int


@dataclass(frozen=True, slots=True)
class Glossary:
    """A parsed glossary: title, subtitle and entries in file order."""

    title: str
    subtitle: str
    entries: tuple[GlossaryEntry, ...]

    def __len__(self) -> int:
        return len(self.entries)


#: Byte-order marks and the encodings they announce; UTF-32's first, as UTF-32LE's mark
#: starts with UTF-16LE's.
_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)

#: C0 controls a text file may hold: what a decoding that gives others is not.
_TEXT_CONTROLS = frozenset("\t\n\r")


def decode(data: bytes) -> str:
    """Decode a glossary file's bytes: UTF-8 (BOM optional), or UTF-16/32 when it has a BOM.

    Raises :class:`GlossaryError` for binary data, for UTF-16/32 text without a BOM (named
    as such) and for bytes that aren't UTF-8.
    """
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return data.decode(encoding.lower())
            except UnicodeDecodeError as exc:
                raise GlossaryError(
                    f"file starts with a {encoding} mark but is not valid {encoding}",
                    hint="save the glossary as UTF-8 text",
                ) from exc
    nul = data.find(b"\x00")
    if nul >= 0:
        wide = wide_encoding(data)
        if wide is not None:
            raise GlossaryError(
                f"this looks like {wide} text without a byte-order mark, not UTF-8",
                hint=f"re-save it as UTF-8: `iconv -f {wide} -t UTF-8 in.txt > out.txt`",
            )
        line = data.count(b"\n", 0, nul) + 1
        start = data.rfind(b"\n", 0, nul) + 1
        column = len(data[start:nul].decode("utf-8", errors="replace")) + 1
        raise GlossaryError(
            f"a NUL byte at line {line}, column {column}: the file is not text, or is damaged",
            line=line,
            hint="give a plain-text glossary (UTF-8): title, subtitle, then term/definition "
            "lines; if this one is damaged text, remove the NUL bytes "
            "(`tr -d '\\000' < in.txt > out.txt`) and check what is left",
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise GlossaryError(
            f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start} can't be decoded)",
            line=line,
            hint=_reencode_hint(data),
        ) from exc


def wide_encoding(data: bytes) -> str | None:
    """The UTF-16/32 byte order ``data`` (with NUL bytes, without a mark) reads as, if any.

    Text in those encodings has NUL bytes in its characters' high bytes (ASCII letters,
    newlines, spaces): where most NULs sit tells the byte order. Binary data decoded so
    gives NUL or other control characters, and is not taken for text; nor is UTF-8 text with
    a stray NUL (a damaged file), which decodes without its line breaks.
    """
    sample = data[:65536]
    for width in (4, 2):
        cut = sample[: len(sample) - len(sample) % width]
        low = cut[0::width].count(0)  # NULs in the first byte of each unit
        high = cut[width - 1 :: width].count(0)  # and in its last
        encoding = f"UTF-{width * 8}{'LE' if high > low else 'BE'}"
        try:
            text = cut.decode(encoding)
        except UnicodeDecodeError:
            continue
        if not text or any(ch < " " and ch not in _TEXT_CONTROLS for ch in text):
            continue
        # Each line of wide text ends in a wide line break, whose bytes read as UTF-8 are a
        # NUL and a plain one: nearly every LF or CR byte is one. UTF-8 text with a stray
        # NUL read so has next to no line breaks (or, when it has no line, few NULs).
        breaks = text.count("\n") + text.count("\r")
        plain = cut.count(b"\n") + cut.count(b"\r")
        if (breaks * 2 >= plain) if plain else cut.count(0) * 8 >= len(cut):
            return encoding
    return None


def guess_legacy_encoding(data: bytes) -> str | None:
    """A likely 8-bit encoding for bytes that aren't UTF-8, or ``None`` when unclear.

    Accented Latin text (French, German…) has few high bytes, each inside a word of
    ASCII letters: WINDOWS-1252. Cyrillic or Arabic text is made of high bytes; it is
    Arabic (WINDOWS-1256) when nearly all of them decode to Arabic letters there,
    else Cyrillic (WINDOWS-1251). A rough guess, only used to suggest a command.
    """
    sample = data[:65536]
    high = sum(1 for b in sample if b >= 0x80)
    letters = high + sum(1 for b in sample if b < 0x80 and chr(b).isalpha())
    if not high or not letters:
        return None
    if high * 10 < letters * 3:
        return "WINDOWS-1252"
    arabic = sum(
        1 for ch in sample.decode("cp1256", errors="replace") if "\u0600" <= ch <= "\u06ff"
    )
    if arabic * 10 >= high * 9:
        return "WINDOWS-1256"
    cyrillic = sum(
        1 for ch in sample.decode("cp1251", errors="replace") if "\u0400" <= ch <= "\u04ff"
    )
    if cyrillic * 10 >= high * 9:
        return "WINDOWS-1251"
    return None


def _reencode_hint(data: bytes) -> str:
    guess = guess_legacy_encoding(data)
    if guess is None:
        return (
            "re-save the file as UTF-8 (with `iconv -f <its encoding> -t UTF-8 in.txt > "
            "out.txt`, or your editor's 'save with encoding')"
        )
    return (
        f"re-save the file as UTF-8; it looks like {guess}: "
        f"`iconv -f {guess} -t UTF-8 in.txt > out.txt`"
    )


def _split_lines(text: str) -> list[str]:
    # Only CR/LF end lines: str.splitlines() would also split on U+2028, U+0085
    # and other separators that may legitimately sit inside a glossary line.
    if "\r" in text:  # (one scan, not two replacing nothing in most files)
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.split("\n")


def _check_line(raw: str, number: int) -> None:
    if len(raw) > MAX_LINE_CHARS:
        raise GlossaryError(
            f"line is {len(raw):,} characters long (at most {MAX_LINE_CHARS:,} are accepted)",
            line=number,
            hint="is this really a glossary? each term and definition must sit on its own line",
        )
    bad = _CONTROL_RE.search(raw)
    if bad:
        raise GlossaryError(
            f"line contains {describe(f'U+{ord(bad.group()):04X}')}",
            line=number,
            hint="remove it; glossary lines hold plain text only",
        )


def parse(
    text: str,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> Glossary:
    """Parse glossary text into a :class:`Glossary`.

    ``progress(done, total)`` is called now and then with counts of lines read,
    so an adapter can show a progress bar for large files.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    raw_lines = _split_lines(text)
    total = len(raw_lines)
    # Every line checked at once (two C-level scans); only a file with a bad line is
    # checked line by line, to name the first one.
    clean = max(map(len, raw_lines)) <= MAX_LINE_CHARS and not _CONTROL_RE.search(
        " ".join(raw_lines)
    )
    stripped = [raw.strip() for raw in raw_lines]
    end = total
    while end and not stripped[end - 1]:  # the blank lines a file ends with
        end -= 1
    if clean and progress is None and end >= 4 and end % 2 == 0 and all(stripped[:end]):
        # No blank line between entries (most files) and a definition for every term: line
        # n is content line n, the entries are taken at once (a fifth of the parse was a
        # loop line by line, and as much again pairing up the lines; a progress bar wants
        # them line by line). Anything else, an error included, takes the loop.
        entries = tuple(
            map(
                GlossaryEntry,
                range((end - 2) // 2),
                stripped[2:end:2],
                stripped[3:end:2],
                range(3, end + 1, 2),
                range(4, end + 1, 2),
            )
        )
        _refuse_code_or_markup(entries)
        return Glossary(title=stripped[0], subtitle=stripped[1], entries=entries)
    content, blocks = _content(raw_lines, stripped, clean, progress)
    del stripped
    if not content:
        raise GlossaryError(
            "the file is empty",
            line=1,
            hint="a glossary has a title line, a subtitle line, then term and definition lines",
        )
    if len(content) < 4:
        last = content[-1][0]
        raise GlossaryError(
            f"only {len(content)} non-blank line(s): no term/definition pair after the "
            "title and subtitle",
            line=last,
            hint="a glossary has a title line, a subtitle line, then term and definition lines",
        )
    body = content[2:]
    if len(body) % 2:
        raise GlossaryError(
            f"odd number of lines after the title and subtitle ({len(body)}): "
            "a term is missing its definition, or a line is extra",
            line=_unpaired_line(content, blocks),
            hint="each term line must be followed by its definition line; "
            "check around the line named here",
        )
    entries = tuple(
        GlossaryEntry(
            index=i,
            term=body[2 * i][1],
            definition=body[2 * i + 1][1],
            term_line=body[2 * i][0],
            definition_line=body[2 * i + 1][0],
        )
        for i in range(len(body) // 2)
    )
    _refuse_code_or_markup(entries)
    return Glossary(title=content[0][1], subtitle=content[1][1], entries=entries)


def _refuse_code_or_markup(entries: tuple[GlossaryEntry, ...]) -> None:
    """Refuse a file whose first entries read mostly as source code, markup or prose (a
    Python module, a README): it pairs up into "terms" and "definitions" like any text file, and
    would be imported as a deck of code lines."""
    looked = entries[:_LOOKED_AT]
    lines = [
        (line, text)
        for entry in looked
        for line, text in ((entry.term_line, entry.term), (entry.definition_line, entry.definition))
    ]
    # A "term" of more than a dozen words is a sentence of prose cut into lines.
    prose = {entry.term_line for entry in looked if len(entry.term.split()) > _TERM_WORDS}
    odd = [(line, text) for line, text in lines if line in prose or _CODE_OR_MARKUP_RE.match(text)]
    if len(odd) >= 3 and len(odd) >= _CODE_SHARE * len(lines):
        line, text = odd[0]
        shown = text if len(text) <= 60 else text[:59] + "…"
        raise GlossaryError(
            f"this reads as source code, markup or prose, not a glossary: {len(odd)} of the "
            f"first {len(lines)} lines look like code, markup or sentences, the first "
            f"{shown!r}",
            line=line,
            hint="a glossary is plain text: a title line, a subtitle line, then each term on a "
            "line of its own followed by its definition on the next (see docs/importing.md); "
            "a table of terms and definitions is read as CSV or TSV (name it .csv or .tsv)",
        )


def _content(
    raw_lines: list[str],
    stripped: list[str],
    clean: bool,
    progress: Callable[[int, int], None] | None,
) -> tuple[list[tuple[int, str]], list[list[int]]]:
    """The non-blank lines as (1-based line, stripped text), and the runs of them between
    blank lines (indexes into the first), to locate a missing line; each line checked
    unless ``clean``."""
    total = len(raw_lines)
    content: list[tuple[int, str]] = []
    blocks: list[list[int]] = [[]]
    step = max(1, total // 100)
    for number, raw in enumerate(raw_lines, start=1):
        if not clean:
            _check_line(raw, number)
        line = stripped[number - 1]
        if line:
            content.append((number, line))
            blocks[-1].append(len(content) - 1)
        elif blocks[-1]:
            blocks.append([])
        if progress is not None and number % step == 0:
            progress(number, total)
    if progress is not None:
        progress(total, total)
    return content, blocks


def _unpaired_line(content: list[tuple[int, str]], blocks: list[list[int]]) -> int:
    """Best guess of the line that breaks the term/definition pairing.

    When the author separated entries with blank lines, the first block (after
    the header) that doesn't hold exactly two lines is the culprit; otherwise we
    can only name the last line, whose partner is missing.
    """
    body_blocks = []
    for block in blocks:
        rest = [i for i in block if i >= 2]
        if rest:
            body_blocks.append(rest)
    if len(body_blocks) > 1:
        for block in body_blocks:
            if len(block) != 2:
                return content[block[-1]][0] if len(block) > 2 else content[block[0]][0]
    return content[-1][0]
