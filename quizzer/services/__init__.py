"""What screens and commands call: open a study session, answer, undo, bury, stats, export.

No Textual here; the UI and the CLI call these instead of touching the store or the exporter.
"""
