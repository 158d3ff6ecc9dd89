"""The screens' own layout rules, one stylesheet per screen (each screen's ``DEFAULT_CSS``).

Textual parses a screen's rules when the screen is first shown, so start-up parses only
the first screen's; reusable widgets carry their own ``DEFAULT_CSS``.
"""

#: The home screen.
HOME = """
#home-title {
    width: 1fr;
    padding: 0 2;
    background: $panel;
    text-style: bold;
}
#home-body {
    height: 1fr;
}
#deck-panel {
    width: 1fr;
    min-width: 30;
    padding: 0 1;
}
#deck-panel OptionList {
    height: 1fr;
}
#choice-panel {
    width: 44;
    padding: 0 1;
}
/* Home below 80 columns (HomeScreen.on_resize): two equal columns */
HomeScreen.-narrow #deck-panel {
    min-width: 0;
}
HomeScreen.-narrow #choice-panel {
    width: 1fr;
}
.section {
    margin: 1 0 0 0;
    color: $text-muted;
    text-style: bold;
}
.select-row {
    height: auto;
}
.select-row Picker {
    width: 1fr;
}
#mode-help {
    width: 1fr;
    color: $text-muted;
    height: auto;
    margin: 1 0 0 0;
}
#pair-error {
    width: 1fr;
    color: $error;
    height: auto;
}
#start {
    margin: 1 0 0 0;
    width: 1fr;
}
"""

#: The study screen.
STUDY = """
#study-body {
    height: 1fr;
}
#hint {
    color: $text-muted;
    margin: 0 2;
    height: auto;
}
#continue-row {
    height: auto;
    margin: 0 2;
}
#feedback {
    width: 1fr;
    text-style: bold;
}
#feedback.-right { color: $success; }
#feedback.-near { color: $warning; }
#feedback.-wrong { color: $error; }
#continue {
    width: auto;
}
"""

#: The summary screen.
SUMMARY = """
SummaryScreen {
    align: center middle;
}
#summary-box {
    width: 64;
    max-width: 100%;
    height: auto;
    border: round $accent;
    padding: 1 2;
}
#summary-where {
    color: $text-muted;
    margin: 0 0 1 0;
}
#summary-reason {
    margin: 0 0 1 0;
}
#summary-note {
    margin: 1 0 0 0;
}
#summary-hint {
    margin: 1 0 0 0;
}
"""

#: The help screen.
HELP = """
HelpScreen {
    align: center middle;
}
#help-box {
    width: 78;
    max-width: 100%;
    height: auto;
    max-height: 100%;
    border: round $accent;
    padding: 0 1;
    background: $surface;
}
#help-columns {
    height: auto;
}
.help-column {
    width: 1fr;
    height: auto;
}
#help-left {
    margin: 0 2 0 0;
}
#help-box:focus {
    background-tint: transparent;
}
/* Help below 78 columns (HelpScreen.on_resize): one column, scrolled */
HelpScreen.-narrow #help-columns {
    layout: vertical;
}
HelpScreen.-narrow .help-column {
    width: 1fr;
}
HelpScreen.-narrow #help-left {
    margin: 0;
}
"""
