"""The wheel's packages are the layers' packages: `.importlinter`'s root_packages
(docs/architecture.md,
"Architecture"), each with its subpackages, so an app added to the layers is in the wheel and an
app left out of the layers fails `make layers` first. pyproject.toml holds everything else.

Templates, static files and translation catalogs are not packages: they are served from the
checkout (config/settings/base.py BASE_DIR; docs/operations.md), which `make run` and the production
guide install editable. tests/config/test_packaging.py builds the wheel and checks it.
"""

import configparser
from pathlib import Path

from setuptools import find_packages, setup

HERE = Path(__file__).resolve().parent


def layer_packages() -> list[str]:
    layers = configparser.ConfigParser()
    layers.read(HERE / ".importlinter", encoding="utf-8")
    roots = layers["importlinter"]["root_packages"].split()
    return find_packages(
        where=str(HERE), include=[p for root in roots for p in (root, f"{root}.*")]
    )


setup(packages=layer_packages())
