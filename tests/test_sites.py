"""sites.inventory_at: the DNS inventory as a commit holds it (renamer undo --dns), read from git's
objects, never from the work tree."""

from __future__ import annotations

import os

import pytest

from renamer.config_load import load_config
from renamer.errors import ConfigError
from renamer.sites import inventory_at
from tests.testing.repos import CONFIG, CURRENT_ALL, Repo, git

RESOLVERS = ("resolvers:\n  - name: ns-ana\n    address: 127.0.0.1\n    port: 5353\n    backend: dnsmasq\n"
             "    target: local\n    snippet_dir: /tmp/renamer-never-written/d\n"
             "    backup_dir: /tmp/renamer-never-written/b\n    test: [dnsmasq, --test]\n"
             "    reload: [systemctl, restart, dnsmasq]\n")
ANA = ("site: ana\ndomain: ana.lan\nnetwork: 10.250.0.0/16\nhosts:\n"
       "  - name: ana-ml2\n    address: 10.250.50.54\n")


def test_the_inventory_of_a_commit_not_the_work_tree(repo: Repo) -> None:
    root = repo({"dns/resolvers.yaml": RESOLVERS, "dns/sites/ana.yaml": ANA}, allowlist=CURRENT_ALL)
    before = git(root, "rev-parse", "HEAD").strip()
    (root / "dns/sites/ana.yaml").write_text(ANA.replace("ana-ml2", "ana-nas"))
    (root / "dns/sites/fv.yaml").write_text("site: fv\ndomain: fv.lan\nnetwork: 10.251.0.0/16\nhosts:\n"
                                            "  - name: fv-ml1\n    address: 10.251.50.54\n")
    os.symlink("/etc/passwd", root / "dns/sites/link.yaml")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "the fv site")
    config = load_config(root / "renamer.yaml", root)
    old = inventory_at(config, before, ("fv-ml1", "ana-ml2"), ("10.251.50.54", "10.250.50.54"))
    assert [(s.name, [h.name for h in s.hosts], s.source) for s in old.sites] == [
        ("ana", ["ana-ml2"], "dns/sites/ana.yaml")]  # shown by its path in the repo: snippet headers name it
    assert old.folder == config.dns_dir  # the apply's log goes where dns apply's does
    assert old.old_hosts == ("fv-ml1",) and old.old_addresses == ("10.251.50.54",)  # what it defines stays
    assert [r.name for r in old.resolvers] == ["ns-ana"]
    now = inventory_at(config, "HEAD")  # a link in the inventory is never followed: not read at all
    assert sorted(s.name for s in now.sites) == ["ana", "fv"]


def test_a_commit_without_an_inventory_says_so(repo: Repo) -> None:
    root = repo({"runbook.md": "ssh ana-ml2\n"}, config=CONFIG, allowlist=CURRENT_ALL)
    config = load_config(root / "renamer.yaml", root)
    head = git(root, "rev-parse", "HEAD").strip()
    with pytest.raises(ConfigError, match=f"^dns: no DNS inventory in commit {head[:12]}: nothing to apply"):
        inventory_at(config, "HEAD")
    with pytest.raises(ConfigError, match=r"^HEAD~5: no such commit: its DNS inventory cannot be read$"):
        inventory_at(config, "HEAD~5")
