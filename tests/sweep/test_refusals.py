"""sweep/refusals.py: a shrinking network move refuses on every address in use it cannot place
(current-state files' references and the DNS inventory's hosts), and on no other."""

from __future__ import annotations

import ipaddress

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from renamer.prefix_moves import OUTSIDE, PrefixMove
from renamer.sweep.model import KEPT, RESIDUAL, FileResult, Reference, ScanResult
from renamer.sweep.refusals import SHRINK, inventory_refusals, refusals


@settings(max_examples=40, deadline=None)
@given(old_len=st.integers(20, 29), new_len=st.integers(20, 29), base=st.integers(0, 2 ** 32 - 1),
       other=st.integers(0, 2 ** 32 - 1), in_place=st.booleans(),
       offsets=st.lists(st.integers(0, 2 ** 12 - 1), min_size=1, max_size=10, unique=True))
def test_an_inventory_host_is_refused_exactly_where_the_new_network_cannot_place_it(
        old_len: int, new_len: int, base: int, other: int, in_place: bool, offsets: list[int]) -> None:
    low = min(old_len, new_len)  # in place: both start at one address, aligned for the shorter
    start = base >> (32 - low) << (32 - low) if in_place else base >> (32 - old_len) << (32 - old_len)
    old = ipaddress.IPv4Network((start, old_len))
    new = ipaddress.IPv4Network((start if in_place else other >> (32 - new_len) << (32 - new_len), new_len))
    assume(in_place or not old.overlaps(new))
    move = PrefixMove(old, new)
    hosts = [(f"h{o}", str(old.network_address + o % old.num_addresses), "dns/sites/lab.yaml") for o in offsets]
    found = inventory_refusals([(old, new)], hosts)
    refused = {r.problem.split("]: ")[0].split("[")[1] for r in found}
    for name, text, _ in hosts:
        placed = move.fits(ipaddress.IPv4Address(text))
        assert (name not in refused) == placed or old_len == new_len
    if new_len <= old_len:  # a grow (or no change) refuses nothing
        assert found == []
    assert all(r.problem.startswith(SHRINK) for r in found)


def test_only_a_current_file_s_outside_address_refuses() -> None:
    outside = Reference("hosts.yaml", 2, 4, "10.0.48.12", "10.0.48.12", RESIDUAL, OUTSIDE,
                        "10.0.48.12 lies 12 addresses into 10.0.48.0/28, and 10.0.48.0/29 holds 8; hint")
    kept = Reference("notes/a.md", 1, 1, "10.0.48.14", "10.0.48.14", KEPT, "notes", "a record")
    scan = ScanResult((FileResult("hosts.yaml", "text", "current", (outside,)),
                       FileResult("notes/a.md", "text", "record", (kept,))))
    assert [str(r) for r in refusals(scan)] == [
        "hosts.yaml:2: outside the new, smaller network: 10.0.48.12 lies 12 addresses into 10.0.48.0/28, "
        "and 10.0.48.0/29 holds 8"]
