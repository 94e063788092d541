from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.http import HttpRequest


class AccountAdapter(DefaultAccountAdapter):
    """Sign-up is open; `ACCOUNT_ALLOW_SIGNUP=0` in the environment closes it (maintenance)."""

    def is_open_for_signup(self, request: HttpRequest) -> bool:
        return getattr(settings, "ACCOUNT_ALLOW_SIGNUP", True)
