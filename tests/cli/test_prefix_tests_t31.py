"""Prefix and substring tests in the spellings round 23's reader missed (t31 sweep finding 02), and
the noise it made (finding 12); issue 27 item 12 (patterns) and item 19 (noise).

Finding 02: after `web01 -> app01`, a slice compared with a literal (`h[:4] == 'web0'`, Perl
`substr`, bash `${h:0:4}`, `.slice(0, 4)`), `strncmp`, Haskell `isPrefixOf`, Nix `hasInfix`,
Terraform `strcontains`, Make's `$(filter web0%,...)`, Ansible's `select('match', 'web0')`,
Erlang's `string:prefix` and a JavaScript backtick literal no longer select the moved machine:
each was silent, verify OK. Each is a `pattern` residual now, its note naming the test.

Finding 12: a bare stem in a substring test that tests no host (`'web' in path`,
`location.pathname.includes("web")`) and a substring in another case (`indexOf("Web")`: a
language's substring test is case-sensitive) were `pattern` residuals; they are nothing now."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from tests.testing.repos import CURRENT_ALL, Repo, Run

CONFIG = "version: 1\nrenames:\n  hosts: {web01: app01}\nallowlist: allow.yaml\n"

# path -> (bytes, the lines holding a test that selects web01, a command that parses the file or None)
TESTS: dict[str, tuple[bytes, set[int], list[str] | None]] = {
    # the tester's repro (t31 sweep repro/02.sh)
    "slice.py": (b"web = [h for h in hosts if h[:4] == 'web0']\n", {1}, ["python3", "-m", "py_compile"]),
    "slice.pl": (b"print \"web\\n\" if substr($h, 0, 4) eq 'web0';\n", {1}, ["perl", "-c"]),
    "slice.sh": (b'if [ "${HOSTNAME:0:4}" = "web0" ]; then role=web; fi\n', {1}, ["bash", "-n"]),
    "slice.js": (b"const web = hosts.filter(h => h.slice(0, 4) === 'web0');\n"
                 b"const web2 = hosts.filter(h => h.startsWith(`web0`));\n", {1, 2}, ["node", "--check"]),
    "cmp.c": (b'if (strncmp(hostname, "web0", 4) == 0) role = ROLE_WEB;\n', {1}, None),
    "Lib.hs": (b'isWeb h = "web0" `isPrefixOf` h\n', {1}, None),
    "hosts.nix": (b'{ lib, hosts }: lib.filterAttrs (n: _: lib.hasInfix "web0" n) hosts\n', {1}, None),
    "main.tf": (b'locals {\n  web = [for h in var.hosts : h if strcontains(h, "web0")]\n}\n', {2}, None),
    "Makefile": (b"WEB := $(filter web0%,$(HOSTS))\nall:\n\t@echo $(WEB)\n", {1}, ["make", "-n", "-f"]),
    "play.yml": (b"- hosts: all\n  tasks:\n    - debug: msg=\"{{ groups['all'] | select('match', 'web0') | list }}\"\n",
                 {3}, None),
    "pick.erl": (b'is_web(H) -> string:prefix(H, "web0") =/= nomatch.\n', {1}, None),
    # variants of our own: other languages and spellings, the literal first, CRLF, a BOM, Latin-1
    "pick.go": (b'package main\r\n\r\nfunc isWeb(h string) bool { return h[:4] == "web0" }\r\n', {3}, None),
    "pick.lua": (b'\xef\xbb\xbfif h:sub(1, 4) == "web0" then role = "web" end\n', {1}, None),
    "q2.sql": (b"-- r\xe9partition (Latin-1)\nSELECT name FROM hosts WHERE LEFT(name, 4) = 'web0';\n", {2}, None),
    "pick.awk": (b'substr($1, 1, 4) == "web0" { print }\n', {1}, ["awk", "-f"]),
    "first.py": (b"web = [h for h in hosts if 'web0' == h[:4]]\n", {1}, ["python3", "-m", "py_compile"]),
    "more.yml": (b"- debug:\n    msg: \"{{ groups.all | selectattr('name', 'search', 'web0') | list }}\"\n"
                 b"- debug:\n    msg: \"{{ inventory_hostname is match('web0') }}\"\n", {2, 4}, None),
    "Infix.hs": (b'isWeb h = "web0" `isInfixOf` h\n', {1}, None),
    "ncase.c": (b'int web = strncasecmp(h, "web0", 4) == 0;\n', {1}, None),
    "filter.mk": (b"OTHERS := $(filter-out web0%,$(HOSTS))\nall:\n\t@echo $(OTHERS)\n", {1}, ["make", "-n", "-f"]),
    # more spellings: PowerShell, Ruby and Rust slices, Kotlin/Haskell take, regex literals
    "pick.ps1": (b"if ($h.Substring(0,4) -eq 'web0') { 'web' }\nif ($h -match '^web0') { 'web' }\n", {1, 2}, None),
    "pick.rb": (b"web = h[0..3] == 'web0'\nweb2 = h =~ /^web0/\n", {1, 2}, ["ruby", "-c"]),
    "pick.rs": (b'fn is_web(h: &str) -> bool { &h[..4] == "web0" }\n', {1}, None),
    "pick.kt": (b'fun isWeb(h: String) = h.take(4) == "web0"\n', {1}, None),
    "Take.hs": (b'isWeb h = take 4 h == "web0"\n', {1}, None),
    "re.js": (b"const a = h.match(/^web0/);\nconst b = /^web0/.test(h);\n", {1, 2}, ["node", "--check"]),
}


def _patterns(run: Run, root: Path) -> tuple[int, dict[tuple[str, int], str]]:
    done = run(root, "verify", "--strict", "--format", "json")
    found = json.loads(done.stdout)["findings"]
    return done.exit_code, {(f["path"], f["line"]): f.get("note") or "" for f in found if f["reason"] == "pattern"}


def test_each_prefix_or_substring_test_is_a_pattern_residual(repo: Repo, run: Run) -> None:
    files = {rel: data for rel, (data, _, _) in TESTS.items()}
    root = repo({**files, "inventory.txt": "web01 serves the site\n"}, config=CONFIG, allowlist=CURRENT_ALL)
    expected = {(rel, n) for rel, (_, lines, _) in TESTS.items() for n in lines}
    code, found = _patterns(run, root)
    assert code == 1 and set(found) == expected, set(found) ^ expected
    assert [k for k, note in found.items() if " selects web01 and not app01" not in note] == []
    assert run(root, "sweep", "--commit").exit_code == 1
    for rel, (data, _, check) in TESTS.items():
        assert (root / rel).read_bytes() == data, rel  # nothing rewritten by guess
        if check is not None and shutil.which(check[0]):
            done = subprocess.run([*check, str(root / rel)], capture_output=True, cwd=root)
            assert done.returncode == 0, (rel, done.stderr)
    assert (root / "inventory.txt").read_text() == "app01 serves the site\n"
    assert set(_patterns(run, root)[1]) == expected


def test_the_note_names_the_test(repo: Repo, run: Run) -> None:
    root = repo({"slice.js": TESTS["slice.js"][0], "Makefile": TESTS["Makefile"][0]}, config=CONFIG,
                allowlist=CURRENT_ALL)
    notes = _patterns(run, root)[1]
    assert "is a prefix test that selects web01 and not app01" in notes[("slice.js", 1)]
    assert "is a Make `%` pattern that selects web01" in notes[("Makefile", 1)]


NOISE = {
    "app.py": b"def route(path):\n    if 'web' in path:\n        return 'static'\n",
    "app.js": b'if (location.pathname.includes("web")) render();\r\n'
              b'if (navigator.userAgent.indexOf("Web") >= 0) legacy();\r\n',
    "ua.rb": b'legacy = request.user_agent.include?("WebKit")\n',
    "title.py": b"if 'Web' in title: pass\n",
    "re2.js": b"if (location.pathname.match(/web/)) render();\n",
}


def test_noop_a_bare_stem_or_another_case_in_a_substring_test_is_no_residual(repo: Repo, run: Run) -> None:
    root = repo({**NOISE, "hosts.txt": "web01 up\n"}, config=CONFIG, allowlist=CURRENT_ALL)
    assert _patterns(run, root)[1] == {}
    assert run(root, "sweep", "--commit").exit_code == 0
    for rel, data in NOISE.items():
        assert (root / rel).read_bytes() == data
    assert (root / "hosts.txt").read_text() == "app01 up\n"
    assert run(root, "verify", "--strict").exit_code == 0


def test_a_substring_test_holding_the_names_number_is_still_a_residual(repo: Repo, run: Run) -> None:
    text = "if 'web0' in h:\n    pass\nif 'web' in path:\n    pass\n"
    root = repo({"pick.py": text, "hosts.txt": "web01 up\n"}, config=CONFIG, allowlist=CURRENT_ALL)
    code, found = _patterns(run, root)
    assert code == 1 and set(found) == {("pick.py", 1)}
    assert "is a substring test that selects web01 and not app01" in found[("pick.py", 1)]
