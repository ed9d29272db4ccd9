"""Names in their UTS46 dress (round 3 break-it finding 18): fullwidth letters and digits, the Kelvin
sign, the ideographic full stops as label separators, NFD letters (also percent-encoded in a URL).
A consumer that maps names as UTS46 does reads the old name: each is a residual `encoded` (which
letters of the new name should be fullwidth is a guess), exit 1, the file left as it is. A letter
joined before or after the name once folded (`ｋana-ml2` is kana-ml2) makes another host: no match,
and the bytes' `ana-ml2` inside it is not rewritten either."""

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
  hosts: {ana-ml2: fv-ml1, ana-ml2.ana.lan: fv-ml1.fv.lan, xn--bro-nas-n2a.lan: fv-nas.lan}
  addresses: {10.250.50.54: 10.251.50.54}
allowlist: allow.yaml
"""
ALLOW = "version: 1\ncurrent: ['**']\n"


def _findings(run: Run, root: Path) -> tuple[int, list[tuple[str, int, str, str | None]]]:
    done = run(root, "verify", "--format", "json")
    data = json.loads(done.stdout)
    return done.exit_code, [(f["path"], f["line"], f["old"], f["reason"]) for f in data["findings"]]


@pytest.mark.parametrize(("path", "line", "old"), [
    pytest.param("c.txt", "ssh root@ａｎａ-ｍｌ２\n", "ａｎａ-ｍｌ２", id="fullwidth-letters-and-digit"),
    pytest.param("c.txt", "ssh root@ＡＮＡ-ＭＬ２\n", "ＡＮＡ-ＭＬ２", id="fullwidth-upper"),
    pytest.param("c.txt", "ssh root@ana-ｍｌ2\n", "ana-ｍｌ2", id="fullwidth-mixed"),
    pytest.param("c.md", "open http://ana-ml2。ana。lan/ now\n", "ana-ml2。ana。lan", id="ideographic-full-stop"),
    pytest.param("c.md", "open http://ana-ml2．ana．lan/ now\n", "ana-ml2．ana．lan", id="fullwidth-full-stop"),
    pytest.param("c.md", "open http://ana-ml2｡ana｡lan/ now\n", "ana-ml2｡ana｡lan", id="halfwidth-full-stop"),
    pytest.param("c.yaml", "api: http://ana-ml2。ana。lan:8000/v1\n", "ana-ml2。ana。lan", id="yaml-url"),
    pytest.param("c.json", '{"h": "１０.２５０.５０.５４"}\n', "１０.２５０.５０.５４", id="fullwidth-address"),
    pytest.param("c.txt", "nas büro-nas。lan\n", "büro-nas。lan", id="unicode-name-full-stop"),
    pytest.param("c.txt", "nas BÜRO-NAS.lan\n", "BÜRO-NAS.lan", id="unicode-name-mixed-case"),
    pytest.param("c.yaml", "u: http://bu%CC%88ro-nas.lan/share\n", "bu%CC%88ro-nas.lan", id="percent-encoded-nfd"),
    pytest.param("c.txt", "see bu%CC%88ro-nas.lan\n", "bu%CC%88ro-nas.lan", id="percent-nfd-outside-a-url"),
])
def test_a_uts46_spelling_of_an_old_name_is_a_residual(repo: Repo, run: Run, path: str, line: str,
                                                       old: str) -> None:
    content = line.encode()
    root = repo({path: content}, config=CONFIG, allowlist=ALLOW)
    code, findings = _findings(run, root)
    assert code == 1 and findings == [(path, 1, old, "encoded")], findings
    swept = run(root, "sweep", "--commit")
    assert swept.exit_code == 1  # a residual needing a decision
    assert (root / path).read_bytes() == content
    assert run(root, "verify", "--strict").exit_code == 1
    explained = run(root, "explain", path)
    assert "encoded" in explained.stdout, explained.stdout


@pytest.mark.parametrize("line", [
    pytest.param("open http://ｋana-ml2.ana.lan/\n", id="fullwidth-letter-before"),
    pytest.param("open http://\u212aana-ml2.ana.lan/\n", id="kelvin-sign-before"),
    pytest.param("ssh ana-ml2ｘ\n", id="fullwidth-letter-after"),
    pytest.param("ssh ａｎａ-ｍｌ２０\n", id="fullwidth-longer-name"),
    pytest.param("ssh ｘａｎａ-ｍｌ２\n", id="fullwidth-all-joined"),
    pytest.param("ip １１０.250.50.54\n", id="fullwidth-longer-address"),
])
def test_a_letter_joined_once_folded_makes_another_name(repo: Repo, run: Run, line: str) -> None:
    content = line.encode()
    root = repo({"c.txt": content}, config=CONFIG, allowlist=ALLOW)
    assert _findings(run, root) == (0, [])
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "c.txt").read_bytes() == content  # kana-ml2 is another host: never fv-ml1 in disguise


@pytest.mark.parametrize(("line", "expected"), [
    pytest.param("see ana-ml2．lan\n", "see fv-ml1．lan\n", id="short-name-before-a-fullwidth-stop"),
    pytest.param("服务器ana-ml2。\n", "服务器fv-ml1。\n", id="cjk-prose-around-the-name"),
    pytest.param("host ana-ml2（GPU）\n", "host fv-ml1（GPU）\n", id="fullwidth-brackets"),
    pytest.param("café ana-ml2 — é\n", "café fv-ml1 — é\n", id="accented-prose"),
])
def test_the_plain_name_beside_compatibility_characters_is_rewritten(repo: Repo, run: Run, line: str,
                                                                     expected: str) -> None:
    root = repo({"c.txt": line.encode()}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "c.txt").read_text() == expected
    assert run(root, "verify", "--strict").exit_code == 0
