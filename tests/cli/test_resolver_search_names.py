"""A bare host word a resolver or a chart qualifies with a domain kept apart (issue 27, h16).

Each of these made pug.ana.lan from a bare `pug` and a domain written elsewhere, and the sweep
rewrote `pug -> wolf` alone (the domain moving: `pug.ana.lan -> wolf.fv.lan`), so each then made
wolf.ana.lan, a name that does not exist, and verify said OK: Pi-hole v6's `dns.hosts` with
`expandHosts` and `domain` (pihole.toml, or FTLCONF_ variables), its `dhcp.hosts`; dnsmasq's short
flags (`-s ana.lan -E -H`, `-G`); a compose service that `extends` one with `dns_search`, a file
a compose file `include:`s, `docker run --dns-search --env-file`; a machine's search list
(resolv.conf, resolved/networkd `Domains=`, netplan, NetworkManager, dhclient, cloud-init);
Helm's `{{ .Values.host }}.{{ .Values.domain }}`. Now each word is a `composed-name` residual;
where the domain stays (or the search list holds the new one) it follows; a word an earlier
sweep rewrote alone fails verify. The real dnsmasq serves the Pi-hole and short-flag records.
"""

from __future__ import annotations

import getpass
import json
import socket
import subprocess
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from tests.cli.test_tool_composed_names import _answers, _findings
from tests.conftest import Result
from tests.testing.repos import PUG_ALLOW as ALLOW
from tests.testing.repos import PUG_CONFIG as CONFIG

SAME_DOMAIN = CONFIG.replace("pug.ana.lan: wolf.fv.lan", "pug.ana.lan: wolf.ana.lan")
PIHOLE = ('[dns]\n  hosts = [\n    "10.0.0.5 pug",\n    "10.0.0.6 rex"\n  ]\n  domain = "ana.lan"\n'
          '  expandHosts = true\n  cnameRecords = ["x.ana.lan,pug.ana.lan"]\n')
DNSMASQ_UNIT = ("[Service]\nExecStart=/usr/sbin/dnsmasq -k -s ana.lan -E \\\n"
                "  -H /etc/lan.hosts\n")
# One repo of the resolvers' and the chart's (no machine-wide search list: each of those is a repo).
FILES = {
    "pihole/etc/pihole/pihole.toml": PIHOLE,
    "pihole-env/compose.yaml": ("services:\n  pihole:\n    image: pihole/pihole:2025.03.0\n    environment:\n"
                                '      FTLCONF_dns_hosts: "10.0.0.5 pug;10.0.0.6 rex"\n'
                                "      FTLCONF_dns_domain_name: ana.lan\n"
                                "      FTLCONF_dns_expandHosts: 'true'\n"),
    "dnsmasq/dns.service": DNSMASQ_UNIT,
    "dnsmasq/etc/lan.hosts": "10.0.0.5 pug\n",
    "extends/common.yaml": "services:\n  base:\n    image: app:1\n    dns_search: ana.lan\n",
    "extends/compose.yaml": ("services:\n  app:\n    extends: {file: common.yaml, service: base}\n"
                             "    environment:\n      DB_HOST: pug\n"),
    "chart/Chart.yaml": "apiVersion: v2\nname: app\nversion: 1.0.0\n",
    "chart/values.yaml": "host: pug\ndomain: ana.lan\n",
    "chart/templates/cm.yaml": "data:\n  url: http://{{ .Values.host }}.{{ .Values.domain }}/\n",
}
FOUND = [("chart/values.yaml", 1), ("dnsmasq/etc/lan.hosts", 1), ("extends/compose.yaml", 5),
         ("pihole-env/compose.yaml", 5), ("pihole/etc/pihole/pihole.toml", 3)]


def _serve(hosts: str, flags: list[str], names: list[str], tmp: Path) -> dict[str, str | None]:
    """What the real dnsmasq serves from a hosts file with `flags` (`-s ana.lan -E`), on a loopback port."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    (tmp / "served.hosts").write_text(hosts)
    command = ["dnsmasq", "--conf-file=/dev/null", *flags, "-H", str(tmp / "served.hosts"), "--no-hosts",
               "--no-resolv", f"--port={port}", "--listen-address=127.0.0.1", "--bind-interfaces"]
    assert subprocess.run([*command, "--test"], capture_output=True).returncode == 0
    with subprocess.Popen([*command, "-k", "--pid-file=", f"--user={getpass.getuser()}"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as daemon:
        try:
            return _answers(port, names)
        finally:
            daemon.terminate()
            daemon.wait(timeout=10)


def _pihole_serves(root: Path, names: list[str], tmp: Path) -> dict[str, str | None]:
    """Pi-hole's dnsmasq for the repo's pihole.toml: its `dns.hosts` as a hosts file, `expand-hosts`
    and `domain=` as it writes them (FTL's dnsmasq.conf), served by the real dnsmasq."""
    dns = tomllib.loads((root / "pihole/etc/pihole/pihole.toml").read_text())["dns"]
    flags = [f"--domain={dns['domain']}", *(["--expand-hosts"] if dns["expandHosts"] else [])]
    return _serve("".join(f"{entry}\n" for entry in dns["hosts"]), flags, names, tmp)


def _unit_serves(root: Path, names: list[str], tmp: Path) -> dict[str, str | None]:
    """The real dnsmasq with dns.service's short flags (its -H file read as the repo's)."""
    line = (root / "dnsmasq/dns.service").read_text().split("ExecStart=")[1].replace("\\\n", " ").split()
    flags = line[2:line.index("-H")]
    return _serve((root / "dnsmasq/etc/lan.hosts").read_text(), flags, names, tmp)


def test_compositions_the_domain_move_would_break_are_residuals(repo: Callable[..., Path],
                                                                run: Callable[..., Result], tmp_path: Path) -> None:
    root = repo(FILES, config=CONFIG, allowlist=ALLOW)
    assert _pihole_serves(root, ["pug.ana.lan"], tmp_path) == {"pug.ana.lan": "10.0.0.5"}
    assert _unit_serves(root, ["pug.ana.lan"], tmp_path) == {"pug.ana.lan": "10.0.0.5"}
    assert [(f[0], f[1]) for f in _findings(root, run) if f[2] == "composed-name"] == FOUND
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert "`expandHosts = true` and `domain = \"ana.lan\"` of the same pihole.toml" in done.stdout
    assert "`expand-hosts` and `domain=ana.lan` of dnsmasq/dns.service, which reads this file" in done.stdout
    for rel, text in FILES.items():
        assert (root / rel).read_text() == text.replace("10.0.0.5", "10.1.0.5").replace(
            "x.ana.lan,pug.ana.lan", "x.ana.lan,wolf.fv.lan"), rel
    assert _pihole_serves(root, ["pug.ana.lan", "wolf.ana.lan"], tmp_path) == {"pug.ana.lan": "10.1.0.5",
                                                                               "wolf.ana.lan": None}
    assert _unit_serves(root, ["pug.ana.lan"], tmp_path) == {"pug.ana.lan": "10.1.0.5"}
    assert run(root, "verify").exit_code == 1


def test_where_the_domain_stays_each_word_follows(repo: Callable[..., Path], run: Callable[..., Result],
                                                 tmp_path: Path) -> None:
    root = repo(FILES, config=SAME_DOMAIN, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    for rel, text in FILES.items():
        expected = text.replace("10.0.0.5", "10.1.0.5").replace("pug.ana.lan", "wolf.ana.lan")
        assert (root / rel).read_text() == expected.replace("pug", "wolf"), rel
    assert _pihole_serves(root, ["wolf.ana.lan"], tmp_path) == {"wolf.ana.lan": "10.1.0.5"}
    assert _unit_serves(root, ["wolf.ana.lan"], tmp_path) == {"wolf.ana.lan": "10.1.0.5"}
    assert yaml.safe_load((root / "extends/compose.yaml").read_text())["services"]["app"]["environment"] == {
        "DB_HOST": "wolf"}
    assert run(root, "verify", "--strict").exit_code == 0


def test_words_an_earlier_sweep_rewrote_alone_fail_verify(repo: Callable[..., Path],
                                                         run: Callable[..., Result]) -> None:
    swept = {rel: text.replace("pug.ana.lan", "wolf.fv.lan").replace("pug", "wolf").replace("10.0.0.5", "10.1.0.5")
             for rel, text in FILES.items()}
    root = repo(swept, config=CONFIG, allowlist=ALLOW)
    assert [(f[0], f[1]) for f in _findings(root, run) if f[2] == "composed-name"] == FOUND


MACHINE = {"app.env": "DB_HOST=pug\n", "check.sh": "#!/bin/sh\nssh admin@pug uptime\ncat hosts/pug/x.conf\n"}


@pytest.mark.parametrize(("files", "found"), [
    pytest.param({"etc/resolv.conf": "nameserver 10.0.0.1\nsearch ana.lan\n"}, None, id="resolv-conf-search"),
    pytest.param({"etc/resolv.conf": "domain ana.lan\n"}, None, id="resolv-conf-domain"),
    pytest.param({"etc/systemd/resolved.conf": "[Resolve]\nDomains=ana.lan ~corp\n"}, None, id="resolved"),
    pytest.param({"etc/systemd/network/10-lan.network": "[Network]\nDHCP=yes\nDomains=b.lan ana.lan\n"}, None,
                 id="networkd"),
    pytest.param({"etc/netplan/01.yaml": "network:\n  ethernets:\n    eth0:\n      nameservers:\n"
                                         "        search:\n          - ana.lan\n"}, None, id="netplan"),
    pytest.param({"nm/lan.nmconnection": "[ipv4]\nmethod=auto\ndns-search=ana.lan;\n"}, None,
                 id="networkmanager"),
    pytest.param({"etc/dhcp/dhclient.conf": 'supersede domain-search "ana.lan", "b.lan";\n'}, None, id="dhclient"),
    pytest.param({"cloud-init/user-data": "#cloud-config\nmanage_resolv_conf: true\nresolv_conf:\n"
                                          "  searchdomains: [ana.lan]\n"}, None, id="cloud-init"),
    pytest.param({"hosts/rex/etc/resolv.conf": "search ana.lan\n", "hosts/box/etc/resolv.conf": "search b.lan\n",
                  "hosts/rex/app.env": "DB_HOST=pug\n", "hosts/box/app.env": "DB_HOST=pug\n"},
                 [("hosts/rex/app.env", 1)], id="the-machine-of-the-file"),
    pytest.param({"compose.yaml": "services:\n  base:\n    image: app:1\n    dns_search: [ana.lan]\n"
                                  "  app:\n    extends: base\n    env_file: app.env\n",
                  "app.env": "DB_HOST=pug\n"}, [("app.env", 1)],
                 id="compose-extends-in-the-same-file-env-file"),
    pytest.param({"compose.yaml": "include:\n  - path: db/stack.yml\n",
                  "db/stack.yml": "services:\n  app:\n    image: app:1\n    dns_search: ana.lan\n"
                                  "    env_file: [app.env]\n", "db/app.env": "DB_HOST=pug\n"}, [("db/app.env", 1)],
                 id="compose-include"),
    pytest.param({"run.sh": "#!/bin/sh\ndocker run -d --dns-search ana.lan --env-file ./app.env app:1\n",
                  "app.env": "DB_HOST=pug\n"}, [("app.env", 1)], id="docker-run-env-file"),
    pytest.param({"app.container": "[Container]\nImage=app:1\nDNSSearch=ana.lan\nEnvironment=A=1 \"DB=x pug\"\n"},
                 [("app.container", 4)], id="quadlet-environment"),
    pytest.param({"q/app.container": "[Container]\nDNSSearch=ana.lan b.lan\nEnvironmentFile=./app.env\n",
                  "q/app.env": "DB_HOST=pug\n"}, [("q/app.env", 1)], id="quadlet-environment-file"),
    pytest.param({"pihole.env": "FTLCONF_dns_domain=ana.lan\nFTLCONF_dhcp_hosts=aa:bb:cc:dd:ee:ff,10.0.0.5,pug\n"},
                 [("pihole.env", 2)], id="pihole-dhcp-hosts-env-file"),
    pytest.param({"pihole.toml": '[dns.domain]\nname = "ana.lan"\n[dhcp]\nhosts = ["aa:bb:cc:dd:ee:ff,pug"]\n'},
                 [("pihole.toml", 4)], id="pihole-dhcp-hosts-domain-table"),
    pytest.param({"run.sh": "docker run -d -e FTLCONF_dns_domain=ana.lan -e FTLCONF_dns_expandHosts=true \\\n"
                            "  -e 'FTLCONF_dns_hosts=10.0.0.5 pug' pihole/pihole\n"}, [("run.sh", 2)],
                 id="pihole-docker-run"),
    pytest.param({"compose.yaml": "services:\n  dns:\n    image: jpillora/dnsmasq\n    command:\n"
                                  "      - -ksana.lan\n      - -G\n      - aa:bb:cc:dd:ee:ff,pug,10.0.0.5\n"},
                 [("compose.yaml", 7)], id="dnsmasq-bundled-short-flags-block-list"),
    pytest.param({"chart/Chart.yaml": "name: x\n", "chart/values.yaml": "db:\n  host: pug\nnet:\n  domain: ana.lan\n",
                  "chart/templates/x.tpl": "{{- .Values.db.host -}}.{{- .Values.net.domain -}}\n"},
                 [("chart/values.yaml", 2)], id="helm-nested-values"),
])
def test_variants_are_residuals(files: dict[str, str], found: list[tuple[str, int]] | None,
                                repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """A machine's search list (found None: MACHINE's words, the path's component aside) and the
    other compositions spelled otherwise."""
    if found is None:
        files = {**files, **MACHINE}
        found = [("app.env", 1), ("check.sh", 2)]
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert [(f[0], f[1]) for f in _findings(root, run) if f[2] == "composed-name"] == found
    assert run(root, "sweep", "--commit").exit_code == 1
    held = {rel for rel, _ in found}
    for rel, text in files.items():
        text = text.replace("10.0.0.5", "10.1.0.5")
        if rel not in held:
            text = text.replace("pug", "wolf")
        elif rel == "check.sh":
            text = text.replace("hosts/pug", "hosts/wolf")
        assert (root / rel).read_text() == text, rel


@pytest.mark.parametrize("files", [
    pytest.param({"etc/resolv.conf": "search ana.lan fv.lan\n"}, id="search-list-holds-the-new-domain"),
    pytest.param({"etc/resolv.conf": "search b.lan\n"}, id="search-list-of-another-domain"),
    pytest.param({"etc/resolv.conf": "search ana.lan\ndomain b.lan\n"}, id="resolv-conf-last-line-wins"),
    pytest.param({"etc/systemd/resolved.conf": "[Resolve]\nDomains=~ana.lan\n"}, id="resolved-routing-only"),
    pytest.param({"cloud/user-data": "manage_resolv_conf: false\nresolv_conf:\n  searchdomains: [ana.lan]\n"},
                 id="cloud-init-not-managing"),
    pytest.param({"etc/resolv.conf": "search ana.lan\n", "etc/hosts": "10.0.0.5 pug\n",
                  "run.sh": "cat hosts/pug/a.conf /srv/pug/b\n", "app.env": "DB=1\n"}, id="hosts-lines-and-paths"),
    pytest.param({"hosts/rex/etc/resolv.conf": "search ana.lan\n", "hosts/box/etc/resolv.conf": "search b.lan\n",
                  "hosts/box/app.env": "DB_HOST=pug\n"}, id="another-machine"),
    pytest.param({"etc/pihole/pihole.toml": PIHOLE.replace("expandHosts = true", "expandHosts = false")},
                 id="pihole-no-expand-hosts"),
    pytest.param({"compose.yaml": "services:\n  p:\n    environment:\n      - FTLCONF_dns_expandHosts=true\n"
                                  "      - FTLCONF_dns_hosts=10.0.0.5 pug\n"}, id="pihole-no-domain"),
    pytest.param({"dns.service": "[Service]\nExecStart=/usr/sbin/dnsmasq -k -E -H /etc/h\n", "etc/h": "10.0.0.5 pug\n"},
                 id="dnsmasq-short-flags-no-domain"),
    pytest.param({"run.sh": "grep -s ana.lan -E x\nssh -G aa,pug\n"}, id="short-flags-of-another-command"),
    pytest.param({"compose.yaml": 'services:\n  dns:\n    image: dnsmasq\n    command: ["-A", "/pug/10.0.0.5"]\n'},
                 id="dnsmasq-address-of-a-bare-name"),
    pytest.param({"compose.yaml": "services:\n  base:\n    image: app:1\n  app:\n    extends: base\n"
                                  "    environment: {DB_HOST: pug}\n"}, id="compose-extends-no-search-list"),
    pytest.param({"run.sh": "docker run --env-file app.env app:1\n", "app.env": "DB=pug\n"},
                 id="docker-run-env-file-no-search-list"),
    pytest.param({"app.container": "[Container]\nDNSSearch=b.lan\nEnvironment=DB=pug\nEnvironmentFile=app.env\n"},
                 id="quadlet-another-domain"),
    pytest.param({"chart/Chart.yaml": "name: x\n", "chart/values.yaml": "host: pug\ndomain: ana.lan\n",
                  "chart/templates/x.yaml": "a: {{ .Values.host }}-{{ .Values.domain }}\n"}, id="helm-no-dot"),
])
def test_no_composition_leaves_the_plain_rules(files: dict[str, str], repo: Callable[..., Path],
                                               run: Callable[..., Result]) -> None:
    files = {**files, "app.env": files.get("app.env", "DB_HOST=pug\n")}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert [f for f in _findings(root, run) if f[2] == "composed-name"] == []
    assert run(root, "sweep", "--commit").exit_code == 0
    assert all("pug" not in (root / rel).read_text() for rel in files)


def test_a_with_block_reads_its_value_as_the_template_does(repo: Callable[..., Path],
                                                          run: Callable[..., Result]) -> None:
    """`{{ with .Values.host }}{{ . }}.ana.lan{{ end }}` is `{{ .Values.host }}.ana.lan`: its
    literal domain follows with the value (every value of `host` moving to fv.lan)."""
    files = {"chart/Chart.yaml": "name: x\n", "chart/values.yaml": "host: pug\n",
             "chart/templates/x.yaml": "a: {{ with .Values.host }}{{ . }}.ana.lan{{ end }}\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "chart/templates/x.yaml").read_text() == "a: {{ with .Values.host }}{{ . }}.fv.lan{{ end }}\n"
    assert (root / "chart/values.yaml").read_text() == "host: wolf\n"
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_held_value_is_kept_for_every_template_reading_it(repo: Callable[..., Path],
                                                           run: Callable[..., Result]) -> None:
    """The value `{{ .Values.host }}.{{ .Values.domain }}` holds stays `pug`, so another template's
    `{{ .Values.host }}.ana.lan` keeps its literal domain (it would make pug.fv.lan)."""
    files = {"chart/Chart.yaml": "name: x\n", "chart/values.yaml": "host: pug\ndomain: ana.lan\n",
             "chart/templates/a.yaml": "a: {{ .Values.host }}.{{ .Values.domain }}\n",
             "chart/templates/b.yaml": "b: {{ .Values.host }}.ana.lan\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    for rel, text in files.items():
        assert (root / rel).read_text() == text, rel
    assert json.loads(run(root, "verify", "--format", "json").stdout)["findings"]


def test_a_word_a_search_list_holds_is_kept_for_every_name_composed_from_it(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    """`NODE=pug` held by the machine's `search ana.lan` stays `pug`, so `${NODE}.ana.lan` keeps its
    literal domain (it would make pug.fv.lan); where the domain stays, both follow."""
    files = {"etc/resolv.conf": "search ana.lan\n", ".env": "NODE=pug\n",
             "compose.yaml": "services:\n  a:\n    image: x\n    environment:\n      URL: https://${NODE}.ana.lan/\n"}
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    for rel, text in files.items():
        assert (root / rel).read_text() == text, rel
    same = repo(files, config=SAME_DOMAIN, allowlist=ALLOW)
    assert run(same, "sweep", "--commit").exit_code == 0
    assert (same / ".env").read_text() == "NODE=wolf\n"
    assert "${NODE}.ana.lan" in (same / "compose.yaml").read_text()
