"""From glossary text files to concept records: parsing, language identification, alignment, ids.

Pure: takes text, returns records and reports; reading and writing files is :mod:`quizzer.library`.
"""
