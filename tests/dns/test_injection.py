"""No directive from any inventory value (S2): the grammar at load time, and a property over random input."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from renamer.dns.dnsmasq import sandbox
from renamer.dns.dnsmasq.render import render_site
from renamer.dns.load import load_inventory
from renamer.errors import ConfigError

SHIPPED = Path(__file__).resolve().parent.parent.parent / "dns"
SITE = {"site": "evil", "domain": "evil.lan", "network": "10.9.0.0/16",
        "hosts": [{"name": "ok", "address": "10.9.0.5", "mac": "3c:ec:ef:12:34:56", "aliases": ["www"],
                   "warning": "on VLAN 30"}],
        "retired": ["old"]}


def _inventory(tmp_path: Path, site: dict[str, object], file_name: str = "evil.yaml",
               served: str = "evil") -> Path:
    folder = tmp_path / "dns"
    shutil.rmtree(folder, ignore_errors=True)
    (folder / "sites").mkdir(parents=True)
    (folder / "sites" / file_name).write_text(json.dumps(site))
    (folder / "resolvers.yaml").write_text(
        "resolvers:\n  - {name: ns, address: 127.0.0.1, snippet_dir: /tmp/x, backup_dir: /tmp/y,\n"
        f"     test: [dnsmasq, --test], reload: [/bin/true], sites: [{served}], dhcp: [{served}]}}\n")
    return folder


def _directives(snippet: str) -> list[str]:
    return [line for line in snippet.splitlines() if line and not line.startswith("#")]


def _expected(site: object) -> list[str]:
    """What the snippet must say, built from the loaded values, never from the text."""
    out = [f"local=/{site.domain}/"] if site.authoritative else []  # type: ignore[attr-defined]
    for host in site.hosts:  # type: ignore[attr-defined]
        out.append(f"host-record={site.fqdn(host.name)},{host.name},{host.address}")  # type: ignore[attr-defined]
        if host.mac:
            address = f"[{host.address}]" if host.address.version == 6 else str(host.address)
            out.append(f"dhcp-host={host.mac},{address},{host.name}")
        out += [f"cname={a},{site.fqdn(a)},{site.fqdn(host.name)}" for a in host.aliases]  # type: ignore[attr-defined]
    return out


@pytest.mark.parametrize("file_name", [
    pytest.param("x\nhost-record=bank.example,6.6.6.6\n#.yaml", id="newline-directive"),
    pytest.param("x\rserver=6.6.6.6.yaml", id="carriage-return"),
    pytest.param("a b.yaml", id="space"),
    pytest.param("é.yaml", id="non-ascii"),
])
def test_s2_a_hostile_site_file_name_is_refused_in_one_line(tmp_path: Path, file_name: str) -> None:
    folder = _inventory(tmp_path, SITE, file_name)
    with pytest.raises(ConfigError) as refused:
        load_inventory(folder, lambda p: p.relative_to(tmp_path).as_posix())
    assert "a site file's path may hold only letters, digits" in str(refused.value)
    assert all("\n" not in line and "\r" not in line for line in refused.value.lines)


def test_s2_through_the_cli_nothing_is_rendered(run, tmp_path: Path) -> None:
    folder = _inventory(tmp_path, SITE, "x\nhost-record=bank.example,6.6.6.6\n#.yaml")
    result = run(tmp_path, "dns", "render", "--inventory", str(folder))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "bank.example" in result.stderr  # shown escaped, in one line


@pytest.mark.parametrize("field, value", [
    pytest.param("warning", "line one\x1b[31m red", id="warning-escape"),
    pytest.param("warning", "a\u202eb", id="warning-bidi-override"),
    pytest.param("name", "ok\nhost-record=x,1.2.3.4", id="host-newline"),
    pytest.param("mac", "3c:ec:ef:12:34:56\n", id="mac-newline"),
    pytest.param("aliases", ["www,bank.example"], id="alias-comma"),
])
def test_hostile_host_fields_are_refused(tmp_path: Path, field: str, value: object) -> None:
    site = json.loads(json.dumps(SITE))
    site["hosts"][0][field] = value
    with pytest.raises(ConfigError):
        load_inventory(_inventory(tmp_path, site), str)


TEXT = st.text(st.characters(codec="utf-8"), max_size=24)
FIELD = st.one_of(TEXT, st.sampled_from(["ok", "a-b", "10.9.0.7", "fd00::7", "3c:ec:ef:12:34:57", "evil.lan"]))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(site=FIELD, domain=FIELD, name=FIELD, address=FIELD, mac=FIELD, alias=FIELD, warning=FIELD,
       retired=FIELD, file_stem=FIELD)
def test_any_inventory_renders_exactly_its_records_or_is_refused(
        tmp_path: Path, site: str, domain: str, name: str, address: str, mac: str, alias: str,
        warning: str, retired: str, file_stem: str) -> None:
    data = {"site": site, "domain": domain, "network": "10.9.0.0/16",
            "hosts": [{"name": name, "address": address, "mac": mac, "aliases": [alias], "warning": warning}],
            "retired": [retired]}
    try:
        folder = _inventory(tmp_path, data, f"{file_stem}.yaml")
    except (OSError, ValueError):
        return  # not a file name this file system takes
    try:
        inventory = load_inventory(folder, lambda p: p.relative_to(tmp_path).as_posix())
    except ConfigError as refused:
        assert all(line.isprintable() for line in refused.lines)
        return
    for loaded in inventory.sites:
        snippet = render_site(loaded)
        *records, canary = _directives(snippet)
        assert records == _expected(loaded)
        assert canary.startswith(f'txt-record=_renamer.{loaded.name}.{loaded.domain},"')
        assert all(line.isprintable() for line in snippet.splitlines())


def test_n4_an_ipv6_reservation_is_bracketed_and_dnsmasq_takes_it(tmp_path: Path) -> None:
    site = {"site": "six", "domain": "six.lan", "network": "fd00:251::/64",
            "hosts": [{"name": "box6", "address": "fd00:251::54", "mac": "3c:ec:ef:12:34:57"}]}
    folder = _inventory(tmp_path, site, "six.yaml", served="six")
    snippet = render_site(load_inventory(folder, str).sites[0])
    assert "dhcp-host=3c:ec:ef:12:34:57,[fd00:251::54],box6\n" in snippet
    conf = tmp_path / "six.conf"
    conf.write_text(snippet)
    # dnsmasq is required by the suite like every DNS test (README); found as the sandbox finds it
    done = subprocess.run([sandbox.dnsmasq_binary(), "--test", f"--conf-file={conf}"], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
