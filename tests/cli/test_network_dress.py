"""An IPv6 network renumber keeps each address in the file's own dress (break-it round 16, #21).

Under `networks: 2001:db8:40::/48 -> 2001:db8:50::/48` every spelling followed, but in renamer's
canonical one: upper case lowered, the fully expanded and zero-run forms compressed. A plain
`addresses` rename already kept the dress; a network renumber now does the same: the zero run
where the file has it, each zero-padded group as wide as written, upper case where the file's is.
"""

from __future__ import annotations

import ipaddress
from pathlib import Path

import pytest

from renamer.forms import v6_like
from tests.testing.repos import Repo, Run, make_repo

NETWORKS = 'version: 1\nrenames:\n  networks: {"2001:db8:40::/48": "2001:db8:50::/48"}\nallowlist: allow.yaml\n'
ALLOW = 'version: 1\ncurrent: ["**"]\n'
SPELLINGS = [
    ("2001:db8:40::11", "2001:db8:50::11"),
    ("2001:DB8:40::11", "2001:DB8:50::11"),
    ("2001:0db8:0040:0000:0000:0000:0000:0011", "2001:0db8:0050:0000:0000:0000:0000:0011"),
    ("2001:0DB8:0040:0000:0000:0000:0000:0011", "2001:0DB8:0050:0000:0000:0000:0000:0011"),
    ("2001:db8:40:0:0:0:0:11", "2001:db8:50:0:0:0:0:11"),
    ("2001:0db8:40:0::0011", "2001:0db8:50:0::0011"),  # some groups padded, a zero run after
    ("2001:db8:40:7::/64", "2001:db8:50:7::/64"),
    ("http://[2001:DB8:40::11]:8080/", "http://[2001:DB8:50::11]:8080/"),
    ("2001:db8:40:ab:cd::1", "2001:db8:50:ab:cd::1"),
]


def test_a_network_renumber_keeps_each_address_s_dress(repo: Repo, run: Run) -> None:
    body = "".join(f"v{i}={old}\n" for i, (old, _) in enumerate(SPELLINGS))
    root = repo({"net.conf": body}, config=NETWORKS, allowlist=ALLOW)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 0, done.stdout + done.stderr
    assert (root / "net.conf").read_text() == "".join(f"v{i}={new}\n" for i, (_, new) in enumerate(SPELLINGS))
    assert run(root, "verify").exit_code == 0


def test_a_plain_address_rename_and_a_network_renumber_spell_alike(tmp_path: Path, run: Run) -> None:
    plain = NETWORKS.replace('networks: {"2001:db8:40::/48": "2001:db8:50::/48"}',
                             'addresses: {"2001:db8:40::11": "2001:db8:50::11"}')
    olds = [old for old, _ in SPELLINGS if "/64" not in old and ":ab:" not in old]
    assert len(olds) == 7
    body = "".join(f"{old}\n" for old in olds)
    written = []
    for name, config in (("network", NETWORKS), ("address", plain)):
        root = make_repo(tmp_path / name, {"net.conf": body}, config=config, allowlist=ALLOW)
        assert run(root, "sweep", "--commit").exit_code == 0
        written.append((root / "net.conf").read_text())
    assert written[0] == written[1] == "".join(f"{new}\n" for old, new in SPELLINGS if old in olds)


@pytest.mark.parametrize(("written", "new", "spelled"), [
    ("2001:db8:40::11", "2001:db8:50::11", "2001:db8:50::11"),
    # the zero run of the file is no longer zero in the new address: compressed, never wrong
    ("2001:db8::11", "2001:db8:50::11", "2001:db8:50::11"),
    ("2001:DB8::11", "2001:db8:50::11", "2001:DB8:50::11"),
    # a group grows past its padding: as wide as it needs
    ("2001:0db8:0040::0011", "2001:db8:1234::11", "2001:0db8:1234::0011"),
    ("::ffff:10.0.40.11", "::ffff:10.0.50.21", "::ffff:10.0.50.21"),
    ("0:0:0:0:0:0:0:1", "::2", "0:0:0:0:0:0:0:2"),
])
def test_v6_like_spells_the_same_address(written: str, new: str, spelled: str) -> None:
    address = ipaddress.IPv6Address(new)
    assert v6_like(written, address) == spelled
    assert ipaddress.IPv6Address(spelled) == address
