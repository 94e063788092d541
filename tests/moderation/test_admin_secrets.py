"""Secret columns never answer a query in the admin (moderation/admin_secrets.py), superusers
included: a filter that shows or hides a row leaked a live match's server seed one hex digit at a
time, and with it every later roll."""

from __future__ import annotations

import pytest
from allauth.mfa.models import Authenticator
from django.apps import apps
from django.contrib import admin
from django.urls import reverse

from games import services
from games.admin import MatchAdmin
from games.models import Match
from moderation.admin import ReportAdmin
from moderation.admin_secrets import (
    SecretColumnsGuard,
    check_admin_secrets,
    guard_problems,
    secret_columns,
)
from moderation.models import Report
from pairing import services as pairing_services
from pairing.models import PoolEntry
from pairing.pools import Pool
from tests.factories import enable_totp, make_user
from tests.moderation.conftest import active_match, make_moderator

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser(client):
    root = make_user("root", is_staff=True, is_superuser=True)
    enable_totp(root)
    client.force_login(root)
    return root


def changelist(model) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")


def test_the_secret_columns_are_the_ones_the_models_hold():
    assert {"server_seed", "rematch_server_seed", "invite_token"} <= set(secret_columns(Match))
    assert "server_seed" in secret_columns(PoolEntry)
    assert "password" in secret_columns(apps.get_model("accounts", "User"))
    assert "data" in secret_columns(Authenticator)


@pytest.mark.parametrize("who", ["superuser", "moderator"])
def test_a_live_matchs_seed_cannot_be_read_through_a_filter(client, fixed_dice, who):
    """The reported attack: with the right first digit the row showed, with a wrong one it hid.
    Now both are refused alike, for everyone."""
    match = active_match(fixed_dice, make_user("seed_a"), make_user("seed_b"))
    seed = Match.objects.get(pk=match.pk).server_seed
    if who == "moderator":
        viewer = make_moderator()  # view rights only
    else:
        viewer = make_user("root", is_staff=True, is_superuser=True)
        enable_totp(viewer)
    client.force_login(viewer)
    wrong = "0" if seed[0] != "0" else "1"
    for column in ("server_seed", "rematch_server_seed", "invite_token"):
        answers = [
            client.get(changelist(Match), {"id__exact": match.pk, f"{column}__startswith": prefix})
            for prefix in (seed[0], wrong)
        ]
        assert [answer.status_code for answer in answers] == [400, 400], column
    # Exact values, regular expressions and ranges alike.
    for lookup in ("server_seed", "server_seed__regex", "server_seed__gt", "server_seed__in"):
        assert client.get(changelist(Match), {lookup: seed}).status_code == 400, lookup
    # The list itself still opens, and the change page shows neither seed nor invite token.
    assert client.get(changelist(Match), {"id__exact": match.pk}).status_code == 200
    page = client.get(reverse("admin:games_match_change", args=[match.pk])).content.decode()
    assert seed not in page and match.invite_token not in page


def test_a_pool_waits_seed_cannot_be_read_through_a_filter(client, superuser):
    waiting = make_user("waiting")
    entry = pairing_services.pool_join(user=waiting, pool=Pool("traditional", 1, 60, False))
    for prefix in (entry.server_seed[:1], entry.server_seed[:8]):
        answer = client.get(changelist(PoolEntry), {"server_seed__startswith": prefix})
        assert answer.status_code == 400
    page = client.get(reverse("admin:pairing_poolentry_change", args=[entry.pk])).content.decode()
    assert entry.server_seed not in page


def test_password_hashes_and_totp_secrets_cannot_be_read_through_a_filter(client, superuser):
    staff = make_user("hashed", is_staff=True)
    secret = enable_totp(staff)
    users = changelist(apps.get_model("accounts", "User"))
    assert client.get(users, {"password__startswith": "pbkdf2"}).status_code == 400
    assert client.get(users, {"created_matches__server_seed__startswith": "a"}).status_code == 400
    authenticators = changelist(Authenticator)
    assert client.get(authenticators, {"data__secret__startswith": secret[0]}).status_code == 400
    assert client.get(authenticators, {"data__icontains": secret[:4]}).status_code == 400
    assert client.get(authenticators, {"user__password__startswith": "p"}).status_code == 400
    totp = Authenticator.objects.get(user=staff, type="totp")
    page = client.get(reverse("admin:mfa_authenticator_change", args=[totp.pk]))
    assert page.status_code == 200 and secret not in page.content.decode()


def _secret_lookups(model) -> list[str]:
    """Every secret column of the model, and of every model one relation away, as a lookup."""
    lookups = [f"{name}__startswith" for name in secret_columns(model)]
    for field in model._meta.get_fields():
        if field.is_relation and field.related_model is not None:
            lookups += [f"{field.name}__{name}__startswith"
                        for name in secret_columns(field.related_model)]  # fmt: skip
    return lookups


def test_every_admin_refuses_every_lookup_that_reaches_a_secret(client, superuser, fixed_dice):
    """Each admin on the site (ours and the libraries'), each secret column in reach."""
    active_match(fixed_dice, make_user("any_a"), make_user("any_b"))
    probed = 0
    for model in apps.get_models():
        if not admin.site.is_registered(model):
            continue
        for lookup in _secret_lookups(model):
            answer = client.get(changelist(model), {lookup: "a"})
            assert answer.status_code == 400, (model._meta.label, lookup)
            probed += 1
        assert client.get(changelist(model)).status_code == 200, model._meta.label
    assert probed > 20  # Match, Game, Turn, Report, chat, pool waits, users, authenticators...


def test_to_field_cannot_name_a_secret(client, superuser):
    assert client.get(changelist(Match), {"_to_field": "invite_token"}).status_code == 400


def test_the_site_passes_the_check_and_the_check_catches_exposures():
    assert check_admin_secrets() == []

    class Searching(ReportAdmin):
        search_fields = ("match__server_seed", "text")
        list_filter = ("match__invite_token",)
        ordering = ("-match__rematch_server_seed",)

    problems = guard_problems(Searching(Report, admin.site))
    assert [problem.id for problem in problems] == ["moderation.E001"] * 3

    class Unguarded(admin.ModelAdmin):
        list_display = ("id", "seed_prefix")

        @admin.display(ordering="server_seed")
        def seed_prefix(self, match):
            return "?"

    problems = guard_problems(Unguarded(Match, admin.site))
    assert sorted(problem.id for problem in problems) == ["moderation.E001", "moderation.E002"]
    assert issubclass(MatchAdmin, SecretColumnsGuard)


def test_a_match_is_still_found_by_its_players_and_id(client, superuser):
    match = services.match_create(creator=make_user("findme"))
    page = client.get(changelist(Match), {"q": "findme"})
    assert page.status_code == 200 and f'value="{match.pk}"' in page.content.decode()
