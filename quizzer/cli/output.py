"""Output helpers shared by the commands."""

from __future__ import annotations

import json
import re
import sys
from typing import Any

#: What JSON leaves raw with ``ensure_ascii=False`` but a terminal acts on: DEL, the C1
#: controls (U+009B is CSI), the bidi controls (C0 controls JSON escapes itself), and the
#: surrogates standing for a file name's undecodable bytes (no terminal encoding has them).
_RAW_CONTROLS_RE = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def print_json(data: Any) -> None:
    """Print ``data`` as indented JSON with text as UTF-8, not ``\\u`` escapes.

    Only the characters a terminal would act on are written as ``\\u`` escapes (the
    same JSON value): a path or name never reaches the terminal raw.
    """
    text = json.dumps(data, ensure_ascii=False, indent=2)
    text = _RAW_CONTROLS_RE.sub(lambda found: f"\\u{ord(found.group()):04x}", text)
    sys.stdout.write(text + "\n")
