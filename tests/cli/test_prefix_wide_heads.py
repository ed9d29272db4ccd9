"""An IPv4 head wider than the moved network (issue 27, g31: the gap docs/matching.md named under
"Prefix values": `10.0` under a 10.0.0.0/24 move).

Under `10.0.0.0/24 -> 192.168.5.0/24`, `ip.startswith("10.0.")`, `LIKE '10.0.%'` and
`"10.0." ~ octet3` admitted or built the old network's addresses and refuse the new ones; the
sweep said nothing, verify OK (`^10\\.0\\.` as a regex and `10.0.*` as a glob were `pattern`
residuals already). Now such a head, with its final dot, as a whole quoted string or before a SQL
wildcard or a template, is a residual `prefix` naming the block, the moved network and the new one,
in a file holding no old value too; nothing is rewritten. Where the block holds the new network as
well (`-> 10.0.1.0/24`) the test admits the moved addresses as before: nothing is said. `10.0`
without its dot and a version's key stay quiet.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

ALLOW = "version: 1\ncurrent: ['**']\n"


def _conf(new: str) -> str:
    return f"version: 1\nrenames:\n  networks: {{10.0.0.0/24: {new}}}\nallowlist: allow.yaml\n"


CASES = [
    pytest.param("check.py", b'def internal(ip):\n    return ip.startswith("10.0.")\n', 2, "10.0.", id="python"),
    pytest.param("check.js", b"if (ip.startsWith('10.0.')) { allow(); }\r\n", 1, "10.0.", id="js-crlf"),
    pytest.param("net.go", b'if strings.HasPrefix(addr, "10.0.") {\n\treturn true\n}\n', 1, "10.0.", id="go"),
    pytest.param("lab.rb", b"# r\xe9seau\nlab = ip.start_with?('10.')\n", 2, "10.", id="ruby-one-octet-latin1"),
    pytest.param("q.sql", b"SELECT name FROM hosts WHERE ip LIKE '10.0.%';\n", 1, "10.0.", id="sql-like"),
    pytest.param("addr.j2", b'address {{ "10.0." ~ octet3 ~ "." ~ octet4 }}\n', 1, "10.0.", id="jinja-concat"),
]


@pytest.mark.parametrize("native", ["0", "1"])
@pytest.mark.parametrize("rel, text, line, head", CASES)
def test_g31_a_wider_head_a_move_leaves_is_a_residual(rel: str, text: bytes, line: int, head: str, native: str,
                                                      repo: Callable[..., Path], run: Callable[..., Result],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RENAMER_NATIVE", native)
    root = repo({rel: text, "hosts": "10.0.0.5 web\n"}, config=_conf("192.168.5.0/24"), allowlist=ALLOW)
    verify = run(root, "verify", "--format", "json")
    found = [(f["line"], f["old"], f["reason"]) for f in json.loads(verify.stdout)["findings"] if f["path"] == rel]
    assert found == [(line, head, "prefix")], verify.stdout
    note = next(f["note"] for f in json.loads(verify.stdout)["findings"] if f["path"] == rel)
    assert "holds the moved network 10.0.0.0/24 and not the new 192.168.5.0/24" in note
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 1, done.stdout
    assert (root / rel).read_bytes() == text  # never rewritten
    assert (root / "hosts").read_text() == "192.168.5.5 web\n"
    assert run(root, "verify").exit_code == 1


@pytest.mark.parametrize("rel, text, line, head", CASES)
def test_noop_g31_a_wider_head_whose_block_holds_the_new_network(
        rel: str, text: bytes, line: int, head: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({rel: text}, config=_conf("10.0.1.0/24"), allowlist=ALLOW)
    assert run(root, "verify", "--strict").exit_code == 0
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / rel).read_bytes() == text


@pytest.mark.parametrize("text", [
    pytest.param('if version.startswith("10.0."):\n    pass\n', id="a-version"),
    pytest.param('NODE = "10.0"\n', id="no-final-dot"),
    pytest.param("node: 10.0.x\n", id="a-version-placeholder"),
    pytest.param("Release 10.0. was the first.\n", id="prose"),
    pytest.param('route = "10.1."\n', id="another-block"),
])
def test_noop_g31_what_is_no_wider_head(text: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"x.py": text}, config=_conf("192.168.5.0/24"), allowlist=ALLOW)
    assert run(root, "verify", "--strict").exit_code == 0, run(root, "verify").stdout
