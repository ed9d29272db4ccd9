"""The BIND 9 backend (backend: bind) through the CLI, against a real named on loopback: plan,
apply and verify with the answers asked over DNS and the SOA serial bumped past the live one, a
zone file named-checkzone rejects rolled back, the layout refusals (no include, a zone the
operator declares too), hand-written records naming old values, the inventory's keys (issue 31)."""

from __future__ import annotations

import datetime as dt
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from renamer.dns.bind import render
from renamer.dns.load import load_inventory
from renamer.errors import ConfigError
from tests.testing.bind import Resolver, binary
from tests.testing.resolvers import (
    Lab,
    answers,
    dns,
    fails_once_written,
    move_gateway,
    reload_until,
    start_bind_lab,
)


@pytest.fixture
def ns(tmp_path: Path) -> Iterator[Lab]:
    """One real named (ns-fv) serving both shipped sites, with the lab's named-checkconf -z and
    rndc reload (its own key, its own control port)."""
    started = start_bind_lab(tmp_path / "lab", ("ns-fv",))
    try:
        yield started
    finally:
        started.stop()


def asked(lab: Lab, name: str, rdtype: str = "A") -> tuple[str, ...]:
    return answers(lab, name, rdtype)["ns-fv"]


def serial(lab: Lab, zone: str) -> int:
    return int(asked(lab, f"{zone}.", "SOA")[0].split()[2])


def test_plan_apply_verify_then_named_answers_every_record_over_dns(run: Callable[..., Any], ns: Lab) -> None:
    folder = ns.instances["ns-fv"].snippet_dir
    assert asked(ns, "fv-gw.fv.lan.") == ()
    plan = dns(run, ns, "plan", "--resolvers", "all")
    assert plan.exit_code == 0, plan.stdout
    assert "+ fv-gw.fv.lan" in plan.stdout and f'zone "fv.lan" {{ type master; file "{folder}/' in plan.stdout
    applied = dns(run, ns, "apply", "--resolvers", "all")
    assert applied.exit_code == 0, applied.stdout
    assert asked(ns, "fv-gw.fv.lan.") == ("10.251.0.1",)
    assert asked(ns, "1.0.251.10.in-addr.arpa.", "PTR") == ("fv-gw.fv.lan.",)
    assert asked(ns, "scriberr.fv.lan.") == ("10.251.50.54",)  # named follows the CNAME in the zone
    assert asked(ns, "scriberr.fv.lan.", "CNAME") == ("fv-ml1.fv.lan.",)
    assert asked(ns, "ana-ml2.ana.lan.") == ()  # retired: NXDOMAIN in the zone
    name, digest = render.canary_of((folder / "renamer-fv.lan.zone").read_text()) or ("", "")
    assert asked(ns, f"{name}.", "TXT") == (f'"{digest}"',)
    today = int(dt.date.today().strftime("%Y%m%d")) * 100
    assert serial(ns, "fv.lan") == today
    assert dns(run, ns, "verify", "--resolvers", "all").exit_code == 0
    again = dns(run, ns, "apply", "--resolvers", "all")  # nothing changed: the files, serials too, kept
    assert again.exit_code == 0 and "unchanged" in again.stdout, again.stdout
    assert serial(ns, "fv.lan") == today
    move_gateway(ns)
    moved = dns(run, ns, "apply", "--resolvers", "all")
    assert moved.exit_code == 0, moved.stdout
    assert asked(ns, "fv-gw.fv.lan.") == ("10.251.0.2",)
    assert serial(ns, "fv.lan") == today + 1 and serial(ns, "251.10.in-addr.arpa") == today + 1
    assert serial(ns, "ana.lan") == today  # a zone whose records did not change keeps its serial
    assert dns(run, ns, "verify", "--resolvers", "all").exit_code == 0


def test_verify_says_no_when_named_serves_something_else(run: Callable[..., Any], ns: Lab) -> None:
    assert dns(run, ns, "apply", "--resolvers", "all").exit_code == 0
    move_gateway(ns)  # the inventory moved on, named did not
    verified = dns(run, ns, "verify", "--resolvers", "all")
    assert verified.exit_code == 1
    assert "fv-gw.fv.lan A" in verified.stdout and "10.251.0.1" in verified.stdout


def test_a_zone_named_checkzone_rejects_is_rolled_back(run: Callable[..., Any], ns: Lab) -> None:
    """The new fv.lan zone file fails the real named-checkzone (here with a 60 s TTL ceiling):
    the apply restores the folder, never reloads, and named keeps answering the old records."""
    assert dns(run, ns, "apply", "--resolvers", "all").exit_code == 0
    instance = ns.instances["ns-fv"]
    assert isinstance(instance, Resolver)
    before = ns.snippets()
    move_gateway(ns)
    zone = instance.snippet_dir / "renamer-fv.lan.zone"
    ns.write_resolvers(ns_fv={"test": fails_once_written(
        ns, "ns-fv", f"{binary('named-checkzone')} -l 60 fv.lan {zone}")})
    failed = dns(run, ns, "apply", "--resolvers", "all")
    assert failed.exit_code == 1, failed.stdout
    assert "ns-fv: test failed" in failed.stdout and "zone fv.lan/IN: not loaded due to errors" in failed.stdout
    assert ns.snippets() == before
    assert asked(ns, "fv-gw.fv.lan.") == ("10.251.0.1",)


def test_a_zone_the_operator_declares_too_is_refused(run: Callable[..., Any], ns: Lab) -> None:
    instance = ns.instances["ns-fv"]
    hand = ns.root / "hand.conf"
    hand.write_text('// the operator\'s own zones\nzone "corp.lan" { type master; file "corp.zone"; };\n'
                    'zone "FV.lan." {\n  type master;\n  file "fv.zone";\n};\n')
    instance.conf.write_text(instance.conf.read_text() + f'include "{hand}";\n')
    before = ns.snippets()
    refused = dns(run, ns, "apply", "--resolvers", "all")
    assert refused.exit_code == 3
    assert refused.stderr == (f'renamer: error: ns-fv: {hand}:3: zone "fv.lan" is declared there; renamer would '
                              f"declare it in {instance.snippet_dir}/renamer-zones.conf (named refuses a zone "
                              "twice): remove that declaration, or serve the site elsewhere; nothing written\n")
    assert ns.snippets() == before


@pytest.mark.parametrize("include", [
    pytest.param("", id="no-include"),
    pytest.param('// include "{zones}";', id="commented-out"),
    pytest.param('/* include "{zones}"; */', id="in-a-block-comment"),
    pytest.param('include "{other}/renamer-zones.conf";', id="another-folder"),
])
def test_a_conf_that_does_not_include_renamer_zones_is_refused(run: Callable[..., Any], ns: Lab,
                                                               include: str) -> None:
    instance = ns.instances["ns-fv"]
    zones = instance.snippet_dir / "renamer-zones.conf"
    text = instance.conf.read_text().replace(f'include "{zones}";\n', include.format(zones=zones, other=ns.root)
                                             + "\n")
    instance.conf.write_text(text)
    refused = dns(run, ns, "apply", "--resolvers", "all")
    assert refused.exit_code == 3
    assert refused.stderr == (f"renamer: error: ns-fv: {zones} would not be loaded: no include in {instance.conf} "
                              f"(or what it includes) names it; add `include \"{zones}\";` to {instance.conf}; "
                              "nothing written\n")


def test_hand_written_records_naming_old_values_are_listed(run: Callable[..., Any], ns: Lab) -> None:
    instance = ns.instances["ns-fv"]
    zone = ns.root / "corp.zone"
    zone.write_text("$TTL 300\n@ IN SOA localhost. hostmaster 1 3600 600 604800 300\n  IN NS localhost.\n"
                    "wiki IN CNAME ana-ml2.ana.lan.   ; retired\n"
                    "printer IN A 10.9.0.7\n")
    instance.conf.write_text(instance.conf.read_text() + f'zone "corp.lan" {{ type master; file "{zone}"; }};\n')
    plan = dns(run, ns, "plan", "--resolvers", "all")
    assert plan.exit_code == 0, plan.stdout
    assert f"  {zone}:4: wiki IN CNAME ana-ml2.ana.lan.   ; retired\n" in plan.stdout
    assert f"{zone}:5:" not in plan.stdout
    assert dns(run, ns, "apply", "--resolvers", "all").exit_code == 0
    assert asked(ns, "wiki.corp.lan.", "CNAME") == ("ana-ml2.ana.lan.",)
    retired = dns(run, ns, "apply", "--resolvers", "all", "--retire-stale")
    assert retired.exit_code == 0, retired.stdout
    lines = zone.read_text().splitlines()
    assert lines[3].startswith("; retired by `renamer dns apply --retire-stale`")  # a zone file's comment
    assert [line.startswith(";") for line in lines] == [False, False, False, True, False]
    assert asked(ns, "wiki.corp.lan.", "CNAME") == () and asked(ns, "printer.corp.lan.") == ("10.9.0.7",)


def test_stale_records_behind_include_and_in_parentheses_are_listed_and_retired(  # type: ignore[no-untyped-def]
        run: Callable[..., Any], ns: Lab) -> None:
    """DNS break-it round 2, finding 07: the scan of the operator's zones skipped `$INCLUDE`d files
    and read a parenthesised record by its first line, so a CNAME to a retired name written so
    stayed served after `--retire-stale` said OK. Now an $INCLUDE is read as named reads it
    (relative: from named's `directory`, with its origin argument or the one in force), a
    parenthesised record whole; --retire-stale comments out every line it takes."""
    instance = ns.instances["ns-fv"]
    zones = ns.root / "zones"
    zones.mkdir()
    zone = zones / "other.zone"
    zone.write_text("$TTL 300\n@ IN SOA localhost. hostmaster (\n    1 3600 600 604800 300 )\n  IN NS localhost.\n"
                    "plain IN CNAME ana-ml2.ana.lan.\n"
                    "$INCLUDE other-inc.zone\n"                      # named's directory: the instance's folder
                    f"$INCLUDE {zones}/sub.zone sub\n"               # its own origin: sub.other.lan.
                    "paren IN CNAME (\n    ana-ml2-bmc.ana.lan. )  ; two lines\n"
                    "lower in cname ana-ml2.ana.lan.\n"
                    "printer IN A 10.9.0.7\n")
    (instance.folder / "other-inc.zone").write_text("via-include IN CNAME ana-ml2.ana.lan.\nkept IN A 10.9.0.8\n")
    (zones / "sub.zone").write_text("x IN CNAME ana-ml2.ana.lan.\n")
    instance.conf.write_text(instance.conf.read_text() + f'zone "other.lan" {{ type master; file "{zone}"; }};\n')
    reload_until(ns, "ns-fv", "other.lan.")
    served = ["plain", "via-include", "x.sub", "paren", "lower"]
    assert all(asked(ns, f"{n}.other.lan.", "CNAME") for n in served)  # named reads them all
    plan = dns(run, ns, "plan", "--resolvers", "all")
    listed = [line.strip() for line in plan.stdout.splitlines() if "ana-ml2" in line and ".zone:" in line]
    assert listed == [f"{zone}:5: plain IN CNAME ana-ml2.ana.lan.",
                      f"{zone}:8: paren IN CNAME ana-ml2-bmc.ana.lan.",
                      f"{zone}:10: lower in cname ana-ml2.ana.lan.",
                      f"{instance.folder}/other-inc.zone:1: via-include IN CNAME ana-ml2.ana.lan.",
                      f"{zones}/sub.zone:1: x IN CNAME ana-ml2.ana.lan."], plan.stdout
    retired = dns(run, ns, "apply", "--resolvers", "all", "--retire-stale")
    assert retired.exit_code == 0, retired.stdout + retired.stderr
    assert [asked(ns, f"{n}.other.lan.", "CNAME") for n in served] == [()] * 5
    assert asked(ns, "printer.other.lan.") == ("10.9.0.7",) and asked(ns, "kept.other.lan.") == ("10.9.0.8",)
    lines = zone.read_text().splitlines()
    assert [n for n, line in enumerate(lines, 1) if line.startswith(";")] == [5, 8, 9, 10]


def test_an_include_named_cannot_read_or_a_loop_is_named_not_followed() -> None:
    """zone_texts, with a reader of a few files: a missing $INCLUDE and one that includes itself
    are warnings (their records unchecked), read once each."""
    from renamer.dns.bind.layout import zone_texts

    files = {"/z/a.zone": b"$INCLUDE b.zone\n$INCLUDE /z/missing.zone\nw IN CNAME x.\n",
             "/d/b.zone": b"$ORIGIN sub\n$INCLUDE /d/b.zone\nv IN CNAME y.\n"}

    class Reader:
        def read(self, path: str) -> bytes | None:
            return files.get(path)

    warnings: list[str] = []
    texts = zone_texts(Reader(), "/z/a.zone", "a.lan.", "/d", warnings)
    assert [(file, origin) for file, _, _, origin in texts] == [("/z/a.zone", "a.lan."), ("/d/b.zone", "a.lan.")]
    assert warnings == [
        "/d/b.zone:2: $INCLUDE /d/b.zone: an include loop (or nested deeper than 8): not read; its records "
        "are not checked for old values",
        "/z/a.zone:2: $INCLUDE /z/missing.zone: cannot read it; its records are not checked for old values"]


def test_the_inventory_keys_of_a_bind_resolver(tmp_path: Path) -> None:
    folder = tmp_path / "dns"
    (folder / "sites").mkdir(parents=True)
    (folder / "sites" / "fv.yaml").write_text("site: fv\ndomain: fv.lan\nnetwork: 10.251.0.0/16\n"
                                              "hosts:\n  - {name: fv-gw, address: 10.251.0.1}\n")
    base = "resolvers:\n  - name: ns\n    address: 127.0.0.1\n    snippet_dir: /etc/bind/renamer\n" \
           "    backup_dir: /var/backups/renamer\n"

    def load(extra: str) -> Any:
        (folder / "resolvers.yaml").write_text(base + extra)
        return load_inventory(folder)

    resolver = load("    backend: bind\n").resolvers[0]
    assert resolver.test == ("named-checkconf", "-z", "/etc/bind/named.conf")
    assert resolver.reload == ("rndc", "reload")
    own = load("    backend: bind\n    conf_file: /srv/named.conf\n")
    assert own.resolvers[0].test == ("named-checkconf", "-z", "/srv/named.conf")
    for extra, line, key in [("    backend: bind\n    dhcp: [fv]\n", 7, "dhcp"),
                             ("    backend: bind\n    hosts_dir: /etc/h\n", 7, "hosts_dir")]:
        with pytest.raises(ConfigError) as refused:
            load(extra)
        assert f"resolvers.yaml:{line}: resolvers[0].{key}: not used with backend: bind" in str(refused.value)


def test_the_serial_rule() -> None:
    """YYYYMMDDnn: today's 00 on a first write; the live file kept where only its serial differs;
    else past the live serial, whichever of the two is greater."""
    today = dt.date(2026, 12, 5)
    text = "x. IN SOA localhost. hostmaster.x. 2026120500 3600 600 604800 300\na.x. IN A 10.0.0.1\n"
    changed = text.replace("10.0.0.1", "10.0.0.2")
    older = text.replace("2026120500", "2026010107").encode()
    assert render.settle({"renamer-x.zone": text}, {"renamer-x.zone": None}, today)["renamer-x.zone"] == text
    assert render.settle({"renamer-x.zone": text}, {"renamer-x.zone": older}, today)["renamer-x.zone"] \
        == older.decode()
    bumped = render.settle({"renamer-x.zone": changed}, {"renamer-x.zone": older}, today)["renamer-x.zone"]
    assert render.serial_of(bumped or "") == 2026120500
    ahead = text.replace("2026120500", "2026120699").encode()  # a live serial ahead of today
    bumped = render.settle({"renamer-x.zone": changed}, {"renamer-x.zone": ahead}, today)["renamer-x.zone"]
    assert render.serial_of(bumped or "") == 2026120700
    # RFC 1982: today's serial is newer than 4294967295; where it is not (in 2200), 4294967295 + 1 wraps to 0
    wrapped = render.settle({"renamer-x.zone": changed}, {"renamer-x.zone": text.replace("2026120500", "4294967295")
                                                          .encode()}, today)["renamer-x.zone"]
    assert render.serial_of(wrapped or "") == 2026120500
    future = text.replace("2026120500", "4294967295").encode()
    assert render.serial_of(render.settle({"renamer-x.zone": changed}, {"renamer-x.zone": future},
                                          dt.date(2200, 1, 1))["renamer-x.zone"] or "") == 0


def test_a_dual_stack_site_renders_zones_named_checkzone_accepts(tmp_path: Path) -> None:
    """A dual-stack site: its forward zone, its IPv4 reverse zone at the octet boundary and its
    IPv6 one at the nibble boundary, each loaded by the real named-checkzone under its name."""
    folder = tmp_path / "dns"
    (folder / "sites").mkdir(parents=True)
    (folder / "sites" / "fv.yaml").write_text(
        "site: fv\ndomain: fv.lan\nnetwork: [10.251.0.0/20, 'fd00:251::/48']\n"
        "hosts:\n  - {name: fv-gw, address: [10.251.0.1, 'fd00:251::1'], aliases: [gw]}\n")
    (folder / "resolvers.yaml").write_text(
        f"resolvers:\n  - {{name: ns, address: 127.0.0.1, backend: bind, snippet_dir: {tmp_path}/z, "
        f"backup_dir: {tmp_path}/b}}\n")
    inventory = load_inventory(folder)
    files = render.render_resolver(inventory, inventory.resolvers[0])
    zones = sorted(name[len("renamer-"):-len(".zone")] for name in files if name.endswith(".zone"))
    assert zones == ["0.0.0.0.1.5.2.0.0.0.d.f.ip6.arpa", "251.10.in-addr.arpa", "fv.lan"]
    for zone in zones:
        path = tmp_path / f"renamer-{zone}.zone"
        path.write_text(files[path.name])
        checked = subprocess.run([binary("named-checkzone"), zone, str(path)], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stdout
    assert "1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.1.5.2.0.0.0.d.f.ip6.arpa. IN PTR fv-gw.fv.lan." \
        in files["renamer-0.0.0.0.1.5.2.0.0.0.d.f.ip6.arpa.zone"]
    assert 'zone "fv.lan" { type master; file "' + f'{tmp_path}/z/renamer-fv.lan.zone"; }};' in files[render.ZONES]


def test_the_ansible_engine_applies_and_rolls_back_bind_too(run: Callable[..., Any], ns: Lab) -> None:
    """The exported playbook runs the resolver's own commands (named-checkconf -z, rndc reload);
    a test that fails after the write restores the files, with no reload."""
    applied = dns(run, ns, "apply", "--resolvers", "all", "--engine", "ansible")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    assert asked(ns, "fv-gw.fv.lan.") == ("10.251.0.1",)
    before = ns.snippets()
    move_gateway(ns)
    ns.write_resolvers(ns_fv={"test": fails_once_written(ns, "ns-fv")})
    failed = dns(run, ns, "apply", "--resolvers", "all", "--engine", "ansible")
    assert failed.exit_code == 1, failed.stdout + failed.stderr
    assert ns.snippets() == before and asked(ns, "fv-gw.fv.lan.") == ("10.251.0.1",)
    ns.write_resolvers()
    moved = dns(run, ns, "apply", "--resolvers", "all", "--engine", "ansible")
    assert moved.exit_code == 0, moved.stdout + moved.stderr
    assert asked(ns, "fv-gw.fv.lan.") == ("10.251.0.2",)
