"""Cards: a concept asked in one direction (language and side to language and side).

Pure.
"""
