"""Glossaries in UTF-16/32 are named as such, and a NUL byte in other text is located.

UTF-16 without a byte-order mark used to be called "a binary file (NUL bytes)" and UTF-32
with one "U+0000 (a control character)"; then a single NUL in UTF-8 text was called UTF-16.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quizzer.glossary.parse import GlossaryError, decode, parse
from tests.strategies import BOUNDED, plain_text

TEXTS = [
    "Glossary\nTerms\nLoRA\nLow-rank adaptation.\n",
    "গ্লসারি\nশব্দ\nলোরা\nলো-র্যাঙ্ক অ্যাডাপ্টেশন\n",
    "Глоссарий\nИИ\nLoRA\nНизкоранговая адаптация\n",
    "مسرد\nمصطلحات\nLoRA\nالتكيف منخفض الرتبة\n",
]


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("codec", ["utf-32", "utf-16", "utf-8-sig"])
def test_text_with_a_byte_order_mark_is_read(text: str, codec: str) -> None:
    assert decode(text.encode(codec)) == text
    assert len(parse(decode(text.encode(codec)))) == 1


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize(
    ("codec", "name"),
    [("utf-16-le", "UTF-16LE"), ("utf-16-be", "UTF-16BE"), ("utf-32-le", "UTF-32LE"),
     ("utf-32-be", "UTF-32BE")],
)  # fmt: skip
def test_text_without_a_byte_order_mark_is_named(text: str, codec: str, name: str) -> None:
    with pytest.raises(GlossaryError) as caught:
        decode(text.encode(codec))
    assert f"looks like {name} text without a byte-order mark" in caught.value.message
    assert f"iconv -f {name} -t UTF-8" in (caught.value.hint or "")


@pytest.mark.parametrize("seed", range(20))
def test_binary_data_is_not_text(seed: int) -> None:
    data = random.Random(seed).randbytes(4096) + b"\x00"
    with pytest.raises(
        GlossaryError, match=r"a NUL byte at line \d+, column \d+: the file is not text"
    ):
        decode(data)


def _nul_error(data: bytes) -> GlossaryError:
    with pytest.raises(GlossaryError) as caught:
        decode(data)
    return caught.value


@pytest.mark.parametrize("text", TEXTS)
def test_a_nul_anywhere_in_utf8_text_is_located(text: str) -> None:
    lines = (text * 50).split("\n")
    for number, line in enumerate(lines, start=1):
        for column in range(1, len(line) + 2):
            damaged = "\n".join(
                [
                    *lines[: number - 1],
                    line[: column - 1] + "\0" + line[column - 1 :],
                    *lines[number:],
                ]
            )
            error = _nul_error(damaged.encode())
            assert error.message == (
                f"a NUL byte at line {number}, column {column}: the file is not text, or is damaged"
            )
            assert error.line == number
            assert "remove the NUL bytes" in (error.hint or "")


@BOUNDED
@given(
    lines=st.lists(plain_text, min_size=4, max_size=40),
    where=st.floats(min_value=0, max_value=1),
    nuls=st.integers(min_value=1, max_value=3),
)
def test_stray_nuls_in_utf8_text_are_never_taken_for_wide_text(
    lines: list[str], where: float, nuls: int
) -> None:
    data = "\n".join(lines).encode()
    at = int(where * len(data))
    # (a NUL inside a UTF-8 sequence: the column counts the broken character as one)
    data = data[:at] + b"\x00" * nuls + data[at:]
    line = data.count(b"\n", 0, at) + 1
    assert _nul_error(data).message.startswith(f"a NUL byte at line {line}, ")


def test_a_damaged_big_glossary_is_located_not_taken_for_utf16() -> None:
    text = "Title\nSubtitle\n" + "Term\nDefinition of the term.\n" * 10_000
    data = text.encode()
    at = data.index(b"Definition", len(data) // 2) + 3
    error = _nul_error(data[:at] + b"\x00" + data[at:])
    line = data.count(b"\n", 0, at) + 1
    assert error.message == (
        f"a NUL byte at line {line}, column 4: the file is not text, or is damaged"
    )


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_wide_text_of_one_line_or_many_is_named(codec: str) -> None:
    name = codec.upper().replace("-LE", "LE").replace("-BE", "BE")
    for text in ("LoRA", "Low-rank adaptation " * 100, "\n".join(TEXTS * 300)):
        error = _nul_error(text.encode(codec))
        assert f"looks like {name} text without a byte-order mark" in error.message
