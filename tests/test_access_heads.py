"""access_heads.py: which heads stand as an item of an access rule's list (f28, finding 19)."""

from __future__ import annotations

import pytest

from renamer.access_heads import in_access_list


def _at(data: bytes, head: bytes, rel: str = "x.conf") -> bool:
    start = data.index(head)
    return in_access_list(data, start, start + len(head), rel)


@pytest.mark.parametrize(("data", "head", "rel", "listed"), [
    (b"   hosts allow = 127. 10.0.48.\n", b"10.0.48.", "smb.conf", True),
    (b"   HOSTS DENY = 10.0.48. EXCEPT 10.0.48.5\n", b"10.0.48.", "smb.conf", True),
    (b"  Require ip 10.0.48\n", b"10.0.48", "a.conf", True),
    (b"  Require not ip 192.0.2.1 10.0.48\n", b"10.0.48", "a.conf", True),
    (b"Allow from 10.0.48.\n", b"10.0.48.", "proftpd.conf", True),
    (b"  only_from += 10.0.48.\n", b"10.0.48.", "xinetd.d/x", True),
    (b"host all all 10.0.48 md5\n", b"10.0.48", "pg_hba.conf", True),
    (b"sshd, vsftpd: 127.0.0.1, 10.0.48.\n", b"10.0.48.", "etc/hosts.allow", True),
    (b"10.0.48.: sshd\n", b"10.0.48.", "etc/hosts.allow", False),  # the daemon list, not a client
    (b"10.0.48   OK\n", b"10.0.48", "postfix/access", True),
    (b"10.0.48   OK\n", b"10.0.48", "notes.txt", False),  # not an access map
    # t29-33, finding 05: an access map under any name, by the action after its key; sendmail's tags;
    # networks(5)
    (b"10.0.48\tOK\n", b"10.0.48", "postfix_access", True),
    (b"10.0.48  REJECT\n", b"10.0.48", "maps/client_checks", True),
    (b"10.0.48  554 go away\n", b"10.0.48", "checks.cf", True),
    (b"Connect:10.0.48\tRELAY\n", b"10.0.48", "sendmail/access_db", True),
    (b"10.0.48  something else\n", b"10.0.48", "checks.cf", False),  # no action
    (b"lab\t10.0.48\n", b"10.0.48", "etc/networks", True),
    (b"10.0.48\tlab\n", b"10.0.48", "etc/networks", False),  # the name's place
    (b"lab\t10.0.48\n", b"10.0.48", "networks.txt", False),
    (b"# Require ip 10.0.48\n", b"10.0.48", "a.conf", False),  # a comment
    (b"version 10.0.48\n", b"10.0.48", "a.conf", False),  # no access directive
    (b"  Require ip 10.0.48x\n", b"10.0.48", "a.conf", False),  # another token
    (b"  Require ip a10.0.48\n", b"10.0.48", "a.conf", False),
])
def test_in_access_list(data: bytes, head: bytes, rel: str, listed: bool) -> None:
    assert _at(data, head, rel) is listed
