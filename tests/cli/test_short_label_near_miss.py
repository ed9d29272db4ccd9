"""An FQDN renamed alone leaves its short label (break-it round 22, finding 30): under
`web01.lab: app01.lab` only, `10.0.0.70 app01.lab web01`, `Host web01 app01.lab` and `ssh web01`
beside `search lab` kept the short name with no word at all. Each is now a near-miss
`short-label` (verify --strict fails on it); where the short name is renamed too, nothing is said."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from renamer.near_miss import short_labels
from tests.conftest import Result

ALLOW = 'version: 1\ncurrent: ["**"]\n'
FILES = {
    "hosts": "10.0.0.70 web01.lab web01\n",
    "ssh_config": "Host web01 web01.lab\n  HostName web01.lab\n",
    "resolv.conf": "domain lab\nsearch lab\n",
    "ops.sh": "ssh web01 uptime\nscp x WEB01:/tmp\n",
    "inventory.ini": "[web]\nweb01.lab\nweb01-bmc.lab\nweb01.other.example\n",
}


def _config(renames: str) -> str:
    return f"version: 1\nrenames:\n  hosts: {renames}\nallowlist: allow.yaml\n"


def test_the_short_label_of_an_fqdn_renamed_alone_is_said(repo: Callable[..., Path],
                                                         run: Callable[..., Result]) -> None:
    root = repo(FILES, config=_config("{web01.lab: app01.lab}"), allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stdout + swept.stderr
    assert (root / "hosts").read_text() == "10.0.0.70 app01.lab web01\n"  # the short name is not guessed
    verified = run(root, "verify")
    said = {line.split(": warning", 1)[0] for line in verified.stdout.splitlines() if "short-label" in line}
    # before: none of them, verify OK with 0 near-misses
    assert said == {"hosts:1:21", "ssh_config:1:6", "ops.sh:1:5", "ops.sh:2:7"}, verified.stdout
    assert "'web01' is the short name of 'web01.lab'" in verified.stdout
    assert run(root, "verify", "--strict").exit_code == 1


def test_nothing_is_said_where_the_short_name_is_renamed_too(repo: Callable[..., Path],
                                                             run: Callable[..., Result]) -> None:
    root = repo(FILES, config=_config("{web01.lab: app01.lab, web01: app01}"), allowlist=ALLOW)
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 0, swept.stdout + swept.stderr
    assert (root / "hosts").read_text() == "10.0.0.70 app01.lab app01\n"
    assert "short-label" not in run(root, "verify").stdout


def test_which_labels_are_said() -> None:
    assert short_labels([("web01.lab", "app01.lab")]) == [("web01", "web01.lab")]
    assert short_labels([("web01.lab", "app01.lab"), ("web01", "app01")]) == []
    assert short_labels([("www.example.com", "www.example.org")]) == []  # a service word, same label
    assert short_labels([("db.lab", "pg.lab"), ("10.0.0.7", "10.0.0.8"), ("web01", "app01")]) == []
    assert short_labels([("web01.lab", "web01.prod")]) == []  # the label does not change
