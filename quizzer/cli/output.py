"""Output helpers shared by the commands."""

from __future__ import annotations

import json
import sys
from typing import Any


def print_json(data: Any) -> None:
    """Print ``data`` as indented JSON with text as UTF-8, not ``\\u`` escapes."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
