from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.http import HttpRequest
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext

from accounts.models import User
from accounts.usernames import validate_username
from realtime.language import supported_language, user_language

RETURN_KEY = "signup_return_to"  # the page a new player signed up from


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
        # Where the player signed up from: the confirmation link brings them back there.
        back = request.POST.get("next") or request.GET.get("next")
        if back and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
            request.signup_return_to = back  # kept in the session by login() below
        user.is_guest = False
        if not user.language:
            user.language = supported_language(translation.get_language()) or ""
        return super().save_user(request, user, form, commit=commit)

    def login(self, request: HttpRequest, user) -> None:  # noqa: ANN001
        """The sign-up's login starts a new session (the password changed: Django flushes the
        old one), so the page to return to is written after it."""
        super().login(request, user)
        back = getattr(request, "signup_return_to", None)
        if back:
            request.session[RETURN_KEY] = back

    def get_email_verification_redirect_url(self, email_address) -> str:  # noqa: ANN001
        back = self.request.session.pop(RETURN_KEY, None)
        return back or super().get_email_verification_redirect_url(email_address)

    def format_email_subject(self, subject: str) -> str:
        """The site's own name before every subject ("Long Nardy: …"), in the reader's language
        (send_mail sets it), not the host's name allauth would put there."""
        return gettext("Long Nardy: %(subject)s") % {"subject": subject}

    def send_mail(self, template_prefix: str, email: str, context: dict) -> None:
        recipient = context.get("user")
        if recipient is None:
            recipient = User.objects.filter(email__iexact=email).first()
        language = user_language(recipient) or translation.get_language()
        with translation.override(language):
            super().send_mail(template_prefix, email, context)
