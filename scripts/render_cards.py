"""Screenshots of the rendered Anki cards, to look at them (run by hand, not by CI).

Reads the HTML Anki's engine rendered for the test cards (the snapshots of
tests/anki/test_anki_faces.py, refreshed with ``pytest --snapshot-update``), wraps each
face in a page as Anki's reviewer does (the note type's CSS, which the test checks is
what Anki serves, ``class="card"`` on the body, ``nightMode night_mode`` added in night
mode, replay buttons for the sound references), and takes a headless Chromium
screenshot in light and night mode at a desktop and a phone width.

    python scripts/render_cards.py [--out DIR] [--chromium PATH]

Needs ``chromium`` and the Noto fonts (``apt-get install -y chromium fonts-noto-core``).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from quizzer.anki.faces import CSS  # noqa: E402  (the project is not installed for scripts)

SNAPSHOTS = ROOT / "tests" / "anki" / "__snapshots__" / "test_anki_faces"

#: Anki's replay button (aqt draws it where the engine leaves ``[anki:play:q:0]``).
REPLAY = (
    '<a class="replay-button soundLink" href="#"><svg class="playImage" viewBox="0 0 64 64">'
    '<circle cx="32" cy="32" r="29"/><path d="M56.502,32.301l-37.502,20.101l0.329,-40.804'
    'l37.173,20.703Z"/></svg></a>'
)
REVIEWER_CSS = """
.replay-button { display: inline-block; vertical-align: middle; margin: 0 0.2em; }
.replay-button svg { width: 40px; height: 40px; }
.replay-button svg circle { fill: #fff; stroke: #414141; }
.replay-button svg path { fill: #414141; }
.nightMode .replay-button svg circle { fill: #363636; stroke: #e0e0e0; }
.nightMode .replay-button svg path { fill: #e0e0e0; }
"""
#: (name, width) of the screens: a desktop reviewer and a phone.
WIDTHS = (("desktop", 700), ("phone", 380))


def page(face_html: str, night: bool) -> str:
    """A reviewer-like page around one rendered face."""
    body = re.sub(r"\[anki:play:[qa]:\d+\]", REPLAY, face_html)
    classes = "card card1" + (" nightMode night_mode" if night else "")
    return (
        '<!doctype html><html><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<style>{REVIEWER_CSS}</style><style>{CSS}</style></head>"
        f'<body class="{classes}"><div id="qa">{body}</div></body></html>'
    )


def screenshot(chromium: str, html_file: Path, png: Path, width: int, height: int) -> None:
    """One headless Chromium screenshot of ``html_file``."""
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--hide-scrollbars",
                f"--user-data-dir={profile}",
                f"--screenshot={png}",
                f"--window-size={width},{height}",
                html_file.as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )


def main(argv: list[str] | None = None) -> int:
    """Render every snapshot face, light and night, desktop and phone width."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "cards")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--height", type=int, default=1100)
    parser.add_argument("--only", default="", help="render only faces whose name has this")
    args = parser.parse_args(argv)
    faces = [face for face in sorted(SNAPSHOTS.glob("*.html")) if args.only in face.stem]
    if not faces:
        print(f"no snapshots in {SNAPSHOTS}: run pytest tests/anki/test_anki_faces.py first")
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    for face in faces:
        name = re.sub(r"^.*\[(.*)\]$", r"\1", face.stem)
        for night in (False, True):
            mode = "night" if night else "light"
            html_file = args.out / f"{name}-{mode}.html"
            html_file.write_text(page(face.read_text(encoding="utf-8"), night), encoding="utf-8")
            for screen, width in WIDTHS:
                png = args.out / f"{name}-{mode}-{screen}.png"
                screenshot(args.chromium, html_file, png, width, args.height)
                print(png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
