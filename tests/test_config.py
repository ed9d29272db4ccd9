"""renamer.yaml validation, through the CLI: exact messages, exit 2, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.testing.repos import snapshot

BROKEN = """\
version: 1
name: x
cutover: 2026-13-01
bogus: 1
renames:
  hosts:
    ana_ml2: fv-ml1
    ana-ml2: ana-ml2.fv
    a-b: c-d
    c-d: a-b
  addresses:
    10.250.50.300: 10.1.1.1
    10.250.50.54: 2001:db8::1
options:
  derived_names: yes please
  max_file_size: huge
allowlist: missing.yaml
"""


def test_every_config_problem_at_once(repo, run) -> None:
    root = repo({"stacks/a.env": "HOST=ana-ml2\n"}, config=BROKEN, allowlist=None)
    before = snapshot(root)
    result = run(root, "sweep")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "renamer: error: renamer.yaml:4: bogus: unknown key (known: allowlist, cutover, dns, name, options, probe, renames, terraform, version)",
        "renamer: error: renamer.yaml:3: cutover: expected a date like 2026-10-05, got '2026-13-01'",
        "renamer: error: renamer.yaml:7: renames.hosts.ana_ml2: invalid host name 'ana_ml2' (RFC 1123: labels of letters, digits and '-')",
        "renamer: error: renamer.yaml:12: renames.addresses.10.250.50.300: invalid address '10.250.50.300'",
        "renamer: error: renamer.yaml:13: renames.addresses.10.250.50.54: maps IPv4 to IPv6",
        "renamer: error: renamer.yaml:15: options.derived_names: expected true or false, got 'yes please'",
        "renamer: error: renamer.yaml:16: options.max_file_size: expected a size like 50MiB, got 'huge'",
        "renamer: error: renamer.yaml:17: allowlist: missing.yaml: file not found",
        "renamer: error: renamer.yaml:8: renames.hosts.ana-ml2: new value 'ana-ml2.fv' contains old value 'ana-ml2' at a match boundary; a second sweep would rewrite it again",
        "renamer: error: renamer.yaml:9: renames.hosts.a-b: swap: 'c-d' is itself renamed (c-d -> a-b); it cannot be applied simultaneously without a second sweep rewriting it again",
        "renamer: error: renamer.yaml:10: renames.hosts.c-d: swap: 'a-b' is itself renamed (a-b -> c-d); it cannot be applied simultaneously without a second sweep rewriting it again",
    ]
    assert snapshot(root) == before


@pytest.mark.parametrize("config, message", [
    pytest.param("version: 1\nrenames:\n  hosts:\n    ana-ml2: fv-ml1\n    ana-ml2: fv-ml2\n",
                 'renamer.yaml:5: invalid YAML: found duplicate key "ana-ml2" with value "fv-ml2" '
                 '(original value: "fv-ml1")', id="old-mapped-twice"),
    pytest.param("version: 1\nrenames:\n  hosts: {a-b: c-d, c-d: e-f}\n",
                 "renamer.yaml:3: renames.hosts.a-b: chain: 'c-d' is itself renamed (c-d -> e-f); it "
                 "cannot be applied simultaneously without a second sweep rewriting it again",
                 id="chain"),
    pytest.param("version: 1\nrenames:\n  hosts: {ana: ana.lan}\n",
                 "renamer.yaml:3: renames.hosts.ana: new value 'ana.lan' contains old value 'ana' at "
                 "a match boundary; a second sweep would rewrite it again", id="not-idempotent"),
    # adversarial pass 2 B-18: a spelling renamer adds is named as such, never as what the user wrote
    pytest.param("version: 1\nrenames:\n  hosts: {ana-ml2: ANA-ML2}\noptions: {variants: true}\n",
                 "renamer.yaml:3: renames.hosts.ana-ml2: new value 'ANA-ML2' is the upper-case variant "
                 "(options.variants) of old value 'ana-ml2', which a sweep rewrites; a second sweep would "
                 "rewrite it again", id="variant-is-new"),
    pytest.param("version: 1\nrenames:\n  hosts: {ana-ml2: ANA-ML2.lan}\noptions: {variants: true}\n",
                 "renamer.yaml:3: renames.hosts.ana-ml2: new value 'ANA-ML2.lan' contains 'ANA-ML2', the "
                 "upper-case variant (options.variants) of old value 'ana-ml2', at a match boundary; a second "
                 "sweep would rewrite it again", id="variant-in-new"),
    pytest.param("version: 1\nrenames:\n  hosts: {xn--bcher-kva: XN--BCHER-KVA}\n",
                 "renamer.yaml:3: renames.hosts.xn--bcher-kva: new value 'XN--BCHER-KVA' is the upper-case "
                 "spelling (an IDNA name is case-insensitive) of old value 'xn--bcher-kva', which a sweep "
                 "rewrites; a second sweep would rewrite it again", id="idna-upper-is-new"),
    pytest.param("version: 2\nrenames:\n  hosts: {a: b}\n", "renamer.yaml:1: version: must be 1, got 2",
                 id="version"),
    pytest.param("version: 1\nrenames: [a, b]\n",
                 "renamer.yaml:2: renames: expected a mapping, got a list", id="wrong-type"),
    pytest.param("version: 1\n", "renamer.yaml:1: renames: missing: nothing to rename", id="no-renames"),
    pytest.param("version: 1\nrenames:\n  hosts: {a: b\n",
                 "renamer.yaml:4: invalid YAML: expected ',' or '}', but got '<stream end>'",
                 id="syntax"),
    pytest.param('version: 1\nrenames:\n  networks: {10.250.0.0/16: "2001:db8::/48"}\n',
                 "renamer.yaml:3: renames.networks.10.250.0.0/16: 10.250.0.0/16 and 2001:db8::/48 must "
                 "be of one family (IPv4 and IPv6)", id="network-family"),
    # a network without its length is never read as a /32 (/128) without a word (t36-33 finding 21)
    pytest.param("version: 1\nrenames:\n  networks:\n    192.168.40.0: 10.20.0.0\n",
                 "renamer.yaml:4: renames.networks.192.168.40.0: '192.168.40.0' has no length: a network "
                 "needs its length (/N); use renames.addresses for one address", id="network-without-length"),
    pytest.param("version: 1\nrenames:\n  networks: {192.168.40.0/24: 10.20.0.0}\n",
                 "renamer.yaml:3: renames.networks.192.168.40.0/24: '10.20.0.0' has no length: a network "
                 "needs its length (/N); use renames.addresses for one address", id="new-network-without-length"),
    pytest.param('version: 1\nrenames:\n  networks: {"2001:db8:a::": "2001:db8:b::/48"}\n',
                 "renamer.yaml:3: renames.networks.2001:db8:a::: '2001:db8:a::' has no length: a network "
                 "needs its length (/N); use renames.addresses for one address", id="v6-network-without-length"),
    # any length, but an overlap only where both start at one address (a resize in place)
    pytest.param("version: 1\nrenames:\n  networks: {10.0.48.0/24: 10.0.48.128/25}\n",
                 "renamer.yaml:3: renames.networks.10.0.48.0/24: 10.0.48.128/25 overlaps 10.0.48.0/24: a "
                 "second sweep would move addresses again (a network may overlap its new one only where "
                 "both start at one address: a resize in place)", id="network-overlap"),
    pytest.param("version: 1\nrenames:\n  hosts: {ana-ml2: 10.1.1.1}\n",
                 "renamer.yaml:3: renames.hosts.ana-ml2: '10.1.1.1' is an address: list it under "
                 "renames.addresses", id="address-as-host"),
    # a name that reads as an address is never a host name; nor one with an empty label or a final dot
    pytest.param('version: 1\nrenames:\n  hosts: {"12345": fv-ml1}\n',
                 "renamer.yaml:3: renames.hosts.12345: invalid host name '12345': its last label is all digits, so it reads as an address, never a host name (RFC 1123 2.1, RFC 3696 2)", id="all-digits-old"),
    pytest.param('version: 1\nrenames:\n  hosts: {ana-ml2: "4711"}\n',
                 "renamer.yaml:3: renames.hosts.ana-ml2: invalid host name '4711': its last label is all digits, so it reads as an address, never a host name (RFC 1123 2.1, RFC 3696 2)", id="all-digits-new"),
    pytest.param("version: 1\nrenames:\n  hosts: {12345: fv-ml1}\n",
                 "renamer.yaml:3: renames.hosts.12345: YAML reads this key as the number 12345: a host name or "
                 "an address is a string, and a name is never all digits (RFC 1123 2.1)", id="yaml-number"),
    pytest.param("version: 1\nrenames:\n  hosts: {ana-ml2: 10.251.50}\n",
                 "renamer.yaml:3: renames.hosts.ana-ml2: invalid host name '10.251.50': its last label is all digits, so it reads as an address, never a host name (RFC 1123 2.1, RFC 3696 2)", id="three-octets"),
    pytest.param("version: 1\nrenames:\n  hosts: {ana-ml2.ana.lan: fv-ml1.10}\n",
                 "renamer.yaml:3: renames.hosts.ana-ml2.ana.lan: invalid host name 'fv-ml1.10': its last label is all digits, so it reads as an address, never a host name (RFC 1123 2.1, RFC 3696 2)",
                 id="numeric-top-label"),
    pytest.param('version: 1\nrenames:\n  hosts: {"0x0a": fv-ml1}\n',
                 "renamer.yaml:3: renames.hosts.0x0a: invalid host name '0x0a': it reads as an IPv4 address "
                 "(inet_aton), never a host name", id="hex-address"),
    pytest.param("version: 1\nrenames:\n  hosts: {ana-ml2..ana.lan: fv-ml1.fv.lan}\n",
                 "renamer.yaml:3: renames.hosts.ana-ml2..ana.lan: invalid host name 'ana-ml2..ana.lan' (RFC 1123: "
                 "an empty label)", id="empty-label"),
    pytest.param("version: 1\nrenames:\n  hosts: {ana-ml2.ana.lan.: fv-ml1.fv.lan.}\n",
                 "renamer.yaml:3: renames.hosts.ana-ml2.ana.lan.: invalid host name 'ana-ml2.ana.lan.': a trailing "
                 "dot (write 'ana-ml2.ana.lan': the name matches with or without the dot after it)",
                 id="trailing-dot"),
    pytest.param("version: 1\nrenames:\n  hosts: {ana-ml2.ana.lan: fv-ml1.fv.lan.}\n",
                 "renamer.yaml:3: renames.hosts.ana-ml2.ana.lan: invalid host name 'fv-ml1.fv.lan.': a trailing "
                 "dot (write 'fv-ml1.fv.lan': the name matches with or without the dot after it)",
                 id="trailing-dot-new"),
])
def test_config_rejections(repo, run, config: str, message: str) -> None:
    root = repo({"stacks/a.env": "HOST=ana-ml2\n"}, config=config, allowlist=None)
    result = run(root, "sweep", "--dry-run")
    assert result.exit_code == 2
    assert result.stderr == f"renamer: error: {message}\n"


def test_invalid_utf8_config(repo, run) -> None:
    root = repo({}, config=None, allowlist=None)
    (root / "renamer.yaml").write_bytes(b"version: 1\nname: caf\xe9\n")
    result = run(root, "verify")
    assert (result.exit_code, result.stderr) == (2, "renamer: error: renamer.yaml:2: not valid UTF-8\n")


def test_missing_config(repo, run) -> None:
    root = repo({}, config=None, allowlist=None)
    result = run(root, "verify")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"renamer: error: {root / 'renamer.yaml'}: file not found")


def test_discovery_from_a_subfolder_and_with_options(repo, run, tmp_path: Path) -> None:
    root = repo({"stacks/a/b.env": "HOST=ana-ml2\n"})
    assert run(root / "stacks" / "a", "verify").exit_code == 1
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert run(elsewhere, "--repo", str(root), "verify").exit_code == 1
    assert run(elsewhere, "verify", "--repo", str(root), "--config",
               str(root / "renamer.yaml")).exit_code == 1
    assert run(elsewhere, "verify", "--repo", str(root / "nope")).exit_code == 2



def test_names_with_digits_that_are_host_names_are_accepted(repo, run) -> None:
    """Digits are fine inside a name and in any label but the last: only a name that reads as an
    address is refused."""
    config = ("version: 1\nallowlist: allow.yaml\nrenames:\n  hosts:\n    ana-ml2: 2fv-ml1\n    host-123: 123-host\n"
              "    ana-ml3.250.ana.lan: fv-ml3.251.fv.lan\n    db0x: x0db\n")
    root = repo({"stacks/a.env": "A=ana-ml2\nB=host-123\nC=ana-ml3.250.ana.lan\n"}, config=config)
    result = run(root, "sweep", "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert "+A=2fv-ml1\n+B=123-host\n+C=fv-ml3.251.fv.lan\n" in result.stdout
