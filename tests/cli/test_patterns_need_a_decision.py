"""Regex syntax next to an old value needs a decision (issue 27, item 12 / newcomer B2): a residual
`pattern`, never a silent rewrite, and never a silent pass."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

CONFIG = """\
version: 1
renames:
  hosts: {pihole0: dns-a, web01: web11}
  addresses: {10.0.0.7: 10.1.0.7}
allowlist: allow.yaml
"""
ALLOW = "version: 1\ncurrent: ['**']\n"


@pytest.mark.parametrize(("path", "text"), (
    pytest.param("t.sh", "grep -Eq 'target = \"caddy-sync@pihole0{1,2}[.]local' x\n", id="bounded-quantifier"),
    pytest.param("t.sh", "grep -E 'web01{2}' x\n", id="exact-count"),
    pytest.param("t.py", "RE = re.compile(r'^pihole0?\\.lab')\n", id="optional-in-an-anchored-regex"),
    pytest.param("t.py", "RE = r'web01+[.]lab'\n", id="plus-before-a-class"),
    pytest.param("alerts.json", '{"expr": "instance=~\\"10\\\\.0\\\\.0\\\\.[0-9]\\""}\n', id="json-escaped-regex"),
    pytest.param("rules.yaml", "match: 'web0[0-9]'\n", id="a-class-in-place-of-a-digit"),
))
def test_a_pattern_is_a_residual_never_a_rewrite(path: str, text: str, repo: Callable[..., Path],
                                                 run: Callable[..., Result]) -> None:
    root = repo({path: text}, config=CONFIG, allowlist=ALLOW)
    done = run(root, "verify", "--format", "json")
    assert done.exit_code == 1
    assert [f["reason"] for f in json.loads(done.stdout)["findings"]] == ["pattern"]
    run(root, "sweep", "--commit")
    assert (root / path).read_text() == text  # nothing rewritten


@pytest.mark.parametrize(("text", "expected"), (
    pytest.param('echo "is it on pihole0?"\n', 'echo "is it on dns-a?"\n', id="a-question"),
    pytest.param("ssh web01 # and then?\n", "ssh web11 # and then?\n", id="a-question-later"),
    pytest.param("curl http://web01:8080/{id}\n", "curl http://web11:8080/{id}\n", id="a-brace-later"),
    pytest.param("ping 10.0.0.7\n", "ping 10.1.0.7\n", id="an-address"),
))
def test_prose_and_punctuation_are_no_pattern(text: str, expected: str, repo: Callable[..., Path],
                                              run: Callable[..., Result]) -> None:
    root = repo({"t.sh": text}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "t.sh").read_text() == expected
