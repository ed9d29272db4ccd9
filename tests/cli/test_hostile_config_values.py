"""Hostile values in renamer.yaml, an allowlist and `init --from` (break-it round 6): every
address, host name, path and path pattern is checked where the configuration is loaded, so each
gives one line `renamer: error: FILE:LINE: KEY: ...` and exit 2 (a configuration error), never an
"internal error", and nothing is written."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import git, snapshot

CONFIG = """\
version: 1
renames:
  hosts: HOSTS
  addresses: ADDRESSES
allowlist: ALLOWLIST
dns: DNS
"""
DEFAULTS = {"HOSTS": "{ana-ml2: fv-ml1}", "ADDRESSES": "{10.250.50.54: 10.251.50.54}",
            "ALLOWLIST": "allow.yaml", "DNS": "dns/"}

ALLOW = """\
version: 1
current: [CURRENT]
exclude: [EXCLUDE]
records:
  - name: r
    paths: [RECORDS]
    reason: old
keep:
  - name: k
    path: KEEP
    reason: r
"""
ALLOW_DEFAULTS = {"CURRENT": '"**"', "EXCLUDE": '"vendor/**"', "RECORDS": '"old/**"', "KEEP": "x.txt"}

LONG = "x" * 5000
R, A = "renamer.yaml", "allow.yaml"

CASES = (
    # addresses: Python's ipaddress takes a zone; nothing that renders one does
    pytest.param(R, "ADDRESSES", '{10.250.50.54: "fe80::1%eth0"}', 4, "renames.addresses.10.250.50.54",
                 id="scoped-ipv6-new"),
    pytest.param(R, "ADDRESSES", '{"fe80::1%eth0": "fe80::2"}', 4, "renames.addresses.fe80::1%eth0",
                 id="scoped-ipv6-old"),
    pytest.param(R, "ADDRESSES", '{"fe80::1%25eth0": "fe80::2"}', 4, "renames.addresses.fe80::1%25eth0",
                 id="scoped-ipv6-url-escaped"),
    pytest.param(R, "ADDRESSES", '{10.250.50.54: "10.0.0.1\\0"}', 4, "renames.addresses.10.250.50.54",
                 id="address-nul"),
    pytest.param(R, "ADDRESSES", '{10.250.50.54: "\\udcff"}', 4, "renames.addresses.10.250.50.54",
                 id="address-surrogate"),
    pytest.param(R, "ADDRESSES", f'{{10.250.50.54: "{LONG}"}}', 4, "renames.addresses.10.250.50.54",
                 id="address-over-long"),
    pytest.param(R, "HOSTS", '{ana-ml2: "fv\\udcffml1"}', 3, "renames.hosts.ana-ml2", id="host-surrogate"),
    pytest.param(R, "HOSTS", '{ana-ml2: "fv-ml1\\0"}', 3, "renames.hosts.ana-ml2", id="host-nul"),
    pytest.param(R, "HOSTS", f'{{ana-ml2: "{LONG}"}}', 3, "renames.hosts.ana-ml2", id="host-over-long"),
    pytest.param(R, "DNS", '"\\udcff"', 6, "dns", id="dns-surrogate"),
    pytest.param(R, "DNS", '"dns/\\0"', 6, "dns", id="dns-nul"),
    pytest.param(R, "DNS", f'"{LONG}"', 6, "dns", id="dns-over-long"),
    pytest.param(R, "ALLOWLIST", '"\\udcff.yaml"', 5, "allowlist", id="allowlist-surrogate"),
    # path patterns, as git's wildmatch reads them
    pytest.param(A, "CURRENT", '"[z-a]"', 2, "current[0]", id="reversed-range"),
    pytest.param(A, "CURRENT", '"a\\\\"', 2, "current[0]", id="trailing-backslash"),
    pytest.param(A, "CURRENT", '"["', 2, "current[0]", id="lone-bracket"),
    pytest.param(A, "CURRENT", '"[!"', 2, "current[0]", id="lone-negated-bracket"),
    pytest.param(A, "CURRENT", '"**/["', 2, "current[0]", id="bracket-after-globstar"),
    pytest.param(A, "CURRENT", '"**", "docs/[a-"', 2, "current[1]", id="second-item-open-range"),
    pytest.param(A, "CURRENT", '"[[:foo:]]"', 2, "current[0]", id="python-set-no-git-class"),
    pytest.param(A, "CURRENT", '"a\\0b"', 2, "current[0]", id="pattern-nul"),
    pytest.param(A, "CURRENT", '"\\udcff"', 2, "current[0]", id="current-surrogate"),
    pytest.param(A, "CURRENT", f'"{LONG}"', 2, "current[0]", id="pattern-over-long"),
    pytest.param(A, "EXCLUDE", '"\\udcff"', 3, "exclude[0]", id="exclude-surrogate"),
    pytest.param(A, "EXCLUDE", '"["', 3, "exclude[0]", id="exclude-bracket"),
    pytest.param(A, "RECORDS", '"old/[9-0]*"', 6, "records[0].paths[0]", id="records-reversed-range"),
    pytest.param(A, "KEEP", '"\\udcff"', 10, "keep[0].path", id="keep-path-surrogate"),
    pytest.param(A, "KEEP", '"**/["', 10, "keep[0].path", id="keep-path-bracket"),
)


@pytest.mark.parametrize("command", (pytest.param(("sweep", "--commit"), id="sweep"),
                                     pytest.param(("verify",), id="verify")))
@pytest.mark.parametrize(("file", "slot", "value", "line", "key"), CASES)
def test_a_hostile_value_is_one_line_naming_file_line_and_key(
        file: str, slot: str, value: str, line: int, key: str, command: tuple[str, ...],
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    config, allow = CONFIG, ALLOW
    for name, default in DEFAULTS.items():
        config = config.replace(name, value if (file, slot) == (R, name) else default)
    for name, default in ALLOW_DEFAULTS.items():
        allow = allow.replace(name, value if (file, slot) == (A, name) else default)
    root = repo({"a.txt": "host ana-ml2\n"}, config=config, allowlist=allow)
    before, head = snapshot(root), git(root, "rev-parse", "HEAD")
    done = run(root, *command)
    assert done.exit_code == 2, done.stdout + done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith(f"renamer: error: {file}:{line}: {key}: "), done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    assert snapshot(root) == before and git(root, "rev-parse", "HEAD") == head


@pytest.mark.parametrize(("pair", "why"), (
    pytest.param("fe80::1%eth0=fe80::2", "is a scoped address", id="scoped-old"),
    pytest.param("fe80::2=fe80::1%eth0", "is a scoped address", id="scoped-new"),
    pytest.param("10.0.0.5=::1", "maps IPv4 to IPv6", id="family"),
    pytest.param("pug.=wolf.", "a trailing dot", id="trailing-dots"),
    pytest.param("pug=wolf.", "a trailing dot", id="one-trailing-dot"),
    pytest.param("pug=10.0.0.1", "maps a host name to an address", id="host-to-address"),
    pytest.param("pug=pug", "old and new are the same", id="same"),
    pytest.param("pug=wo\0lf", "invalid host name", id="nul"),
    pytest.param("pug=wo\udcfflf", "invalid host name", id="surrogate"),
    pytest.param(f"pug={LONG}", "", id="over-long"),
))
def test_a_bad_init_from_is_refused_before_anything_is_written(pair: str, why: str, tmp_path: Path,
                                                              run: Callable[..., Result]) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    (root / "a.txt").write_text("pug\n")
    done = run(root, "init", "--from", pair)
    assert done.exit_code == 2, done.stdout + done.stderr
    line, = done.stderr.splitlines()
    assert line.startswith(f"renamer: error: --from {pair[:20]!r}"[:-1]) or line.startswith("renamer: error: --from ")
    assert why in line and line.endswith("nothing written"), line
    assert "renamer.yaml:" not in line
    assert sorted(p.name for p in root.iterdir()) == [".git", "a.txt"]  # no allowlists/ folder either
