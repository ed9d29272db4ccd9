"""`backend: powerdns` through the CLI, against a real pdns_server on loopback: plan, apply, verify,
a failed apply's rollback and a rename, in a mixed fleet with a real dnsmasq serving the same
sites; each assertion on what the servers ANSWER over DNS. Then the refusals: bad entries in
resolvers.yaml (exit 2, one line, the key never shown), a zone the server lacks and a key file
others may read (exit 3, nothing written). The Ansible engine: test_ansible_powerdns.py."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from renamer.dns.dnsmasq import sandbox
from renamer.shipped import shipped
from tests.testing import powerdns
from tests.testing.resolvers import answers, move_gateway

SECRET = "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5"


class Fleet:
    """ns-ana: a real dnsmasq; ns-pdns: a real pdns_server holding the shipped sites' zones."""

    def __init__(self, root: Path) -> None:
        self.root = root
        shutil.copytree(shipped("dns") / "sites", root / "dns" / "sites")
        self.key_file = root / "pdns.key"
        self.key_file.write_text(powerdns.KEY + "\n")
        self.key_file.chmod(0o600)
        self.dnsmasq = sandbox.create(root / "run" / "ns-ana")
        self.server = powerdns.start(root / "run" / "ns-pdns")
        self.instances: dict[str, Any] = {"ns-ana": self.dnsmasq, "ns-pdns": self.server}
        self.proxy: powerdns.Proxy | None = None

    @property
    def inventory(self) -> Path:
        return self.root / "dns"

    def pdns_entry(self, **extra: object) -> dict[str, object]:
        return {"name": "ns-pdns", "address": self.server.address, "port": self.server.port,
                "backend": "powerdns", "api": self.server.url, "api_key_file": str(self.key_file),
                "backup_dir": str(self.root / "backups" / "ns-pdns"), "timeout": 0.5, **extra}

    def write_resolvers(self, **extra: object) -> None:
        text = sandbox.resolvers_yaml({"ns-ana": self.dnsmasq}, self.root / "backups", {"ns-ana": {"dhcp": []}},
                                      timeout=0.5)
        (self.inventory / "resolvers.yaml").write_text(text + f"  - {json.dumps(self.pdns_entry(**extra))}\n")

    def rrsets(self) -> dict[str, list[str]]:
        """Every RRset the server holds but the SOA: what 'nothing written' is checked against."""
        client = self.server.client()
        held = {z["name"] for z in client.call("GET", "/zones")}
        return {f"{rr['name']} {rr['type']}": sorted(r["content"] for r in rr["records"])
                for zone in sorted(held) for rr in client.zone(zone)["rrsets"] if rr["type"] != "SOA"}

    def stop(self) -> None:
        if self.proxy is not None:
            self.proxy.stop()
        self.server.stop()
        self.dnsmasq.stop()


@pytest.fixture
def fleet(tmp_path: Path) -> Iterator[Fleet]:
    started = Fleet(tmp_path / "lab")
    try:
        for zone in powerdns.lab_zones():
            started.server.create_zone(zone)
        started.write_resolvers()
        sandbox.start(started.dnsmasq.folder)
        yield started
    finally:
        started.stop()


def dns(run: Callable[..., Any], fleet: Fleet, *args: str) -> Any:
    return run(fleet.root, "dns", *args, "--inventory", str(fleet.inventory))


def both(fleet: Fleet, name: str, rdtype: str = "A") -> dict[str, tuple[str, ...]]:
    return answers(fleet, name, rdtype)  # type: ignore[arg-type]  # a Lab's shape: instances with address, port


def test_a_mixed_fleet_is_planned_applied_verified_and_rolled_back_over_the_cli(run: Callable[..., Any],
                                                                                fleet: Fleet) -> None:
    planned = dns(run, fleet, "plan", "--resolvers", "all")
    assert planned.exit_code == 0, planned.stdout + planned.stderr
    assert "renamer-fv.rrsets" in planned.stdout and "fv-gw.fv.lan" in planned.stdout
    headers = [line for line in planned.stdout.splitlines() if line.startswith("+++ ")]
    assert headers and all(line.startswith(("+++ b/", "+++ /dev/null")) for line in headers), headers
    assert both(fleet, "fv-gw.fv.lan.") == {"ns-ana": (), "ns-pdns": ()}  # the plan wrote nothing

    applied = dns(run, fleet, "apply", "--resolvers", "all")
    assert applied.exit_code == 0, applied.stdout + applied.stderr
    assert both(fleet, "fv-gw.fv.lan.") == {"ns-ana": ("10.251.0.1",), "ns-pdns": ("10.251.0.1",)}
    assert both(fleet, "ana-nas.ana.lan.") == {"ns-ana": ("10.250.20.10",), "ns-pdns": ("10.250.20.10",)}
    assert both(fleet, "54.50.251.10.in-addr.arpa.", "PTR") == {"ns-ana": ("fv-ml1.fv.lan.",),
                                                                "ns-pdns": ("fv-ml1.fv.lan.",)}
    assert both(fleet, "scriberr.fv.lan.", "CNAME") == {"ns-ana": ("fv-ml1.fv.lan.",), "ns-pdns": ("fv-ml1.fv.lan.",)}
    assert both(fleet, "scriberr.fv.lan.") == {"ns-ana": ("10.251.50.54",), "ns-pdns": ("10.251.50.54",)}
    assert answers(fleet, "fv-gw.", "A", "ns-ana") == {"ns-ana": ("10.251.0.1",)}  # type: ignore[arg-type]
    verified = dns(run, fleet, "verify", "--resolvers", "all")
    assert verified.exit_code == 0, verified.stdout
    assert dns(run, fleet, "plan", "--resolvers", "all", "--expect-no-changes").exit_code == 0
    backups = fleet.root / "backups" / "ns-pdns"
    assert [p.name for p in backups.iterdir() if p.is_dir()]  # the backup: on this machine

    # A PATCH the server refuses (HTTP 500 at the proxy): every resolver goes back, dnsmasq too.
    move_gateway(fleet)  # type: ignore[arg-type]
    fleet.proxy = powerdns.Proxy(fleet.server.url, "fail")
    fleet.write_resolvers(api=fleet.proxy.url)
    failed = dns(run, fleet, "apply", "--resolvers", "all")
    assert failed.exit_code == 1 and "HTTP 500" in failed.stdout, failed.stdout
    assert both(fleet, "fv-gw.fv.lan.") == {"ns-ana": ("10.251.0.1",), "ns-pdns": ("10.251.0.1",)}

    # The server reached again: the move, then a rename that deletes the old name and its PTR.
    fleet.write_resolvers()
    assert dns(run, fleet, "apply", "--resolvers", "all").exit_code == 0
    assert both(fleet, "fv-gw.fv.lan.") == {"ns-ana": ("10.251.0.2",), "ns-pdns": ("10.251.0.2",)}
    site = fleet.inventory / "sites" / "fv.yaml"
    site.write_text(site.read_text().replace("name: fv-gw", "name: fv-router"))
    renamed = dns(run, fleet, "apply", "--resolvers", "all")
    assert renamed.exit_code == 0, renamed.stdout + renamed.stderr
    assert both(fleet, "fv-router.fv.lan.") == {"ns-ana": ("10.251.0.2",), "ns-pdns": ("10.251.0.2",)}
    assert both(fleet, "fv-gw.fv.lan.") == {"ns-ana": (), "ns-pdns": ()}
    assert both(fleet, "2.0.251.10.in-addr.arpa.", "PTR") == {"ns-ana": ("fv-router.fv.lan.",),
                                                              "ns-pdns": ("fv-router.fv.lan.",)}
    assert dns(run, fleet, "verify", "--resolvers", "all").exit_code == 0



@pytest.mark.parametrize(("line", "key", "said"), [
    (f"api_key: {SECRET}", "api_key", "the API key never goes in the inventory"),
    (f"api_key_env: {SECRET}", "api_key_env", "reads as the key itself"),
    ("api_key_file: secrets/pdns.key", "api_key_file", "expected an absolute path"),
    ("snippet_dir: /etc/powerdns/renamer", "snippet_dir", "not used with backend: powerdns"),
    ("target: ssh://root@ns1", "target", "not used with backend: powerdns"),
    ("zone_id: fv", "zone_id", "unknown key"),
])
def test_a_bad_powerdns_entry_is_refused_with_one_line_before_anything_is_read(
        run: Callable[..., Any], tmp_path: Path, line: str, key: str, said: str) -> None:
    """No server runs: the load refuses before any call (the key file need not exist either)."""
    folder = tmp_path / "dns"
    shutil.copytree(shipped("dns") / "sites", folder / "sites")
    key_line = "" if key.startswith("api_key") and key != "api_key" else "    api_key_file: /etc/renamer/pdns.key\n"
    (folder / "resolvers.yaml").write_text("resolvers:\n  - name: ns-pdns\n    address: 127.0.0.1\n"
                                           "    backend: powerdns\n    api: http://127.0.0.1:1\n"
                                           f"{key_line}    backup_dir: {tmp_path / 'backups'}\n    {line}\n")
    refused = run(tmp_path, "dns", "plan", "--resolvers", "all", "--inventory", str(folder))
    assert refused.exit_code == 2, refused.stdout + refused.stderr
    errors = [e for e in refused.stderr.splitlines() if e.startswith("renamer: error: ")]
    number = 8 if key_line else 7
    assert errors == [errors[0]] and errors[0].startswith(f"renamer: error: dns/resolvers.yaml:{number}: "
                                                          f"resolvers[0].{key}: "), refused.stderr
    assert said in errors[0] and SECRET not in refused.stderr + refused.stdout
    assert not (tmp_path / "backups").exists()


@pytest.mark.parametrize(("api", "said"), [
    # break-it round 11, finding 9: the key in the URL's query or fragment, never repeated
    (f"http://127.0.0.1:8081/?api-key={SECRET}", "a query or fragment in the URL"),
    (f"http://127.0.0.1:8081/api/v1?X-API-Key={SECRET}&x=1", "a query or fragment in the URL"),
    (f"http://127.0.0.1:8081/#{SECRET}", "a query or fragment in the URL"),
    (f"htp://127.0.0.1:8081/?api-key={SECRET}", "a query or fragment in the URL"),  # and a typo
    (f"http://[::1/?api-key={SECRET}", "a query or fragment in the URL"),  # and no parseable host
    (f"http://admin@127.0.0.1:8081/?api-key={SECRET}", "credentials in the URL"),
    (f"http://{SECRET}@127.0.0.1:8081", "credentials in the URL"),
    (SECRET, "expected the API's URL, http(s)://HOST:PORT (the value is not repeated here)"),  # the key itself
    # look-alikes: a plain typo is still shown, so that it can be found
    ("127.0.0.1:8081", "expected the API's URL, http(s)://HOST:PORT, got '127.0.0.1:8081'"),
    ("http://127.0.0.1:99999", "got 'http://127.0.0.1:99999'"),
])
def test_a_key_in_the_api_url_is_refused_and_never_repeated(
        run: Callable[..., Any], tmp_path: Path, api: str, said: str) -> None:
    folder = tmp_path / "dns"
    shutil.copytree(shipped("dns") / "sites", folder / "sites")
    (folder / "resolvers.yaml").write_text("resolvers:\n  - name: ns-pdns\n    address: 127.0.0.1\n"
                                           f"    backend: powerdns\n    api: {json.dumps(api)}\n"
                                           "    api_key_file: /etc/renamer/pdns.key\n"
                                           f"    backup_dir: {tmp_path / 'backups'}\n")
    for args in (("plan",), ("plan", "--format", "json"), ("verify",)):
        refused = run(tmp_path, "dns", *args, "--resolvers", "all", "--inventory", str(folder))
        assert refused.exit_code == 2, refused.stdout + refused.stderr
        errors = [e for e in refused.stderr.splitlines() if e.startswith("renamer: error: ")]
        assert errors == [errors[0]] and errors[0].startswith(
            "renamer: error: dns/resolvers.yaml:5: resolvers[0].api: "), refused.stderr
        assert said in errors[0], errors
        assert SECRET not in refused.stderr + refused.stdout
    assert not (tmp_path / "backups").exists()


def test_a_zone_the_server_lacks_and_a_key_others_may_read_are_refused_with_nothing_written(
        run: Callable[..., Any], tmp_path: Path) -> None:
    fleet = Fleet(tmp_path / "lab")
    try:
        for zone in ("fv.lan.", "251.10.in-addr.arpa."):  # not ana's zones
            fleet.server.create_zone(zone)
        (fleet.inventory / "resolvers.yaml").write_text(f"resolvers:\n  - {json.dumps(fleet.pdns_entry())}\n")
        before = fleet.rrsets()
        planned = dns(run, fleet, "plan", "--resolvers", "all")
        assert planned.exit_code == 1 and "zone ana.lan. is not on server localhost" in planned.stdout
        refused = dns(run, fleet, "apply", "--resolvers", "all")
        assert refused.exit_code == 3, refused.stdout + refused.stderr
        assert "is not on server localhost" in refused.stderr and "create it there first" in refused.stderr
        assert fleet.rrsets() == before and not any((fleet.root / "backups" / "ns-pdns").glob("ns-pdns-*"))
        served = json.dumps(fleet.pdns_entry(sites=["fv"]))
        (fleet.inventory / "resolvers.yaml").write_text(f"resolvers:\n  - {served}\n")
        fleet.key_file.chmod(0o644)
        refused = dns(run, fleet, "apply", "--resolvers", "all")
        assert refused.exit_code == 3 and "readable by others" in refused.stderr, refused.stderr
        assert powerdns.KEY not in refused.stderr + refused.stdout
        assert fleet.rrsets() == before
        assert not (fleet.root / "backups" / "ns-pdns" / "renamer-apply.lock").exists()
    finally:
        fleet.stop()


def test_hand_written_rrsets_a_name_swap_and_an_answer_that_is_no_api(run: Callable[..., Any],
                                                                         fleet: Fleet) -> None:
    """DNS break-it round 1: (01) a hand-written RRset holding the desired record beside a disabled
    one and its owner's comment was taken over and rewritten, the plan showing no change; (02) a
    host and its alias swapping names failed every apply (HTTP 422: the CNAME went in before the
    A at its name was deleted); (04) an answer that is no JSON was an internal error."""
    assert dns(run, fleet, "apply", "--resolvers", "all").exit_code == 0
    sites = fleet.inventory / "sites" / "fv.yaml"
    original = sites.read_text()
    client = fleet.server.client()
    note = [{"content": "team-x: standby address, ticket 42", "account": "alice"}]
    client.patch("fv.lan", [{"name": "fv-new.fv.lan.", "type": "A", "ttl": 300, "changetype": "REPLACE",
                             "records": [{"content": "10.251.60.1", "disabled": False},
                                         {"content": "10.251.60.99", "disabled": True}], "comments": note}])
    hand = {rr["name"]: rr for rr in client.zone("fv.lan")["rrsets"]}["fv-new.fv.lan."]
    sites.write_text(original.replace("  - name: fv-ml1\n", "  - name: fv-new\n    address: 10.251.60.1\n"
                                      "  - name: fv-ml1\n", 1))
    planned = dns(run, fleet, "plan", "--resolvers", "ns-pdns")
    assert planned.exit_code == 1, planned.stdout
    assert "fv-new.fv.lan. A 10.251.60.1 (and disabled 10.251.60.99, a comment) is not renamer's" in planned.stdout
    refused = dns(run, fleet, "apply", "--resolvers", "ns-pdns")
    assert refused.exit_code == 3, refused.stdout + refused.stderr
    assert {rr["name"]: rr for rr in client.zone("fv.lan")["rrsets"]}["fv-new.fv.lan."] == hand  # untouched
    sites.write_text(original)

    # (02) fv-ml1 with alias scriberr becomes scriberr with alias fv-ml1: one apply
    sites.write_text(original.replace("  - name: fv-ml1\n", "  - name: scriberr\n", 1)
                     .replace("aliases: [scriberr]", "aliases: [fv-ml1]"))
    swapped = dns(run, fleet, "apply", "--resolvers", "all")
    assert swapped.exit_code == 0, swapped.stdout + swapped.stderr
    assert both(fleet, "scriberr.fv.lan.") == {"ns-ana": ("10.251.50.54",), "ns-pdns": ("10.251.50.54",)}
    assert both(fleet, "fv-ml1.fv.lan.", "CNAME") == {"ns-ana": ("scriberr.fv.lan.",),
                                                      "ns-pdns": ("scriberr.fv.lan.",)}

    # (04) a login page where the API should be: one line naming what answered, no traceback
    page = powerdns.Proxy(fleet.server.url, "html")
    try:
        fleet.write_resolvers(api=page.url)
        failed = dns(run, fleet, "plan", "--resolvers", "ns-pdns")
        assert failed.exit_code == 1, failed.stdout + failed.stderr
        assert "answered HTTP 200 with something that is not JSON" in failed.stdout + failed.stderr
        assert "Traceback" not in failed.stdout + failed.stderr and "internal error" not in failed.stderr
    finally:
        page.stop()
