"""Whether importing a module loads Django: the pure modules (the rules engine, pairing's and the
arena's logic, Elo) must not (docs/architecture.md "How code is shaped here"). A fresh interpreter
imports it, so
a test calling this starts a process and is marked `integration`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def django_modules_loaded_by(module: str) -> list[str]:
    code = (
        f"import sys, {module}\n"
        "print(','.join(sorted(m for m in sys.modules if m.startswith('django'))))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return [name for name in loaded.stdout.strip().split(",") if name]
