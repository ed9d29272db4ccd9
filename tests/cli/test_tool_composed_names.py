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

import getpass
import json
import socket
import struct
import subprocess
import time
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
    config = root if root.is_file() else root / "ssh_config"
    done = subprocess.run(["ssh", "-G", "-F", str(config), host], capture_output=True, text=True, check=True)
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
    pytest.param({"ssh_config": "Host *.lan\n  HostName %h.ana.lan\nHost pug\n  User x\n"},
                 id="ssh-a-pattern-not-matching"),  # `Host *` composes since round 14: test_round14_*
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


# Break-it round 9 (finding 7): the same composition through ssh's `Match host`, `%h`/`%n` in the
# keywords that run or reach the host, a hosts file dnsmasq qualifies, compose's `dns_search`.
ROUND9 = {
    "ssh/match": "Match host pug\n  HostName %h.ana.lan\n",
    "ssh/proxy": "Host pug\n  ProxyCommand ssh jump -W %h.ana.lan:%p\n",
    "ssh/jump": "Host pug\n  ProxyJump admin@%h.ana.lan\n",
    "dnsmasq.conf": "domain=ana.lan\nexpand-hosts\naddn-hosts=/etc/dnsmasq.hosts\n",
    "dnsmasq.hosts": "10.0.0.5 pug\n10.0.0.6 rex\n",
    "app/compose.yaml": "services:\n  app:\n    image: x\n    dns_search: ana.lan\n    environment:\n      - DB=pug\n",
}
ROUND9_FOUND = [("app/compose.yaml", 6, "composed-name"), ("dnsmasq.hosts", 1, "composed-name"),
                ("ssh/jump", 1, "composed-name"), ("ssh/match", 1, "composed-name"),
                ("ssh/proxy", 1, "composed-name")]


K8S_POD = """\
apiVersion: v1
kind: Pod
metadata:
  name: app
spec:
  dnsConfig:
    searches: [ana.lan]
  containers:
    - name: pug
      env:
        - name: DB_HOST
          value: pug
  nodeSelector:
    kubernetes.io/hostname: pug
"""


def _ssh_reaches(config: Path, host: str, tmp: Path) -> list[str]:
    """What the real ssh hands its ProxyCommand (or its ProxyJump's inner ssh) for `host`: an
    `ssh` first on PATH and a `Host *.lan` ProxyCommand record the names; no packet is sent."""
    record, log = tmp / "bin" / "ssh", tmp / "reached"
    record.parent.mkdir(exist_ok=True)
    record.write_text(f'#!/bin/sh\necho "$@" >> {log}\nexit 1\n')
    record.chmod(0o755)
    log.unlink(missing_ok=True)
    proxied = tmp / "ssh_config"
    proxied.write_text(config.read_text() + f"Host *.lan\n  ProxyCommand {record} %h\n")
    env = {"PATH": f"{record.parent}:/usr/bin:/bin", "HOME": str(tmp)}
    subprocess.run(["/usr/bin/ssh", "-F", str(proxied), "-o", "BatchMode=yes", host, "true"], env=env,
                   capture_output=True, timeout=30, check=False)
    return log.read_text().split() if log.exists() else []


def _dnsmasq_answers(root: Path, names: list[str]) -> dict[str, str | None]:
    """What the real dnsmasq serves from the repo's dnsmasq.conf (its `/etc/` read as the repo's
    root) on a loopback port: each name's address, None where it knows no such name."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    conf = root.parent / f"{root.name}-dnsmasq.conf"
    conf.write_text((root / "dnsmasq.conf").read_text().replace("=/etc/", f"={root}/")
                    + f"no-hosts\nno-resolv\nport={port}\nlisten-address=127.0.0.1\nbind-interfaces\n")
    assert subprocess.run(["dnsmasq", "--test", "-C", str(conf)], capture_output=True).returncode == 0
    with subprocess.Popen(["dnsmasq", "-k", "-C", str(conf), "--pid-file=", f"--user={getpass.getuser()}"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as daemon:
        try:
            return _answers(port, names)
        finally:
            daemon.terminate()
            daemon.wait(timeout=10)


def _answers(port: int, names: list[str]) -> dict[str, str | None]:
    """Each name's IPv4 address as the server on the loopback `port` answers, None for none."""
    out: dict[str, str | None] = {}
    for name in names:
        query = struct.pack(">HHHHHH", 7, 0x0100, 1, 0, 0, 0) + b"".join(
            bytes([len(label)]) + label.encode() for label in name.split(".")) + b"\0\0\1\0\1"
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as client:
            client.settimeout(1)
            for _ in range(20):  # until the daemon listens
                client.sendto(query, ("127.0.0.1", port))
                try:
                    answer = client.recv(512)
                    break
                except OSError:
                    time.sleep(0.1)
            else:
                raise AssertionError(f"dnsmasq did not answer on port {port}")
        has = struct.unpack(">H", answer[6:8])[0]
        out[name] = socket.inet_ntoa(answer[-4:]) if has else None
    return out


def test_round9_compositions_the_domain_move_would_break_are_residuals(
        repo: Callable[..., Path], run: Callable[..., Result], tmp_path: Path) -> None:
    root = _repo(repo, CONFIG, ROUND9)
    assert _ssh_reaches(root / "ssh/proxy", "pug", tmp_path) == ["jump", "-W", "pug.ana.lan:22"]
    assert _ssh_reaches(root / "ssh/jump", "pug", tmp_path) == ["pug.ana.lan"]
    assert _dnsmasq_answers(root, ["pug.ana.lan"]) == {"pug.ana.lan": "10.0.0.5"}
    assert _findings(root, run) == ROUND9_FOUND
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert "makes pug.ana.lan with `ProxyCommand ssh jump -W %h.ana.lan:%p` in its `Host` block" in done.stdout
    for rel, text in ROUND9.items():
        assert (root / rel).read_text() == text.replace("10.0.0.5", "10.1.0.5")
    assert _ssh_hostname(root / "ssh/match", "pug") == "pug.ana.lan"
    assert _ssh_reaches(root / "ssh/proxy", "pug", tmp_path) == ["jump", "-W", "pug.ana.lan:22"]
    assert _dnsmasq_answers(root, ["pug.ana.lan", "wolf.ana.lan"]) == {"pug.ana.lan": "10.1.0.5",
                                                                      "wolf.ana.lan": None}
    assert run(root, "verify").exit_code == 1


def test_round9_where_the_domain_stays_each_word_follows(repo: Callable[..., Path], run: Callable[..., Result],
                                                       tmp_path: Path) -> None:
    root = _repo(repo, SAME_DOMAIN, ROUND9)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    for rel, text in ROUND9.items():
        assert (root / rel).read_text() == text.replace("10.0.0.5", "10.1.0.5").replace("pug", "wolf")
    assert _ssh_hostname(root / "ssh/match", "wolf") == "wolf.ana.lan"
    assert _ssh_reaches(root / "ssh/jump", "wolf", tmp_path) == ["wolf.ana.lan"]
    assert _dnsmasq_answers(root, ["wolf.ana.lan"]) == {"wolf.ana.lan": "10.1.0.5"}
    assert run(root, "verify", "--strict").exit_code == 0


def test_round9_where_the_domain_is_renamed_too_the_composition_follows(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    config = CONFIG.replace("pug.ana.lan: wolf.fv.lan", "pug.ana.lan: wolf.fv.lan, ana.lan: fv.lan").replace(
        "allowlist:", "options:\n  subdomains: follow\nallowlist:")
    root = _repo(repo, config, ROUND9)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    for rel, text in ROUND9.items():
        assert (root / rel).read_text() == text.replace("10.0.0.5", "10.1.0.5").replace("pug", "wolf").replace(
            "ana.lan", "fv.lan")
    assert _ssh_hostname(root / "ssh/match", "wolf") == "wolf.fv.lan"
    assert _dnsmasq_answers(root, ["wolf.fv.lan"]) == {"wolf.fv.lan": "10.1.0.5"}
    assert run(root, "verify", "--strict").exit_code == 0


def test_round9_words_an_earlier_sweep_rewrote_alone_fail_verify(repo: Callable[..., Path],
                                                                run: Callable[..., Result]) -> None:
    swept = {rel: text.replace("pug", "wolf").replace("10.0.0.5", "10.1.0.5") for rel, text in ROUND9.items()}
    root = _repo(repo, CONFIG, swept)
    assert _ssh_hostname(root / "ssh/match", "wolf") == "wolf.ana.lan"
    assert _findings(root, run) == ROUND9_FOUND


@pytest.mark.parametrize(("files", "found"), [
    pytest.param({"ssh_config": "Match originalhost pug\n  HostName %h.ana.lan\n"}, [("ssh_config", 1)],
                 id="ssh-match-originalhost"),
    pytest.param({"ssh_config": "Match canonical host rex,pug user admin\n  HostName %h.ana.lan\n"},
                 [("ssh_config", 1)], id="ssh-match-host-list"),
    pytest.param({"ssh_config": "Host rex pug\n  ProxyCommand nc %h.ana.lan %p\n"}, [("ssh_config", 1)],
                 id="ssh-host-two-words-proxycommand"),
    pytest.param({"ssh_config": "Host pug\n  HostName 10.0.0.9\n  LocalCommand ping -c1 %n.ana.lan\n"},
                 [("ssh_config", 1)], id="ssh-localcommand-n"),
    pytest.param({"ssh_config": "Host pug\n  RemoteCommand ssh -t %h.ana.lan\n"}, [("ssh_config", 1)],
                 id="ssh-remotecommand"),
    pytest.param({"ssh_config": "Host pug\n  KnownHostsCommand /usr/bin/keys %h.ana.lan\n"}, [("ssh_config", 1)],
                 id="ssh-knownhostscommand"),
    pytest.param({"ssh_config": "Host=pug\n  proxyjump=%h.ana.lan:2222\n"}, [("ssh_config", 1)],
                 id="ssh-equals-lowercase"),
    pytest.param({"ssh_config": 'Match host pug exec "nc -z %h.ana.lan 22"\n  HostName 10.0.0.9\n'},
                 [("ssh_config", 1)], id="ssh-match-exec-before-hostname"),
    pytest.param({"dns/etc/dnsmasq.d/lab.conf": "expand-hosts\naddn-hosts=/srv/dns/lab.hosts\n",
                  "dns/etc/dnsmasq.conf": "domain=ana.lan\nconf-dir=/etc/dnsmasq.d\n",
                  "files/lab.hosts": "# lab\n10.0.0.5 pug pug-ipmi\n"}, [("files/lab.hosts", 2)],
                 id="dnsmasq-snippet-addn-hosts-another-folder"),
    pytest.param({"etc/dnsmasq.conf": "domain=ana.lan\nexpand-hosts\n", "etc/hosts": "10.0.0.5 pug\n"},
                 [("etc/hosts", 1)], id="dnsmasq-etc-hosts"),
    pytest.param({"etc/dnsmasq.conf": "domain=ana.lan\nexpand-hosts\naddn-hosts=/etc/hosts.d\n",
                  "etc/hosts.d/lab": "10.0.0.5 pug\n"}, [("etc/hosts.d/lab", 1)], id="dnsmasq-addn-hosts-folder"),
    pytest.param({"roles/dns/templates/dnsmasq.conf": "domain=ana.lan\nexpand-hosts\nhostsdir=/var/lib/dns/hosts\n",
                  "roles/dns/files/hosts/lab": "10.0.0.5 pug\n", "roles/dns/files/other": "10.0.0.5 pug\n"},
                 [("roles/dns/files/hosts/lab", 1)], id="dnsmasq-hostsdir-another-folder"),
    pytest.param({"compose.yaml": "services:\n  app:\n    dns_search:\n      - ana.lan\n    command: --db pug:5432\n"},
                 [("compose.yaml", 5)], id="compose-dns-search-block-list"),
    pytest.param({"compose.yaml": "services:\n  app:\n    dns_search: [ana.lan, b.lan]\n    environment:\n"
                                  "      URL: postgres://pug/db\n"}, [("compose.yaml", 5)],
                 id="compose-dns-search-flow-list"),
    pytest.param({"deploy.yaml": K8S_POD.replace("name: pug", "name: app").replace("hostname: pug", "hostname: n1")},
                 [("deploy.yaml", 12)],
                 id="kubernetes-dnsconfig-searches"),
])
def test_round9_variants_are_residuals(files: dict[str, str], found: list[tuple[str, int]],
                                       repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = _repo(repo, CONFIG, files)
    assert [(f[0], f[1]) for f in _findings(root, run) if f[2] == "composed-name"] == found
    assert run(root, "sweep", "--commit").exit_code == 1
    held = {rel for rel, _ in found}
    for rel, text in files.items():  # a file no tool composes from follows
        text = text.replace("10.0.0.5", "10.1.0.5")
        assert (root / rel).read_text() == (text if rel in held else text.replace("pug", "wolf"))


@pytest.mark.parametrize("files", [
    pytest.param({"ssh_config": "Host pug\n  ProxyCommand ssh jump -W %h:%p\n"}, id="ssh-proxy-host-itself"),
    pytest.param({"ssh_config": "Host pug\n  HostName 10.0.0.9\n  ProxyCommand ssh j -W %h.ana.lan:%p\n"},
                 id="ssh-h-is-the-hostname-set"),
    pytest.param({"ssh_config": "Match user pug\n  HostName %h.ana.lan\n"}, id="ssh-match-user"),
    pytest.param({"ssh_config": "Host pug\n  ProxyCommand ssh jump -W %%h.ana.lan:%p\n"}, id="ssh-literal-percent"),
    pytest.param({"ssh_config": "Host pug\n  IdentityFile ~/.ssh/%h.ana.lan.key\n"}, id="ssh-a-path"),
    pytest.param({"dnsmasq.conf": "domain=ana.lan\naddn-hosts=/etc/dnsmasq.hosts\n",
                  "dnsmasq.hosts": "10.0.0.5 pug\n"}, id="dnsmasq-no-expand-hosts"),
    pytest.param({"etc/dnsmasq.conf": "domain=ana.lan\nexpand-hosts\nno-hosts\n", "etc/hosts": "10.0.0.5 pug\n"},
                 id="dnsmasq-no-hosts"),
    pytest.param({"dns/dnsmasq.conf": "domain=ana.lan\nexpand-hosts\n", "web/etc/hosts": "10.0.0.5 pug\n"},
                 id="dnsmasq-another-machines-hosts"),
    pytest.param({"dnsmasq.conf": "domain=ana.lan\nexpand-hosts\n", "hosts": "[web]\npug ansible_host=10.0.0.5\n"},
                 id="dnsmasq-an-inventory-beside"),
    pytest.param({"compose.yaml": "services:\n  app:\n    dns_search: ana.lan\n    environment:\n      - DB=pug\n"
                                  "  pug:\n    image: x\n"}, id="compose-a-service-name"),
    pytest.param({"compose.yaml": "services:\n  app:\n    dns_search: [ana.lan, fv.lan]\n    command: --db pug\n"},
                 id="compose-the-next-search-domain-makes-it"),
    pytest.param({"compose.yaml": "services:\n  app:\n    dns_search: ana.lan\n  db:\n    command: --db pug\n"},
                 id="compose-another-service"),
    pytest.param({"deploy.yaml": K8S_POD.replace("value: pug", "value: x")}, id="kubernetes-names-not-looked-up"),
    pytest.param({"deploy.yaml": K8S_POD.replace("dnsConfig", "dnsConfigs")}, id="kubernetes-searches-elsewhere"),
])
def test_round9_no_composition_leaves_the_plain_rules(files: dict[str, str], repo: Callable[..., Path],
                                                     run: Callable[..., Result]) -> None:
    root = _repo(repo, CONFIG, files)
    assert [f for f in _findings(root, run) if f[2] == "composed-name"] == []
    assert run(root, "sweep", "--commit").exit_code == 0
    assert all("pug" not in (root / rel).read_text().replace("%%h", "") for rel in files)


def test_round9_match_exec_tests_the_composed_name(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    files = {"ssh_config": 'Match host pug exec "echo %h.ana.lan >&2"\n  User admin\n'}
    root = _repo(repo, CONFIG, files)
    done = subprocess.run(["ssh", "-G", "-F", str(root / "ssh_config"), "pug"], capture_output=True, text=True,
                          check=True)
    assert done.stderr.splitlines()[0] == "pug.ana.lan"  # what `exec` runs with: the composed name
    assert _findings(root, run) == [("ssh_config", 1, "composed-name")]
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "ssh_config").read_text() == files["ssh_config"]


# Break-it round 14 (#1-#5): the same compositions reached from elsewhere: ssh's first value over
# every block that applies (`Host *`, `Match all`, a pattern, the lines before any block, a trailing
# dot, CanonicalDomains), generators writing an ssh config (home-manager, Ansible's ssh_config),
# dnsmasq as flags, OpenWrt UCI and NixOS, a search list reached through a merge key, an env_file,
# a ConfigMap, `docker run --dns-search`, Nomad's `dns { searches }`.
EVERY_HOST_AFTER = "Host pug\n  User admin\n\nHost *\n  HostName %h.ana.lan\n"
EVERY_HOST_BEFORE = "Host *\n  HostName %h.ana.lan\n  User admin\n\nHost pug\n  Port 2222\n"
MATCH_ALL = "Host pug\n  User admin\n\nMatch all\n  ProxyCommand ssh jump -W %h.ana.lan:%p\n"
NIX_DNSMASQ = """\
{ ... }: {
  networking.hosts = { "10.0.0.5" = [ "pug" ]; };
  services.dnsmasq = {
    enable = true;
    settings = {
      domain = "ana.lan";
      expand-hosts = true;
      dhcp-host = [ "aa:bb:cc:dd:ee:ff,pug,10.0.0.5" ];
    };
  };
}
"""
UCI = """\
config dnsmasq
\toption domain 'ana.lan'
\toption expandhosts '1'

config host
\toption name 'pug'
\toption ip '10.0.0.5'

config domain
\toption name 'pug'
\toption ip '10.0.0.5'
"""
FLAGS_COMPOSE = ('services:\n  dns:\n    image: jpillora/dnsmasq\n'
                 '    command: ["--expand-hosts", "--domain=ana.lan", "--addn-hosts=/etc/lan.hosts"]\n'
                 '    volumes: ["./lan.hosts:/etc/lan.hosts:ro"]\n')
K8S_ENVFROM = """\
apiVersion: v1
kind: ConfigMap
metadata:
  name: app-env
data:
  DB_HOST: pug
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: app
spec:
  template:
    spec:
      dnsConfig:
        searches: [ana.lan]
      containers:
        - name: app
          image: app:1
          envFrom:
            - configMapRef: {name: app-env}
"""
NOMAD = """\
job "app" {
  group "app" {
    network {
      dns {
        searches = ["ana.lan"]
      }
    }
    task "app" {
      driver = "docker"
      env {
        DB_HOST = "pug"
      }
    }
  }
}
"""
ROUND14 = {
    "ssh/after": EVERY_HOST_AFTER,
    "ssh/before": EVERY_HOST_BEFORE,
    "ssh/match-all": MATCH_ALL,
    "ssh/dot": "Host pug\n  HostName %h.ana.lan.\n",
    "ssh/canonical": "CanonicalizeHostname always\nCanonicalDomains ana.lan\n\nHost pug\n  User admin\n",
    "nix/ssh.nix": '{ ... }: {\n  programs.ssh.matchBlocks = {\n    pug = { hostname = "%h.ana.lan"; };\n  };\n}\n',
    "ans/ssh.yaml": ("- hosts: localhost\n  tasks:\n    - community.general.ssh_config:\n        user: me\n"
                     "        host: pug\n        hostname: \"%h.ana.lan\"\n"),
    "d/compose.yaml": FLAGS_COMPOSE,
    "d/lan.hosts": "10.0.0.5 pug\n",
    "openwrt/etc/config/dhcp": UCI,
    "nixos/dns.nix": NIX_DNSMASQ,
    "a/compose.yaml": ("x-dns: &dns\n  dns_search: ana.lan\nservices:\n  app:\n    <<: *dns\n    image: app:1\n"
                       "    environment:\n      DB_HOST: pug\n"),
    "b/compose.yaml": "services:\n  app:\n    image: app:1\n    dns_search: ana.lan\n    env_file: app.env\n",
    "b/app.env": "DB_HOST=pug\n",
    "k8s/app.yaml": K8S_ENVFROM,
    "f/run.sh": "docker run -d --dns-search ana.lan \\\n  -e DB_HOST=pug app:1\n",
    "n/app.nomad.hcl": NOMAD,
}
ROUND14_FOUND = [
    ("a/compose.yaml", 8), ("ans/ssh.yaml", 5), ("b/app.env", 1), ("d/lan.hosts", 1), ("f/run.sh", 2),
    ("k8s/app.yaml", 6), ("n/app.nomad.hcl", 11), ("nix/ssh.nix", 3), ("nixos/dns.nix", 2), ("nixos/dns.nix", 8),
    ("openwrt/etc/config/dhcp", 6), ("openwrt/etc/config/dhcp", 10), ("ssh/after", 1), ("ssh/before", 5),
    ("ssh/canonical", 4), ("ssh/dot", 1), ("ssh/match-all", 1)]


def _resolver_flags_answers(root: Path, names: list[str]) -> dict[str, str | None]:
    """What the real dnsmasq serves, started with d/compose.yaml's `command:` flags (its mount
    /etc/lan.hosts read as the repo's d/lan.hosts), on a loopback port."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    flags = json.loads((root / "d/compose.yaml").read_text().split("command: ")[1].split("\n")[0])
    flags = [f.replace("/etc/lan.hosts", str(root / "d/lan.hosts")) for f in flags]
    command = ["dnsmasq", "--conf-file=/dev/null", *flags, "--no-hosts", "--no-resolv", f"--port={port}",
               "--listen-address=127.0.0.1", "--bind-interfaces"]
    assert subprocess.run([*command, "--test"], capture_output=True).returncode == 0
    with subprocess.Popen([*command, "-k", "--pid-file=", f"--user={getpass.getuser()}"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as daemon:
        try:
            return _answers(port, names)
        finally:
            daemon.terminate()
            daemon.wait(timeout=10)


def test_round14_compositions_the_domain_move_would_break_are_residuals(
        repo: Callable[..., Path], run: Callable[..., Result], tmp_path: Path) -> None:
    root = _repo(repo, CONFIG, ROUND14)
    for rel in ("ssh/after", "ssh/before", "ssh/dot"):  # what ssh itself makes of `pug`, no connection
        assert _ssh_hostname(root / rel, "pug").rstrip(".") == "pug.ana.lan"
    assert _ssh_reaches(root / "ssh/match-all", "pug", tmp_path) == ["jump", "-W", "pug.ana.lan:22"]
    assert _resolver_flags_answers(root, ["pug.ana.lan"]) == {"pug.ana.lan": "10.0.0.5"}
    assert [(f[0], f[1]) for f in _findings(root, run) if f[2] == "composed-name"] == ROUND14_FOUND
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert "`HostName %h.ana.lan` of the same ssh config" in done.stdout
    for rel, text in ROUND14.items():
        assert (root / rel).read_text() == text.replace("10.0.0.5", "10.1.0.5"), rel
    assert _ssh_hostname(root / "ssh/after", "pug") == "pug.ana.lan"  # still the host it was
    assert _resolver_flags_answers(root, ["pug.ana.lan", "wolf.ana.lan"]) == {"pug.ana.lan": "10.1.0.5",
                                                                            "wolf.ana.lan": None}
    assert run(root, "verify").exit_code == 1


def test_round14_where_the_domain_stays_each_word_follows(repo: Callable[..., Path], run: Callable[..., Result],
                                                        tmp_path: Path) -> None:
    root = _repo(repo, SAME_DOMAIN, ROUND14)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    for rel, text in ROUND14.items():
        assert (root / rel).read_text() == text.replace("10.0.0.5", "10.1.0.5").replace("pug", "wolf"), rel
    for rel in ("ssh/after", "ssh/before", "ssh/dot"):
        assert _ssh_hostname(root / rel, "wolf").rstrip(".") == "wolf.ana.lan"
    assert _ssh_reaches(root / "ssh/match-all", "wolf", tmp_path) == ["jump", "-W", "wolf.ana.lan:22"]
    assert _resolver_flags_answers(root, ["wolf.ana.lan"]) == {"wolf.ana.lan": "10.1.0.5"}
    assert run(root, "verify", "--strict").exit_code == 0


def test_round14_words_an_earlier_sweep_rewrote_alone_fail_verify(repo: Callable[..., Path],
                                                                 run: Callable[..., Result]) -> None:
    swept = {rel: text.replace("pug", "wolf").replace("10.0.0.5", "10.1.0.5") for rel, text in ROUND14.items()}
    root = _repo(repo, CONFIG, swept)
    assert _ssh_hostname(root / "ssh/after", "wolf") == "wolf.ana.lan"
    assert [(f[0], f[1]) for f in _findings(root, run) if f[2] == "composed-name"] == ROUND14_FOUND


@pytest.mark.parametrize(("files", "found"), [
    pytest.param({"ssh_config": "HostName %h.ana.lan\n\nHost pug\n  User admin\n"}, [("ssh_config", 3)],
                 id="ssh-before-any-block"),
    pytest.param({"ssh_config": "Host pug\n  User admin\nHost p* !rex\n  HostName %h.ana.lan\n"},
                 [("ssh_config", 1)], id="ssh-a-pattern-matching"),
    pytest.param({"ssh_config": "Host pug\n  User a\nMatch host p*,!rex\n  ProxyJump admin@%h.ana.lan\n"},
                 [("ssh_config", 1)], id="ssh-match-host-pattern"),
    pytest.param({"ssh_config": "Host rex\n  ProxyJump admin@pug:2222\n\nHost *\n  HostName %h.ana.lan\n"},
                 [("ssh_config", 2)], id="ssh-a-jump-target"),
    pytest.param({"ssh_config": "Host pug\n  HostName \"%h.ana.lan.\"\n"}, [("ssh_config", 1)],
                 id="ssh-quoted-trailing-dot"),
    pytest.param({"ssh_config": "CanonicalizeHostname yes\nCanonicalDomains ana.lan b.lan\nHost pug\n  User x\n"},
                 [("ssh_config", 3)], id="ssh-canonical-yes"),
    pytest.param({"home.nix": '{ programs.ssh.matchBlocks."*".hostname = "%h.ana.lan";\n'
                              '  programs.ssh.matchBlocks.pug = { user = "x"; }; }\n'}, [("home.nix", 2)],
                 id="home-manager-every-host"),
    pytest.param({"home.nix": '{ programs.ssh.matchBlocks = {\n  lab = {\n    host = "pug rex";\n'
                              '    proxyCommand = "nc %h.ana.lan %p";\n  };\n}; }\n'}, [("home.nix", 3)],
                 id="home-manager-host-patterns"),
    pytest.param({"ssh.yaml": '- community.general.ssh_config: {host: pug, hostname: "%h.ana.lan", user: me}\n'},
                 [("ssh.yaml", 1)], id="ansible-ssh-config-flow"),
    pytest.param({"compose.yaml": "services:\n  dns:\n    image: dnsmasq\n    command: >-\n"
                                  "      --domain ana.lan --dhcp-host=aa:bb:cc:dd:ee:ff,pug,10.0.0.5\n"},
                 [("compose.yaml", 5)], id="dnsmasq-flags-dhcp-host"),
    pytest.param({"dns.service": "[Service]\nExecStart=/usr/sbin/dnsmasq -k --expand-hosts --domain=ana.lan "
                                 "--addn-hosts=/srv/dns/lab.hosts\n", "files/lab.hosts": "10.0.0.5 pug\n"},
                 [("files/lab.hosts", 1)], id="dnsmasq-flags-in-a-unit"),
    pytest.param({"etc/config/dhcp": "config dnsmasq\n\toption domain 'ana.lan'\n\toption expandhosts '1'\n"
                                     "\tlist addnhosts '/etc/lan.hosts'\n", "etc/lan.hosts": "10.0.0.5 pug\n"},
                 [("etc/lan.hosts", 1)], id="openwrt-addnhosts"),
    pytest.param({"dns.nix": '{ services.dnsmasq.settings.domain = "ana.lan";\n'
                             '  services.dnsmasq.settings.dhcp-host = "aa:bb:cc:dd:ee:ff,pug,10.0.0.5"; }\n'},
                 [("dns.nix", 2)], id="nixos-dhcp-host-string"),
    pytest.param({"compose.yaml": "x-dns: &dns {dns_search: [ana.lan]}\nservices:\n  app:\n    <<: [*dns]\n"
                                  "    command: --db pug\n"}, [("compose.yaml", 5)], id="compose-flow-anchor"),
    pytest.param({"compose.yaml": "services:\n  app:\n    dns_search: ana.lan\n    env_file:\n"
                                  "      - path: ./env/app.env\n        required: true\n",
                  "env/app.env": "# db\nexport DB_HOST=pug\nOTHER=pug.ana.lan\n"}, [("env/app.env", 2)],
                 id="compose-env-file-list"),
    pytest.param({"deploy.yaml": K8S_ENVFROM.replace("- configMapRef: {name: app-env}",
                                                     "- configMapRef:\n                name: app-env")},
                 [("deploy.yaml", 6)], id="kubernetes-envfrom-block"),
    pytest.param({"run.sh": "podman run --rm --dns-search=ana.lan --env DB=pug app\n"}, [("run.sh", 1)],
                 id="podman-run"),
])
def test_round14_variants_are_residuals(files: dict[str, str], found: list[tuple[str, int]],
                                        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = _repo(repo, CONFIG, files)
    assert [(f[0], f[1]) for f in _findings(root, run) if f[2] == "composed-name"] == found
    assert run(root, "sweep", "--commit").exit_code == 1
    held = {rel for rel, _ in found}
    for rel, text in files.items():  # a file no tool composes from follows
        text = text.replace("10.0.0.5", "10.1.0.5")
        if rel not in held:
            text = text.replace("pug", "wolf")
        assert (root / rel).read_text() == text.replace("pug.ana.lan", "wolf.fv.lan"), rel


@pytest.mark.parametrize("files", [
    pytest.param({"ssh_config": "Host pug\n  User admin\nHost rex\n  HostName %h.ana.lan\n"},
                 id="ssh-no-block-reaching-it"),
    pytest.param({"ssh_config": "Host pug\n  HostName 10.0.0.9\nHost *\n  HostName %h.ana.lan\n"},
                 id="ssh-its-own-hostname-first"),
    pytest.param({"ssh_config": "Host * !pug\n  HostName %h.ana.lan\nHost pug\n  User x\n"}, id="ssh-negated"),
    pytest.param({"ssh_config": "Match user admin\n  HostName %h.ana.lan\nHost pug\n  User x\n"},
                 id="ssh-match-another-criterion"),
    pytest.param({"ssh_config": "CanonicalDomains ana.lan\nHost pug\n  User x\n"}, id="ssh-not-canonicalized"),
    pytest.param({"ssh_config": "CanonicalizeHostname yes\nCanonicalDomains ana.lan\nHost pug\n  ProxyJump j\n"},
                 id="ssh-canonical-yes-proxied"),
    pytest.param({"home.nix": '{ programs.ssh.matchBlocks = { pug = { hostname = "10.0.0.9"; }; }; x = "%h"; }\n'},
                 id="home-manager-an-address"),
    pytest.param({"ssh.yaml": "- community.general.ssh_config:\n    host: pug\n    hostname: 10.0.0.9\n"
                              "- debug: {msg: '%h.ana.lan'}\n"}, id="ansible-ssh-config-an-address"),
    pytest.param({"compose.yaml": 'services:\n  dns:\n    command: ["--domain=ana.lan", "--addn-hosts=/etc/h"]\n'
                                  '    volumes: ["./h:/etc/h"]\n', "h": "10.0.0.5 pug\n"},
                 id="dnsmasq-flags-no-expand-hosts"),
    pytest.param({"etc/config/dhcp": UCI.replace("'1'", "'0'").split("config host")[0]
                  + "config domain\n\toption name 'pug'\n"}, id="openwrt-no-expandhosts"),
    pytest.param({"dns.nix": NIX_DNSMASQ.replace("expand-hosts = true;", "").replace("dhcp-host", "x")},
                 id="nixos-hosts-no-expand-hosts"),
    pytest.param({"compose.yaml": "services:\n  app:\n    image: x\n    env_file: app.env\n",
                  "app.env": "DB_HOST=pug\n"}, id="compose-env-file-no-search"),
    pytest.param({"deploy.yaml": K8S_ENVFROM.replace("name: app-env}", "name: other}")},
                 id="kubernetes-another-configmap"),
    pytest.param({"run.sh": "docker run --dns-search ana.lan app\ndocker run -e DB=pug app\n"},
                 id="docker-another-command"),
    pytest.param({"app.nomad.hcl": NOMAD.replace('    task "app"', '  }\n  group "b" {\n    task "app"')},
                 id="nomad-another-group"),
])
def test_round14_no_composition_leaves_the_plain_rules(files: dict[str, str], repo: Callable[..., Path],
                                                      run: Callable[..., Result]) -> None:
    root = _repo(repo, CONFIG, files)
    assert [f for f in _findings(root, run) if f[2] == "composed-name"] == []
    assert run(root, "sweep", "--commit").exit_code == 0
    assert all("pug" not in (root / rel).read_text() for rel in files)


INCLUDES = {
    "ssh/config": "Host *\n  HostName %h.ana.lan\n\nInclude config.d/*\n",
    "ssh/config.d/lab": "Host pug\n  User admin\n",
    "home/.ssh/config": "Include ~/.ssh/defaults\n\nHost pug\n  User admin\n",
    "home/.ssh/defaults": "Host *\n  ProxyCommand ssh jump -W %h.ana.lan:%p\n",
}


def _ssh_hostname_included(root: Path, rel: str, host: str, tmp: Path) -> str:
    """`ssh -G` of a repo config whose relative `Include`s are read from its own folder."""
    config = tmp / "resolved_config"
    folder = (root / rel).parent
    config.write_text((root / rel).read_text().replace("Include ~/.ssh/", f"Include {folder}/")
                      .replace("Include config.d/", f"Include {folder}/config.d/"))
    return _ssh_hostname(config, host)


def test_round14_a_config_an_include_composes_is_a_residual(repo: Callable[..., Path], run: Callable[..., Result],
                                                           tmp_path: Path) -> None:
    """Break-it round 14 (finding 1's `Include` layout): a `Host *` block in one file composes the
    `Host pug` of a file it includes, or of the file including it."""
    root = _repo(repo, CONFIG, INCLUDES)
    assert _ssh_hostname_included(root, "ssh/config", "pug", tmp_path) == "pug.ana.lan"
    assert [(f[0], f[1]) for f in _findings(root, run) if f[2] == "composed-name"] == [
        ("home/.ssh/config", 3), ("ssh/config.d/lab", 1)]
    assert run(root, "sweep", "--commit").exit_code == 1
    for rel, text in INCLUDES.items():
        assert (root / rel).read_text() == text
    swept = {rel: text.replace("pug", "wolf") for rel, text in INCLUDES.items()}
    again = _repo(repo, CONFIG, swept)  # an earlier sweep's words fail verify
    assert [(f[0], f[1]) for f in _findings(again, run) if f[2] == "composed-name"] == [
        ("home/.ssh/config", 3), ("ssh/config.d/lab", 1)]


@pytest.mark.parametrize("files", [
    pytest.param({"ssh/config": "Include config.d/*\n\nHost *\n  HostName %h.ana.lan\n",
                  "ssh/config.d/lab": "Host pug\n  HostName 10.0.0.9\n"}, id="its-own-hostname-first"),
    pytest.param({"ssh/config": "Host rex\n  Include config.d/*\nHost *\n  HostName %h.ana.lan\n",
                  "ssh/config.d/lab": "Host pug\n  User x\n"},
                 id="an-include-inside-another-block"),  # read for rex only: its `Host pug` never applies
    pytest.param({"ssh/config": "Host *\n  HostName %h.ana.lan\n", "ssh/config.d/lab": "Host pug\n  User x\n"},
                 id="not-included"),
])
def test_round14_an_include_composing_nothing_leaves_the_plain_rules(
        files: dict[str, str], repo: Callable[..., Path], run: Callable[..., Result], tmp_path: Path) -> None:
    root = _repo(repo, CONFIG, files)
    if "Include config.d/*\n\n" in files["ssh/config"]:
        assert _ssh_hostname_included(root, "ssh/config", "pug", tmp_path) == "10.0.0.9"
    assert [f for f in _findings(root, run) if f[2] == "composed-name"] == []
    assert run(root, "sweep", "--commit").exit_code == 0
    assert all("pug" not in (root / rel).read_text() for rel in files)


DNS_RECORDS = {
    "dns/server.tf": 'resource "dns_a_record_set" "web" {\n  zone      = "ana.lan."\n  name      = "pug"\n'
                     '  addresses = ["10.0.40.11"]\n}\n',
    "octodns/config/ana.lan.yaml": "---\npug:\n  type: A\n  value: 10.0.40.11\nrex:\n  type: A\n  value: 10.0.40.12\n",
}


def test_round15_a_dns_record_written_as_zone_and_relative_name_is_held_where_the_domain_moves(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """Break-it round 15, finding 1 (ChristianLempa/homelab's Terraform dns records, OctoDNS):
    `name = "pug"` in zone ana.lan rewritten alone publishes wolf.ana.lan, not wolf.fv.lan."""
    root = repo(DNS_RECORDS, config=CONFIG, allowlist=ALLOW)
    found = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    held = {(f["path"], f["line"]) for f in found if f.get("reason") == "composed-name"}
    assert held == {("dns/server.tf", 3), ("octodns/config/ana.lan.yaml", 2)}
    assert run(root, "sweep", "--commit").exit_code == 1
    assert 'name      = "pug"' in (root / "dns/server.tf").read_text()
    assert (root / "octodns/config/ana.lan.yaml").read_text().startswith("---\npug:\n")


def test_round15_where_the_domain_stays_the_record_name_follows(repo: Callable[..., Path],
                                                                run: Callable[..., Result]) -> None:
    root = repo(DNS_RECORDS, config=SAME_DOMAIN, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert 'name      = "wolf"' in (root / "dns/server.tf").read_text()
    assert (root / "octodns/config/ana.lan.yaml").read_text().startswith("---\nwolf:\n")
