"""The production topology (bench/topology.py) for test_production*.py, started once per run.

It has its own embedded PostgreSQL and Redis even when the run was given servers: the restart
drills stop and start them, and a shared server must never be restarted by a test.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session")
def production() -> Iterator[object]:
    if shutil.which("nginx") is None and not os.path.exists("/usr/sbin/nginx"):
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true and nginx is missing: `apt-get install nginx` (.ci/run does)")
        pytest.skip("nginx is not installed (`apt-get install nginx`)")
    from bench.topology import Topology

    # Two Redis servers for the sockets and a streaming replica (docs/scaling.md); the lag bound
    # is wider than the default so that a loaded machine does not fall back by itself.
    with Topology(
        daphne_count=2, own_servers=True, redis_shards=2, replica=True,
        REPLICA_MAX_LAG_SECONDS="5",
    ) as topology:  # fmt: skip
        yield topology
