"""Blocks (no challenge, accept, rematch or pairing between the two, either way) and reports."""

from __future__ import annotations

import pytest

from games import services
from games.models import Match
from games.services import CommandError
from moderation import services as moderation
from moderation.models import Block, Report
from moderation.selectors import blocked_between
from tests.factories import make_user
from tests.moderation.conftest import active_match

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("blocker_is_creator", [True, False])
def test_a_block_refuses_accepting_either_way(blocker_is_creator):
    creator, acceptor = make_user("creator"), make_user("acceptor")
    if blocker_is_creator:
        moderation.block_add(user=creator, target=acceptor)
    else:
        moderation.block_add(user=acceptor, target=creator)
    assert blocked_between(creator.pk, acceptor.pk) and blocked_between(acceptor.pk, creator.pk)
    for private in (False, True):  # an open challenge and an invite link alike
        match = services.match_create(creator=creator, private=private)
        with pytest.raises(CommandError) as refused:
            services.match_accept(user=acceptor, match_id=match.pk, token=match.invite_token)
        assert refused.value.code == "blocked"
        match.refresh_from_db()
        assert (match.status, match.opponent_id) == ("open", None)
    # Someone else may still accept the blocker's challenge.
    services.match_accept(user=make_user("third"), match_id=match.pk, token=match.invite_token)


def test_unblocking_allows_play_again():
    creator, acceptor = make_user("c2"), make_user("a2")
    moderation.block_add(user=creator, target=acceptor)
    assert moderation.block_remove(user=creator, target_id=acceptor.pk)
    assert not blocked_between(creator.pk, acceptor.pk)
    match = services.match_create(creator=creator)
    services.match_accept(user=acceptor, match_id=match.pk)
    assert Match.objects.get(pk=match.pk).status == "active"


@pytest.mark.parametrize("blocker_offers", [True, False])
def test_a_block_refuses_a_rematch_either_way(fixed_dice, blocker_offers):
    one, two = make_user("r1"), make_user("r2")
    match = active_match(fixed_dice, one, two, turn_seconds=60)
    services.match_resign(user=two, match_id=match.pk)
    moderation.block_add(user=one if blocker_offers else two, target=two if blocker_offers else one)
    for player in (one, two):
        with pytest.raises(CommandError) as refused:
            services.match_rematch_offer(user=player, match_id=match.pk)
        assert refused.value.code == "blocked"
    assert Match.objects.get(pk=match.pk).rematch_offered_by is None


def test_block_refusals():
    user = make_user("self")
    with pytest.raises(CommandError):
        moderation.block_add(user=user, target=user)
    other = make_user("other")
    moderation.block_add(user=user, target=other)
    moderation.block_add(user=user, target=other)  # twice: one row
    assert Block.objects.filter(blocker=user).count() == 1


def test_the_block_list_is_capped(settings):
    settings.MAX_BLOCKS = 2
    user = make_user("capped")
    for number in range(2):
        moderation.block_add(user=user, target=make_user(f"t{number}"))
    with pytest.raises(CommandError) as refused:
        moderation.block_add(user=user, target=make_user("t3"))
    assert refused.value.code == "too_many_blocks"


def test_a_report_attaches_only_the_match_named_and_is_one_open_per_pair(fixed_dice):
    reporter, target = make_user("rep"), make_user("tgt")
    active_match(fixed_dice, reporter, target)
    report = moderation.report_create(reporter=reporter, target=target, reason="stalling",
                                      text="  never moves  ")  # fmt: skip
    # No match named, none attached: the latest match together is not guessed.
    assert (report.match_id, report.text, report.status) == (None, "never moves", "open")
    with pytest.raises(CommandError) as refused:
        moderation.report_create(reporter=reporter, target=target, reason="other")
    assert refused.value.code == "already_reported"
    assert Report.objects.count() == 1


def test_report_refusals(settings):
    reporter, target = make_user("rep2"), make_user("tgt2")
    for reason, text, code in (
        ("nonsense", "", "bad_field"),
        ("other", "x" * 501, "too_long"),
    ):
        with pytest.raises(CommandError) as refused:
            moderation.report_create(reporter=reporter, target=target, reason=reason, text=text)
        assert refused.value.code == code
    with pytest.raises(CommandError):
        moderation.report_create(reporter=reporter, target=reporter, reason="other")
    unrelated = services.match_create(creator=make_user("elsewhere"))
    with pytest.raises(CommandError):  # a match the target had nothing to do with
        moderation.report_create(reporter=reporter, target=target, reason="other",
                                 match_id=unrelated.pk)  # fmt: skip
    assert Report.objects.count() == 0


def test_reports_are_rate_limited(settings):
    settings.REPORTS_PER_DAY = 3
    reporter = make_user("busy")
    for number in range(3):
        moderation.report_create(reporter=reporter, target=make_user(f"x{number}"), reason="other")
    with pytest.raises(CommandError) as refused:
        moderation.report_create(reporter=reporter, target=make_user("x4"), reason="other")
    assert refused.value.code == "rate_limited"
    assert Report.objects.filter(reporter=reporter).count() == 3


def test_a_guest_cannot_report():
    guest = make_user("guest")
    guest.is_guest = True  # accounts/guests.py's guests carry this flag
    with pytest.raises(CommandError) as refused:
        moderation.report_create(reporter=guest, target=make_user("y"), reason="other")
    assert refused.value.code == "not_allowed"


def test_report_and_block_pages(client):
    reporter, target = make_user("page_rep"), make_user("page_tgt")
    client.force_login(reporter)
    profile = client.get(f"/@/{target.username}")
    assert b'id="block-button"' in profile.content and b'id="report-link"' in profile.content
    response = client.post(f"/@/{target.username}/report",
                           {"reason": "chat_abuse", "text": "<b>rude</b>"})  # fmt: skip
    assert response.status_code == 302
    assert Report.objects.get().text == "<b>rude</b>"
    client.post(f"/@/{target.username}/block")
    assert blocked_between(reporter.pk, target.pk)
    settings_page = client.get("/settings/")
    assert target.username.encode() in settings_page.content
    client.post(f"/@/{target.username}/unblock", {"next": "/settings/"})
    assert not blocked_between(reporter.pk, target.pk)


# --- Report texts follow the rule of every text others read (config/showable_text.py) ---------


@pytest.mark.parametrize(
    "text",
    ["\u200b\u200b\u200b", "\u0301\u0301", "\ufeff", "\u2800", "\u202eflipped reason",
     "see\u2066 isolate", "bell\x07", "\n\n\u200b"],
)  # fmt: skip
def test_a_report_text_that_shows_nothing_or_flips_is_refused(text):
    reporter, target = make_user("t_rep"), make_user("t_tgt")
    with pytest.raises(CommandError) as refused:
        moderation.report_create(reporter=reporter, target=target, reason="other", text=text)
    assert refused.value.code == "bad_field"
    assert not Report.objects.exists()


def test_a_report_text_keeps_its_line_breaks(client):
    reporter, target = make_user("lines_rep"), make_user("lines_tgt")
    text = "first he insulted me\r\nthen he stalled"
    moderation.report_create(reporter=reporter, target=target, reason="other", text=text)
    assert Report.objects.get().text == text
    # The page says why a text is refused and stores nothing.
    client.force_login(make_user("page_rep2"))
    response = client.post(f"/@/{target.username}/report",
                           {"reason": "other", "text": "\u202eevil"})  # fmt: skip
    assert response.status_code == 200 and b"direction controls" in response.content
    assert Report.objects.count() == 1
