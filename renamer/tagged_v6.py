"""IPv6 addresses glued to a tag by a colon (outside pass t29-33, findings 07 and 23). Pure and I/O
free; `match.Matcher._find_exact` asks it where an IPv6 network or address is renamed.

An IPv6 address starts after no letter, digit, dot or colon (`forms.V6_LEFT`), so one written right
after `WORD:` was never read: SPF's `ip6:2001:db8:a:10::/64` mechanism, an SMTP address literal
`[IPv6:2001:db8:a:10::25]` (RFC 5321 4.1.3) and sendmail's access key `Connect:IPv6:...`, a DNS APL
record's item `2:2001:db8:a:10::/64` and its negation `!2:...` (RFC 3123: the address family, 1 or
2, before the colon), and any `tag:` of the kind (`inet6:`, `tcp6:`). Each place after such a tag
is a start an IPv6 candidate may take; the run from the tag's first byte is tried first as it
always was (`cafe:2001:db8::1` is one address: a tag made of hex digits alone is never split off),
and an APL family number is split off only where a `/LENGTH` follows, as every APL item has one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

# A tag glued to an IPv6 address: a word (`ip6`, `IPv6`), or an APL family number (`2`, `!2`).
# A word may follow another tag (sendmail's `Connect:IPv6:2001:db8::25`): a word holding a letter no
# hex digit is can be no part of an IPv6 address; a number only after no colon.
_TAGGED = re.compile(rb"(?:(?<![A-Za-z0-9_./-])([A-Za-z][A-Za-z0-9_-]*)|(?<![A-Za-z0-9_.:/-])!?([12])):"
                     rb"(?=[0-9A-Fa-f]{0,4}:)")
_HEX = frozenset(b"0123456789ABCDEFabcdef")


def starts(data: bytes) -> Iterator[tuple[int, bool]]:
    """Each place right after a tag where an IPv6 address may start, and whether the tag is an APL
    family number (whose address must have a `/LENGTH` after it)."""
    if b":" not in data:
        return
    for x in _TAGGED.finditer(data):
        word = x.group(1)
        if word is not None and all(c in _HEX for c in word):
            continue  # `cafe:2001:db8::1`, `ab:...`: the word may be the address's first group
        yield x.end(), word is None
