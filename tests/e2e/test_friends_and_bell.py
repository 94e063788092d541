"""Friends and the bell in a real browser, two players in two browser contexts: A follows B from
B's profile, A's Friends page shows B online with Challenge, A challenges B while B is on the
leaderboard; B's bell counts it, opens with Accept, and B accepts from the bell: both land in
the match. Then the pages are shot on a phone and a desktop, in English and Russian: the Friends
page, the bell open, the preferences' section (static/js/bell.js, templates/friends/,
templates/notifications/).

Screenshots go to $SCREENSHOT_DIR when set (else the test's temporary folder), to be looked at."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from friends.models import Follow
from games.models import Match
from notifications.models import Kind
from notifications.services import notify
from tests.e2e.pages import SIZES, shots_folder, signed_in_context
from tests.e2e.test_live_match import off_the_browser_thread
from tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": {"follow": "Follow {name}", "challenge": "Challenge", "send": "Send the challenge",
           "accept": "Accept", "online": "Online", "challenges": "{name} challenges you"},
    "ru": {"follow": "Подписаться на {name}", "challenge": "Вызвать", "send": "Отправить вызов",
           "accept": "Принять", "online": "В сети", "challenges": "{name} бросает вам вызов"},
}  # fmt: skip


def test_a_follows_b_and_b_accepts_as_challenge_from_the_bell(browser, site, client, tmp_path):
    words = WORDS["en"]
    ana, bogdan = make_user("ana_bell"), make_user("bogdan_bell")
    a_context = signed_in_context(browser, site, client.__class__, ana, size="desktop",
                                  language="en")  # fmt: skip
    b_context = signed_in_context(browser, site, client.__class__, bogdan, size="desktop",
                                  language="en")  # fmt: skip
    b_page = b_context.new_page()
    b_page.goto(f"{site.url}/leaderboard/")
    b_page.wait_for_selector("body[data-site-socket=open]")
    a_page = a_context.new_page()
    a_page.goto(f"{site.url}/@/{bogdan.username}")
    a_page.get_by_role("button", name=words["follow"].format(name=bogdan.username)).click()
    expect(a_page.locator('[data-follow][aria-pressed="true"]')).to_be_visible()
    assert Follow.objects.filter(follower=ana, followed=bogdan).exists()
    a_page.goto(f"{site.url}/friends/")
    friend = a_page.locator(f'[data-friend="{bogdan.username}"]')
    expect(friend).to_contain_text(words["online"])  # B's leaderboard page holds a socket
    friend.get_by_role("link", name=words["challenge"]).click()
    a_page.wait_for_url(re.compile(rf"/@/{bogdan.username}/challenge/$"))
    a_page.get_by_role("button", name=words["send"]).click()
    a_page.wait_for_url(re.compile(r"/matches/\d+/$"))
    match_id = int(re.search(r"/matches/(\d+)/$", a_page.url).group(1))
    # B, still on the leaderboard: the bell counts it, and opens on it with Accept.
    expect(b_page.locator("#bell-count")).to_have_text("1")
    assert b_page.url.endswith("/leaderboard/")
    b_page.locator("#bell-button").click()
    item = b_page.locator('#bell-list .bell-item[data-kind="challenge"]')
    expect(item).to_contain_text(words["challenges"].format(name=ana.username))
    expect(b_page.locator("#bell-count")).to_be_hidden()  # opening the bell read it
    item.get_by_role("button", name=words["accept"]).click()
    b_page.wait_for_url(re.compile(rf"/matches/{match_id}/$"))
    b_page.wait_for_selector("#match-app[data-status=active]")
    a_page.wait_for_selector("#match-app[data-status=active]")
    match = Match.objects.get(pk=match_id)
    assert (match.status, match.creator_id, match.opponent_id) == ("active", ana.pk, bogdan.pk)
    a_context.close()
    b_context.close()


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_friends_page_the_bell_and_the_preferences_look_right(
    browser, site, client, tmp_path, size, language
):
    words = WORDS[language]
    viewer = make_user(f"viewer_{size}_{language}")
    friends = [make_user(f"{name}_{size}_{language}") for name in ("olga", "petr", "zoe")]
    for friend in friends:
        off_the_browser_thread(Follow.objects.create, follower=viewer, followed=friend)
    off_the_browser_thread(
        notify, recipient_id=viewer.pk, kind=Kind.ANALYSIS_READY,
        payload={"match_id": 1, "url": "/matches/1/replay/"},
    )  # fmt: skip
    off_the_browser_thread(
        notify, recipient_id=viewer.pk, kind=Kind.REPORT_DECIDED,
        payload={"player": friends[2].username, "acted": True},
    )  # fmt: skip
    off_the_browser_thread(
        notify, recipient_id=viewer.pk, kind=Kind.CHALLENGE, sender_id=friends[0].pk,
        payload={"match_id": 1, "accept_url": "/", "decline_url": "/"},
    )  # fmt: skip
    context = signed_in_context(browser, site, client.__class__, viewer, size=size,
                                language=language)  # fmt: skip
    page = context.new_page()
    shots = shots_folder(tmp_path)
    page.goto(f"{site.url}/friends/")
    page.wait_for_selector("body[data-site-socket=open]")
    expect(page.locator(".friend")).to_have_count(3)
    expect(page.locator("#bell-count")).to_have_text("3")
    page.screenshot(path=shots / f"friends-{size}-{language}.png", full_page=True)
    page.locator("#bell-button").click()
    expect(page.locator("#bell-list .bell-item")).to_have_count(3)
    expect(page.locator("#bell-list")).to_contain_text(
        words["challenges"].format(name=friends[0].username)
    )
    page.screenshot(path=shots / f"bell-{size}-{language}.png")
    # Opening marked them read: once the server's answer is drawn (the count gone), the list is
    # drawn again, so the items are measured after it, all in one go (an item measured while
    # the list was being drawn again had no box: a CI run on a loaded machine).
    expect(page.locator("#bell-count")).to_be_hidden()
    boxes = page.locator("#bell-list .bell-item").evaluate_all(
        "items => items.map(item => { const box = item.getBoundingClientRect();"
        " return {x: box.x, width: box.width}; })"
    )
    # Each item fits the screen on a phone.
    assert len(boxes) == 3
    for box in boxes:
        assert box["width"] > 0 and box["x"] >= 0 and box["x"] + box["width"] <= SIZES[size][0]
    page.goto(f"{site.url}/settings/")
    page.locator("#notification-choices").scroll_into_view_if_needed()
    page.locator("#notification-choices").screenshot(
        path=shots / f"preferences-notifications-{size}-{language}.png"
    )
    context.close()
