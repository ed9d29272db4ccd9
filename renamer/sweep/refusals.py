"""Refusals: edits the sweep will not make, because the file's structure would break.

A structured file whose edit set would not parse, or would make a renamed key, section,
anchor or alias collide with another (the scanner's structure check, `FileResult.refused`),
is no residual to leave behind while the rest is written: the dry run lists each one, and a
sweep that writes refuses before its first write with the very same list (one function
makes it for both). The user decides each by hand, or keeps it with a keep rule or the
inline marker, and sweeps again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from renamer import lazy_re, prefix_spellings
from renamer.errors import UnsafeError
from renamer.host_roles import NO_HOST
from renamer.name_limits import HINT, LIMIT
from renamer.names import IPNetwork, parse_address
from renamer.prefix_moves import OUTSIDE, PrefixMove
from renamer.prefix_pools import TOOL
from renamer.sweep.model import RESIDUAL, ScanResult
from renamer.words import plural

SHRINK = "outside the new, smaller network"
# A host of a /31 or /127 whose offset is the grown network's network address (t26-33, finding 23).
ROLE = "no host place in the new network"
# A format's problem names the line where it is, when it knows it: "line 3: ...".
_LINE = lazy_re.compile(r"line (\d+): ")


@dataclass(frozen=True)
class Refusal:
    path: str
    line: int
    problem: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.problem}" if self.line else f"{self.path}: {self.problem}"


def refusals(scan: ScanResult) -> list[Refusal]:
    """Every file whose edits the structure check refused, at the line it names (else the line
    of the first reference it refused), in path order."""
    out = []
    for result in scan.files:
        if result.refused is None:
            continue
        found = _LINE.match(result.refused)
        if found is not None:
            out.append(Refusal(result.path, int(found.group(1)), result.refused[found.end():]))
            continue
        lines = [r.line for r in result.references if r.reason == "structure"]
        out.append(Refusal(result.path, min(lines, default=0), result.refused))
    # A shrinking network move that leaves an address in use outside the new network: each place
    # (records keep their addresses, so only a current-state file's count), file:line.
    for result in scan.files:
        for ref in result.references:
            if ref.status == RESIDUAL and ref.reason == OUTSIDE:
                why = (ref.note or "").split("; ")[0]
                heading = ROLE if prefix_spellings.ROLE_NOTE in why else SHRINK
                out.append(Refusal(result.path, ref.line, f"{heading}: {why}"))
            elif ref.status == RESIDUAL and ref.reason == TOOL:  # a length its tool refuses (prefix_pools.py)
                out.append(Refusal(result.path, ref.line, f"{TOOL}: {(ref.note or '').split('; ')[0]}"))
            elif ref.status == RESIDUAL and ref.reason == NO_HOST:  # a host on a network's own address
                out.append(Refusal(result.path, ref.line, f"{NO_HOST}: {(ref.note or '').split('; ')[0]}"))
            elif ref.status == RESIDUAL and ref.reason == LIMIT:  # a name its place cannot hold (name_limits)
                note = (ref.note or "").removesuffix(f"; {HINT}")
                out.append(Refusal(result.path, ref.line, f"{LIMIT}: {note}"))
    return out


def inventory_refusals(networks: Sequence[tuple[IPNetwork, IPNetwork]],
                       hosts: Sequence[tuple[str, str, str]]) -> list[Refusal]:
    """Each address of the DNS inventory's hosts ((name, address, site file) of `sites.site_hosts`)
    that a shrinking network move cannot place: an address in use, as a current-state file's."""
    moves = [PrefixMove(old, new) for old, new in networks if old.prefixlen != new.prefixlen]
    out = []
    for name, text, source in hosts if moves else ():
        address = parse_address(text)
        move = next((m for m in moves if address is not None and m.offset_of(address) is not None), None)
        if move is not None and address is not None and not move.fits(address):
            out.append(Refusal(source, 0, f"{SHRINK}: hosts[{name}]: {move.why_not(address)}"))
        elif move is not None and address is not None and \
                prefix_spellings.host_becomes_network(move.old, move.new, address):  # t26-33, finding 23
            note = prefix_spellings.role_note(text, move.old, move.new)
            out.append(Refusal(source, 0, f"{ROLE}: hosts[{name}]: {note}"))
    return out


def places(found: Sequence[Refusal]) -> str:
    """`2 files`, or `3 places in 1 file` where a file is refused at more than one place (t33-33
    finding 19: one file was counted twice)."""
    files = len({r.path for r in found})
    if files == len(found):
        return plural(files, "file")
    return f"{plural(len(found), 'place')} in {plural(files, 'file')}"


def refuse(found: list[Refusal]) -> None:
    """Stop a sweep before its first write when any edit is refused: one line names them all."""
    if not found:
        return
    listed = "; ".join(str(r) for r in found)
    placeless = any(r.problem.startswith(ROLE) for r in found)
    if placeless and all(r.problem.startswith((SHRINK, ROLE)) for r in found):
        used = plural(len(found), "address", "addresses")
        raise UnsafeError(f"a network move leaves {used} in use with no host place in the new network: "
                          f"{listed}; nothing written: renumber them by hand (renames.addresses), or choose "
                          "another new network, then sweep again")
    if all(r.problem.startswith(LIMIT) for r in found):  # break-it round 23, #14
        raise UnsafeError(f"a new name is longer than {plural(len(found), 'place')} it lands in can hold: "
                          f"{listed}; nothing written: choose a shorter new name, or write a short one there "
                          "by hand and keep the line with a keep rule, then sweep again")
    if all(r.problem.startswith(NO_HOST) for r in found):  # t31 round 24, finding 27
        raise UnsafeError(f"an address rename lands a host where no host can be: {listed}; nothing written: "
                          "choose another new address (renames.addresses), then sweep again")
    if all(r.problem.startswith(SHRINK) for r in found):
        used = plural(len(found), "address", "addresses")
        raise UnsafeError(f"a network move shrinks past {used} in use: {listed}; "
                          "nothing written: renumber them into the new network by hand (renames.addresses), "
                          "or choose a longer new network, then sweep again")
    raise UnsafeError(f"{places(found)} would no longer parse, would collide or would dangle: "
                      f"{listed}; nothing written: edit them by hand, or keep them with a keep rule or the "
                      "inline marker, then sweep again")
