"""A sweep that writes runs the looser pass too: a residual only that pass finds (a DNS name in
another case where a file makes a DNS record) is listed and makes `sweep --commit` exit 1, as
`verify` fails on it; before, the writing sweep said OK and exited 0 (n27-nets' report, round 25)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.repos import Files, git, make_repo

CONFIG = "version: 1\nrenames:\n  hosts:\n    hermes: apollo\nallowlist: allow.yaml\n"
ALLOW = "version: 1\ncurrent: ['**']\n"
FILES: Files = {
    "hosts": "hermes ansible_host=10.0.0.70\n",
    "dns.ps1": 'Add-DnsServerResourceRecordA -ZoneName lab.example -Name "HERMES" -IPv4Address 10.0.0.70\r\n',
    "dns.tf": 'resource "dns_a_record_set" "h" {\n  zone = "lab.example."\n  name = "HERMES"\n}\n',
}


@pytest.mark.parametrize("args", [("sweep", "--commit"), ("sweep",)])
def test_a_residual_of_the_looser_pass_fails_the_writing_sweep_as_it_fails_verify(
        tmp_path: Path, run: Callable[..., Result], args: tuple[str, ...]) -> None:
    root = make_repo(tmp_path / "repo", FILES, config=CONFIG, allowlist=ALLOW)
    dry = run(root, "sweep", "--dry-run")
    assert dry.exit_code == 0, dry.stderr
    assert "Residual, left for you (2):" in dry.stdout
    written = run(root, *args)
    assert written.exit_code == 1, written.stdout + written.stderr
    assert "Residual, left for you (2):" in written.stdout
    assert "dns.ps1:1:" in written.stdout and "dns.tf:3:" in written.stdout
    assert "left for a decision: 2" in written.stderr
    assert (root / "hosts").read_text() == "apollo ansible_host=10.0.0.70\n"  # what it could, it wrote
    assert (root / "dns.ps1").read_bytes() == str(FILES["dns.ps1"]).encode()
    if "--commit" not in args:
        git(root, "commit", "-qam", "swept")
    verify = run(root, "verify")
    assert verify.exit_code == 1 and "2 residual" in verify.stdout + verify.stderr
