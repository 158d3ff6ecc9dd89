"""Reusable widgets of the quiz; each posts messages and leaves the decisions to its screen."""
