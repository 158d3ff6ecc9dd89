"""Glossaries in UTF-16/32 are named as such.

UTF-16 without a byte-order mark used to be called "a binary file (NUL bytes)" and UTF-32
with one "U+0000 (a control character)".
"""

from __future__ import annotations

import random

import pytest

from quizzer.glossary.parse import GlossaryError, decode, parse

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
def test_binary_data_is_still_called_binary(seed: int) -> None:
    data = random.Random(seed).randbytes(4096) + b"\x00"
    with pytest.raises(GlossaryError, match="binary file"):
        decode(data)
