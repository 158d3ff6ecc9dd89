"""quizzer.runtime.hashing: hashlib's BLAKE2b, digest for digest, without loading OpenSSL."""

from __future__ import annotations

import hashlib
import subprocess
import sys

import pytest

from quizzer.runtime.hashing import blake2b


@pytest.mark.parametrize("size", [8, 10, 16, 32, 64])
@pytest.mark.parametrize("data", [b"", b"en>bn:synth/c00:term", "বাংলা".encode(), bytes(range(256))])
def test_same_digests_as_hashlib(data: bytes, size: int) -> None:
    assert blake2b(data, digest_size=size).digest() == (
        hashlib.blake2b(data, digest_size=size).digest()
    )


def test_importing_it_loads_no_openssl() -> None:
    code = "import sys, quizzer.runtime.hashing; print('_hashlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
