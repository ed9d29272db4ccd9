"""verify never prints `X -> X` (f28, finding 21).

`255.255.255.0 -> 255.255.255.0`, `24 -> 24`, `192.168.40.0/24 -> 192.168.40.0/24` (an Ansible
`ipaddr('broadcast')`) and `49.0.10.in-addr.arpa -> 49.0.10.in-addr.arpa` told the reader nothing.
A mask or length nothing ties to the network now carries the value it becomes where one network of
that length is named; a residual with nothing to write shows its value once, in text and SARIF.
"""

from __future__ import annotations

import json
import re

import pytest

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Repo, Run

ALLOW = 'version: 1\ncurrent: ["**"]\n'
SOA = "@ IN SOA ns1.example.com. admin.example.com. ( 1 3600 600 86400 300 )\n@ IN NS ns1.example.com.\n"
SAME = re.compile(r"residual(?: \([a-z-]+\))?: (\S+) -> (\S+?):? ")


VARS = ("lan_cidr: {net}\nlan_bcast: \"{{{{ lan_cidr | ansible.utils.ipaddr('broadcast') }}}}\"\n"
        "lan_netmask: {mask}\nlan_prefix: {length}\n")


@pytest.mark.parametrize(("old", "new", "mask", "new_mask"), [
    ("192.168.40.0/24", "192.168.40.0/22", "255.255.255.0", "255.255.252.0"),  # the finding's
    ("10.0.48.0/29", "10.0.48.0/28", "255.255.255.248", "255.255.255.240"),
    ("10.0.48.0/23", "10.0.48.0/24", "255.255.254.0", "255.255.255.0"),
])
def test_verify_says_what_to_write_or_says_the_value_once(repo: Repo, run: Run, old: str, new: str, mask: str,
                                                          new_mask: str) -> None:
    length, new_length = old.split("/")[1], new.split("/")[1]
    files = {"vars.yml": VARS.format(net=old, mask=mask, length=length),
             "named.conf": 'zone "48.0.10.in-addr.arpa" { type master; file "db.48"; };\n',
             "db.48": f"$TTL 300\n{SOA}"}
    root = repo(files, config=_config(f"{old}: {new}"), allowlist=ALLOW)
    run(root, "sweep", "--commit")
    text = run(root, "verify").stdout
    pairs = SAME.findall(text)
    assert pairs, text
    assert all(a != b for a, b in pairs), pairs
    assert f"residual (mask): {mask} -> {new_mask} [lan_netmask]" in text, text
    assert f"residual (mask): {length} -> {new_length} [lan_prefix]" in text, text
    assert f"residual (composed-address): {old} [lan_bcast]" in text, text
    data = json.loads(run(root, "verify", "--format", "json").stdout)
    masks = {(f["old"], f["new"]) for f in data["findings"] if f["reason"] == "mask"}
    assert masks == {(mask, new_mask), (length, new_length)}
    sarif = json.loads(run(root, "verify", "--format", "sarif").stdout)
    messages = [r["message"]["text"] for r in sarif["runs"][0]["results"]]
    assert messages and not any(re.match(r"(\S+) -> \1:", m) for m in messages), messages
    explained = run(root, "explain", "vars.yml").stdout
    assert f"[lan_bcast]  {old}: residual" in explained, explained
    assert not re.search(r" (\S+) -> \1: ", explained), explained


def test_a_needed_reverse_zone_is_named_once(repo: Repo, run: Run) -> None:
    files = {"named.conf": 'zone "48.0.10.in-addr.arpa" { type master; file "db.48"; };\n', "db.48": f"$TTL 300\n{SOA}"}
    root = repo(files, config=_config("10.0.48.0/24: 10.0.48.0/23"), allowlist=ALLOW)
    run(root, "sweep", "--commit")
    text = run(root, "verify").stdout
    assert "named.conf:1:7: residual (reverse-zone): 49.0.10.in-addr.arpa: 10.0.48.0/24 -> 10.0.48.0/23" in text, text
    sarif = json.loads(run(root, "verify", "--format", "sarif").stdout)
    assert [r["message"]["text"].split(":")[0] for r in sarif["runs"][0]["results"]] == ["49.0.10.in-addr.arpa"]
