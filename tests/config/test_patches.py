"""config/patches/: each patch of third-party internals applies only to the exact upstream it was
written against. These tests fail when an upgrade changes that upstream (version or source), so
the patch is read again before the pin in constraints.txt moves."""

from __future__ import annotations

import dataclasses
import importlib

import pytest

from config import patches
from config.patches import Upstream, apply_guarded, channels_socket, mismatch

GUARDED = [*patches.PATCH_MODULES, "config.patches.channels_socket"]


@pytest.mark.parametrize("module_name", GUARDED)
def test_the_installed_upstream_is_the_one_the_patch_was_written_for(module_name):
    upstream = importlib.import_module(module_name).UPSTREAM
    assert mismatch(upstream) is None, (
        f"{module_name}: upstream changed; read the patch against the new source, then update "
        "its UPSTREAM (or drop the patch)"
    )


def test_another_version_or_source_is_refused_and_nothing_is_applied():
    upstream = importlib.import_module("config.patches.twisted_writes").UPSTREAM
    calls = []
    other_version = dataclasses.replace(upstream, version="0.0.1")
    assert not apply_guarded("test", other_version, lambda: calls.append(1))
    target = next(iter(upstream.sources))
    other_source = dataclasses.replace(upstream, sources={target: "0" * 64})
    assert "changed" in mismatch(other_source)
    assert not apply_guarded("test", other_source, lambda: calls.append(1))
    assert calls == []
    assert apply_guarded("test", upstream, lambda: calls.append(1))
    assert calls == [1]


def test_daphne_runs_with_the_patches_applied():
    from autobahn.websocket import protocol
    from twisted.internet.abstract import FileDescriptor

    import web.asgi  # noqa: F401  (applies them, as in Daphne)
    from config.patches import autobahn_logs, twisted_writes

    assert FileDescriptor.write is twisted_writes.write
    assert protocol.hltype is autobahn_logs._plain
    assert channels_socket.USABLE


def test_an_upstream_is_a_distribution_a_version_and_digests():
    upstream = Upstream("channels", "4.3.2", {"channels.consumer:AsyncConsumer.dispatch": "x"})
    assert "changed" in mismatch(upstream)


def test_the_check_reads_upstream_also_after_the_patch_is_applied():
    """Order of tests must not matter: once Daphne's patches are applied in this process, the
    digest is still taken of upstream's function, not of ours."""
    from twisted.internet.abstract import FileDescriptor

    import web.asgi  # noqa: F401
    from config.patches import twisted_writes

    assert FileDescriptor.write is twisted_writes.write
    assert mismatch(twisted_writes.UPSTREAM) is None
