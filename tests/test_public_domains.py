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
