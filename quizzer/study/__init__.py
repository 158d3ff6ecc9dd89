"""A study session: what to study, due and learn flows, multiple choice, answer checking.

Pure: no Textual, storage or Rich; time and randomness come in as arguments.
"""
