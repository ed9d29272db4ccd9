"""Wildcard DNS names that spell an address (break-it round 21, finding 32): nip.io, sslip.io,
xip.io and traefik.me answer `grafana.10.0.0.70.nip.io`, `grafana-10-0-0-70.nip.io`,
`app.10-0-0-70.sslip.io` and `0a000046.nip.io` with 10.0.0.70. Under `10.0.0.70 -> 10.0.1.70`
each was a near-miss or nothing and verify said OK while the name still resolved to the old
address. Now each follows in its own spelling; one in a network moved to another size is a
residual."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

Repo = Callable[..., Path]
Run = Callable[..., Result]
ALLOW = "version: 1\ncurrent: ['**']\n"


def _config(renames: str) -> str:
    return f"version: 1\nrenames: {renames}\nallowlist: allow.yaml\n"


VALUES = ("ingress:\n  hosts:\n    - grafana.10.0.0.70.nip.io\n    - grafana.10-0-0-70.sslip.io\n"
          "    - grafana-10-0-0-70.nip.io\n    - 0a000046.nip.io\n    - other.10.0.0.71.nip.io\n")
LABELS = ('services:\n  app:\n    labels:\n      - "traefik.http.routers.app.rule=Host(`app.10.0.0.70.traefik.me`)"\n'
          "      - traefik.http.routers.b.rule=Host(`B-0A000046.NIP.IO`)\n")
ENV = "API_URL=https://10-0-0-70.sslip.io:8443/api\nOLD=http://1.10.0.0.70.xip.io/\n"


@pytest.mark.parametrize("native", ["0", "1"])
def test_finding_32_wildcard_dns_names_follow_the_renamed_address_in_their_spelling(
        native: str, repo: Repo, run: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RENAMER_NATIVE", native)  # the hyperscan first pass and the Python one alike
    files = {"values.yaml": VALUES, "compose.yaml": LABELS, "app.env": ENV}
    root = repo(files, config=_config("{addresses: {10.0.0.70: 10.0.1.70}}"), allowlist=ALLOW)
    before = run(root, "verify")
    assert before.exit_code == 1, before.stdout
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert (root / "values.yaml").read_text() == (
        "ingress:\n  hosts:\n    - grafana.10.0.1.70.nip.io\n    - grafana.10-0-1-70.sslip.io\n"
        "    - grafana-10-0-1-70.nip.io\n    - 0a000146.nip.io\n    - other.10.0.0.71.nip.io\n")
    assert (root / "compose.yaml").read_text() == LABELS.replace("10.0.0.70", "10.0.1.70").replace(
        "0A000046", "0A000146")
    assert (root / "app.env").read_text() == ("API_URL=https://10-0-1-70.sslip.io:8443/api\n"
                                              "OLD=http://1.10.0.1.70.xip.io/\n")
    after = run(root, "verify", "--strict")
    assert after.exit_code == 0, after.stdout


def test_finding_32_a_moved_network_moves_its_wildcard_names(repo: Repo, run: Run) -> None:
    files = {"hosts.yml": "pve: pve.192-168-2-5.nip.io\nnas: nas.192.168.2.9.sslip.io\nrouter: 192.168.3.1.nip.io\n"}
    root = repo(files, config=_config("{networks: {192.168.2.0/24: 192.168.4.0/24}}"), allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "hosts.yml").read_text() == ("pve: pve.192-168-4-5.nip.io\nnas: nas.192.168.4.9.sslip.io\n"
                                                "router: 192.168.3.1.nip.io\n")
    assert run(root, "verify", "--strict").exit_code == 0


def test_finding_32_a_name_whose_new_address_has_no_spelling_there_is_a_residual(repo: Repo, run: Run) -> None:
    files = {"values.yaml": "host: grafana-10-0-0-70.nip.io\n"}
    root = repo(files, config=_config("{networks: {10.0.0.0/24: 10.2.0.0/23}}"), allowlist=ALLOW)
    data = json.loads(run(root, "verify", "--format", "json").stdout)
    found = [(f["line"], f["old"], f["reason"]) for f in data["findings"] if f["reason"]]
    assert found == [(1, "10-0-0-70", "wildcard-dns")], data["findings"]
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "values.yaml").read_text() == files["values.yaml"]


def test_a_record_keeps_its_wildcard_name(repo: Repo, run: Run) -> None:
    allow = "version: 1\ncurrent: ['**']\nrecords:\n  - name: notes\n    paths: [notes/**]\n    reason: notes\n"
    files = {"notes/old.md": "was grafana-10-0-0-70.nip.io\n", "v.yaml": "host: grafana-10-0-0-70.nip.io\n"}
    root = repo(files, config=_config("{addresses: {10.0.0.70: 10.0.1.70}}"), allowlist=allow)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "notes/old.md").read_text() == files["notes/old.md"]
    assert (root / "v.yaml").read_text() == "host: grafana-10-0-1-70.nip.io\n"
    again = run(root, "sweep", "--dry-run")
    assert again.stdout.startswith("Summary: would change 0 files"), again.stdout


def test_finding_32_an_ipv6_sslip_name_follows_its_address(repo: Repo, run: Run) -> None:
    files = {"values.yaml": "host: www.fd00--70.sslip.io\nfull: fd00-0-0-0-0-0-0-70.sslip.io\nother: fd00--72.sslip.io\n"}
    root = repo(files, config=_config('{addresses: {"fd00::70": "fd00::71"}}'), allowlist=ALLOW)
    assert run(root, "verify").exit_code == 1
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "values.yaml").read_text() == ("host: www.fd00--71.sslip.io\nfull: fd00-0-0-0-0-0-0-71.sslip.io\n"
                                                  "other: fd00--72.sslip.io\n")
    assert run(root, "verify", "--strict").exit_code == 0
