"""A host word a tool composes with a domain it keeps apart (break-it round 8, finding 7).

ssh's `Host pug` + `HostName %h.ana.lan`, a systemd instance `check@pug.service` of a template
holding `%i.ana.lan`, compose's `hostname: pug` + `domainname: ana.lan` and dnsmasq's
`dhcp-host=...,pug` + `domain=ana.lan` each make pug.ana.lan; with `pug -> wolf` and
`pug.ana.lan -> wolf.fv.lan` the sweep rewrote the word alone (and renamed the instance link), so
each tool built wolf.ana.lan, a name that does not exist, and verify said OK. Now each is a
`composed-name` residual, the word (and the link) left as they are; where the domain stays, the
word follows as ever; a word rewritten alone by an earlier sweep fails verify. `ssh -G` reads
the swept ssh_config.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import PUG_ALLOW as ALLOW
from tests.testing.repos import PUG_CONFIG as CONFIG
from tests.testing.repos import git

SAME_DOMAIN = CONFIG.replace("pug.ana.lan: wolf.fv.lan", "pug.ana.lan: wolf.ana.lan")
FILES = {
    "compose.yaml": "services:\n  app:\n    image: x\n    hostname: pug\n    domainname: ana.lan\n",
    "dnsmasq.conf": "domain=ana.lan\nexpand-hosts\ndhcp-host=00:11:22:33:44:55,pug,10.0.0.5\n",
    "ssh_config": "Host pug\n  HostName %h.ana.lan\n  User admin\n",
    "check@.service": "[Service]\nExecStart=/usr/bin/ssh %i.ana.lan uptime\n",
    "enable.sh": "#!/bin/sh\nsystemctl enable --now check@pug.service\nssh admin@pug uptime\n",
}
LINK = "wants/check@pug.service"


def _repo(repo: Callable[..., Path], config: str, files: dict[str, str] | None = None) -> Path:
    root = repo(files or FILES, config=config, allowlist=ALLOW)
    if files is None:
        (root / "wants").mkdir()
        (root / LINK).symlink_to("../check@.service")
        git(root, "add", "-A")
        git(root, "commit", "-qm", "link")
    return root


def _ssh_hostname(root: Path, host: str) -> str:
    done = subprocess.run(["ssh", "-G", "-F", str(root / "ssh_config"), host], capture_output=True, text=True,
                          check=True)
    return next(line.split()[1] for line in done.stdout.splitlines() if line.startswith("hostname "))


def _findings(root: Path, run: Callable[..., Result]) -> list[tuple[str, int, str]]:
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return sorted((str(f["path"]), int(f["line"]), str(f["reason"])) for f in found
                  if f["reason"] is not None)  # not the address, which the sweep rewrites


def test_a_composition_the_domain_move_would_break_is_a_residual(repo: Callable[..., Path],
                                                                 run: Callable[..., Result]) -> None:
    root = _repo(repo, CONFIG)
    assert _ssh_hostname(root, "pug") == "pug.ana.lan"
    assert _findings(root, run) == [("compose.yaml", 4, "composed-name"), ("dnsmasq.conf", 3, "composed-name"),
                                    ("enable.sh", 2, "composed-name"), ("ssh_config", 1, "composed-name"),
                                    (LINK, 0, "composed-name")]
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    for rel, text in FILES.items():  # `admin@pug` is no instance: the host, renamed
        assert (root / rel).read_text() == text.replace("10.0.0.5", "10.1.0.5").replace("admin@pug", "admin@wolf")
    assert (root / LINK).is_symlink() and not (root / "wants/check@wolf.service").exists()
    assert _ssh_hostname(root, "pug") == "pug.ana.lan"  # still the host it was, not wolf.ana.lan
    assert run(root, "verify").exit_code == 1


def test_where_the_domain_stays_the_word_follows(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = _repo(repo, SAME_DOMAIN)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert "hostname: wolf" in (root / "compose.yaml").read_text()
    assert ",wolf," in (root / "dnsmasq.conf").read_text()
    assert (root / "wants/check@wolf.service").is_symlink()
    assert "check@wolf.service" in (root / "enable.sh").read_text()
    assert _ssh_hostname(root, "wolf") == "wolf.ana.lan"
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_word_an_earlier_sweep_rewrote_alone_fails_verify(repo: Callable[..., Path],
                                                            run: Callable[..., Result]) -> None:
    swept = {rel: text.replace("pug", "wolf") for rel, text in FILES.items()
             if rel not in ("check@.service", "enable.sh")}
    root = _repo(repo, CONFIG, swept)
    assert _ssh_hostname(root, "wolf") == "wolf.ana.lan"
    assert _findings(root, run) == [("compose.yaml", 4, "composed-name"), ("dnsmasq.conf", 3, "composed-name"),
                                    ("ssh_config", 1, "composed-name")]


@pytest.mark.parametrize("files", [
    pytest.param({"ssh_config": "Host *\n  HostName %h.ana.lan\nHost pug\n  User x\n"}, id="ssh-every-host"),
    pytest.param({"ssh_config": "Host pug\n  HostName %h.%n.ana.lan\n"}, id="ssh-two-tokens"),
    pytest.param({"compose.yaml": "services:\n  a:\n    hostname: pug\n  b:\n    domainname: ana.lan\n"},
                 id="compose-another-service"),
    pytest.param({"dnsmasq.conf": "dhcp-host=00:11:22:33:44:55,pug\n"}, id="dnsmasq-no-domain"),
])
def test_no_certain_composition_leaves_the_plain_rules(files: dict[str, str], repo: Callable[..., Path],
                                                       run: Callable[..., Result]) -> None:
    root = _repo(repo, CONFIG, files)
    assert [f for f in _findings(root, run) if f[2] == "composed-name"] == []
    assert run(root, "sweep", "--commit").exit_code == 0
