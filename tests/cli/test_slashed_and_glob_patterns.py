"""Address patterns the sweep did not read (t33-33 findings 05, 16; address_patterns.py), end to end
on real git repos.

05: a regex closed by its `/` delimiter (Grafana's template-variable `"regex": "/10\\.0\\.48\\.[0-9]+/"`,
the same provisioned in YAML, a JS literal `/^10\\.0\\.48\\.\\d+/i`) took the closing slash into the
token, which then matched no address: under a grow no residual, under an equal-length move not
rewritten; sweep 0, verify OK. 16: hosts_access(5) `10.0.48.??` (`?` one character, as tcpd's
fnmatch reads it) was read as a regex matching nothing, the same two ways. What each pattern matches
after the sweep is asked of its consumer: node evaluates the JS literal, Python's re the Grafana
regex (Grafana strips the slashes, JavaScript semantics), fnmatch the tcpd pattern.
"""

from __future__ import annotations

import fnmatch
import json
import re
import subprocess

import pytest
import yaml

from tests.testing.findings import networks_config
from tests.testing.repos import Repo, Run

ALLOW = 'version: 1\ncurrent: ["**"]\n'
DASHBOARD = ('{"title": "Nodes", "templating": {"list": [{"name": "host", "type": "query", '
             '"query": "label_values(up, instance)", "regex": "/10\\\\.0\\\\.48\\\\.[0-9]+/"}]}}\n')
PROVISIONED = "templating:\n  list:\n    - name: host\n      regex: /^10\\.0\\.48\\./\n"
LAN_JS = "export const isLan = (ip) => /^10\\.0\\.48\\.\\d+/i.test(ip);\n"
HOSTS_ALLOW = "sshd: 10.0.48.*\nin.tftpd: 10.0.48.??\nrsync: 10.0.48.1??\n"
FILES = {"dashboard.json": DASHBOARD, "dashboard.yaml": PROVISIONED, "lan.js": LAN_JS, "hosts.allow": HOSTS_ALLOW}


def _js(source: str, address: str) -> bool:
    """The literal of `lan.js` asked by node itself."""
    code = source.replace("export const", "const") + f"\nprocess.stdout.write(String(isLan({address!r})));\n"
    done = subprocess.run(["node", "-e", code], capture_output=True, text=True, check=True)
    return done.stdout == "true"


def _grafana(text: str, address: str) -> bool:
    """Grafana's regex variable: the text between the slashes, searched (no anchors of its own)."""
    regex = json.loads(text)["templating"]["list"][0]["regex"]
    return re.search(regex.strip("/"), address) is not None


def _tcpd(text: str, daemon: str, address: str) -> bool:
    """hosts_access(5): `daemon: pattern`, a pattern with `*`/`?` matched as fnmatch does."""
    line = next(row for row in text.splitlines() if row.startswith(f"{daemon}:"))
    return fnmatch.fnmatchcase(address, line.split(":", 1)[1].strip())


def test_an_equal_length_move_rewrites_them(repo: Repo, run: Run) -> None:
    root = repo(FILES, config=networks_config("10.0.48.0/24: 10.0.60.0/24"), allowlist=ALLOW)
    assert _js(LAN_JS, "10.0.48.7") and _grafana(DASHBOARD, "10.0.48.7") and _tcpd(HOSTS_ALLOW, "in.tftpd", "10.0.48.42")
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    for name, text in FILES.items():
        assert (root / name).read_text() == text.replace("10\\.0\\.48", "10\\.0\\.60").replace(
            "10\\\\.0\\\\.48", "10\\\\.0\\\\.60").replace("10.0.48.", "10.0.60."), name
    js, board, allow = ((root / n).read_text() for n in ("lan.js", "dashboard.json", "hosts.allow"))
    for old, new in (("10.0.48.7", "10.0.60.7"), ("10.0.48.42", "10.0.60.42"), ("10.0.48.150", "10.0.60.150")):
        assert _js(js, new) and not _js(js, old)
        assert _grafana(board, new) and not _grafana(board, old)
    assert _tcpd(allow, "in.tftpd", "10.0.60.42") and not _tcpd(allow, "in.tftpd", "10.0.48.42")
    assert not _tcpd(allow, "in.tftpd", "10.0.60.142")  # still two characters: .10-.99
    assert _tcpd(allow, "rsync", "10.0.60.142") and not _tcpd(allow, "rsync", "10.0.60.42")
    assert yaml.safe_load((root / "dashboard.yaml").read_text())["templating"]["list"][0]["regex"] == \
        "/^10\\.0\\.60\\./"
    assert run(root, "verify", "--strict").exit_code == 0


@pytest.mark.parametrize("new", ["10.0.60.0/22", "10.0.48.0/22"])
def test_a_grow_leaves_them_as_pattern_residuals(repo: Repo, run: Run, new: str) -> None:
    """The head names all of the /24, and the same head only a quarter of the /22: no text
    substitution says what the pattern should become (a residual, the file left as it is)."""
    root = repo(FILES, config=networks_config(f"10.0.48.0/24: {new}"), allowlist=ALLOW)
    dry = run(root, "sweep", "--dry-run", "--strict")
    assert dry.exit_code == 1, dry.stdout + dry.stderr
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout + done.stderr
    for name, text in FILES.items():
        assert (root / name).read_text() == text, name
    out = run(root, "verify", "--strict")
    assert out.exit_code == 1
    for where in ("dashboard.json:1:128", "dashboard.yaml:4:16", "lan.js:1:32", "hosts.allow:1:7",
                  "hosts.allow:2:11", "hosts.allow:3:8"):
        assert f"{where}: residual (pattern): 10.0.48.0/24 -> {new}" in out.stdout, (where, out.stdout)
    assert "the same head names only 256 of its 1024 addresses" in out.stdout


def test_a_regex_of_another_network_is_no_hit(repo: Repo, run: Run) -> None:
    other = {"lan.js": LAN_JS.replace("48", "49"), "hosts.allow": "in.tftpd: 10.0.49.??\n"}
    root = repo(other, config=networks_config("10.0.48.0/24: 10.0.60.0/22"), allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    for name, text in other.items():
        assert (root / name).read_text() == text
    assert run(root, "verify", "--strict").exit_code == 0
