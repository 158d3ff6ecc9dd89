"""Allow ``python -m quizzer``."""

from quizzer.cli.main import main

raise SystemExit(main())
