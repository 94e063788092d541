"""Patches of third-party internals, each kept because a benchmark showed what it buys, each
guarded (docs/architecture.md "Patches" lists them with their figures).

Every patch module names what it replaces in `UPSTREAM`: the distribution, the one version the
patch was written against, and a digest of the source of each function it replaces or copies.
`apply_all()` applies a patch only when the installed version and every digest are exactly those;
otherwise it logs a warning and leaves the library as it is (the site then runs on upstream's own
code, a little slower). tests/config/test_patches.py fails when an upgrade changes any of them, so
a patch is read again before a pin moves.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import inspect
import logging
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger(__name__)

# The modules applied by `apply_all()` (inside Daphne: web/asgi.py).
PATCH_MODULES = ("config.patches.twisted_writes", "config.patches.autobahn_logs")


@dataclass(frozen=True)
class Upstream:
    distribution: str
    version: str
    # "module:Qualified.name" -> SHA-256 of that object's source as the patch was written against.
    sources: dict[str, str]


# What each patched target was before we replaced it: a digest taken after `apply()` (tests, a
# second check) must read upstream's source, not the patch's.
_originals: dict[str, object] = {}


def resolve(target: str) -> object:
    module_name, _, qualified_name = target.partition(":")
    value: object = importlib.import_module(module_name)
    for part in qualified_name.split("."):
        value = getattr(value, part)
    return value


def source_digest(target: str) -> str:
    original = _originals.get(target) or resolve(target)
    return hashlib.sha256(inspect.getsource(original).encode()).hexdigest()


def mismatch(upstream: Upstream) -> str | None:
    """Why the patch must not apply here, or None when upstream is exactly what it was written
    against."""
    installed = importlib.metadata.version(upstream.distribution)
    if installed != upstream.version:
        return f"{upstream.distribution} is {installed}, the patch is for {upstream.version}"
    for target, digest in upstream.sources.items():
        if source_digest(target) != digest:
            return f"the source of {target} changed"
    return None


def apply_guarded(name: str, upstream: Upstream, apply: Callable[[], None]) -> bool:
    reason = mismatch(upstream)
    if reason is not None:
        log.warning("patch %s not applied: %s", name, reason)
        return False
    for target in upstream.sources:
        _originals.setdefault(target, resolve(target))
    apply()
    return True


def apply_all() -> dict[str, bool]:
    """Apply every patch whose upstream is unchanged; name → applied."""
    applied = {}
    for module_name in PATCH_MODULES:
        module = importlib.import_module(module_name)
        applied[module_name] = apply_guarded(module_name, module.UPSTREAM, module.apply)
    return applied
