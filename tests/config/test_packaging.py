"""The wheel built from the repository holds every app: setup.py finds the packages from the
layers (.importlinter's root_packages), so an installed app missing from them, or a package's
tracked data file left behind, fails here (docs/architecture.md, "Architecture")."""

from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]

# Building starts pip in a process of its own.
pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory) -> set[str]:
    # Built from a copy of the files git knows (tracked and new, not ignored): setuptools reuses
    # a checkout's build/ folder, so a wheel built in place may hold what the packages no longer
    # list.
    source = tmp_path_factory.mktemp("source")
    for path in tracked_files(untracked=True):
        if (ROOT / path).is_file():
            (source / path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / path, source / path)
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--no-build-isolation"]
        + ["--quiet", "--wheel-dir", str(out)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = out.glob("longnardy-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


def layer_packages() -> list[str]:
    layers = configparser.ConfigParser()
    layers.read(ROOT / ".importlinter", encoding="utf-8")
    return layers["importlinter"]["root_packages"].split()


def tracked_files(untracked: bool = False) -> list[str]:
    others = ["--others", "--exclude-standard"] if untracked else []
    listed = subprocess.run(
        ["git", "ls-files", "--cached", *others],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    return listed.stdout.splitlines()


def test_every_installed_app_of_the_project_is_a_layer_and_in_the_wheel(wheel_names) -> None:
    ours = [
        config.name
        for config in apps.get_app_configs()
        if Path(config.path).resolve().parent == ROOT
    ]
    assert "tournaments" in ours and "analysis" in ours and "calls" in ours
    layers = layer_packages()
    for name in ours:
        top = name.split(".")[0]
        assert top in layers, f"{top} is installed but not in .importlinter's layers"
        assert f"{top}/apps.py" in wheel_names or f"{top}/__init__.py" in wheel_names, top
    # The root URLs and the ASGI application come with the settings' packages.
    for module in (settings.ROOT_URLCONF, settings.ASGI_APPLICATION.rsplit(".", 1)[0]):
        assert module.replace(".", "/") + ".py" in wheel_names, module


def test_the_wheel_holds_exactly_the_layers_with_their_python_and_data(wheel_names) -> None:
    layers = layer_packages()
    tops = {name.split("/")[0] for name in wheel_names if "/" in name}
    assert {top for top in tops if not top.endswith((".dist-info", ".data"))} == set(layers)
    missing = [
        path
        for path in tracked_files()
        if path.split("/")[0] in layers and "/" in path and path not in wheel_names
        # A folder without __init__.py is no package: a test fails on any such .py file.
    ]
    assert missing == [], f"tracked files of the layers' packages left out of the wheel: {missing}"
    migrations = [n for n in wheel_names if "/migrations/0001_" in n]
    assert {m.split("/")[0] for m in migrations} >= {"games", "tournaments", "analysis"}
