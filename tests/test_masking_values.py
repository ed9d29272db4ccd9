"""masking_values.py: values under a secret-sounding key that are no secret (t33-33 finding 12: a
PostgreSQL authentication method under `auth_method`)."""

from __future__ import annotations

import pytest

from renamer.masking import hides, mask_line


@pytest.mark.parametrize("method", ["md5", "trust", "reject", "scram-sha-256", "peer", "password", "'md5'",
                                    '"{{ postgresql_auth_method }}"'])
def test_an_authentication_method_under_a_method_key_is_shown(method: str) -> None:
    assert not hides("auth_method", method)
    assert not hides("method", method)
    line = f"  - {{type: host, database: all, user: all, address: '10.0.48.0/24', auth_method: {method}}}"
    assert mask_line(line) == line


@pytest.mark.parametrize(("name", "value"), [("auth", "md5"), ("auth_token", "trust"), ("password", "md5"),
                                             ("auth_method_secret", "hunter2-xyz")])
def test_anything_else_under_a_secret_key_is_still_masked(name: str, value: str) -> None:
    assert hides(name, value)


@pytest.mark.parametrize(("name", "value"), [
    ("PLEX_NO_AUTH_NETWORKS", "192.168.10.0/24"),  # t37-break finding 15 (onedr0p/home-ops)
    ("PLEX_NO_AUTH_NETWORKS", "192.168.10.0/24,10.0.0.0/8"),
    ("auth_allowed_hosts", "10.0.0.5 10.0.0.6"),
    # t38-break finding 15: an auth server, its gateway, a listen address with its port, IPv6, a list
    ("LDAP_AUTH_SERVER", "10.0.0.5"), ("RADIUS_AUTH_SERVER", "10.0.0.5"), ("AUTH_GATEWAY", "10.0.0.5"),
    ("AUTH_LISTEN", "10.0.0.5:9091"), ("AUTH_IPV6", "fd00::5"), ("auth_addr", '["10.0.0.5", "10.0.0.6"]'),
    ("pass", "specialize"),  # unattend.xml's setup pass
    ("pass", "oobeSystem"),
])
def test_addresses_and_setup_passes_are_no_secret(name: str, value: str) -> None:
    assert not hides(name, value)


@pytest.mark.parametrize(("name", "value"), [
    ("PLEX_TOKEN", "192.168.10.0/24x"), ("password", "10.0.0.5secret"), ("pass", "specialize2"),
    ("password", "0.0.0.0"), ("auth_token", "10.0.0.5"), ("api_key_hosts", "10.1.2.3"),  # the secret itself
    ("auth", "ab:cd:ef:01"), ("password", "10.0.0.5 hunter2"), ("PASSWORD_SERVER", "10.0.0.5"),
    ("LDAP_AUTH_SERVER", "10.0.0.5:hunter2"), ("AUTH_LISTEN", "deadbeef"),
])
def test_a_value_that_only_looks_so_is_still_masked(name: str, value: str) -> None:
    assert hides(name, value)
