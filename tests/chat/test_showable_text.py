"""Empty or unshowable text (config/showable_text.py; docs/protocol.md `chat`): chat messages,
usernames and report texts that show nothing or hold direction controls are refused with
`bad_field`, and nothing is stored. Through the real ASGI application and Redis."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from chat.models import ChatMessage
from config.showable_text import UnshowableText, check_showable, is_showable
from tests.chat.test_chat_socket import chat_match, open_socket, send_chat  # noqa: F401

INVISIBLE = {
    "zero-width spaces": "\u200b\u200b\u200b",
    "a byte order mark": "\ufeff",
    "combining marks only": "\u0301\u0308\u0327",
    "a grapheme joiner and variation selectors": "\u034f\ufe0f\ufe0e",
    "joiners": "\u200d\u200c\u2060",
    "a soft hyphen": "\u00ad",
    "tag characters": "\U000e0067\U000e0062\U000e007f",
    "Hangul fillers": "\u3164\u115f\uffa0",
    "braille blanks": "\u2800\u2800",
    "wide spaces and invisibles": "\u3000\u200b\u2003\ufeff",
    "a direction mark alone": "\u200f",
}
DIRECTION_CONTROLS = {
    "a right-to-left override": "\u202egg wp",
    "an override after text": "nice \u202etrats",
    "a left-to-right override": "\u202dabc",
    "an embedding": "\u202babc\u202c",
    "an isolate": "\u2066abc\u2069",
    "a first-strong isolate": "\u2068abc",
}
CONTROLS = {"NUL": "a\u0000b", "escape": "a\x1b[2Jb", "a lone surrogate": "\ud83c x",
            "a line break in chat": "good\ngame", "next line": "a\x85b"}  # fmt: skip
SHOWABLE = {
    "plain": "gg",
    "Cyrillic": "хорошая игра",
    "Arabic": "مرحبا",
    "Hebrew": "שלום",
    "an accent as a combining mark": "cafe\u0301",
    "a family emoji (joiners)": "\U0001f468\u200d\U0001f469\u200d\U0001f467",
    "a heart with a variation selector": "\u2764\ufe0f",
    "an emoji newer than the Unicode tables": "\U0001fa77",
    "a zero-width space between words": "good\u200bgame",
    "a right-to-left mark inside": "a\u200fb",
    "markup, shown as text": "<b>hi</b>",
}


@pytest.mark.parametrize(("text", "reason"), [
    *((text, "invisible") for text in INVISIBLE.values()),
    *((text, "bidi") for text in DIRECTION_CONTROLS.values()),
    *((text, "control") for text in CONTROLS.values()),
    ("", "invisible"),
])  # fmt: skip
def test_the_rule_refuses(text, reason):
    with pytest.raises(UnshowableText) as refused:
        check_showable(text)
    assert refused.value.reason == reason
    assert str(refused.value.message)


@pytest.mark.parametrize("text", SHOWABLE.values(), ids=SHOWABLE.keys())
def test_the_rule_keeps(text):
    check_showable(text)


def test_multi_line_texts_keep_line_breaks_but_not_nothing():
    assert is_showable("first line\r\n\tsecond line", multiline=True)
    assert not is_showable("first line\nsecond", multiline=False)
    assert not is_showable("\n\r\n\t\u200b", multiline=True)
    assert not is_showable("line\n\u202eflipped", multiline=True)


@pytest.mark.django_db(transaction=True)
async def test_chat_refuses_unshowable_texts_over_the_socket(chat_match):  # noqa: F811
    match, _, (white_cookie, _, watcher_cookie) = chat_match
    player, _ = await open_socket(match.pk, white_cookie)
    watcher, _ = await open_socket(match.pk, watcher_cookie)
    # A lone surrogate does not even parse as a frame (bad_json, tests/integration fuzz).
    controls = {name: text for name, text in CONTROLS.items() if name != "a lone surrogate"}
    refused = {**INVISIBLE, **DIRECTION_CONTROLS, **controls}
    for socket in (player, watcher):
        for name, text in refused.items():
            answer = await send_chat(socket, name, text=text)
            assert (answer["type"], answer["code"]) == ("error", "bad_field"), name
            assert answer["message"], name
            padded = await send_chat(socket, name, text=f"  {text}  ")
            assert padded["type"] == "error", name
    assert await sync_to_async(ChatMessage.objects.count)() == 0
    for name, text in SHOWABLE.items():
        assert (await send_chat(player, name, text=text))["type"] == "ack", name
    stored = await sync_to_async(list)(ChatMessage.objects.values_list("text", flat=True))
    assert sorted(stored) == sorted(SHOWABLE.values())
    for socket in (player, watcher):
        await socket.disconnect()
