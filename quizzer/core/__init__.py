"""The pure domain core.

Nothing in this package imports Textual, TinyDB or genanki, touches the clock or
draws random numbers on its own: callers pass ``now`` and a ``random.Random``.
``tests/test_architecture.py`` enforces the boundary.
"""
