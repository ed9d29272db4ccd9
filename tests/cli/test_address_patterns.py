"""IPv4 addresses written as regular expressions or globs (break-it round 16, #4).

ironicbadger/infra's Grafana probe `instance=~"10.42.1.(91|92|93|10):(22|8006)"` was missed both by a
plain address rename (10.42.1.91 -> .95: one Proxmox node dropped from the panel) and by a network
renumber (10.42.0.0/21 -> 10.43.0.0/21: the panel matched nothing), verify OK. Under `networks` no
address pattern was seen at all. Now a pattern whose literal head lies inside a renamed network is
rewritten head first (what it matches moves with the network, offsets kept); one that may match
inside and outside it is a residual `pattern` unless it covers the moved addresses too; and a renamed
address's last octet written as one alternative is rewritten where the others keep what they match.
Each rewritten regex is run after the sweep on the moved addresses (Python's `re`, as Prometheus'
RE2 reads these), and `grep -E` runs the shell's.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from tests.testing.repos import Repo, Run

ALLOW = 'version: 1\ncurrent: ["**"]\n'
NETWORK = "version: 1\nrenames:\n  networks: {10.0.40.0/24: 10.0.50.0/24}\nallowlist: allow.yaml\n"
WIDE = "version: 1\nrenames:\n  networks: {10.42.0.0/21: 10.43.0.0/21}\nallowlist: allow.yaml\n"
ADDRESS = "version: 1\nrenames:\n  addresses: {10.42.1.91: 10.42.1.95}\nallowlist: allow.yaml\n"
MOVING = "version: 1\nrenames:\n  addresses: {10.0.40.11: 10.0.50.21}\nallowlist: allow.yaml\n"
PROBE = '{"expr": "probe_success{job=\\"blackbox_tcp\\",instance=~\\"10.42.1.(91|92|93|10):(22|8006)\\"}"}\n'


def _findings(root: Path, run: Run) -> list[tuple[str, int, str]]:
    done = run(root, "verify", "--format", "json")
    return [(f["path"], f["line"], f["reason"]) for f in json.loads(done.stdout)["findings"]]


def _expr(root: Path) -> str:
    """The probe's regex, as Prometheus reads it out of the dashboard's JSON."""
    expr = json.loads((root / "dash.json").read_text())["expr"]
    found = re.search(r'instance=~"([^"]*)"', expr)
    assert found is not None
    return found.group(1)


def test_the_real_probe_follows_a_network_renumber(repo: Repo, run: Run) -> None:
    root = repo({"dash.json": PROBE}, config=WIDE, allowlist=ALLOW)
    explained = run(root, "explain", "dash.json:1").stdout
    assert ("10.42.1 -> 10.43.1: rewritten: current-state file, an address pattern whose literal head `10.42.1` "
            "lies in the renamed network 10.42.0.0/21") in explained
    assert run(root, "sweep", "--commit").exit_code == 0
    regex = _expr(root)
    assert regex == "10.43.1.(91|92|93|10):(22|8006)"
    for last in (91, 92, 93, 10):
        assert re.fullmatch(regex, f"10.43.1.{last}:8006") and not re.fullmatch(regex, f"10.42.1.{last}:8006")
    assert run(root, "verify").exit_code == 0


def test_the_real_probe_follows_a_renamed_address_keeping_the_others(repo: Repo, run: Run) -> None:
    root = repo({"dash.json": PROBE}, config=ADDRESS, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    regex = _expr(root)
    assert regex == "10.42.1.(95|92|93|10):(22|8006)"
    assert [last for last in range(256) if re.fullmatch(regex, f"10.42.1.{last}:22")] == [10, 92, 93, 95]
    assert run(root, "verify").exit_code == 0


# Under 10.0.40.0/24 -> 10.0.50.0/24: (file, text, what the sweep writes); each is matched again below.
NETWORK_CASES = [
    pytest.param("rules.yml", 'expr: up{instance=~"10.0.40.(11|12):9100"}\n',
                 'expr: up{instance=~"10.0.50.(11|12):9100"}\n', id="promql-alternation"),
    pytest.param("rules.yml", 'expr: up{instance=~"10\\\\.0\\\\.40\\\\.[0-9]+:9100"}\n',
                 'expr: up{instance=~"10\\\\.0\\\\.50\\\\.[0-9]+:9100"}\n', id="yaml-escaped-class"),
    pytest.param("rules.yml", 'expr: up{instance=~"10.0.40..*"}\n', 'expr: up{instance=~"10.0.50..*"}\n',
                 id="any-after-the-head"),
    pytest.param("relabel.yml", "- source_labels: [__address__]\n  regex: '10\\.0\\.40\\.(?:11|12)'\n",
                 "- source_labels: [__address__]\n  regex: '10\\.0\\.50\\.(?:11|12)'\n", id="relabel-group"),
    pytest.param("nginx.conf", 'if ($remote_addr ~ "^10\\.0\\.40\\.") { return 403; }\n',
                 'if ($remote_addr ~ "^10\\.0\\.50\\.") { return 403; }\n', id="nginx-prefix"),
    pytest.param("haproxy.cfg", "acl lab src -m reg ^10\\.0\\.40\\.[0-9]{1,3}$\n",
                 "acl lab src -m reg ^10\\.0\\.50\\.[0-9]{1,3}$\n", id="haproxy-bounded"),
    pytest.param("check.sh", 'grep -E "^10\\.0\\.40\\.(11|12) " /etc/hosts\n',
                 'grep -E "^10\\.0\\.50\\.(11|12) " /etc/hosts\n', id="grep-alternation"),
    pytest.param("jail.local", "failregex = ^<HOST> .* 10\\.0\\.40\\.11$\n",
                 "failregex = ^<HOST> .* 10\\.0\\.50\\.11$\n", id="escaped-address"),
    pytest.param("hosts.txt", "allow 10.0.40.*\n", "allow 10.0.50.*\n", id="glob"),
]


@pytest.mark.parametrize(("path", "text", "written"), NETWORK_CASES)
def test_an_address_pattern_inside_a_renamed_network_moves_with_it(path: str, text: str, written: str,
                                                                     repo: Repo, run: Run) -> None:
    root = repo({path: text}, config=NETWORK, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / path).read_text() == written
    assert _findings(root, run) == []


def test_grep_reads_the_moved_pattern_as_it_read_the_old(repo: Repo, run: Run, tmp_path: Path) -> None:
    root = repo({"check.sh": 'grep -E "^10\\.0\\.40\\.(11|12) " "$1"\n'}, config=NETWORK, allowlist=ALLOW)
    hosts = tmp_path / "hosts"
    hosts.write_text("".join(f"10.0.{net}.{last} h{last}\n" for net in (40, 50) for last in (11, 12, 13)))
    before = subprocess.run(["sh", str(root / "check.sh"), str(hosts)], capture_output=True, text=True).stdout
    assert run(root, "sweep", "--commit").exit_code == 0
    after = subprocess.run(["sh", str(root / "check.sh"), str(hosts)], capture_output=True, text=True).stdout
    assert before.splitlines() == ["10.0.40.11 h11", "10.0.40.12 h12"]
    assert after.splitlines() == ["10.0.50.11 h11", "10.0.50.12 h12"]


@pytest.mark.parametrize(("config", "text"), [
    # a block wider than the network, matching inside it and not its moved addresses
    pytest.param(NETWORK, "regex: '10\\.0\\.4[0-9]\\.[0-9]+'\n", id="wider-class-in-the-third-octet"),
    pytest.param(NETWORK, "regex: '10\\.0\\.[3-4][0-9]\\.11'\n", id="wider-range"),
    pytest.param(NETWORK, "allow 10.0.4.*\n", id="a-glob-whose-octet-may-go-on"),
    # a /21 whose head (10.42.1) is inside, but the pattern also names a third octet outside it
    pytest.param(WIDE, "regex: '10\\.42\\.(1|9)\\.10'\n", id="alternation-across-the-network-edge"),
    # a /28 inside a /24 head: 10.0.40.1x is 10.0.40.16/28's and not
    pytest.param("version: 1\nrenames:\n  networks: {10.0.40.16/28: 10.0.50.32/28}\nallowlist: allow.yaml\n",
                 "regex: '10.0.40.1[0-9]'\n", id="a-small-network-and-its-offsets"),
    # plain renames: the head moves with the address, or two alternatives would become one
    pytest.param(MOVING, 'expr: up{instance=~"10.0.40.(11|12):(22|8006)"}\n', id="the-head-moves"),
    pytest.param(MOVING, "if ($remote_addr ~ \"^10\\.0\\.40\\.\") { return 403; }\n", id="nginx-prefix-of-an-address"),
])
def test_a_pattern_that_cannot_follow_is_a_residual(config: str, text: str, repo: Repo, run: Run) -> None:
    root = repo({"f.yml": text}, config=config, allowlist=ALLOW)
    assert _findings(root, run) == [("f.yml", 1, "pattern")]
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / "f.yml").read_text() == text


@pytest.mark.parametrize(("config", "text"), [
    pytest.param(NETWORK, "regex: '10\\.0\\.[0-9]+\\.[0-9]+'\n", id="covers-both-networks"),
    pytest.param(NETWORK, "regex: '10\\.0\\.41\\.[0-9]+'\n", id="another-network"),
    pytest.param(NETWORK, "regex: '10\\.0\\.[0-9]+\\.11'\n", id="covers-old-and-moved"),
    pytest.param(NETWORK, "Ends with the net 10.0.40.\n", id="a-sentence-s-dot"),
    pytest.param("version: 1\nrenames:\n  networks: {10.0.0.0/8: 11.0.0.0/8}\nallowlist: allow.yaml\n",
                 "match: '10\\.0\\.(1|2)$'\n", id="a-version-regex-matching-no-address"),
    pytest.param(ADDRESS, "regex: '10\\.42\\.1\\.(11|12)'\n", id="alternatives-without-the-address"),
    # the new address is an alternative already: the pattern matches the machine after its move
    pytest.param(ADDRESS.replace("10.42.1.95", "10.42.1.92"), "regex: '10\\.42\\.1\\.(91|92)'\n",
                 id="the-new-address-is-an-alternative"),
    pytest.param(ADDRESS, "if ($remote_addr ~ \"^10\\.42\\.1\\.\") { return 403; }\n", id="prefix-covering-the-new"),
])
def test_a_pattern_the_move_does_not_touch_is_left(config: str, text: str, repo: Repo, run: Run) -> None:
    root = repo({"f.yml": text}, config=config, allowlist=ALLOW)
    assert _findings(root, run) == []
    run(root, "sweep", "--commit")
    assert (root / "f.yml").read_text() == text
