"""TURN credentials as coturn's `use-auth-secret` checks them (calls/ice.py): the username holds
the expiry and the player of the match, the credential is base64(HMAC-SHA1(secret, username)).
The reference value was computed with OpenSSL, not with our code:
`printf '1700003600:7-42' | openssl dgst -sha1 -hmac north-wind -binary | base64`."""

from __future__ import annotations

from calls.ice import ice_servers, turn_credentials, turn_password

OPENSSL_REFERENCE = "+uifNKf334UpMuw7xwfTOHtsIVo="


def test_the_credential_is_the_hmac_sha1_openssl_computes():
    assert turn_password("north-wind", "1700003600:7-42") == OPENSSL_REFERENCE


def test_credentials_expire_ttl_seconds_from_now_and_name_the_player_of_the_match():
    made = turn_credentials(
        secret="north-wind", match_id=7, user_id=42, now=1_700_000_000.9, ttl_seconds=3600
    )
    assert made.username == "1700003600:7-42"
    assert made.expires_at == 1_700_003_600
    assert made.credential == OPENSSL_REFERENCE


def test_each_player_match_and_secret_gets_its_own_credential():
    def credential(**changed):
        fields = {"secret": "s", "match_id": 1, "user_id": 2, "now": 100.0, "ttl_seconds": 60}
        return turn_credentials(**{**fields, **changed}).credential

    made = {credential(), credential(user_id=3), credential(match_id=4), credential(secret="t"),
            credential(now=101.0)}  # fmt: skip
    assert len(made) == 5


def test_ice_servers_from_the_settings_and_no_turn_without_a_secret():
    common = {"match_id": 7, "user_id": 42, "now": 1_700_000_000, "ttl_seconds": 3600}
    assert ice_servers(stun_urls=[], turn_urls=[], secret="", **common) == []
    stun_only = ice_servers(stun_urls=["stun:a:3478"], turn_urls=["turn:b"], secret="", **common)
    assert stun_only == [{"urls": ["stun:a:3478"]}]
    both = ice_servers(
        stun_urls=["stun:a:3478"], turn_urls=["turn:b:3478", "turns:b:5349"], secret="north-wind",
        **common,
    )  # fmt: skip
    assert both[1] == {
        "urls": ["turn:b:3478", "turns:b:5349"],
        "username": "1700003600:7-42",
        "credential": OPENSSL_REFERENCE,
    }
