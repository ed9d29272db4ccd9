"""A map keyed by inventory host names, read by the machine's own name (break-it round 16, #18).

`peers: {pug:  # renamer: keep ...}` stayed while `hosts.ini`'s `pug` became `wolf`; the template's
`{{ peers[inventory_hostname].pubkey }}` then read nothing on wolf (ansible printed MISSING), sweep
0, verify OK. Where a reader looks a map up by `inventory_hostname` (`ansible_hostname`, `.get(...)`),
the map's key named like a host and that inventory host are one name: kept on one side and renamed
on the other, the renamed side is held (a `key-reference` residual naming the reader), nothing of
the pair written; renamed together, both follow and Ansible reads the key on the renamed host.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import PUG_ALLOW as ALLOW
from tests.testing.repos import PUG_CONFIG as CONFIG

INVENTORY = "[vpn]\npug\nrex\n"
PEERS = "peers:\n  pug:{mark}\n    pubkey: AAA\n  rex:\n    pubkey: BBB\n"
KEEP = "  # renamer: keep (peer id registered on the hub)"
READERS = [
    pytest.param("PublicKey = {{ peers[inventory_hostname].pubkey }}\n", "", id="the-report"),
    pytest.param("PublicKey = {{ (peers.get(inventory_hostname) or {}).pubkey }}\n", "", id="get"),
    pytest.param("PublicKey = {{ vpn['peers'][ansible_hostname].pubkey }}\n", "vpn", id="nested-fact"),
]


def _vars(prefix: str, mark: str) -> str:
    text = PEERS.format(mark=mark)
    return f"{prefix}:\n" + "".join(f"  {line}\n" for line in text.splitlines()) if prefix else text


def _residuals(root: Path, run: Callable[..., Result]) -> list[tuple[str, int]]:
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return sorted((str(f["path"]), int(f["line"])) for f in found
                  if f["status"] == "residual" and f["reason"] == "key-reference")


@pytest.mark.parametrize(("reader", "prefix"), READERS)
def test_a_kept_key_holds_the_host_it_is_read_by(reader: str, prefix: str, repo: Callable[..., Path],
                                                  run: Callable[..., Result]) -> None:
    files = {"hosts.ini": INVENTORY, "group_vars/all.yml": _vars(prefix, KEEP), "templates/wg.conf.j2": reader}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    for rel, text in files.items():
        assert (root / rel).read_text() == text, rel
    assert "reads by the host's own name" in done.stdout, done.stdout
    assert _residuals(root, run) == [("hosts.ini", 2)]


def test_a_kept_host_holds_the_key_read_by_its_name(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"hosts.ini": "[vpn]\npug  # renamer: keep old box\nrex\n", "group_vars/all.yml": _vars("", ""),
             "templates/wg.conf.j2": READERS[0].values[0]}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert (root / "group_vars/all.yml").read_text() == files["group_vars/all.yml"]
    assert _residuals(root, run) == [("group_vars/all.yml", 2)]


def test_a_key_renamed_with_its_host_is_read_on_the_renamed_host(repo: Callable[..., Path],
                                                                  run: Callable[..., Result],
                                                                  tmp_path: Path) -> None:
    files = {"hosts.ini": INVENTORY, "group_vars/all.yml": _vars("", ""),
             "templates/wg.conf.j2": READERS[0].values[0],
             "group_vars/other.yml": "owners:\n  pug: ops  # renamer: keep billing id\n",  # no own-name reader
             "notes/2024.yml": "peers:\n  pug: {pubkey: OLD}\n",  # a record's copy: history
             "templates/hosts.j2": "{{ hosts[inventory_hostname] }}\n"}  # renamer.yaml's renames.hosts.pug: no map
    root = repo(files, config=CONFIG, allowlist=ALLOW + "records:\n  - {name: notes, paths: ['notes/**'], "
                                                        "reason: history}\n")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "hosts.ini").read_text() == "[vpn]\nwolf\nrex\n"
    (tmp_path / "ansible.cfg").write_text("[defaults]\n")
    env = {**os.environ, "ANSIBLE_NOCOLOR": "1", "ANSIBLE_LOCAL_TEMP": str(tmp_path / "ansible"),
           "ANSIBLE_HOME": str(tmp_path / "ansible-home"), "ANSIBLE_CONFIG": str(tmp_path / "ansible.cfg")}
    shown = subprocess.run([str(Path(sys.executable).parent / "ansible-inventory"), "-i", "hosts.ini",
                            "--host", "wolf"], cwd=root, env=env, capture_output=True, text=True, check=True)
    assert "wolf" in json.loads(shown.stdout)["peers"]  # what peers[inventory_hostname] reads on wolf
    assert run(root, "verify").exit_code == 0
