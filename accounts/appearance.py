"""How the pages look for a request: light or dark, the board's theme, the checkers' colours.

A signed-in player's saved choice wins (a guest is a row too), then the visitor's cookie, then the
defaults. The base template writes the result on <html> and links the dark stylesheet only when it
applies (templates/base.html), so the first paint is already right: no script has to run and
repaint. Saving a choice also sets the cookie, so a guest whose session ends, or a player who logs
out, keeps the look on that device.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

from django.http import HttpRequest, HttpResponse

from accounts.models import BoardTheme, CheckerColours, ColourScheme, User

COOKIE_NAME = "appearance"
COOKIE_AGE = 365 * 24 * 3600
# The three values joined by a dot ("dark.felt.ivory-ebony"): none of them contains one.
SEPARATOR = "."
CHOICES = {
    "colour_scheme": ColourScheme,
    "board_theme": BoardTheme,
    "checker_colours": CheckerColours,
}


@dataclass(frozen=True)
class Appearance:
    colour_scheme: str = ColourScheme.SYSTEM.value
    board_theme: str = BoardTheme.WOOD.value
    checker_colours: str = CheckerColours.IVORY_EBONY.value

    @property
    def cookie_value(self) -> str:
        return SEPARATOR.join(getattr(self, field.name) for field in fields(self))

    def as_dict(self) -> dict[str, str]:
        return asdict(self)


FIELDS: tuple[str, ...] = tuple(field.name for field in fields(Appearance))
assert set(FIELDS) == set(CHOICES), "every part of the look has its choices"


def from_cookie(value: str | None) -> Appearance:
    """The cookie's look; a part that is missing or not offered (an old or forged cookie) is the
    default, the others are kept."""
    parts = (value or "")[:64].split(SEPARATOR)
    chosen = {
        name: part
        for name, part in zip(FIELDS, parts, strict=False)
        if part in CHOICES[name].values
    }
    return Appearance(**chosen)


def appearance_of(request: HttpRequest) -> Appearance:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return Appearance(**{name: getattr(user, name) for name in FIELDS})
    return from_cookie(request.COOKIES.get(COOKIE_NAME))


def appearance_save(request: HttpRequest, response: HttpResponse, appearance: Appearance) -> None:
    """On the signed-in user's row (guests' too) and in the cookie, for whoever asks."""
    user = request.user
    if user.is_authenticated:
        User.objects.filter(pk=user.pk).update(**appearance.as_dict())
    response.set_cookie(
        COOKIE_NAME,
        appearance.cookie_value,
        max_age=COOKIE_AGE,
        samesite="Lax",
        secure=request.is_secure(),
        httponly=True,
    )


def appearance_context(request: HttpRequest) -> dict[str, object]:
    """Template context processor: the request's `appearance` on every page, and the schemes the
    footer's switch offers (templates/base.html)."""
    return {"appearance": appearance_of(request), "colour_schemes": ColourScheme.choices}
