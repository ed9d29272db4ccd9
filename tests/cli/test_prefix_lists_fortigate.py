"""FortiGate `config router prefix-list` / `prefix-list6` rules whose `set ge` / `set le` stand on
lines of their own inside `edit N` (t33-33 finding 03; prefix_lists._forti_hits), end to end on real git
repos. Before: the rule's prefix was rewritten (mask 255.255.255.192, /60) with ge 25 / ge 56 kept,
sweep 0, verify OK: no route inside the new network can have length 25 (56..59). FortiOS is not
installed: its rule (as FRR's: the prefix's length < ge <= le) is checked in Python on what is written.
"""

from __future__ import annotations

import ipaddress
import re
import tempfile
from pathlib import Path

import pytest

from tests.testing.repos import Run, make_repo, snapshot

ALLOW = 'version: 1\ncurrent: ["**"]\n'
FORTI = """\
config router prefix-list
    edit "LAN"
        config rule
            edit 1
                set prefix 10.0.48.0 255.255.255.0
                set ge 25
                set le 28
            next
            edit 2
                set prefix 10.0.48.0 255.255.255.0
            next
        end
    next
end
config router prefix-list6
    edit "LAN6"
        config rule
            edit 1
                set prefix6 2001:db8:a::/48
                set ge 56
                set le 64
            next
        end
    next
end
"""


def _repo(tmp: Path, files: dict[str, str], networks: str) -> Path:
    config = f"version: 1\nrenames:\n  networks: {{{networks}}}\nallowlist: allow.yaml\n"
    return make_repo(Path(tempfile.mkdtemp(dir=tmp)) / "repo", files, config=config, allowlist=ALLOW)


def _rules(text: str) -> list[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, int | None, int | None]]:
    """Each `edit` rule with a prefix: (network, ge, le), as FortiOS reads the block."""
    out = []
    for block in re.findall(r"edit \d+\n(.*?)\n\s*next", text, re.S):
        net = re.search(r"set prefix6? (\S+)(?: (\S+))?", block)
        if net is None:
            continue
        spelled = f"{net.group(1)}/{net.group(2)}" if net.group(2) else net.group(1)
        ge, le = re.search(r"set ge (\d+)", block), re.search(r"set le (\d+)", block)
        out.append((ipaddress.ip_network(spelled), int(ge.group(1)) if ge else None, int(le.group(1)) if le else None))
    return out


@pytest.mark.parametrize("networks", [
    "10.0.48.0/24: 10.0.48.0/26, 2001:db8:a::/48: 2001:db8:a::/60",  # the repro
    "10.0.48.0/24: 10.0.48.0/27",
])
def test_fortigate_bounds_the_new_length_passes_refuse(run: Run, tmp_path: Path, networks: str) -> None:
    root = _repo(tmp_path, {"fortigate.conf": FORTI}, networks)
    before = snapshot(root)
    assert run(root, "sweep", "--dry-run", "--strict").exit_code == 3
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert snapshot(root) == before
    assert "fortigate.conf:5: tool-refuses: `10.0.48.0 255.255.255.0`: its rule's set ge 25 and set le 28 are " \
           "prefix lengths of their own" in done.stderr, done.stderr
    if "2001" in networks:
        assert "fortigate.conf:19: tool-refuses: `2001:db8:a::/48`: its rule's set ge 56 and set le 64" in done.stderr
        assert "2 places in 1 file would no longer parse" in done.stderr, done.stderr
    assert "fortigate.conf:10" not in done.stderr  # rule 2 has no bounds: the exact network follows
    assert "Traceback" not in done.stderr
    assert run(root, "verify", "--strict").exit_code == 1


def test_fortigate_bounds_a_resize_that_loads_is_a_residual(run: Run, tmp_path: Path) -> None:
    """/24 -> /25 (ge 25 still loads) and a grow /24 -> /22 select other prefixes: residuals, the rule
    left whole; rule 2 (no bounds) follows, and every rule FortiOS would load keeps len <= ge <= le."""
    for new in ("10.0.48.0/25", "10.0.48.0/22"):
        root = _repo(tmp_path, {"fortigate.conf": FORTI}, f"10.0.48.0/24: {new}")
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 1, done.stdout + done.stderr
        text = (root / "fortigate.conf").read_text()
        out = run(root, "verify", "--strict")
        assert out.exit_code == 1
        assert "fortigate.conf:5:28: residual (tied-length): 10.0.48.0 255.255.255.0" in out.stdout, out.stdout
        rules = _rules(text)
        assert rules[0] == (ipaddress.ip_network("10.0.48.0/24"), 25, 28)  # left whole, never half rewritten
        assert rules[1] == (ipaddress.ip_network(new), None, None)
        assert all(ge is None or net.prefixlen <= ge for net, ge, _ in rules)
