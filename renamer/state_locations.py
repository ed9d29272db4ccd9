"""Literal names that key state outside the repo (break-it round 23, finding 13).

A backup repository whose location spells the host (`RESTIC_REPOSITORY=sftp:nas:/srv/restic/web01`,
`BORG_REPO=ssh://borg@nas/./web01`, `restic -r sftp:nas:/srv/restic/web01 backup /etc`) keys the
same state as one built from the machine's own name (`.../$(hostname -s)`, own_storage.py): renamed
in the text, the next run opens, or `init` creates, a new, empty repository. A certificate
lineage kept by its ACME client under the certificate's name (`/etc/letsencrypt/live/NAME/`,
`archive/NAME/`, `renewal/NAME.conf`, acme.sh's `~/.acme.sh/NAME[_ecc]/`, Caddy's
`certificates/ISSUER/NAME/`) does not move when the host does: a server pointed at the new path
cannot load its certificate. Both are the `state-name` class: the spans here are the parts of
such a location that name a state's key, a path component (after `/`, not the `//` of an
authority) or borg's `::ARCHIVE`; the host part of a location (`nas`, `borg@nas`) is a machine
the text may name anew. Pure: bytes in, spans out.
"""

from __future__ import annotations

from renamer import lazy_re, own_storage

# The folder an ACME client keeps a certificate lineage in, keyed by the certificate's name.
_LINEAGE = lazy_re.compile(rb"(?:/letsencrypt/(?:live|archive|renewal|csr|keys)/|/\.?acme\.sh/"
                      rb"|/certificates/[A-Za-z0-9._-]{1,200}/)"
                      rb"(?P<name>[^/\s\"';,)}{]+(?:/[^\s\"';,)}{]*)?)")  # the name and the rest of the path
LITERALS = (b"letsencrypt", b"acme.sh", b"certificates/")


def lineage_spans(data: bytes) -> list[tuple[int, int]]:
    """(start, end) of the certificate name in each ACME lineage path of `data`."""
    if not any(word in data for word in LITERALS):
        return []
    return [m.span("name") for m in _LINEAGE.finditer(data)]


def keyed(rel: str, data: bytes, start: int, end: int) -> str | None:
    """What keys state at `data[start:end]` (an old name found there): "lineage", "backup" or
    None. A backup tool's repository (restic, borg, kopia: `init` makes a new, empty one under a
    new name), not a copy tool's argument: an rsync or scp path spelled literally is the operator's
    folder and follows the rename, as it did before round 23 (built from the machine's own name it
    is a residual: own_storage.py)."""
    if any(s <= start and end <= e for s, e in lineage_spans(data)):
        return "lineage"
    if any(s <= start and end <= e and in_path_part(data, start, (s, e))
           for s, e in own_storage.location_spans(rel, data, copies=False)):
        return "backup"
    return None


def in_path_part(data: bytes, start: int, span: tuple[int, int]) -> bool:
    """Does the name at `start` stand in the path part of the location `span` (after a `/` that is
    not an authority's `//`, or after borg's `::`), not as the machine the location is on?"""
    head = data[span[0]:start]
    if head.endswith(b"::"):
        return True
    if not head.endswith(b"/"):
        return False
    cut = max(head.rfind(b" "), head.rfind(b"="), head.rfind(b"\t"), head.rfind(b"\""), head.rfind(b"'"))
    value = head[cut + 1:]
    return not value.endswith(b"//")
