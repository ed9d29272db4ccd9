"""DNSSEC material an edit breaks (issue 27, break-it pass 27b, item 2), built with BIND's own tools.

A signer's output (RRSIG, NSEC, NSEC3, NSEC3PARAM: signatures over the records, denial chains
over the owner names) is never edited, whichever of those records a file keeps. Keys published
for a server that signs inline (DNSKEY) do not stop an edit of other records, since the server
signs again; but a key record's owner (DNSKEY, CDS, CDNSKEY at a zone's apex, a DS in a parent)
that a rename would move is refused (`dnssec-key`): the DS is a digest over the owner name."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.zones import loaded

Repo = Callable[..., Path]
Run = Callable[..., Result]
ALLOW = "version: 1\ncurrent: ['**']\n"
INSIDE = "version: 1\nrenames:\n  hosts: {ana-ml2.ana.lan: fv-ml1.ana.lan}\nallowlist: allow.yaml\n"
UNSIGNED = ("$ORIGIN ana.lan.\n$TTL 300\n@ IN SOA ns1 root 1 1 1 1 1\n@ IN NS ns1\nns1 IN A 10.0.0.53\n"
            "ana-ml2 IN A 10.0.0.1\nwww IN CNAME ana-ml2\n")


def _keys(where: Path, zone: str = "ana.lan") -> list[Path]:
    """A ZSK and a KSK for `zone` in `where`: their `.key` files (each one DNSKEY record)."""
    where.mkdir(exist_ok=True)
    names = [subprocess.run(["dnssec-keygen", "-q", "-K", str(where), "-a", "ECDSAP256SHA256", *flags, zone],
                            check=True, capture_output=True, text=True).stdout.strip()
             for flags in ([], ["-f", "KSK"])]
    return [where / f"{name}.key" for name in names]


def _signed(tmp: Path, nsec3: bool) -> list[str]:
    """UNSIGNED signed by dnssec-signzone, one record a line."""
    _keys(tmp / "keys")
    (tmp / "db").write_text(UNSIGNED)
    chain = ["-3", "-"] if nsec3 else []
    subprocess.run(["dnssec-signzone", "-q", "-K", str(tmp / "keys"), "-d", str(tmp / "keys"), "-S", "-O", "full",
                    *chain, "-o", "ana.lan", "-f", str(tmp / "signed"), str(tmp / "db")], check=True,
                   capture_output=True)
    return [line for line in (tmp / "signed").read_text().splitlines(keepends=True) if not line.startswith(";")]


def _without(lines: list[str], *types: str) -> str:
    return "".join(line for line in lines if len(line.split()) < 4 or line.split()[3] not in types)


@pytest.mark.parametrize(("nsec3", "dropped"), [
    pytest.param(False, ("RRSIG",), id="nsec-chain-signatures-stripped"),
    pytest.param(True, ("RRSIG",), id="nsec3-chain-signatures-stripped"),
    pytest.param(True, ("RRSIG", "NSEC3"), id="nsec3param-alone"),
    pytest.param(False, ("NSEC",), id="signatures-without-a-chain"),
])
def test_a_signer_s_output_is_never_edited_whatever_it_keeps(repo: Repo, run: Run, tmp_path: Path,
                                                             nsec3: bool, dropped: tuple[str, ...]) -> None:
    zone = _without(_signed(tmp_path, nsec3), *dropped)
    root = repo({"db.ana.lan.signed": zone}, config=INSIDE, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "db.ana.lan.signed").read_text() == zone
    findings = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert findings and {f["reason"] for f in findings} == {"signed-zone"}


def test_published_keys_do_not_stop_an_edit_the_server_signs_again(repo: Repo, run: Run, tmp_path: Path) -> None:
    """Inline signing: the repo holds the unsigned zone with its DNSKEYs; a host renamed inside
    the zone is rewritten, the keys stay as they are and BIND loads the result."""
    keys = "".join(path.read_text() for path in _keys(tmp_path / "keys"))
    root = repo({"db.ana.lan": UNSIGNED + keys}, config=INSIDE, allowlist=ALLOW)
    result = run(root, "sweep", "--commit")
    assert result.exit_code == 0, result.stdout + result.stderr
    text = (root / "db.ana.lan").read_text()
    assert "fv-ml1 IN A 10.0.0.1\nwww IN CNAME fv-ml1\n" in text and text.endswith(keys)
    records = loaded(root / "db.ana.lan", "ana.lan")
    assert [r for r in records if r[1] == "DNSKEY"] and ("fv-ml1.ana.lan.", "A", "10.0.0.1") in records


@pytest.mark.parametrize("key_type", ["DNSKEY", "CDS"])
def test_a_zone_renamed_whole_with_its_keys_is_refused(repo: Repo, run: Run, tmp_path: Path, key_type: str) -> None:
    """`ana.lan -> fv.lan` moves the apex, and the keys' owner with it, through `$ORIGIN`: the
    parent's DS would no longer match; nothing in the file is edited."""
    keys = "".join(path.read_text() for path in _keys(tmp_path / "keys"))
    if key_type == "CDS":
        keys = subprocess.run(["dnssec-dsfromkey", "-C", "-2", str(next((tmp_path / "keys").glob("*.key")))],
                              check=True, capture_output=True, text=True).stdout
        keys = keys.replace(" DS ", " CDS ")
    zone = UNSIGNED + keys
    config = "version: 1\nrenames:\n  hosts: {ana.lan: fv.lan}\nallowlist: allow.yaml\n"
    root = repo({"db.ana.lan": zone}, config=config, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "db.ana.lan").read_text() == zone
    findings = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    assert findings and {f["reason"] for f in findings} == {"dnssec-key"}


def test_a_ds_in_the_parent_zone_keeps_its_delegation(repo: Repo, run: Run, tmp_path: Path) -> None:
    """The parent `lan.` delegates ana-ml2.lan with NS, glue and a DS: renaming the child would
    leave the DS (a digest over `ana-ml2.lan.`) wrong. The delegation's records stay together as
    residuals; other records of the parent are rewritten."""
    key = _keys(tmp_path / "keys", "ana-ml2.lan")[1]
    ds = subprocess.run(["dnssec-dsfromkey", "-2", str(key)], check=True, capture_output=True, text=True).stdout
    ds_rdata = ds.split(" DS ")[1]
    parent = ("$ORIGIN lan.\n$TTL 300\n@ IN SOA ns1 root 1 1 1 1 1\n@ IN NS ns1\nns1 IN A 10.0.0.53\n"
              "ana-ml2 IN NS ns.ana-ml2\nana-ml2 IN DS " + ds_rdata + "ns.ana-ml2 IN A 10.0.0.2\n"
              "ana-ml2.old IN CNAME ana-ml2.lan.\n")
    config = "version: 1\nrenames:\n  hosts: {ana-ml2.lan: fv-ml1.lan}\nallowlist: allow.yaml\n"
    root = repo({"db.lan": parent}, config=config, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 1
    text = (root / "db.lan").read_text()
    assert "\nana-ml2 IN NS ns.ana-ml2\nana-ml2 IN DS " + ds_rdata in text
    assert text.endswith("ana-ml2.old IN CNAME fv-ml1.lan.\n")
    assert ("ana-ml2.lan.", "DS", "".join(ds_rdata.split()).upper()) in [  # BIND splits the digest
        (o, t, "".join(r.split()).upper()) for o, t, r in loaded(root / "db.lan", "lan")]
    findings = json.loads(run(root, "verify", "--format", "json").stdout)["findings"]
    # and the child's name server `ns.ana-ml2` (the NS target, the glue's owner) is a name under
    # the renamed host: a `subdomain` residual (break-it round 10, #8), held with the delegation
    assert sorted((f["line"], f["reason"]) for f in findings) == [(6, "dnssec-key"), (6, "subdomain"),
                                                                   (7, "dnssec-key"), (8, "subdomain")]
