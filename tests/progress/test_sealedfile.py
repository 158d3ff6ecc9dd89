"""The sealed format of the store's cache files: what is trusted and what is refused."""

from __future__ import annotations

import zlib

from quizzer.progress.sealedfile import seal, unseal

DOC = {"tie": {"gen": 3}, "tally": [1, 2, 3], "text": "ফ্লিপ কার্ড — بطاقة"}


def test_a_sealed_document_reads_back_equal() -> None:
    raw = seal(b"quizzer-x", 2, DOC)
    assert raw.startswith(b"quizzer-x 2 ")
    # The body is UTF-8, not \u escapes: a person reading a kept copy sees the texts.
    assert "ফ্লিপ কার্ড — بطاقة".encode() in raw
    assert unseal(raw, b"quizzer-x", 2) == (DOC, "ok")


def test_another_kind_or_version_is_refused() -> None:
    raw = seal(b"quizzer-x", 2, DOC)
    assert unseal(raw, b"quizzer-y", 2) == (None, "wrong kind")
    assert unseal(raw, b"quizzer-x", 3) == (None, "wrong kind")
    assert unseal(b"", b"quizzer-x", 2) == (None, "wrong kind")


def test_a_changed_body_is_damage() -> None:
    raw = bytearray(seal(b"quizzer-x", 2, DOC))
    raw[-3] ^= 0x01
    doc, why = unseal(bytes(raw), b"quizzer-x", 2)
    assert doc is None
    assert why == "damaged (its checksum doesn't match its bytes)"


def test_a_body_that_is_not_json_is_damage_even_with_its_checksum() -> None:
    body = b'{"tie": '
    raw = b"quizzer-x 2 %08x\n" % zlib.crc32(body) + body
    doc, why = unseal(raw, b"quizzer-x", 2)
    assert doc is None
    assert why == "damaged (in its body, invalid JSON at line 1, column 9, byte 8: expecting value)"


def test_a_body_that_is_not_utf8_or_nested_too_deeply_says_so_in_plain_words() -> None:
    for body, said in [
        (b'{"t": "\xff"}', "not UTF-8 at byte 7"),
        (b"[" * 100_000, "nested too deeply to read"),
    ]:
        raw = b"quizzer-x 2 %08x\n" % zlib.crc32(body) + body
        assert unseal(raw, b"quizzer-x", 2) == (None, f"damaged (in its body, {said})")
