"""References consumers read decoded (issue 27, item 3; adversarial pass 2, B-2, B-4, B-13).

A name split by a line-ending backslash (YAML's escaped line break, TOML's line-ending backslash,
a shell continuation) is read joined: no edit can rename it safely, so it is a residual `split`
that fails verify and leaves the file as it is. An IDNA name in its upper-case or Unicode form
and an IPv4 address written as IPv4-mapped IPv6 in hex are the same name or address: rewritten,
in the spelling found. Quotes inside one shell word (`ana-"ml2"`) split a name too; escaped
spellings (`ana\\u002dml2`, `ana%2Dml2`, `ana\\x2dml2`, `ana&#45;ml2`) are rewritten in their style
where the decoding is certain (JSON's `\\u`, a URL's percent-escapes) and are residuals `encoded`
elsewhere (break-it pass)."""

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
  hosts: {ana-ml2: fv-ml1, ana-ml2.ana.lan: fv-ml1.fv.lan, xn--bcher-kva: fv-books}
  addresses: {10.250.50.54: 10.251.50.54}
allowlist: allow.yaml
"""
NETWORKS = """\
version: 1
renames:
  networks: {10.250.0.0/16: 10.251.0.0/16}
allowlist: allow.yaml
"""
DUAL = """\
version: 1
renames:
  addresses: {10.250.50.54: 10.251.50.54, "fd00:250::54": "fd00:251::54"}
allowlist: allow.yaml
"""
ALLOW = "version: 1\ncurrent: ['**']\n"


def _findings(run: Run, root: Path) -> tuple[int, list[tuple[str, int, str, str | None]]]:
    done = run(root, "verify", "--format", "json")
    data = json.loads(done.stdout)
    return done.exit_code, [(f["path"], f["line"], f["old"], f["reason"]) for f in data["findings"]]


# -- split by a line-ending backslash: a residual, never a guess -------------------------------------

SPLIT = [
    pytest.param("c.yaml", b'api: "http://ana-\\\n  ml2:8000/v1"\n', "ana-ml2", 1, id="yaml-escaped-break"),
    pytest.param("c.yaml", b'api: "http://a\\\n    na-ml2.ana.lan/v1"\n', "ana-ml2.ana.lan", 1,
                 id="yaml-fqdn-split-early"),
    pytest.param("c.yaml", b'ip: "10.250.\\\r\n   50.54"\r\n', "10.250.50.54", 1, id="yaml-address-crlf"),
    pytest.param("c.yaml", b'a: 1\nlist:\n  - "x ana-ml2\\\n    .ana.lan"\n', "ana-ml2.ana.lan", 3,
                 id="yaml-split-at-the-dot"),
    pytest.param("c.toml", b'url = """http://ana-\\\n  ml2:8000"""\n', "ana-ml2", 1, id="toml-basic-multiline"),
    pytest.param("c.toml", b'[svc]\nurl = """\nhttp://ana-m\\\n\t  l2:8000"""\n', "ana-ml2", 3,
                 id="toml-split-mid-label-tab"),
    pytest.param("r.sh", b"#!/bin/sh\nssh root@ana-\\\nml2 uptime\n", "ana-ml2", 2, id="shell-continuation"),
    pytest.param("Dockerfile", b"FROM debian\nRUN ping -c1 an\\\na-ml2\n", "ana-ml2", 2, id="dockerfile"),
    pytest.param("deploy.sh", b"curl http://10.250.\\\n50.54:8000/health\n", "10.250.50.54", 1,
                 id="shell-address"),
    # Quotes inside one shell word join its pieces (break-it pass): `ana-"ml2"` is ana-ml2.
    pytest.param("r.sh", b'#!/bin/sh\nssh ana-"ml2" uptime\n', "ana-ml2", 2, id="shell-double-quoted-tail"),
    pytest.param("r.sh", b"ssh 'ana-'ml2\n", "ana-ml2", 1, id="shell-single-quoted-head"),
    pytest.param("r.sh", b"ping \"ana-\"'ml2'\n", "ana-ml2", 1, id="shell-two-quote-styles"),
    pytest.param("app.env", b"HOST=ana-'ml2'\n", "ana-ml2", 1, id="env-file"),
    pytest.param("Dockerfile", b'FROM debian\nRUN curl http://"10.250."50.54:8000/\n', "10.250.50.54", 2,
                 id="dockerfile-address"),
    pytest.param("Makefile", b'deploy:\n\tssh root@an""a-ml2 make\n', "ana-ml2", 2, id="makefile-empty-quotes"),
    pytest.param("r.sh", b'ssh "ana-ml2".ana.lan\n', "ana-ml2.ana.lan", 1, id="shell-fqdn-joined-wins"),
    pytest.param("docker-compose.yml", b"services:\n  a:\n    command: [\"sh\", \"-c\", \"ssh ana-'ml2'\"]\n",
                 "ana-ml2", 3, id="compose-command"),
]


@pytest.mark.parametrize(("path", "content", "old", "line"), SPLIT)
def test_a_split_old_value_is_a_residual_and_the_file_is_left_alone(repo: Repo, run: Run, path: str,
                                                                     content: bytes, old: str, line: int) -> None:
    root = repo({path: content}, config=CONFIG, allowlist=ALLOW)
    code, findings = _findings(run, root)
    assert code == 1
    assert findings == [(path, line, old, "split")]
    run(root, "sweep", "--commit")
    assert (root / path).read_bytes() == content
    assert _findings(run, root) == (1, [(path, line, old, "split")])


def test_a_split_value_beside_a_plain_one_on_the_same_file(repo: Repo, run: Run) -> None:
    content = b'a: "ana-ml2"\nb: "http://ana-\\\n  ml2/v1"\n'
    root = repo({"c.yaml": content}, config=CONFIG, allowlist=ALLOW)
    run(root, "sweep", "--commit")
    assert (root / "c.yaml").read_bytes() == b'a: "fv-ml1"\nb: "http://ana-\\\n  ml2/v1"\n'
    assert _findings(run, root) == (1, [("c.yaml", 2, "ana-ml2", "split")])


def test_a_keep_rule_records_the_decision_on_a_split_value(repo: Repo, run: Run) -> None:
    allow = ALLOW + "keep:\n  - name: legacy-url\n    path: c.yaml\n    line_contains: legacy\n    reason: frozen\n"
    root = repo({"c.yaml": b'legacy: "http://ana-\\\n  ml2/v1"\n'}, config=CONFIG, allowlist=allow)
    assert _findings(run, root) == (0, [])


@pytest.mark.parametrize(("path", "content"), [
    pytest.param("r.sh", b"ssh root@ana-\\\n  ml2 uptime\n", id="shell-keeps-the-indent-two-words"),
    pytest.param("c.yaml", b'x: "ana-\\\\\n  ml2"\n', id="yaml-escaped-backslash-no-break"),
    pytest.param("r.sh", b"echo ana-\\\nml20\n", id="longer-name-once-joined"),
    pytest.param("r.sh", b"echo xana-\\\nml2\n", id="part-of-a-name-once-joined"),
    pytest.param("r.sh", b"echo ana-\\\\\nml2\n", id="escaped-backslash-in-shell"),
    pytest.param("r.sh", b'echo "ana-" "ml2" ana-"ml20" x"ana-"ml2\n', id="quotes-join-nothing-old"),
])
def test_noop_nothing_is_split(repo: Repo, run: Run, path: str, content: bytes) -> None:
    root = repo({path: content}, config=CONFIG, allowlist=ALLOW)
    assert _findings(run, root) == (0, [])
    run(root, "sweep", "--commit")
    assert (root / path).read_bytes() == content


def test_a_continuation_between_whole_names_is_rewritten_as_usual(repo: Repo, run: Run) -> None:
    root = repo({"r.sh": b"ssh root@ana-ml2 \\\n  uptime && ping 10.250.50.54\n"}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "r.sh").read_bytes() == b"ssh root@fv-ml1 \\\n  uptime && ping 10.251.50.54\n"
    assert _findings(run, root) == (0, [])


# -- IDNA: the A-label in any case, and its Unicode form ---------------------------------------------

@pytest.mark.parametrize(("content", "expected"), [
    pytest.param("c: b\u00fccher.lan\n", "c: fv-books.lan\n", id="u-label"),
    pytest.param("d: XN--BCHER-KVA.lan\n", "d: FV-BOOKS.lan\n", id="upper-case-a-label"),
    pytest.param("e: xn--bcher-kva.lan\n", "e: fv-books.lan\n", id="a-label"),
    pytest.param("f: http://B\u00dcCHER.lan/x\n", "f: http://fv-books.lan/x\n", id="upper-case-u-label"),
    pytest.param("g: \u00f6b\u00fccher.lan, b\u00fccherei.lan\n", "g: \u00f6b\u00fccher.lan, b\u00fccherei.lan\n",
                 id="noop-longer-unicode-names"),
])
def test_an_idna_name_in_every_form(repo: Repo, run: Run, content: str, expected: str) -> None:
    root = repo({"c.yaml": content}, config=CONFIG, allowlist=ALLOW)
    changes = content != expected
    assert run(root, "verify").exit_code == (1 if changes else 0)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "c.yaml").read_text(encoding="utf-8") == expected
    assert run(root, "verify").exit_code == 0


# -- IPv4-mapped IPv6 in hex: the new address in the same spelling ----------------------------------

@pytest.mark.parametrize(("config", "content", "expected"), [
    pytest.param(CONFIG, "e ::ffff:0afa:3236\n", "e ::ffff:0afb:3236\n", id="b13-report"),
    pytest.param(CONFIG, "e ::FFFF:AFA:3236/128\n", "e ::FFFF:AFB:3236/128\n", id="upper-case-unpadded-prefix"),
    pytest.param(CONFIG, "e 0:0:0:0:0:ffff:0afa:3236\n", "e 0:0:0:0:0:ffff:0afb:3236\n", id="expanded"),
    pytest.param(CONFIG, "url http://[::ffff:0afa:3236]:8080/\n", "url http://[::ffff:0afb:3236]:8080/\n",
                 id="bracketed-with-port"),
    pytest.param(CONFIG, "e ::ffff:10.250.50.54\n", "e ::ffff:10.251.50.54\n", id="dotted-as-before"),
    pytest.param(NETWORKS, "e ::ffff:0afa:0101\n", "e ::ffff:0afb:0101\n", id="inside-a-renamed-network"),
    pytest.param(CONFIG, "e ::ffff:0afa:3237 ::fffe:0afa:3236 2001:db8::afa:3236 x::ffff:0afa:3236\n",
                 "e ::ffff:0afa:3237 ::fffe:0afa:3236 2001:db8::afa:3236 x::ffff:0afa:3236\n",
                 id="noop-other-addresses"),
    # NAT64 (RFC 6052's well-known prefix 64:ff9b::/96) carries the IPv4 address as mapped does
    # (break-it round 8, #14: the hex form was missed while its dotted twin was rewritten)
    pytest.param(CONFIG, "n1 64:ff9b::afa:3236\n", "n1 64:ff9b::afb:3236\n", id="nat64-round8"),
    pytest.param(CONFIG, "n 64:Ff9B::afa:3236\n", "n 64:Ff9B::afb:3236\n", id="nat64-mixed-case"),
    pytest.param(CONFIG, "n 0064:FF9B:0000:0000:0000:0000:0AFA:3236\n",
                 "n 0064:FF9B:0000:0000:0000:0000:0AFB:3236\n", id="nat64-expanded-upper"),
    pytest.param(CONFIG, "url http://[64:ff9b::afa:3236]:80/ prefix 64:ff9b::afa:3236/128\n",
                 "url http://[64:ff9b::afb:3236]:80/ prefix 64:ff9b::afb:3236/128\n", id="nat64-bracketed-prefix"),
    pytest.param(CONFIG, "n 64:ff9b::10.250.50.54\n", "n 64:ff9b::10.251.50.54\n", id="nat64-dotted-as-before"),
    pytest.param(NETWORKS, "n 64:ff9b::afa:101\n", "n 64:ff9b::afb:101\n", id="nat64-inside-a-renamed-network"),
    pytest.param(DUAL, "n 64:ff9b::afa:3236 ::ffff:afa:3236 fd00:250:0::54\n",
                 # the IPv6 address keeps its written `0` group (break-it round 16, #21: the file's dress)
                 "n 64:ff9b::afb:3236 ::ffff:afb:3236 fd00:251:0::54\n", id="nat64-beside-an-ipv6-rename"),
    pytest.param(CONFIG, "n 64:ff9b::afa:3237 64:ff9b:1::afa:3236 64:ff9c::afa:3236 164:ff9b::afa:3236\n",
                 "n 64:ff9b::afa:3237 64:ff9b:1::afa:3236 64:ff9c::afa:3236 164:ff9b::afa:3236\n",
                 id="nat64-noop-other-prefixes"),
])
def test_an_ipv4_mapped_address_in_hex(repo: Repo, run: Run, config: str, content: str, expected: str) -> None:
    root = repo({"n.txt": content}, config=config, allowlist=ALLOW)
    changes = content != expected
    assert run(root, "verify").exit_code == (1 if changes else 0)
    dry = run(root, "sweep", "--dry-run")
    if changes:
        assert f"-{content}+{expected}" in dry.stdout, dry.stdout
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "n.txt").read_text() == expected
    assert run(root, "verify").exit_code == 0


# -- escapes the consumer decodes: rewritten in the same style where that is certain -----------------
# (break-it pass on issue 27: `ana\u002dml2`, `ana%2Dml2` and the rest passed verify silently)

ESCAPED = [
    pytest.param("c.json", b'{"a": "ana\\u002dml2"}\n', b'{"a": "fv\\u002dml1"}\n', id="json-u-escape"),
    pytest.param("c.json", b'{"a": ["http://ana\\u002Dml2\\u002Eana\\u002Elan:80"]}\n',
                 b'{"a": ["http://fv\\u002Dml1\\u002Efv\\u002Elan:80"]}\n', id="json-fqdn-upper-hex-every-dot"),
    pytest.param("c.json", b'{"ip": "10\\u002e250\\u002e50\\u002e54"}\n', b'{"ip": "10\\u002e251\\u002e50\\u002e54"}\n',
                 id="json-address"),
    pytest.param("c.json", b'{"\\u0061na-ml2": {"gpu": 8}}\n', b'{"fv-ml1": {"gpu": 8}}\n',
                 id="json-escaped-letter-in-a-key"),
    pytest.param("r.sh", b"ssh ana\\-ml2\n", b"ssh fv\\-ml1\n", id="shell-backslash-dash-reads-fv-ml1"),
    pytest.param("c.yaml", b"url: http://ana%2Dml2:8000/v1\n", b"url: http://fv%2Dml1:8000/v1\n", id="url-percent"),
    pytest.param("app.env", b"U=https://u@ana%2dml2.ana.lan/x\n", b"U=https://u@fv%2dml1.fv.lan/x\n",
                 id="url-percent-lower-hex-fqdn"),
    pytest.param("c.yaml", b"u: 'http://10%2E250%2E50%2E54/'\n", b"u: 'http://10%2E251%2E50%2E54/'\n",
                 id="url-percent-address"),
    pytest.param("c.yaml", b"next: https://sso/?r=http%3A%2F%2Fana-ml2%3A8000%2Fv1\n",
                 b"next: https://sso/?r=http%3A%2F%2Ffv-ml1%3A8000%2Fv1\n", id="url-inside-a-query-string"),
    # Break-it round 8 (severity 3): an escaped digit or letter is no style of the name's own; the
    # new one was written `\\u00310.251...\\u0031`, every `1` escaped as the old spelling's one was.
    pytest.param("c.json", b'{"ip": "10.250.50.5\\u0034"}\n', b'{"ip": "10.251.50.54"}\n', id="json-escaped-digit"),
    pytest.param("c.json", b'{"h": "\\u0061na-ml2.ana.lan"}\n', b'{"h": "fv-ml1.fv.lan"}\n',
                 id="json-escaped-letter-in-a-value"),
    pytest.param("c.json", b'{"h": "\\u0061na\\u002dml2"}\n', b'{"h": "fv\\u002dml1"}\n',
                 id="json-escaped-letter-and-separator"),
    pytest.param("c.yaml", b"url: http://%61na-ml2:8000/v1\n", b"url: http://fv-ml1:8000/v1\n",
                 id="url-percent-letter"),
]


@pytest.mark.parametrize(("path", "content", "expected"), ESCAPED)
def test_an_escaped_spelling_is_rewritten_in_its_style(repo: Repo, run: Run, path: str, content: bytes,
                                                        expected: bytes) -> None:
    root = repo({path: content}, config=CONFIG, allowlist=ALLOW)
    assert _findings(run, root)[0] == 1
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / path).read_bytes() == expected
    if path.endswith(".json"):
        json.loads(expected)
    assert _findings(run, root) == (0, [])
    assert run(root, "verify", "--strict").exit_code == 0


ENCODED = [
    pytest.param("c.yaml", b'a: "ana\\x2dml2"\n', "ana\\x2dml2", id="yaml-double-quoted-x"),
    pytest.param("c.yaml", b'b: "ana\\u002Dml2"\n', "ana\\u002Dml2", id="yaml-double-quoted-u"),
    pytest.param("c.py", b'HOST = "ana\\x2dml2"\n', "ana\\x2dml2", id="python-x"),
    pytest.param("app.js", b"const h = 'ana\\u002dml2';\n", "ana\\u002dml2", id="javascript-u"),
    pytest.param("c.toml", b'h = "10\\u002E250\\u002E50\\u002E54"\n', "10\\u002E250\\u002E50\\u002E54",
                 id="toml-address-u"),
    pytest.param("notes.txt", b"host ana%2Dml2 is up\n", "ana%2Dml2", id="percent-outside-a-url"),
    pytest.param("page.html", b"<td>ana&#45;ml2</td><td>&#x61;na-ml2</td>\n", "ana&#45;ml2",
                 id="html-character-reference"),
    pytest.param("c.json", b'{"a": "ana\\u002d%6Dl2"}\n', "ana\\u002d%6Dl2", id="two-styles-mixed"),
]


@pytest.mark.parametrize(("path", "content", "old"), ENCODED)
def test_an_escaped_spelling_renamer_cannot_decide_is_a_residual(repo: Repo, run: Run, path: str,
                                                                  content: bytes, old: str) -> None:
    root = repo({path: content}, config=CONFIG, allowlist=ALLOW)
    code, findings = _findings(run, root)
    assert code == 1 and findings[0] == (path, 1, old, "encoded")
    run(root, "sweep", "--commit")
    assert (root / path).read_bytes() == content
    assert _findings(run, root)[0] == 1


@pytest.mark.parametrize(("path", "content"), [
    pytest.param("c.yaml", b"u: http://ana-ml2%30/x\n", id="url-escape-continues-the-name"),
    pytest.param("c.py", b'h = "\\x61ana-ml2"\n', id="x-escape-continues-the-name"),
])
def test_a_name_an_escape_continues_is_never_rewritten(repo: Repo, run: Run, path: str, content: bytes) -> None:
    root = repo({path: content}, config=CONFIG, allowlist=ALLOW)
    assert _findings(run, root) == (1, [(path, 1, "ana-ml2", "encoded")])
    run(root, "sweep", "--commit")
    assert (root / path).read_bytes() == content


@pytest.mark.parametrize(("path", "content"), [
    pytest.param("c.json", b'{"a": "ana\\u002dml20", "b": "x\\u002dana-ml2"}\n', id="other-names-once-decoded"),
    pytest.param("c.json", b'{"a": "\\u0078ana-ml2", "b": "ana-ml2\\u0030"}\n', id="json-escape-continues-the-name"),
    pytest.param("c.json", b'{"a": "ana\\\\u002dml2"}\n', id="escaped-backslash-no-escape"),
    pytest.param("c.yaml", b"u: http://x/%2Dana-ml2x\n", id="percent-then-a-longer-name"),
])
def test_noop_escapes_that_spell_no_old_value(repo: Repo, run: Run, path: str, content: bytes) -> None:
    root = repo({path: content}, config=CONFIG, allowlist=ALLOW)
    assert _findings(run, root) == (0, [])
    run(root, "sweep", "--commit")
    assert (root / path).read_bytes() == content


def test_a_json_key_escaped_onto_an_existing_one_is_refused(repo: Repo, run: Run) -> None:
    content = b'{"ana\\u002dml2": 1, "fv-ml1": 2}\n'
    root = repo({"c.json": content}, config=CONFIG, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3 and "c.json:1:" in done.stderr and "Traceback" not in done.stderr
    assert (root / "c.json").read_bytes() == content


# -- every escape syntax of a character, and Unicode names after NFC and case folding -----------------
# (break-it pass 2 on issue 27: octal, `\u{..}`, a backslash in a shell word, `\u00fc`, `%C3%BC`,
# upper-case and NFD U-labels all passed verify --strict)

ENCODED_SYNTAX = [
    pytest.param("c.py", b'H = "ana\\055ml2"\n', "ana\\055ml2", id="python-octal"),
    pytest.param("c.py", b'H = "ana\\55ml2"\n', "ana\\55ml2", id="python-octal-two-digits"),
    pytest.param("c.py", b'H = "\\N{LATIN SMALL LETTER A}na-ml2"\n', "\\N{LATIN SMALL LETTER A}na-ml2",
                 id="python-named-character"),
    pytest.param("c.c", b'const char *h = "10\\05650.50.54";\n', None, id="c-octal-no-old-value"),
    pytest.param("r.sh", b"H=$'ana\\055ml2'\n", "ana\\055ml2", id="bash-dollar-quote-octal"),
    pytest.param("r.sh", b"H=$'ana\\x2dml2'\n", "ana\\x2dml2", id="bash-dollar-quote-x"),
    pytest.param("r.sh", b"J=an\\a-ml2\n", "an\\a-ml2", id="shell-backslash-before-a-letter"),
    pytest.param("r.sh", b"ssh root@10.250.50\\.5\\4 true\n", "10.250.50\\.5\\4", id="shell-backslashes-in-an-address"),
    pytest.param("app.js", b'const h = "ana\\u{2d}ml2";\n', "ana\\u{2d}ml2", id="javascript-braced-u"),
    pytest.param("main.rs", b'let h = "ana\\u{002D}ml2.ana.lan";\n', "ana\\u{002D}ml2.ana.lan",
                 id="rust-braced-u-fqdn"),
    pytest.param("c.yaml", b'a: "10.250.50.\\065\\064"\n', "10.250.50.\\065\\064", id="yaml-octal-address"),
]


@pytest.mark.parametrize(("path", "content", "old"), ENCODED_SYNTAX)
def test_every_escape_syntax_of_a_character_is_read(repo: Repo, run: Run, path: str, content: bytes,
                                                    old: str | None) -> None:
    root = repo({path: content}, config=CONFIG, allowlist=ALLOW)
    code, findings = _findings(run, root)
    if old is None:  # `\056` is `.`: 10.50.50.54, another address
        assert (code, findings) == (0, [])
    else:
        assert code == 1 and findings == [(path, 1, old, "encoded")]
    run(root, "sweep", "--commit")
    assert (root / path).read_bytes() == content
    assert run(root, "verify", "--strict").exit_code == (0 if old is None else 1)


@pytest.mark.parametrize(("path", "content"), [
    pytest.param("r.sh", b"K=ana\\-ml2\n", id="regex-escaped-hyphen-kept-its-rewrite"),
    pytest.param("c.py", b'p = r"C:\\ana-ml2\\share"\n', id="windows-path"),
    pytest.param("c.py", b'p = "node:\\nana-ml2"\n', id="newline-escape-before-a-name"),
])
def test_a_backslash_before_a_name_still_rewrites_it(repo: Repo, run: Run, path: str, content: bytes) -> None:
    root = repo({path: content}, config=CONFIG, allowlist=ALLOW)
    code, findings = _findings(run, root)
    assert code == 1 and [f[3] for f in findings] == [None]
    assert run(root, "sweep", "--commit").exit_code == 0
    assert b"fv" in (root / path).read_bytes() and _findings(run, root) == (0, [])


IDNA = """\
version: 1
renames:
  hosts: {xn--bcher-kva.ana.lan: buch.fv.lan}
allowlist: allow.yaml
"""
NFD = "bu\u0308cher.ana.lan"


@pytest.mark.parametrize(("path", "content", "expected"), [
    pytest.param("c.txt", f"host {NFD}\n".encode(), b"host buch.fv.lan\n", id="nfd-combining-diaeresis"),
    pytest.param("c.txt", "host BU\u0308CHER.ANA.LAN\n".encode(), b"host buch.fv.lan\n", id="nfd-upper"),
    pytest.param("c.json", b'{"h": "b\\u00fccher.ana.lan"}\n', b'{"h": "buch.fv.lan"}\n', id="json-u-non-ascii"),
    pytest.param("c.json", b'{"h": "b\\u00FCcher.ana.lan"}\n', b'{"h": "buch.fv.lan"}\n', id="json-u-upper-hex"),
    pytest.param("c.yaml", b"u: http://b%C3%BCcher.ana.lan/x\n", b"u: http://buch.fv.lan/x\n",
                 id="url-percent-utf8"),
])
def test_a_unicode_name_the_consumer_reads_is_rewritten(repo: Repo, run: Run, path: str, content: bytes,
                                                        expected: bytes) -> None:
    root = repo({path: content}, config=IDNA, allowlist=ALLOW)
    assert _findings(run, root)[0] == 1
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / path).read_bytes() == expected
    assert run(root, "verify", "--strict").exit_code == 0


@pytest.mark.parametrize(("path", "content", "old"), [
    pytest.param("c.txt", "host BÜCHER.ana.lan\n".encode(), "BÜCHER.ana.lan", id="upper-unicode-mixed"),
    pytest.param("c.txt", "host Bücher.ana.lan\n".encode(), "Bücher.ana.lan", id="capitalised"),
    pytest.param("c.txt", "host BU\u0308cher.ana.lan\n".encode(), "BU\u0308cher.ana.lan", id="nfd-mixed-case"),
    pytest.param("c.yaml", b'h: "b\\u00fccher.ana.lan"\n', "b\\u00fccher.ana.lan", id="yaml-u-non-ascii"),
    pytest.param("c.txt", b"see b%C3%BCcher.ana.lan\n", "b%C3%BCcher.ana.lan", id="percent-utf8-outside-a-url"),
    pytest.param("c.py", b'h = "b\\xfccher.ana.lan"\n', "b\\xfccher.ana.lan", id="python-x-latin1"),
    pytest.param("c.py", b'h = "b\\N{LATIN SMALL LETTER U WITH DIAERESIS}cher.ana.lan"\n',
                 "b\\N{LATIN SMALL LETTER U WITH DIAERESIS}cher.ana.lan", id="python-named-u-umlaut"),
])
def test_a_unicode_name_in_an_uncertain_spelling_is_a_residual(repo: Repo, run: Run, path: str,
                                                               content: bytes, old: str) -> None:
    root = repo({path: content}, config=IDNA, allowlist=ALLOW)
    code, findings = _findings(run, root)
    assert code == 1 and findings == [(path, 1, old, "encoded")]
    run(root, "sweep", "--commit")
    assert (root / path).read_bytes() == content


@pytest.mark.parametrize("content", [
    pytest.param("host öbücher.ana.lan and bücherei.ana.lan\n".encode(), id="longer-unicode-names"),
    pytest.param(b"host b%C3%BCchers.ana.lan b%C3%28cher.ana.lan\n", id="percent-other-or-invalid-utf8"),
    pytest.param("host BU\u0308CHERS.ana.lan\n".encode(), id="nfd-longer-name"),
])
def test_noop_unicode_names_that_are_other_names(repo: Repo, run: Run, content: bytes) -> None:
    root = repo({"c.txt": content}, config=IDNA, allowlist=ALLOW)
    assert _findings(run, root) == (0, [])
