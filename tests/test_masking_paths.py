"""Which secret-named values are only where a key lies (masking_paths.py): pairs of a no-op (the
value stays masked) beside each value shown."""

from __future__ import annotations

import pytest

from renamer.masking_paths import is_material, is_path, names_a_key, names_a_location


@pytest.mark.parametrize(("value", "expected"), (
    pytest.param("~/.ssh/pug_ed25519", True, id="home"),
    pytest.param("~op/.ssh/id_rsa", True, id="another-user-s-home"),
    pytest.param("/etc/ssl/private/pug.key", True, id="absolute"),
    pytest.param("./certs/pug.pem", True, id="relative"),
    pytest.param("../tls/server.key", True, id="parent"),
    pytest.param('"C:/keys/pug.pem"', True, id="drive-quoted"),
    pytest.param("$HOME/.ssh/id_ed25519", True, id="home-variable"),
    pytest.param("id_pug_ed25519", True, id="key-file-name"),
    pytest.param("pug.pem  # deploy", True, id="with-a-comment"),
    pytest.param("/etc/my keys/pug.key", False, id="blank-inside"),
    pytest.param("hunter2", False, id="a-password"),
    pytest.param("/9j/4AAQSkZJRgABAQAAAQABAAD", False, id="base64-starting-with-a-slash"),
    pytest.param("AKIAIOSFODNN7EXAMPLE.pem", False, id="key-id-as-a-file-name"),
    pytest.param("-----BEGIN OPENSSH PRIVATE KEY-----", False, id="pem-armour"),
    pytest.param("/srv/k/MIIEvQIBADANBgkqhkiG9w0BAQ.pem", False, id="material-inside-a-path"),
    pytest.param("", False, id="empty"),
))
def test_is_path(value: str, expected: bool) -> None:
    assert is_path(value) is expected


@pytest.mark.parametrize(("words", "expected"), (
    pytest.param(["ssh", "private", "key", "file"], True, id="a-key-s-file"),
    pytest.param(["password", "file"], True, id="a-password-s-file"),
    pytest.param(["private", "key"], True, id="key-material"),
    pytest.param(["tls", "key"], True, id="tls-key"),
    pytest.param(["password"], False, id="password"),
    pytest.param(["api", "key"], False, id="api-key"),
    pytest.param(["secret", "key"], False, id="secret-key"),
    pytest.param(["auth", "token"], False, id="token"),
))
def test_names_a_location(words: list[str], expected: bool) -> None:
    assert names_a_location(words) is expected


def test_key_material_under_a_name_saying_key() -> None:
    assert names_a_key(["tls", "key"]) and names_a_key(["key"]) and not names_a_key(["monkey"])
    assert is_material("AKIAIOSFODNN7EXAMPLE") and is_material("MC4CAQAwBQYDK2VwBCIEIOe0Xq")
    assert not is_material("value") and not is_material("user-1234")
