"""Exports imported into one Anki collection never leave a card with a blank front.

The Anki-first newcomer exports before ever studying: no store, maybe no folder for it
yet. Whatever a later export leaves out, in either order, in the same second as the one
before or not, every card of an earlier export keeps its front (real Anki engine).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from quizzer.cli.main import main
from tests.anki_support import check_every_card, import_package, open_collection, recent

MIXES = {
    "en:ru then default": (["--pair", "en:ru"], []),
    "default then en:ru": ([], ["--pair", "en:ru"]),
    "en:ru then all": (["--pair", "en:ru"], ["--all"]),
    "all then default": (["--all"], []),
}


@pytest.fixture(params=["no store folder", "store folder, no store"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    if request.param == "no store folder":
        return tmp_path / "not-yet" / "quizzer" / "progress.json"
    (tmp_path / "data").mkdir()
    return tmp_path / "data" / "progress.json"


@pytest.mark.parametrize("imported", ["in order", "reversed"])
@pytest.mark.parametrize("when", ["same second", "seconds apart", "the clock, back to back"])
@pytest.mark.parametrize("mix", list(MIXES))
def test_no_export_blanks_a_card_of_an_earlier_one(tmp_path, db, mix, when, imported):
    packages = []
    for n, flags in enumerate(MIXES[mix]):
        out = tmp_path / f"export-{n}.apkg"
        argv = ["export", "anki", "--deck", "quantization", "--out", str(out), "--db", str(db)]
        if when != "the clock, back to back":
            stamp = recent(600) if when == "same second" else recent(600 - 60 * n)
            argv += ["--timestamp", str(int(stamp))]
        assert main([*argv, *flags]) == 0
        packages.append(out)
    if imported == "reversed":
        packages.reverse()
    col = open_collection(tmp_path)
    try:
        import_package(col, packages[0])
        before = check_every_card(col)
        import_package(col, packages[1])
        after = check_every_card(col)  # asserts no blank front
        assert after >= before
    finally:
        col.close()


SEQUENCE: tuple[list[str], ...] = (
    ["--pair", "en:ru"],
    [],
    ["--pair", "ar:bn"],
    ["--all"],
    ["--pair", "en:fr"],
    [],
)


@pytest.mark.parametrize("imported", ["in order", "reversed"])
def test_six_exports_back_to_back_never_blank_a_card(tmp_path, imported):
    """Narrow, default and --all exports mixed, on the clock within a few seconds, no
    store folder: after each import every card still shows its front (a direction
    --all leaves out as asking what another card asks keeps its guard too)."""
    db = tmp_path / "not-yet" / "progress.json"
    packages = []
    for n, flags in enumerate(SEQUENCE):
        out = tmp_path / f"export-{n}.apkg"
        argv = ["export", "anki", "--deck", "quantization", "--out", str(out), "--db", str(db)]
        assert main([*argv, *flags]) == 0
        packages.append(out)
    if imported == "reversed":
        packages.reverse()
    col = open_collection(tmp_path)
    try:
        count = 0
        for package in packages:
            import_package(col, package)
            after = check_every_card(col)  # asserts no blank front
            assert after >= count
            count = after
    finally:
        col.close()
