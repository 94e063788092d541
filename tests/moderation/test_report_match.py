"""Which match a report is about: the match page's own, or the reporter's choice among their
latest matches together on a profile, or none; every other value is refused and changes nothing."""

from __future__ import annotations

import pytest
from django.utils import translation

from games import services
from moderation import services as moderation
from moderation.models import Report
from moderation.selectors import REPORT_MATCH_CHOICES, report_match_choices
from realtime.errors import CommandError
from tests.factories import make_user
from tests.moderation.conftest import active_match

pytestmark = pytest.mark.django_db


def finished_match(fixed_dice, creator, opponent, loser=None):
    match = active_match(fixed_dice, creator, opponent)
    services.match_resign(user=loser or opponent, match_id=match.pk)
    return match


def test_the_choices_are_the_latest_matches_together_newest_first(fixed_dice):
    reporter, target, other = make_user("ch_rep"), make_user("ch_tgt"), make_user("ch_other")
    won = finished_match(fixed_dice, reporter, target)  # target resigns: the reporter won
    lost = finished_match(fixed_dice, target, reporter)  # the reporter resigns
    finished_match(fixed_dice, reporter, other)  # not together
    never_started = services.match_create(creator=target, private=True, invited=reporter)
    with translation.override("en"):  # the labels are in the language of the request
        choices = report_match_choices(reporter_id=reporter.pk, target_id=target.pk)
    assert [match_id for match_id, _ in choices] == [lost.pk, won.pk]
    assert never_started.pk not in dict(choices)
    assert dict(choices)[won.pk].startswith(f"#{won.pk} · ") and "you won" in dict(choices)[won.pk]
    assert "you lost" in dict(choices)[lost.pk]


def test_at_most_ten_choices(fixed_dice):
    reporter, target = make_user("many_rep"), make_user("many_tgt")
    count = REPORT_MATCH_CHOICES + 2
    matches = [finished_match(fixed_dice, reporter, target) for _ in range(count)]
    choices = report_match_choices(reporter_id=reporter.pk, target_id=target.pk)
    assert [match_id for match_id, _ in choices] == [m.pk for m in reversed(matches)][:10]


def test_the_service_refuses_a_match_the_target_had_no_part_in(fixed_dice):
    reporter, target = make_user("sv_rep"), make_user("sv_tgt")
    strangers = finished_match(fixed_dice, make_user("sv_a"), make_user("sv_b"))
    with pytest.raises(CommandError) as refused:
        moderation.report_create(reporter=reporter, target=target, reason="other",
                                 match_id=strangers.pk)  # fmt: skip
    assert refused.value.code == "bad_field"
    assert not Report.objects.exists()


def report_url(target, query=""):
    return f"/@/{target.username}/report{query}"


def test_a_profile_report_attaches_the_chosen_match_or_none(client, fixed_dice):
    reporter, target = make_user("pf_rep"), make_user("pf_tgt")
    older = finished_match(fixed_dice, reporter, target)
    newer = finished_match(fixed_dice, reporter, target)
    client.force_login(reporter)
    page = client.get(report_url(target)).content.decode()
    assert "If you choose a match, it and its chat are attached" in page
    assert f'value="{older.pk}"' in page and f'value="{newer.pk}"' in page
    assert "No particular match" in page
    response = client.post(report_url(target), {"reason": "chat_abuse", "match": str(older.pk)})
    assert response.status_code == 302
    assert Report.objects.get().match_id == older.pk  # the chosen one, not the latest
    Report.objects.all().delete()
    client.post(report_url(target), {"reason": "chat_abuse", "match": ""})
    assert Report.objects.get().match_id is None


@pytest.mark.parametrize("value", ["abc", "12abc", "-1", "99999999999999999999999", "1e3", "²"])
def test_a_profile_report_refuses_hostile_match_values(client, fixed_dice, value):
    reporter, target = make_user("hv_rep"), make_user("hv_tgt")
    finished_match(fixed_dice, reporter, target)
    client.force_login(reporter)
    response = client.post(report_url(target), {"reason": "chat_abuse", "match": value})
    assert response.status_code == 200
    assert "Choose one of your matches together, or no particular match." in response.text
    assert not Report.objects.exists()


def test_a_profile_report_refuses_a_match_of_someone_else(client, fixed_dice):
    reporter, target = make_user("se_rep"), make_user("se_tgt")
    finished_match(fixed_dice, reporter, target)
    # The target played it, but not with the reporter: not among the choices.
    theirs = finished_match(fixed_dice, target, make_user("se_third"))
    strangers = finished_match(fixed_dice, make_user("se_a"), make_user("se_b"))
    client.force_login(reporter)
    for match in (theirs, strangers):
        response = client.post(report_url(target), {"reason": "chat_abuse", "match": str(match.pk)})
        assert response.status_code == 200
        assert "Choose one of your matches together" in response.text
    assert not Report.objects.exists()


def test_a_report_without_matches_together_says_it_is_about_the_player(client):
    reporter, target = make_user("nm_rep"), make_user("nm_tgt")
    client.force_login(reporter)
    page = client.get(report_url(target)).content.decode()
    assert "You have played no match with nm_tgt: your report is about the player." in page
    assert "are attached to your report" not in page
    client.post(report_url(target), {"reason": "other"})
    assert Report.objects.get().match_id is None


def test_a_match_page_report_names_and_attaches_that_match(client, fixed_dice):
    reporter, target = make_user("mp_rep"), make_user("mp_tgt")
    that = finished_match(fixed_dice, reporter, target)
    finished_match(fixed_dice, reporter, target)  # a later one, not the one reported
    client.force_login(reporter)
    page = client.get(report_url(target, f"?match={that.pk}")).content.decode()
    assert "This match and its chat are attached to your report." in page
    assert f"#{that.pk} · " in page and 'type="radio" name="match"' not in page
    client.post(report_url(target, f"?match={that.pk}"), {"reason": "chat_abuse",
                                                          "match": str(that.pk)})  # fmt: skip
    assert Report.objects.get().match_id == that.pk


def test_a_match_page_report_refuses_a_posted_match_other_than_the_page(client, fixed_dice):
    reporter, target = make_user("mx_rep"), make_user("mx_tgt")
    that = finished_match(fixed_dice, reporter, target)
    strangers = finished_match(fixed_dice, make_user("mx_a"), make_user("mx_b"))
    client.force_login(reporter)
    response = client.post(report_url(target, f"?match={that.pk}"),
                           {"reason": "chat_abuse", "match": str(strangers.pk)})  # fmt: skip
    assert response.status_code == 200 and not Report.objects.exists()


@pytest.mark.parametrize("query", ["abc", "", "-3", "99999999999999999999999", "²", "{other}"])
def test_a_bad_match_link_attaches_nothing_and_says_why(client, fixed_dice, query):
    reporter, target = make_user("bl_rep"), make_user("bl_tgt")
    strangers = finished_match(fixed_dice, make_user("bl_a"), make_user("bl_b"))
    client.force_login(reporter)
    url = report_url(target, "?match=" + query.format(other=strangers.pk))
    for response in (client.get(url), client.post(url, {"reason": "chat_abuse",
                                                        "match": str(strangers.pk)})):  # fmt: skip
        assert response.status_code == 302 and response.url == report_url(target)
    assert not Report.objects.exists()
    follow = client.get(url, follow=True).content.decode()
    assert "no such match" in follow or "did not play or chat in that match" in follow
