"""A network literal in an access rule around a renamed address (break-it round 21, finding 29,
part a): under an address rename alone, `Allow from 10.0.0.70/30` was moved as a network (the
rule's neighbours lost access). In an access rule's context such a literal is a residual
`access-set`, nothing of it rewritten; an interface's address with its prefix still follows."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

CONFIG = "version: 1\nrenames:\n  addresses: {10.0.0.70: 10.0.1.70}\nallowlist: allow.yaml\n"
ALLOW = "version: 1\ncurrent: ['**']\n"


@pytest.mark.parametrize("rel, text, line", [
    pytest.param("htaccess.conf", "Allow from 10.0.0.70/30\n", 1, id="apache-allow-from"),
    pytest.param("app.yaml", "trusted_networks:\n  - 10.0.0.70/31\n", 2, id="trusted-list"),
    pytest.param("fw.sh", "iptables -A INPUT -s 10.0.0.70/29 -j ACCEPT  # 10.0.0.70 itself\n", 1,
                 id="iptables-source"),
    pytest.param("smb.conf", "[share]\nhosts allow = 10.0.0.70/255.255.255.248\n", 2, id="samba-dotted-mask"),
])
def test_an_access_rules_network_around_a_renamed_address_is_a_residual(
        rel: str, text: str, line: int, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({rel: text}, config=CONFIG, allowlist=ALLOW)
    verify = run(root, "verify", "--format", "json")
    reasons = {(f["line"], f["reason"]) for f in json.loads(verify.stdout)["findings"] if f["reason"]}
    assert (line, "access-set") in reasons
    run(root, "sweep", "--commit")
    after = (root / rel).read_text()
    assert "10.0.1.70/" not in after  # never moved as a network
    assert run(root, "verify").exit_code == 1


@pytest.mark.parametrize("text, expected", [
    pytest.param("address 10.0.0.70/24\n", "address 10.0.1.70/24\n", id="interface-address"),
    pytest.param("allow 10.0.0.70;\n", "allow 10.0.1.70;\n", id="a-single-address-rule"),
    pytest.param("allow 10.0.0.70/32;\n", "allow 10.0.1.70/32;\n", id="a-host-route"),
    pytest.param("allow 10.0.5.0/24; # db at 10.0.0.70\n", "allow 10.0.5.0/24; # db at 10.0.1.70\n",
                 id="a-rule-not-holding-it"),
])
def test_noop_what_is_no_access_set_around_it_follows(text: str, expected: str, repo: Callable[..., Path],
                                                     run: Callable[..., Result]) -> None:
    root = repo({"net.conf": text}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "net.conf").read_text() == expected
    assert run(root, "verify", "--strict").exit_code == 0


@pytest.mark.parametrize("text", [
    # pi-cluster's chrony `allow 10.0.0.0/24` under 10.0.0.12 -> 10.0.0.42: both inside, nothing to decide
    pytest.param("allow 10.0.0.0/24\nserver 10.0.0.70\n", id="a-network-holding-both"),
    pytest.param("To reach the nodes from my home network (10.0.0.0/23) see 10.0.0.70\n", id="prose-from"),
])
def test_noop_a_rule_that_still_admits_the_host(text: str, repo: Callable[..., Path],
                                                run: Callable[..., Result]) -> None:
    conf = "version: 1\nrenames:\n  addresses: {10.0.0.70: 10.0.0.90}\nallowlist: allow.yaml\n"
    root = repo({"chrony.conf": text}, config=conf, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "chrony.conf").read_text() == text.replace("10.0.0.70", "10.0.0.90")
    assert run(root, "verify", "--strict").exit_code == 0


# Part b: a rule file that spells no old value (the first pass let it through only for an old
# value, so the rule was never read and verify said OK while the renamed host lost its access).
@pytest.mark.parametrize("native", ["0", "1"])
@pytest.mark.parametrize("rel, text, line, old", [
    pytest.param("nginx.conf", "location / {\n  allow 10.0.0.64/29;\n  deny all;\n}\n", 2, "10.0.0.64/29",
                 id="nginx-allow"),
    pytest.param("fw.sh", "iptables -A INPUT -s 10.0.0.64/28 -p tcp --dport 22 -j ACCEPT\n", 1, "10.0.0.64/28",
                 id="iptables-source"),
    pytest.param("smb.conf", "[share]\nhosts allow = 10.0.0.64/255.255.255.248\n", 2,
                 "10.0.0.64/255.255.255.248", id="samba-dotted-mask"),
    pytest.param("app.yaml", "trusted_networks:\n  - 10.0.0.70/29 # the host\n", 2, "10.0.0.70", id="yaml-list-host-bits"),
    pytest.param("svc.yaml", "spec:\n  loadBalancerSourceRanges: [\"10.0.0.0/25\"]\n", 2, "10.0.0.0/25",
                 id="k8s-source-ranges"),
    pytest.param("sg.tf", 'resource "x" "y" {\n  cidr_blocks = ["10.0.0.0/23"]\n}\n', 2, "10.0.0.0/23",
                 id="terraform-cidr-blocks"),
])
def test_an_access_rule_around_a_renamed_address_in_a_file_holding_no_old_value(
        rel: str, text: str, line: int, old: str, native: str, repo: Callable[..., Path],
        run: Callable[..., Result], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RENAMER_NATIVE", native)  # the hyperscan first pass and the Python one alike
    conf = "version: 1\nrenames:\n  addresses: {10.0.0.70: 10.0.2.70}\nallowlist: allow.yaml\n"
    root = repo({rel: text, "hosts": "10.0.0.70 db\n"}, config=conf, allowlist=ALLOW)
    verify = run(root, "verify", "--format", "json")
    found = [(f["path"], f["line"], f["old"], f["reason"]) for f in json.loads(verify.stdout)["findings"]
             if f["path"] == rel]
    assert found == [(rel, line, old, "access-set")], verify.stdout
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / rel).read_text() == text  # nothing rewritten by guess
    assert (root / "hosts").read_text() == "10.0.2.70 db\n"
    checked = run(root, "verify")
    assert checked.exit_code == 1 and f"{rel}:{line}:" in checked.stdout, checked.stdout


@pytest.mark.parametrize("native", ["0", "1"])
@pytest.mark.parametrize("text", [
    pytest.param("allow 10.0.0.0/22;\n", id="a-rule-holding-both"),
    pytest.param("address 10.0.0.64/29\n", id="an-interface-not-a-rule"),
    pytest.param("allow 10.0.5.0/24;\n", id="a-rule-not-holding-it"),
    pytest.param("See the 10.0.0.64/29 block in the runbook.\n", id="prose"),
])
def test_noop_a_file_holding_no_old_value_and_no_rule_around_it(
        text: str, native: str, repo: Callable[..., Path], run: Callable[..., Result],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RENAMER_NATIVE", native)
    conf = "version: 1\nrenames:\n  addresses: {10.0.0.70: 10.0.2.70}\nallowlist: allow.yaml\n"
    root = repo({"net.conf": text}, config=conf, allowlist=ALLOW)
    assert run(root, "verify", "--strict").exit_code == 0
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "net.conf").read_text() == text
