"""Renaming onto a name that already stands (issue 27 round 3, break-it item 1): `ana-ml2` renamed
to `fv-ml1` where the file already names another `fv-ml1` would merge two machines (a zone that
round-robins over both, ssh using the first block, dnsmasq two leases under one name). Refused,
naming both lines, listed by the dry run, nothing written; only a name that stood there before
the move counts (after the move, one old name coming back is one residual, item 19)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import git, snapshot

ALLOW = "version: 1\ncurrent: ['**']\n"
CONFIG = ("version: 1\nname: ml\ncutover: 2026-10-05\nrenames:\n  hosts: {ana-ml2: fv-ml1}\n"
          "  addresses: {10.250.50.54: 10.251.50.54}\nallowlist: allow.yaml\n")
ZONE = "$ORIGIN ana.lan.\n$TTL 300\n@ IN SOA ns1 root 2 1 1 1 1\n@ IN NS ns1\nns1 IN A 10.0.0.53\n"
MAC1, MAC5 = "aa:bb:cc:dd:ee:01", "aa:bb:cc:dd:ee:05"


@pytest.mark.parametrize("rel, text, line, other, what", [
    pytest.param("ana.zone", ZONE + "ana-ml2 IN A 10.0.0.1\nfv-ml1 IN A 10.0.0.5\n", 6, 7,
                 "the A record fv-ml1.ana.lan.", id="zone-same-owner-and-type"),
    pytest.param("ana.zone", ZONE + "fv-ml1.ana.lan. 300 IN A 10.0.0.5\nANA-ML2 IN 60 A 10.0.0.1\n", 7, 6,
                 "the A record fv-ml1.ana.lan.", id="zone-absolute-owner-any-case"),
    pytest.param("ana.zone", ZONE + "ana-ml2 IN CNAME web.ana.lan.\nfv-ml1 IN A 10.0.0.5\n", 6, 7,
                 "a CNAME beside other data at fv-ml1.ana.lan.", id="zone-cname-beside-a"),
    pytest.param("ana.zone", ZONE + "fv-ml1 IN CNAME web.ana.lan.\nana-ml2 IN TXT \"gpu\"\n", 7, 6,
                 "a CNAME beside other data at fv-ml1.ana.lan.", id="zone-a-beside-cname"),
    pytest.param("ana.zone", ZONE + "ana-ml2 IN A 10.0.0.1\n        IN TXT \"gpu\"\nfv-ml1 IN TXT \"web\"\n", 7, 8,
                 "the TXT record fv-ml1.ana.lan.", id="zone-owner-left-out"),
    pytest.param("dnsmasq.conf", f"dhcp-host={MAC1},ana-ml2,10.0.0.1\ndhcp-host={MAC5},fv-ml1,10.0.0.5\n", 1, 2,
                 "the dhcp-host name fv-ml1", id="dhcp-host-name"),
    pytest.param("dnsmasq.d/lan.conf", f"dhcp-host={MAC5},gpu5,10.251.50.54\ndhcp-host={MAC1},gpu1,10.250.50.54\n",
                 2, 1, "the dhcp-host address 10.251.50.54", id="dhcp-host-address"),
    pytest.param("dnsmasq.conf", "host-record=ana-ml2,ana-ml2.lan,10.0.0.1\nhost-record=fv-ml1.lan,10.0.0.5\n", 1, 2,
                 "the host-record record fv-ml1.lan", id="host-record"),
    pytest.param("dnsmasq.conf", "address=/fv-ml1.lan/10.0.0.5\naddress=/ana-ml2.lan/10.0.0.1\n", 2, 1,
                 "the address record fv-ml1.lan", id="dnsmasq-address"),
    pytest.param("dnsmasq.conf", "cname=ana-ml2.lan,gpu.lan\ncname=fv-ml1.lan,web.lan\n", 1, 2,
                 "the cname record fv-ml1.lan", id="dnsmasq-cname"),
    pytest.param("etc/hosts", "127.0.0.1 localhost\n10.0.0.5 fv-ml1\n10.0.0.1 ana-ml2 ana-ml2.lan\n", 3, 2,
                 "the hosts-file entry fv-ml1", id="hosts-file"),
    pytest.param("ssh_config", "Host ana-ml2\n  HostName 10.0.0.1\nHost fv-ml1\n  HostName 10.0.0.5\n", 1, 3,
                 "the ssh Host block fv-ml1", id="ssh-host"),
    pytest.param("ssh/config", "Host fv-ml1 fv-ml1.lan\n  HostName 10.0.0.5\n\nHost bastion ana-ml2\n  User x\n",
                 4, 1, "the ssh Host block fv-ml1", id="ssh-host-among-names"),
    pytest.param("unbound.conf", 'server:\n  local-data: "ana-ml2.lan. IN A 10.0.0.1"\n'
                 '  local-data: "fv-ml1.lan. 300 IN A 10.0.0.5"\n', 2, 3, "the A record fv-ml1.lan.",
                 id="unbound-local-data"),
])
def test_a_renamed_name_meeting_a_standing_one_is_refused(rel: str, text: str, line: int, other: int, what: str,
                                                          repo: Callable[..., Path],
                                                          run: Callable[..., Result]) -> None:
    root = repo({rel: text, "notes/fine.env": "HOST=ana-ml2\n"}, config=CONFIG, allowlist=ALLOW)
    before, head = snapshot(root), git(root, "rev-parse", "HEAD")
    dry = run(root, "sweep", "--dry-run", "--format", "json")
    assert dry.exit_code == 0, dry.stdout + dry.stderr
    listed = json.loads(dry.stdout)["refused"]
    assert [(r["path"], r["line"]) for r in listed] == [(rel, line)]
    problem = listed[0]["problem"]
    assert f"line {other} already holds it" in problem and f"both would be {what}," in problem
    for args in (("sweep", "--commit"), ("sweep",)):
        done = run(root, *args)
        assert done.exit_code == 3, done.stdout + done.stderr
        assert done.stderr.startswith(f"renamer: error: 1 file would no longer parse, would collide or would "
                                      f"dangle: {rel}:{line}: {problem}; nothing written")
        assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr
        assert snapshot(root) == before and git(root, "rev-parse", "HEAD") == head


@pytest.mark.parametrize("rel, text", [
    pytest.param("ana.zone", ZONE + "ana-ml2 IN A 10.0.0.5\nfv-ml1 IN A 10.0.0.5\n", id="zone-identical-records"),
    pytest.param("ana.zone", ZONE + "ana-ml2 IN TXT \"gpu\"\nfv-ml1 IN A 10.0.0.5\n", id="zone-other-type"),
    pytest.param("ana.zone", ZONE + "ana-ml2 IN A 10.0.0.1\n$ORIGIN fv.lan.\nfv-ml1 IN A 10.0.0.5\n",
                 id="zone-other-origin"),
    pytest.param("ana.zone", ZONE + "www IN CNAME ana-ml2\nfv-ml1 IN A 10.0.0.5\n", id="zone-cname-target"),
    pytest.param("ssh_config", "Host ana-ml2\n  HostName 10.0.0.1\nHost fv-ml10\n  HostName 10.0.0.5\n",
                 id="ssh-longer-name"),
    pytest.param("dnsmasq.conf", "cname=www.lan,ana-ml2.lan\nhost-record=fv-ml1.lan,10.0.0.5\n",
                 id="dnsmasq-value-not-key"),
    pytest.param("etc/hosts", "10.0.0.5 fv-ml1\n10.0.0.5 ana-ml2-bmc\n", id="hosts-derived-name"),
    # one head listing several names is one block, one entry (break-it round 9, severity 3: `Host pug
    # wolf`, the new name added beside the old for the cutover, stopped the whole sweep)
    pytest.param("ssh_config", "Host ana-ml2 fv-ml1\n  HostName 10.250.50.54\n", id="ssh-one-head-two-names"),
    pytest.param("ssh_config", "Host fv-ml1 ana-ml2 *.lan\n  User ops\n", id="ssh-one-head-new-first"),
    pytest.param("etc/hosts", "10.0.0.1 ana-ml2 fv-ml1 fv-ml1.lan\n", id="hosts-one-line-two-names"),
    pytest.param("dnsmasq.conf", "address=/ana-ml2.lan/fv-ml1.lan/10.0.0.1\nhost-record=ana-ml2,fv-ml1,10.0.0.1\n",
                 id="dnsmasq-one-line-two-names"),
    pytest.param("nginx/site.conf", "server {\n  listen 80;\n  server_name ana-ml2 fv-ml1 ana-ml2.lan;\n}\n",
                 id="nginx-server-name-list"),
    pytest.param("Caddyfile", "ana-ml2.lan, fv-ml1.lan {\n  respond ok\n}\n", id="caddy-site-address-list"),
])
def test_where_nothing_would_stand_twice_the_sweep_writes(rel: str, text: str, repo: Callable[..., Path],
                                                           run: Callable[..., Result]) -> None:
    root = repo({rel: text}, config=CONFIG, allowlist=ALLOW)
    assert json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)["refused"] == []
    done = run(root, "sweep", "--commit")
    assert done.exit_code in (0, 1), done.stdout + done.stderr
    assert "ana-ml2 " not in (root / rel).read_text() and "fv-ml1" in (root / rel).read_text()


def test_one_ssh_host_head_naming_old_and_new_resolves_after(repo: Callable[..., Path],
                                                              run: Callable[..., Result]) -> None:
    """`Host ana-ml2 fv-ml1` becomes `Host fv-ml1 fv-ml1`: one block, which ssh reads as before;
    a second block of the new name beside it is still refused."""
    text = "Host ana-ml2 fv-ml1\n  HostName 10.250.50.54\n"
    root = repo({"ssh_config": text, "ssh_config2": "Host fv-ml1\n  User a\nHost ana-ml2\n  User b\n"},
                config=CONFIG, allowlist=ALLOW)
    refused = run(root, "sweep", "--commit")
    assert refused.exit_code == 3 and "ssh_config2:3:" in refused.stdout + refused.stderr, refused.stdout
    assert "ssh_config:" not in (refused.stdout + refused.stderr).replace("ssh_config2", "")
    git(root, "rm", "-q", "ssh_config2")
    git(root, "commit", "-q", "-m", "one block")
    assert run(root, "sweep", "--commit").exit_code == 0
    shown = subprocess.run(["ssh", "-G", "-F", str(root / "ssh_config"), "fv-ml1"], capture_output=True, text=True,
                           check=True, stdin=subprocess.DEVNULL).stdout
    assert "hostname 10.251.50.54" in shown.splitlines()
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_refused_cname_is_one_named_checkzone_rejects(tmp_path: Path) -> None:
    """What the CNAME rule guards: the zone the sweep would have written is not loadable."""
    zone = tmp_path / "ana.zone"
    zone.write_text(ZONE + "fv-ml1 IN CNAME web.ana.lan.\nfv-ml1 IN A 10.0.0.5\nweb IN A 10.0.0.9\n")
    done = subprocess.run(["named-checkzone", "ana.lan", str(zone)], capture_output=True, text=True, check=False)
    assert done.returncode != 0 and "CNAME and other data" in done.stdout


def test_after_the_move_an_old_name_coming_back_is_one_residual(repo: Callable[..., Path],
                                                                run: Callable[..., Result]) -> None:
    ssh = "Host ana-ml2\n  HostName 10.0.0.1\n"
    root = repo({"ssh_config": ssh}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    moved = (root / "ssh_config").read_text()
    assert moved == ssh.replace("ana-ml2", "fv-ml1")
    (root / "ssh_config").write_text(moved + ssh)  # someone pastes the old block back
    git(root, "commit", "-qam", "old block back")
    dry = json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)
    assert dry["refused"] == []  # fv-ml1 there is the move's own: no name stood there before it
    verify = run(root, "verify")
    assert verify.exit_code == 1 and verify.stdout.count("ssh_config:3:") == 1


def test_after_the_move_a_name_that_stood_before_it_still_collides(repo: Callable[..., Path],
                                                                   run: Callable[..., Result]) -> None:
    root = repo({"a.txt": "ssh ana-ml2\n", "ssh_config": "Host fv-ml1\n  HostName 10.0.0.5\n"},
                config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0  # the move's first commit
    (root / "ssh_config").write_text("Host fv-ml1\n  HostName 10.0.0.5\nHost ana-ml2\n  HostName 10.0.0.1\n")
    git(root, "commit", "-qam", "a second machine")
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3 and "ssh_config:3: ana-ml2 would become fv-ml1, and line 1 already holds it" in done.stderr
    assert snapshot(root) == before


Y1 = ("version: 1\nname: ml\ncutover: 2026-10-05\nrenames:\n  hosts: {ana-ml2: fv-ml1, web01: app01, web02: app02}\n"
      "allowlist: allow.yaml\n")


@pytest.mark.parametrize("rel, text, line, places", [
    pytest.param("d.ini", "[ana-ml2]\na=1\n[fv-ml1]\nb=2\n[web01:vars]\nx=1\n[app01:vars]\ny=2\n", 3,
                 ["line 1 ('[ana-ml2]') meets line 3 ('[fv-ml1]')",
                  "line 5 ('[web01:vars]') meets line 7 ('[app01:vars]')"], id="ini-every-section"),
    pytest.param("h.toml", '[srv]\nana-ml2 = 1\n"fv-ml1" = 2\n[srv2]\nana-ml2.port = 1\nfv-ml1 = {port = 2}\n', 3,
                 ["line 2 ('ana-ml2 = 1') meets line 3 ('\"fv-ml1\" = 2')",
                  "line 5 ('ana-ml2.port = 1') meets line 6 ('fv-ml1 = {port = 2}')"], id="toml-quoted-and-dotted"),
    pytest.param("d.yaml", "a:\n  web01: 1\n  app01: 2\nb:\n  - fv-ml1: 1\n    ana-ml2: 2\n", 3,
                 ["line 2 ('web01: 1') meets line 3 ('app01: 2')", "line 6 ('ana-ml2: 2') meets line 5 ('- fv-ml1: 1')"],
                 id="yaml-two-mappings"),
    pytest.param("etc/hosts", "10.0.0.5 fv-ml1\n10.0.0.7 app01\n10.0.0.1 ana-ml2\n10.0.0.2 web01\n", 3,
                 ["etc/hosts:3: ana-ml2 would become fv-ml1, and line 1 already holds it",
                  "line 4: web01 would become app01, and line 2 already holds it"], id="hosts-every-entry"),
])
def test_every_refusal_names_both_lines_of_every_place(rel: str, text: str, line: int, places: list[str],
                                                       repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({rel: text}, config=Y1, allowlist=ALLOW)
    listed = json.loads(run(root, "sweep", "--dry-run", "--format", "json").stdout)["refused"]
    assert [(r["path"], r["line"]) for r in listed] == [(rel, line)]
    said = f"{rel}:{line}: {listed[0]['problem']}"  # as the refusal says it: the first line leads
    for place in places:
        assert place in said, said
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3 and all(place in done.stderr for place in places)


def test_a_relative_owner_renamed_by_its_fqdn_meets_a_cname(repo: Callable[..., Path],
                                                            run: Callable[..., Result]) -> None:
    """The break-it repro: `ana-ml2.ana` under `$ORIGIN lan.` is ana-ml2.ana.lan, renamed to
    fv-ml1.fv.lan, where a CNAME stands: named-checkzone would reject the zone written."""
    config = ("version: 1\nname: ml\ncutover: 2026-10-05\nrenames:\n  hosts: {ana-ml2.ana.lan: fv-ml1.fv.lan}\n"
              "allowlist: allow.yaml\n")
    zone = ("$ORIGIN lan.\n$TTL 300\n@ IN SOA ns1 root 1 1 1 1 1\n@ IN NS ns1\nns1 IN A 10.0.0.53\n"
            "ana-ml2.ana IN A 10.0.0.1\nfv-ml1.fv IN CNAME other.lan.\nother IN A 10.0.0.9\n")
    root = repo({"lan.zone": zone}, config=config, allowlist=ALLOW)
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert ("lan.zone:6: ana-ml2.ana would become fv-ml1.fv, and line 7 already holds it ('fv-ml1.fv IN CNAME "
            "other.lan.'): both would be a CNAME beside other data at fv-ml1.fv.lan.") in done.stderr
    assert snapshot(root) == before
    written = root.parent / "written.zone"  # what the sweep would have written: not loadable
    written.write_text(zone.replace("ana-ml2.ana IN", "fv-ml1.fv IN"))
    checked = subprocess.run(["named-checkzone", "lan", str(written)], capture_output=True, text=True, check=False)
    assert checked.returncode != 0 and "CNAME and other data" in checked.stdout
