"""Computed addresses through an interface (t31-33 finding 08).

Python's `IF = ip_interface("10.0.48.1/24")` then `IF.network[-2]` moved 10.0.48.254 to 10.0.51.254
under a grow in place with no word, and `IF.network[200]` under a shrink to /25 raised IndexError
after the sweep; Ansible's `'10.0.48.1/24' | ansible.utils.next_nth_usable(199)` (and
`previous_nth_usable`) gave None past the new last usable address: sweep 0, verify OK. Each is
judged now as `ip_network(..)[n]` and `nthhost(n)` are: a value that changes is a residual (exit 1),
one a shrink leaves outside refuses the sweep (exit 3, file:line, nothing written). python runs
the files before and after.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result
from tests.testing.findings import networks_config as _config
from tests.testing.findings import reasons as _findings

ALLOW = 'version: 1\ncurrent: ["**"]\n'


def _python(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "t.py"], cwd=root, capture_output=True, text=True, check=False)


GROW_PY = """\
import ipaddress
IF = ipaddress.ip_interface("10.0.48.1/24")
ROUTER = IF.network[-2]
LAST = IF.network.broadcast_address - 1
GW = IF.network[1]
print(ROUTER, LAST, GW)
"""


def test_an_interface_network_counted_from_the_end_is_a_residual_under_a_grow(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"t.py": GROW_PY}, config=_config("10.0.48.0/24: 10.0.48.0/22"), allowlist=ALLOW)
    assert _python(root).stdout.split() == ["10.0.48.254", "10.0.48.254", "10.0.48.1"]
    expected = [("t.py", 3, "composed-address"), ("t.py", 4, "composed-address")]
    assert _findings(root, run) == expected
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    assert "IF.network[-2]" in done.stdout + done.stderr
    # the definition follows the move; what counts from the end is still said after it
    assert '"10.0.48.1/22"' in (root / "t.py").read_text()
    assert _python(root).stdout.split() == ["10.0.51.254", "10.0.51.254", "10.0.48.1"]
    assert _findings(root, run) == expected
    assert run(root, "verify", "--strict").exit_code == 1


@pytest.mark.parametrize(("networks", "files", "where"), [
    pytest.param("10.0.48.0/24: 10.0.48.0/25",
                 {"t.py": 'import ipaddress\nIF = ipaddress.ip_interface("10.0.48.1/24")\nprint(IF.network[200])\n'},
                 "t.py:3", id="python-interface-24-25"),
    pytest.param('"2001:db8:a::/48": "2001:db8:a::/56"',
                 {"t.py": 'import ipaddress\nIF = ipaddress.IPv6Interface("2001:db8:a::1/48")\n'
                          'print(IF.network.broadcast_address - 1)\n'},
                 "t.py:3", id="python-v6-interface-48-56"),
    pytest.param("10.0.48.0/24: 10.0.48.0/25",
                 {"vars.yml": "printer: \"{{ '10.0.48.1/24' | ansible.utils.next_nth_usable(199) }}\"\n"},
                 "vars.yml:1", id="ansible-next-nth-usable-24-25"),
    pytest.param("10.0.48.0/23: 10.0.48.0/24",
                 {"vars.yml": "gw: \"{{ '10.0.49.254/23' | ansible.utils.previous_nth_usable(2) }}\"\n"},
                 "vars.yml:1", id="ansible-previous-nth-usable-23-24"),
])
def test_an_interface_value_a_shrink_leaves_outside_refuses_the_sweep(
        networks: str, files: dict[str, str], where: str, repo: Callable[..., Path],
        run: Callable[..., Result]) -> None:
    root = repo(files, config=_config(networks), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert f"{where}: outside the new, smaller network" in done.stdout + done.stderr
    for rel, text in files.items():
        assert (root / rel).read_text() == text
    assert run(root, "verify", "--strict").exit_code != 0


def test_an_interface_value_inside_the_shrunk_network_is_rewritten(
        repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    text = "near: \"{{ '10.0.48.1/23' | ansible.utils.next_nth_usable(3) }}\"\n"
    py = 'import ipaddress\nIF = ipaddress.ip_interface("10.0.48.1/23")\nprint(IF.network[20])\n'
    root = repo({"vars.yml": text, "t.py": py}, config=_config("10.0.48.0/23: 10.0.48.0/24"), allowlist=ALLOW)
    assert _python(root).stdout.split() == ["10.0.48.20"]
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "vars.yml").read_text() == text.replace("/23", "/24")
    assert _python(root).stdout.split() == ["10.0.48.20"]
    assert run(root, "verify", "--strict").exit_code == 0
