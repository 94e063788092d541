"""`make test` runs only tests that stay in pytest's process: one that starts a process without
the `integration` marker fails at once (tests/markers.py), so it cannot slip into the everyday
loop unnoticed."""

import subprocess
import sys

import pytest


def test_a_process_started_by_an_unmarked_test_is_refused():
    with pytest.raises(RuntimeError, match="without the `integration` marker"):
        subprocess.run([sys.executable, "-c", "pass"], check=False)


@pytest.mark.integration
def test_a_test_marked_integration_may_start_one():
    assert subprocess.run([sys.executable, "-c", "pass"], check=False).returncode == 0
