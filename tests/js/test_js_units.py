"""The page's JavaScript unit tests (tests/js/*.test.mjs) under Node's built-in test runner.

They import the ES modules of static/js directly (no DOM, no build step). Without `node` they are
skipped with the install hint, except under CI=true, where a missing Node fails the run (the same
rule as the browser tests; `.ci/run` installs Debian's `nodejs`).
"""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).parent
INSTALL_HINT = "no `node` found: install Debian's with `apt-get install nodejs` (Node 18 or newer)"


def test_js_unit_tests_pass():
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and {INSTALL_HINT}")
        pytest.skip(INSTALL_HINT)
    files = sorted(str(path) for path in HERE.glob("*.test.mjs"))
    assert files, "no tests/js/*.test.mjs found"
    result = subprocess.run(
        [node, "--test", *files], capture_output=True, text=True, timeout=120, check=False
    )
    failed = [line for line in result.stdout.splitlines() if line.lstrip().startswith("not ok")]
    assert result.returncode == 0, "\n".join(failed) + "\n" + result.stdout[-4000:] + result.stderr
    assert "# fail 0" in result.stdout
