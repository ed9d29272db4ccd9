"""Near-misses that say what they are (adversarial pass 2 B-20, newcomer pass 2 B5): a zero-padded
address (`010.250.050.054`, which inet_aton reads as octal) is a near-miss with why, never passed
in silence nor rewritten; a part-of-name near-miss names the longer name it stands in, not the old
value twice. End to end through the CLI on a real git repo."""

from __future__ import annotations

import json

from tests.testing.repos import git, snapshot

CONFIG = ("version: 1\nrenames:\n  hosts:\n    pihole0: dns-a\n    pi-hole-primary: dns-b\n"
          "  addresses:\n    10.250.50.54: 10.251.50.54\n    10.0.5.1: 10.1.5.1\nallowlist: allow.yaml\n")
ALLOW = "version: 1\ncurrent: ['**']\n"
FILES = {
    "net/hosts.conf": "a 010.250.050.054\nb 10.250.50.054\nc 10.0.05.1\nd 110.250.50.54 10.250.50.540\n",
    "lxc/main.tf": "resource x {\n  vmid = var.pi-hole-primary_lxcid\n}\n",
    "keepalived/apply.sh": "systemctl restart keepalived-pihole0\n",
}


def test_zero_padded_addresses_and_longer_names_are_near_misses_that_read_right(repo, run) -> None:
    root = repo(FILES, config=CONFIG, allowlist=ALLOW)
    verified = run(root, "verify")
    assert verified.exit_code == 0, verified.stdout
    warnings = sorted(line for line in verified.stdout.splitlines() if ": warning: " in line)
    assert warnings == [
        "keepalived/apply.sh:1:30: warning: near-miss (part-of-name): 'keepalived-pihole0' holds 'pihole0' "
        "inside a longer name, which the exact rules do not match",
        "lxc/main.tf:2:14: warning: near-miss (letter-right): 'var.pi-hole-primary_lxcid' holds "
        "'pi-hole-primary' inside a longer name, which the exact rules do not match",
        "net/hosts.conf:1:3: warning: near-miss (zero-padded): '010.250.050.054' looks like '10.250.50.54' "
        "but is zero-padded, which the exact rules do not match: inet_aton (ping, curl, glibc) reads 010 as "
        "8, 050 as 40, 054 as 44 (octal), other readers as decimal: another address to each; write it "
        "without leading zeros",
        "net/hosts.conf:2:3: warning: near-miss (zero-padded): '10.250.50.054' looks like '10.250.50.54' "
        "but is zero-padded, which the exact rules do not match: inet_aton (ping, curl, glibc) reads 054 as "
        "44 (octal), other readers as decimal: another address to each; write it without leading zeros",
        "net/hosts.conf:3:3: warning: near-miss (zero-padded): '10.0.05.1' looks like '10.0.5.1' but is "
        "zero-padded, which the exact rules do not match: the same address in octal and in decimal, but "
        "some readers (Python's ipaddress) refuse leading zeros; write it without them",
    ]
    strict = run(root, "verify", "--strict")
    assert strict.exit_code == 1
    data = json.loads(run(root, "verify", "--format", "json").stdout)
    assert sorted((m["text"], m["why"], m["name"]) for m in data["near_misses"]) == [
        ("010.250.050.054", "zero-padded", ""), ("10.0.05.1", "zero-padded", ""),
        ("10.250.50.054", "zero-padded", ""), ("pi-hole-primary", "letter-right", "var.pi-hole-primary_lxcid"),
        ("pihole0", "part-of-name", "keepalived-pihole0")]
    explained = run(root, "explain", "net/hosts.conf:2").stdout
    assert "10.250.50.054: near-miss: looks like '10.250.50.54' (zero-padded), which the exact rules" in explained
    shown = run(root, "explain", "keepalived/apply.sh").stdout
    assert "'keepalived-pihole0' holds 'pihole0' inside a longer name (part-of-name)" in shown
    dry = run(root, "sweep", "--dry-run", "--format", "json")
    assert json.loads(dry.stdout)["summary"]["near_misses"] == 5
    before = snapshot(root)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert snapshot(root) == before and git(root, "status", "--porcelain") == ""  # nothing rewritten
