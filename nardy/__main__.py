"""``python -m nardy legal-turns|bench`` (see cli.py)."""

from .cli import main

raise SystemExit(main())
