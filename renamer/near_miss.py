"""The deliberately looser pass behind `verify`'s near-misses.

Case-insensitive, `-`, `_` and `.` interchangeable inside a name, dashed
addresses (10-250-50-54). Whatever it finds that the exact rules did not is a
near-miss, so verify never shares a blind spot with the sweep.
"""

from __future__ import annotations

import contextlib
import ipaddress
import re
from collections.abc import Iterable, Sequence
from typing import Any

from renamer import lazy_re, work
from renamer.match import positions
from renamer.native import hyperscan, wanted

# A separator, also as a regular expression escapes it (\. \\. [.]): an escaped spelling that the
# exact forms miss (ANA\-ML2) is still a near-miss.
_SEP = rb"(?:\\{1,2}[-_.]|\[[-_.]\]|[-_.])"
_ESCAPES = b"\\[]"  # deleted before the prefilter's `in` tests


# One pass folds case and separators: ANA_ML2 and ana-ml2 both read ana.ml2. Byte for
# byte, so offsets in the folded copy are offsets in the file.
_UPPER = bytes(range(ord("A"), ord("Z") + 1))
_FOLD = bytes.maketrans(_UPPER + b"-_", _UPPER.lower() + b"..")
FOLD_AND_BARE = (_FOLD, _ESCAPES)  # bytes.translate's arguments: folded, escapes deleted


def fold_and_bare(data: bytes) -> bytes:
    """`data` folded and without escapes: the loose pass's `bare` in one copy."""
    return data.translate(*FOLD_AND_BARE)


_Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class LoosePass:
    def __init__(self, hosts: Iterable[str], addresses: Iterable[str],
                 labels: Iterable[tuple[str, str]] = (),
                 networks: Iterable[tuple[_Network, _Network]] = ()) -> None:
        """`labels`: (short label, FQDN) of each FQDN renamed alone (`short_labels`): the label
        standing by itself is a near-miss `short-label`, its `like` the FQDN. `networks`: the (old,
        new) pairs of renames.networks, whose old addresses the loose spellings are read for too."""
        parts: list[bytes] = []
        needles: set[bytes] = set()
        self._like: list[tuple[re.Pattern[bytes], str]] = []
        self._networks: list[tuple[re.Pattern[bytes], ipaddress.IPv4Network, _Network]] = []
        starts: set[bytes] = set()
        hosts = [*hosts]
        tails = []
        for label, fqdn in labels:
            token = label.lower().encode()
            tails.append(rb"(?<![A-Za-z0-9._-])" + re.escape(token) + rb"(?![A-Za-z0-9])(?!\.[A-Za-z0-9])")
            # (folded as the prefilter and the anchors read the file: `ana-ml2` is found as `ana.ml2`)
            needles.add(token.translate(_FOLD))
            starts.add(token.translate(_FOLD))
            self._like.append((re.compile(b"(?i)" + re.escape(token)), fqdn))
        for old in sorted(hosts, key=len, reverse=True):  # leftmost-longest, as the exact matcher
            tokens = [t.lower().encode() for t in re.split(r"[-_.]", old) if t]
            body = _SEP.join(re.escape(t) for t in tokens)
            parts.append(rb"(?<![A-Za-z0-9])" + body + rb"(?![A-Za-z0-9])")
            self._like.append((re.compile(b"(?i)" + body), old))
            needles.add(b".".join(tokens))  # every loose spelling folds to this
            starts.add(tokens[0])
        for old in addresses:
            if ":" in old:
                continue
            octets = [o.encode() for o in old.split(".")]
            for order in (octets, octets[::-1]):  # forward, and as in a reverse-DNS name
                body = _SEP.join(order)
                parts.append(rb"(?<![0-9])" + body + rb"(?![0-9])")
                self._like.append((re.compile(body), old))
                starts.add(order[0])
                needles.add(b".".join(order))
            # Zero-padded octets (adversarial pass 2 B-20): `010.250.050.054` is no spelling the
            # exact rules match, and inet_aton reads `054` as octal 44: a near-miss, with why.
            body = _SEP.join(b"0+" if o == b"0" else b"0*" + o for o in octets)
            parts.append(rb"(?<![0-9])" + body + rb"(?![0-9])")
            self._like.append((re.compile(body), old))
            for prefix in _padded_prefixes(octets):
                needles.add(prefix)
                starts.add(prefix.split(b".")[0])
        for network, new in networks:
            self._add_network(network, new, parts, needles, starts)
        parts += tails  # after every host: `web01.lab` is the FQDN's own spelling, never its label
        self.pattern = re.compile(b"(?i)" + b"|".join(parts)) if parts else None
        # A needle holding another adds nothing to an `in` test.
        ordered = sorted(needles, key=len)
        self.needles = tuple(n for i, n in enumerate(ordered) if not any(m in n for m in ordered[:i]))
        self._starts = Anchors(sorted(starts))  # every loose hit begins with one of these
        # Without escapes in the file, a loose hit folds to one needle exactly (the tokens joined
        # by single separators, each read `.`): those needles, none left out, are where hits begin.
        self._anchors = Anchors(sorted(needles))

    def _add_network(self, network: _Network, new: _Network, parts: list[bytes], needles: set[bytes],
                     starts: set[bytes]) -> None:
        """A moved network's addresses in the loose spellings an address rename's are read in
        (t37-break, finding 06): glued to a port by a dot (tcpdump's `10.1.3.7.443`, BSD netstat,
        rpcbind's `10.1.3.7.8.1`) or written with other separators (`nfs_10_1_3_7`). Its whole
        octets are written out, the others any octet; `find` keeps a hit only where the address it
        spells lies in the network (a /22's third octet). A network under /8 has no octet to
        anchor on: not read (every dotted number would be tried). An address the move maps to itself
        (a grow in place keeps every old address) is none: nothing of it changes."""
        if network.version != 4 or network.prefixlen < 8:
            return
        whole = network.prefixlen // 8
        octets = [o.encode() for o in str(network.network_address).split(".")[:whole]]
        body = _SEP.join([*octets, *[rb"[0-9]{1,3}"] * (4 - whole)])
        parts.append(rb"(?<![0-9])" + body + rb"(?![0-9])")
        self._networks.append((re.compile(body), ipaddress.IPv4Network(network), new))
        starts.add(octets[0])
        needles.add(b".".join(octets) + (b"." if whole < 4 else b""))

    def _network_like(self, text: bytes) -> str | None:
        """The dotted address a network's loose hit spells, where it lies in that network."""
        for regex, network, new in self._networks:
            if regex.fullmatch(text):
                dotted = _SEPARATORS.sub(".", text.decode("ascii", "replace"))
                with contextlib.suppress(ValueError):
                    address = ipaddress.IPv4Address(dotted)
                    offset = int(address) - int(network.network_address)
                    if address in network and int(new.network_address) + offset != int(address):
                        return dotted
        return None

    def might_match(self, data: bytes) -> bool:
        return self.pattern is not None and self._holds(data, data.translate(_FOLD))

    def _holds(self, data: bytes, folded: bytes) -> bool:
        """A needle in the folded bytes; only a file with escapes is folded again without them."""
        if self._anchors.holds(folded):
            return True
        if b"\\" not in data and b"[" not in data:
            return False
        return self._anchors.holds(folded.translate(None, _ESCAPES))

    def holds_bare(self, bare: bytes) -> bool:
        """Does `bare` (fold_and_bare's copy of a file) hold a needle? One scan where hyperscan
        runs (the anchors' database: every needle, so the same answer as an `in` per needle)."""
        return self._anchors.holds(bare)

    def find(self, data: bytes, taken: Sequence[tuple[int, int]] = ()) -> list[tuple[int, int, str, str]]:
        """(start, end, spelling found, old value it resembles) for each loose hit.

        `taken`: spans already reported (sorted, not overlapping); a hit starting inside one
        is not tried, which keeps a file dense with exact matches from paying twice.
        """
        if self.pattern is None:
            return []
        folded = data.translate(_FOLD)
        if not self._holds(data, folded):
            return []
        out = []
        end = 0
        span, spans = 0, len(taken)
        # Anchored where a whole folded needle occurs (or, in a file with escapes, where a first
        # token does, `10` on every line of a 10/8 repo): no walk over every byte.
        anchors = self._starts if b"\\" in data or b"[" in data else self._anchors
        tried = anchors.positions(folded)
        work.add("loose positions", len(tried))
        for pos in tried:
            while span < spans and taken[span][1] <= pos:
                span += 1
            if pos < end or (span < spans and taken[span][0] <= pos):
                continue
            hit = self.pattern.match(data, pos)
            if hit is None:
                continue
            text = hit.group()
            like = next((old for regex, old in self._like if regex.fullmatch(text)), None)
            if like is None and self._networks:
                like = self._network_like(text)
                if like is None:
                    continue  # an octet over 255, or outside a network not octet-aligned
                if not _glued_address(data, hit.start(), hit.end(), like):
                    continue
            end = hit.end()
            like = like or ""
            out.append((hit.start(), hit.end(), text.decode("ascii", "replace"), like))
        return out


# Below this many tokens a find per token costs less than a database (compiled once a process).
NATIVE_FROM = 16


class Anchors:
    """Every offset where one of `tokens` begins in a folded copy, overlapping ones included.

    A find per token is a pass over the bytes each: with 50 renames, 600 of them a file (a
    third of a sweep's time on the benchmark's many-renames repo). Where hyperscan imported and
    there are NATIVE_FROM tokens or more, one scan reports every match end of every token
    instead (the start is the end less the token's length: they are literals). A database it
    cannot compile, or no hyperscan, is the find per token: the same offsets
    (tests/test_near_miss.py compares the two).
    """

    def __init__(self, tokens: Sequence[bytes]) -> None:
        self.tokens = tuple(tokens)
        self._database: Any = None
        # RENAMER_NATIVE=0 turns every hyperscan pass off (sweep/native_gate.py), this one too.
        self._native = (hyperscan is not None and len(self.tokens) >= NATIVE_FROM
                        and wanted() != "0")

    def positions(self, folded: bytes) -> list[int]:
        database = self._compiled() if self._native else None
        if database is None:
            return sorted({p for token in self.tokens for p in positions(folded, token)})
        found: set[int] = set()
        lengths = [len(token) for token in self.tokens]

        def report(token: int, _start: int, end: int, _flags: int, _context: object) -> None:
            found.add(end - lengths[token])
        database.scan(folded, match_event_handler=report)
        return sorted(found)

    def holds(self, folded: bytes) -> bool:
        """Does `folded` hold any of the tokens? (`any(t in folded ...)`: 600 `in` tests a file
        under 50 renames, where one scan, stopped at the first match, answers the same.)"""
        database = self._compiled() if self._native else None
        if database is None:
            return any(token in folded for token in self.tokens)
        found: list[int] = []

        def report(token: int, _start: int, _end: int, _flags: int, _context: object) -> bool:
            found.append(token)
            return True  # one is enough: stop the scan
        with contextlib.suppress(hyperscan.ScanTerminated):
            database.scan(folded, match_event_handler=report)
        return bool(found)

    def _compiled(self) -> Any:
        if self._database is None:
            self._database = _DATABASES.get(self.tokens)  # the passes of one process share one
        if self._database is None:
            try:
                database = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
                count = len(self.tokens)
                database.compile(expressions=[re.escape(t) for t in self.tokens], ids=list(range(count)),
                                 elements=count, flags=[0] * count)
            except Exception:  # a database it cannot build: the find per token, the same offsets
                self._native = False
                return None
            self._database = _DATABASES[self.tokens] = database
        return self._database


_DATABASES: dict[tuple[bytes, ...], Any] = {}  # tokens -> their compiled database, in this process


_DOTTED_TAIL = lazy_re.compile(rb"(?:[._-][0-9]+)+")
_OID_ROOT = "1.3.6.1"  # iso.org.dod.internet: every SNMP OID's first four numbers


def _glued_address(data: bytes, start: int, end: int, dotted: str) -> bool:
    """Does the loose hit of a moved network's address at start:end read as that address (glued to
    a port, `10.1.3.7.443`; rpcbind's `10.1.3.7.8.1`; spelled with `_` or `-`), not as part of a
    longer dotted number? None where it is the tail of one (an OID's `...2021.10.1.3.1`, a build's
    `2024.10.1.3.7`, `.1.3.6.1.2.1`: t38-break finding 14), a network literal or the address as
    the exact rules spell it (`10.80.0.0/16`, `10.80.0.0 255.255.0.0`: theirs to decide), or the
    head of one with more than a port's two numbers after it or no host before them
    (`1.3.6.1.4.1.2021`, `10.0.0.0.1`)."""
    before = data[start - 1:start] if start else b""
    if before == b"." or (before in (b"_", b"-") and data[start - 2:start - 1].isdigit()):
        return False
    if data[end:end + 1] == b"/" and data[end + 1:end + 2].isdigit():
        return False
    tail = _DOTTED_TAIL.match(data, end)
    if tail is None:
        # spelled as the exact rules read it, standing alone: where they left it, they decided (a
        # wider network's own address, `ip route 10.80.0.0 255.255.0.0`); only another separator
        # (`nfs_10_1_3_7`) is a spelling they cannot read
        return data[start:end].count(b".") < 3
    parts = tail.group().count(b".") + tail.group().count(b"_") + tail.group().count(b"-")
    return parts <= 2 and dotted != _OID_ROOT and not dotted.endswith(".0")


def _padded_prefixes(octets: list[bytes]) -> list[bytes]:
    """Where a zero-padded spelling begins: the octets before its first padded one as written,
    then that octet padded (`10.250.050.`, `010.`). Every mix of padded octets (`10.000.000.070`,
    `010.000.0.70`: t35 finding 20) begins with one of these, and there are at most eight an
    address, so the needles stay few; the loose pattern decides the rest of the address."""
    out = []
    for index, octet in enumerate(octets):
        head = b"".join(o + b"." for o in octets[:index])
        tail = b"." if index < len(octets) - 1 else b""
        for zeros in range(1, 4 - len(octet)):
            out.append(head + b"0" * zeros + octet + tail)
    return out


def padded_octets(text: str) -> list[str]:
    """The zero-padded octets of a dotted address as found (`010.250.050.054`: 010, 050, 054)."""
    return [octet for octet in re.split(r"\\*[-_.]|\[[-_.]\]", text) if len(octet) > 1 and octet[0] == "0"]


def padded_note(text: str) -> str:
    """Why a zero-padded address is left for a person: its readers disagree on what it is."""
    octets = padded_octets(text)
    invalid = [o for o in octets if not set(o) <= set("01234567")]
    differ = [o for o in octets if o not in invalid and int(o, 8) != int(o, 10)]
    if invalid:
        return (f"inet_aton (ping, curl, glibc) refuses {', '.join(invalid)} (not octal), other readers "
                "take it as decimal; write it without leading zeros")
    if differ:
        octal = ", ".join(f"{o} as {int(o, 8)}" for o in differ)
        return (f"inet_aton (ping, curl, glibc) reads {octal} (octal), other readers as decimal: another "
                "address to each; write it without leading zeros")
    return ("the same address in octal and in decimal, but some readers (Python's ipaddress) refuse "
            "leading zeros; write it without them")


def in_identifier(text: str, like: str, before: str, after: str) -> bool:
    """Whether a loose hit is a word of an identifier, not a spelling of the host: joined by `_`
    to what stands before or after it (`DDNS_NS1_PTR`, `NS1_ADDR`, `${NS1_IP}`, `ANA_ML2_URL`) and
    in a case the old name does not have. No host name holds `_` (RFC 1123), so such a word
    names a variable or a constant, not a machine; `variants: true` renames them, where wanted.
    A hit in the old name's own case joined so (`ns1_backup`, `ana-ml2_backup.tar`, a file or a
    variable built on the name as it is spelled, as a derived name is) stays a near-miss."""
    if not (before[-1:] == "_" or after[:1] == "_"):
        return False
    if not any(c.isalpha() for c in like):
        return False  # an address: digits have no case, `IP_10_250_50_54` is one spelled so
    return _SEPARATORS.sub("", text) != _SEPARATORS.sub("", like)


_RANGE_TAIL = lazy_re.compile(r"(?:-|\u2013|\u2014|\.\.|~)[0-9]")
_SEPARATORS = lazy_re.compile(r"\\*[-_.]|\[[-_.]\]")


def short_labels(hosts: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """(short label, FQDN) of each FQDN the renames move alone: `web01` of `web01.lab: app01.lab`
    where `web01` is no old value of its own (break-it round 22, #30: `10.0.0.70 app01.lab web01`,
    `Host web01 app01.lab`, `ssh web01` under `search lab` kept the short name, unmentioned). A
    label of fewer than three characters, all digits, or a service word (www, mail) is left out."""
    olds = {old.lower() for old, _ in hosts}
    out = []
    for old, new in hosts:
        label, dot, rest = old.partition(".")
        if not dot or not rest or label.lower() in olds or len(label) < 3 or label.isdigit() \
                or label.lower() in _SERVICE_LABELS or new.partition(".")[0].lower() == label.lower():
            continue
        if all(part.isdigit() for part in old.split(".")):
            continue  # an address
        out.append((label, old))
    return out


_SERVICE_LABELS = frozenset({"www", "mail", "smtp", "imap", "pop", "pop3", "mx", "api", "app", "ftp", "vpn",
                             "git", "wiki", "dns", "ntp", "ldap", "proxy", "cdn", "static", "web", "db"})


def why(text: str, like: str, before: str, after: str) -> str:
    """What sets a loose hit apart from the old value it resembles, in a word."""
    if "." in like and text.lower() == like.partition(".")[0].lower():
        return "short-label"  # the short name of an FQDN renamed alone (short_labels)
    if "\\" in text or "[" in text:
        return "regex-escaped"
    if before[-1:] == "\\":
        return "escape"
    if _RANGE_TAIL.match(after):
        return "range"  # WEB01-03: another spelling of one end of a set of machines
    if padded_octets(text) and not any(c.isalpha() for c in like):
        return "zero-padded"  # 010.250.050.054: octal to inet_aton, decimal to others
    if text == like:  # the same spelling: its neighbours set it apart
        if before[-1:].isalpha():
            return "letter-left"
        if after[:1].isalpha() or after[:1] == "_":
            return "letter-right"
        return "part-of-name"  # sub.ana-ml2: the tail of a longer name
    if text.lower() == like.lower():
        return "case"
    if _SEPARATORS.sub("", text.lower()) == _SEPARATORS.sub("", like.lower()):
        same_case = _SEPARATORS.sub("", text) == _SEPARATORS.sub("", like)
        return "separator" if same_case else "case, separator"
    return "reordered"  # a reverse-DNS order, or case and separators together


_NAME_BYTE = lazy_re.compile(rb"[A-Za-z0-9._-]")


def name_around(data: bytes, start: int, end: int) -> str:
    """The whole name a spelling stands in (`keepalived-pihole0` around `pihole0`, `sub.ana-ml2`),
    or "" where it stands alone: what a part-of-name near-miss shows (newcomer pass 2 B5)."""
    left, right = start, end
    while left > 0 and _NAME_BYTE.match(data, left - 1) and start - left < 253:
        left -= 1
    while right < len(data) and _NAME_BYTE.match(data, right) and right - end < 253:
        right += 1
    name = data[left:right].strip(b".-_").decode("ascii", "replace")
    return name if len(name) > end - start else ""


def sentence(text: str, like: str, why: str, name: str = "") -> str:
    """What a near-miss is, in words that read right: the spelling (or the longer name holding
    it) against the old value, and for a zero-padded address what its readers make of it."""
    if why == "zero-padded":
        return (f"{text!r} looks like {like!r} but is zero-padded, which the exact rules do not match: "
                f"{padded_note(text)}")
    if why == "short-label":
        return (f"{text!r} is the short name of {like!r}, which the renames move alone: the short name "
                "stays (add it to the renames to move it too, or keep it)")
    if text == like and name:
        return f"{name!r} holds {like!r} inside a longer name, which the exact rules do not match"
    if text == like and why in _NEIGHBOURS:  # the same spelling: what sets it apart (outside round 25, #10)
        return (f"{text!r} is spelled as the old value, but {_NEIGHBOURS[why]}, which the exact rules "
                "do not match")
    return f"{text!r} looks like {like!r} but the exact rules do not match it"


_NEIGHBOURS = {"letter-right": "a letter or `_` right after it joins it to a longer word",
               "letter-left": "a letter right before it joins it to a longer word",
               "part-of-name": "it stands inside a longer name"}


# Folders whose entries are named after machines (break-it round 23, finding 04): a short label
# there is the host's; elsewhere in a path (`puppet/modules/stdlib/lib/puppet/`) it is a folder
# of the product the FQDN was named after.
HOST_FOLDERS = frozenset({"host_vars", "hosts", "host", "nodes", "machines", "servers", "systems",
                          "inventory", "nixosconfigurations", "hosts.d", "clients", "members", "vms",
                          "guests"})


# Where the label stands in text as another thing's word, not a host name: a longer hyphenated name
# (`puppet-agent`, `kube-puppet`), a path component (`lib/puppet/`, `puppet/modules`; never the
# `//` of a URL's authority), a namespace (`puppet::params`), a URL scheme (`puppet:///modules`), a
# Markdown code fence's language (```` ```puppet ````).
_NOT_HOST_BEFORE = lazy_re.compile(r"(?:[A-Za-z0-9]-|(?<!/)/|```|~~~)\Z")
_NOT_HOST_AFTER = lazy_re.compile(r"-[A-Za-z]|/|::|:///")


def short_label_said(spelling: str, like: str, *, any_case: bool, path: str | None = None,
                     start: int = 0, before: str = "", after: str = "") -> bool:
    """Is a `short-label` hit (the short name of an FQDN renamed alone) worth a near-miss?
    (break-it round 23, finding 04: 1,562 near-misses for `Puppet::Parser` and `puppet/modules/`
    buried the three that mattered.) Outside DNS files (`any_case`) only in the label's own case
    or all upper (`scp x WEB01:/tmp`): a capitalised or mixed-case `Puppet` is the product, a
    constant's or a heading's word. In a path (`path`, the hit at `start`) only as a component or
    stem directly under a folder of machines (`host_vars/puppet/`, `hosts/puppet.nix`)."""
    label = like.partition(".")[0]
    if not any_case and spelling not in (label, label.upper()):
        return False  # `Puppet`: capitalised, the product or a constant; `WEB01:/tmp` is still a host
    if path is None:  # text: `before`/`after` the few characters around it
        return not (_NOT_HOST_BEFORE.search(before) or _NOT_HOST_AFTER.match(after))
    head = path[:start].rstrip("/")
    parent = head.rpartition("/")[2] if head else ""
    return parent.lower() in HOST_FOLDERS
