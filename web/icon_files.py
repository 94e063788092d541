"""The app's icons as the manifest names them (web/pwa.py) and web/icons.py draws them: the
static path, the size in pixels, and whether it is "maskable" (its picture inside the safe circle
a phone's mask may cut to)."""

ICONS: dict[str, tuple[int, bool]] = {
    "icons/icon-192.png": (192, False),
    "icons/icon-512.png": (512, False),
    "icons/icon-maskable-512.png": (512, True),
}
# The icon's board: the site header's brown (static/css/site.css --header-bg), also the
# manifest's theme colour.
BOARD = "#3b2a1d"
