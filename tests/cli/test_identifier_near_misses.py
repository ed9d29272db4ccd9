"""A word of an identifier is no near-miss of a host name (break-it round 5, finding 9): with `ns1`
renamed, `DDNS_NS1_PTR=53` and `NS1_ADDR=...` were verify warnings (failures with `--strict`)
though no host name holds `_`: they name a constant, not the machine. A hit joined by `_` in a
case the old name does not have is left out; one in the name's own case (`ns1_backup`, a name
built on it as a derived name is), a whole `NS1`, prose, and a `-` join stay near-misses."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import make_repo

Run = Callable[..., Result]
CONFIG = "version: 1\nrenames:\n  hosts: {ns1: ns2, ns1.ana.lan: ns2.fv.lan}\nallowlist: allow.yaml\n"
ALLOW = "version: 1\ncurrent: ['**']\n"
IDENTIFIERS = [
    pytest.param("dns.env", "DDNS_NS1_PTR=53\n", id="env-inner-word"),
    pytest.param("dns.env", "NS1_ADDR=10.0.0.53\n", id="env-first-word"),
    pytest.param("dns.env", "PRIMARY_NS1=10.0.0.53\n", id="env-last-word"),
    pytest.param("dns.env", "export NS1_=1\n", id="env-trailing-underscore"),
    pytest.param("run.sh", 'dig @"${NS1_IP}" example.org\n', id="shell-parameter"),
    pytest.param("run.sh", "echo $DDNS_NS1_PTR\n", id="shell-reference"),
    pytest.param("settings.py", 'NS1_ADDR = "10.0.0.53"\nprint(NS1_ADDR)\n', id="python-constant"),
    pytest.param("settings.py", "class Ns1Client:\n    pass\n", id="camel-case"),
    pytest.param("settings.py", "Ns1_Timeout = 3\n", id="mixed-case-snake"),
    pytest.param("compose.yml", "environment:\n  - DDNS_NS1_PTR=53\n", id="compose-list"),
    pytest.param("Makefile", "NS1_HOST ?= x\n", id="makefile-variable"),
]


@pytest.mark.parametrize(("name", "text"), IDENTIFIERS)
def test_a_word_of_an_identifier_is_no_near_miss(tmp_path: Path, run: Run, name: str, text: str) -> None:
    root = make_repo(tmp_path / "repo", {name: text, "hosts.txt": "resolver: ns1.ana.lan\n"}, config=CONFIG,
                     allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / name).read_text() == text  # identifiers are never rewritten without variants
    verified = run(root, "verify", "--strict", "--format", "json")
    assert json.loads(verified.stdout)["near_misses"] == []
    assert verified.exit_code == 0


@pytest.mark.parametrize(("text", "spelling"), [
    pytest.param("ns1_backup=/srv/ns1\n", "ns1", id="own-case-derived-with-underscore"),
    pytest.param("ns1_ip=10.0.0.53\n", "ns1", id="own-case-lower-variable"),
    pytest.param("NS1=10.0.0.53\n", "NS1", id="the-whole-identifier"),
    pytest.param("# NS1 is down, use ns2\n", "NS1", id="prose-in-a-comment"),
    pytest.param("NS1-ADDR=x\n", "NS1", id="joined-by-a-dash"),
    pytest.param("RESOLVER=NS1.ANA.LAN\n", "NS1.ANA.LAN", id="the-fqdn-in-capitals"),
])
def test_what_may_still_name_the_host_stays_a_near_miss(tmp_path: Path, run: Run, text: str, spelling: str) -> None:
    root = make_repo(tmp_path / "repo", {"dns.env": text}, config=CONFIG, allowlist=ALLOW)
    verified = run(root, "verify", "--strict", "--format", "json")
    assert [m["text"] for m in json.loads(verified.stdout)["near_misses"]] == [spelling]
    assert verified.exit_code == 1


def test_with_variants_the_identifiers_follow_and_nothing_is_left(tmp_path: Path, run: Run) -> None:
    """`variants: true` is the operator's way to rename the constants named for the host."""
    config = CONFIG.replace("allowlist:", "options: {variants: true}\nallowlist:")
    root = make_repo(tmp_path / "repo", {"dns.env": "DDNS_NS1_PTR=53\nNS1_ADDR=10.0.0.53\n"}, config=config,
                     allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "dns.env").read_text() == "DDNS_NS2_PTR=53\nNS2_ADDR=10.0.0.53\n"
    assert run(root, "verify", "--strict").exit_code == 0
