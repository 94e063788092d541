"""How chat answers the hooks of the apps below it (games/hooks.py, moderation/hooks.py), filled
at start-up by `ChatConfig.ready()` (docs/architecture.md, "Architecture")."""

from chat.models import MAX_CHAT_LENGTH, ChatMessage, QuickPhrase
from chat.selectors import match_chat
from games import hooks as games_hooks
from moderation import hooks as moderation_hooks


def chatted_in(user_id: int, match_id: int) -> bool:
    return ChatMessage.objects.filter(match_id=match_id, user_id=user_id).exists()


def match_page_chat() -> dict:
    return {"quick_phrases": QuickPhrase.choices, "chat_max_length": MAX_CHAT_LENGTH}


def connect() -> None:
    games_hooks.match_page_chat.fill(match_page_chat)
    games_hooks.replay_chat.fill(match_chat)
    moderation_hooks.took_part_in_match.add(chatted_in)
    moderation_hooks.match_chat.fill(match_chat)
