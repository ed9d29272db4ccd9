"""A PowerDNS resolver entry's API keys at load: the key itself is refused with file, line and key,
never repeated; the key is read from its file or variable at run time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from renamer.dns.powerdns import config
from renamer.errors import ConfigError, UnsafeError
from renamer.formats.yaml_source import Problems, load_yaml_file

SECRET = "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5"


def load(tmp_path: Path, text: str) -> tuple[config.ApiSettings | None, list[str]]:
    path = tmp_path / "resolvers.yaml"
    path.write_text(text)
    entry: Any = load_yaml_file(path, "dns/resolvers.yaml")["resolvers"][0]
    problems = Problems("dns/resolvers.yaml")
    settings = config.check(entry, lambda key, message: problems.add(entry, key if key in entry else None,
                                                                     f"resolvers[0].{key}", message))
    return settings, [p.render() for p in problems.items]


def test_the_api_keys_load(tmp_path: Path) -> None:
    settings, problems = load(tmp_path, "resolvers:\n  - name: ns-fv\n    api: http://127.0.0.1:8081/\n"
                                        "    api_key_env: PDNS_API_KEY\n")
    assert problems == [] and settings == config.ApiSettings("http://127.0.0.1:8081", "localhost", None,
                                                             "PDNS_API_KEY")


@pytest.mark.parametrize(("line", "key"), [
    (f"api_key: {SECRET}", "api_key"),  # the key itself
    (f"api_key_env: {SECRET}", "api_key_env"),  # the key where its variable's name goes
    (f"api_key_env: '{SECRET}='", "api_key_env"),  # base64 padding: no variable has it
    (f"api_key_file: {SECRET}", "api_key_file"),  # not a path: the key
])
def test_a_key_in_the_inventory_is_refused_with_file_line_and_key_never_shown(tmp_path: Path, line: str,
                                                                               key: str) -> None:
    settings, problems = load(tmp_path, "resolvers:\n  - name: ns-fv\n    api: http://127.0.0.1:8081\n"
                                        f"    {line}\n")
    assert settings is None
    assert any(p.startswith(f"dns/resolvers.yaml:4: resolvers[0].{key}: ") for p in problems), problems
    assert not any(SECRET in p for p in problems)


def test_credentials_in_the_url_and_file_backend_keys_are_refused(tmp_path: Path) -> None:
    settings, problems = load(tmp_path, "resolvers:\n  - name: ns-fv\n"
                                        f"    api: http://admin:{SECRET}@127.0.0.1:8081\n"
                                        "    api_key_env: PDNS_API_KEY\n    snippet_dir: /etc/x\n"
                                        "    reload: [pdns_control, reload]\n")
    assert settings is None and not any(SECRET in p for p in problems)
    assert [p.split(": ")[1] for p in problems] == ["resolvers[0].reload", "resolvers[0].snippet_dir",
                                                    "resolvers[0].api"]
    assert problems[0].startswith("dns/resolvers.yaml:6: ")


def test_the_key_is_read_from_its_file_or_variable(tmp_path: Path) -> None:
    key_file = tmp_path / "pdns.key"
    key_file.write_text(SECRET + "\n")
    key_file.chmod(0o600)
    assert config.read_key(config.ApiSettings("http://x", key_file=str(key_file))) == SECRET
    key_file.chmod(0o644)
    with pytest.raises(UnsafeError, match="readable by others"):
        config.read_key(config.ApiSettings("http://x", key_file=str(key_file)))
    assert config.read_key(config.ApiSettings("http://x", key_env="K"), {"K": SECRET}) == SECRET
    with pytest.raises(ConfigError, match="K is not set"):
        config.read_key(config.ApiSettings("http://x", key_env="K"), {})


@pytest.mark.parametrize("api", [
    "http://127.0.0.1:8081", "https://pdns.lab.lan:8443/", "http://[2001:db8::53]:8081",
    "https://lab.lan/powerdns/",  # behind a proxy, under a path
])
def test_a_plain_api_url_loads(tmp_path: Path, api: str) -> None:
    settings, problems = load(tmp_path, f"resolvers:\n  - name: ns-fv\n    api: '{api}'\n"
                                        "    api_key_env: PDNS_API_KEY\n")
    assert problems == [] and settings is not None and settings.url == api.rstrip("/")


def test_allow_unchanged_serial_is_a_boolean(tmp_path: Path) -> None:
    base = "resolvers:\n  - name: ns-fv\n    api: http://127.0.0.1:8081\n    api_key_env: PDNS_API_KEY\n"
    settings, problems = load(tmp_path, base + "    allow_unchanged_serial: true\n")
    assert problems == [] and settings is not None and settings.allow_unchanged_serial
    settings, problems = load(tmp_path, base + "    allow_unchanged_serial: 'yes please'\n")
    assert settings is None
    assert problems == ["dns/resolvers.yaml:5: resolvers[0].allow_unchanged_serial: expected true or false, "
                        "got 'yes please'"]
