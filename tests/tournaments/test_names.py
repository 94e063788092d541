"""Tournament and series names follow the rule of text others read (config/showable_text.py) at
every entry: the service a player's form calls, the form on the tournaments page, the admin's
series and tournament forms; a name stored before the rule is renamed by the migration."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from realtime.errors import CommandError
from tests.factories import enable_totp, make_user
from tests.tournaments.conftest import rated
from tournaments.models import Series, Tournament
from tournaments.services.players import tournament_create

pytestmark = pytest.mark.django_db

HOSTILE = {
    "a right-to-left override": "\u202eanerA gninevE",
    "an override after text": "Arena \u202e!sniw",
    "an isolate": "Arena \u2066x\u2069",
    "zero-width spaces only": "\u200b\u200b\u200b",
    "a byte order mark and joiners": "\ufeff\u200d\u2060",
    "combining marks only": "\u0301\u0308",
    "Hangul fillers": "\u3164\u3164",
    "braille blanks": "\u2800\u2800",
    "a bell": "Arena\x07",
    "an escape sequence": "Arena \x1b[2J",
    "NUL": "Are\x00na",
    "a line break": "Arena\nsecond line",
    "DEL": "Arena\x7f",
}
# HTTP carries UTF-8, which cannot hold a lone surrogate: only the service can be sent one.
SERVICE_ONLY = {**HOSTILE, "a lone surrogate": "Arena \ud83c"}
FINE = {"plain": "Evening arena", "Cyrillic": "Вечерняя арена", "Hebrew": "טורניר ערב",
        "an emoji": "Arena \U0001f3b2", "an accent": "Cafe\u0301 arena"}  # fmt: skip


def create(user, name):
    return tournament_create(
        user=user, name=name, rule_set_name="traditional", length=1, time_control="turn",
        turn_seconds=60, rated=False, minutes=30,
        starts_at=timezone.now() + timedelta(hours=1), private=False,
    )  # fmt: skip


@pytest.mark.parametrize("name", SERVICE_ONLY.values(), ids=SERVICE_ONLY.keys())
def test_the_service_refuses_an_unshowable_name(name):
    with pytest.raises(CommandError) as refused:
        create(rated("host"), name)
    assert refused.value.code == "bad_field"
    assert str(refused.value.message)
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("name", FINE.values(), ids=FINE.keys())
def test_the_service_keeps_a_showable_name(name):
    assert create(rated("host"), f"  {name} ").name == name


@pytest.mark.parametrize("name", HOSTILE.values(), ids=HOSTILE.keys())
def test_the_page_form_refuses_it(client, name):
    client.force_login(rated("host"))
    response = client.post(
        "/tournaments/",
        {"name": name, "rule_set_name": "traditional", "length": 1, "time_control": "turn",
         "turn_seconds": 60, "minutes": 30, "starts_in": 15},
    )  # fmt: skip
    assert response.status_code == 200  # the form again, with the error
    assert response.context["form"].errors
    assert not Tournament.objects.exists()


def superuser_client(client):
    root = make_user("root", is_staff=True, is_superuser=True)
    enable_totp(root)
    client.force_login(root)
    return client


@pytest.mark.parametrize("name", HOSTILE.values(), ids=HOSTILE.keys())
def test_the_admin_refuses_it_for_a_series_and_a_tournament(client, name):
    superuser_client(client)
    start = timezone.localtime() + timedelta(days=1)
    day, hour = start.strftime("%Y-%m-%d"), start.strftime("%H:%M:%S")
    shared = {"name": name, "rule_set_name": "traditional", "length": 1, "time_control": "turn",
              "turn_seconds": 60, "rated": "on", "minutes": 60, "min_rated_matches": 0,
              "max_players": 1000}  # fmt: skip
    series = client.post("/admin/tournaments/series/add/", {
        **shared, "every": "day", "first_start_0": day, "first_start_1": hour, "active": "on",
    })  # fmt: skip
    end = start + timedelta(hours=1)
    tournament = client.post("/admin/tournaments/tournament/add/", {
        **shared, "starts_at_0": day, "starts_at_1": hour, "ends_at_0": end.strftime("%Y-%m-%d"),
        "ends_at_1": end.strftime("%H:%M:%S"), "players-TOTAL_FORMS": 0,
        "players-INITIAL_FORMS": 0,
    })  # fmt: skip
    for response in (series, tournament):
        assert response.status_code == 200  # the form again, not a redirect
        assert "name" in response.context["adminform"].form.errors
    assert not Series.objects.exists() and not Tournament.objects.exists()


def test_the_admin_still_takes_a_fine_name(client):
    superuser_client(client)
    start = timezone.localtime() + timedelta(days=1)
    response = client.post("/admin/tournaments/series/add/", {
        "name": FINE["Cyrillic"], "rule_set_name": "traditional", "length": 1,
        "time_control": "turn", "turn_seconds": 60, "rated": "on", "minutes": 60,
        "min_rated_matches": 0, "max_players": 1000, "every": "day",
        "first_start_0": start.strftime("%Y-%m-%d"), "first_start_1": start.strftime("%H:%M:%S"),
        "active": "on", "created_at_0": start.strftime("%Y-%m-%d"), "created_at_1": "00:00:00",
    })  # fmt: skip
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert Series.objects.get().name == FINE["Cyrillic"]


def test_the_migration_renames_names_stored_before_the_rule():
    from importlib import import_module

    from django.apps import apps

    rename = import_module("tournaments.migrations.0002_showable_names").rename_unshowable
    now = timezone.now()
    bad = Tournament.objects.create(name="\u202eniw", starts_at=now, ends_at=now + timedelta(1))
    fine = Tournament.objects.create(name="Arena", starts_at=now, ends_at=now + timedelta(1))
    series = Series.objects.create(name="\u200b", every="day", first_start=now)
    rename(apps, None)
    assert Tournament.objects.get(pk=bad.pk).name == f"Tournament {bad.pk}"
    assert Tournament.objects.get(pk=fine.pk).name == "Arena"
    assert Series.objects.get(pk=series.pk).name == f"Series {series.pk}"
