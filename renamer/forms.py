"""The spellings of an old value and the boundaries around them (DESIGN's matching table).

Every old value becomes one or more literal forms: the key, with `variants` its
upper-case and `_` spellings, its spellings inside a regular expression, and an
address's other text forms and reverse-DNS name. Each form carries the regex that
guards it with the boundary rules; the matcher joins them into one pass.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass, field

from renamer import lazy_re
from renamer.names import IPAddress, reverse_name

# The letter of a backslash escape (\n, \t, \b...) is no part of a name: "node:\nweb01" holds
# web01. One or three backslashes: \\n is a backslash then the letter n, which is.
ESCAPED = (rb"(?<=(?<!\\)\\[ntr0efvb])|(?<=(?<!\\)\\\\\\[ntr0efvb])|(?<=(?<!\\)\\\\b)"
           rb"|(?<=(?<!\\)\\u[0-9A-Fa-f]{4})|(?<=(?<!\\)\\x[0-9A-Fa-f]{2})")  # JSON's \u0020, C's \x20
# A shell parameter's default value (${HOST:-web01}) starts a name: that `-` is the operator's,
# not a name's (`:=`, `:+` and `:?` need no rule: `=`, `+` and `?` are no name characters).
# After a positional or special parameter (`${1:-web01}`, `${@:-web01}`) or an array element
# (`${HOSTS[0]:-web01}`) too (t28, 14).
SHELL_DEFAULT = rb"(?<=\$\{[A-Za-z0-9_@*?$!]:-)|(?<=[A-Za-z0-9_]{2}:-)|(?<=[A-Za-z0-9_@*]\]:-)"
HOST_LEFT = rb"(?:(?<![A-Za-z0-9_.\-])|" + ESCAPED + rb"|" + SHELL_DEFAULT + rb")"
HOST_RIGHT = rb"(?![A-Za-z0-9_])"
# a derived name spelled whole (`pug-db`) or composed (`pug-${var.suffix}`, `pug-{{ suffix }}`: t26-32, 10)
NOT_DERIVED = rb"(?!-(?:[A-Za-z0-9]|[$%#]\{|\{\{))"
# With `variants`, `_` is a separator: ANA_ML2_URL matches ANA_ML2.
# A reverse name may follow a non-numeric label: `db.50.250.10.in-addr.arpa` (a BIND zone file's
# name) or a subdomain of the zone. After a numeric label it is the tail of a longer reverse name.
REVERSE_LEFT = rb"(?:(?<![A-Za-z0-9_.\-])|(?<=[A-Za-z_\-]\.))"
VARIANT_LEFT = rb"(?:(?<![A-Za-z0-9.\-])|" + ESCAPED + rb"|" + SHELL_DEFAULT + rb")"
VARIANT_RIGHT = rb"(?![A-Za-z0-9])"
V4_LEFT = rb"(?:(?<![A-Za-z0-9.])|" + ESCAPED + rb")"
V4_RIGHT = rb"(?![0-9])(?!\.[0-9])"
V6_LEFT = rb"(?<![A-Za-z0-9.:])"
V6_RIGHT = rb"(?![A-Za-z0-9])(?!:[0-9A-Fa-f])"
ANY_V4 = rb"(?:[0-9]{1,3}\.){3}[0-9]{1,3}"
ANY_V4_REVERSE = rb"(?:[0-9]{1,3}\.){1,4}(?i:in-addr\.arpa)"  # an address's PTR name, or a /8-/24 zone
ANY_V6 = rb"[0-9A-Fa-f:]*:[0-9A-Fa-f:.]*"
# An IPv6 address's PTR name, 32 nibbles (a zone, fewer, is a form of its own), in either case.
ANY_V6_REVERSE = rb"(?:[0-9A-Fa-f]\.){32}(?i:ip6\.arpa)"
# A nibble zone (fewer than 32 nibbles: `9.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa`), in either case.
ANY_V6_ZONE = rb"(?:[0-9A-Fa-f]\.){1,31}(?i:ip6\.arpa)"
PREFIX = lazy_re.compile(rb"/([0-9]{1,3})(?![0-9])")


@dataclass(frozen=True)
class Form:
    text: bytes
    new: bytes
    kind: str
    pattern: bytes
    old_text: str = field(init=False)  # decoded once: a dense file resolves a form millions of times
    new_text: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "old_text", self.text.decode("utf-8"))  # a U-label is UTF-8
        object.__setattr__(self, "new_text", self.new.decode("ascii"))


def host_forms(old: str, new: str, derived: bool, variants: bool) -> list[Form]:
    right = HOST_RIGHT if derived else HOST_RIGHT + NOT_DERIVED
    forms = [Form(old.encode(), new.encode(), "host", HOST_LEFT + re.escape(old.encode()) + right)]
    if variants:
        variant_right = VARIANT_RIGHT if derived else VARIANT_RIGHT + NOT_DERIVED
        spellings = {
            (old.upper(), new.upper()),
            (old.replace("-", "_"), new.replace("-", "_")),
            (old.upper().replace("-", "_"), new.upper().replace("-", "_")),
        }
        for text, replacement in sorted(spellings):
            if text != old:
                forms.append(Form(text.encode(), replacement.encode(), "host",
                                  VARIANT_LEFT + re.escape(text.encode()) + variant_right))
    forms += [Form(text, replacement, "host", HOST_LEFT + re.escape(text) + right)
              for text, replacement in _regex_escaped(old, new)]
    return forms + _idna_forms(old, new, right)


# Beside a U-label, a UTF-8 byte is a letter of the same name (`öbücher` is not `bücher`).
_NOT_UTF8_LEFT, _NOT_UTF8_RIGHT = rb"(?<![\x80-\xff])", rb"(?![\x80-\xff])"


def _idna_forms(old: str, new: str, right: bytes) -> list[Form]:
    """An IDNA name (a label `xn--...`) is the same name in upper case (`XN--BCHER-KVA`: DNS is
    case-insensitive) and in its Unicode form (`bücher`, which browsers and tools show and many
    files spell). Each is rewritten to the new name as configured: an A-label every resolver
    reads, never a guess at a Unicode spelling."""
    labels = old.split(".")
    if not any(label.lower().startswith("xn--") for label in labels):
        return []
    try:
        unicode = ".".join(label.encode("ascii").decode("idna") for label in labels)
    except UnicodeError:
        return []  # not a valid A-label: only its own spelling is matched
    out = [Form(old.upper().encode(), new.upper().encode(), "host",
                HOST_LEFT + re.escape(old.upper().encode()) + right)]
    for text in sorted({unicode, unicode.upper()}):
        raw = text.encode("utf-8")
        out.append(Form(raw, new.encode(), "host",
                        HOST_LEFT + _NOT_UTF8_LEFT + re.escape(raw) + right + _NOT_UTF8_RIGHT))
    return out


# The spellings of a value inside a regular expression: `\.`, `\\.` in a quoted string, `[.]`,
# hyphens escaped or not. Each is the same value; its replacement keeps the escape style.
# (four backslashes: a regex in a string in JSON, a Grafana dashboard's PromQL; break-it round 18 #11)
_ESCAPE_STYLES = ((b"\\.", None), (b"\\.", b"\\-"), (b"\\\\.", None), (b"\\\\.", b"\\\\-"),
                  (b"\\\\\\\\.", None), (b"\\\\\\\\.", b"\\\\\\\\-"),
                  (b"[.]", None), (None, b"\\-"), (None, b"\\\\-"), (None, b"\\\\\\\\-"))


def regex_spellings(value: str) -> list[bytes]:
    """`value` as written and as a regular expression spells it (escaped dots and hyphens, `[.]`),
    lower case: each is the value itself, not a pattern over other values."""
    return [value.lower().encode(), *(text.lower() for text, _ in _regex_escaped(value, value))]


def _regex_escaped(old: str, new: str) -> list[tuple[bytes, bytes]]:
    out = []
    for dot, dash in _ESCAPE_STYLES:
        if (dot and "." not in old) or (dash and "-" not in old):
            continue
        text, replacement = old.encode(), new.encode()
        if dot:
            text, replacement = text.replace(b".", dot), replacement.replace(b".", dot)
        if dash:
            text, replacement = text.replace(b"-", dash), replacement.replace(b"-", dash)
        out.append((text, replacement))
    return out


def address_forms(old: str, new: str) -> list[Form]:
    a, b = ipaddress.ip_address(old), ipaddress.ip_address(new)
    left, right = (V4_LEFT, V4_RIGHT) if a.version == 4 else (V6_LEFT, V6_RIGHT)
    texts = {(old, new), (str(a), str(b))}
    if a.version == 6:
        texts |= {(str(a).upper(), str(b).upper()), (a.exploded, b.exploded)}
    forms = [Form(t.encode(), n.encode(), "address", left + re.escape(t.encode()) + right)
             for t, n in sorted(texts)]
    if a.version == 4:
        forms += [Form(t, n, "address", left + re.escape(t) + right) for t, n in _regex_escaped(old, new)]
    rev, new_rev = reverse_name(a), reverse_name(b)
    forms.append(Form(rev.encode(), new_rev.encode(), "reverse",
                      REVERSE_LEFT + re.escape(rev.encode()) + HOST_RIGHT))
    return forms


# An IPv4-mapped IPv6 address with its IPv4 part in hex: ::ffff:0afa:3236, 0:0:0:0:0:FFFF:AFA:3236;
# and the same IPv4 address under the NAT64 well-known prefix 64:ff9b::/96 (RFC 6052): 64:ff9b::afa:3236.
MAPPED = lazy_re.compile(V6_LEFT + rb"(?:[0:]*[Ff]{4}:|0{0,2}64:[Ff]{2}9[Bb]:[0:]*)"
                    rb"[0-9A-Fa-f]{1,4}:[0-9A-Fa-f]{1,4}" + V6_RIGHT)
NAT64 = 0x0064FF9B << 96  # the well-known prefix 64:ff9b::/96: its addresses end in an IPv4 address


def embedded_v4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries as its last 32 bits where every reader reads it so:
    IPv4-mapped (`::ffff:a.b.c.d`) or under the NAT64 well-known prefix (`64:ff9b::a.b.c.d`)."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    value = int(address)
    return ipaddress.IPv4Address(value & 0xFFFFFFFF) if value >> 32 == NAT64 >> 32 else None


def mapped_like(text: str, new: ipaddress.IPv4Address) -> str:
    """`new` as IPv4-mapped IPv6 spelled as `text` spells the old one: the groups before the last
    two kept, each hex group as wide (zero-padded or not) and in the same case as written."""
    head, hi, lo = text.rsplit(":", 2)
    value = int(new)
    groups = [f"{value >> 16:0{len(hi) if hi.startswith('0') else 0}x}",
              f"{value & 0xFFFF:0{len(lo) if lo.startswith('0') else 0}x}"]
    spelled = ":".join([head, *groups])
    letters = [c for c in hi + lo if c.isalpha()]
    return spelled.upper() if letters and all(c.isupper() for c in letters) else spelled


def v6_like(text: str, new: ipaddress.IPv6Address) -> str:
    """`new` spelled as `text` spells the old IPv6 address (break-it round 16, #21): the zero run
    `::` where `text` has it (where `new` is zero there too), each written group as wide as
    written where it is zero-padded (`0db8`, `0040`, `0000`), and upper case where every letter
    of `text` is. A dotted IPv4 tail keeps its form for a mapped address; any other shape the
    new address cannot take is spelled compressed, in `text`'s case."""
    letters = [c for c in text if c.isalpha()]
    upper = bool(letters) and all(c.isupper() for c in letters)
    spelled = new.compressed
    if canonical(text):  # RFC 5952 where the file wrote it so (t29-33, finding 21: `2001:db8:b:0::`)
        return spelled.upper() if upper else spelled
    if _EXPLODED.fullmatch(text):  # every group four digits: so the new one too (`ab00` -> `0000`)
        return new.exploded.upper() if upper else new.exploded
    if "." in text:
        if new.ipv4_mapped is not None:
            spelled = f"::ffff:{new.ipv4_mapped}"
        else:
            spelled = _dotted_like(text, new) or spelled
    elif text.count("::") <= 1:
        head, _, tail = text.partition("::") if "::" in text else (text, "", "")
        written = [g for g in head.split(":") if g], [g for g in tail.split(":") if g]
        groups = new.exploded.split(":")
        gap = groups[len(written[0]):8 - len(written[1])]
        if len(written[0]) + len(written[1]) + ("::" in text) <= 8 \
                and ("::" in text or not gap) and all(int(g, 16) == 0 for g in gap):
            shaped = [_group_like(g, groups[i]) for i, g in enumerate(written[0])]
            back = [_group_like(g, groups[8 - len(written[1]) + i]) for i, g in enumerate(written[1])]
            spelled = ":".join(shaped) + ("::" + ":".join(back) if "::" in text else "")
            if ipaddress.IPv6Address(spelled) != new:  # never another address for the dress
                spelled = new.compressed
    return spelled.upper() if upper else spelled


_EXPLODED = lazy_re.compile(r"(?:[0-9A-Fa-f]{4}:){7}[0-9A-Fa-f]{4}")


def canonical(text: str) -> bool:
    """Is `text` an IPv6 address in RFC 5952's spelling (no zero-padding, the longest run of two or
    more zero groups as `::`, a lone zero group written `0`), in one case? A move writes the new
    address so too, whatever groups its head ends in (`2001:db8:a:ab00::` becomes `2001:db8:b::`,
    never `2001:db8:b:0::`); any other dress is kept as written."""
    if "." in text or not (text == text.lower() or text == text.upper()):
        return False
    try:
        return ipaddress.IPv6Address(text).compressed == text.lower()
    except ValueError:
        return False


def _dotted_like(text: str, new: ipaddress.IPv6Address) -> str | None:
    """`new` spelled as `text`, an IPv6 address whose last 32 bits are written dotted
    (`2001:db8:a::10.0.48.4` -> `2001:db8:b::10.0.48.4`), its hex part in `text`'s dress; None
    where the dress cannot hold it."""
    head, _, dotted = text.rpartition(":")
    try:
        tail = int(ipaddress.IPv4Address(dotted))
    except ValueError:
        return None
    shaped = v6_like(f"{head}:{tail >> 16:x}:{tail & 0xFFFF:x}", new)
    front = shaped.rpartition(":")[0].rpartition(":")[0]
    spelled = f"{front}:{ipaddress.IPv4Address(int(new) & 0xFFFFFFFF)}"
    try:
        return spelled if ipaddress.IPv6Address(spelled) == new else None
    except ValueError:
        return None


def _group_like(written: str, group: str) -> str:
    """The new hex group `group` (4 digits) as wide as `written` where that is zero-padded."""
    width = len(written) if len(written) > 1 and written.startswith("0") else 0
    return f"{int(group, 16):0{width}x}"


_RUN = lazy_re.compile(r"[A-Za-z0-9]+")


def case_like(found: str, new: str) -> str:
    """`new` in the case `found` is written in, where DNS names are case-insensitive: all lower
    gives `new` as configured, all upper `new` upper; otherwise, when both have as many runs of
    letters and digits, each run of `new` takes its counterpart's style (upper, Capitalised,
    lower): `Ana-Ml2` -> `Fv-Ml1`; any other mix gives `new` as configured."""
    letters = [c for c in found if c.isalpha()]
    if not letters or all(c.islower() for c in letters):
        return new
    if all(c.isupper() for c in letters):
        return new.upper()
    runs, targets = _RUN.findall(found), list(_RUN.finditer(new))
    if len(runs) != len(targets):
        return new
    out, last = [], 0
    for run, target in zip(runs, targets, strict=True):
        out += [new[last:target.start()], _styled(run, target.group())]
        last = target.end()
    return "".join([*out, new[last:]])


def _styled(run: str, target: str) -> str:
    letters = [c for c in run if c.isalpha()]
    if letters and all(c.isupper() for c in letters):
        return target.upper()
    if letters and run[0].isupper() and all(c.islower() for c in letters[1:]):
        return target.capitalize()
    if letters and all(c.islower() for c in letters):
        return target.lower()
    return target


def from_reverse(text: str) -> IPAddress | None:
    try:
        if text.endswith(".in-addr.arpa"):
            return ipaddress.ip_address(".".join(reversed(text[: -len(".in-addr.arpa")].split("."))))
        nibbles = list(reversed(text[: -len(".ip6.arpa")].split(".")))
        if len(nibbles) != 32:
            return None
        groups = ["".join(nibbles[i:i + 4]) for i in range(0, 32, 4)]
        return ipaddress.ip_address(":".join(groups))
    except ValueError:
        return None
