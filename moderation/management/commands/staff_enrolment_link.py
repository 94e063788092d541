"""Print a one-time two-factor enrolment link for a staff member (moderation/staff_mfa.py).

For the first superuser, whom nobody in the admin can send one: a shell on the server is what
the password alone does not give. Everyone after that gets the link by email from a superuser.
"""

from django.core.management.base import BaseCommand, CommandError

from accounts.models import User
from moderation.staff_mfa import ENROLMENT_LINK_SECONDS, enrolment_link_create, has_two_factors


class Command(BaseCommand):
    help = "Print a one-time link with which a staff member sets up two-factor authentication."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument(
            "--site",
            default="",
            help="the site's address to put in front, e.g. https://nardy.example.org",
        )

    def handle(self, *args, username: str, site: str, **options) -> None:
        user = User.objects.filter(username=username).first()
        if user is None or not user.is_staff or not user.is_active:
            raise CommandError(f"{username!r} is not active staff.")
        if has_two_factors(user):
            raise CommandError(f"{username!r} has two factors already.")
        path = enrolment_link_create(user)
        self.stdout.write(site.rstrip("/") + path)
        hours = ENROLMENT_LINK_SECONDS // 3600
        self.stderr.write(f"Open it signed in as {username}, within {hours} hours; it works once.")
