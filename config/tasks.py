"""Operational tasks: the round-trip probe used by /healthz and the integration tests."""

from celery import shared_task


@shared_task(name="config.echo")
def echo(payload: str) -> str:
    """Return what it was given: proves broker → worker → result backend end to end."""
    return payload
