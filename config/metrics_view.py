"""/metrics: the Prometheus text of every process (config/metrics.py), for allowed readers only.

Allowed: a client address in METRICS_ALLOWED_IPS (addresses or networks; the address is the one
config/client_address.py resolved, so X-Forwarded-For counts only from TRUSTED_PROXY_COUNT
proxies), or `Authorization: Bearer <METRICS_TOKEN>` when a token is set. Anyone else gets a 404,
as if there were nothing here. deploy/nginx/nardy.conf also lets only the machine itself in.
"""

from __future__ import annotations

import hmac
import ipaddress
import os
from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    generate_latest,
    multiprocess,
)

from config.metrics import MULTIPROCESS_DIR


def allowed(request: HttpRequest) -> bool:
    token = settings.METRICS_TOKEN
    if token:
        given = request.headers.get("Authorization", "")
        if hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
            return True
    try:
        address = ipaddress.ip_address(request.META.get("REMOTE_ADDR") or "")
    except ValueError:
        return False
    return any(address in network for network in settings.METRICS_ALLOWED_NETWORKS)


def forget_dead_processes(directory: str) -> None:
    """Live gauges of processes that died without saying so (SIGKILL): drop their files, or an
    operator would count the sockets of a process that is gone."""
    for path in Path(directory).glob("gauge_live*_*.db"):
        try:
            pid = int(path.stem.rsplit("_", 1)[1])
            os.kill(pid, 0)
        except ValueError:
            continue
        except ProcessLookupError:
            multiprocess.mark_process_dead(pid, directory)
        except PermissionError:
            continue  # alive, another user's


def metrics(request: HttpRequest) -> HttpResponse:
    if not allowed(request):
        raise Http404
    if MULTIPROCESS_DIR:
        forget_dead_processes(MULTIPROCESS_DIR)
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=MULTIPROCESS_DIR)
    else:
        registry = REGISTRY
    return HttpResponse(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)
