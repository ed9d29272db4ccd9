"""An access rule's network literal whose host bits are set to another address (issue 27, g31: the
gap docs/matching.md named under "A network literal in an access rule").

`allow 10.0.0.66/29;` is read by nginx, iptables and Samba as 10.0.0.64/29, which holds the
renamed 10.0.0.70: after the move the rule no longer admits the host. In a file holding no old
value it was never read (the first pass asked for `10.0.0.64/` and `10.0.0.70/` only): verify
OK. Now every address of the widest /24-or-narrower network holding the renamed address and not
its new one, with its slash, is a first-pass literal (Python and hyperscan alike), and the rule is
a residual `access-set`, nothing rewritten; CRLF and a Latin-1 comment beside it change nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

ALLOW = "version: 1\ncurrent: ['**']\n"
CONF = "version: 1\nrenames:\n  addresses: {10.0.0.70: 10.0.2.70}\nallowlist: allow.yaml\n"


@pytest.mark.parametrize("native", ["0", "1"])
@pytest.mark.parametrize("rel, text, line, old", [
    pytest.param("admin.conf", b"location /admin {\n    allow 10.0.0.66/29;\n    deny all;\n}\n", 2,
                 "10.0.0.66/29", id="nginx-allow"),
    pytest.param("rules.v4", b"-A INPUT -s 10.0.0.65/28 -p tcp --dport 22 -j ACCEPT\n", 1, "10.0.0.65/28",
                 id="iptables-source"),
    pytest.param("smb.conf", b"[share]\r\n   hosts allow = 10.0.0.71/255.255.255.248\r\n", 2,
                 "10.0.0.71/255.255.255.248", id="samba-mask-crlf"),
    pytest.param("app.yaml", b"# r\xe9seau admin\ntrusted_networks:\n  - 10.0.0.1/25\n", 3, "10.0.0.1/25",
                 id="yaml-list-latin1"),
    pytest.param("httpd.conf", b"<Location /status>\n  Require ip 10.0.0.200/24\n</Location>\n", 2,
                 "10.0.0.200/24", id="apache-require-wide"),
])
def test_g31_host_bits_set_to_another_address_in_a_file_holding_no_old_value(
        rel: str, text: bytes, line: int, old: str, native: str, repo: Callable[..., Path],
        run: Callable[..., Result], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RENAMER_NATIVE", native)  # the hyperscan first pass and the Python one alike
    root = repo({rel: text, "hosts": "10.0.0.70 db\n"}, config=CONF, allowlist=ALLOW)
    verify = run(root, "verify", "--format", "json")
    found = [(f["path"], f["line"], f["old"], f["reason"]) for f in json.loads(verify.stdout)["findings"]
             if f["path"] == rel]
    assert found == [(rel, line, old, "access-set")], verify.stdout
    assert run(root, "sweep", "--commit").exit_code == 1
    assert (root / rel).read_bytes() == text  # nothing rewritten by guess
    assert (root / "hosts").read_text() == "10.0.2.70 db\n"
    checked = run(root, "verify")
    assert checked.exit_code == 1 and f"{rel}:{line}:" in checked.stdout, checked.stdout


@pytest.mark.parametrize("native", ["0", "1"])
@pytest.mark.parametrize("conf, text", [
    pytest.param(CONF, "allow 10.0.1.66/29;\n", id="another-network"),
    pytest.param(CONF, "address 10.0.0.66/29\n", id="an-interface-not-a-rule"),
    pytest.param(CONF, "See 10.0.0.66/29 in the runbook.\n", id="prose"),
    pytest.param(CONF.replace("10.0.2.70", "10.0.0.69"), "allow 10.0.0.66/29;\n", id="holds-the-new-address-too"),
])
def test_noop_g31_host_bits_that_change_nothing(conf: str, text: str, native: str, repo: Callable[..., Path],
                                                run: Callable[..., Result], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RENAMER_NATIVE", native)
    root = repo({"net.conf": text}, config=conf, allowlist=ALLOW)
    assert run(root, "verify", "--strict").exit_code == 0
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "net.conf").read_text() == text
