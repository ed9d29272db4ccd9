"""The Unbound backend (backend: unbound) through the CLI, against a real Unbound on loopback:
apply then the answers asked over DNS, a test that fails after the write and the rollback, the
include check, hand-written local-data naming old values, the inventory's keys (issue 31)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from renamer.dns.load import load_inventory
from renamer.dns.unbound import render
from renamer.errors import ConfigError
from tests.testing.resolvers import Lab, answers, dns, fails_once_written, move_gateway, start_unbound_lab
from tests.testing.unbound import Resolver


@pytest.fixture
def ub(tmp_path: Path) -> Iterator[Lab]:
    """One real Unbound (ns-fv) serving both shipped sites, with no test or reload keys: the
    backend's defaults (unbound-checkconf CONF, unbound-control -c CONF reload)."""
    started = start_unbound_lab(tmp_path / "lab", ("ns-fv",))
    try:
        defaults(started)
        yield started
    finally:
        started.stop()


def defaults(lab: Lab, **extra: object) -> None:
    """resolvers.yaml for the lab's one Unbound, naming conf_file and neither test nor reload."""
    ns = lab.instances["ns-fv"]
    entry = {"name": "ns-fv", "address": ns.address, "port": ns.port, "backend": "unbound",
             "snippet_dir": str(ns.snippet_dir), "backup_dir": str(lab.root / "backups" / "ns-fv"),
             "conf_file": str(ns.conf), "timeout": 0.5, **extra}
    (lab.inventory / "resolvers.yaml").write_text("resolvers:\n  - " + json.dumps(entry) + "\n")


def asked(lab: Lab, name: str, rdtype: str = "A") -> tuple[str, ...]:
    return answers(lab, name, rdtype)["ns-fv"]


def test_apply_then_unbound_answers_every_record_over_dns(run: Callable[..., Any], ub: Lab) -> None:
    assert asked(ub, "fv-gw.fv.lan.") == ()
    applied = dns(run, ub, "apply", "--resolvers", "all")
    assert applied.exit_code == 0, applied.stdout
    assert asked(ub, "fv-gw.fv.lan.") == ("10.251.0.1",)
    assert asked(ub, "fv-gw.") == ("10.251.0.1",)  # the short name, as dnsmasq's host-record
    assert asked(ub, "1.0.251.10.in-addr.arpa.", "PTR") == ("fv-gw.fv.lan.",)
    assert asked(ub, "scriberr.fv.lan.") == ("10.251.50.54",)  # an alias: its host's address
    assert asked(ub, "ana-ml2.ana.lan.") == ()  # retired, in an authoritative domain
    text = (ub.instances["ns-fv"].snippet_dir / "renamer-fv.conf").read_text()
    name, digest = render.canary_of(text) or ("", "")
    assert asked(ub, f"{name}.", "TXT") == (f'"{digest}"',)
    assert text.startswith("# Managed by renamer: site fv, from dns/sites/fv.yaml.\n")
    verified = dns(run, ub, "verify", "--resolvers", "all")
    assert verified.exit_code == 0, verified.stdout
    move_gateway(ub)
    moved = dns(run, ub, "apply", "--resolvers", "all")
    assert moved.exit_code == 0, moved.stdout
    assert asked(ub, "fv-gw.fv.lan.") == ("10.251.0.2",)  # unbound-control reload served it
    assert dns(run, ub, "verify", "--resolvers", "all").exit_code == 0


def test_verify_says_no_when_unbound_serves_something_else(run: Callable[..., Any], ub: Lab) -> None:
    assert dns(run, ub, "apply", "--resolvers", "all").exit_code == 0
    move_gateway(ub)  # the inventory moves, the resolver does not
    verified = dns(run, ub, "verify", "--resolvers", "all")
    assert verified.exit_code == 1
    assert "fv-gw.fv.lan A" in verified.stdout and "10.251.0.1" in verified.stdout


def misplace_include(lab: Lab) -> None:
    """The include in the remote-control: clause, before its options: with no renamer file yet the
    configuration passes; once renamer's file (which opens server:) is in, the control options
    after the include are read as server: options and unbound-checkconf fails."""
    ns = lab.instances["ns-fv"]
    include = f'include: "{ns.snippet_dir}/*.conf"\n'
    ns.conf.write_text(ns.conf.read_text().replace(include, "").replace(
        "  control-enable: yes\n", "  " + include + "  control-enable: yes\n"))


def test_an_include_whose_clause_would_break_is_refused_before_writing(run: Callable[..., Any], ub: Lab) -> None:
    misplace_include(ub)
    ns = ub.instances["ns-fv"]
    number = ns.conf.read_text().splitlines().index(f'  include: "{ns.snippet_dir}/*.conf"') + 1
    refused = dns(run, ub, "apply", "--resolvers", "all")
    assert refused.exit_code == 3
    assert refused.stderr == (f"renamer: error: ns-fv: {ns.conf}:{number}: the include: of renamer's files sits in "
                              "the remote-control: clause, with remote-control: options after it: renamer's file "
                              "opens server:, so Unbound would read those as server: options and fail; move the "
                              "include to the server: clause or the end of the file; nothing written\n")
    assert list(ns.snippet_dir.iterdir()) == []


def test_a_file_that_breaks_unbound_checkconf_is_rolled_back(run: Callable[..., Any], ub: Lab) -> None:
    """Where the layout is not checked (check_layout: false), unbound-checkconf is the guard: the
    apply restores the folder and never reloads, Unbound keeps serving what it served."""
    misplace_include(ub)
    defaults(ub, check_layout=False)
    ns = ub.instances["ns-fv"]
    assert isinstance(ns, Resolver)
    failed = dns(run, ub, "apply", "--resolvers", "all")
    assert failed.exit_code == 1, failed.stdout
    assert "ns-fv: test failed" in failed.stdout
    assert "unbound-checkconf" in failed.stdout or "error" in failed.stdout
    assert list(ns.snippet_dir.iterdir()) == []  # rolled back: the folder as it was
    assert asked(ub, "fv-gw.fv.lan.") == ()
    assert answers(ub, "renamer-probe.invalid.", "A")["ns-fv"] == ()  # still up, never reloaded


@pytest.mark.parametrize("include", [
    pytest.param(None, id="no-include"),
    pytest.param('include: "{other}/*.conf"', id="another-folder"),
    pytest.param('include: "{folder}/*.zone"', id="a-glob-that-misses-renamer-files"),
    pytest.param('include: "unbound.conf.d/*.conf"', id="relative: unproven"),
    pytest.param('include: "{folder}/10-local.conf"', id="one-hand-file"),
])
def test_a_conf_that_does_not_include_renamer_files_is_refused(run: Callable[..., Any], ub: Lab,
                                                               include: str | None) -> None:
    ns = ub.instances["ns-fv"]
    other = ub.root / "other"
    other.mkdir()
    ours = f'include: "{ns.snippet_dir}/*.conf"\n'
    replaced = "" if include is None else include.format(other=other, folder=ns.snippet_dir) + "\n"
    ns.conf.write_text(ns.conf.read_text().replace(ours, replaced))
    refused = dns(run, ub, "apply", "--resolvers", "all")
    assert refused.exit_code == 3
    assert refused.stderr == (f"renamer: error: ns-fv: {ns.snippet_dir}/renamer-ana.conf would not be loaded: "
                              f"no include: in {ns.conf} (or what it includes) names it; add `include: "
                              f"\"{ns.snippet_dir}/renamer-*.conf\"` to {ns.conf}; nothing written\n")
    assert list(ns.snippet_dir.iterdir()) == []


@pytest.mark.parametrize("how", ["include-toplevel", "nested", "exact-names"])
def test_an_include_unbound_follows_is_proof(run: Callable[..., Any], ub: Lab, how: str) -> None:
    """Debian's include-toplevel:, an include inside an included file, a line per file."""
    ns = ub.instances["ns-fv"]
    ours = f'include: "{ns.snippet_dir}/*.conf"\n'
    if how == "include-toplevel":
        line = f'include-toplevel: "{ns.snippet_dir}/*.conf"\n'
    elif how == "nested":
        middle = ub.root / "middle.conf"
        middle.write_text(f"# the site's includes\n{ours}")
        line = f'include: "{middle}"\n'
    else:
        line = "".join(f'include: "{ns.snippet_dir}/renamer-{site}.conf"  # one site\n' for site in ("ana", "fv"))
    conf = ns.conf.read_text().replace(ours, "")
    ns.conf.write_text(conf.replace("remote-control:\n", line + "remote-control:\n"))
    if how == "exact-names":  # unbound refuses to include a file that is not there yet
        for site in ("ana", "fv"):
            (ns.snippet_dir / f"renamer-{site}.conf").write_text("server:\n")
    applied = dns(run, ub, "apply", "--resolvers", "all")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    assert asked(ub, "fv-gw.fv.lan.") == ("10.251.0.1",)


def test_a_missing_conf_file_is_refused(run: Callable[..., Any], ub: Lab) -> None:
    missing = ub.root / "no-such.conf"
    defaults(ub, conf_file=str(missing), test=["true"], reload=["true"])
    refused = dns(run, ub, "apply", "--resolvers", "all")
    assert refused.exit_code == 3
    assert refused.stderr == (f"renamer: error: ns-fv: cannot read {missing} (conf_file): no such file; set "
                              "conf_file to the unbound.conf the daemon reads, or check_layout: false; "
                              "nothing written\n")


def test_hand_written_local_data_naming_old_values_is_listed_then_retired(run: Callable[..., Any],
                                                                          ub: Lab) -> None:
    ns = ub.instances["ns-fv"]
    hand = ub.root / "hand.conf"
    hand.write_text('server:\n'
                    '  local-data: "ana-ml2.ana.lan. A 10.250.20.11"   # retired\n'
                    '  local-data: "fv-gw.fv.lan. 300 IN A 10.251.9.9"  # a second address\n'
                    '  local-data: "printer.fv.lan. A 10.251.0.77"      # unrelated: kept\n'
                    '  local-data-ptr: "10.250.20.11 ana-ml2.ana.lan."\n')
    ns.conf.write_text(ns.conf.read_text().replace("remote-control:\n", f'include: "{hand}"\nremote-control:\n'))
    plan = dns(run, ub, "plan", "--resolvers", "all")
    assert f"  {hand}:2: local-data: \"ana-ml2.ana.lan. A 10.250.20.11\"   # retired\n" in plan.stdout
    assert f"  {hand}:3: " in plan.stdout and f"  {hand}:5: " in plan.stdout
    assert f"{hand}:4:" not in plan.stdout
    kept = dns(run, ub, "apply", "--resolvers", "all")  # applied; verify names what still answers
    assert kept.exit_code == 1 and "preflight" not in kept.stdout, kept.stdout
    assert asked(ub, "ana-ml2.ana.lan.") == ("10.250.20.11",)  # the hand line still answers
    retired = dns(run, ub, "apply", "--resolvers", "all", "--retire-stale")
    assert retired.exit_code == 0, retired.stdout
    lines = hand.read_text().splitlines()
    assert [line.startswith("# retired by `renamer dns apply --retire-stale`") for line in lines] == [
        False, True, True, False, True]
    assert asked(ub, "ana-ml2.ana.lan.") == () and asked(ub, "fv-gw.fv.lan.") == ("10.251.0.1",)
    assert asked(ub, "printer.fv.lan.") == ("10.251.0.77",)  # a name the inventory does not know: left
    assert dns(run, ub, "verify", "--resolvers", "all").exit_code == 0


def test_the_inventory_keys_of_an_unbound_resolver(tmp_path: Path) -> None:
    folder = tmp_path / "dns"
    (folder / "sites").mkdir(parents=True)
    (folder / "sites" / "fv.yaml").write_text("site: fv\ndomain: fv.lan\nnetwork: 10.251.0.0/16\n"
                                              "hosts:\n  - {name: fv-gw, address: 10.251.0.1}\n")
    base = "resolvers:\n  - name: ns\n    address: 127.0.0.1\n    snippet_dir: /etc/unbound/renamer.d\n" \
           "    backup_dir: /var/backups/renamer\n"

    def load(extra: str) -> Any:
        (folder / "resolvers.yaml").write_text(base + extra)
        return load_inventory(folder)

    resolver = load("    backend: unbound\n").resolvers[0]
    assert resolver.test == ("unbound-checkconf", "/etc/unbound/unbound.conf")
    assert resolver.reload == ("unbound-control", "-c", "/etc/unbound/unbound.conf", "reload")
    assert resolver.dhcp == ()
    own = load("    backend: unbound\n    conf_file: /srv/u.conf\n    reload: [systemctl, restart, unbound]\n")
    assert own.resolvers[0].test == ("unbound-checkconf", "/srv/u.conf")
    assert own.resolvers[0].reload == ("systemctl", "restart", "unbound")
    for extra, line, key, message in [
        ("    backend: knot\n", 6, "backend", "unsupported backend 'knot' (supported: dnsmasq, unbound, bind, powerdns)"),
        ("    backend: unbound\n    dhcp: [fv]\n", 7, "dhcp", "not used with backend: unbound"),
        ("    backend: unbound\n    hosts_dir: /etc/h\n", 7, "hosts_dir", "not used with backend: unbound"),
        ("    backend: dnsmasq\n", 2, "test", "expected a command"),  # dnsmasq has no default
    ]:
        with pytest.raises(ConfigError) as refused:
            load(extra)
        assert f"resolvers.yaml:{line}: resolvers[0].{key}: {message}" in str(refused.value), str(refused.value)


def test_the_ansible_engine_applies_and_rolls_back_unbound_too(run: Callable[..., Any], ub: Lab) -> None:
    """The exported playbook runs the resolver's own commands: unbound-checkconf, unbound-control
    reload; a test that fails after the write restores the file, with no reload."""
    applied = dns(run, ub, "apply", "--resolvers", "all", "--engine", "ansible")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    assert asked(ub, "fv-gw.fv.lan.") == ("10.251.0.1",)
    before = ub.snippets()
    move_gateway(ub)
    defaults(ub, test=fails_once_written(ub, "ns-fv"))
    failed = dns(run, ub, "apply", "--resolvers", "all", "--engine", "ansible")
    assert failed.exit_code == 1, failed.stdout + failed.stderr
    assert ub.snippets() == before and asked(ub, "fv-gw.fv.lan.") == ("10.251.0.1",)


@pytest.mark.parametrize("line, where, refused", [
    pytest.param('local-zone: "fv.lan." transparent', "after", True, id="transparent-after-the-include"),
    pytest.param("local-zone: 'FV.lan' typetransparent", "before", True, id="typetransparent-before"),
    pytest.param('local-zone: "fv.lan." static', "after", False, id="static-agrees"),
    pytest.param('local-zone: "lan." transparent', "after", False, id="a-parent-zone"),
    pytest.param('# local-zone: "fv.lan." transparent', "after", False, id="commented-out"),
])
def test_an_operator_s_local_zone_for_an_authoritative_domain_is_refused(  # type: ignore[no-untyped-def]
        run: Callable[..., Any], ub: Lab, line: str, where: str, refused: bool) -> None:
    """DNS break-it round 2, finding 10: the operator's own local-zone for an authoritative site's
    domain (a Pi-hole/OPNsense setup forwarding it to the old DNS) of another type than renamer's
    `static`: Unbound keeps the one it reads last (only a log line), so file order decided whether
    names the inventory no longer holds were NXDOMAIN or still answered. Refused before anything
    is written, naming the file and line, wherever it sits; a static one, or a parent zone
    (Unbound takes the most specific), is no conflict."""
    ns = ub.instances["ns-fv"]
    text = ns.conf.read_text()
    if where == "after":
        text += f"server:\n  {line}\n"
    else:
        text = text.replace("include:", f"  {line}\ninclude:", 1)
    ns.conf.write_text(text)
    number = ns.conf.read_text().splitlines().index(f"  {line}") + 1
    applied = dns(run, ub, "apply", "--resolvers", "all")
    if not refused:
        assert applied.exit_code == 0, applied.stdout + applied.stderr
        assert answers(ub, "no-such-name.fv.lan.", "A") == {"ns-fv": ()}
        return
    assert applied.exit_code == 3, applied.stdout + applied.stderr
    kind = line.split()[-1]
    assert applied.stderr.startswith(f'renamer: error: ns-fv: {ns.conf}:{number}: local-zone "fv.lan." {kind} '
                                     "overrides or is overridden by renamer's"), applied.stderr
    assert "nothing written" in applied.stderr and list(ns.snippet_dir.iterdir()) == []
    planned = dns(run, ub, "plan", "--resolvers", "all")
    assert planned.exit_code == 1 and f"{ns.conf}:{number}: local-zone" in planned.stdout


def test_a_hand_made_cname_at_a_transitional_alias_is_predicted_to_fail_and_retire_stale_clears_it(
        run: Callable[..., Any], ub: Lab, monkeypatch: pytest.MonkeyPatch) -> None:
    """t24-alias finding 11, the Unbound variant: Unbound serves an alias as its host's addresses,
    so a hand `local-data: "ana-ml2.ana.lan. CNAME fv-ml1.fv.lan."` kept from before the window is
    answered where renamer's addresses go, and the apply's verify fails. The plan says so first
    (would fail, exit 1); `--retire-stale` comments the hand line out and the alias's address is
    answered."""
    (ub.root / "renamer.yaml").write_text(
        "version: 1\ncutover: 2026-10-05\nrenames:\n  hosts: {ana-ml2: fv-ml1, ana-ml2.ana.lan: fv-ml1.fv.lan}\n"
        "options:\n  dns_transition: 30d\ndns: dns/\n")
    ns = ub.instances["ns-fv"]
    hand = ub.root / "hand.conf"
    hand.write_text('server:\n  local-data: "ana-ml2.ana.lan. 300 IN CNAME fv-ml1.fv.lan."\n')
    ns.conf.write_text(ns.conf.read_text().replace("remote-control:\n", f'include: "{hand}"\nremote-control:\n'))
    monkeypatch.setenv("RENAMER_NOW", "2026-10-10")
    planned = dns(run, ub, "plan", "--resolvers", "all")
    assert planned.exit_code == 1, planned.stdout + planned.stderr
    assert ("would fail: ns-fv: its verify after the write would fail: ana-ml2.ana.lan would answer a "
            "hand-written CNAME to fv-ml1.fv.lan. where renamer writes its addresses (ana-ml2.ana.lan A (alias) "
            "(transitional until 2026-11-04); hand-written records, below)") in planned.stdout, planned.stdout
    failed = dns(run, ub, "apply", "--use-renamer-now", "--resolvers", "all")  # what the plan said
    assert failed.exit_code == 1 and "rolled back" in failed.stdout, failed.stdout
    assert "would answer a hand-written CNAME" not in dns(run, ub, "plan", "--resolvers", "all",
                                                          "--retire-stale").stdout
    retired = dns(run, ub, "apply", "--use-renamer-now", "--resolvers", "all", "--retire-stale")
    assert retired.exit_code == 0, retired.stdout + retired.stderr
    assert hand.read_text().splitlines()[1].startswith("# retired by `renamer dns apply --retire-stale`")
    assert asked(ub, "ana-ml2.ana.lan.") == ("10.251.50.54",) and asked(ub, "ana-ml2.ana.lan.", "CNAME") == ()
    assert dns(run, ub, "verify", "--resolvers", "all").exit_code == 0
