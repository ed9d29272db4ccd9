"""Layouts where a snippet cannot take effect: refused before writing, named with the setting to
change; and the canary, which catches what a layout check cannot see (issue 13, items 1 and 2)."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import dns.message as dns_message
import dns.query as dns_query
import dns.rcode as dns_rcode
import pytest

from renamer.dns.dnsmasq import sandbox
from renamer.dns.dnsmasq.layout import layout_problem
from renamer.dns.inventory import Resolver
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
    # the plan never promises an apply that is refused: exit 1, as for a resolver that is down
    assert plan.exit_code == 1 and f"error: ns-fv: snippet_dir {missing} does not exist" in plan.stdout


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


def test_plan_lists_hand_written_records_and_warns_of_a_forwarded_authoritative_domain(run, lab) -> None:  # type: ignore[no-untyped-def]
    instance = lab.instances["ns-ana"]
    legacy = instance.snippet_dir / "legacy.conf"
    legacy.write_text("# by hand, years ago\nhost-record=ana-ml2.ana.lan,10.250.50.54\n"
                      "address=/printer.ana.lan/10.250.9.9\nserver=/ana.lan/10.250.0.1\n")
    (lab.root / "hosts.extra").write_text("10.250.50.55 ana-ml2-bmc\n")
    with instance.conf.open("a") as conf:
        conf.write(f"addn-hosts={lab.root / 'hosts.extra'}\n")
    plan = dns(run, lab, "plan", "--resolvers", "ns-ana")
    # the apply restarts ns-ana, which then serves the hand-written ana-ml2 too: its verify would
    # fail, so the plan says so and exits 1 (F3)
    assert plan.exit_code == 1, plan.stderr
    assert ("would fail: ns-ana: its verify after the write would fail: ana-ml2.ana.lan A gone: expected NXDOMAIN, "
            "got 10.250.50.54 (and 1 more), from a hand-written record the apply leaves in place") in plan.stdout
    assert (f"warning: ns-ana: site ana is authoritative (local=/ana.lan/), but {legacy}:4 forwards it "
            "(server=/ana.lan/10.250.0.1): with both, dnsmasq either hides") in plan.stdout
    assert ("hand-written records naming old values, giving an inventory name another address or "
            "reserving its MAC or address (2; they stay served: `dns apply --retire-stale` comments them out):\n"
            f"  {legacy}:2: host-record=ana-ml2.ana.lan,10.250.50.54\n"
            f"  {lab.root / 'hosts.extra'}:1: 10.250.50.55 ana-ml2-bmc\n") in plan.stdout


def test_plan_for_pipelines_expect_no_changes_json_and_apply_exactly_the_reviewed_plan(run, lab, tmp_path) -> None:  # type: ignore[no-untyped-def]
    assert dns(run, lab, "plan", "--resolvers", "all", "--expect-no-changes").exit_code == 1  # all to write
    reviewed = tmp_path / "plan.json"
    reviewed.write_text(dns(run, lab, "plan", "--resolvers", "ns-fv,ns-ana", "--format", "json").stdout)
    document = json.loads(reviewed.read_text())
    assert document["changes"] is True
    fv = next(r for r in document["resolvers"] if r["resolver"] == "ns-fv")
    assert [s["file"] for s in fv["snippets"]] == ["renamer-ana.conf", "renamer-fv.conf"]
    assert (fv["snippets"][1]["action"], fv["snippets"][1]["current_sha256"]) == ("write", None)
    assert len(fv["snippets"][1]["desired_sha256"]) == 64
    assert {"fv-ml1", "fv-ml1.fv.lan", "scriberr"} <= set(fv["records"]["added"])
    assert fv["problem"] is None and fv["hand_written"] == [] and fv["diff"].startswith("--- /dev/null")
    applied = dns(run, lab, "apply", "--plan", str(reviewed))
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    assert sorted(line.split()[0] for line in applied.stdout.splitlines()[1:3]) == ["ns-ana", "ns-fv"]
    assert dns(run, lab, "plan", "--resolvers", "ns-fv,ns-ana", "--expect-no-changes").exit_code == 0
    # Reviewed, then the inventory changed: the old review no longer holds.
    reviewed.write_text(dns(run, lab, "plan", "--resolvers", "ns-fv", "--format", "json").stdout)
    site = lab.inventory / "sites" / "fv.yaml"
    site.write_text(site.read_text().replace("address: 10.251.0.1", "address: 10.251.0.2"))
    before = lab.snippets()
    refused = dns(run, lab, "apply", "--plan", str(reviewed))
    assert refused.exit_code == 3
    assert refused.stderr == ("renamer: error: ns-fv: renamer-fv.conf differs from the reviewed plan (the inventory "
                              "or the resolver changed since): plan and review again; nothing written\n")
    assert lab.snippets() == before
    (tmp_path / "junk.json").write_text("[1, 2]")
    junk = dns(run, lab, "apply", "--plan", str(tmp_path / "junk.json"))
    assert junk.exit_code == 2 and "not a plan written by `renamer dns plan --format json`" in junk.stderr


# -- one operator at a time -------------------------------------------------------------------

def test_a_second_apply_is_refused_while_one_holds_the_lock(run, lab) -> None:  # type: ignore[no-untyped-def]
    slow = 'sleep 2; exec "$@"'
    instance = lab.instances["ns-fv"]
    lab.write_resolvers(ns_fv={"test": ["sh", "-c", slow, "sh", *instance.test_command()]})
    command = [sys.executable, "-m", "renamer", "dns", "apply", "--resolvers", "all", "--inventory",
               str(lab.inventory)]
    first = subprocess.Popen(command, cwd=lab.root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lock = lab.root / "backups" / "ns-fv" / "renamer-apply.lock"
    deadline = time.monotonic() + 60  # a loaded machine starts Python slowly
    while not lock.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    holder = json.loads(lock.read_text())
    second = subprocess.run(command, cwd=lab.root, capture_output=True, text=True)
    assert second.returncode == 3
    assert second.stderr.startswith("renamer: error: ns-ana: another dns apply holds the lock (")
    assert f"pid {holder['pid']}, since {holder['started']}" in second.stderr
    assert second.stderr.count("\n") == 1
    out, err = first.communicate(timeout=60)
    assert first.returncode == 0, out + err
    assert not lock.exists()  # released at the end
    assert out.count("  applied  ") == 3  # the first apply, whole, on every resolver
    assert dns(run, lab, "plan", "--resolvers", "all", "--expect-no-changes").exit_code == 0


def test_a_lock_left_by_a_killed_apply_is_taken_over_and_said(run, lab) -> None:  # type: ignore[no-untyped-def]
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    lock = lab.root / "backups" / "ns-ana" / "renamer-apply.lock"
    lock.parent.mkdir(parents=True)
    lock.write_text(json.dumps({"host": socket.gethostname(), "pid": int(dead.stdout), "user": "ops",
                                "started": "2026-11-29T10:00:00Z"}))
    result = dns(run, lab, "apply", "--resolvers", "all")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert (f"renamer: ns-ana: took over a stale lock of pid {int(dead.stdout)} on {socket.gethostname()} "
            "(that process is gone), started 2026-11-29T10:00:00Z") in result.stderr
    assert not lock.exists()


def test_a_lock_from_another_host_is_refused_with_how_to_clear_it(run, lab) -> None:  # type: ignore[no-untyped-def]
    lock = lab.root / "backups" / "ns-ana2" / "renamer-apply.lock"
    lock.parent.mkdir(parents=True)
    lock.write_text(json.dumps({"host": "other-box", "pid": 4242, "user": "ops", "started": "2026-01-01T00:00:00Z"}))
    result = dns(run, lab, "apply", "--resolvers", "all")
    assert result.exit_code == 3
    age = re.search(r"since 2026-01-01T00:00:00Z(, \d+ h \d+ min ago)\)", result.stderr)
    assert age is not None, result.stderr  # how old it is, as the clock now says
    assert result.stderr.replace(age.group(1), "") == (
        "renamer: error: ns-ana2: another dns apply holds the lock (ops@other-box pid 4242, "
                             "since 2026-01-01T00:00:00Z); it is over 1 h old, but its process runs, or ran, on "
                             "other-box, not on this machine, so renamer cannot check it: once you know no apply "
                             f"runs there, clear it with `rm -- {lock}` and apply again (a half-done resolver is "
                             "then found and named); nothing written\n")
    assert lab.snippets() == {}
    assert not (lab.root / "backups" / "ns-ana" / "renamer-apply.lock").exists()  # the ones taken: released


# -- DHCP reservations and leases -----------------------------------------------------------

def test_verify_checks_reservations_and_names_stale_leases(run, lab) -> None:  # type: ignore[no-untyped-def]
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    instance = lab.instances["ns-fv"]
    leases = lab.root / "dnsmasq.leases"
    leases.write_text("1893456000 3c:ec:ef:12:34:56 10.251.77.7 fv-ml1 *\n"      # the pinned MAC, a pool address
                      "1893456000 aa:bb:cc:dd:ee:ff 10.251.9.9 ana-ml2 01:aa:bb:cc:dd:ee:ff\n"  # a retired name
                      "1893456000 11:22:33:44:55:66 10.251.9.10 laptop *\n")
    with instance.conf.open("a") as conf:
        conf.write(f"dhcp-leasefile={leases}\n")
    data = json.loads(dns(run, lab, "verify", "--resolvers", "ns-fv", "--format", "json").stdout)
    failed = [(c["check"], c["got"]) for r in data["resolvers"] for c in r["checks"] if not c["ok"]]
    assert failed == [
        ("lease of 3c:ec:ef:12:34:56 (fv-ml1)", f"{leases}:1: 3c:ec:ef:12:34:56 10.251.77.7 fv-ml1"),
        ("lease of ana-ml2", f"{leases}:2: aa:bb:cc:dd:ee:ff 10.251.9.9 ana-ml2")]
    ok = [c["got"] for r in data["resolvers"] for c in r["checks"] if c["check"] == "dhcp-host fv-ml1"]
    assert ok == [f"{instance.snippet_dir}/renamer-fv.conf:5"]  # after the header and local=
    leases.write_text("1893456000 3c:ec:ef:12:34:56 10.251.50.54 fv-ml1 *\n")
    assert dns(run, lab, "verify", "--resolvers", "ns-fv").exit_code == 0


def test_a_reservation_dnsmasq_does_not_read_fails_verify(run, lab) -> None:  # type: ignore[no-untyped-def]
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    lab.write_resolvers(ns_fv={"dhcp": ["fv"], "conf_file": str(lab.root / "other.conf")})
    (lab.root / "other.conf").write_text("no-resolv\n")  # a configuration that reads no snippet
    data = json.loads(dns(run, lab, "verify", "--resolvers", "ns-fv", "--format", "json").stdout)
    failed = [(c["check"], c["got"]) for r in data["resolvers"] for c in r["checks"] if not c["ok"]]
    assert failed == [("dhcp-host fv-ml1", "no dhcp-host line in the configuration dnsmasq reads")]


# -- never break names that worked -----------------------------------------------------------

def _forwarding_lab(lab, authoritative: bool) -> None:  # type: ignore[no-untyped-def]
    """ns-fv forwards fv.lan to ns-ana2, the only one that knows the printer (a router's name)."""
    upstream = lab.instances["ns-ana2"]
    (upstream.snippet_dir / "hand.conf").write_text("host-record=printer.fv.lan,10.251.9.9\n")
    with lab.instances["ns-fv"].conf.open("a") as conf:
        conf.write(f"server=/fv.lan/{upstream.address}#{upstream.port}\n")
    site = lab.inventory / "sites" / "fv.yaml"
    site.write_text(site.read_text().replace("authoritative: true", f"authoritative: {str(authoritative).lower()}"))
    lab.write_resolvers(ns_fv={"sites": ["fv"]}, ns_ana2={"sites": ["ana"], "dhcp": []})
    for instance in (upstream, lab.instances["ns-fv"]):
        sandbox.restart(instance.folder)


def _printer(lab) -> str:  # type: ignore[no-untyped-def]
    instance = lab.instances["ns-fv"]
    reply = dns_query.udp(dns_message.make_query("printer.fv.lan.", "A"), instance.address, port=instance.port,
                          timeout=2)
    return " ".join(str(r) for rrset in reply.answer for r in rrset) or dns_rcode.to_text(reply.rcode())


def test_a_forwarding_resolver_keeps_serving_an_upstream_only_name_after_apply(run, lab) -> None:  # type: ignore[no-untyped-def]
    _forwarding_lab(lab, authoritative=False)
    assert _printer(lab) == "10.251.9.9"
    plan = dns(run, lab, "plan", "--resolvers", "ns-fv")
    assert "warning:" not in plan.stdout
    assert dns(run, lab, "apply", "--resolvers", "ns-fv").exit_code == 0
    assert "local=" not in (lab.instances["ns-fv"].snippet_dir / "renamer-fv.conf").read_text()
    assert _printer(lab) == "10.251.9.9"  # still served: the domain is forwarded as before
    assert dns(run, lab, "verify", "--resolvers", "ns-fv").exit_code == 0


def test_an_authoritative_site_over_a_forwarded_domain_is_warned_about(run, lab) -> None:  # type: ignore[no-untyped-def]
    _forwarding_lab(lab, authoritative=True)
    conf = lab.instances["ns-fv"].conf
    plan = dns(run, lab, "plan", "--resolvers", "ns-fv")
    line = conf.read_text().splitlines().index(next(x for x in conf.read_text().splitlines()
                                                    if x.startswith("server=/fv.lan/"))) + 1
    assert (f"warning: ns-fv: site fv is authoritative (local=/fv.lan/), but {conf}:{line} forwards it") in plan.stdout
    assert "with both, dnsmasq either hides the names only the upstream knows or forwards" in plan.stdout


# -- retiring hand-written records ----------------------------------------------------------

def test_retire_stale_comments_out_hand_written_records_with_backup_and_rollback(run, lab, tmp_path) -> None:  # type: ignore[no-untyped-def]
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    instance = lab.instances["ns-ana"]
    legacy = instance.snippet_dir / "legacy.conf"
    original = "# by hand\nhost-record=ana-ml2.ana.lan,10.250.50.54\nhost-record=nas2.ana.lan,10.250.20.11\n"
    legacy.write_text(original)
    sandbox.restart(instance.folder)
    assert dns(run, lab, "verify", "--resolvers", "ns-ana").exit_code == 1  # the retired name answers
    planned = dns(run, lab, "plan", "--resolvers", "ns-ana", "--retire-stale")
    assert "+# retired by `renamer dns apply --retire-stale` " in planned.stdout
    assert "  - ana-ml2.ana.lan\n" in planned.stdout and legacy.read_text() == original  # a plan writes nothing
    # A failing test rolls the hand file back too, byte for byte.
    lab.write_resolvers(ns_ana={"test": ["sh", "-c", "exit 1"]})
    failed = dns(run, lab, "apply", "--resolvers", "ns-ana", "--retire-stale")
    assert failed.exit_code == 1 and legacy.read_text() == original
    lab.write_resolvers()
    applied = dns(run, lab, "apply", "--resolvers", "ns-ana", "--retire-stale")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    lines = legacy.read_text().splitlines()
    assert lines[0] == "# by hand" and lines[2] == "host-record=nas2.ana.lan,10.250.20.11"
    assert lines[1].startswith("# retired by `renamer dns apply --retire-stale` ")
    assert lines[1].endswith(": host-record=ana-ml2.ana.lan,10.250.50.54")
    backups = list((lab.root / "backups" / "ns-ana").rglob("retired*legacy.conf"))
    assert [b.read_text() for b in backups][-1] == original
    assert dns(run, lab, "verify", "--resolvers", "ns-ana").exit_code == 0
    assert "hand-written records" not in dns(run, lab, "plan", "--resolvers", "ns-ana").stdout


# -- what must be gone, and exactly what must be there ----------------------------------------

def test_verify_names_a_stale_aaaa_and_an_old_address_ptr(run, lab) -> None:  # type: ignore[no-untyped-def]
    (lab.root / "renamer.yaml").write_text(
        "version: 1\nrenames:\n  hosts: {ana-ml2: fv-ml1}\n  addresses: {10.250.50.54: 10.251.50.54}\n"
        "allowlist: allow.yaml\ndns: dns/\n")
    (lab.root / "allow.yaml").write_text("version: 1\ncurrent: ['**']\n")
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    assert dns(run, lab, "verify", "--resolvers", "all").exit_code == 0
    instance = lab.instances["ns-fv"]
    (instance.snippet_dir / "hand.conf").write_text(
        "host-record=fv-ml1.fv.lan,fd00:251::54\n"                    # an AAAA the inventory never had
        "ptr-record=54.50.250.10.in-addr.arpa,ana-ml2.ana.lan\n")     # the old address still names the old host
    sandbox.restart(instance.folder)
    data = json.loads(dns(run, lab, "verify", "--resolvers", "ns-fv", "--format", "json").stdout)
    failed = [(c["check"], c["got"]) for r in data["resolvers"] for c in r["checks"] if not c["ok"]]
    assert failed == [("fv-ml1.fv.lan AAAA", "fd00:251::54"),  # and its alias, through the CNAME
                      ("scriberr CNAME AAAA", "fv-ml1.fv.lan. -> fd00:251::54"),
                      ("scriberr.fv.lan CNAME AAAA", "fv-ml1.fv.lan. -> fd00:251::54"),
                      ("10.250.50.54 PTR (old)", "ana-ml2.ana.lan.")]
    text = dns(run, lab, "verify", "--resolvers", "ns-fv")
    assert text.exit_code == 1 and "ns-fv" in text.stdout
    plan = dns(run, lab, "plan", "--resolvers", "ns-fv")
    assert f"{instance.snippet_dir}/hand.conf:2: ptr-record=54.50.250.10.in-addr.arpa,ana-ml2.ana.lan" in plan.stdout


@pytest.mark.parametrize("schema", [pytest.param(2, id="newer"), pytest.param("1", id="a-string"),
                                    pytest.param(True, id="a-boolean")])
def test_a_plan_of_another_schema_is_refused(run, lab, tmp_path, schema) -> None:  # type: ignore[no-untyped-def]
    reviewed = tmp_path / "plan.json"
    document = json.loads(dns(run, lab, "plan", "--resolvers", "ns-fv", "--format", "json").stdout)
    assert document["schema"] == 1
    reviewed.write_text(json.dumps({**document, "schema": schema}))
    refused = dns(run, lab, "apply", "--plan", str(reviewed))
    assert refused.exit_code == 2 and "but this renamer reads plans of schema 1" in refused.stderr
    assert lab.snippets() == {}
    del document["schema"]  # a plan written by renamer 0.1 has none: the same document
    reviewed.write_text(json.dumps(document))
    assert dns(run, lab, "apply", "--plan", str(reviewed)).exit_code == 0


def _ask(lab, resolver: str, name: str) -> tuple[str, tuple[str, ...]]:  # type: ignore[no-untyped-def]
    instance = lab.instances[resolver]
    response = dns_query.udp(dns_message.make_query(name, "A"), instance.address, port=instance.port, timeout=2.0)
    return dns_rcode.to_text(response.rcode()), tuple(sorted(i.to_text() for r in response.answer for i in r))


@pytest.mark.parametrize("wildcard", ["address=/ana.lan/10.250.9.9", "address=/.ana.lan/10.250.9.9",
                                      "address=/*.ana.lan/10.250.9.9", "address=/#/10.250.9.9"])
def test_a_domain_wide_address_line_over_a_retired_name_refuses_the_apply_and_is_never_retired(  # type: ignore[no-untyped-def]
        run, lab, wildcard: str) -> None:
    """Found on bencetotht/playbooks: `address=/.local.bnbdevelopment.hu/IP` sends every name of the
    domain to a reverse proxy. A retired name under it can never be gone (the apply would write,
    fail its verify and roll back); commenting the line out would make every name behind the proxy
    vanish, names renamer has never heard of. So: refused before anything is written, left alone
    by --retire-stale, and an `address=/NAME/` line (NXDOMAIN) for the retired name clears it."""
    instance = lab.instances["ns-ana"]
    proxy = instance.snippet_dir / "dnsmasq.conf"
    proxy.write_text(wildcard + "\n")
    sandbox.restart(instance.folder)
    assert _ask(lab, "ns-ana", "ana-ml2.ana.lan") == ("NOERROR", ("10.250.9.9",))
    for flags in ((), ("--retire-stale",)):
        plan = dns(run, lab, "plan", "--resolvers", "all", *flags)
        assert plan.exit_code == 1, plan.stdout
        assert (f"error: ns-ana: {proxy}:1: {wildcard} answers every name under ") in plan.stdout
        named = "ana-ml2, ana-ml2-bmc" if "#" in wildcard else "ana-ml2-bmc.ana.lan, ana-ml2.ana.lan"
        assert f"so {named} can never be gone; renamer does not comment out a line" in plan.stdout
        assert "retired by" not in plan.stdout  # nothing of the line retired
        applied = dns(run, lab, "apply", "--resolvers", "all", *flags)
        assert applied.exit_code == 3 and "can never be gone" in applied.stderr, applied.stdout + applied.stderr
        assert lab.snippets() == {"ns-ana/dnsmasq.conf": (wildcard + "\n").encode()}  # nothing written anywhere
    gone = "address=/ana-ml2.ana.lan/\naddress=/ana-ml2-bmc.ana.lan/ana-ml2/ana-ml2-bmc/\n"  # (`#`: short ones too)
    proxy.write_text(wildcard + "\n" + gone)
    sandbox.restart(instance.folder)
    applied = dns(run, lab, "apply", "--resolvers", "all", "--retire-stale")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    assert proxy.read_text() == wildcard + "\n" + gone
    assert _ask(lab, "ns-ana", "ana-ml2.ana.lan") == ("NXDOMAIN", ())
    behind = "grafana.home.lan" if "#" in wildcard else "grafana.ana.lan"  # (local=/ana.lan/ is nearer than #)
    assert _ask(lab, "ns-ana", behind) == ("NOERROR", ("10.250.9.9",))  # behind the proxy: kept
    assert _ask(lab, "ns-ana", "fv-ml1.fv.lan")[1] == ("10.251.50.54",)  # the inventory's own record wins


def test_a_domain_wide_address_line_with_an_old_address_is_named_and_never_retired(run, lab) -> None:  # type: ignore[no-untyped-def]
    instance = lab.instances["ns-ana2"]
    proxy = instance.snippet_dir / "proxy.conf"
    proxy.write_text("address=/apps.ana.lan/10.250.50.54\n")  # ana-ml2's old address, for every app
    sandbox.restart(instance.folder)
    (lab.root / "renamer.yaml").write_text("version: 1\nrenames:\n  hosts: {ana-ml2: fv-ml1}\n"
                                           "  addresses: {10.250.50.54: 10.251.50.54}\ndns: dns/\n")
    subprocess.run(["git", "init", "-q", str(lab.root)], check=True)
    plan = dns(run, lab, "plan", "--resolvers", "all", "--retire-stale")
    assert plan.exit_code == 0, plan.stdout
    assert (f"warning: ns-ana2: {proxy}:1: address=/apps.ana.lan/10.250.50.54 answers every name under "
            "apps.ana.lan with an old address; --retire-stale leaves it") in plan.stdout
    assert dns(run, lab, "apply", "--resolvers", "all", "--retire-stale").exit_code == 0
    assert proxy.read_text() == "address=/apps.ana.lan/10.250.50.54\n"
    assert _ask(lab, "ns-ana2", "wiki.apps.ana.lan") == ("NOERROR", ("10.250.50.54",))


@pytest.mark.parametrize("hand", [
    "dhcp-host=3c:ec:ef:12:34:56,10.251.50.54\n",              # the inventory's very reservation, again
    "dhcp-host=3C:EC:EF:12:34:56,10.251.50.99,fv-ml1\n",       # its MAC, another address
    "dhcp-host=01-3c:ec:ef:12:34:56,set:lab,10.251.9.9\n",     # hardware type and a tag
    "dhcp-host=aa:bb:cc:dd:ee:ff,10.251.50.54,printer\n",      # its address, another MAC
    "dhcp-host=aa:bb:cc:dd:ee:ff,fv-ml1,10.251.7.7,12h\n",     # its name, another address
])
def test_a_hand_written_dhcp_reservation_of_an_inventory_host_is_stale(run, lab, hand: str) -> None:  # type: ignore[no-untyped-def]
    """Found on ricsanfre/pi-cluster with ricsanfre.dnsmasq: the role writes a dhcp-host per inventory
    host. Two lines for one address stop dnsmasq (its test refuses them); two for one MAC hand out
    whichever dnsmasq reads first, the hand one in a file that sorts first: the host keeps its old
    address while DNS and verify said the new one. Listed in the plan, commented out by
    --retire-stale, and verify fails while one is left."""
    instance = lab.instances["ns-fv"]
    legacy = instance.snippet_dir / "00-role.conf"  # sorts before renamer-fv.conf
    legacy.write_text("# DHCP configuration based on inventory\n" + hand + "dhcp-host=11:22:33:44:55:66,10.251.1.1\n")
    sandbox.restart(instance.folder)
    plan = dns(run, lab, "plan", "--resolvers", "ns-fv")
    assert f"  {legacy}:2: {hand.strip()}\n" in plan.stdout and f"{legacy}:3" not in plan.stdout, plan.stdout
    assert dns(run, lab, "apply", "--resolvers", "ns-fv", "--retire-stale").exit_code == 0
    assert legacy.read_text().splitlines()[1].startswith("# retired by `renamer dns apply --retire-stale` ")
    assert legacy.read_text().splitlines()[2] == "dhcp-host=11:22:33:44:55:66,10.251.1.1"
    assert subprocess.run(instance.test_command(), capture_output=True, check=False).returncode == 0
    assert dns(run, lab, "verify", "--resolvers", "ns-fv").exit_code == 0


def test_verify_fails_where_a_second_line_reserves_the_mac_for_another_address(run, lab) -> None:  # type: ignore[no-untyped-def]
    instance = lab.instances["ns-fv"]
    assert dns(run, lab, "apply", "--resolvers", "ns-fv").exit_code == 0
    legacy = instance.snippet_dir / "00-role.conf"
    legacy.write_text("dhcp-host=3c:ec:ef:12:34:56,10.251.50.99\n")
    sandbox.restart(instance.folder)
    verified = dns(run, lab, "verify", "--resolvers", "ns-fv")
    assert verified.exit_code == 1
    assert (f"{legacy}:1 reserves 3c:ec:ef:12:34:56 for another address too "
            "(dhcp-host=3c:ec:ef:12:34:56,10.251.50.99)") in verified.stdout, verified.stdout


@pytest.mark.parametrize("wildcard", ["address=/lan/10.250.9.9", "address=/home.lan/lan/10.250.9.9"])
def test_a_wider_address_line_is_no_obstacle_where_the_site_is_authoritative(run, lab, wildcard: str) -> None:  # type: ignore[no-untyped-def]
    """dnsmasq takes the most specific domain: renamer's local=/ana.lan/ (site ana is authoritative)
    answers NXDOMAIN for the retired names before a line for all of `lan` does."""
    instance = lab.instances["ns-ana"]
    (instance.snippet_dir / "dnsmasq.conf").write_text(wildcard + "\n")
    sandbox.restart(instance.folder)
    applied = dns(run, lab, "apply", "--resolvers", "all")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    assert _ask(lab, "ns-ana", "ana-ml2.ana.lan") == ("NXDOMAIN", ())
    assert _ask(lab, "ns-ana", "printer.home.lan") == ("NOERROR", ("10.250.9.9",))


def test_the_plan_of_a_hand_written_file_without_a_final_newline_says_so(run, lab) -> None:  # type: ignore[no-untyped-def]
    """Found on bencetotht/playbooks (a one-line template, no final newline): the diff's next line
    ran on after the last one, and the patch could not be applied."""
    instance = lab.instances["ns-ana"]
    legacy = instance.snippet_dir / "dnsmasq.conf"
    legacy.write_bytes(b"host-record=ana-ml2.ana.lan,10.250.50.54")
    sandbox.restart(instance.folder)
    plan = dns(run, lab, "plan", "--resolvers", "ns-ana", "--retire-stale").stdout
    assert ("-host-record=ana-ml2.ana.lan,10.250.50.54\n\\ No newline at end of file\n+# retired by "
            "`renamer dns apply --retire-stale` ") in plan, plan
    assert plan.split("+# retired by ", 1)[1].split("\n")[1] == "\\ No newline at end of file"
    assert dns(run, lab, "apply", "--resolvers", "ns-ana", "--retire-stale").exit_code == 0
    assert legacy.read_bytes().startswith(b"# retired by ") and not legacy.read_bytes().endswith(b"\n")
