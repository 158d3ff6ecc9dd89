"""Decks learners already have: Quizlet exports, CSV/TSV tables and Anki notes as concepts.

Pure: texts and records in, concept records out. Reading files and Anki packages is the
adapters' work (:mod:`quizzer.library.source_import`, :mod:`quizzer.anki.package_reader`).
"""
