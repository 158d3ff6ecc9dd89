"""Screenshots of Persian, Hindi and Chinese cards as Anki renders them (run by hand).

Exports the terminal tests' six-script deck (``tests/e2e/decks/scripts-test.toml``) with
quizzer's exporter, imports the package into a new collection with Anki's own engine (the
``anki`` package), renders each chosen card's question and answer there, wraps each in a
page as Anki's reviewer does (the note type's CSS, ``class="card"`` on the body, a replay
button where the engine leaves a sound or text-to-speech tag) and takes a headless
Chromium screenshot of it, light mode at a desktop width.

    python scripts/render_anki_languages.py [--out DIR] [--chromium PATH] [--langs fa,hi,zh]

Needs ``chromium`` and the Noto fonts (``fonts-noto-core``, ``fonts-noto-cjk``).
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import anki.collection  # noqa: E402  (the project is not installed for scripts)
from render_cards import REPLAY, REVIEWER_CSS, screenshot  # noqa: E402

from quizzer.anki import export_apkg  # noqa: E402
from quizzer.anki.model import Direction  # noqa: E402
from quizzer.library.decks import read_deck  # noqa: E402

DECK = ROOT / "tests" / "e2e" / "decks" / "scripts-test.toml"


def page(face_html: str, css: str) -> str:
    """A reviewer-like page around one rendered face."""
    body = re.sub(r"\[anki:(play|tts)[^\]]*\]", REPLAY, face_html)
    body = re.sub(r"\[anki:tts[^\]]*\].*?\[/anki:tts\]", REPLAY, body)
    return (
        '<!doctype html><html><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<style>{REVIEWER_CSS}</style><style>{css}</style></head>"
        f'<body class="card card1"><div id="qa">{body}</div></body></html>'
    )


def main(argv: list[str] | None = None) -> int:
    """Render the translate and meaning cards of each language, front and back."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "anki-languages")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--langs", default="fa,hi,zh")
    parser.add_argument("--width", type=int, default=700)
    parser.add_argument("--height", type=int, default=900)
    args = parser.parse_args(argv)
    langs = args.langs.split(",")
    deck = read_deck(DECK)
    wanted = [
        d
        for lang in langs
        for d in (Direction("translate", lang, "en"), Direction("meaning", lang, "en"))
    ]
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        package = Path(tmp) / "languages.apkg"
        export_apkg([deck], package, directions=wanted)
        col = anki.collection.Collection(str(Path(tmp) / "collection.anki2"))
        try:
            request = anki.collection.ImportAnkiPackageRequest(
                package_path=str(package),
                options=anki.collection.ImportAnkiPackageOptions(with_scheduling=False),
            )
            col.import_anki_package(request)
            concept = deck.concepts[0].id
            for cid in col.find_cards(""):
                card = col.get_card(cid)
                note = card.note()
                if concept not in note["Concept"]:
                    continue
                template = card.template()["name"]
                css = card.note_type()["css"]
                name = template.replace(" ", "-").replace("→", "-to-")
                for face, html in (("front", card.question()), ("back", card.answer())):
                    html_file = args.out / f"{name}-{face}.html"
                    html_file.write_text(page(html, css), encoding="utf-8")
                    png = html_file.with_suffix(".png")
                    screenshot(args.chromium, html_file, png, args.width, args.height)
                    print(png)
        finally:
            col.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
