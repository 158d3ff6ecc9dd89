"""What a learner sees on a quizzer card in Anki: template HTML, the CSS, human labels.

The front names the card in words ("Arabic → English · definition"), shows the
prompt's language (in its own name) and side above the prompt, and asks in a
sentence that differs per kind, under a coloured badge: a meaning card never
looks like a translate card. The back shows the answer, its companion (the
answer language's other side), the prompt's own other side (for a term prompt,
its definition), the acronym, variants readers meet ("also seen"), and the
concept in the other languages.

Every text comes from a field, which :mod:`quizzer.anki.notes` fills with
escaped text; the fixed words here are escaped too. Each text carries ``lang``
and ``dir`` so Arabic runs right to left and every script gets its font. A
term on the prompt or the answer speaks: the language's ``{{tts …}}`` tag, or
the exported recording when the note's audio field holds one.

Colours are CSS variables, light by default and night when Anki marks the card
(``nightMode`` on desktop, ``night_mode`` on AnkiDroid); the tests compute
their contrast from :data:`CSS`.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from quizzer.anki.directions import FIRST_LANGUAGES
from quizzer.anki.locales import tts_locale
from quizzer.anki.model import (
    FIELD_ACRONYM,
    audio_field,
    field_language,
    field_name,
    variants_field,
)
from quizzer.concepts.languages import Side, is_rtl, native_name, script_of

if TYPE_CHECKING:
    from quizzer.anki.model import Direction, Kind
    from quizzer.concepts.concept import Text

#: The badge word per kind, and the sentence that asks for the answer.
_BADGES: dict[Kind, str] = {"meaning": "Meaning", "term": "Name it", "translate": "Translate"}
_QUESTIONS: dict[Kind, str] = {
    "meaning": "What does it mean? Give the {lang} definition.",
    "term": "Which term is this? Give it in {lang}.",
    "translate": "Say it in {lang}.",
}


#: Correction reasons (the words before the first colon) whose original is a variant a
#: reader meets in the field's writing, not a slip: a borrowed form the glossary itself
#: used, or a name another concept usually has. Typos, grammar and mistranslations
#: are not shown.
READER_VARIANT_REASONS: frozenset[str] = frozenset({"inconsistent term", "ambiguous term"})


def also_seen(term: Text) -> str | None:
    """The variant of a term a reader meets, when the term corrects one (see above)."""
    source = term.source
    if source.kind != "corrected" or not source.original or not source.reason:
        return None
    category = source.reason.partition(":")[0].strip().casefold()
    if category not in READER_VARIANT_REASONS:
        return None
    if source.original.casefold() == term.text.casefold():
        return None
    return source.original


def label(direction: Direction) -> str:
    """The card's name in words, e.g. ``"Arabic → English · definition"``."""
    prompt_side, answer_side = direction.sides
    source, target = field_language(direction.source), field_language(direction.target)
    if direction.source == direction.target:
        return f"{source} · {prompt_side} → {answer_side}"
    return f"{source} → {target} · {answer_side}"


def question(direction: Direction) -> str:
    """The sentence under the prompt, e.g. ``"Say it in English."``."""
    return _QUESTIONS[direction.kind].format(lang=field_language(direction.target))


def _attrs(lang: str) -> str:
    return f'dir="{"rtl" if is_rtl(lang) else "ltr"}" lang="{lang}"'


def _en(text: str) -> str:
    """A fixed English word or phrase, isolated so it keeps its order beside Arabic."""
    return f'<span dir="ltr" lang="en">{html.escape(text)}</span>'


def _chip(lang: str, side: Side) -> str:
    """Language (in its own name) and side, above a prompt or an answer."""
    return (
        f'<div class="chip"><span class="chip-lang" {_attrs(lang)}>'
        f"{html.escape(native_name(lang))}</span> {_en(side)}</div>"
    )


def speak(lang: str) -> str:
    """The term's recording if the note has one, else Anki's text-to-speech for ``lang`` in
    its locale (:func:`quizzer.anki.locales.tts_locale`: ``es`` → ``es_ES``)."""
    audio, term = audio_field(lang), field_name(lang, "term")
    return (
        f"{{{{#{audio}}}}}{{{{{audio}}}}}{{{{/{audio}}}}}"
        f"{{{{^{audio}}}}}{{{{tts {tts_locale(lang)}:{term}}}}}{{{{/{audio}}}}}"
    )


def _also_seen(lang: str) -> str:
    variants = variants_field(lang)
    return (
        f"{{{{#{variants}}}}}"
        f'<div class="also">{_en("also seen:")} '
        f"<span {_attrs(lang)}>{{{{{variants}}}}}</span></div>"
        f"{{{{/{variants}}}}}"
    )


def _text_block(css_class: str, lang: str, side: Side, *, audio: bool) -> str:
    """One field shown with its chip; a term gets its voice and its variants."""
    name = field_name(lang, side)
    voice = speak(lang) if audio and side == "term" else ""
    extra = _also_seen(lang) if side == "term" else ""
    return (
        f"{{{{#{name}}}}}"
        f'<div class="{css_class} side-{side}">{_chip(lang, side)}'
        f'<div class="text" {_attrs(lang)}>{{{{{name}}}}}</div>{voice}{extra}</div>'
        f"{{{{/{name}}}}}"
    )


def front_html(direction: Direction) -> str:
    """The template front (qfmt), without the card-generating conditionals around it."""
    prompt_side, _ = direction.sides
    return (
        f'<div class="face kind-{direction.kind}">'
        f'<div class="label" dir="ltr" lang="en">'
        f'<span class="badge">{html.escape(_BADGES[direction.kind])}</span> '
        f'<span class="route">{html.escape(label(direction))}</span></div>'
        + _text_block("prompt", direction.source, prompt_side, audio=True)
        + f'<div class="ask" dir="ltr" lang="en">{html.escape(question(direction))}</div>'
        "</div>"
    )


def _other(side: Side) -> Side:
    return "definition" if side == "term" else "term"


def _context(exclude: Sequence[str], languages: Sequence[str]) -> str:
    """The concept in the other languages: term and definition per row."""
    rows = []
    for lang in languages:
        if lang in exclude:
            continue
        term, definition = field_name(lang, "term"), field_name(lang, "definition")
        rows.append(
            f"{{{{#{term}}}}}"
            f'<div class="ctx" {_attrs(lang)}>'
            f'<span class="ctx-lang">{html.escape(native_name(lang))}</span> '
            f'<span class="ctx-term" {_attrs(lang)}>{{{{{term}}}}}</span>'
            f'{{{{#{definition}}}}}<span class="ctx-def" {_attrs(lang)}>{{{{{definition}}}}}</span>'
            f"{{{{/{definition}}}}}"
            f"</div>"
            f"{{{{/{term}}}}}"
        )
    if not rows:
        return ""
    head = f'<div class="context-head">{_en("In other languages")}</div>'
    return f'<div class="context">{head}{"".join(rows)}</div>'


def back_html(direction: Direction, languages: Sequence[str] = FIRST_LANGUAGES) -> str:
    """The template back (afmt): the front, the answer and what goes with it."""
    prompt_side, answer_side = direction.sides
    parts = [
        "{{FrontSide}}",
        '<hr id="answer">',
        f'<div class="back kind-{direction.kind}">',
        _text_block("answer", direction.target, answer_side, audio=True),
    ]
    if direction.source != direction.target:
        # The answer language's other side, then the prompt's own (for a term prompt, its
        # definition): with the same language both would repeat what is already shown.
        parts.append(_text_block("minor", direction.target, _other(answer_side), audio=False))
        parts.append(_text_block("minor", direction.source, _other(prompt_side), audio=False))
    parts.append(
        f"{{{{#{FIELD_ACRONYM}}}}}"
        f'<div class="acronym" dir="ltr" lang="en">{{{{{FIELD_ACRONYM}}}}}</div>'
        f"{{{{/{FIELD_ACRONYM}}}}}"
    )
    parts.append(_context((direction.source, direction.target), languages))
    parts.append("</div>")
    return "".join(parts)


#: Colours per mode, as CSS custom properties (names without the leading ``--``).
LIGHT: dict[str, str] = {
    "bg": "#ffffff",
    "text": "#1b1b1b",
    "muted": "#545454",
    "rule": "#c8c8c8",
    "meaning": "#1d4ed8",
    "term": "#a4341b",
    "translate": "#6d28d9",
    "badge-text": "#ffffff",
}
NIGHT: dict[str, str] = {
    "bg": "#1e1e1e",
    "text": "#ececec",
    "muted": "#b4b4b4",
    "rule": "#4a4a4a",
    "meaning": "#8ab4ff",
    "term": "#ffab8f",
    "translate": "#c9a8ff",
    "badge-text": "#141414",
}
#: Anki marks night mode on the card's own element (desktop: ``nightMode``, AnkiDroid:
#: ``night_mode``) or on an ancestor, depending on version.
NIGHT_SELECTORS = ".card.nightMode, .card.night_mode, .nightMode .card, .night_mode .card"

#: Context size (of the card's 22px) for Latin and Cyrillic, and the factor Arabic and
#: Bengali get on top: Naskh and Bengali letters are small for their em box.
CONTEXT_EM = 0.8
SCRIPT_SCALE = {"ar": 1.2, "bn": 1.1}


def _variables(colours: dict[str, str]) -> str:
    return " ".join(f"--{name}: {value};" for name, value in colours.items())


_SCRIPT_RULES = "\n".join(
    f'.minor [lang="{lang}"], .ctx[lang="{lang}"], .also [lang="{lang}"] '
    f"{{ font-size: {scale}em; }}"
    for lang, scale in SCRIPT_SCALE.items()
)

CSS = f"""\
.card {{ {_variables(LIGHT)} }}
{NIGHT_SELECTORS} {{ {_variables(NIGHT)} }}
.card {{
  font-family: "Noto Sans", "Segoe UI", "Helvetica Neue", Arial, sans-serif;
  font-size: 22px;
  line-height: 1.5;
  text-align: center;
  color: var(--text);
  background-color: var(--bg);
  margin: 0;
  padding: 0.8em 0.6em;
}}
[lang="ru"] {{ font-family: "Noto Sans", "PT Sans", "Segoe UI", Arial, sans-serif; }}
[lang="bn"] {{
  font-family: "Noto Sans Bengali", "Noto Serif Bengali", "Hind Siliguri", "Kohinoor Bangla",
    "Shonar Bangla", "Vrinda", sans-serif;
  line-height: 1.8;
}}
[lang="ar"] {{
  font-family: "Noto Naskh Arabic", "Noto Sans Arabic", "Amiri", "Geeza Pro", "Segoe UI",
    "Arabic Typesetting", sans-serif;
  line-height: 1.9;
}}
[dir="rtl"] {{ direction: rtl; unicode-bidi: isolate; }}
[dir="ltr"] {{ direction: ltr; unicode-bidi: isolate; }}
.kind-meaning {{ --accent: var(--meaning); }}
.kind-term {{ --accent: var(--term); }}
.kind-translate {{ --accent: var(--translate); }}
.face {{ border-top: 0.25em solid var(--accent); padding-top: 0.5em; }}
.label {{ font-size: 0.7em; color: var(--muted); }}
.badge {{
  display: inline-block;
  background: var(--accent);
  color: var(--badge-text);
  font-weight: bold;
  border-radius: 0.3em;
  padding: 0 0.5em;
  margin-inline-end: 0.3em;
}}
.chip {{ font-size: 0.65em; color: var(--muted); letter-spacing: 0.03em; }}
.chip-lang {{ font-weight: bold; color: var(--accent); }}
.chip-lang[lang="ar"] {{ font-size: 1.25em; }}
.back .chip-lang {{ color: var(--muted); }}
.prompt, .answer {{ margin: 0.6em 0; }}
.prompt .text {{ font-size: 1.35em; }}
.prompt.side-definition .text {{ font-size: 1em; }}
.answer .text {{ font-size: 1.25em; font-weight: bold; }}
.answer.side-definition .text {{ font-size: 1em; font-weight: normal; }}
.prompt .text[lang="ar"] {{ font-size: 1.6em; }}
.answer .text[lang="ar"] {{ font-size: 1.5em; }}
.prompt.side-definition .text[lang="ar"], .answer.side-definition .text[lang="ar"] {{
  font-size: 1.2em;
}}
.ask {{ font-size: 0.75em; color: var(--accent); font-weight: bold; margin-top: 0.4em; }}
.minor {{ margin: 0.5em auto; font-size: {CONTEXT_EM}em; max-width: 36em; }}
.also {{ font-size: 0.75em; color: var(--muted); }}
.acronym {{ font-size: 0.8em; color: var(--muted); letter-spacing: 0.05em; }}
.context {{
  margin: 1em auto 0;
  font-size: {CONTEXT_EM}em;
  max-width: 36em;
  border-top: 1px solid var(--rule);
  padding-top: 0.4em;
}}
.context-head {{ font-size: 0.8em; color: var(--muted); text-transform: uppercase; }}
.ctx {{ margin: 0.5em 0; color: var(--text); }}
.ctx[dir="rtl"] {{ text-align: right; }}
.ctx[dir="ltr"] {{ text-align: left; }}
.ctx-lang {{ color: var(--muted); font-size: 0.8em; }}
.ctx-term {{ font-weight: bold; }}
.ctx-def {{ display: block; color: var(--muted); }}
{_SCRIPT_RULES}
hr#answer {{ border: none; border-top: 1px solid var(--rule); margin: 0.8em 0; }}
"""


@dataclass(frozen=True, slots=True)
class ScriptFont:
    """How a script is set on a card: font families (the first one also in Anki's editor),
    line height, and the size factor on top of the context's (small letters for their em)."""

    families: str
    line_height: float = 1.5
    scale: float = 1.0

    @property
    def editor_font(self) -> str:
        """The first family, for the field in Anki's editor."""
        return self.families.split(",")[0].strip().strip('"')


#: Fonts per script (ISO 15924), for the languages beyond the first note type's (whose
#: rules are in :data:`CSS`). Urdu is set in Naskh like Arabic: a Nastaliq font needs
#: about twice the line height and few devices have one.
SCRIPT_FONTS: dict[str, ScriptFont] = {
    "Arab": ScriptFont(
        '"Noto Naskh Arabic", "Noto Sans Arabic", "Geeza Pro", "Segoe UI", sans-serif', 1.9, 1.2
    ),
    "Hebr": ScriptFont('"Noto Sans Hebrew", "Arial Hebrew", "Segoe UI", sans-serif', 1.6, 1.1),
    "Deva": ScriptFont(
        '"Noto Sans Devanagari", "Kohinoor Devanagari", "Nirmala UI", "Mangal", sans-serif',
        1.8,
        1.1,
    ),
    "Beng": ScriptFont('"Noto Sans Bengali", "Kohinoor Bangla", "Vrinda", sans-serif', 1.8, 1.1),
    "Hans": ScriptFont(
        '"Noto Sans CJK SC", "Noto Sans SC", "PingFang SC", "Microsoft YaHei", sans-serif', 1.6
    ),
    "Hant": ScriptFont(
        '"Noto Sans CJK TC", "Noto Sans TC", "PingFang TC", "Microsoft JhengHei", sans-serif', 1.6
    ),
    "Jpan": ScriptFont(
        '"Noto Sans CJK JP", "Noto Sans JP", "Hiragino Sans", "Yu Gothic", "Meiryo", sans-serif',
        1.6,
    ),
    "Kore": ScriptFont(
        '"Noto Sans CJK KR", "Noto Sans KR", "Apple SD Gothic Neo", "Malgun Gothic", sans-serif',
        1.6,
    ),
    "Thai": ScriptFont('"Noto Sans Thai", "Thonburi", "Leelawadee UI", sans-serif', 1.8),
}


def script_font(lang: str) -> ScriptFont | None:
    """The font rules for ``lang``'s script, if it has some of its own."""
    script = script_of(lang)
    return SCRIPT_FONTS.get(script) if script else None


def css_for(languages: Sequence[str]) -> str:
    """The note type's CSS: :data:`CSS`, and for each language beyond the first note type's
    the fonts, line height and size of its script, selected by the ``lang`` attribute every
    text carries."""
    rules = [CSS]
    for lang in languages:
        font = script_font(lang) if lang not in FIRST_LANGUAGES else None
        if font is None:
            continue
        selector = f'[lang="{html.escape(lang)}"]'
        rules.append(
            f"{selector} {{ font-family: {font.families}; line-height: {font.line_height}; }}"
        )
        if font.scale != 1.0:
            rules.append(
                f".minor {selector}, .ctx{selector}, .also {selector}, .prompt .text{selector}, "
                f".answer .text{selector} {{ font-size: {font.scale}em; }}"
            )
    return "\n".join(rules)
