"""IPv6 subnet IDs a shrinking move may leave outside a delegated prefix (t36-33 finding 17).

systemd-networkd's `[DHCPPrefixDelegation] SubnetId=0xf002` and an OpenWrt downstream's
`option ip6hint 'f000'` pick a /64 (or a longer prefix) of a prefix the router is delegated: the
file names no address, so no match finds it, and the prefix is not written beside it. Where the
repo shrinks an IPv6 network, each such ID the new prefix has no room for is a `tied-length`
residual (prefix_pools.delegated_ids says why): said, not refused, since the prefix it picks from
may be another. A file that names the moved prefix is prefix_pools.subnet_ids' (refused there).
"""

from __future__ import annotations

from collections.abc import Sequence

from renamer.classify import CURRENT
from renamer.prefix_moves import PrefixMove
from renamer.prefix_pools import TIED
from renamer.prefix_pools import delegated_ids as id_hits
from renamer.project import LoadedProject
from renamer.sweep.model import RESIDUAL, Reference
from renamer.vcs_status import worktree_lines_matching

_LIMIT = 512 * 1024  # a networkd or UCI file is small: a larger one is neither


def delegated_ids(project: LoadedProject, prefixes: Sequence[str] = ()) -> list[Reference]:
    """A `tied-length` residual at each subnet ID a shrinking IPv6 move leaves no room for."""
    moves = [PrefixMove(old, new) for old, new in project.config.renames.networks]
    if not any(m.old.version == 6 and m.old.prefixlen < m.new.prefixlen <= 64 for m in moves):
        return []
    found = worktree_lines_matching(project.root, r"(SubnetId[[:space:]]*=|option[[:space:]]+ip6hint)")
    paths = sorted({path for path, _, _ in found or [] if _inside(path, prefixes)
                    and project.classifier.classify(path).status == CURRENT})
    out = []
    for path in paths:
        try:
            data = (project.root / path).read_bytes()[:_LIMIT]
        except OSError:
            continue
        for hit in id_hits(data, moves):
            line_start = data.rfind(b"\n", 0, hit.start) + 1
            line_end = data.find(b"\n", hit.start)
            text = data[line_start:len(data) if line_end < 0 else line_end].decode("utf-8", "replace")
            out.append(Reference(path, data.count(b"\n", 0, hit.start) + 1, hit.start - line_start + 1,
                                 hit.old, hit.new, RESIDUAL, hit.refused or TIED, hit.note or "",
                                 text.strip()))
    return out


def _inside(path: str, prefixes: Sequence[str]) -> bool:
    return not prefixes or any(p == "" or path == p or path.startswith(p + "/") for p in prefixes)
