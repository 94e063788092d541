"""Production mode comes from the environment and refuses to run unsafely."""

import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "x7!Qm2#vR9pL4$wN8zK1@tY6&uB3^eH5*jC0(gD2)fS9_aZ7+iO4=lM1-qW8[xE6]",
    "ALLOWED_HOSTS": "nardy.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://nardy.example.org",
    "EMAIL_HOST": "smtp.example.org",
}

# Each test starts manage.py or a fresh interpreter: settings are read once, at start.
pytestmark = pytest.mark.integration


def manage(*arguments: str, **environment: str) -> subprocess.CompletedProcess:
    env = {**os.environ, **environment}
    return subprocess.run(
        [sys.executable, "manage.py", *arguments], cwd=ROOT, env=env, capture_output=True, text=True
    )


def test_production_without_secret_key_refuses_to_start():
    env = {name: value for name, value in os.environ.items() if name != "SECRET_KEY"}
    env.update({name: value for name, value in PRODUCTION.items() if name != "SECRET_KEY"})
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_check_deploy_is_clean_in_production_mode():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_is_clean_with_hsts_opted_in():
    result = manage(
        "check", "--deploy", "--fail-level", "WARNING",
        SECURE_HSTS_SECONDS="31536000", SECURE_HSTS_INCLUDE_SUBDOMAINS="1",
        SECURE_HSTS_PRELOAD="1", **PRODUCTION,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_development_check_deploy_does_report_problems():
    """The deploy check is real: development settings (DEBUG on, insecure key) fail it."""
    result = manage("check", "--deploy", "--fail-level", "WARNING", DEBUG="1")
    assert result.returncode != 0
    assert "security.W018" in result.stderr + result.stdout  # DEBUG on in deployment


def test_test_dice_seam_cannot_be_switched_on_in_production():
    result = manage("check", NARDY_TEST_DICE="1", **PRODUCTION)
    assert result.returncode != 0
    assert "NARDY_TEST_DICE cannot be switched on in production" in result.stderr


def test_production_hashes_passwords_with_pbkdf2_even_when_asked_for_the_fast_hasher():
    """The test run hashes with MD5 (NARDY_FAST_PASSWORD_HASHER); production never does."""
    show = (
        "from django.contrib.auth.hashers import get_hasher;"
        " print(get_hasher().algorithm, get_hasher().iterations)"
    )
    result = manage("shell", "-c", show, NARDY_FAST_PASSWORD_HASHER="1", **PRODUCTION)
    assert result.stdout.splitlines()[-1] == "pbkdf2_sha256 1000000", result.stdout + result.stderr
    result = manage("shell", "-c", show, NARDY_FAST_PASSWORD_HASHER="", DEBUG="1")
    assert result.stdout.splitlines()[-1] == "pbkdf2_sha256 1000000", result.stdout + result.stderr


def test_the_test_run_hashes_passwords_fast(db):
    """`config.launcher test` switches the fast hasher on for this process and its children."""
    from django.contrib.auth.hashers import get_hasher

    from tests.factories import make_user

    assert get_hasher().algorithm == "md5"
    assert make_user("hashed").password.startswith("md5$")
    result = manage("shell", "-c", "from django.contrib.auth.hashers import get_hasher;"
                    " print(get_hasher().algorithm)", DEBUG="1")  # fmt: skip
    assert result.stdout.splitlines()[-1] == "md5", result.stdout + result.stderr


def test_debug_is_off_unless_set():
    """A deployment that forgot DEBUG=0 would run with debug pages and the published key.
    Unset, DEBUG is off, so without SECRET_KEY the site refuses to start."""
    env = {name: value for name, value in os.environ.items() if name not in ("DEBUG", "SECRET_KEY")}
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); from django.conf import settings;"
         " print(settings.DEBUG)"],
        cwd=ROOT, env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True, text=True,
    )  # fmt: skip
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr
    result = manage("shell", "-c", "from django.conf import settings; print(settings.DEBUG)",
                    **{**PRODUCTION, "DEBUG": ""})  # fmt: skip
    assert result.stdout.splitlines()[-1] == "False", result.stdout + result.stderr


def test_the_sign_up_switch_is_read_from_the_environment():
    """ACCOUNT_ALLOW_SIGNUP=0 is documented, so it must be read."""
    show = "from django.conf import settings; print(settings.ACCOUNT_ALLOW_SIGNUP)"
    for value, expected in (("0", "False"), ("1", "True"), ("", "True")):
        result = manage("shell", "-c", show, DEBUG="1", ACCOUNT_ALLOW_SIGNUP=value)
        assert result.stdout.splitlines()[-1] == expected, result.stdout + result.stderr
