"""The grammar of literal state locations (break-it round 23, finding 13): pure logic; the CLI
behaviour is tests/cli/test_state_locations.py."""

from __future__ import annotations

import pytest

from renamer import state_locations


def _at(data: bytes, word: bytes, nth: int = 0) -> tuple[int, int]:
    start = -1
    for _ in range(nth + 1):
        start = data.index(word, start + 1)
    return start, start + len(word)


@pytest.mark.parametrize(("rel", "data", "word", "nth", "what"), [
    ("b.env", b"RESTIC_REPOSITORY=sftp:nas:/srv/restic/pug\n", b"pug", 0, "backup"),
    ("b.env", b"BORG_REPO=ssh://borg@pug/./shared\n", b"pug", 0, None),  # the authority
    ("b.env", b"RESTIC_REPOSITORY=rest:http://pug:8000/x\n", b"pug", 0, None),
    ("b.sh", b"borg create nas:/srv/borg/x::pug-daily /etc\n", b"pug", 0, "backup"),
    ("b.sh", b"rsync -a pug:/etc/ /bk/pug/\n", b"pug", 0, None),
    ("b.sh", b"rsync -a pug:/etc/ /bk/pug/\n", b"pug", 1, None),  # a copy tool's folder follows
    ("n.conf", b"ssl_certificate /etc/letsencrypt/live/pug.lan/fullchain.pem;\n", b"pug.lan", 0, "lineage"),
    ("n.conf", b"ssl_certificate /etc/ssl/pug.lan/fullchain.pem;\n", b"pug.lan", 0, None),
    ("h.cfg", b"crt /root/.acme.sh/pug.lan_ecc/pug.lan.pem\n", b"pug.lan", 1, "lineage"),
    ("p.yml", b"- git:\n    repo: https://git.lan/x/pug.git\n", b"pug", 0, None),  # no backup tool named
])
def test_keyed(rel: str, data: bytes, word: bytes, nth: int, what: str | None) -> None:
    start, end = _at(data, word, nth)
    assert state_locations.keyed(rel, data, start, end) == what
