"""public_domains: pure decisions (the CLI behaviour is tests/cli/test_public_domains.py)."""

from __future__ import annotations

import pytest

from renamer import public_domains

OWN = public_domains.own_domains([("web01.mycorp.de", "app01.mycorp.de"), ("db01", "db02")])


def test_own_domains_are_the_fqdn_renames_domains_and_parents() -> None:
    assert frozenset({"mycorp.de"}) == OWN
    assert public_domains.own_domains([("a.b.lab.example", "c.lab.example")]) == frozenset(
        {"b.lab.example", "lab.example", "example"})


@pytest.mark.parametrize(("text", "what"), [
    (b"debian.pool.ntp.org iburst", "kept"),
    (b"proxmox.com/en", "kept"),
    (b"nas.github.io", "kept"),
    (b"nas.co.uk", "kept"),
    (b"debian.other.de", "residual"),
    (b"debian.mycorp.de", None),
    (b"debian.lab.example", None),
    (b"debian.lan", None),
    (b"debian.home.arpa", None),
    (b"debian.sh", None),
    (b"debian.yml", None),
    (b"debian.dev", "residual"),  # a weak public label: maybe an environment suffix, never kept silently
    (b"debian.app", "residual"),
    (b"debian rest", None),
])
def test_decide(text: bytes, what: str | None) -> None:
    assert public_domains.decide(text, len(b"debian") if text.startswith(b"debian") else text.index(b"."),
                                 OWN) == what


def test_url_host_covers_host_and_path() -> None:
    data = b"see https://grafana.com/grafana/x and grafana\n"
    host = public_domains.url_host(data, data.index(b"grafana"))
    assert host == (data.index(b"grafana"), data.index(b".com") + 4)
    assert public_domains.url_host(data, data.index(b"/grafana/") + 1) == host
    assert public_domains.url_host(data, data.rindex(b"grafana")) is None


@pytest.mark.parametrize(("domain", "suffix"), [
    ("com", True), ("sh", True), ("co.uk", True), ("com.au", True), ("co.za", True), ("github.io", True),
    ("mycorp.co.uk", False), ("lab", False), ("mycorp.de", False), ("lab.example", False)])
def test_is_suffix(domain: str, suffix: bool) -> None:
    assert public_domains.is_suffix(domain) is suffix


def test_round24_url_hosts_under_the_wider_list() -> None:
    data = b"curl https://ntfy.sh/x and ./ntfy.sh\n"
    assert public_domains.decide(data, data.index(b".sh"), OWN, in_url=True) == "kept"
    assert public_domains.decide(data, data.rindex(b".sh"), OWN) is None
    data = b"http://pug.db:5432/x\n"  # a Kubernetes namespace: no list knows `db`
    assert public_domains.decide(data, data.index(b".db"), OWN, in_url=True) is None


@pytest.mark.parametrize(("data", "what"), [
    (b"deb http://deb.debian.org/debian main\n", "kept"),
    (b"require code.gitea.io/sdk/gitea v0.15.1\n", "kept"),
    (b"http://proxy.lab.example/debian/\n", None),
    (b"https://web01.mycorp.de/debian/\n", None),  # the renames' own domain
    (b"http://10.0.0.1/debian/\n", None),
])
def test_round24_a_path_on_a_public_host(data: bytes, what: str | None) -> None:
    at = data.rindex(b"debian") if b"debian" in data else data.rindex(b"gitea")
    host = public_domains.url_host(data, at)
    assert host is not None
    assert public_domains.host_decision(data, host, OWN) == what


def test_round25_06_a_domain_in_a_hosts_place_without_a_scheme() -> None:
    """Outside round 25, finding 06: a path after it, a server key's value, a network command's
    argument; a script's name is none of them."""
    from renamer.public_domains import in_host_place
    for line in (b"ntfy.sh/mytopic", b"upstream: ntfy.sh", b"curl -d 'x y' ntfy.sh", b"server = \"ntfy.sh\""):
        assert in_host_place(line, line.index(b"ntfy"), line.index(b"ntfy") + 4), line
    for line in (b"bash ntfy.sh", b". ./ntfy.sh", b"script: ntfy.sh", b"ntfy.sh"):
        assert not in_host_place(line, line.index(b"ntfy"), line.index(b"ntfy") + 4), line
