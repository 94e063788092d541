"""How chat answers the hooks of the apps below it (moderation/hooks.py), filled at start-up by
`ChatConfig.ready()` (README, "Architecture")."""

from chat.models import ChatMessage
from chat.selectors import match_chat
from moderation import hooks as moderation_hooks


def chatted_in(user_id: int, match_id: int) -> bool:
    return ChatMessage.objects.filter(match_id=match_id, user_id=user_id).exists()


def connect() -> None:
    moderation_hooks.took_part_in_match.add(chatted_in)
    moderation_hooks.match_chat.fill(match_chat)
