from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.http import HttpRequest
from django.utils import translation

from accounts.models import User
from accounts.usernames import validate_username
from realtime.language import supported_language, user_language


class AccountAdapter(DefaultAccountAdapter):
    """Sign-up is open; `ACCOUNT_ALLOW_SIGNUP=0` in the environment closes it (maintenance).

    A new user keeps the language they signed up in, and every email to a user is written in the
    user's language (accounts/language.py), whatever language the page that triggered it was in.

    A username must show and must not pass for the site's own accounts (accounts/usernames.py).
    """

    def clean_username(self, username: str, shallow: bool = False) -> str:
        validate_username(username)
        return super().clean_username(username, shallow=shallow)

    def is_open_for_signup(self, request: HttpRequest) -> bool:
        return getattr(settings, "ACCOUNT_ALLOW_SIGNUP", True)

    def new_user(self, request: HttpRequest):
        """Signing up from a guest session turns the guest's own row into the new account, so
        its matches and history stay its own; everyone else gets a new row."""
        current = getattr(request, "user", None)
        if current is not None and current.is_authenticated and current.is_guest:
            return User.objects.get(pk=current.pk, is_guest=True)
        return super().new_user(request)

    def save_user(self, request: HttpRequest, user, form, commit: bool = True):  # noqa: ANN001
        user.is_guest = False
        if not user.language:
            user.language = supported_language(translation.get_language()) or ""
        return super().save_user(request, user, form, commit=commit)

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        recipient = context.get("user")
        if recipient is None:
            recipient = User.objects.filter(email__iexact=email).first()
        language = user_language(recipient) or translation.get_language()
        with translation.override(language):
            super().send_mail(template_prefix, email, context)
