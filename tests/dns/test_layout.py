"""Layouts where a snippet cannot take effect: refused before writing, named with the setting to
change; and the canary, which catches what a layout check cannot see (issue 13, items 1 and 2)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest

from renamer.dns.inventory import Resolver
from renamer.dns.layout import layout_problem
from renamer.dns.transport import CommandResult
from tests.dns.test_cli_dns import dns


def test_a_missing_snippet_dir_is_refused_and_never_created(run, lab) -> None:  # type: ignore[no-untyped-def]
    missing = lab.root / "no-such-folder"
    lab.write_resolvers(ns_fv={"snippet_dir": str(missing)})
    result = dns(run, lab, "apply", "--resolvers", "all")
    assert result.exit_code == 3
    assert result.stderr.startswith(f"renamer: error: ns-fv: snippet_dir {missing} does not exist; renamer "
                                    "never creates it")
    assert result.stderr.endswith("; nothing written\n") and result.stderr.count("\n") == 1
    assert not missing.exists() and lab.snippets() == {}  # nothing written anywhere
    plan = dns(run, lab, "plan", "--resolvers", "ns-fv")
    assert plan.exit_code == 0 and f"error: ns-fv: snippet_dir {missing} does not exist" in plan.stdout


def test_a_folder_dnsmasq_does_not_read_is_refused_even_when_the_answers_match(run, lab) -> None:  # type: ignore[no-untyped-def]
    """The records are served by hand from the folder dnsmasq reads; renamer is pointed elsewhere."""
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    elsewhere = lab.root / "elsewhere"
    elsewhere.mkdir()
    lab.write_resolvers(ns_fv={"snippet_dir": str(elsewhere)})
    result = dns(run, lab, "apply", "--resolvers", "ns-fv")
    assert result.exit_code == 3
    conf = lab.instances["ns-fv"].conf
    assert result.stderr == (f"renamer: error: ns-fv: snippet_dir {elsewhere} is not read by dnsmasq: no conf-dir "
                             f"or conf-file in {conf} (or what it includes) names it; add `conf-dir={elsewhere}/,"
                             f"*.conf` to {conf}; nothing written\n")
    assert list(elsewhere.iterdir()) == []


def test_without_the_layout_check_the_canary_catches_a_resolver_that_does_not_read_the_snippet(run, lab) -> None:  # type: ignore[no-untyped-def]
    """Answers all right, from copies in the folder dnsmasq reads; renamer writes elsewhere. Only
    the canary can tell: a warning comment changes the snippet's digest, not one answer."""
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    served = lab.instances["ns-fv"].snippet_dir
    for snippet in served.glob("renamer-*.conf"):
        snippet.rename(served / snippet.name.replace("renamer-", "hand-"))
    elsewhere = lab.root / "elsewhere"
    elsewhere.mkdir()
    lab.write_resolvers(ns_fv={"snippet_dir": str(elsewhere), "check_layout": False})
    site = lab.inventory / "sites" / "fv.yaml"
    site.write_text(site.read_text().replace("address: 10.251.0.1\n", "address: 10.251.0.1\n    warning: PSU 2 is dead\n"))
    verify = dns(run, lab, "verify", "--resolvers", "ns-fv")
    assert verify.exit_code == 1
    failing = [line for line in verify.stdout.splitlines() if line.split()[-1:] == ["FAIL"]]
    assert len(failing) == 1 and "_renamer.fv.fv.lan TXT (canary)" in failing[0], verify.stdout
    applied = dns(run, lab, "apply", "--resolvers", "ns-fv")
    assert applied.exit_code == 1, applied.stdout
    assert "ns-fv: verify failed: _renamer.fv.fv.lan TXT (canary): expected" in applied.stdout
    assert "rolled back" in applied.stdout
    assert list(elsewhere.glob("renamer-*.conf")) == []  # rolled back: removed again


# -- layouts renamer reads through the transport, with fake files ------------------------------

@dataclass
class Files:
    """A transport over a dict of files: what each layout's machine holds."""

    files: dict[str, bytes]
    folders: set[str] = field(default_factory=set)

    def read(self, path: str) -> bytes | None:
        return self.files.get(path)

    def run(self, argv: Sequence[str]) -> CommandResult:
        argv = list(argv)
        if argv[:2] == ["test", "-d"]:
            return CommandResult(0 if argv[2].rstrip("/") in self.folders else 1, "")
        if argv[:2] == ["ls", "-1A"]:
            folder = argv[-1].rstrip("/")
            names = sorted(p[len(folder) + 1:] for p in self.files if p.rsplit("/", 1)[0] == folder)
            return CommandResult(0 if folder in self.folders else 2, "\n".join(names) + "\n")
        return CommandResult(127, "")


def _resolver(snippet_dir: str = "/etc/dnsmasq.d", test: tuple[str, ...] = ("dnsmasq", "--test")) -> Resolver:
    import ipaddress

    return Resolver("ns", ipaddress.ip_address("10.0.0.53"), 53, "local", snippet_dir, "/var/backups/renamer",
                    test, ("systemctl", "restart", "dnsmasq"), ("fv",), ())


@pytest.mark.parametrize("files, folders, problem", [
    pytest.param({"/etc/dnsmasq.conf": b"conf-dir=/etc/dnsmasq.d/,*.conf\n"}, {"/etc/dnsmasq.d"}, None,
                 id="plain-conf-dir"),
    pytest.param({"/etc/dnsmasq.conf": b"#conf-dir=/etc/dnsmasq.d/,*.conf\n", "/etc/default/dnsmasq": b"ENABLED=1\n"},
                 {"/etc/dnsmasq.d"}, None, id="debian-init-passes-it"),
    pytest.param({"/etc/dnsmasq.conf": b"", "/etc/default/dnsmasq": b"CONFIG_DIR=''\n"}, {"/etc/dnsmasq.d"},
                 "ns: snippet_dir /etc/dnsmasq.d is not read by dnsmasq", id="debian-config-dir-off"),
    pytest.param({"/etc/dnsmasq.conf": b"no-resolv\n"}, {"/etc/dnsmasq.d"},
                 "add `conf-dir=/etc/dnsmasq.d/,*.conf` to /etc/dnsmasq.conf", id="docker-no-conf-dir"),
    pytest.param({"/etc/pihole/pihole.toml": b"[misc]\n  etc_dnsmasq_d = false\n"}, {"/etc/dnsmasq.d"},
                 "Pi-hole v6 ignores /etc/dnsmasq.d unless misc.etc_dnsmasq_d = true", id="pihole-v6-off"),
    pytest.param({"/etc/pihole/pihole.toml": b"[misc]\n  etc_dnsmasq_d = true\n",
                  "/etc/dnsmasq.conf": b"conf-dir=/etc/dnsmasq.d\n"}, {"/etc/dnsmasq.d"}, None, id="pihole-v6-on"),
    pytest.param({"/etc/openwrt_release": b"DISTRIB_ID='OpenWrt'\n"}, {"/etc/dnsmasq.d"},
                 "OpenWrt's dnsmasq reads /tmp/dnsmasq.d (`option confdir` in /etc/config/dhcp)", id="openwrt"),
    pytest.param({"/etc/openwrt_release": b"x\n", "/etc/config/dhcp": b"config dnsmasq\n\toption confdir '/etc/dnsmasq.d'\n"},
                 {"/etc/dnsmasq.d"}, None, id="openwrt-confdir-set"),
    pytest.param({}, set(), "ns: snippet_dir /etc/dnsmasq.d does not exist", id="missing"),
])
def test_layouts(files: dict[str, bytes], folders: set[str], problem: str | None) -> None:
    found = layout_problem(_resolver(), Files(files, folders))  # type: ignore[arg-type]
    assert (found is None) == (problem is None), found
    assert problem is None or (found is not None and problem in found), found


def test_the_conf_file_comes_from_the_test_command_or_the_resolver() -> None:
    files = Files({"/srv/dns.conf": b"conf-dir=/srv/snippets,*.conf\n"}, {"/srv/snippets"})
    assert layout_problem(_resolver("/srv/snippets", ("dnsmasq", "--test", "--conf-file=/srv/dns.conf")),
                          files) is None  # type: ignore[arg-type]
    assert layout_problem(_resolver("/srv/snippets", ("dnsmasq", "--test", "-C", "/srv/dns.conf")),
                          files) is None  # type: ignore[arg-type]
    assert "is not read by dnsmasq" in (layout_problem(_resolver("/srv/snippets"), files) or "")  # type: ignore[arg-type]
