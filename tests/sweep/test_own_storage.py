"""sweep/own_storage: literal names keying state outside the repo (pure logic; the sweep's
residuals are tests/cli/test_state_locations.py's and tests/cli/test_own_storage*'s)."""

from __future__ import annotations

import pytest

from renamer import own_storage
from renamer.occurrences import Match
from renamer.state_names import HELD
from renamer.sweep.own_storage import literal_storage_matches


def _hosts(data: bytes, old: bytes = b"pug") -> list[Match]:
    out, at = [], data.find(old)
    while at >= 0:
        out.append(Match(at, at + len(old), old.decode(), "wolf", "host"))
        at = data.find(old, at + 1)
    return out


LINEAGE = b"ssl_certificate /etc/letsencrypt/live/pug/fullchain.pem;\nserver_name pug;\n"
BACKUP = b"RESTIC_REPOSITORY=sftp:nas.lan:/srv/restic/pug\n"


@pytest.mark.parametrize("backups", [True, False])
def test_a_lineage_is_held_whatever_the_caller_knows_of_backup_words(backups: bool) -> None:
    """Issue 30: where the native pass answered that a file holds no backup tool's word
    (Matcher.rules_out("own storage")), only the ACME words are looked for: a lineage is still held."""
    assert not any(word in LINEAGE for word in own_storage.LITERALS)
    found = literal_storage_matches(LINEAGE, "site.conf", _hosts(LINEAGE), backups=backups)
    assert [m.refused for m in found] == [HELD, None]


def test_a_backup_location_is_held_where_its_words_are_looked_for() -> None:
    assert [m.refused for m in literal_storage_matches(BACKUP, "backup.env", _hosts(BACKUP))] == [HELD]


def test_only_a_host_name_open_to_rewriting_is_read() -> None:
    """A file whose matches are all addresses, refused or kept is returned as it came, words or not."""
    matches = [Match(0, 3, "pug", "wolf", "address"), Match(38, 41, "pug", "wolf", "host", refused="pattern"),
               Match(42, 45, "pug", "wolf", "host", kept="account")]
    assert literal_storage_matches(LINEAGE + BACKUP, "x.conf", matches) is matches
