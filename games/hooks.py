"""What games' pages need from the apps above it (chat, pairing), which games never imports: they
fill these hooks in their `AppConfig.ready()` (config/hooks.py; README, "Architecture")."""

from config.hooks import Hook

# (user or None) -> the Play page's quick-pairing card (pairing.selectors.play_page_pairing).
play_page_pairing = Hook("games.play_page_pairing")

# () -> what the match page's chat box needs: {"quick_phrases": ..., "chat_max_length": ...}.
match_page_chat = Hook("games.match_page_chat")

# (match_id, viewer_id=...) -> a finished match's whole chat as the replay shows it, without the
# messages of anyone the viewer blocks or is blocked by (chat.selectors.match_chat).
replay_chat = Hook("games.replay_chat")
