"""The ``quizzer`` command line."""
