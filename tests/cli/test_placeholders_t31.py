"""Placeholders over an old value's digits in brackets round 23's reader did not know (t31 sweep
finding 07; issue 27 item 12): `web0[n]`, `web0(n)` in runbook prose, a batch file's `web0%%N` and
`web0%N%`, autoconf's `web0@N@` name the set web01 belongs to; after `web01 -> app01` they no
longer cover the moved machine, and were silent. Each is a `pattern` residual now; one that covers
the new name too, and look-alikes, are left alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.testing.repos import CURRENT_ALL, Repo, Run

CONFIG = "version: 1\nrenames:\n  hosts: {web01: app01, node1: worker1}\n  addresses: {10.0.0.70: 10.0.1.90}\nallowlist: allow.yaml\n"

FILES: dict[str, tuple[bytes, list[int]]] = {
    # the tester's repro (t31 sweep repro/07.sh)
    "RUNBOOK.md": (b"The web nodes web0[n] are drained one by one; web0(n) comes back before web0(n+1) goes.\n",
                   [1, 1, 1]),
    "deploy.bat": (b"for %%N in (1 2 3 4 5) do ssh web0%%N uptime\nset N=1\nssh web0%N% uptime\n", [1, 3]),
    "hosts.in": (b"server web0@N@.lab.example\n", [1]),
    # variants of our own: CRLF and a BOM, Latin-1, an address, a YAML comment, other letters
    "drain.cmd": (b"\xef\xbb\xbf@echo off\r\nfor /L %%i in (1,1,3) do ping web0%%i\r\n", [2]),
    "notes.txt": ("n\u0153ud web0[i] : d\u00e9marr\u00e9 apr\u00e8s web0(i-1)\n".encode("cp1252"), [1, 1]),
    "fw.md": (b"The VIPs 10.0.0.7(n) answer on 443; 10.0.0.7[x] are reserved.\n", [1, 1]),
    "vars.yml": (b"# web0[idx] take traffic in turn\nweight: 10\n", [1]),
    "conf.h.in": (b"#define WEB_HOST \"web0@NODE@\"\n", [1]),
}


def _patterns(run: Run, root: Path) -> tuple[int, list[tuple[str, int]]]:
    done = run(root, "verify", "--strict", "--format", "json")
    return done.exit_code, sorted((f["path"], f["line"]) for f in json.loads(done.stdout)["findings"]
                                  if f["reason"] == "pattern")


def test_each_placeholder_in_brackets_is_a_pattern_residual(repo: Repo, run: Run) -> None:
    files = {rel: data for rel, (data, _) in FILES.items()}
    root = repo({**files, "hosts.txt": "web01 is the first web node\n"}, config=CONFIG, allowlist=CURRENT_ALL)
    expected = sorted((rel, n) for rel, (_, lines) in FILES.items() for n in lines)
    code, found = _patterns(run, root)
    assert code == 1 and found == expected, found
    assert run(root, "sweep", "--commit").exit_code == 1
    for rel, (data, _) in FILES.items():
        assert (root / rel).read_bytes() == data, rel  # nothing rewritten by guess
    assert (root / "hosts.txt").read_text() == "app01 is the first web node\n"
    assert _patterns(run, root) == (1, expected)


@pytest.mark.parametrize(("text", "after"), [
    pytest.param("see [web01](https://x/web01) and web01(8)\n", "see [app01](https://x/app01) and app01(8)\n",
                 id="a-link-and-a-man-page"),
    pytest.param("myweb0[n] and web0(12) and web0(n)x\n", "myweb0[n] and web0(12) and web0(n)x\n",
                 id="another-stem-or-digits"),
    pytest.param("x = node[i] + node(d)\n", "x = node[i] + node(d)\n", id="an-index-or-a-call-in-code"),
    pytest.param("mail web0@example.org\n", "mail web0@example.org\n", id="an-email-not-autoconf"),
    pytest.param("echo %PATH% web0%\n", "echo %PATH% web0%\n", id="a-percent-not-a-variable"),
])
def test_noop_look_alikes_are_no_placeholder(text: str, after: str, repo: Repo, run: Run) -> None:
    root = repo({"n.txt": text}, config=CONFIG, allowlist=CURRENT_ALL)
    assert _patterns(run, root)[1] == []
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "n.txt").read_text() == after


def test_noop_a_placeholder_covering_the_new_name_too(repo: Repo, run: Run) -> None:
    conf = "version: 1\nrenames:\n  hosts: {web01: web05}\nallowlist: allow.yaml\n"
    root = repo({"RUNBOOK.md": "web0[n] and web0%%N and web0@N@ and web01\n"}, config=conf, allowlist=CURRENT_ALL)
    assert _patterns(run, root)[1] == []
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "RUNBOOK.md").read_text() == "web0[n] and web0%%N and web0@N@ and web05\n"
