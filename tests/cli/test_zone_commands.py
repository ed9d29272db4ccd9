"""Break-it round 17, #13: a DNS tool's command line writing a zone and a name relative to it
(`pdnsutil add-record ana.lan pug A ...`, `knotc zone-set`, `samba-tool dns add`, `ipa
dnsrecord-add`, PowerShell's `Add-DnsServerResourceRecordA -ZoneName ana.lan -Name pug`) had its
relative name rewritten alone with `pug.ana.lan -> wolf.fv.lan`, publishing wolf.ana.lan, verify
OK. Now each is a `composed-name` residual, the word left as it is; where the domain stays, the
word follows; a zone in a variable is a residual where the domain moves (it cannot be read)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import PUG_ALLOW as ALLOW
from tests.testing.repos import PUG_CONFIG as CONFIG

SAME_DOMAIN = CONFIG.replace("pug.ana.lan: wolf.fv.lan", "pug.ana.lan: wolf.ana.lan")

# The report's five (repro/21.sh) and variants: path -> (text, the lines held)
COMMANDS: dict[str, tuple[str, list[int]]] = {
    "scripts/dns.sh": ("#!/bin/sh\npdnsutil add-record ana.lan pug A 3600 10.0.0.5\n"
                       "knotc zone-set ana.lan pug 3600 A 10.0.0.5\n"
                       "samba-tool dns add dc1 ana.lan pug A 10.0.0.5 -U admin\n"
                       "ipa dnsrecord-add ana.lan pug --a-rec=10.0.0.5\n", [2, 3, 4, 5]),
    "scripts/dns.ps1": ('Add-DnsServerResourceRecordA -ZoneName "ana.lan" -Name "pug" -IPv4Address "10.0.0.5"\n',
                        [1]),
    # other spellings: options before the subcommand, pdnsutil 5's `rrset`, a path to the tool,
    # quoted words, a trailing dot, `-Name` before `-ZoneName`, `-ZoneName:`, another cmdlet, a
    # Makefile recipe, a zone in a variable
    "ops/more.sh": ("sudo /usr/bin/pdnsutil --config-dir=/etc/pdns rrset add 'ana.lan' 'pug' A 10.0.0.5\n"
                    "knotc -s /run/knot/knot.sock zone-unset ana.lan. pug A\n"
                    'ipa dnsrecord-del "ana.lan" pug --del-all\n'
                    'samba-tool dns delete dc1.ana.lan ana.lan pug A 10.0.0.5 --use-kerberos=required\n'
                    "pdnsutil replace-rrset $ZONE pug A 10.0.0.5\n", [1, 2, 3, 4, 5]),
    "ops/win.ps1": ("Remove-DnsServerResourceRecord -Name pug -RRType A -ZoneName:ana.lan -Force\n"
                    "Get-DnsServerResourceRecord -ComputerName dc1 -ZoneName $zone -Name 'pug'\n", [1, 2]),
    "Makefile": ("dns:\n\tssh ns1 pdnsutil delete-rrset ana.lan pug A\n", [2]),
    # more tools of the class: Windows' dnscmd, the Azure, DigitalOcean and Cloudflare CLIs
    "ops/clouds.sh": ("dnscmd.exe dc1 /RecordAdd ana.lan pug A 10.0.0.5\n"
                      "az network dns record-set a add-record -g rg --zone-name ana.lan -n pug -a 10.0.0.5\n"
                      "doctl compute domain records create ana.lan --record-type A --record-name=pug "
                      "--record-data 10.0.0.5\n"
                      "flarectl dns create --zone ana.lan --name pug --type A --content 10.0.0.5\n", [1, 2, 3, 4]),
}


def _held(root: Path, run: Callable[..., Result]) -> set[tuple[str, int]]:
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    return {(str(f["path"]), int(f["line"])) for f in found if f.get("reason") == "composed-name"}


def test_a_relative_name_on_a_dns_tool_s_command_line_is_held_where_the_domain_moves(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {path: text for path, (text, _) in COMMANDS.items()}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert _held(root, run) == {(path, line) for path, (_, lines) in COMMANDS.items() for line in lines}
    assert run(root, "sweep", "--commit").exit_code == 1
    for path, text in files.items():
        after = (root / path).read_text()
        assert "wolf" not in after and after.count("pug") == text.count("pug"), path
    assert "10.1.0.5" in (root / "scripts/dns.sh").read_text()  # the address moves
    assert run(root, "verify").exit_code == 1


def test_where_the_domain_stays_the_relative_name_follows(repo: Callable[..., Path],
                                                          run: Callable[..., Result]) -> None:
    files = {path: text for path, (text, _) in COMMANDS.items()}
    root = repo(files, config=SAME_DOMAIN, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    for path in files:
        text = (root / path).read_text()
        assert "pug" not in text and "wolf" in text, path
    assert "pdnsutil add-record ana.lan wolf A" in (root / "scripts/dns.sh").read_text()
    assert run(root, "verify").exit_code == 0


@pytest.mark.parametrize("text", [
    "pdnsutil add-record example.com pug A 203.0.113.5\n",  # another zone: pug.example.com, no rename
    "pdnsutil list-zone ana.lan  # pug\n",  # no record command
    "ipa host-add pug.ana.lan\n",  # not a dnsrecord command: the FQDN rules
    "echo knotc zone-set\nssh pug uptime\n",  # the name on another line
    "az vm create -g rg -n pug --image debian\n",  # an Azure command, no DNS record set
])
def test_no_zone_the_move_breaks_leaves_the_plain_rules(text: str, repo: Callable[..., Path],
                                                         run: Callable[..., Result]) -> None:
    root = repo({"run.sh": text}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert "pug" not in (root / "run.sh").read_text()
    assert run(root, "verify").exit_code == 0


def test_a_relative_name_an_earlier_sweep_rewrote_alone_fails_verify(repo: Callable[..., Path],
                                                                     run: Callable[..., Result]) -> None:
    text, _ = COMMANDS["scripts/dns.sh"]
    root = repo({"scripts/dns.sh": text.replace(" pug ", " wolf ")}, config=CONFIG, allowlist=ALLOW)
    assert {line for _, line in _held(root, run)} == {2, 3, 4, 5}
    assert run(root, "verify").exit_code == 1
