"""`quizzer` study commands (see each sub-command's --help)."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add this module's sub-commands to the CLI."""
