"""quizzer: terminal flashcards and quizzes for technical vocabulary across languages."""

__version__ = "0.1.0"
