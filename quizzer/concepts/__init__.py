"""Concept records: a concept's term and definition per language, their sources, deck files.

Pure: no UI, storage or Anki library, no clock.
"""
