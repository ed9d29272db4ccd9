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
