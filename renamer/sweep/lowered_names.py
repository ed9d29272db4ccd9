"""A mixed-case host name the repo lower-cases at run time, and its lower-case literals (break-it
round 25, finding 15).

`config.sops.secrets."syncthing/${lib.toLower config.networking.hostName}/cert"` (Nix), `certs/{{
inventory_hostname | lower }}.pem` (Jinja), `lower(var.hostname)` (Terraform), `${HOSTNAME,,}` or
`hostname | tr A-Z a-z` (shell), `.lower()`, `.toLowerCase()`, `strings.ToLower`, `.downcase`: where
the repo computes a host's name in lower case, a literal of an old mixed-case name in lower case
(`"syncthing/nixos-server1/cert" = { };`, `certs/nixos-server1.pem`) is what that computation
yields today. Renaming `NixOS-Server1` makes the computation yield `nixos-store1`, which the
literal no longer names: the NixOS evaluation fails on a missing attribute, the copy on a missing
file. Such a literal (text or path) is a residual `composed-name`, never rewritten (which literal
the computation meets is not proven here), and verify fails on it; without a lowering of a host's
name anywhere in the tree it stays the `near-miss (case)` it was.
"""

from __future__ import annotations

from pathlib import Path

from renamer import lazy_re, once, vcs_status
from renamer.occurrences import Match

REASON = "composed-name"

# A run-time lowering (ERE and PCRE alike), on a line naming a host or a name.
_LOWERING = (r"toLower|[|] *lower([^A-Za-z0-9_]|$)|[.]lower[(][)]|(^|[^A-Za-z0-9_.])lower[(]|toLowerCase[(]"
             r"|ToLower(Invariant)?[(]|(^|[^A-Za-z0-9_])tolower[(]|[$][{][A-Za-z_][A-Za-z0-9_]*,,[}]"
             r"|[.]downcase|tr +['\"]?(A-Z|\[:upper:\])['\"]? +['\"]?(a-z|\[:lower:\])")
_HOSTISH = lazy_re.compile(r"(?i)host|name|node|machine|fqdn")
_NAME = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")


def mixed(hosts: tuple[tuple[str, str], ...] | list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The renames whose old name has a capital letter, longest first."""
    return sorted(((old, new) for old, new in hosts if old != old.lower()), key=lambda p: -len(p[0]))


def lowerings(root: Path) -> list[tuple[str, int, str]]:
    """(path, line, text) of each line of the tree lower-casing a host's name at run time (one git
    grep per scan, shared by the workers)."""
    def read() -> list[tuple[str, int, str]]:
        found = vcs_status.worktree_lines_matching(root, _LOWERING) or []
        return [(rel, line, text.strip()) for rel, line, text in found if _HOSTISH.search(text)]
    return once.shared(repr(("lowered names", str(root))), read)


def _bounded(data: bytes, start: int, end: int) -> bool:
    before = data[start - 1] if start > 0 else 0x20
    after = data[end] if end < len(data) else 0x20
    return before not in _NAME and after not in _NAME


def spans(data: bytes, pairs: list[tuple[str, str]]) -> list[tuple[int, int, str, str]]:
    """(start, end, old, new) of each whole lower-case spelling of a mixed-case old name in `data`."""
    out: list[tuple[int, int, str, str]] = []
    for old, new in pairs:
        needle = old.lower().encode()
        at = data.find(needle)
        while at >= 0:
            end = at + len(needle)
            if _bounded(data, at, end) and not any(s < end and at < e for s, e, _, _ in out):
                out.append((at, end, old, new))
            at = data.find(needle, end)
    return sorted(out)


def note(old: str, new: str, where: tuple[str, int, str]) -> str:
    rel, line, text = where
    shown = text if len(text) <= 100 else text[:97] + "..."
    return (f"{old.lower()} is {old} in lower case, as the repo computes the host's name at run time "
            f"({rel}:{line}: `{shown}`): renamed, that computation yields {new.lower()}, which this literal "
            f"no longer names; edit it to {new.lower()} where it is the computed name (or keep it with the "
            "inline marker where it names something else)")


def lowered_matches(data: bytes, matches: list[Match], pairs: list[tuple[str, str]],
                    where: tuple[str, int, str]) -> list[Match]:
    """`matches` with each whole lower-case spelling of a mixed-case old name added as a residual."""
    taken = [(m.start, m.end) for m in matches]
    added = [Match(start, end, old.lower(), new.lower(), "host", refused=REASON, note=note(old, new, where))
             for start, end, old, new in spans(data, pairs)
             if not any(s < end and start < e for s, e in taken)]
    return sorted([*matches, *added], key=lambda m: m.start) if added else matches
