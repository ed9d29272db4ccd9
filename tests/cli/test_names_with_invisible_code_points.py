"""Old names with a code point a name reader deletes (break-it round 4, finding 8): a soft hyphen, a
zero-width space, ZWNJ/ZWJ, the combining grapheme joiner, a variation selector, a word joiner or a
BOM inside the name. Python's own IDNA codec (what `socket.getaddrinfo` applies to a str host)
resolves each as the old name, so each is a residual `encoded` (where the new name would take the
hidden character is a guess), written plainly or escaped (JSON, YAML, an HTML entity, percent-encoded):
the sweep exits 1 leaving the file as it was, and verify fails. At a
name's edge the character is outside it: the name is rewritten, the character kept."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

Repo = Callable[..., Path]
Run = Callable[..., Result]
CONFIG = """\
version: 1
renames:
  hosts: {ana-ml2: fv-ml1, ana-ml2.ana.lan: fv-ml1.fv.lan}
  addresses: {10.250.50.54: 10.251.50.54}
allowlist: allow.yaml
"""
ALLOW = "version: 1\ncurrent: ['**']\n"


@pytest.mark.parametrize(("path", "line", "old"), [
    pytest.param("c.txt", "ssh root@ana\u00ad-ml2\n", "ana\u00ad-ml2", id="soft-hyphen"),
    pytest.param("c.txt", "ssh root@ana-ml\u200b2\n", "ana-ml\u200b2", id="zero-width-space"),
    pytest.param("c.md", "open http://ana\u200c-ml2.ana.lan/ now\n", "ana\u200c-ml2.ana.lan", id="zwnj-fqdn"),
    pytest.param("c.yaml", "db: ana-\u200dml2\n", "ana-\u200dml2", id="zwj-yaml"),
    pytest.param("c.ini", "[db]\nhost = an\u034fa-ml2\n", "an\u034fa-ml2", id="combining-grapheme-joiner"),
    pytest.param("c.conf", "server ana-ml2\ufe0f.ana.lan;\n", "ana-ml2\ufe0f.ana.lan", id="variation-selector"),
    pytest.param("c.txt", "ssh ana-ml2.a\u2060na.lan\n", "ana-ml2.a\u2060na.lan", id="word-joiner-in-the-domain"),
    pytest.param("c.txt", "ssh ana\ufeff-ml2\n", "ana\ufeff-ml2", id="bom-inside"),
    pytest.param("c.json", '{"h": "10.250.\u00ad50.54"}\n', "10.250.\u00ad50.54", id="address"),
    pytest.param("hosts", "10.251.50.54 ANA\u00ad-ML2\n", "ANA\u00ad-ML2", id="hosts-file-any-case"),
    # escaped: what the consumer decodes holds the deleted character
    pytest.param("e.json", '{"h": "ana\\u00ad-ml2"}\n', "ana\\u00ad-ml2", id="json-escape"),
    pytest.param("e.yaml", 'h: "ana\\u200b-ml2"\n', "ana\\u200b-ml2", id="yaml-escape"),
    pytest.param("e.html", '<a href="http://ana&#173;-ml2/">x</a>\n', "ana&#173;-ml2", id="html-entity"),
    pytest.param("e.yaml", "u: http://ana%C2%AD-ml2/x\n", "ana%C2%AD-ml2", id="percent-encoded"),
])
def test_an_invisible_code_point_inside_an_old_name_is_a_residual(repo: Repo, run: Run, path: str, line: str,
                                                                  old: str) -> None:
    content = line.encode()
    root = repo({path: content}, config=CONFIG, allowlist=ALLOW)
    done = run(root, "verify", "--format", "json")
    findings = [(f["path"], f["old"], f["reason"]) for f in json.loads(done.stdout)["findings"]]
    assert done.exit_code == 1 and findings == [(path, old, "encoded")], findings
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1, swept.stdout  # a residual needing a decision
    assert (root / path).read_bytes() == content
    assert run(root, "verify", "--strict").exit_code == 1


@pytest.mark.parametrize(("line", "expected"), [
    pytest.param("ssh ana-ml2\u200b now\n", "ssh fv-ml1\u200b now\n", id="zero-width-space-after"),
    pytest.param("ssh \u2060ana-ml2.ana.lan\n", "ssh \u2060fv-ml1.fv.lan\n", id="word-joiner-before"),
    pytest.param("\ufeffhost: ana-ml2\n", "\ufeffhost: fv-ml1\n", id="the-files-bom"),
    pytest.param("ana-ml2 is soft\u00adware\n", "fv-ml1 is soft\u00adware\n", id="elsewhere-in-the-line"),
])
def test_at_a_names_edge_the_name_is_rewritten_and_the_character_kept(repo: Repo, run: Run, line: str,
                                                                      expected: str) -> None:
    root = repo({"c.txt": line.encode()}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "c.txt").read_text() == expected
    assert run(root, "verify", "--strict").exit_code == 0


@pytest.mark.parametrize("line", [
    pytest.param("ssh ana-ml2\u00adx\n", id="soft-hyphen-joins-a-letter-after"),
    pytest.param("ssh x\u200bana-ml2\n", id="zero-width-space-joins-a-letter-before"),
    pytest.param("ssh ana-ml\u200d20\n", id="a-longer-name"),
])
def test_a_name_joined_once_the_character_is_gone_is_another_host(repo: Repo, run: Run, line: str) -> None:
    content = line.encode()
    root = repo({"c.txt": content}, config=CONFIG, allowlist=ALLOW)
    done = run(root, "verify", "--format", "json")
    assert done.exit_code == 0 and json.loads(done.stdout)["findings"] == [], done.stdout
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "c.txt").read_bytes() == content
