"""Ranges and sets in every dress (issue 27, item 2): decorated or FQDN ends are still a range, never
rewritten at one end; and the reverse, Markdown emphasis is no glob while a glob needs a decision."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Result

CONFIG = """\
version: 1
renames:
  hosts: {web01: web11, web01.lab.example: web11.lab.example}
  addresses: {10.0.0.70: 10.1.0.70, 10.0.0.1: 10.1.0.1}
allowlist: allow.yaml
"""
ALLOW = "version: 1\ncurrent: ['**']\n"


def _reasons(root: Path, run: Callable[..., Result]) -> list[str | None]:
    return [f["reason"] for f in json.loads(run(root, "verify", "--format", "json").stdout)["findings"]]


@pytest.mark.parametrize("line", (
    pytest.param("`web01`–`web05` at `10.0.0.70`–`.74`", id="code-spans"),
    pytest.param("web01.lab.example–web05.lab.example at 10.0.0.70–.74", id="fqdn-ends"),
    pytest.param("**web01**-**web04**", id="bold"),
    pytest.param("[web01]..[web03]", id="brackets"),
    pytest.param("'web01' to 'web04'", id="quoted-spaced"),
    pytest.param("\"10.0.0.70\"-\"10.0.0.74\"", id="quoted-addresses"),
    pytest.param("web01.lab.example-web03", id="fqdn-then-bare"),
    pytest.param("<web01>\u2013<web05>", id="angle-brackets"),  # the break-it pass's two dresses
    pytest.param("web01\u2026web05", id="ellipsis"),
    # break-it round 21, finding 5: links, HTML elements and entities, every dash
    pytest.param("[web01](http://x)\u2013[web05](http://y)", id="markdown-links"),
    pytest.param("<code>web01</code>&ndash;<code>web05</code>", id="html-code-ndash"),
    pytest.param("10.0.0.70&ndash;74 and 10.0.0.70&#8211;10.0.0.74", id="entities"),
    pytest.param("web01 -- web05 and 10.0.0.70 -- 10.0.0.74", id="double-hyphen"),
    pytest.param("web01 \u2212 web05 and 10.0.0.70 \u2212 10.0.0.74", id="minus-sign"),
    pytest.param("web01 \u2012 web05, 10.0.0.70\u201274", id="figure-dash"),
    pytest.param("web01 \u2015 web05", id="horizontal-bar"),
    # round 21, finding 5's last form: an ellipsis list, in its spellings
    pytest.param("web01,\u2026,web05", id="ellipsis-list"),
    pytest.param("web01, ..., web05 and 10.0.0.70, \u2026, 10.0.0.74", id="ellipsis-list-spaced-dots"),
    pytest.param("`web01`,&hellip;,`web05`", id="ellipsis-list-entity-code"),
    pytest.param("web01.lab.example, \u2026, web05.lab.example", id="ellipsis-list-fqdn"),
    pytest.param("web01 ... web05", id="three-dots"),
))
def test_a_dressed_range_is_never_rewritten_at_one_end(line: str, repo: Callable[..., Path],
                                                       run: Callable[..., Result]) -> None:
    root = repo({"servers.md": line + "\n"}, config=CONFIG, allowlist=ALLOW)
    reasons = _reasons(root, run)
    assert reasons and set(reasons) == {"range"}
    run(root, "sweep", "--commit")
    assert (root / "servers.md").read_text() == line + "\n"


@pytest.mark.parametrize(("line", "expected"), (
    pytest.param("The gateway is **10.0.0.1**.", "The gateway is **10.1.0.1**.", id="bold-address"),
    pytest.param("on *web01* and ***web01***", "on *web11* and ***web11***", id="italic-and-bold-italic"),
    pytest.param("web01.lab.example and web05", "web11.lab.example and web05", id="no-range"),
    pytest.param("`web01` - see below", "`web11` - see below", id="prose-after-a-dash"),
    pytest.param("web01, web03, web05", "web11, web03, web05", id="a-list-without-an-ellipsis"),
    pytest.param("web01... and more", "web11... and more", id="dots-after-one-name"),
    # break-it round 21, finding 16 (pi-cluster docs): bold closing after an old name's prefix
    pytest.param("**Ansible control web0**, `pimaster` is deployed on web01.",
                 "**Ansible control web0**, `pimaster` is deployed on web11.", id="bold-after-a-prefix"),
    pytest.param("See **web0 nodes** and web01", "See **web0 nodes** and web11", id="bold-opening-at-a-prefix"),
))
def test_emphasis_and_prose_are_no_range_or_glob(line: str, expected: str, repo: Callable[..., Path],
                                                 run: Callable[..., Result]) -> None:
    root = repo({"servers.md": line + "\n"}, config=CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "servers.md").read_text() == expected + "\n"


@pytest.mark.parametrize("line", (
    pytest.param("ls web01*", id="host-glob"), pytest.param("allow 10.0.0.1*", id="address-glob"),
    pytest.param("ls web0*", id="prefix-glob"), pytest.param("rsync web0?:/srv", id="prefix-glob-one-character"),
))
def test_a_glob_needs_a_decision(line: str, repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"run.sh": line + "\n"}, config=CONFIG, allowlist=ALLOW)
    assert _reasons(root, run) == ["pattern"]
    run(root, "sweep", "--commit")
    assert (root / "run.sh").read_text() == line + "\n"


BOTH_ENDS = """\
version: 1
renames:
  hosts: {web01: app01, web03: app03, web05: app05}
  addresses: {10.0.0.70: 10.1.0.70, 10.0.0.74: 10.1.0.74}
allowlist: allow.yaml
"""


@pytest.mark.parametrize("line", (
    pytest.param("web01-web05", id="two-renamed-ends"),
    pytest.param("web{01..03}", id="brace-set-of-two-renamed"),
    pytest.param("dhcp-range=10.0.0.70-10.0.0.74", id="two-renamed-addresses"),
    pytest.param("`web01`–`web05` at 10.0.0.70–.74", id="dressed-two-renamed"),
))
def test_a_range_whose_ends_are_both_renamed_is_refused_not_a_crash(line: str, repo: Callable[..., Path],
                                                                    run: Callable[..., Result]) -> None:
    # Two rules found the same span, and sorting fell back to comparing the rules (a TypeError
    # in sweep, verify and audit alike): the span alone orders them.
    root = repo({"servers.md": line + "\n"}, config=BOTH_ENDS, allowlist=ALLOW)
    assert run(root, "sweep", "--dry-run").exit_code == 0
    assert run(root, "audit").exit_code == 0
    reasons = _reasons(root, run)
    assert reasons and set(reasons) == {"range"}
    assert run(root, "sweep", "--commit").exit_code == 1  # left for a decision
    assert (root / "servers.md").read_text() == line + "\n"


V6_CONFIG = CONFIG.replace("10.0.0.1: 10.1.0.1}", "10.0.0.1: 10.1.0.1, '2001:db8::11': '2001:db8:1::11'}")


@pytest.mark.parametrize("line", (
    pytest.param("range: 2001:db8::11-2001:db8::15", id="full-ends"),
    pytest.param("pool `2001:db8::a`..`2001:db8::11`", id="hex-dressed"),
    pytest.param("hosts 2001:db8::11-15", id="shorthand"),
    pytest.param("2001:DB8::11 \u2013 2001:DB8::1F", id="upper-case-spaced"),
))
def test_an_ipv6_range_is_never_rewritten_at_one_end(line: str, repo: Callable[..., Path],
                                                     run: Callable[..., Result]) -> None:
    """The notes of break-it round 12: an IPv6 range was rewritten at one end (its last group is hex)."""
    root = repo({"net.md": line + "\n"}, config=V6_CONFIG, allowlist=ALLOW)
    reasons = _reasons(root, run)
    assert reasons and set(reasons) == {"range"}
    run(root, "sweep", "--commit")
    assert (root / "net.md").read_text() == line + "\n"


@pytest.mark.parametrize(("line", "expected"), (
    pytest.param("dns 2001:db8::11, 2001:db8::12", "dns 2001:db8:1::11, 2001:db8::12", id="a-list"),
    pytest.param("2001:db8::11-2001:db8::11", "2001:db8:1::11-2001:db8:1::11", id="one-address-twice"),
    pytest.param("via 2001:db8::11 - see below", "via 2001:db8:1::11 - see below", id="prose"),
))
def test_ipv6_addresses_that_are_no_range_follow(line: str, expected: str, repo: Callable[..., Path],
                                                 run: Callable[..., Result]) -> None:
    root = repo({"net.md": line + "\n"}, config=V6_CONFIG, allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert (root / "net.md").read_text() == expected + "\n"
