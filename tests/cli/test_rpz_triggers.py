"""BIND response policy zone IP triggers under a network move (t31-33 finding 03), end to end on real
git repos: the sweep rewrites `24.0.48.0.10.rpz-ip` and its IPv6 `zz` kin by offset, refuses one a
shrink leaves outside, and named-checkzone (BIND's own zone loader) serves the triggers at the new
network after the sweep. Before: "would change 0 files", verify OK, every trigger at the old network.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from tests.testing.repos import Run, make_repo, snapshot

ALLOW = 'version: 1\ncurrent: ["**"]\n'
NAMED = 'options { response-policy { zone "rpz.lab"; }; };\nzone "rpz.lab" { type master; file "db.rpz"; };\n'
ZONE = ("$TTL 60\n@ IN SOA ns.lab. h.lab. 1 3600 600 86400 60\n@ IN NS ns.lab.\n"
        "24.0.48.0.10.rpz-ip        CNAME .\n32.7.48.0.10.rpz-ip        CNAME .\n"
        "24.0.48.0.10.rpz-client-ip CNAME rpz-passthru.\n64.zz.10.a.db8.2001.rpz-ip CNAME .\n"
        "128.5.zz.10.a.db8.2001.rpz-nsip CNAME .\n16.0.0.0.10.rpz-ip CNAME .\n")


def _repo(tmp: Path, files: dict[str, str], networks: str) -> Path:
    config = f"version: 1\nrenames:\n  networks: {{{networks}}}\nallowlist: allow.yaml\n"
    return make_repo(Path(tempfile.mkdtemp(dir=tmp)) / "repo", files, config=config, allowlist=ALLOW)


def _served(root: Path) -> set[str]:
    """The trigger owner names BIND loads from the zone (named-checkzone -D), zone suffix cut."""
    checker = shutil.which("named-checkzone") or "/usr/sbin/named-checkzone"
    done = subprocess.run([checker, "-D", "rpz.lab", str(root / "db.rpz")], capture_output=True, text=True,
                          check=True)
    names = {line.split()[0] for line in done.stdout.splitlines() if ".rpz-" in line.split()[0]}
    return {name.removesuffix(".rpz.lab.") for name in names}


def test_triggers_follow_a_resize_and_a_plain_move(run: Run, tmp_path: Path) -> None:
    """/24 -> 10.0.60.0/22 with /64 -> 2001:db8:b:20::/60 (grow and move), and the equal-length moves:
    the network triggers take the new length, the address triggers (32, 128) keep theirs at their
    offset; `16.0.0.0.10.rpz-ip` (10.0.0.0/16, wider than the move) is left."""
    for networks, v4, v6 in (("10.0.48.0/24: 10.0.60.0/22, 2001:db8:a:10::/64: 2001:db8:b:20::/60", "22", "60"),
                             ("10.0.48.0/24: 10.0.60.0/24, 2001:db8:a:10::/64: 2001:db8:b:20::/64", "24", "64")):
        root = _repo(tmp_path, {"named.conf": NAMED, "db.rpz": ZONE}, networks)
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 0, done.stdout + done.stderr
        assert _served(root) == {f"{v4}.0.60.0.10.rpz-ip", "32.7.60.0.10.rpz-ip", f"{v4}.0.60.0.10.rpz-client-ip",
                                 f"{v6}.zz.20.b.db8.2001.rpz-ip", "128.5.zz.20.b.db8.2001.rpz-nsip",
                                 "16.0.0.0.10.rpz-ip"}
        assert run(root, "verify", "--strict").exit_code == 0


def test_a_trigger_a_shrink_leaves_outside_refuses(run: Run, tmp_path: Path) -> None:
    """/24 -> /25 in place: `25.128.48.0.10.rpz-ip` (10.0.48.128/25) and `32.200.48.0.10.rpz-ip` lie
    outside 10.0.48.0/25: refused, nothing written; /23 -> /24 the same with `24.49.0.10`. IPv6
    /64 -> /65 in place: the /64 trigger becomes a /65 (`65.zz.10.a.db8.2001`)."""
    zone = ZONE + "25.128.48.0.10.rpz-ip CNAME .\n32.200.48.0.10.rpz-ip CNAME .\n"
    root = _repo(tmp_path, {"named.conf": NAMED, "db.rpz": zone}, "10.0.48.0/24: 10.0.48.0/25")
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert snapshot(root) == before
    assert "db.rpz:10: outside the new, smaller network: the RPZ trigger 25.128.48.0.10.rpz-ip " \
           "(10.0.48.128/25;" in done.stderr, done.stderr
    assert "db.rpz:11: outside the new, smaller network: the RPZ trigger 32.200.48.0.10.rpz-ip" in done.stderr
    root = _repo(tmp_path, {"named.conf": NAMED, "db.rpz": ZONE + "24.49.48.0.10.rpz-ip CNAME .\n".replace("49.48", "0.49")},
                 "10.0.48.0/23: 10.0.48.0/24")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert "24.0.49.0.10.rpz-ip" in done.stderr, done.stderr
    root = _repo(tmp_path, {"named.conf": NAMED, "db.rpz": ZONE}, "2001:db8:a:10::/64: 2001:db8:a:10::/65")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert "65.zz.10.a.db8.2001.rpz-ip" in _served(root)


def test_verify_fails_on_a_trigger_left_at_the_old_network(run: Run, tmp_path: Path) -> None:
    root = _repo(tmp_path, {"db.rpz": ZONE}, "10.0.48.0/24: 10.0.60.0/22")  # no named.conf: still read
    checked = run(root, "verify", "--strict")
    assert checked.exit_code == 1, checked.stdout
    assert "db.rpz:4:1" in checked.stdout and "24.0.48.0.10.rpz-ip" in checked.stdout, checked.stdout


# t32-33 finding 14: owners written relative to an `$ORIGIN` that holds `rpz-ip`.
RELATIVE = ("$TTL 60\n@ IN SOA ns.lab. h.lab. 1 3600 600 86400 60\n@ IN NS ns.lab.\n"
            "$ORIGIN rpz-ip.rpz.lab.\n24.0.48.0.10 CNAME .\n32.7.48.0.10 CNAME rpz-passthru.\n"
            "48.zz.a.db8.2001 CNAME .\n64.zz.10.a.db8.2001 CNAME .\n"
            "$ORIGIN rpz.lab.\nns A 127.0.0.1\n$ORIGIN rpz-nsip\n32.9.48.0.10 CNAME .\n")


def test_triggers_relative_to_an_origin_follow(run: Run, tmp_path: Path) -> None:
    """Before: "would change 0 files", verify OK, BIND served 24.0.48.0.10.rpz-ip.rpz.lab. after the
    move. Now the relative owners follow as the absolute ones do (an absolute `$ORIGIN` and one
    relative to the zone's), checked in what named-checkzone serves; verify fails before the sweep."""
    for networks, served in (
            ("10.0.48.0/24: 10.0.60.0/22, 2001:db8:a::/48: 2001:db8:b::/56",
             {"22.0.60.0.10.rpz-ip", "32.7.60.0.10.rpz-ip", "56.zz.b.db8.2001.rpz-ip",
              "64.zz.10.b.db8.2001.rpz-ip", "32.9.60.0.10.rpz-nsip"}),
            ("10.0.48.0/24: 10.0.48.0/25, 2001:db8:a::/48: 2001:db8:a::/52",
             {"25.0.48.0.10.rpz-ip", "32.7.48.0.10.rpz-ip", "52.zz.a.db8.2001.rpz-ip",
              "64.zz.10.a.db8.2001.rpz-ip", "32.9.48.0.10.rpz-nsip"})):
        root = _repo(tmp_path, {"named.conf": NAMED, "db.rpz": RELATIVE}, networks)
        checked = run(root, "verify", "--strict")
        assert checked.exit_code == 1 and "db.rpz:5:1" in checked.stdout, checked.stdout
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 0, done.stdout + done.stderr
        assert _served(root) == served
        assert run(root, "verify", "--strict").exit_code == 0


def test_relative_triggers_a_shrink_leaves_outside_or_the_origin_holds_refuse(run: Run, tmp_path: Path) -> None:
    """/23 -> /24 in place: `24.0.49.0.10` under the origin lies outside: refused (exit 3), nothing
    written. `$ORIGIN 48.0.10.rpz-ip.rpz.lab.` then `24.0`: the move to 10.0.60.0/22 changes labels
    the origin holds: a residual (exit 1), not rewritten, verify fails."""
    zone = RELATIVE.replace("32.7.48.0.10 CNAME", "24.0.49.0.10 CNAME")
    root = _repo(tmp_path, {"db.rpz": zone}, "10.0.48.0/23: 10.0.48.0/24")
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert snapshot(root) == before
    assert "db.rpz:6: outside the new, smaller network: the RPZ trigger 24.0.49.0.10 under $ORIGIN rpz-ip" \
        in done.stderr, done.stderr
    split = ("$TTL 60\n@ IN SOA ns.lab. h.lab. 1 3600 600 86400 60\n@ IN NS ns.lab.\n"
             "$ORIGIN 48.0.10.rpz-ip.rpz.lab.\n24.0 CNAME .\n")
    root = _repo(tmp_path, {"db.rpz": split}, "10.0.48.0/24: 10.0.60.0/22")
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert snapshot(root) == before
    assert "db.rpz:5" in done.stdout + done.stderr and "changes labels the $ORIGIN holds" in done.stdout + done.stderr
    assert run(root, "verify", "--strict").exit_code == 1
