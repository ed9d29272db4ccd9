"""A network literal holding a renamed host and unmoved neighbours, outside the access words the
reader knew (t31 sweep finding 01; issue 27 item 2, sets in every dress). Under an address rename,
Vault's `token_bound_cidrs="10.0.0.70/30"`, pg_hba, a NetworkPolicy `ipBlock: cidr:`, Traefik's
`sourceRange`, sshd's `Match Address`, firewalld's `source address=`, a MySQL account's host mask,
Caddy's `remote_ip`, AWS `CidrIp` and Cilium's `except:` were rewritten whole (the rule moved for
the neighbours: .71 refused, .73 admitted), sweep 0, verify OK; and a literal with no host bits
set (`10.0.0.68/30`: a network, never one host's address) was rewritten in prose. Each is a
residual `access-set` now, nothing of it rewritten; an interface's address with its prefix
(`address 10.0.0.70/24`, a point-to-point `/31`) still follows."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.testing.repos import CURRENT_ALL, Repo, Run

CONFIG = "version: 1\nrenames:\n  addresses: {10.0.0.70: 10.0.1.70, 10.0.0.68: 10.0.1.68}\nallowlist: allow.yaml\n"

HELD: dict[str, tuple[bytes, set[int]]] = {
    # the tester's repro (t31 sweep repro/01.sh)
    "vault.sh": (b'vault write auth/approle/role/bootstrap \\\n'
                 b'  secret_id_bound_cidrs="10.0.0.70/31" token_bound_cidrs="10.0.0.70/30"\n', {2}),
    "pg_hba.conf": (b"host  all  all  10.0.0.70/31  scram-sha-256\n", {1}),
    "netpol.yaml": (b"apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nspec:\n  ingress:\n    - from:\n"
                    b"        - ipBlock:\n            cidr: 10.0.0.70/30\n", {7}),
    "traefik.yml": (b'http:\n  middlewares:\n    lan-only:\n      ipAllowList:\n        sourceRange:\n'
                    b'          - "10.0.0.70/30"\n', {6}),
    "sshd_config": (b"Match Address 10.0.0.70/30\n    PasswordAuthentication yes\n", {1}),
    "fw.sh": (b"firewall-cmd --add-rich-rule='rule family=\"ipv4\" source address=\"10.0.0.70/30\" accept'\n", {1}),
    "grant.sql": (b"GRANT ALL ON app.* TO 'app'@'10.0.0.70/255.255.255.252';\n", {1}),
    "Caddyfile": (b"@lan remote_ip 10.0.0.70/30\n", {1}),
    "sg.json": (b'{"IpPermissions": [{"IpProtocol": "tcp", "IpRanges": [{"CidrIp": "10.0.0.70/30"}]}]}\n', {1}),
    "cnp.yaml": (b"apiVersion: cilium.io/v2\nkind: CiliumNetworkPolicy\nspec:\n  egressDeny:\n    - toCIDRSet:\n"
                 b"        - cidr: 10.0.0.0/8\n          except:\n            - 10.0.0.68/30\n", {8}),
    "README.md": (b"The runner may reach the nodes in `10.0.0.68/30` (`.68` to `.71`) only.\n", {1}),
    # variants of our own: CRLF and a BOM, Latin-1, Terraform, JSON lists, Cilium fromCIDR, GCP
    "pg_hba-crlf.conf": (b"\xef\xbb\xbf# TYPE DATABASE USER ADDRESS METHOD\r\nhostssl replication repl "
                         b"10.0.0.70/255.255.255.254 md5\r\n", {2}),
    "notes-latin1.md": ("R\u00e9seau des h\u00f4tes : 10.0.0.68/30, caf\u00e9.\n".encode("latin-1"), {1}),
    "vault.tf": (b'resource "vault_approle_auth_backend_role" "ci" {\n  token_bound_cidrs = ["10.0.0.70/30"]\n}\n'
                 b'resource "google_sql_database_instance" "db" {\n  settings {\n    ip_configuration {\n'
                 b'      authorized_networks { value = "10.0.0.70/31" }\n    }\n  }\n}\n', {2, 7}),
    "role.json": (b'{\n  "token_bound_cidrs": [\n    "10.0.0.70/30"\n  ],\n  "ip_whitelist": "10.0.0.70/29"\n}\n',
                  {3, 5}),
    "ccnp.yaml": (b"spec:\n  ingress:\n    - fromCIDR:\n        - 10.0.0.70/30\n", {4}),
    "authorized_keys": (b'from="10.0.0.70/30" ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI ops\n', {1}),
    "sg.tf": (b'module "sg" {\n  ingress_cidr_blocks = ["10.0.0.70/30"]\n}\n', {2}),
    "fw.ps1": (b"New-NetFirewallRule -DisplayName ssh -RemoteAddress 10.0.0.70/30 -Action Allow\n", {1}),
    "rules.nft": (b"table inet f {\n  chain input {\n    ip saddr 10.0.0.70/30 tcp dport 22 counter\n  }\n}\n", {3}),
}


def _access_lines(run: Run, root: Path) -> tuple[int, set[tuple[str, int]]]:
    done = run(root, "verify", "--strict", "--format", "json")
    found = json.loads(done.stdout)["findings"]
    return done.exit_code, {(f["path"], f["line"]) for f in found if f["reason"] == "access-set"}


def test_a_network_literal_holding_a_renamed_host_and_its_neighbours_is_held(repo: Repo, run: Run) -> None:
    root = repo(dict((rel, data) for rel, (data, _) in HELD.items()), config=CONFIG, allowlist=CURRENT_ALL)
    expected = {(rel, n) for rel, (_, lines) in HELD.items() for n in lines}
    code, found = _access_lines(run, root)
    assert code == 1 and found == expected, (found ^ expected)
    assert run(root, "sweep", "--commit").exit_code == 1  # residuals for a decision, nothing moved
    for rel, (data, _) in HELD.items():
        assert (root / rel).read_bytes() == data, rel
    assert _access_lines(run, root) == (1, expected)
    json.loads((root / "sg.json").read_text())
    json.loads((root / "role.json").read_text())
    if shutil.which("terraform"):
        done = subprocess.run(["terraform", "fmt", "-check", "-"], input=(root / "vault.tf").read_bytes(),
                              capture_output=True)
        assert b"Error" not in done.stderr, done.stderr


@pytest.mark.parametrize(("text", "after"), [
    pytest.param("address 10.0.0.70/24\n", "address 10.0.1.70/24\n", id="interface-address"),
    pytest.param("network:\n  ethernets:\n    eth0:\n      addresses: [10.0.0.70/24]\n",
                 "network:\n  ethernets:\n    eth0:\n      addresses: [10.0.1.70/24]\n", id="netplan"),
    pytest.param("ip addr add 10.0.0.70/31 dev eth1\n", "ip addr add 10.0.1.70/31 dev eth1\n",
                 id="point-to-point-31"),
    pytest.param("vms:\n  web:\n    cidr: 10.0.0.70/24\n    gateway: 10.0.0.1\n",
                 "vms:\n  web:\n    cidr: 10.0.1.70/24\n    gateway: 10.0.0.1\n", id="a-vm-address-key"),
    pytest.param("allow 10.0.0.70/32;\n", "allow 10.0.1.70/32;\n", id="a-host-route"),
    pytest.param("host all all 10.0.0.70/32 md5\n", "host all all 10.0.1.70/32 md5\n", id="pg-hba-one-host"),
    pytest.param("the host 10.0.0.70 sits in 10.0.0.0/24\n", "the host 10.0.1.70 sits in 10.0.0.0/24\n",
                 id="a-network-not-spelling-it"),
])
def test_noop_what_is_no_set_around_the_host_follows(repo: Repo, run: Run, text: str, after: str) -> None:
    root = repo({"n.yaml": text}, config=CONFIG, allowlist=CURRENT_ALL)
    assert _access_lines(run, root)[1] == set()
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "n.yaml").read_text() == after
    assert run(root, "verify", "--strict").exit_code == 0


@pytest.mark.parametrize("native", ["0", "1"])
@pytest.mark.parametrize(("rel", "text", "line"), [
    pytest.param("vault.sh", 'vault write r token_bound_cidrs="10.0.0.64/29"\n', 1, id="vault-bound-cidrs"),
    pytest.param("sg.json", '{"IpRanges": [{"CidrIp": "10.0.0.64/28"}]}\n', 1, id="aws-cidrip"),
    pytest.param("traefik.yml", "ipAllowList:\n  sourceRange:\n    - 10.0.0.64/29\n", 3, id="traefik-source-range"),
])
def test_a_new_rule_spelling_in_a_file_holding_no_old_value(rel: str, text: str, line: int, native: str,
                                                            repo: Repo, run: Run,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RENAMER_NATIVE", native)  # the hyperscan first pass and the Python one alike
    conf = "version: 1\nrenames:\n  addresses: {10.0.0.70: 10.0.2.70}\nallowlist: allow.yaml\n"
    root = repo({rel: text, "hosts": "10.0.0.70 db\n"}, config=conf, allowlist=CURRENT_ALL)
    assert _access_lines(run, root) == (1, {(rel, line)})
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / rel).read_text() == text
