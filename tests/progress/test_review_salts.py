"""Review ids' salts come from a pool of random bytes, never shared with a forked child.

:func:`quizzer.progress.writing._salt` draws 4 KiB of ``os.urandom`` at a time (a system
call per 1,024 answers instead of one per answer, issue 12 goal 4). Two processes may
answer a card in the same millisecond: a child forked after the pool was filled must not
hand out the parent's next salts.
"""

from __future__ import annotations

import os

import pytest

from quizzer.progress import writing


def test_salts_are_eight_hex_digits_and_do_not_repeat_across_refills() -> None:
    salts = [writing._salt() for _ in range(3000)]  # the pool refilled twice

    assert all(len(s) == 8 and int(s, 16) >= 0 for s in salts)
    assert len(set(salts)) > 2990  # 32 random bits each: a repeat or two at most


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_a_forked_child_draws_its_own_salts() -> None:
    writing._salt()  # the pool holds bytes the parent would use next
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: its next salts, then out without pytest's cleanup
        os.write(write, "".join(writing._salt() for _ in range(8)).encode())
        os._exit(0)
    os.close(write)
    child = os.read(read, 100).decode()
    os.close(read)
    os.waitpid(pid, 0)
    parent = "".join(writing._salt() for _ in range(8))
    assert len(child) == len(parent) == 64
    assert child != parent
