import time

from allauth.account import app_settings as account_settings
from allauth.account.adapter import DefaultAccountAdapter
from allauth.core import ratelimit
from allauth.core.exceptions import ImmediateHttpResponse
from allauth.mfa.utils import is_mfa_enabled
from django.conf import settings
from django.http import HttpRequest
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext

from accounts.models import User
from accounts.usernames import validate_username
from config.client_address import address_bucket
from realtime.language import supported_language, user_language

# allauth's rate-limit action (ACCOUNT_RATE_LIMITS, config/settings/) that counts the accounts
# made per address, beside its own `signup`, which counts the forms sent.
ACCOUNTS_MADE_ACTION = "signup_account_made"
RETURN_KEY = "signup_return_to"  # the page a new player signed up from
# When this session's login was completed (every stage done: the password, and the code for an
# account with two factors), for is_reauthentication_required below.
LOGGED_IN_AT_KEY = "logged_in_at"


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

    def pre_authenticate(self, request: HttpRequest, **credentials) -> None:
        """allauth counts failed logins per client address and per "key", which it makes of the
        login typed: five wrong passwords from anywhere locked the owner out of their account
        (anyone could do it to a rival, or to staff). The key given here is the address and the
        login together (an IPv6 client by its /64), so failures lock out only the address they
        came from; the `ip` rate (ACCOUNT_RATE_LIMITS "login_failed") bounds each address across
        accounts. allauth still takes back a successful login's count."""
        login = credentials.get("email", credentials.get("username", ""))
        address = address_bucket(self.get_client_ip(request))
        super().pre_authenticate(request, username=f"{address} {login}")

    def save_user(self, request: HttpRequest, user, form, commit: bool = True):  # noqa: ANN001
        # Accounts made per address (ACCOUNTS_MADE_ACTION): a form refused for a typo is not
        # one, so this can be a few an hour where allauth's count of forms sent cannot.
        if not ratelimit.consume(request, action=ACCOUNTS_MADE_ACTION):
            raise ImmediateHttpResponse(ratelimit.respond_429(request))
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
        if is_mfa_enabled(user):  # the login's last stage was the code (allauth's mfa)
            request.session[LOGGED_IN_AT_KEY] = time.time()
        back = getattr(request, "signup_return_to", None)
        if back:
            request.session[RETURN_KEY] = back

    def is_reauthentication_required(self, *, app: str, **kwargs) -> bool:
        """allauth asks for the password again before a change to the two factors (and counts
        only a reauthentication as recent, never the login itself), so a staff member who had
        just signed in with password and code was asked for the password at once on the
        recovery codes. A login completed with two factors less than REAUTHENTICATION_TIMEOUT
        ago is as fresh as a reauthentication; later, and after a login by password alone (a
        stolen password must not reach the factors), the password is asked for as before."""
        if not super().is_reauthentication_required(app=app, **kwargs):
            return False
        request = self.request
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated or not is_mfa_enabled(user):
            return True
        logged_in_at = request.session.get(LOGGED_IN_AT_KEY)
        fresh = isinstance(logged_in_at, float) and (
            time.time() - logged_in_at < account_settings.REAUTHENTICATION_TIMEOUT
        )
        return not fresh

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
