"""BLAKE2b, the one hash quizzer uses (card ids' numbers, review ids, cache keys, Anki GUIDs).

This is :func:`hashlib.blake2b` itself, named here for the modules that still import it
from this place; new code imports it from :mod:`hashlib`. The digests are what every
stable id is made of: ``tests/unit/test_stable_ids.py`` holds their fixed values.
"""

from __future__ import annotations

from hashlib import blake2b

__all__ = ["blake2b"]
