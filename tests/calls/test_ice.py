"""TURN credentials as coturn's `use-auth-secret` checks them (calls/ice.py): the username holds
the expiry and the person (never the match: coturn's user-quota counts by the part after the
expiry), the credential is base64(HMAC-SHA1(secret, username)).
The reference value was computed with OpenSSL, not with our code:
`printf '1700003600:42' | openssl dgst -sha1 -hmac north-wind -binary | base64`."""

from __future__ import annotations

from calls.ice import ice_servers, turn_credentials, turn_password

OPENSSL_REFERENCE = "YlpCluhk1i66cE5bZO2tP7aZqpY="


def test_the_credential_is_the_hmac_sha1_openssl_computes():
    assert turn_password("north-wind", "1700003600:42") == OPENSSL_REFERENCE


def test_credentials_expire_ttl_seconds_from_now_and_name_the_person_only():
    made = turn_credentials(secret="north-wind", user_id=42, now=1_700_000_000.9, ttl_seconds=3600)
    assert made.username == "1700003600:42"
    assert made.expires_at == 1_700_003_600
    assert made.credential == OPENSSL_REFERENCE


def test_each_person_time_and_secret_gets_its_own_credential():
    def credential(**changed):
        fields = {"secret": "s", "user_id": 2, "now": 100.0, "ttl_seconds": 60}
        return turn_credentials(**{**fields, **changed}).credential

    made = {credential(), credential(user_id=3), credential(secret="t"), credential(now=101.0)}
    assert len(made) == 4


def test_ice_servers_from_the_settings_and_no_turn_without_credentials():
    made = turn_credentials(secret="north-wind", user_id=42, now=1_700_000_000, ttl_seconds=3600)
    assert ice_servers(stun_urls=[], turn_urls=[], credentials=None) == []
    stun_only = ice_servers(stun_urls=["stun:a:3478"], turn_urls=["turn:b"], credentials=None)
    assert stun_only == [{"urls": ["stun:a:3478"]}]
    both = ice_servers(
        stun_urls=["stun:a:3478"], turn_urls=["turn:b:3478", "turns:b:5349"], credentials=made
    )
    assert both[1] == {
        "urls": ["turn:b:3478", "turns:b:5349"],
        "username": "1700003600:42",
        "credential": OPENSSL_REFERENCE,
    }
