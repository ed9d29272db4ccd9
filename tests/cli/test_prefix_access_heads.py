"""Access rules naming a moved network by a partial address are said (f28, finding 19).

Samba `hosts allow = 127. 10.0.48.`, Apache `Require ip 10.0.48`, a MySQL account's host
`'app'@'10.0.48.%'` were neither rewritten nor reported under a network move, verify OK, while
each rule kept admitting the old network and refused the new one. Each is now a `prefix`
residual, never rewritten, whatever the move's lengths; another network's partial address, a
comment and a longer address are left.
"""

from __future__ import annotations

import json
import re

import pytest

from tests.testing.findings import networks_config as _config
from tests.testing.repos import Repo, Run

ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _rules(head: str) -> dict[str, str]:
    """The access rules of several tools, each naming the network by `head` (no trailing dot)."""
    return {
        "smb.conf": f"[global]\n   hosts allow = 127. {head}.\n   hosts deny = ALL\n",
        "apache.conf": f"<Directory /srv>\n  Require ip {head}\n</Directory>\n",
        "apache22.conf": f"<Location />\n  Order deny,allow\n  Allow from 192.0.2.1 {head}\n</Location>\n",
        "grants.sql": f"GRANT ALL ON db.* TO 'app'@'{head}.%';\n",
        "hosts.allow": f"sshd: 127.0.0.1, {head}.\n",
        "xinetd.d/tftp": f"service tftp\n{{\n  only_from = 127.0.0.1 {head}.\n}}\n",
        "postfix/access": f"{head}   OK\n",
        "pg_hba.conf": f"host all all {head} md5\n",
        "proftpd.conf": f"<Limit LOGIN>\n  Allow from {head}.\n  DenyAll\n</Limit>\n",
    }


# (networks, the head spelled, files where it is said)
CASES = [
    ("10.0.48.0/24: 10.20.0.0/22", "10.0.48"),  # the finding's move
    ("10.0.48.0/24: 10.0.49.0/24", "10.0.48"),  # equal lengths
    ("10.0.48.0/22: 10.0.48.0/24", "10.0.50"),  # a shrink: a head inside the old /22
    ("10.0.48.0/23: 10.0.48.0/24", "10.0.49"),
    ("10.20.0.0/16: 10.30.0.0/16", "10.20"),  # a /16's two octets
    ("10.0.48.0/24: 10.0.48.0/22", "10.0.48"),  # a grow in place: the rule admits a quarter of it
]


@pytest.mark.parametrize(("networks", "head"), CASES, ids=[c[0] for c in CASES])
def test_an_access_rule_naming_the_network_by_its_head_is_a_residual(repo: Repo, run: Run, networks: str,
                                                                     head: str) -> None:
    files = _rules(head)
    root = repo(files, config=_config(networks), allowlist=ALLOW)
    checked = run(root, "verify", "--format", "json")
    assert checked.exit_code == 1, checked.stdout
    found = {f["path"]: f for f in json.loads(checked.stdout)["findings"]}
    assert set(found) == set(files), sorted(found)
    for finding in found.values():
        assert (finding["status"], finding["reason"]) == ("residual", "prefix"), finding
        assert finding["old"] in (head, head + "."), finding
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr  # left for a decision, nothing rewritten
    assert all((root / rel).read_text() == text for rel, text in files.items())
    text = run(root, "verify").stdout
    # the lines sharing an explanation point to it, said once below them (t35, finding 23)
    shared = re.search(rf"^smb\.conf:2:23: residual \(prefix\): {re.escape(head)}\. \(why: (prefix #\d)\)$", text, re.M)
    assert shared, text
    assert text.count(f"\n  {shared[1]}: `{head}.` spells the leading octets of the moved network") == 1, text
    assert "an access rule's partial address (it admits the old network, and refuses the new one)" in text


def test_other_networks_comments_and_longer_addresses_are_left(repo: Repo, run: Run) -> None:
    files = {
        "smb.conf": "[global]\n   hosts allow = 127. 10.0.5. 10.0.480.\n",
        "apache.conf": "Require ip 10.0.480\nRequire ip 10.0.48.7.1\n# Require ip 10.0.48\n",
        "hosts.allow": "10.0.48.: sshd\n",  # a daemon list, no client (not a TCP-wrappers client)
        "notes.yml": "version 10.0.48 is fine\n",
    }
    root = repo(files, config=_config("10.0.48.0/24: 10.20.0.0/22"), allowlist=ALLOW)
    checked = run(root, "verify")
    assert checked.exit_code == 0, checked.stdout


def test_the_finding_19_repro(repo: Repo, run: Run) -> None:
    files = {"smb.conf": "[global]\n   hosts allow = 127. 10.0.48.\n",
             "apache.conf": "<Directory /srv>\n  Require ip 10.0.48\n</Directory>\n",
             "grants.sql": "GRANT ALL ON db.* TO 'app'@'10.0.48.%';\n",
             "hosts.allow": "sshd: 10.0.48.\n",
             "full.conf": "hosts allow = 10.0.48.0/255.255.255.0\n"}
    root = repo(files, config=_config("10.0.48.0/24: 10.20.0.0/22"), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "full.conf").read_text() == "hosts allow = 10.20.0.0/255.255.252.0\n"  # the full form follows
    found = {f["path"] for f in json.loads(run(root, "verify", "--format", "json").stdout)["findings"]}
    assert found == {"smb.conf", "apache.conf", "grants.sql", "hosts.allow"}
