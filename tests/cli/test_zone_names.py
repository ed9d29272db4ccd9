"""A zone file's names by what they mean (issue 27, zone pass): an owner or `$ORIGIN` whose new name
lies outside the zone is never rewritten (BIND would drop the record) but a residual `zone-owner`
with its whole record; relative owners and RDATA names of any number of labels are matched by
their absolute meaning and written back in the spelling found.

Every zone is loaded by BIND's named-checkzone before and after; its canonical dump says which
records the zone holds."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.zones import loaded, serial

Repo = Callable[..., Path]
Run = Callable[..., Result]
ALLOW = "version: 1\ncurrent: ['**']\n"
SOA = ("$TTL 300\n@ IN SOA ns.ana.lan. admin.ana.lan. 5 7200 3600 1209600 3600\n"
       "  IN NS ns.ana.lan.\nns IN A 10.0.0.1\n")
OUT = "version: 1\nrenames:\n  hosts: {ana-ml2.ana.lan: fv-ml1.fv.lan}\nallowlist: allow.yaml\n"
BOTH = ("version: 1\nrenames:\n  hosts: {ana-ml2.ana.lan: fv-ml1.fv.lan, ana-ml2: fv-ml1}\n"
        "  addresses: {10.250.50.54: 10.251.50.54}\nallowlist: allow.yaml\n")
NS = [("ana.lan.", "NS", "ns.ana.lan."), ("ns.ana.lan.", "A", "10.0.0.1")]


def _zone(records: str, origin: str = "ana.lan.") -> str:
    return f"$ORIGIN {origin}\n{SOA}{records}"


def _residuals(run: Run, root: Path) -> list[tuple[int, str, str]]:
    verify = run(root, "verify", "--format", "json")
    assert verify.exit_code == 1, verify.stdout
    return sorted((f["line"], f["old"], f["reason"]) for f in json.loads(verify.stdout)["findings"])


@pytest.mark.parametrize(("config", "records", "stuck"), [
    pytest.param(OUT, "ana-ml2.ana.lan. IN A 10.0.0.54\n", [(6, "ana-ml2.ana.lan", "zone-owner")],
                 id="absolute-owner"),
    pytest.param(OUT, "ANA-ML2.ANA.LAN. IN A 10.0.0.54\n", [(6, "ANA-ML2.ANA.LAN", "zone-owner")],
                 id="absolute-owner-upper-case"),
    pytest.param(OUT, "ana-ml2 IN A 10.0.0.54\n", [(6, "ana-ml2", "zone-owner")], id="relative-owner"),
    pytest.param(BOTH, "ana-ml2 IN A 10.250.50.54\n",
                 [(6, "10.250.50.54", "zone-owner"), (6, "ana-ml2", "zone-owner")],
                 id="relative-owner-short-rename-too-and-its-address"),
    pytest.param(BOTH, "ana-ml2 3600 IN A 10.0.0.54\n        IN TXT \"on 10.250.50.54\"\n",
                 [(6, "ana-ml2", "zone-owner"), (7, "10.250.50.54", "zone-owner")],
                 id="owner-omitted-on-the-next-record"),
    pytest.param(OUT, "$ORIGIN ana-ml2.ana.lan.\n@ IN A 10.0.0.54\nwww IN A 10.0.0.55\n",
                 [(6, "ana-ml2.ana.lan", "zone-owner"), (7, "@", "zone-owner")], id="nested-origin"),
    pytest.param(OUT, "$ORIGIN ana-ml2\n@ IN A 10.0.0.54\n", [(6, "ana-ml2", "zone-owner"), (7, "@", "zone-owner")],
                 id="nested-relative-origin"),
])
def test_an_owner_renamed_out_of_its_zone_is_a_residual(repo: Repo, run: Run, config: str, records: str,
                                                        stuck: list[tuple[int, str, str]]) -> None:
    root = repo({"db.ana.lan": _zone(records)}, config=config, allowlist=ALLOW)
    before = loaded(root / "db.ana.lan", "ana.lan")
    text = (root / "db.ana.lan").read_text()
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 1, result.stdout + result.stderr
    assert (root / "db.ana.lan").read_text() == text  # nothing else to change: no serial bump either
    assert loaded(root / "db.ana.lan", "ana.lan") == before
    assert _residuals(run, root) == stuck


def test_beside_a_residual_owner_the_rest_of_the_zone_follows(repo: Repo, run: Run) -> None:
    """A CNAME may point out of its zone: its target follows, relative or absolute; the owner that
    would leave the zone stays with its whole record."""
    records = ("ana-ml2 IN A 10.250.50.54\nwww IN CNAME ana-ml2\nweb IN CNAME ana-ml2.ana.lan.\n"
               "mail IN MX 10 ana-ml2\n  IN TXT \"x\"\n_http._tcp IN SRV 0 5 80 ana-ml2\n")
    root = repo({"db.ana.lan": _zone(records)}, config=BOTH, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert loaded(root / "db.ana.lan", "ana.lan") == sorted([
        *NS, ("_http._tcp.ana.lan.", "SRV", "0 5 80 fv-ml1.fv.lan."),
        ("ana-ml2.ana.lan.", "A", "10.250.50.54"), ("mail.ana.lan.", "MX", "10 fv-ml1.fv.lan."),
        ("mail.ana.lan.", "TXT", '"x"'), ("web.ana.lan.", "CNAME", "fv-ml1.fv.lan."),
        ("www.ana.lan.", "CNAME", "fv-ml1.fv.lan.")])
    assert serial(root / "db.ana.lan", "ana.lan") == "6"
    assert [r[1:] for r in _residuals(run, root)] == [("10.250.50.54", "zone-owner"), ("ana-ml2", "zone-owner")]


def test_the_residual_is_decided_by_moving_the_record(repo: Repo, run: Run) -> None:
    """The operator's way out: the record moved to the fv.lan zone by hand; verify then passes."""
    root = repo({"db.ana.lan": _zone("ana-ml2 IN A 10.0.0.54\n")}, config=OUT, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    (root / "db.ana.lan").write_text(_zone(""))
    (root / "db.fv.lan").write_text(_zone("fv-ml1 IN A 10.0.0.54\n", "fv.lan."))
    assert run(root, "verify").exit_code == 0


@pytest.mark.parametrize(("records", "expected"), [
    pytest.param("ana-ml2 IN A 10.0.0.54\n", [("fv-ml1.ana.lan.", "A", "10.0.0.54")], id="relative"),
    pytest.param("Ana-Ml2 IN A 10.0.0.54\n", [("fv-ml1.ana.lan.", "A", "10.0.0.54")], id="relative-mixed-case"),
    pytest.param("ana-ml2.ana.lan. IN A 10.0.0.54\n", [("fv-ml1.ana.lan.", "A", "10.0.0.54")], id="absolute"),
    pytest.param("$ORIGIN ana-ml2.ana.lan.\n@ IN A 10.0.0.54\nwww IN A 10.0.0.55\n",
                 [("fv-ml1.ana.lan.", "A", "10.0.0.54"), ("www.fv-ml1.ana.lan.", "A", "10.0.0.55")],
                 id="nested-origin-in-zone"),
    pytest.param("$ORIGIN sub.ana.lan.\nhost IN CNAME ana-ml2.ana.lan.\n",
                 [("host.sub.ana.lan.", "CNAME", "fv-ml1.ana.lan.")], id="rdata-absolute-under-nested-origin"),
])
def test_an_owner_renamed_inside_its_zone_follows(repo: Repo, run: Run, records: str,
                                                  expected: list[tuple[str, str, str]]) -> None:
    config = "version: 1\nrenames:\n  hosts: {ana-ml2.ana.lan: fv-ml1.ana.lan}\nallowlist: allow.yaml\n"
    root = repo({"db.ana.lan": _zone(records)}, config=config, allowlist=ALLOW)
    assert run(root, "verify").exit_code == 1
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert loaded(root / "db.ana.lan", "ana.lan") == sorted([*NS, *expected])
    assert serial(root / "db.ana.lan", "ana.lan") == "6"
    assert run(root, "verify").exit_code == 0


def test_a_zone_renamed_whole_takes_its_owners_along(repo: Repo, run: Run) -> None:
    """`ana.lan -> fv.lan` renames the zone through its `$ORIGIN`: relative owners follow with it,
    and an absolute owner under the old apex (`www.ana.lan.`, which no rename matches) is moved
    under the new one, or BIND would drop it from the renamed zone; a name pointing at it too."""
    config = "version: 1\nrenames:\n  hosts: {ana.lan: fv.lan}\nallowlist: allow.yaml\n"
    zone = "$ORIGIN ana.lan.\n$TTL 300\n@ IN SOA ns admin 5 1 2 3 4\n  IN NS ns\nns IN A 10.0.0.1\n"
    root = repo({"db": zone + "www.ana.lan. IN A 10.0.0.2\nWeb.Ana.Lan. IN CNAME www.ana.lan.\n"},
                config=config, allowlist=ALLOW)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert (root / "db").read_text().startswith("$ORIGIN fv.lan.\n")
    assert loaded(root / "db", "fv.lan") == [
        ("fv.lan.", "NS", "ns.fv.lan."), ("ns.fv.lan.", "A", "10.0.0.1"),
        ("web.fv.lan.", "CNAME", "www.fv.lan."), ("www.fv.lan.", "A", "10.0.0.2")]
    assert "\nWeb.Fv.Lan. IN CNAME www.fv.lan.\n" in (root / "db").read_text()
    assert run(root, "verify").exit_code == 0


MULTI = ("version: 1\nrenames:\n  hosts: {nas.local.lab.example: nas.home.lab.example, "
         "db.old.lab.example: db.other.example}\nallowlist: allow.yaml\n")
LAB_SOA = "$ORIGIN lab.example.\n$TTL 300\n@ IN SOA ns admin 5 1 2 3 4\n  IN NS ns\nns IN A 10.0.0.1\n"


@pytest.mark.parametrize(("records", "expected_text", "expected"), [
    pytest.param("nas.local IN A 10.0.0.9\n", "nas.home IN A 10.0.0.9\n",
                 [("nas.home.lab.example.", "A", "10.0.0.9")], id="relative-owner-two-labels"),
    pytest.param("NAS.Local IN A 10.0.0.9\n", "NAS.Home IN A 10.0.0.9\n",
                 [("nas.home.lab.example.", "A", "10.0.0.9")], id="case-kept"),
    pytest.param("files IN CNAME nas.local\n", "files IN CNAME nas.home\n",
                 [("files.lab.example.", "CNAME", "nas.home.lab.example.")], id="relative-rdata-two-labels"),
    pytest.param("files IN CNAME db.old\n", "files IN CNAME db.other.example.\n",
                 [("files.lab.example.", "CNAME", "db.other.example.")], id="rdata-out-of-zone-written-absolute"),
    pytest.param("$ORIGIN local.lab.example.\nnas IN A 10.0.0.9\n", "$ORIGIN local.lab.example.\nnas.home.lab.example. IN A 10.0.0.9\n",
                 [("nas.home.lab.example.", "A", "10.0.0.9")], id="one-label-under-a-deeper-origin"),
    pytest.param("$ORIGIN local\nnas IN MX 5 nas\n",
                 "$ORIGIN local\nnas.home.lab.example. IN MX 5 nas.home.lab.example.\n",
                 [("nas.home.lab.example.", "MX", "5 nas.home.lab.example.")], id="relative-origin-chain"),
])
def test_multi_label_relative_names_are_matched_by_meaning(repo: Repo, run: Run, records: str, expected_text: str,
                                                           expected: list[tuple[str, str, str]]) -> None:
    root = repo({"zones/lab": LAB_SOA + records}, config=MULTI, allowlist=ALLOW)
    assert run(root, "verify").exit_code == 1
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert (root / "zones/lab").read_text().endswith(expected_text)
    ns = [("lab.example.", "NS", "ns.lab.example."), ("ns.lab.example.", "A", "10.0.0.1")]
    assert loaded(root / "zones/lab", "lab.example") == sorted([*ns, *expected])
    assert serial(root / "zones/lab", "lab.example") == "6"
    assert run(root, "verify").exit_code == 0


@pytest.mark.parametrize("records", [
    pytest.param("nas.local.other IN A 10.0.0.9\n", id="longer-name"),
    pytest.param("nas.localhost IN A 10.0.0.9\n", id="longer-label"),
    pytest.param("nas IN TXT \"nas.local\"\n", id="quoted-text"),
    pytest.param("$ORIGIN other.example.\nnas.local IN A 10.0.0.9\n", id="same-spelling-other-origin"),
])
def test_noop_names_that_do_not_mean_the_old_one(repo: Repo, run: Run, records: str) -> None:
    root = repo({"zones/lab": LAB_SOA + records}, config=MULTI, allowlist=ALLOW)
    before = (root / "zones/lab").read_text()
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "zones/lab").read_text() == before
    assert run(root, "verify").exit_code == 0


def test_a_name_below_it_is_left_but_fails_verify(repo: Repo, run: Run) -> None:
    """`www.nas.local` in lab.example is not the old name, so it is never rewritten; but it lies under
    the renamed `nas.local.lab.example` (break-it round 10, finding 8): a residual `subdomain`."""
    root = repo({"zones/lab": LAB_SOA + "www.nas.local IN A 10.0.0.9\n"}, config=MULTI, allowlist=ALLOW)
    before = (root / "zones/lab").read_text()
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "zones/lab").read_text() == before
    verify = run(root, "verify")
    assert verify.exit_code == 1 and "residual (subdomain): nas.local -> nas.home" in verify.stdout


def test_a_signed_zone_is_never_edited(repo: Repo, run: Run, tmp_path: Path) -> None:
    """A zone signed by dnssec-signzone: any edit breaks its RRSIGs. Every old value in it is a
    residual `signed-zone`; the unsigned zone beside it is rewritten as usual."""
    keys = tmp_path / "keys"
    keys.mkdir()
    unsigned = tmp_path / "db.ana.lan"
    unsigned.write_text(_zone("ana-ml2 IN A 10.0.0.54\nwww IN CNAME ana-ml2.ana.lan.\n"))
    for flags in ([], ["-f", "KSK"]):
        subprocess.run(["dnssec-keygen", "-q", "-K", str(keys), "-a", "ECDSAP256SHA256", *flags, "ana.lan"],
                       check=True, capture_output=True)
    subprocess.run(["dnssec-signzone", "-q", "-K", str(keys), "-d", str(keys), "-S", "-o", "ana.lan", "-f",
                    str(tmp_path / "signed"), str(unsigned)], check=True, capture_output=True)
    config = "version: 1\nrenames:\n  hosts: {ana-ml2.ana.lan: fv-ml1.ana.lan}\nallowlist: allow.yaml\n"
    root = repo({"db.ana.lan": unsigned.read_text(), "db.ana.lan.signed": (tmp_path / "signed").read_text()},
                config=config, allowlist=ALLOW)
    signed = (root / "db.ana.lan.signed").read_text()
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "db.ana.lan.signed").read_text() == signed
    assert ("fv-ml1.ana.lan.", "A", "10.0.0.54") in loaded(root / "db.ana.lan", "ana.lan")
    findings = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert findings and {(f["path"], f["reason"]) for f in findings} == {("db.ana.lan.signed", "signed-zone")}


def test_crlf_zone_keeps_its_line_endings(repo: Repo, run: Run) -> None:
    config = ("version: 1\nrenames:\n  hosts: {ana-ml2.ana.lan: fv-ml1.ana.lan, db.ana.lan: db.fv.lan}\n"
              "allowlist: allow.yaml\n")
    zone = _zone("ana-ml2\tIN A 10.0.0.54\ndb IN A 10.0.0.55\nwww IN CNAME db\n").replace("\n", "\r\n")
    root = repo({"zones/ana": zone}, config=config, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "zones/ana").read_bytes().endswith(
        b"\r\nfv-ml1\tIN A 10.0.0.54\r\ndb IN A 10.0.0.55\r\nwww IN CNAME db.fv.lan.\r\n")
    assert loaded(root / "zones/ana", "ana.lan") == sorted([
        *NS, ("db.ana.lan.", "A", "10.0.0.55"), ("fv-ml1.ana.lan.", "A", "10.0.0.54"),
        ("www.ana.lan.", "CNAME", "db.fv.lan.")])
    assert _residuals(run, root) == [(7, "db", "zone-owner")]
