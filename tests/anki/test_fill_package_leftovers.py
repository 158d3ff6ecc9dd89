"""A killed :func:`fill_package` leaves the package as it was and no temp folder.

It used to unpack the collection into ``$TMPDIR/quizzer-apkg-*``, which a kill left
behind for good; it now fills the collection in memory.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from quizzer.anki import export_apkg
from quizzer.library.decks import deck_files, read_deck
from quizzer.paths import bundled_decks_dir

_KILLED_MIDWAY = textwrap.dedent(
    """
    import os, signal, sys
    from quizzer.anki.progress import fill_package

    def reviews():
        # Killed while the collection is open, before anything is written back.
        os.kill(os.getpid(), signal.SIGKILL)
        yield

    fill_package(sys.argv[1], {}, reviews())
    """
)


def test_a_kill_while_filling_a_package_leaves_no_temp_folder(tmp_path: Path) -> None:
    package = tmp_path / "deck.apkg"
    export_apkg([read_deck(p) for p in deck_files(bundled_decks_dir())[:1]], package, timestamp=1e9)
    before = package.read_bytes()
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = dict(os.environ, TMPDIR=str(temp), PYTHONPATH=os.pathsep.join(sys.path))
    run = subprocess.run(
        [sys.executable, "-c", _KILLED_MIDWAY, str(package)], env=env, capture_output=True
    )
    assert run.returncode == -9, run.stderr.decode()
    assert sorted(p.name for p in temp.iterdir()) == []
    assert package.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
