"""What a command module is handed to register its commands on."""

from __future__ import annotations

import argparse
from typing import Any, Protocol


class Subcommands(Protocol):
    """Where a command module adds its commands (``register(subcommands)``): what
    :meth:`argparse.ArgumentParser.add_subparsers` returns, whose class argparse names only
    privately."""

    def add_parser(self, name: str, **_options: Any) -> argparse.ArgumentParser:
        """A new command ``name``: its own parser, to add arguments and defaults to."""
        ...
