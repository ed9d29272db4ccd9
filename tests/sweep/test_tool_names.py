"""Which hosts files a dnsmasq configuration reads with `expand-hosts` (sweep/tool_names.expanded_hosts)."""

from __future__ import annotations

from pathlib import Path

from renamer.sweep.tool_names import expanded_hosts


def _hosts(root: Path, files: dict[str, str], record: str = "") -> list[tuple[str, str, str]]:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return list(expanded_hosts(root, sorted(files), 1 << 20, lambda rel: bool(record) and rel.startswith(record)))


def test_etc_hosts_addn_hosts_and_hostsdir(tmp_path: Path) -> None:
    files = {"srv/etc/dnsmasq.conf": "domain=ana.lan\nexpand-hosts\naddn-hosts=/etc/lab.hosts\n"
                                     "hostsdir=/var/lib/hosts.d\n",
             "srv/etc/hosts": "", "srv/etc/lab.hosts": "", "files/lab.hosts": "",
             "files/hosts.d/a": "", "files/hosts.d/b": "", "web/etc/hosts": ""}
    conf = "srv/etc/dnsmasq.conf"
    assert _hosts(tmp_path, files) == [("files/hosts.d/a", "ana.lan", conf), ("files/hosts.d/b", "ana.lan", conf),
                                       ("srv/etc/hosts", "ana.lan", conf), ("srv/etc/lab.hosts", "ana.lan", conf)]


def test_a_snippet_with_the_domain_in_dnsmasq_conf_and_the_longest_suffix(tmp_path: Path) -> None:
    files = {"dns/dnsmasq.conf": "domain=ana.lan,10.0.0.0/24\nconf-dir=/etc/dnsmasq.d\nno-hosts\n",
             "dns/dnsmasq.d/lab.conf": "expand-hosts\naddn-hosts=/srv/dns/lab.hosts\n",
             "a/dns/lab.hosts": "", "b/lab.hosts": "", "dns/hosts": ""}
    assert _hosts(tmp_path, files) == [("a/dns/lab.hosts", "ana.lan", "dns/dnsmasq.d/lab.conf")]


def test_no_certain_configuration_reads_nothing(tmp_path: Path) -> None:
    assert _hosts(tmp_path / "a", {"dnsmasq.conf": "domain=ana.lan\n", "hosts": ""}) == []  # no expand-hosts
    assert _hosts(tmp_path / "b", {"dnsmasq.conf": "domain=a.lan\ndomain=b.lan\nexpand-hosts\n", "hosts": ""}) == []
    assert _hosts(tmp_path / "c", {"dns.conf": "domain=ana.lan\nexpand-hosts\n", "hosts": ""}) == []  # not dnsmasq's
    assert _hosts(tmp_path / "d", {"backup/dnsmasq.conf": "domain=ana.lan\nexpand-hosts\n", "backup/hosts": ""},
                  record="backup/") == []
