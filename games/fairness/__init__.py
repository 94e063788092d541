"""Provably fair dice (docs/rules.md, Platform rules): the roll function (`dice`), the export
verifier (`verify`) and the command line (`python -m games.fairness verify <export.json>`). Standard
library only."""

from games.fairness.dice import (
    commitment,
    is_client_seed,
    new_client_seed,
    new_server_seed,
    roll_message,
    roll_pair,
)
from games.fairness.verify import ExportError, Report, RollCheck, verify_export

__all__ = [
    "ExportError",
    "Report",
    "RollCheck",
    "commitment",
    "is_client_seed",
    "new_client_seed",
    "new_server_seed",
    "roll_message",
    "roll_pair",
    "verify_export",
]
