"""Socket errors, the services' refusals included, in the socket's language: the user's
saved choice, else the language cookie, else Accept-Language."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import translation

from games import services
from tests.factories import make_user
from web.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)
BASE_HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


def translated(language: str, message: str) -> str:
    with translation.override(language):
        text = translation.gettext(message)
    assert text != message, f"no {language} translation of {message!r}"
    return text


async def first_error(path: str, headers: list[tuple[bytes, bytes]], send=None) -> dict:
    socket = WebsocketCommunicator(application, path, headers=BASE_HEADERS + headers)
    connected, _ = await socket.connect()
    assert connected
    if send is not None:
        await socket.send_json_to(send)
    while True:
        message = await socket.receive_json_from(timeout=5)
        if message["type"] == "error":
            await socket.disconnect()
            return message


@pytest.mark.parametrize(
    ("headers", "language"),
    [
        ([(b"accept-language", b"ru-RU,ru;q=0.9")], "ru"),
        ([(b"accept-language", b"de,el;q=0.5")], "el"),
        ([(b"accept-language", b"ru"), (b"cookie", b"django_language=sr-latn")], "sr-latn"),
        ([(b"cookie", b"django_language=klingon"), (b"accept-language", b"uk")], "uk"),
    ],
)
async def test_anonymous_socket_speaks_the_cookie_or_browser_language(headers, language):
    error = await first_error("/ws/matches/999999/", headers)
    assert error["code"] == "not_found"
    assert error["message"] == translated(language, "There is no such match.")


async def test_no_language_given_means_english():
    error = await first_error("/ws/matches/999999/", [])
    assert error["message"] == "There is no such match."


async def test_a_services_refusal_comes_in_the_signed_in_users_saved_language(client):
    @sync_to_async
    def setup():
        white, black = make_user(language="el"), make_user(language="ro")
        match = services.match_create(creator=white)
        services.match_accept(user=black, match_id=match.pk)
        match.refresh_from_db()
        client.force_login(black)
        return match, f"sessionid={client.cookies['sessionid'].value}".encode()

    match, cookie = await setup()
    # Romanian user, Greek browser: the user's choice wins. Nothing can be undone yet (the opening
    # roll is random, so which refusal comes depends on who starts).
    error = await first_error(
        f"/ws/matches/{match.pk}/",
        [(b"cookie", cookie), (b"accept-language", b"el")],
        send={"type": "undo", "version": match.version},
    )
    assert error["message"] in {
        translated("ro", "It is not your turn."),
        translated("ro", "Roll the dice first."),
        translated("ro", "There is no step to take back."),
    }
    frame_error = await first_error(
        f"/ws/matches/{match.pk}/", [(b"cookie", cookie)], send={"type": "fly"}
    )
    assert frame_error["code"] == "unknown_type"
    assert frame_error["message"] == translated("ro", "Unknown message type %(type)r.") % {
        "type": "fly"
    }


async def test_sockets_of_one_process_keep_their_own_languages():
    """Each socket's language is active in its own task only (realtime/socket.py `dispatch`):
    frames sent on a Russian and an English socket in turn are each answered in their socket's
    language, and the caller's language is untouched."""

    @sync_to_async
    def open_match():
        return services.match_create(creator=make_user()).pk

    path = f"/ws/matches/{await open_match()}/"
    russian = WebsocketCommunicator(
        application, path, headers=BASE_HEADERS + [(b"accept-language", b"ru")]
    )
    english = WebsocketCommunicator(application, path, headers=BASE_HEADERS)
    for socket in (russian, english):
        connected, _ = await socket.connect()
        assert connected
    unknown = "Unknown message type %(type)r."
    before = translation.get_language()
    for _ in range(2):
        for socket, language in ((russian, "ru"), (english, "en")):
            await socket.send_json_to({"type": "fly"})
            while (message := await socket.receive_json_from(timeout=5))["type"] != "error":
                pass
            assert message["message"] == (
                translated(language, unknown) if language == "ru" else unknown
            ) % {"type": "fly"}
    assert translation.get_language() == before
    for socket in (russian, english):
        await socket.disconnect()
