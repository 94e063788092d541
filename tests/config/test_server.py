"""config/server.py: the site's Daphne runs on uvloop's event loop."""

from __future__ import annotations

import subprocess
import sys

import pytest

from config import server


@pytest.mark.integration
def test_daphne_made_its_loop_with_uvloop():
    # In a fresh interpreter: the policy must be set before daphne.server's import makes the loop.
    code = (
        "import config.server as s; s.install_loop(); import daphne.server as d, uvloop; "
        "print(type(d.twisted_loop).__module__, isinstance(d.twisted_loop, uvloop.Loop))"
    )
    done = subprocess.run(
        [sys.executable, "-W", "error", "-c", code], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["uvloop", "True"]


def test_too_late_to_install_once_daphne_made_its_loop(monkeypatch):
    monkeypatch.setitem(sys.modules, "daphne.server", object())
    with pytest.raises(RuntimeError, match="imported already"):
        server.install_loop()


@pytest.mark.integration
def test_it_is_daphnes_command_line():
    done = subprocess.run(
        [sys.executable, "-m", "config.server", "--help"], capture_output=True, text=True
    )
    assert done.returncode == 0
    assert "--ping-interval" in done.stdout
