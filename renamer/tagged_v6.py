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

from collections.abc import Iterator

from renamer import lazy_re

# A tag glued to an IPv6 address: a word holding a letter no hex digit is (`ip6`, `IPv6`: no part of an
# IPv6 address, so it may follow another tag, sendmail's `Connect:IPv6:`), found from that letter and
# then taken back to the word's start; or an APL family number (`2`, `!2`), after no colon.
_WORD = lazy_re.compile(rb"[G-Zg-z_][0-9A-Za-z_-]*:(?=[0-9A-Fa-f]{0,4}:)")
# (The family number is found by its own bytes, which re looks for at C speed, and the byte before it
# tested here: a search starting with the lookbehind tried it at every byte, 0.13 ms a file of an
# IPv6-heavy repo. `!` is no byte of _NOT_AFTER, so `!2:` ends where `2:` does.)
_NUMBER = lazy_re.compile(rb"[12]:(?=[0-9A-Fa-f]{0,4}:)")
_NOT_AFTER = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.:/-")
_IN_WORD = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_NOT_BEFORE = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./-")


def starts(data: bytes) -> Iterator[tuple[int, bool]]:
    """Each place right after a tag where an IPv6 address may start, in order, and whether the tag
    is an APL family number (whose address must have a `/LENGTH` after it)."""
    if b":" not in data:
        return
    found = [(x.end(), True) for x in _NUMBER.finditer(data)
             if not (x.start() and data[x.start() - 1] in _NOT_AFTER)]
    for x in _WORD.finditer(data):
        begin = x.start()
        while begin > 0 and data[begin - 1] in _IN_WORD:
            begin -= 1
        if data[begin] in _IN_WORD and not data[begin:begin + 1].isalpha():
            continue  # `2ip6:`: a word starts with a letter
        if begin > 0 and data[begin - 1] in _NOT_BEFORE:
            continue  # `a.ip6:`, `/x/ip6:`: a label or a path's part
        found.append((x.end(), False))
    yield from sorted(found)
