"""Exact matching: one simultaneous, leftmost-longest pass over bytes.

Every old value becomes one or more literal *forms* (the key, and with
`variants` its upper-case and `_` spellings; an address also gets its
reverse-DNS name). The forms, longest first, are joined into one regex, each
guarded by the boundary rules of DESIGN's matching table. Matching runs on
bytes, since host names and addresses are ASCII and files need not be UTF-8.

For speed the regex is only tried where `bytes.find` located a literal form:
files without one are never handed to the regex engine at all.
"""

from __future__ import annotations

import bisect
import ipaddress
import re
import socket
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import replace

from renamer import (
    access_nets,
    address_parts,
    address_patterns,
    base64_values,
    broadcast_lengths,
    classless_routes,
    composed_names,
    composed_tails,
    computed_addresses,
    computed_lengths,
    concatenated,
    data_records,
    declared_patterns,
    dressed_addresses,
    ellipsis_lists,
    except_blocks,
    foreign_names,
    formatted_names,
    host_access,
    host_ranges,
    host_roles,
    host_sets,
    image_refs,
    lazy_re,
    looped_octets,
    markdown_emphasis,
    name_starts,
    nat_maps,
    near_lengths,
    number_addresses,
    octet_ranges,
    own_storage,
    packed_addresses,
    placeholders,
    possessives,
    prefix_dress,
    prefix_lists,
    prefix_moves,
    prefix_pools,
    prefix_spellings,
    prefix_values,
    prose_lengths,
    public_domains,
    rpz_triggers,
    size_counts,
    slaac_uses,
    snmp_indexes,
    software_refs,
    table_lengths,
    tagged_v6,
    templated_names,
    tool_names,
    version_numbers,
    wide_access,
    wildcard_names,
    work,
    zone_records,
)
from renamer import forms as spelling
from renamer.accounts import account_starts, is_account
from renamer.context import (
    RANGE_HINT,
    declared_ends,
    find_declared,
    find_declared_hosts,
    find_ranges,
    find_sets,
    joined_ends,
    keyed_ends,
    range_rule,
    table_ends,
)
from renamer.forms import Form
from renamer.names import IPAddress, IPNetwork, presentation_decoded, reverse_name, reverse_zone
from renamer.occurrences import Match, with_patterns, with_ranges
from renamer.opaque import with_opaque
from renamer.patterns import FEW, PatternHit, find_patterns, fragments, quantified


class Matcher:
    """Compiled once from the renames; finds matches in bytes, pure and I/O free."""

    def __init__(
        self,
        hosts: Iterable[tuple[str, str]] = (),
        addresses: Iterable[tuple[str, str]] = (),
        networks: Iterable[tuple[IPNetwork, IPNetwork]] = (),
        *,
        derived_names: bool = False,
        variants: bool = False,
        rewrite_accounts: bool = False,
    ) -> None:
        self.hosts = tuple(hosts)
        self._own_domains = public_domains.own_domains(self.hosts)  # `web01.lab.x` owns `lab.x`
        self._short_olds = frozenset(old.lower() for old, _ in self.hosts if "." not in old.rstrip("."))
        self._host_texts = frozenset(old.encode() for old, _ in self.hosts)  # (Markdown emphasis ends)
        self.addresses = tuple(addresses)
        self.networks = tuple(networks)
        self._moves = [prefix_moves.PrefixMove(old, new) for old, new in self.networks]
        # each renamed IPv4 address as a move of its /32: an except that names it, carried out of the
        # cidr it is excepted from, is refused as a network's is (t38-break finding 06)
        self._address_moves = [prefix_moves.PrefixMove(ipaddress.ip_network(f"{old}/32"),
                                                       ipaddress.ip_network(f"{new}/32"))
                               for old, new in self.addresses if _dotted_v4(old) and _dotted_v4(new)]
        # the last group of each resized IPv6 network's last address (`ffff` of a /64, `ff` of a /120),
        # in both cases: a file holding none has no range ending there
        tails = {f"{int(m.old.broadcast_address) & 0xFFFF:x}" for m in self._moves
                 if m.resized and m.old.version == 6}
        self._v6_last_tails = tuple({t.encode() for t in tails} | {t.upper().encode() for t in tails})
        self._resized = any(move.resized for move in self._moves)
        # what a range over every host of a grown network holds (host_ranges.py): the first host's
        # three octets (`10.0.48.`), an IPv6 network's last address but one's last group (`fffe`)
        gates = set()
        for m in self._moves:
            if m.new.num_addresses > m.old.num_addresses and m.old.num_addresses >= 4:
                if m.old.version == 4:
                    gates.add(str(m.old.network_address + 1).rsplit(".", 1)[0].encode() + b".")
                else:
                    tail = f"{(int(m.old.broadcast_address) - 1) & 0xFFFF:x}"
                    gates.update({tail.encode(), tail.upper().encode()})
        self._host_range_gates = tuple(sorted(gates))
        self.derived_names = derived_names
        self.variants = variants
        self.rewrite_accounts = rewrite_accounts
        rules = [range_rule(old, new, "host") for old, new in self.hosts]
        rules += [range_rule(old, new, "address") for old, new in self.addresses]
        self._ranges = [rule for rule in rules if rule is not None]
        self._range_stems = tuple(sorted({rule.stem for rule in self._ranges}))
        # stem, its rules; an IPv6 stem in upper case too (its hex is written in either case)
        self._stem_rules = tuple(Counter(stem for rule in self._ranges
                                         for stem in {rule.stem, rule.stem.upper() if rule.base != 10
                                                      else rule.stem}).items())
        self._v4_pairs = [(old, new) for old, new in self.addresses if ":" not in old]
        self._address_olds = host_roles.parsed(old for old, _ in self.addresses)
        self._range_probe = re.compile(b"(?:" + b"|".join(re.escape(s) for s in self._range_stems)
                                       + rb")[0-9{]") if self._ranges else None
        # Sets that expand to an old value (`ana-ml[1:3]`, `{ana,fv}-ml2`): host_sets.py.
        self._set_needles = host_sets.pieces((old for old, _ in self.hosts),
                                             (old for old, _ in self.addresses))
        # `ana-ml2.{{ domain }}`: an old FQDN's label before a template (sweep/templated.py decides).
        self._templated = templated_names.literals(templated_names.labels_of(self.hosts))
        # `${NODE}.ana.lan`: a variable host part before an old FQDN's domain (sweep/composed.py decides).
        self._tails = composed_names.tails_of(self.hosts)
        self._composed = composed_names.literals(self._tails)
        # `${LAB_PREFIX}.5`: variables and literal octets making an old address (sweep/composed_addresses.py).
        v4_olds = [old for old, _ in self.addresses if ":" not in old]
        composes = bool(v4_olds) or any(net.version == 4 for net, _ in self.networks)
        v4_networks = any(net.version == 4 for net, _ in self.networks)
        self._address_parts = address_parts.literals(v4_olds, v4_networks) if composes else ()
        self._bare_tails = address_parts.bare_tails(v4_olds, v4_networks)
        # `cidrhost("10.0.40.0/24", 11)`: a literal network and number (sweep/composed_addresses.py).
        self.v4_olds = v4_olds
        self.v4_networks = [str(net) for net, _ in self.networks if net.version == 4]
        self._computed = (computed_addresses.literals([*v4_olds, *(str(net.network_address) for net, _ in
                                                                   self.networks if net.version == 4
                                                                   and net.prefixlen >= 24)])
                          if composes else ())
        # `Host wolf` + `HostName %h.ana.lan`: a host word a tool composes (sweep/tool_names.py), its
        # new spelling too, so verify after a sweep reads it.
        # `repository: ".../{{ inventory_hostname }}"`: a backup location named from the machine's own
        # name (own_storage.py), which spells no old value.
        self._own_storage = own_storage.LITERALS if self.hosts else ()
        # `format("pve%02d", 1)`: an old host name made by a format with a number (formatted_names.py).
        self._formatted = formatted_names.literals(old for old, _ in self.hosts)
        fqdns = any("." in old for old, _ in self.hosts)
        literals = tool_names.LITERALS + zone_records.LITERALS + data_records.LITERALS
        self._tool_names = literals if fqdns else ()
        # `10.0.40.10${count.index + 1}`: an old value's start completed by an interpolation
        # (composed_tails.py decides).
        # `base: "192.168.2"`, `10.0.0.%d`: a moved network's leading octets standing as a value, a
        # renamed address's head before a placeholder (prefix_values.py; issue 27, break-it round 21).
        self.prefixes = prefix_values.Prefixes(self.networks, self.addresses)
        # `cidrhost(var.net, -2)`: an expression over a resized network (sweep/computed_resizes.py).
        self._resize_words = computed_lengths.LITERALS if any(m.resized for m in self._moves) else ()
        # `allow 10.0.0.64/29;` around a renamed 10.0.0.70: a rule file spelling no old value
        # (access_nets.py; sweep/access_sets.py decides; break-it round 21, finding 29 part b).
        self.access = access_nets.AccessNets(self.addresses)
        # `allow 192.168.0.0/16;` around a moved 192.168.40.0/24 that moves out of it (wide_access.py)
        self.wide_sets = wide_access.WideNets(self.networks)
        # `grafana.10-0-0-70.nip.io`: a wildcard DNS name spelling an address (wildcard_names.py)
        self.wildcards = wildcard_names.WildcardNames(self.addresses, self.networks)
        # `http://184168502/`, `0x0afa3236`: a renamed address as one number (number_addresses.py)
        self.numbers = number_addresses.NumberAddresses(  # a moved network's addresses too (round 7)
            self.addresses, [(m.old, m.new) for m in self._moves if m.old.version == 4])
        # `192.168.040.005`, `0xc0.0xa8.0x28.0x05`: a dotted dress the exact rules skip (t36-33 11)
        self.dressed = dressed_addresses.DressedAddresses(
            self.addresses, [(m.old, m.new) for m in self._moves if m.old.version == 4])
        # `43,01:04:0a:00:00:46`, `2002:a00:46::/48`, `ping 10.70`: an address packed (t36 12, 21, 22)
        self.packed = packed_addresses.PackedAddresses(
            self.addresses, [(m.old, m.new) for m in self._moves if m.old.version == 4])
        # `IP-MIB::ipAdEntNetMask.192.168.40.1`: an OID indexed by an old address (t36-33 14)
        self.snmp = snmp_indexes.SnmpIndexes(
            self.addresses, [(m.old, m.new) for m in self._moves if m.old.version == 4])
        self.completions = composed_tails.Completions(self.hosts, self.addresses,
                                                      derived_names=derived_names)
        self._pattern_olds = [old for old, _ in self.hosts] + [old for old, _ in self.addresses
                                                               if ":" not in old]
        self._pattern_starts = fragments(self._pattern_olds)
        self._pattern_news = {old: new for old, new in [*self.hosts, *self.addresses]}
        # `web0X`, `10.0.0.7x`: a placeholder over an old value's digits (placeholders.py; round 23, #15)
        self._placeholders = placeholders.Placeholders(self._pattern_olds, self._pattern_news)
        self._patterns_of: bytes | None = None  # the last file asked about, and its answer
        self._patterns_found: list[PatternHit] = []
        self._pattern_kinds = {old: (new, "host") for old, new in self.hosts}
        self._pattern_kinds.update((old, (new, "address")) for old, new in self.addresses)
        # `10\.0\.40\.[0-9]+`, `10.0.40.(11|12)`: address patterns decided by what they match
        # (address_patterns.py): a renamed IPv4 network's, and an address's alternation.
        self._short_network: re.Pattern[bytes] | None = None  # _short_networks' regex, made once
        self._v4_nets = [(old, new) for old, new in self.networks
                         if isinstance(old, ipaddress.IPv4Network) and isinstance(new, ipaddress.IPv4Network)]
        self._address_pattern_needles = (address_patterns.literals(self._v4_nets, self._v4_pairs)
                                         if self._v4_nets or self._v4_pairs else ())
        self._pair_heads = address_patterns.heads(self._v4_pairs) if self._v4_pairs else None
        self._address_patterns_of: bytes | None = None
        # The native first pass's groups held by the last file it scanned (note_held).
        self._grouped = frozenset(name for name, _ in self.context_groups())
        self._held_of: bytes | None = None
        self._held: frozenset[str] = frozenset()
        self._address_patterns_found: list[address_patterns.Decision] = []
        forms: dict[bytes, Form] = {}
        for old, new in self.hosts:
            for form in spelling.host_forms(old, new, derived_names, variants):
                forms.setdefault(form.text, form)
        for old, new in self.addresses:
            for form in spelling.address_forms(old, new):
                forms.setdefault(form.text, form)
        for old_net, new_net in self.networks:
            zone, new_zone = reverse_zone(old_net), reverse_zone(new_net)
            zones = [(zone, new_zone)] if zone and new_zone else []
            if old_net.version == 6:  # a nibble zone a move of another length carries (a /48 of a /46)
                zones += prefix_moves.zone_change(prefix_moves.PrefixMove(old_net, new_net)).renamed
            for old_zone, moved_zone in zones:
                # An ip6.arpa zone in upper case (`A.0.0.0.8.B.D.0.1.0.0.2.IP6.ARPA`), its nibbles and
                # its suffix each in their own case, as a full nibble name already was (f25 breaker,
                # finding 5: left outside DNS configurations, verify OK).
                for old_text, new_text in _zone_cases(old_zone, moved_zone, old_net.version):
                    pattern = spelling.REVERSE_LEFT + re.escape(old_text.encode()) + spelling.HOST_RIGHT
                    forms.setdefault(old_text.encode(), Form(old_text.encode(), new_text.encode(),
                                                             "network", pattern))
        self.forms = forms
        ordered = sorted(forms.values(), key=lambda f: (-len(f.text), f.text))
        parts = [f.pattern for f in ordered]
        # Networks: any address (or reverse name) inside an old network, checked after. IPv6
        # addresses: any spelling of the same address (expanded, leading zeros, any case).
        self._v6_addresses = {ipaddress.ip_address(old): ipaddress.ip_address(new)
                              for old, new in self.addresses if ":" in old}
        # What an IPv6 candidate's value must be for _resolve to find anything (_v6_rejects).
        self._v6_values = frozenset(int(address) for address in self._v6_addresses)
        self._v6_ranges = tuple((int(net.network_address), int(net.broadcast_address))
                                for net, _ in self.networks if net.version == 6)
        self._generic = bool(self.networks or self._v6_addresses)
        families = {net.version for net, _ in self.networks}
        # An IPv4 address written as IPv4-mapped IPv6 in hex (::ffff:0afa:3236 is ::ffff:10.250.50.54)
        # spells no form: looked for only in files holding `ffff:` (the generic IPv6 pattern, where
        # there is one, finds it as any other IPv6 run).
        self._v4_map = dict(self._v4_pairs)
        self._v4_networks = 4 in families
        # Renumbered addresses give reverse zones relative owners that spell no form (`54` under
        # `$ORIGIN 50.250.10.in-addr.arpa.`, nibbles under an ip6.arpa origin): sweep/zone_rules.py.
        self._reverse_owners = bool(self._v4_pairs or self.networks or self._v6_addresses)
        v6_generic = 6 in families or bool(self._v6_addresses)
        self._mapped_scan = bool(self._v4_pairs or 4 in families) and not v6_generic
        if 4 in families:
            parts.append(spelling.REVERSE_LEFT + spelling.ANY_V4_REVERSE + spelling.HOST_RIGHT)
            parts.append(spelling.V4_LEFT + spelling.ANY_V4 + spelling.V4_RIGHT)
        if 6 in families:  # an address's nibble name: `0.1.0...a.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa`
            parts.append(spelling.REVERSE_LEFT + spelling.ANY_V6_REVERSE + spelling.HOST_RIGHT)
            # A nibble zone inside a moved network that no form spells (a /48 of a /46 moved to one
            # /48, a /52 inside a /48): followed where the move carries it, a `reverse-zone`
            # residual where a resize cannot (g31-gaps33: the IPv4 twin's rule, _zone_problem).
            parts.append(spelling.REVERSE_LEFT + spelling.ANY_V6_ZONE + spelling.HOST_RIGHT)
        if 6 in families or self._v6_addresses:
            parts.append(spelling.V6_LEFT + spelling.ANY_V6 + spelling.V6_RIGHT)
        self.pattern = re.compile(b"|".join(parts)) if parts else None
        texts = sorted({f.text for f in ordered}, key=lambda t: (len(t), t))
        network = self._network_needles()
        # Prefilter: a form holding another form as a substring adds nothing to `in` tests.
        prefilter: list[bytes] = []
        for text in texts:
            if not any(p in text for p in prefilter):
                prefilter.append(text)
        # Anchors: a form starting with another form starts where that one is found.
        starters: list[bytes] = []
        for text in texts:
            if not any(text.startswith(s) for s in starters):
                starters.append(text)
        self._longest = max((len(t) for t in texts), default=0)
        # RFC 3442 route bytes spell no address (classless_routes.py): their option's name is a needle.
        network += list(classless_routes.NEEDLES) if any(":" not in str(old) for old, _ in
                                                         [*self.networks, *self.addresses]) else []
        self.needles = tuple(prefilter + network)
        self._starters = tuple(starters + network)
        self._form_starters = tuple(starters)  # every form's match starts where its text does
        self._derived = self._derived_pattern()
        # The same over lower-cased text, and the forms lower-cased: built on first use (DNS files).
        self._derived_lower: tuple[re.Pattern[bytes] | None, frozenset[bytes]] | None = None
        self._folded: Matcher | None = None  # built on first use: only DNS files need it
        self._lower_hosts = {old.lower(): new for old, new in self.hosts}
        # A zone file may write an old FQDN relative to its origin (`ana-ml2` under `$ORIGIN
        # ana.lan.`): its first label, in a zone, makes the file a candidate (sweep/zone_rules.py).
        self._zone_labels = tuple(sorted({old.lower().split(".")[0].encode() for old, _ in self.hosts
                                          if "." in old.strip(".")}))
        # An FQDN renamed alone: a file holding only its derived names (`pug-ipmi.ana.lan`, no
        # `pug.ana.lan`) is a candidate too, or verify, after the sweep, lists none of them.
        olds = {old for old, _ in self.hosts}
        self._fqdn_stems = tuple(sorted({old.partition(".")[0].encode() + b"-" for old in olds
                                         if "." in old and old.partition(".")[0] not in olds}))

    def _network_needles(self) -> list[bytes]:
        needles = []
        for old_net, new_net in self.networks:
            if isinstance(old_net, ipaddress.IPv4Network):
                octets = str(old_net.network_address).split(".")[: max(1, old_net.prefixlen // 8)]
                needles.append(".".join(octets).encode())
                if new_net != old_net:
                    # A swept file names the new network only: a mask residual it holds must be read
                    # again (prefix_moves.length_hits; break-it round 20p: verify forgot it), and a
                    # winning deny over it (except_blocks.into_hits, round 7).
                    octets = str(new_net.network_address).split(".")[: max(1, new_net.prefixlen // 8)]
                    needles.append(".".join(octets).encode())
                needles += [b"in-addr.arpa", b"IN-ADDR.ARPA"]
                twin = host_access.sibling(old_net)  # an AllowedIPs list computed around it (issue 33)
                if twin is not None:
                    needles.append(str(twin).encode())
            else:
                needles += [b":", b"ip6.arpa", b"IP6.ARPA"]
        if self._v6_addresses:
            needles.append(b":")  # another spelling of an old IPv6 address holds no form's text
        if self.networks:  # an RPZ trigger spells its network reversed (rpz_triggers.py)
            needles += [rpz_triggers.NEEDLE, b"RPZ-"]
        return needles

    def might_match(self, data: bytes) -> bool:
        """The byte prefilter: can `data` hold a match, a range or a pattern?"""
        return any(needle in data for needle in self.needles) or self.might_hold_context(data)

    def context_literals(self) -> tuple[bytes, ...]:
        """One of these is in every `data` that might_hold_context accepts."""
        out = list(self._range_stems if self._range_probe is not None else ())
        if self._reverse_owners:
            out += [b"$ORIGIN", b"PTR"]  # PTR: a reverse zone of unknown origin (below)
        out += [b"$GENERATE", b"$generate"]  # its records spell no old value (below)
        if self._mapped_scan:
            out += MAPPED_LITERALS
        out += self._zone_labels
        out += self._fqdn_stems
        out += self._set_needles
        out += self._templated
        out += self._composed
        out += self._address_parts
        out += self._computed
        out += self._tool_names
        out += self._own_storage
        out += self._formatted
        out += self.completions.literals
        out += declared_patterns.LITERALS if self._pattern_starts else ()  # a pattern a format declares
        out += base64_values.LITERALS  # a value a format declares base64
        out += self._pattern_starts  # the pattern test: a start (and a meta byte)
        out += self._address_pattern_needles
        out += self.prefixes.literals
        out += self._resize_words
        out += self.access.literals
        out += self.wide_sets.literals
        out += self.wildcards.literals
        out += self.numbers.literals
        out += self.dressed.literals
        out += self.packed.literals
        out += self.snmp.literals
        return tuple(out)

    def context_groups(self) -> tuple[tuple[str, tuple[bytes, ...]], ...]:
        """The readers of might_hold_context that a literal gates, each with its literals: a reader
        asks its own test only where one of them stands (each test begins with that `in` test), so
        a caller that already knows which groups a file holds (the native first pass: one scan)
        passes them as `held` and the others are not asked at all (issue 30: the readers of rounds
        16-17 each read every file of a dense repo again)."""
        groups = (("sets", self._set_needles), ("concatenated", self._set_needles),
                  ("templated", self._templated), ("composed", self._composed),
                  ("address parts", self._address_parts), ("completions", self.completions.literals),
                  # (the full scan's tool-name and zone-record readers ask these literals whatever the
                  # names: might_hold_context asks them only where an old name is an FQDN)
                  ("computed", self._computed), ("tool names", tool_names.LITERALS + zone_records.LITERALS),
                  ("own storage", self._own_storage), ("formatted", self._formatted),
                  ("address patterns", self._address_pattern_needles), ("prefixes", self.prefixes.literals),
                  ("resized", self._resize_words),
                  ("access sets", self.access.literals),
                  ("wide sets", self.wide_sets.literals),
                  ("wildcard names", self.wildcards.literals),
                  ("number addresses", self.numbers.literals),
                  ("dressed addresses", self.dressed.literals),
                  ("packed addresses", self.packed.literals),
                  ("snmp indexes", self.snmp.literals),
                  # `server_name ~...`, `LIKE '...'`: the pattern probe reads them (declared_patterns.py)
                  ("declared patterns", declared_patterns.LITERALS if self._pattern_starts else ()),
                  # what the pattern probe's prefilters for declared patterns, dialects and prefix
                  # tests ask (find_patterns is told where none stands: _patterns)
                  ("pattern words", declared_patterns.WORDS if self._pattern_starts else ()),
                  # a Secret's `data:`, cloud-init `encoding: b64`: read decoded (base64_values.py)
                  ("base64 values", base64_values.LITERALS))
        return tuple((name, tuple(literals)) for name, literals in groups if literals)

    def note_held(self, data: bytes, held: Collection[str]) -> None:
        """The native first pass's answer for `data`: which context_groups' literals it holds. The
        full scan of the same bytes (the same object) then asks no reader of another group."""
        self._held_of, self._held = data, frozenset(held)

    def may_hold(self, group: str, data: bytes) -> bool:
        """False only where `data` is the bytes the native pass answered for (note_held) and holds
        none of `group`'s literals: its reader would find nothing there."""
        if self._skips(group, data):
            return False
        if group in self._grouped:
            work.add("scan readers")
        return True

    def _skips(self, group: str, data: bytes) -> bool:
        return data is self._held_of and group in self._grouped and group not in self._held

    def rules_out(self, group: str, data: bytes) -> bool:
        """True where the native pass already answered that `data` holds none of `group`'s literals
        (note_held): a reader's own literal test (`holds_literal`, one `in` a literal: 250 of them
        under 50 renamed addresses) need not run first. Counts nothing (may_hold counts)."""
        return self._skips(group, data)

    def might_hold_context(self, data: bytes, held: Collection[str] | None = None) -> bool:
        """Can `data` hold a range (`web{01..03}` spells no old value) or a pattern for one?
        `held`: the context_groups whose literals `data` holds, where the caller knows (None: ask
        every reader); a reader of another group is not asked (its answer would be False)."""
        if (self._range_probe is not None and any(stem in data for stem in self._range_stems)
                and self._range_probe.search(data)):
            return True
        if (self._reverse_owners and (b"$ORIGIN" in data or b"$origin" in data)
                and (b"in-addr.arpa" in (lowered := data.lower()) or b"ip6.arpa" in lowered)):
            return True  # a reverse zone: relative PTR owners of old addresses (sweep/zone_rules.py)
        if self._reverse_owners and b"PTR" in (upper := data.upper()) and (
                b"SOA" in upper or _PTR_RECORD.search(upper) or _PTR_DATA.search(upper)):
            # A reverse zone (or a fragment of one, with no SOA) of unknown origin: its relative
            # owners are residuals there.
            return True
        if b"$GENERATE" in data or b"$generate" in data:
            return True  # `$GENERATE 50-60 dyn-$ A 10.250.50.$` holds 10.250.50.54 (sweep/zone_rules.py)
        if self.might_hold_zone_label(data):
            return True
        if self._fqdn_stems and self._derived is not None and any(s in data for s in self._fqdn_stems) \
                and self._derived.search(data):
            return True
        if self._mapped_scan and _holds_mapped(data):
            return True
        every, names = held is None, () if held is None else held
        if (every or "sets" in names) and host_sets.might_hold(data, self._set_needles):
            return True
        if (every or "base64 values" in names) and base64_values.might_hold(data, self.needles):
            return True  # a value the format declares base64 holds an old value once decoded
        if (every or "concatenated" in names) and concatenated.might_hold(data, self._set_needles):
            return True  # `"ana-" + "ml2"`, `"ana-${"ml2"}"` (concatenated.py; sweep/scan.py reads them)
        if self._templated and (every or "templated" in names) \
                and templated_names.might_hold(data, self._templated):
            return True
        if self._composed and (every or "composed" in names) and (
                composed_names.might_hold(data, self._composed, self._tails)
                or bool(composed_names.joins(data))):
            return True
        if (every or "address parts" in names) and self.might_compose_address(data):
            return True
        if (every or "completions" in names) and self.completions.might_hold(data):
            return True
        if (every or "computed" in names) and self.might_compute_address(data):
            return True
        if self._tool_names and (every or "tool names" in names) and (
                tool_names.might_hold(data) or zone_records.might_hold(data)
                or data_records.holds_records(data)):  # `web01:` of an octoDNS zone file
            return True
        if self._own_storage and (every or "own storage" in names) and own_storage.might_hold(data):
            return True
        if (every or "formatted" in names) and self.might_format_name(data):
            return True
        if (every or "address patterns" in names) and self._address_patterns(data):
            return True
        if (every or "prefixes" in names) and self.prefixes.might_hold(data):
            return True
        if self._resize_words and (every or "resized" in names) and computed_lengths.might_hold(data):
            return True
        if (every or "access sets" in names) and self.access.might_hold(data):
            return True  # `allow 10.0.0.64/29;` holding a renamed address (access_nets.py)
        if (every or "wide sets" in names) and self.wide_sets.might_hold(data):
            return True  # `allow 192.168.0.0/16;` a moved network leaves (wide_access.py)
        if (every or "wildcard names" in names) and self.wildcards.might_hold(data):
            return True  # `grafana.10-0-0-70.nip.io` (wildcard_names.py)
        if (every or "number addresses" in names) and self.numbers.might_hold(data):
            return True  # `http://184168502/` (number_addresses.py)
        if (every or "dressed addresses" in names) and self.dressed.might_hold(data):
            return True  # `192.168.040.005`, `0xc0.0xa8.0x28.0x05` (dressed_addresses.py)
        if (every or "packed addresses" in names) and self.packed.might_hold(data):
            return True  # `43,01:04:0a:00:00:46`, `2002:a00:46::/48`, `ping 10.70` (packed_addresses.py)
        if (every or "snmp indexes" in names) and self.snmp.might_hold(data):
            return True  # `IP-MIB::ipAdEntNetMask.192.168.40.1` (snmp_indexes.py)
        # The pattern probe itself: it looks only near regex syntax, so asking it costs about what
        # a cruder test would, and a file whose one question was "a pattern?" needs no full scan.
        return bool(self._pattern_starts) and bool(self._patterns(data))

    @property
    def set_needles(self) -> tuple[bytes, ...]:
        """host_sets.pieces of the old values: what a set or a join of literals covering one spells."""
        return self._set_needles

    def might_format_name(self, data: bytes) -> bool:
        """Can `data` make an old host name by a format with a number (`format("pve%02d", 1)`)?"""
        return bool(self._formatted) and formatted_names.might_hold(data, self._formatted)

    @property
    def network_moves(self) -> list[prefix_moves.PrefixMove]:
        """The `renames.networks` pairs as moves (a resize: another length)."""
        return self._moves

    def might_compute_address(self, data: bytes) -> bool:
        """Can `data` compute an old address from a literal network and number (`cidrhost`)?"""
        return bool(self._computed) and computed_addresses.might_hold(data, self._computed)

    def might_compose_address(self, data: bytes) -> bool:
        """Can `data` hold variables and literal octets making an old address (`${P}.5`)?"""
        return bool(self._address_parts) and address_parts.might_hold(data, self._address_parts,
                                                                      self._bare_tails)

    @property
    def zone_labels(self) -> tuple[bytes, ...]:
        """The first label of each old FQDN: a zone's relative owner under that FQDN's domain."""
        return self._zone_labels

    def might_hold_zone_label(self, data: bytes) -> bool:
        """Zone-like data holding an old FQDN's first label, as written or with a zone's escapes
        decoded (`\\097na-ml2`, `ana\\-ml2`: formats/zone_names.py reads names so)."""
        if not self._zone_labels:
            return False
        if _holds_zone_label(data, self._zone_labels):
            return True
        return b"\\" in data and _holds_zone_label(presentation_decoded(data), self._zone_labels)

    def _patterns(self, data: bytes) -> list[PatternHit]:
        """find_patterns, asked once per file: the first pass's answer is the full scan's."""
        if data is not self._patterns_of:
            self._patterns_of = data
            found = find_patterns(data, self._pattern_olds, self._pattern_starts, self._pattern_news,
                                  declared=not self.rules_out("pattern words", data))
            placed = [PatternHit(start, end, old) for start, end, old in self._placeholders.find(data)]
            self._patterns_found = ([*found, *(p for p in placed if not any(
                h.start < p.end and p.start < h.end for h in found))] if placed else found)
            self._patterns_found.sort(key=lambda hit: hit.start)
        return self._patterns_found

    def _address_patterns(self, data: bytes) -> list[address_patterns.Decision]:
        """address_patterns.decide, asked once per file; a renamed address's only beside a group of
        alternatives (the one shape it rewrites)."""
        needles = self._address_pattern_needles
        if not (needles and not self._skips("address patterns", data)
                and address_patterns.might_hold(data, needles)):
            return []
        # No renamed network: only a renamed address's head decides (address_patterns.heads).
        if not self._v4_nets and self._pair_heads is not None and not self._pair_heads.search(data):
            return []
        if data is not self._address_patterns_of:
            work.add("address pattern reads")
            pairs = self._v4_pairs if (b"|" in data and b".(" in data) or any(
                start in data for start in self._pattern_starts if b"." in start) else []
            self._address_patterns_of = data
            self._address_patterns_found = (
                address_patterns.decide(data, self._v4_nets, pairs, self._pair_heads)
                if self._v4_nets or pairs else [])
        return self._address_patterns_found

    def templated_heads(self, data: bytes, matches: list[Match],
                        told: Sequence[tuple[int, int]] = ()) -> list[Match]:
        """`matches` with a `composed-address` residual for each literal head inside a renamed
        network that a template completes (`"10.0.40.${count.index + 11}"`), where no match
        (a composition evaluated to its address first) stands on it; and for each head wider
        than the network (`10.0.48.` around a /28) whose template's value is unknown, outside
        every span of `told` (compositions evaluated, whatever they made)."""
        added = [Match(d.start, d.end, d.old, d.new, d.kind, refused=d.reason, note=d.note)
                 for d in self._address_patterns(data) if d.reason == "composed-address"
                 and not any(m.start < d.end and d.start < m.end for m in matches)
                 and not (d.wide and any(start <= d.start < end for start, end in told))]
        if not added:
            return matches
        out = sorted([*matches, *added], key=lambda m: m.start)
        # a loop's literal numbers that a shrink leaves outside: refused (t31-33 25)
        return looped_octets.refused(data, out, self._moves) if self._resized else out

    def find(self, data: bytes, starts: Iterable[int] = ()) -> list[Match]:
        """All matches in `data`, leftmost-longest, non-overlapping, in order; those that must
        not be rewritten (a range, an account, a pattern) carry `refused` or `kept`. `starts`:
        where the file's format says a name starts whatever the byte before it
        (name_starts.py); a shell default's start is found here, in any file."""
        found = self._find_exact(data)
        if self.hosts and b"_" in data:  # `__on hermes__`: Markdown emphasis closing at a name
            found = self._emphasis_ends(data, found)
        if self._mapped_scan and _holds_mapped(data):
            found = self._with_mapped(data, found)
        found = name_starts.with_starts(self, data, found, starts)
        found = self._in_context(data, found)
        if self._resized:
            found = self._with_lengths(data, found)
        # A range a resize in place keeps whole but for its last end (`2001:db8:a:10::-...:ffff`) has
        # no match of its own (t26-33, finding 02): a resized IPv6 move reads ranges ending as its last.
        last = any(tail in data for tail in self._v6_last_tails)
        if self._moves and (last or any(m.kind == "network" for m in found)) and _RANGE_WORDS.search(data):
            found = self._ranges_moved_whole(data, found)
        if self._moves and octet_ranges.has_dash(data):  # any dash (t32-33 finding 12)
            found = self._short_ranges(data, found)
            if last or any(m.kind == "network" for m in found):
                found = self._ranges_moved_whole(data, found, _dashed_ends(data))
        if self._v4_nets and (b"{" in data or b"[" in data):
            found = self._sets_of_moved(data, found)
        if self._v4_nets and b"/" in data:
            found = self._short_networks(data, found)
        if self._v4_nets and (b"/" in data or b"-" in data) and (b"in-addr" in data or b"IN-ADDR" in data):
            found = self._classless_names(data, found)
        if (self._v4_nets or self._v4_pairs) and any(n in data for n in classless_routes.NEEDLES):
            found = self._classless_routes(data, found)
        if self._moves and (rpz_triggers.NEEDLE in data or b"RPZ-" in data):
            found = self._rpz_triggers(data, found)
        if self._moves and host_access.GAP_KEY.search(data) is not None:  # issue 33, round 7
            found = self._allowed_gaps(data, found)
        if self._resized:
            found = self._with_pools(data, found)
        elif self._moves:  # a move of one length into a network a winning deny covers (round 7), or
            # carrying an except out of its cidr (t37-break, finding 10)
            found = self._merged_hits(found, [*except_blocks.into_hits(data, self._moves),
                                              *except_blocks.moving_out_hits(data, self._moves)])
        if self._address_moves and found and b"xcept" in data:  # (t38-break finding 06)
            found = self._merged_hits(found, [*except_blocks.moving_out_hits(data, self._address_moves)])
        if self._resized:
            # `-s 10.0.48.0/24 -j NETMAP --to 172.31.5.0/24`: a 1:1 map's other side keeps its length
            found = nat_maps.held(data, found, self._moves)
            # `for i in range(150, 160)` ... `10.0.48.{i}` under a shrink: addresses outside (t31-33 25)
            found = looped_octets.refused(data, found, self._moves)
            # `dhcp-range=10.0.48.1,10.0.48.254` under a grow: every host of the old network (t31-33 01)
            if any(gate in data for gate in self._host_range_gates):
                found = self._every_host(data, found)
            if any(m.refused == "range" for m in found):  # its mask held with it (t36-33 finding 07)
                found = _masks_of_held_ranges(data, found)
        if found and ellipsis_lists.might_hold(data):  # `web01, web02, ..., web05` (t31 round 24, 26)
            found = ellipsis_lists.refused(data, found)
        if self._address_olds and any(m.kind == "address" and m.new != m.old for m in found):
            # `10.0.0.70 -> 10.0.1.255` beside `/24`: the broadcast address, no host (t31 round 24, 27)
            found = host_roles.refused(data, found, self._address_olds)
        if found:  # `"version": "10.0.0.12"` (t36-33 finding 03; refused gates itself)
            found = version_numbers.refused(data, found)
        return found

    def _every_host(self, data: bytes, matches: list[Match]) -> list[Match]:
        """A range over every host of a network a move grows (host_ranges.py): both ends a `range`
        residual, each match over an end made one (an end a grow in place keeps has none: added)."""
        v6 = any(move.old.version == 6 for move in self._moves)
        pairs = [*declared_ends(data, v6=v6), *_dashed_ends(data), *host_ranges.own_ends(data)]
        hits = host_ranges.hits(data, self._moves, pairs)
        if not hits:
            return matches
        out = list(matches)
        added = []
        for hit in hits:
            over = [i for i, m in enumerate(out) if m.start < hit.end and hit.start < m.end]
            if any(out[i].kept is not None or out[i].refused not in (None, host_ranges.REASON,
                                                                     prefix_moves.BROADCAST) for i in over):
                continue  # decided already (a refusal, a kept line)
            for i in over:
                out[i] = replace(out[i], new=out[i].old, refused=host_ranges.REASON, note=hit.note)
            if not over:
                added.append(Match(hit.start, hit.end, hit.text, hit.text, "network",
                                   refused=host_ranges.REASON, note=hit.note))
        return sorted([*out, *added], key=lambda m: m.start) if added else out

    def prose_lengths(self, data: bytes, matches: list[Match]) -> list[Match]:
        """`# /16 gives ~64K pod IPs` beside a resized network: its old length in prose (prose_lengths.py)."""
        return prose_lengths.prose(data, matches, self._moves) if self._resized else matches

    def table_lengths(self, data: bytes, rel: str, matches: list[Match]) -> list[Match]:
        """`| 10.0.48.0 | 24 |`: a resized network's length in a table cell of its own (table_lengths.py)."""
        if not self._resized:
            return matches
        matches = table_lengths.length_cells(data, rel, matches, self._moves)
        return size_counts.count_matches(data, rel, matches, self._moves)  # t33-33 findings 13, 14

    def _with_pools(self, data: bytes, matches: list[Match]) -> list[Match]:
        """Pools, bounds and sets tied to a resized network by a key of their own (prefix_pools.py,
        prefix_lists.py: t26-33 findings 05, 06, 08, 10, 11, 20): each hit takes the place of any
        match over it (a prefix-list entry's network is left with its bounds, never alone)."""
        moves = self._moves
        hits = [*prefix_pools.pool_hits(data, moves), *prefix_lists.list_hits(data, moves),
                *except_blocks.into_hits(data, moves), *except_blocks.moving_out_hits(data, moves)]
        return self._merged_hits(matches, hits)

    def _merged_hits(self, matches: list[Match], hits: list[prefix_moves.LengthHit]) -> list[Match]:
        """Each hit in the place of any match over it."""
        if not hits:
            return matches
        hits.sort(key=lambda h: h.start)
        starts = [h.start for h in hits]
        reach: list[int] = []  # reach[k]: the furthest end of hits[0..k]
        for h in hits:
            reach.append(max(h.end, reach[-1] if reach else h.end))
        kept = [m for m in matches
                if (k := bisect.bisect_left(starts, m.end) - 1) < 0 or reach[k] <= m.start]
        added = [Match(h.start, h.end, h.old, h.new, "network", refused=h.refused, note=h.note) for h in hits
                 if h.refused != prefix_pools.DROP]
        return sorted([*kept, *added], key=lambda m: m.start)

    def _classless_routes(self, data: bytes, matches: list[Match]) -> list[Match]:
        """RFC 3442 routes as bytes (`option rfc3442-classless-static-routes 24, 10, 9, 0, 10, 9, 0,
        1;`, classless_routes.py): each route's destination (`10.9.0.0/24`) and gateway decided as
        the dotted text they stand for; the list rewritten where every change is certain, else a
        `mask` residual naming why (an `outside-prefix` one where a shrink cannot place a part,
        which refuses the sweep). Break-it round 20p, finding 8b."""
        added = []
        starts = [m.start for m in matches]
        for listed in classless_routes.find(data):
            if _overlaps(matches, starts, listed.start, listed.end):
                continue
            text = data[listed.start:listed.end].decode("ascii")
            routes = classless_routes.decode(listed.values)
            if routes is None:
                added.append(Match(listed.start, listed.end, text, text, "network", refused=prefix_moves.MASK,
                                   note="an RFC 3442 route list (DHCP option 121/249) that does not decode "
                                        "(length, destination octets, gateway): its routes cannot be read"))
                continue
            moved: list[classless_routes.Route] = []
            why: list[str] = []
            reason = prefix_moves.MASK
            for route in routes:
                parts = []
                for part in (f"{route.destination}/{route.length}", route.gateway):
                    new, problem, outside = self._part_moved(part)
                    parts.append(new)
                    if problem is not None:
                        why.append(f"{part}: {problem}")
                        reason = prefix_moves.OUTSIDE if outside else reason
                destination, _, length = parts[0].partition("/")
                moved.append(classless_routes.Route(int(length), destination, parts[1]))
            if moved == routes and not why:
                continue
            before = classless_routes.routes_text(routes)
            if why:
                note = (f"an RFC 3442 route list (DHCP option 121/249), {before}: " + "; ".join(why)
                        + "; the list is left whole, write it by hand")
                added.append(Match(listed.start, listed.end, text, text, "network", refused=reason,
                                   note=note))
                continue
            new_text = classless_routes.encode(moved, listed)
            added.append(Match(listed.start, listed.end, text, new_text, "network",
                               note=f"an RFC 3442 route list (DHCP option 121/249): {before} becomes "
                                    f"{classless_routes.routes_text(moved)}"))
        return sorted([*matches, *added], key=lambda m: m.start) if added else matches

    def _part_moved(self, part: str) -> tuple[str, str | None, bool]:
        """A route's destination (`10.9.0.0/24`) or gateway as the sweep would write it, with why it
        cannot where it cannot (a residual of its own, or what it writes is no network), and whether
        that is a shrink's outside-prefix."""
        data = part.encode()
        text = part
        for m in sorted(self.find(data), key=lambda m: -m.start):
            if m.refused is not None or m.kept is not None:
                outside = m.refused == prefix_moves.OUTSIDE
                return part, f"{m.refused or 'kept'}: {m.note or ''}".rstrip(": "), outside
            text = text[:m.start] + m.new + text[m.end:]
        if "/" in text:
            address, _, length = text.partition("/")
            try:
                network = ipaddress.IPv4Network(text)
            except ValueError:
                return part, f"it would become {text}, which is no network", False
            if str(network.network_address) != address or int(length) > 32:
                return part, f"it would become {text}, which is no network", False
        return text, None, False

    def _rpz_triggers(self, data: bytes, matches: list[Match]) -> list[Match]:
        """BIND RPZ IP triggers of a moved network (`24.0.48.0.10.rpz-ip`, rpz_triggers.py; t31-33,
        finding 03): rewritten by offset, or refused `outside-prefix`; each takes the place of any
        match inside its name (`24.0.48.0` read as an address)."""
        found = list(rpz_triggers.triggers(data, self._moves))
        if not found:
            return matches
        spans = [(t.start, t.end) for t in found]
        kept = [m for m in matches if not any(s < m.end and m.start < e for s, e in spans)]
        added = [Match(t.start, t.end, t.old, t.new, "network", refused=t.refused, note=t.note)
                 for t in found]
        return sorted([*kept, *added], key=lambda m: m.start)

    def _allowed_gaps(self, data: bytes, matches: list[Match]) -> list[Match]:
        """A WireGuard AllowedIPs list computed around a moved network, one of whose entries the new
        network overlaps (host_access.gaps): a `supernet` residual at that entry."""
        starts = [m.start for m in matches]
        added = [Match(g.start, g.end, g.text, g.text, "network", refused="supernet", note=g.note)
                 for g in host_access.gaps(data, self._moves)
                 if not _overlaps(matches, starts, g.start, g.end)]
        return sorted([*matches, *added], key=lambda m: m.start) if added else matches

    def _classless_names(self, data: bytes, matches: list[Match]) -> list[Match]:
        """An RFC 2317 classless name of a moved network the address rules find no address in
        (`0-63.50.168.192.in-addr.arpa`: `63.50...` stands after a `-`): a `reverse-zone` residual."""
        added = []
        starts = [m.start for m in matches]
        for x in prefix_moves.CLASSLESS_NAME.finditer(data):
            name = x.group().decode("ascii")
            if (_overlaps(matches, starts, x.start(), x.end())
                    or not prefix_moves.classless_moved(name, self.networks)):
                continue
            added.append(Match(x.start(), x.end(), name, name, "network", refused=prefix_moves.ZONE,
                               note=prefix_moves.classless_note(name)))
        return sorted([*matches, *added], key=lambda m: m.start) if added else matches

    def _short_networks(self, data: bytes, matches: list[Match]) -> list[Match]:
        """`10.0.48/29`, `10.9/16`: iproute2 (and BSD `route`) read a network written with fewer
        than four octets as its zeros padded (10.0.48.0/29). No address spells it, so it stayed
        under a move, verify OK (f25 breaker, finding 6). Where the padded address lies in a
        moved network: a `mask` residual naming the network it stands for (never rewritten: the
        new network may need a fourth octet)."""
        if self._short_network is None:
            firsts = sorted({str(old.network_address).split(".")[0] for old, _ in self._v4_nets})
            self._short_network = re.compile(
                rb"(?<![0-9A-Za-z.])(?:" + b"|".join(f.encode() for f in firsts)
                + rb")(?:\.[0-9]{1,3}){1,2}/([0-9]{1,2})(?![0-9A-Za-z]|\.[0-9]|/[0-9])")
        added = []
        starts = [m.start for m in matches]
        for x in self._short_network.finditer(data):
            text = x.group().decode("ascii")
            octets = text.split("/")[0].split(".")
            length = int(x.group(1))
            if any(int(o) > 255 for o in octets) or length > 32:
                continue
            address = ipaddress.IPv4Address(".".join([*octets, *["0"] * (4 - len(octets))]))
            move = next((mv for mv in self._moves if mv.old.version == 4 and address in mv.old), None)
            if move is None or _overlaps(matches, starts, x.start(), x.end()):
                continue
            if move.mapped(address) == address and length == move.new.prefixlen:
                continue  # the new network written short already (a resize in place)
            added.append(Match(x.start(), x.end(), text, text, "network", refused=prefix_moves.MASK,
                               note=f"`{text}` is {address}/{length} written short (iproute2 pads the "
                                    f"missing octets with zeros), inside the moved network {move.old} "
                                    f"(renamed {move.new}): write the new network by hand"))
        return sorted([*matches, *added], key=lambda m: m.start) if added else matches

    def _sets_of_moved(self, data: bytes, matches: list[Match]) -> list[Match]:
        """`10.1.0.{100..102}`, `10.1.0.{5,6}`, `10.1.0.[5:6]`: literal octets a shell brace set or an
        Ansible range completes spell no address, yet expand to addresses of a moved network: each
        such set is a `range` residual (the sweep never rewrites part of a set), never silence."""
        added = []
        starts = [m.start for m in matches]
        for x in _HEAD_SET.finditer(data):
            octets = x.group(1).decode("ascii").rstrip(".").split(".")
            values = [int(v) for v in re.findall(rb"[0-9]+", x.group(2))]
            if x.group(2).count(b"..") or x.group(2).count(b":"):
                values = list(range(values[0], values[1] + 1))[:256]
            if any(int(o) > 255 for o in octets) or not values or max(values) > 255:
                continue
            blocks = [ipaddress.IPv4Network(".".join([*octets, str(v), *["0"] * (3 - len(octets))])
                                            + f"/{8 * (len(octets) + 1)}") for v in values]
            moved = next((old for old, _ in self._v4_nets for b in blocks if b.overlaps(old)), None)
            if moved is None or _overlaps(matches, starts, x.start(), x.end()):
                continue
            move = next(mv for mv in self._moves if mv.old == moved)
            if move.old.network_address == move.new.network_address and all(
                    b.subnet_of(moved) and move.fits(b.network_address) and move.fits(b.broadcast_address)
                    for b in blocks):
                continue  # a resize in place: every member stays where it is
            text = x.group().decode("ascii")
            added.append(Match(x.start(), x.end(), text, text, "network", refused="range",
                               note=f"`{text}` expands to addresses of the moved network {moved}"))
        return sorted([*matches, *added], key=lambda m: m.start) if added else matches

    def _short_ranges(self, data: bytes, matches: list[Match]) -> list[Match]:
        """`10.1.0.100-200`, `10.1.0.100 - .200`: a range whose second end is the first's last
        octet. Rewriting the first end alone keeps the tail, which is right only where the second
        end's new address is the new first end's prefix with that tail; else (the move shifts the
        last octet, or a shrink leaves the second end outside the new network) the first end is
        refused, naming the second."""
        out = matches
        for i, m in enumerate(matches):
            if m.kind != "network" or m.refused is not None or m.kept is not None or "/" in m.old:
                continue
            tail = _SHORT_TAIL.match(data, m.end)
            if tail is None or "." not in m.old:
                continue
            head = m.old.rsplit(".", 1)[0]
            try:
                other = ipaddress.IPv4Address(f"{head}.{int(tail.group(1))}")
            except ValueError:
                continue
            move = self._move_holding(str(other))
            new_head = m.new.rsplit(".", 1)[0]
            mapped = move.mapped(other) if move is not None else None
            if move is not None and move.fits(other) and str(mapped) == f"{new_head}.{int(tail.group(1))}":
                continue
            if move is not None and not move.fits(other):
                why, reason = f"the range's other end, {move.why_not(other)}", prefix_moves.OUTSIDE
            else:
                where = f"becomes {mapped}" if mapped is not None else "is in no moved network"
                why = (f"{m.old}{tail.group().decode('utf-8')}: the range's other end {other} {where}, "
                       f"which `{new_head}.{int(tail.group(1))}` would not spell")
                reason = "range"
            out = out if out is not matches else list(matches)
            out[i] = replace(m, refused=reason, note=why)
        return self._octet_ranges(data, out)

    def _octet_ranges(self, data: bytes, matches: list[Match]) -> list[Match]:
        """`10.0.48.0-255` (the whole old network: the whole new one) and `10.0.48.100-200` under a
        shrink in place that leaves the first end where it is (octet_ranges.py; t31-33 finding 01)."""
        found = octet_ranges.extra(data, self._moves, {m.start for m in matches})
        if not found:
            return matches
        kept = [m for m in matches if not any(r.start < m.end and m.start < r.end for r in found)]
        added = [Match(r.start, r.end, r.old, r.new, "network",
                       refused=prefix_moves.OUTSIDE if r.outside is not None else None,
                       note=r.outside or f"`{r.old}` is the whole of a moved network: the whole new one")
                 for r in found]
        return sorted([*kept, *added], key=lambda m: m.start)

    def _ranges_moved_whole(self, data: bytes, matches: list[Match],
                            ends: list[tuple[tuple[int, int], tuple[int, int]]] | None = None) -> list[Match]:
        """A declared range (`dhcp-range=a,b`, `range a b;`, a Kea pool `a - b`, start and end
        keys; or `ends`: two whole addresses a dash joins, `10.1.0.10-10.3.0.20`) follows a network
        move when both ends lie in one moved network (each keeps its offset; a shrink that cannot
        hold it is refused with its addresses); one end moved alone (the other in no moved network,
        or in another) would break it: both ends are refused."""
        at = {m.start: i for i, m in enumerate(matches) if m.kind == "network"}
        refused: dict[int, str] = {}
        rewritten: dict[int, Match] = {}
        added: list[Match] = []
        pairs = ends if ends is not None else declared_ends(
            data, v6=any(move.old.version == 6 for move in self._moves))
        for (a_start, a_end), (b_start, b_end) in pairs:
            texts = [data[a_start:a_end].decode("ascii"), data[b_start:b_end].decode("ascii")]
            sides = ((a_start, texts), (b_start, texts[::-1]))
            owners = [self._move_holding(text) for text in texts]
            if owners[0] is owners[1] and owners[0] is not None and owners[0].resized:
                if not self._range_at_broadcast(owners[0], (a_start, b_start), texts, at, matches, refused,
                                                rewritten):
                    added += self._range_at_last(owners[0], ((a_start, a_end), (b_start, b_end)), texts,
                                                 at, matches, refused, rewritten)
                continue
            if owners[0] is owners[1]:
                continue  # both in one moved network (or neither)
            for (start, (mine, other)), owner in zip(sides, owners, strict=True):
                where = f"in {owner.old}" if owner is not None else "in no moved network"
                there = next((f"in {o.old}" for o in owners if o is not None and o is not owner),
                             "in no moved network")
                if start in at:
                    refused[at[start]] = f"{mine} is {where}, the range's other end {other} {there}"
        if not refused and not rewritten and not added:
            return matches
        out = [rewritten.get(i, m) for i, m in enumerate(matches)]
        out = [replace(m, refused="range", note=refused[i])
               if i in refused and (m.refused is None or m.refused == prefix_moves.BROADCAST) else m
               for i, m in enumerate(out)]
        return sorted([*out, *added], key=lambda m: m.start) if added else out

    @staticmethod
    def _range_at_broadcast(move: prefix_moves.PrefixMove, starts: tuple[int, int], texts: list[str],
                            at: dict[int, int], matches: list[Match], refused: dict[int, str],
                            rewritten: dict[int, Match]) -> bool:
        """A range of one resized network with an end at its old broadcast address (break-it round
        20p, finding 4b): from the network address, it is the whole network and the end becomes
        the new broadcast address (where the new network has one); from a host, the start keeps
        its offset but the end has no certain place: both ends are a `range` residual, never one
        end alone."""
        addresses = [ipaddress.ip_address(text) for text in texts]
        ends = [move.is_broadcast(address) for address in addresses]
        if not any(ends):
            return False
        whole = (addresses[0] == move.old.network_address and ends[1] and move.new_has_broadcast)
        for index, (start, text) in enumerate(zip(starts, texts, strict=True)):
            i = at.get(start)
            if i is None:
                continue
            if whole:
                if ends[index]:
                    rewritten[i] = replace(matches[i], new=str(move.new.broadcast_address), refused=None,
                                           note=f"the end of the range {texts[0]}-{texts[1]}, the whole of "
                                                f"{move.old}, which becomes {move.new}")
                continue
            broadcast = texts[1] if ends[1] else texts[0]
            refused[i] = (f"the range's other end {broadcast} is the broadcast address of {move.old}, which "
                          f"becomes {move.new}: no end moves alone" if text != broadcast else
                          f"{text} is the broadcast address of {move.old}, which becomes {move.new}, and "
                          f"ends the range {texts[0]}-{texts[1]}: no end moves alone")
        return True

    @staticmethod
    def _range_at_last(move: prefix_moves.PrefixMove, spans: tuple[tuple[int, int], tuple[int, int]],
                       texts: list[str], at: dict[int, int], matches: list[Match], refused: dict[int, str],
                       rewritten: dict[int, Match]) -> list[Match]:
        """A range of one resized network with no broadcast address (IPv6, an IPv4 /31 or /32) that
        ends at its last address (t26-33, finding 02: `2001:db8:a:10::-2001:db8:a:10:ffff:ffff:ffff:ffff`
        kept the old /64 under a /60): from the network address it is the whole network, and its ends
        become the new network's first and last addresses (in their spelling); from a host, the end
        has no certain place: both ends are a `range` residual. Returns the matches it adds (an end
        a resize in place keeps has none)."""
        addresses = [ipaddress.ip_address(text) for text in texts]
        if move.has_broadcast or addresses[1] != move.old.broadcast_address:
            return []
        whole = addresses[0] == move.old.network_address
        news = [move.new.network_address, move.new.broadcast_address]
        added = []
        for index, ((start, end), text) in enumerate(zip(spans, texts, strict=True)):
            new = str(news[index])
            if ":" in text:
                new = spelling.v6_like(text, ipaddress.IPv6Address(news[index]))
            i = at.get(start)
            if not whole:
                if i is not None:
                    refused[i] = (f"{texts[1]} is the last address of {move.old}, which becomes {move.new}, "
                                  f"and ends the range {texts[0]}-{texts[1]}, which starts at a host: no end "
                                  "moves alone")
                elif index == 1:
                    added.append(Match(start, end, text, text, "network", refused="range",
                                       note=f"{text} is the last address of {move.old}, which becomes "
                                            f"{move.new}, and ends the range {texts[0]}-{texts[1]}, which "
                                            "starts at a host: its end has no certain place"))
                continue
            note = (f"an end of the range {texts[0]}-{texts[1]}, the whole of {move.old}, which becomes "
                    f"{move.new}")
            if i is not None:
                rewritten[i] = replace(matches[i], new=new, refused=None, note=note)
            elif new != text:
                added.append(Match(start, end, text, new, "network", note=note))
        return added

    def _move_holding(self, text: str) -> prefix_moves.PrefixMove | None:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            return None
        return next((move for move in self._moves if move.offset_of(address) is not None), None)

    def _with_lengths(self, data: bytes, matches: list[Match]) -> list[Match]:
        """Masks, wildcards and prefix-length keys of a network whose move changes its length
        (prefix_moves.length_hits): rewritten where the context makes them the moved network's,
        residuals of kind `mask` where the file names it but nothing ties this one to it."""
        hits = prefix_moves.length_hits(data, self._moves)
        starts = [m.start for m in matches]  # in order, none overlapping: by bisection
        added = [Match(h.start, h.end, h.old, h.new, "network", refused=h.refused, note=h.note) for h in hits
                 if not _overlaps(matches, starts, h.start, h.end)]
        out = sorted([*matches, *added], key=lambda m: m.start) if added else matches
        # pasted ipcalc output of a resized network: every value in it is the length's (t31-33 11);
        # an address a shrink leaves outside there (HostMax) is the block's too: no host uses it (t32-33 07)
        for start, end, note in near_lengths.ipcalc_blocks(data, [(m.old, m.new) for m in self._moves]):
            out = [replace(m, new=m.old, refused=prefix_moves.MASK, note=note)
                   if start <= m.start < end and m.refused in (None, prefix_moves.OUTSIDE) and m.kept is None
                   else m for m in out]
        return out

    def _emphasis_ends(self, data: bytes, found: list[Match]) -> list[Match]:
        """Host names that end at a run of underscores closing Markdown emphasis opened before
        them on the line (`__on hermes__`, `_on zeus_`): the `_` is markup, no name character
        (markdown_emphasis.py; outside round 25, finding 10)."""
        added = []
        starts = [m.start for m in found]  # (found is in file order)
        for at, count in markdown_emphasis.underscore_closers(data):
            i = bisect.bisect_left(starts, at) - 1
            if i >= 0 and found[i].start < at <= found[i].end:
                continue
            line = data.rfind(b"\n", max(0, at - self._longest - 1), at) + 1
            word = at
            while word > line and at - word < self._longest and data[word - 1:word] not in b" \t([\"'>_*`":
                word -= 1
            if word == at or data[word:at] not in self._host_texts \
                    or not markdown_emphasis.closes(data, word, at, count, b"_"):
                continue
            hit = self.match_at(data[word:at] + b" ", 0)
            if hit is not None and hit.end == at - word and hit.kind == "host":
                hit.start, hit.end = word, at
                added.append(hit)
        return sorted([*found, *added], key=lambda m: m.start) if added else found

    def match_at(self, data: bytes, pos: int) -> Match | None:
        """The form starting at `pos`, with its right boundary but not its left one (the caller
        knows a name starts there): matched in a slice, whose start passes every left rule."""
        if self.pattern is None:
            return None
        window = data[pos:pos + self._longest + 4]  # the right rules look at most 2 bytes on
        hit = self.pattern.match(window)
        if hit is None or (hit.end() == len(window) and pos + len(window) < len(data)):
            return None
        found = self._resolve(window, 0, hit.end())
        if found is not None:
            found.start, found.end = pos, pos + hit.end()
        return found

    def find_any_case(self, data: bytes, starts: Iterable[int] = ()) -> list[Match]:
        """`find` where host names are DNS names (a zone, a hosts file): any case matches, and the
        new value takes the case of what was found (forms.case_like). Byte offsets are the
        same in `data.lower()`, which the lower-cased rules run over."""
        folded = self._any_case()
        out = []
        exact = {old.encode() for old, _ in self.hosts}
        for m in folded.find(data.lower(), starts):
            found = data[m.start:m.end]
            if m.kind == "host" and found not in exact and _in_path(data, m.start, m.end):
                continue  # a file path's part: case-sensitive, matched as elsewhere (round 9, #11)
            if found != found.lower() or m.kind == "host":
                text = found.decode("utf-8", "replace")
                m.old, m.new = text, spelling.case_like(text, self._configured(m.old, m.new))
            out.append(m)
        return with_opaque(data, out) if out else out

    def might_match_any_case(self, data: bytes) -> bool:
        """Does `data` spell an old value's form in another case? Forms only: a DNS file's names
        are what any case is for, and ranges or patterns are asked of the bytes as they are (the
        pattern probe would otherwise run twice over every file of a 10/8 repo)."""
        lowered = data.lower()
        return any(needle in lowered for needle in self._any_case().needles)

    def renamed_whole(self, name: str) -> str | None:
        """The new value of `name` (a DNS name, any case, no final dot) when one rename matches all
        of it: `nas.local.lab.example`, `54.50.250.10.in-addr.arpa`; None for a part (`nas` in
        it), a refused or derived match. A zone file asks this of each of its names: the needle
        test first, as `find` does for a file."""
        folded = self._any_case()
        data = name.lower().encode("ascii", "replace")
        if not any(needle in data for needle in folded.needles):
            return None
        found = self.find_any_case(data)
        if len(found) != 1:
            return None
        m = found[0]
        if m.start != 0 or m.end != len(data) or m.refused or m.kept or m.derived:
            return None
        return m.new

    def kept_in_place(self, name: str) -> bool:
        """Is `name` (a reverse name, no final dot) an address's whose resized move keeps it where it
        is (a resize in place: `5.0.9.10.in-addr.arpa` under `10.9.0.0/16: 10.9.0.0/24`)? Its zone
        may be renamed (9.10 becomes 0.9.10) while the name stays: its relative owner must follow."""
        lowered = name.lower()
        if not self._resized or not lowered.endswith((".in-addr.arpa", ".ip6.arpa")):
            return False
        address = spelling.from_reverse(lowered)
        if address is None:
            return False
        move = next((mv for mv in self._moves if mv.offset_of(address) is not None), None)
        return move is not None and move.resized and move.mapped(address) == address

    def outside_whole(self, name: str) -> str | None:
        """Why a shrinking network move cannot place the address `name` (a reverse name, any case,
        no final dot) names, where a network match covers all of it: a zone's relative PTR owner
        (`200` under `$ORIGIN 0.1.10.in-addr.arpa.`) is an address in use too; None otherwise."""
        if not self._resized:
            return None
        found = self.find_any_case(name.lower().encode("ascii", "replace"))
        if len(found) == 1 and found[0].start == 0 and found[0].end == len(name) \
                and found[0].refused == prefix_moves.OUTSIDE:
            return found[0].note
        return None

    def _any_case(self) -> Matcher:
        if self._folded is None:
            self._folded = Matcher([(old.lower(), new) for old, new in self.hosts], self.addresses,
                                   self.networks, derived_names=self.derived_names, variants=self.variants,
                                   rewrite_accounts=self.rewrite_accounts)
        return self._folded

    def _configured(self, old: str, new: str) -> str:
        """The new value as configured for the lower-cased key `old` (an address's is as it is)."""
        return self._lower_hosts.get(old, new)

    def _with_mapped(self, data: bytes, matches: list[Match]) -> list[Match]:
        """IPv4-mapped IPv6 addresses in hex whose IPv4 address is an old one (one regex over a
        file that holds `ffff:`, which few do)."""
        added = []
        for x in spelling.MAPPED.finditer(data):
            found = self._mapped_match(data, x.group().decode("ascii"), x.start(), x.end())
            if found is not None and not any(m.start < x.end() and x.start() < m.end for m in matches):
                added.append(found)
        return sorted([*matches, *added], key=lambda m: m.start) if added else matches

    def _mapped_match(self, data: bytes, text: str, start: int, end: int) -> Match | None:
        """An IPv4-mapped IPv6 address in hex (`_mapped`) as a match; under a move that changes
        its network's length, held to the rules of `_lengthed`: one a shrink cannot place is
        refused, the old broadcast address (no line says so in hex) is refused, one a resize in
        place keeps is no match."""
        new = self._mapped(text)
        if new is None:
            return None
        found = Match(start, end, text, new, "address")
        v4 = spelling.embedded_v4(ipaddress.IPv6Address(text))
        move = next((mv for mv in self._moves if v4 is not None and mv.offset_of(v4) is not None), None)
        if v4 is None or str(v4) in self._v4_map or move is None or not move.resized:
            return found
        if move.is_broadcast(v4):
            return replace(found, refused=prefix_moves.BROADCAST,
                           note=f"{text} is {v4}, the broadcast address of {move.old}, which becomes "
                                f"{move.new}")
        if not move.fits(v4):
            return replace(found, refused=prefix_moves.OUTSIDE, note=f"{text} is {v4}: {move.why_not(v4)}")
        # its length counts the 96 bits of its IPv6 head (t26-33, finding 12: `/120` stayed under a /22)
        prefix = prefix_spellings.length_after(data, end, v6=True)
        if prefix is not None and not prefix_moves.is_length(data, start, prefix.end):
            prefix = None
        length = prefix.value - prefix_spellings.MAPPED_SHIFT if prefix is not None else None
        if prefix is not None and length is not None and length < move.old.prefixlen:
            if length == move.new.prefixlen and new == text:
                return None  # a resize in place, its new length written already
            return replace(found, refused="supernet" if length > 0 else prefix_moves.MASK,
                           note=f"{text}{prefix.text} is wider than {move.old} in IPv4-mapped form")
        if prefix_spellings.host_becomes_network(move.old, move.new, v4) and length != move.old.prefixlen:
            return replace(found, refused=prefix_moves.OUTSIDE,  # a /31 host made the network address
                           note=f"{text} is {v4}: " + prefix_spellings.role_note(str(v4), move.old, move.new))
        if prefix is not None and length == move.old.prefixlen:
            return Match(start, prefix.end, text + prefix.text,
                         f"{new}{prefix.between}{move.new.prefixlen + prefix_spellings.MAPPED_SHIFT}",
                         "address", note=f"{text} is {v4} with its length in IPv4-mapped form: the move "
                                         f"of {move.old} to {move.new} sets both")
        return None if new == text else found

    def _mapped(self, text: str) -> str | None:
        """`::ffff:0afa:3236` -> the new address in the same spelling (`::ffff:0afb:3236`): the
        groups before the last two kept, each hex group as wide and in the same case as written."""
        try:
            v4 = spelling.embedded_v4(ipaddress.IPv6Address(text))
        except ValueError:
            return None
        if v4 is None or "." in text:
            return None  # the dotted tail (::ffff:10.250.50.54) is an exact form of its own
        new = self._v4_map.get(str(v4))
        mapped = ipaddress.IPv4Address(new) if new is not None else self._map_address(v4)
        if not isinstance(mapped, ipaddress.IPv4Address):
            return None
        return spelling.mapped_like(text, mapped)

    def _find_exact(self, data: bytes) -> list[Match]:
        if self.pattern is None:
            return []
        if self._generic:
            out: list[Match] = []
            for x in self._generic_candidates(data):
                out += self._resolve_generic(data, x.start(), x.end())
            if self._v6_values or self._v6_ranges:
                out = self._tagged_v6(data, out)
            return out
        starts = sorted({pos for needle in self._starters for pos in positions(data, needle)})
        matches: list[Match] = []
        end = 0
        for pos in starts:
            if pos < end:
                continue
            hit = self.pattern.match(data, pos)
            if hit:
                resolved = self._resolve(data, hit.start(), hit.end())
                if resolved:
                    matches.append(resolved)
                    end = hit.end()
        return matches

    def _tagged_v6(self, data: bytes, matches: list[Match]) -> list[Match]:
        """IPv6 addresses glued to a tag (tagged_v6.py: SPF's `ip6:`, `[IPv6:...]`, an APL item's
        `2:`; t29-33, findings 07 and 23), which no candidate above starts at: each resolved as any
        other IPv6 run, its length after it read as any other's."""
        added: list[Match] = []
        starts = [m.start for m in matches]
        for pos, numbered in tagged_v6.starts(data):
            hit = _BARE_V6.match(data, pos)
            if hit is None or (numbered and data[hit.end():hit.end() + 1] != b"/"):
                continue
            k = bisect.bisect_left(starts, hit.end()) - 1  # the last match starting before its end
            if (k >= 0 and matches[k].end > pos) or (added and added[-1].end > pos):
                continue
            added += self._resolve_generic(data, pos, hit.end())
        return sorted([*matches, *added], key=lambda m: m.start) if added else matches

    def _generic_candidates(self, data: bytes) -> Iterator[re.Match[bytes]]:
        """What `self.pattern.finditer(data)` yields. The IPv6 branch starts with a class that
        may match nothing, so a regex search tries every form's lookbehinds at every byte (6 µs a
        byte on an IPv6-heavy repo); without IPv4 networks, a match can start only where a form's
        text does or where a run of IPv6 characters holding a colon does (_v6_starts), so the
        pattern is tried at those places alone, in order, each match skipping the places inside
        it as finditer does. (The IPv4 network branches start at any dotted quad: searched.)"""
        assert self.pattern is not None
        if self._v4_networks:
            yield from self.pattern.finditer(data)
            return
        starts = sorted({pos for text in self._form_starters for pos in positions(data, text)}
                        | set(_v6_starts(data)) | set(self._nibble_starts(data)))
        end = 0
        for pos in starts:
            if pos < end:
                continue
            hit = self.pattern.match(data, pos)
            if hit:
                end = hit.end()
                yield hit

    def _nibble_starts(self, data: bytes) -> Iterator[int]:
        """Where an IPv6 address's nibble name would start: 64 bytes before each `ip6.arpa`, where
        an IPv6 network moves (the name holds no colon: _v6_starts never sees it)."""
        if not self._v6_ranges:
            return
        for suffix in (b"ip6.arpa", b"IP6.ARPA"):
            for pos in positions(data, suffix):
                if pos >= 64:
                    yield pos - 64
                # each label of a nibble zone (fewer than 32 nibbles: ANY_V6_ZONE) may be its first:
                # `9.0.0.0...` after a quote, or after `cafe.` (no zone of its own: tried on)
                start = pos
                while start >= 2 and pos - start < 62 and data[start - 1:start] == b"." \
                        and data[start - 2:start - 1] in _NIBBLES:
                    start -= 2
                    yield start

    def _in_context(self, data: bytes, matches: list[Match]) -> list[Match]:
        """Ranges refuse the matches inside them (or stand alone where none is: `web01-03` has
        no exact match without derived names); accounts are kept; patterns are added; a name
        read after a backslash that is a Windows path's separator (`C:\\new\\tana-ml2`) is no
        escape, so no match."""
        if b"\\" in data:
            matches = [m for m in matches if not _in_windows_path(data, m.start)]
        matches = with_opaque(data, matches)  # no reference to the host: a key's or a hash's letters
        spans = [(span, rule) for rule in self._ranges for span in find_ranges(data, rule)] \
            if self._ranges and self._might_hold_range(data) else []
        # Sets of one member and shorthand ones (`10.0.20.21 or .22`), and ranges declared by their
        # context (`dhcp-range=a,b`, `range a b;`, `start:`/`end:` keys): each with gates of its own.
        spans += find_sets(data, self._ranges)
        if self.addresses:  # IPv6 pairs too (t31 round 24, finding 23)
            present = {m.old for m in matches if m.kind == "address"}
            spans += find_declared(data, self._ranges, present) if present else []
        if self.hosts:  # `range: [web01, web05]`: a pair of host names under a range word
            named = {m.old for m in matches if m.kind == "host"}
            spans += find_declared_hosts(data, self._ranges, named) if named else []
        spans.sort(key=lambda pair: pair[0])
        if spans:
            matches = with_ranges(matches, spans)
        matches = _paired(data, matches)
        matches = host_sets.with_sets(data, matches, self._find_exact, self._set_needles)
        if self.hosts and foreign_names.might_hold(data):  # `github.com/acme/pug`, `s3://pug/`, `tank/pug`
            matches = _foreign(data, matches)
        if self._short_olds:  # `postgres://`, `traefik.enable=true`, `apt: {name: nginx}`, `@grafana/ui`
            matches = _software(data, matches, self._short_olds)
        if self._short_olds and b"." in data:  # `debian.pool.ntp.org`, `https://grafana.com/grafana/`
            matches = _public_domains(data, matches, self._short_olds, self._own_domains)
        if self.hosts and not self.rewrite_accounts:
            hosts = [m.start for m in matches if m.kind == "host" and m.refused is None]
            starts = account_starts(data, hosts)
            for m in matches if starts or b"@" in data else ():  # a dense file has neither: no loop
                if m.kind == "host" and m.refused is None and m.kept is None \
                        and is_account(data, m.start, m.end, starts):
                    m.kept = "account"
        if self.hosts and any(m.kind == "host" and m.refused is None and m.kept is None for m in matches):
            matches = _images(data, matches)
        decided = self._address_patterns(data)
        if decided:
            matches = _with_address_patterns(matches, decided)
        if self._pattern_starts:
            found = self._patterns(data)
            if found:
                matches = with_patterns(matches, found, self._pattern_kinds)
        matches = quantified(data, matches)
        if self._short_olds and possessives.might_hold(data):  # `hermes'` -> `apollo's` (outside round 25)
            matches = possessives.rewritten(data, matches)
        return matches

    def _might_hold_range(self, data: bytes) -> bool:
        """Can `data` hold a range? find_ranges looks at each stem in turn, which is cheap for a
        few stems; a file dense with them is first searched for RANGE_HINT (a digit before a
        separator, or a brace set), which every range holds but which costs a whole-file regex."""
        # The sum over the rules, as find_ranges pays it (50 addresses of one /24: 50 rules of one
        # stem, each looked at), with each distinct stem counted once and no more counting past
        # FEW: a count per rule was 3 s of the many-renames benchmark.
        stems = 0
        for stem, rules in self._stem_rules:
            stems += data.count(stem) * rules
            if stems > FEW:
                return RANGE_HINT.search(data) is not None
        return stems > 0

    def _resolve(self, data: bytes, start: int, end: int) -> Match | None:
        text = data[start:end]
        form = self.forms.get(text)
        if form is not None:
            derived = form.kind == "host" and _continues_name(data, end)
            return Match(start, end, form.old_text, form.new_text, form.kind, derived)
        if b":" in text and self._v6_rejects(text):
            return None
        if self._v6_addresses and b":" in text:
            spelled = self._v6_spelling(text.decode("ascii"))
            if spelled is not None:
                return Match(start, end, text.decode("ascii"), spelled, "address")
        if b":" in text and (self._v4_pairs or self.networks):
            found = self._mapped_match(data, text.decode("ascii"), start, end)
            if found is not None or self._mapped(text.decode("ascii")) is not None:
                return found
        if b"." not in text and b":" not in text:
            return None  # no address and no reverse name: `10` of `10:` (_resolve_generic's trim)
        written = text.decode("ascii")
        new = self._map_network(written)
        if new is None:
            return None
        if b":" in text and not written.endswith(".arpa"):  # an IPv6 address keeps the file's dress
            new = spelling.v6_like(written, ipaddress.IPv6Address(new))
        return self._lengthed(data, Match(start, end, written, new, "network"))

    def _v6_rejects(self, text: bytes) -> bool:
        """Is `text` nothing the rules below map: text with fewer than two colons (no IPv6 address
        nor reverse name), or an IPv6 address that is neither an old address, nor in an old
        network, nor IPv4-mapped? Asked first: inet_pton parses in C, where ipaddress takes
        ~40 µs a candidate, and an IPv6-heavy file has thousands. Both parsers are exact, so where
        both read an address they read the same one; where inet_pton cannot, ipaddress decides."""
        if text.count(b":") < 2:
            return True  # ipaddress reads no address, nor a reverse name, in `10:` or `:443`
        try:
            value = int.from_bytes(socket.inet_pton(socket.AF_INET6, text.decode("ascii")), "big")
        except (OSError, UnicodeDecodeError, ValueError):
            return False
        if value in self._v6_values or any(low <= value <= high for low, high in self._v6_ranges):
            return False
        # ::ffff:a.b.c.d (IPv4-mapped), 64:ff9b::a.b.c.d (NAT64): an IPv4 address in hex
        return not ((self._v4_pairs or self.networks) and value >> 32 in (0xFFFF, spelling.NAT64 >> 32))

    def _v6_spelling(self, text: str) -> str | None:
        """The new address, spelled as `text` spells the old one (expanded or not, case)."""
        try:
            address = ipaddress.IPv6Address(text)
        except ValueError:
            return None
        new = self._v6_addresses.get(address)
        if not isinstance(new, ipaddress.IPv6Address):
            return None
        return spelling.v6_like(text, new)

    def _resolve_generic(self, data: bytes, start: int, end: int) -> list[Match]:
        """A candidate of the generic patterns: an exact form, an address in a renamed network,
        another spelling of an old IPv6 address, or none of them. An IPv6-shaped run that is
        none of them may still end in an IPv4 address (::ffff:10.250.50.54) or in punctuation
        (an address ending a sentence): those parts are tried on their own."""
        found = self._resolve(data, start, end)
        if found is not None:
            return [found]
        text = data[start:end]
        if b":" not in text:
            return []
        trimmed = end
        while trimmed > start and data[trimmed - 1:trimmed] in (b".", b":"):
            trimmed -= 1
        if trimmed < end and trimmed - start > 1:
            again = self._resolve(data, start, trimmed)
            if again is not None:
                return [again]
        colon = text.rfind(b":")
        tail = start + colon + 1
        if b"." in data[tail:end] and re.fullmatch(spelling.ANY_V4, data[tail:trimmed]):
            inner = self._resolve(data, tail, trimmed)
            if inner is not None:
                return [inner]
        return []

    def _lengthed(self, data: bytes, m: Match) -> Match | None:
        """A network match as its move's length and the text around it make it (prefix_moves.py):
        `10.250.0.0/15` around a renamed 10.250.0.0/16 is a supernet, not an address in it
        (rewriting it would give an invalid network meaning something else); under a move that
        changes the length, the old length after a moved address follows (`10.0.48.3/29` ->
        `10.0.48.3/28`), the broadcast address follows where its line says `broadcast` and is
        refused elsewhere, an address a shrink leaves outside the new network is refused, and an
        address that stays where it is (a resize in place) is no match at all."""
        if m.old.lower().endswith(".arpa"):
            if m.old.lower() != m.old:  # a reverse name in upper case: decided as in lower case
                decided = self._lengthed(data, replace(m, old=m.old.lower(), new=m.new.lower()))
                if decided is None or (decided.start, decided.end) != (m.start, m.end):
                    return decided  # no match, or a classless name (its own span and words)
                return replace(decided, old=m.old, new=m.new if decided.new == m.new.lower() else m.old)
            label = prefix_moves.classless_before(data, m.start) if m.old.endswith(".in-addr.arpa") else None
            if label is not None:  # `0/26.40.168.192.in-addr.arpa`: reported, never rewritten
                name = data[label:m.end].decode("ascii", "replace")
                return Match(label, m.end, name, name, m.kind, refused=prefix_moves.ZONE,
                             note=prefix_moves.classless_note(name))
            why = self._zone_problem(m.old) if self._resized else None
            if why is not None:
                return replace(m, new=m.old, refused=prefix_moves.ZONE, note=why)
            named = spelling.from_reverse(m.old)  # None for a zone (fewer labels)
            move = next((mv for mv in self._moves if named is not None and mv.offset_of(named) is not None),
                        None)
            if move is not None and named is not None and move.resized and not move.fits(named):
                return replace(m, refused=prefix_moves.OUTSIDE, note=move.why_not(named))
            if move is not None and named is not None and \
                    prefix_spellings.host_becomes_network(move.old, move.new, named):  # a PTR names a host
                return replace(m, refused=prefix_moves.OUTSIDE,
                               note=prefix_spellings.role_note(str(named), move.old, move.new))
            return None if m.new == m.old else m
        address = ipaddress.ip_address(m.old)
        move = next((mv for mv in self._moves if mv.offset_of(address) is not None), None)
        if move is None:
            return m
        # `/29`, and (t26-33, findings 07, 12, 18) ` /29`, `%eth0/48`, `::ffff:10.0.48.0/120`
        prefix = prefix_spellings.length_after(data, m.end, v6=move.old.version == 6,
                                               bracketed=_bracketed(data, m.start))
        if prefix is None and move.old.version == 6:  # OpenBSD's `inet6 A 64` (t29-33, finding 08)
            prefix = prefix_spellings.bare_length(data, m.start, m.end)
        if prefix is not None and move.resized and not prefix_moves.is_length(data, m.start, prefix.end):
            prefix = None  # a URL's path (`http://10.0.48.3/29`), a word (`/24hours`): no length
        if prefix is None and move.resized:  # `\\/24`, `%2F24`, `/cidr/A/24/`, `lab-A-24` (t29-33, 03, 15)
            prefix = prefix_dress.dressed_length(data, m.start, m.end, address)
        shift = prefix_spellings.mapped_shift(data, m.start) if move.old.version == 4 else 0
        length = prefix.value - shift if prefix is not None else None
        if length is not None and length <= 0:  # `::ffff:10.0.48.0/64`: no length of the IPv4 network
            assert prefix is not None
            return Match(m.start, prefix.end, m.old + prefix.text, m.old + prefix.text, m.kind,
                         refused=prefix_moves.MASK,
                         note=f"/{prefix.value} after an IPv4-mapped or NAT64 address is shorter than its "
                              f"/{shift} head: no length of {move.old}")
        if length is not None and length < move.old.prefixlen:
            if length == move.new.prefixlen and move.mapped(address) == address:
                return None  # `10.0.48.0/28` of a resize in place to /28: the new network already
            if _still_covers(address, length, move):
                return None
            return replace(m, refused="supernet")
        masked = prefix_moves.masked_length(data, m.end) if move.old.version == 4 \
            else prefix_spellings.v6_masked_length(data, m.end)  # `A/ffff:ffff::` (t26-33, finding 02)
        if masked is None and prefix is None:  # `network: A` + `prefix: 16` (`address6:` + `prefix6: 32`)
            masked = prefix_moves.stanza_length(data, m.start, move.old.version)
        if masked is not None and masked < move.old.prefixlen:  # `10.9.0.0 255.255.0.0`: break-it 20p, #7
            if masked == move.new.prefixlen and move.mapped(address) == address:
                return None  # a resize in place, its new length written already
            if _still_covers(address, masked, move):
                return None
            return replace(m, refused="supernet",
                           note=f"{m.old} with a mask, wildcard or length key of /{masked}, wider than "
                                f"{move.old}")
        if not move.resized:
            return m
        if move.is_broadcast(address) and not move.new_has_broadcast:  # break-it 20p, finding 3
            return replace(m, new=m.old, refused=prefix_moves.BROADCAST,
                           note=f"the broadcast address of {move.old}, which becomes {move.new}, a network "
                                "with no broadcast address")
        if move.is_broadcast(address):
            if prefix_moves.says_broadcast(data, m.start):
                sub = broadcast_lengths.subnet_length(data, m.start, address, move.old.prefixlen)
                if sub is not None:  # the broadcast of a longer subnet that ends where the network does
                    return _subnet_broadcast(m, move, address, sub)
                return replace(m, new=str(move.new.broadcast_address),
                               note=f"the broadcast address of {move.old} (its line says so) becomes "
                                    f"{move.new}'s")
            return replace(m, new=str(move.new.broadcast_address), refused=prefix_moves.BROADCAST,
                           note=f"{m.old} is the broadcast address of {move.old}, which becomes {move.new}, "
                                "and its line does not say `broadcast`")
        if (move.new_has_broadcast and address == move.new.broadcast_address
                and prefix_moves.says_broadcast(data, m.start)):
            return None  # the new broadcast address already (a shrink in place, written or swept)
        if not move.fits(address):
            return replace(m, refused=prefix_moves.OUTSIDE,
                           note=move.why_not(address))
        if prefix_spellings.host_becomes_network(move.old, move.new, address) and not \
                prefix_spellings.written_as_network(data, m.start, length, move.old.prefixlen):
            return replace(m, refused=prefix_moves.OUTSIDE,  # t26-33, finding 23: a host made the network
                           note=prefix_spellings.role_note(m.old, move.old, move.new))
        slaac = (slaac_uses.slaac_use(data, m.start) if move.old.version == 6 and move.old.prefixlen == 64
                 and move.new.prefixlen != 64 and length in (None, 64) else None)
        if slaac is not None:  # f25 breaker 3; t29-33, findings 09 and 11
            end, old = (prefix.end, m.old + prefix.text) if prefix is not None else (m.end, m.old)
            return Match(m.start, end, old, f"{m.new}/{move.new.prefixlen}" if prefix is not None else m.new,
                         m.kind, refused=prefix_moves.MASK,
                         note=f"{slaac}: SLAAC takes only a /64, so the move of {move.old} to {move.new} "
                              "cannot set it; give it a /64 of the new network by hand")
        if prefix is not None and length == move.old.prefixlen:
            return Match(m.start, prefix.end, m.old + prefix.text,
                         f"{m.new}{prefix.between}{move.new.prefixlen + shift}", m.kind,
                         note=f"an address of {move.old} with its length: the move to {move.new} sets both")
        if length is not None and length < move.new.prefixlen:  # a subnet wider than the new network
            return replace(m, refused=prefix_moves.OUTSIDE,
                           note=f"{m.old}/{length} is a subnet of {move.old} wider than {move.new}")
        return None if m.new == m.old else m

    def _map_network(self, text: str) -> str | None:
        lowered = text.lower()
        suffix = next((s for s in (".in-addr.arpa", ".ip6.arpa") if lowered.endswith(s)), None)
        if suffix is not None and lowered != text:  # a reverse name in upper case: its labels and
            moved = self._map_network(lowered)      # its suffix each keep their case
            if moved is None:
                return None
            head, written = moved[: -len(suffix)], text[-len(suffix):]
            return (head.upper() if any(c.isupper() for c in text[: -len(suffix)]) else head) + written
        if text.endswith(".in-addr.arpa") and text.count(".") < 5:  # a zone: 50.250.10.in-addr.arpa
            return self._map_zone(text)
        if text.endswith(".ip6.arpa") and text.count(".") < 33:  # a nibble zone: 8.0.0.0.8.b.d...
            return self._map_v6_zone(text)
        if suffix is not None:
            address = spelling.from_reverse(text)
            mapped = self._map_address(address) if address else None
            return reverse_name(mapped) if mapped else None
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            return None
        mapped = self._map_address(address)
        return str(mapped) if mapped else None

    def _map_zone(self, text: str) -> str | None:
        """A /8-/24 reverse zone inside a renamed IPv4 network follows it."""
        octets = text[: -len(".in-addr.arpa")].split(".")
        if not all(o.isdigit() and int(o) < 256 for o in octets):
            return None
        zone = ipaddress.IPv4Network(".".join([*reversed(octets), *["0"] * (4 - len(octets))])
                                     + f"/{8 * len(octets)}")
        for old_net, _ in self.networks:
            if isinstance(old_net, ipaddress.IPv4Network) and zone.subnet_of(old_net):
                mapped = self._map_address(zone.network_address)
                if mapped is None:
                    return None
                try:
                    return reverse_zone(ipaddress.ip_network(f"{mapped}/{zone.prefixlen}"))
                except ValueError:  # a resized move that cannot carry it: refused by _lengthed
                    return text
        return None

    def _map_v6_zone(self, text: str) -> str | None:
        """A nibble zone inside a renamed IPv6 network keeps its offset and its length
        (`1.8.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa`, a /52 of 2001:db8:8::/48 moved to 2001:db8:c::/48:
        `1.c.0.0...`); one a resize cannot carry is itself (refused by _lengthed: _zone_problem)."""
        zone = _zone_network(text)
        if not isinstance(zone, ipaddress.IPv6Network):
            return None
        for old_net, new_net in self.networks:
            if isinstance(old_net, ipaddress.IPv6Network) and zone.subnet_of(old_net):
                moved = _moved_zone(zone, old_net, new_net)
                return text if moved is None else prefix_moves.zone_name(moved)
        return None

    def _zone_problem(self, text: str) -> str | None:
        """Why a reverse zone inside a network whose move changes its length cannot follow it:
        the moved zone would not lie inside the new network (a shrink to a length no octet
        boundary holds: `0.1.10.in-addr.arpa` of 10.1.0.0/24 moved to 10.2.0.0/25 would answer for
        10.2.0.128/25 too), or would not start on its own boundary. IPv4 and IPv6 alike
        (`9.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa` of 2001:db8:8::/46 moved to 2001:db8:c::/48)."""
        zone = _zone_network(text)
        move = next((mv for mv in self._moves if zone is not None and mv.old.version == zone.version
                     and zone.subnet_of(mv.old)), None)  # type: ignore[arg-type]
        if zone is None or move is None or not move.resized:
            return None
        if _moved_zone(zone, move.old, move.new) is not None:
            return None
        bits = zone.max_prefixlen - zone.prefixlen
        at = int(move.new.network_address) + int(zone.network_address) - int(move.old.network_address)
        try:
            moved = ipaddress.ip_network((at >> bits << bits, zone.prefixlen))
        except ValueError:  # past the end of the address space: no zone at all
            return (f"the reverse zone of {zone}, inside {move.old}, cannot follow its move to {move.new}: "
                    "no zone of its length holds its addresses there")
        return (f"the reverse zone of {zone}, inside {move.old}, cannot follow its move to {move.new}: "
                f"a zone for {moved} would answer for addresses outside the new network")

    def _map_address(self, address: IPAddress) -> IPAddress | None:
        for old_net, new_net in self.networks:
            if address.version == old_net.version and address in old_net:
                offset = int(address) - int(old_net.network_address)
                if offset >= new_net.num_addresses:  # a shrink: refused by _lengthed, never written
                    return address
                return new_net.network_address + offset  # its own family, even near ::
        return None

    def _derived_pattern(self, *, lower: bool = False) -> re.Pattern[bytes] | None:
        if not self.hosts:
            return None
        olds = {(old.lower() if lower else old) for old, _ in self.hosts}
        stems = sorted((s.encode() for s in olds), key=len, reverse=True)
        alternatives = b"|".join(re.escape(s) for s in stems)
        # An FQDN renamed alone (`pug.ana.lan`, no `pug`): its derived names keep its domain,
        # `pug-ipmi.ana.lan` (break-it round 17, #20), asked first.
        split = (old.partition(".") for old in olds)
        qualified = sorted({(label.encode(), rest.encode()) for label, _, rest in split
                            if rest and label and label not in olds}, key=lambda p: (-len(p[0]), p))
        fqdn = b"".join(re.escape(label) + rb"-[A-Za-z0-9][A-Za-z0-9-]*\." + re.escape(rest)
                        + rb"(?![A-Za-z0-9-]|\.[A-Za-z0-9])|" for label, rest in qualified)
        if self.derived_names:  # a short name's derived names are renamed; an FQDN's are not (no
            # one new name is certain for `pug-ipmi.ana.lan`): still candidates
            return re.compile(spelling.HOST_LEFT + b"(?:" + fqdn[:-1] + b")") if fqdn else None
        return re.compile(spelling.HOST_LEFT + b"(?:" + fqdn + b"(?:" + alternatives
                          + rb")-[A-Za-z0-9][A-Za-z0-9-]*)")

    def derived_candidates(self, data: bytes, *, any_case: bool = False) -> list[tuple[int, int, str]]:
        """Names like ana-ml2-ipmi that only `derived_names: true` (or their own key) would rename.
        `any_case`: host names are DNS names here (a zone, a hosts file), so `ANA-ML2-IPMI` is one
        too, as `find_any_case` would rename it; the name is given as the file spells it."""
        if self._derived is None:
            return []
        pattern, text = self._derived, data
        known: Collection[bytes] = self.forms.keys()
        if any_case:  # ASCII lower-casing keeps every offset
            if self._derived_lower is None:
                self._derived_lower = (self._derived_pattern(lower=True),
                                       frozenset(k.lower() for k in self.forms))
            lowered, known = self._derived_lower
            pattern, text = lowered or pattern, data.lower()
        found = []
        end = -1
        # Anchored only where a stem occurs, like `find`: no regex walk over the whole file.
        stems = {(stem.lower() if any_case else stem).encode() + b"-" for stem, _ in self.hosts}
        stems |= {s.split(b".", 1)[0] + b"-" for s in stems if b"." in s}  # `pug-x.ana.lan`: `pug.ana.lan`
        for pos in sorted({p for stem in stems for p in positions(text, stem)}):
            hit = pattern.match(text, pos) if pos >= end else None
            if hit is None:
                continue
            name = hit.group().decode("ascii").rstrip("-")
            end = hit.end()
            if name.encode() not in known:
                found.append((hit.start(), hit.start() + len(name),
                              data[hit.start():hit.start() + len(name)].decode("ascii")))
        return found

    def replace(self, data: bytes) -> bytes:
        """`data` with every match replaced (used for paths and short values)."""
        out, last = [], 0
        for m in self.find(data):
            if m.refused is not None or m.kept is not None:
                continue
            out += [data[last:m.start], m.new.encode("ascii")]
            last = m.end
        out.append(data[last:])
        return b"".join(out)


# A drive or UNC path running up to a backslash, then one letter: `C:\new\t` + `ana-ml2`.
_WINDOWS_PATH = lazy_re.compile(rb"(?:(?<![A-Za-z0-9])[A-Za-z]:\\|\\\\[A-Za-z0-9])[^\s\"'<>|*?]*\\[A-Za-z]\Z")


# A directive whose value is a file path, in a DNS or DHCP server's configuration: ISC dhcpd's
# `filename`, `root-path`, BIND's and CoreDNS's `file`, `include`/`$INCLUDE`, dnsmasq's `dhcp-boot`...
_PATH_DIRECTIVE = lazy_re.compile(
    rb"[ \t]*(?:option[ \t]+)?(?:(?:filename|root-path|\$INCLUDE|pid-file|key-file|zonefile"
    rb"|dhcp-boot|tftp-root|addn-hosts|conf-file|conf-dir|hostsfile|dhcp-hostsfile|dhcp-optsfile|auto-trust-anchor-file|root-hints)"
    rb"(?=[ \t=:\"'])"
    # `file` and `include` are owner names a zone may hold too: a path only when quoted or with a
    # zone file's extension after them (BIND `file "db.pug";`, CoreDNS `file PUG.db`)
    rb"|(?:file|include)[ \t]+(?:[\"']|\S*\.(?:db|zone|signed|hosts|conf)\b))", re.IGNORECASE)


# dnsmasq's domain lists between slashes: `address=/PUG.lan/10.0.0.1`, `server=/lan/...`, `local=/lan/`.
_SLASHED_DOMAINS = lazy_re.compile(rb"[ \t]*[A-Za-z-]+[ \t]*=[ \t]*/")


def _masks_of_held_ranges(data: bytes, found: list[Match]) -> list[Match]:
    """A mask on the line of a range held back (a `range` residual: `dhcp-range=A,B,M,12h`,
    `ip local pool P A B mask M`, `ifconfig-pool A B M`) is held with it: the old range under the
    new mask would be half-moved (t36-33 finding 07). A `mask` residual, never rewritten."""
    held = {data.rfind(b"\n", 0, m.start) + 1 for m in found if m.refused == "range"}
    return [replace(m, new=m.old, refused=prefix_moves.MASK,
                    note=f"{m.old} is the mask of a range held back on its line (its `range` residual): "
                         f"it moves with the range, by hand ({m.new} where the range becomes the new "
                         "network's)")
            if m.refused is None and m.new != m.old and prefix_moves.is_mask(m.old)
            and data.rfind(b"\n", 0, m.start) + 1 in held else m
            for m in found]


def _subnet_broadcast(m: Match, move: prefix_moves.PrefixMove, address: IPAddress,
                      length: int) -> Match | None:
    """The old network's broadcast address named as a longer subnet's (`brd` beside a /25, t36-33
    finding 02): the subnet keeps its length and offset, so its broadcast address keeps its offset;
    refused where the new network has no place for the subnet, or the lengths beside it disagree."""
    if length == 0:
        return replace(m, new=m.old, refused=prefix_moves.BROADCAST,
                       note=f"{m.old} is a broadcast address of {move.old}, and its line or stanza gives "
                            "more than one length: whose broadcast address it is is not certain")
    offset = move.offset_of(address)
    subnet = ipaddress.ip_network(f"{address}/{length}", strict=False)
    if offset is None or offset >= move.new.num_addresses or length < move.new.prefixlen:
        return replace(m, new=m.old, refused=prefix_moves.OUTSIDE,
                       note=f"{m.old} is the broadcast address of {subnet}, which {move.new} has no "
                            "place for")
    new = move.new.network_address + offset
    if new == address:
        return None  # a grow in place: the subnet and its broadcast address stay
    return replace(m, new=str(new),
                   note=f"the broadcast address of {subnet} (its /{length} written beside it), which keeps "
                        f"its length: {new}, not {move.new}'s")


def _still_covers(address: IPAddress, length: int, move: prefix_moves.PrefixMove) -> bool:
    """`10.80.0.0/16` under `10.80.0.0/24: 10.80.0.0/23` (or `: 10.80.4.0/24`): a wider network,
    written as a network (the old network's address is its own), that holds the move's new network
    as it held the old one. Nothing of it changes, so it is neither rewritten nor a `supernet`
    residual (a Salt pillar's `10.80.0.0/16` firewall lists were three residuals with nothing to
    decide); a network the move leaves (`: 10.90.0.0/24`) or a host written with a wide length
    (`10.80.0.5/16`) stays a residual."""
    wide = ipaddress.ip_network(f"{address}/{length}", strict=False)
    if wide.network_address != address:
        return False
    first, last = int(wide.network_address), int(wide.broadcast_address)
    return all(first <= int(net.network_address) and int(net.broadcast_address) <= last
               for net in (move.old, move.new))


def _bracketed(data: bytes, start: int) -> bool:
    """Is the address at `start` in brackets of a list (`[2001:db8:a:10::]/64`), not a URL's host
    (`http://[2001:db8::1]/64`, whose `/64` is a path)?"""
    return data[start - 1:start] == b"[" and data[max(0, start - 3):start - 1] != b"//"


def _in_path(data: bytes, start: int, end: int) -> bool:
    """Is start:end part of a file path: beside a `/`, or in the value of a directive that names a
    file (`filename "PUG.0";`)? File names are case-sensitive, unlike DNS names."""
    line = data.rfind(b"\n", 0, start) + 1
    if _PATH_DIRECTIVE.match(data, line) is not None:
        return True
    if data[start - 1:start] != b"/" and data[end:end + 1] != b"/":
        return False
    return _SLASHED_DOMAINS.match(data, line) is None  # dnsmasq `address=/PUG.lan/...`: a DNS name


def _paired(data: bytes, matches: list[Match]) -> list[Match]:
    """Old values that are one end of a range whatever the other end spells: two IPv4 addresses
    joined as a range (`10.0.39.200 - 10.0.40.11`, `between A and B`, `A up to B`), a value in
    a table's start or end column (`name,start,end`, `| pool | first | last |`), and a value under
    a start or end key beside the other end's (`{min: web01, max: web05}`, `lo:`/`hi:`): refused
    `range`, a key pair's with a note naming both keys and ends (also where the declared ranges
    refused it already)."""
    hosts = ("host", "address")
    open_ = [m for m in matches if m.refused is None and m.kind in hosts]
    ranged = [m for m in matches if m.refused == "range" and m.note is None and m.kind in hosts]
    if not open_ and not ranged:
        return matches
    v4 = [(m.start, m.end) for m in open_ if m.kind == "address" and ":" not in m.old]
    ends = joined_ends(data, v4) if v4 else set()
    ends |= table_ends(data, lambda: [(m.start, m.end) for m in open_]) if open_ else set()
    keyed = keyed_ends(data, [(m.start, m.end) for m in (*open_, *ranged) if m.start not in ends])
    if not ends and not keyed:
        return matches
    return [replace(m, refused="range", note=keyed.get(m.start, m.note))
            if m.kind in hosts and ((m.refused is None and (m.start in ends or m.start in keyed))
                                    or (m.refused == "range" and m.note is None and m.start in keyed))
            else m for m in matches]


def _with_address_patterns(matches: list[Match], decided: list[address_patterns.Decision]) -> list[Match]:
    """Address patterns (address_patterns.py) in place of what the exact rules read inside them
    (`10.0.40.1` of `10.0.40.1[0-5]`): a rewrite, or a refused `pattern`. One overlapping a match
    already refused or kept (a range, an account) gives way to it."""
    out = list(matches)
    for d in decided:
        if d.reason != "pattern":
            continue  # a template's word: the scan's, after the compositions it evaluates (templated_heads)
        inside = [m for m in out if m.start < d.end and d.start < m.end]
        if any(m.refused is not None or m.kept is not None for m in inside):
            continue
        out = [m for m in out if not (m.start < d.end and d.start < m.end)]
        out.append(Match(d.start, d.end, d.old, d.new, d.kind, refused=None if d.rewrite else "pattern",
                         note=d.note))
    return sorted(out, key=lambda m: m.start)


def _dotted_v4(text: str) -> bool:
    try:
        return ipaddress.ip_address(text).version == 4
    except ValueError:
        return False


def _images(data: bytes, matches: list[Match]) -> list[Match]:
    """An image reference's repository path is no host (`image: pihole/pihole`): kept `image`; the
    name as a component of an absolute path, where the file names it as software (an image) or it
    is a well-known package's, is the software's folder (`/etc/pihole/`): a residual
    `software-path` (break-it round 9, finding 10)."""
    refs = image_refs.image_refs(data)
    named = image_refs.software_names(data, refs)
    out = []
    for m in matches:
        if m.kind == "host" and m.refused is None and m.kept is None:
            if image_refs.in_repository(refs, m.start, m.end):
                m = replace(m, kept="image")
            elif ((m.old.lower() in named or m.old.lower() in image_refs.WELL_KNOWN)
                  and image_refs.in_absolute_path(data, m.start, m.end)):
                why = ("an image of this file names it as software" if m.old.lower() in named
                       else "it is a well-known package's name")
                m = replace(m, refused="software-path", note=f"`{m.old}`: {why}")
        out.append(m)
    return out


def _foreign(data: bytes, matches: list[Match]) -> list[Match]:
    """A name in another service's namespace is no host (foreign_names.py, break-it round 10,
    finding 5): a forge's repository path kept `repository`; a bucket, an object key, a backup
    repository on a storage service or a ZFS dataset kept `storage`."""
    near = [m.start for m in matches if m.kind == "host" and m.refused is None and m.kept is None]
    spans = foreign_names.foreign_spans(data, near) if near else []
    if not spans:
        return matches
    out = []
    for m in matches:
        if m.kind == "host" and m.refused is None and m.kept is None:
            reason = next((why for start, end, why in spans if start <= m.start and m.end <= end), None)
            if reason is not None:
                m = replace(m, kept=reason)
        out.append(m)
    return out


def _software(data: bytes, matches: list[Match], shorts: frozenset[str]) -> list[Match]:
    """A host named after its software followed into the software's own names (software_refs.py,
    break-it round 24, findings 04, 11, 22, 24, 25): a URL scheme, an npm scope, an API group, a
    label's key, a package, service, unit, user or command, a noun in prose: kept, never a host."""
    open_names = {m.old for m in matches if m.kind == "host" and m.refused is None and m.kept is None
                  and m.old.lower() in shorts}
    if not open_names:
        return matches
    found = software_refs.spans(data, open_names)
    if not found:
        return matches
    at = {(start, end): reason for start, end, reason, _ in found}
    return [replace(m, kept=at[(m.start, m.end)])
            if (m.start, m.end) in at and m.kind == "host" and m.refused is None and m.kept is None else m
            for m in matches]


# A file's path in a repository on a code forge (`github.com/acme/infra/blob/main/hosts/pug/..`): the
# repository's own folders, which a rename moves, not the forge's names
_FORGE_FILE = lazy_re.compile(rb"/(?:blob|tree|raw|src|-/blob|-/tree)/")


def _public_domains(data: bytes, matches: list[Match], shorts: frozenset[str],
                    own: frozenset[str]) -> list[Match]:
    """A short host name followed into a domain that is not the repo's (public_domains.py, break-it
    round 23, findings 17 and 18): another organisation's registrable name kept `public-domain`,
    the path of a URL on it too; deeper under a public domain not shown as the repo's own, a
    residual `public-domain`."""
    out: list[Match] = []
    decided: dict[tuple[int, int], str] = {}  # a URL host's span: its decision
    for m in matches:
        if m.kind == "host" and m.refused is None and m.kept is None and m.old.lower() in shorts:
            url = public_domains.url_host(data, m.start) if b"/" in data else None
            in_host = url is not None and url[0] <= m.start and m.end <= url[1]
            in_path = url is not None and url[1] <= m.start  # `/grafana.integreatly.org/`: no domain
            in_host = in_host or (url is None and public_domains.in_host_place(data, m.start, m.end))
            what = None if in_path else public_domains.decide(data, m.end, own, in_url=in_host)
            if what is not None:
                decided[url or (m.start, m.end)] = what
                m = _decided_public(m, what, data)
            elif url is not None and url[1] <= m.start:
                if url in decided:
                    m = _decided_public(m, decided[url], data, path=True)
                elif not any(c in data[url[1]:m.start] for c in (b"?", b"#", b"=")) \
                        and not _FORGE_FILE.search(data, url[1], m.start):
                    # a path on another organisation's server (round 24, finding 21); a query's
                    # value (`?target=grafana`) may be a host: it follows
                    on = public_domains.host_decision(data, url, own)
                    if on is not None:
                        m = _decided_public(m, on, data, path=True,
                                            host=data[url[0]:url[1]].decode("ascii", "replace"))
        out.append(m)
    return out


def _decided_public(m: Match, what: str, data: bytes, *, path: bool = False, host: str = "") -> Match:
    if what == "kept":
        return replace(m, kept=public_domains.KEPT)
    where = (f"a path of a URL on `{host}`, a domain the renames do not show as the repo's own" if host
             else "a path of a URL on that domain" if path
             else f"`{m.old}{public_domains.domain_after(data, m.end)}`")
    return replace(m, refused=public_domains.KEPT, note=where)


def _in_windows_path(data: bytes, start: int) -> bool:
    if start < 2 or data[start - 2:start - 1] != b"\\" or not data[start - 1:start].isalpha():
        return False
    line = data.rfind(b"\n", 0, start) + 1
    return _WINDOWS_PATH.search(data[max(line, start - 256):start]) is not None


_CLASS_IN = lazy_re.compile(rb"[ \t]in[ \t]")
# Literal octets a brace set or an Ansible range completes: `10.1.0.{100..102}`, `10.1.0.{5,6}`,
# `10.1.0.[5:6]`.
_HEAD_SET = lazy_re.compile(rb"(?<![0-9A-Za-z.])((?:[0-9]{1,3}\.){1,3})"
                       rb"(\{[0-9]{1,3}(?:\.\.[0-9]{1,3}|(?:,[0-9]{1,3})+)\}|\[[0-9]{1,3}:[0-9]{1,3}\])")
# A range's second end written as the first's last octet: `-200`, ` - .200` (not `-200.1`, a word).
_SHORT_TAIL = lazy_re.compile(
    rb"[ \t]*" + octet_ranges.DASH + rb"[ \t]*\.?([0-9]{1,3})(?![0-9A-Za-z_]|\.[0-9])")
# A word a declared range stands after (context.py's range and start words, in any case): the
# network moves' range rule runs only in a file holding one.
# Two whole addresses of one family joined by a dash and nothing else: a range in any file
# (`10.1.0.10-10.1.0.20`, `2001:db8:a::10-2001:db8:a::20`).
_V4_WHOLE = rb"[0-9]{1,3}(?:\.[0-9]{1,3}){3}"
_V6_WHOLE = rb"(?=[0-9A-Fa-f:]*:[0-9A-Fa-f]*:)[0-9A-Fa-f:]+"
_DASHED = lazy_re.compile(
    rb"(?<![0-9A-Za-z.:-])(?:(" + _V4_WHOLE + rb")" + octet_ranges.DASH + rb"(" + _V4_WHOLE
                     + rb")|(" + _V6_WHOLE + rb")" + octet_ranges.DASH + rb"(" + _V6_WHOLE + rb"))"
                     rb"(?![0-9A-Za-z.:-])")


def _dashed_ends(data: bytes) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The spans of the two ends of each range two whole addresses joined by a dash spell."""
    out = []
    for x in _DASHED.finditer(data):
        first, second = (1, 2) if x.group(1) is not None else (3, 4)
        try:
            ipaddress.ip_address(x.group(first).decode("ascii"))
            ipaddress.ip_address(x.group(second).decode("ascii"))
        except ValueError:
            continue
        out.append(((x.start(first), x.end(first)), (x.start(second), x.end(second))))
    return out


_RANGE_WORDS = lazy_re.compile(
    rb"(?i)range|pool|start|begin|first|from|low|min|excluded|forbidden|server-bridge")
# A PTR record with its class, at a line start, in upper case: a reverse zone's fragment.
_PTR_RECORD = lazy_re.compile(rb"(?m)^\S+[ \t]+(?:[0-9]+[ \t]+)?IN[ \t]+(?:[0-9]+[ \t]+)?PTR[ \t]")
# A PTR record held as data (`type: PTR` in a role's zone list, an octoDNS file, an nsupdate task;
# upper-cased): its owner may be an old address's reverse name relative to a zone (sweep/data_records.py).
_PTR_DATA = lazy_re.compile(rb"TYPE[\"']?[ \t]*[:=][ \t]*[\"']?PTR\b")


# An IPv6 candidate after a tag (`ip6:`, `2:`), where forms.V6_LEFT would not let it start.
_BARE_V6 = lazy_re.compile(spelling.ANY_V6 + spelling.V6_RIGHT)


# Where an IPv6 candidate (forms.V6_LEFT + forms.ANY_V6) can start: at the first byte of a run of
# hex digits and colons holding a colon, after no letter, digit, dot or colon.
_COLON_RUN = lazy_re.compile(rb":[0-9A-Fa-f:]*")
_HEX_RUNS = bytes(ord("h") if chr(i) in "0123456789ABCDEFabcdef" else ord(" ") for i in range(256))
_NOT_BEFORE_V6 = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.:")


def _v6_starts(data: bytes) -> list[int]:
    """Every offset where the IPv6 branch of the matcher's pattern can match: each finditer
    match below is a run's first colon (the one before took the run's colons), and the run
    starts after the hex digits before it."""
    if b":" not in data:
        return []
    hexes = data.translate(_HEX_RUNS)
    out = []
    for x in _COLON_RUN.finditer(data):
        start = hexes.rfind(b" ", 0, x.start()) + 1
        if start == 0 or data[start - 1] not in _NOT_BEFORE_V6:
            out.append(start)
    return out


def _holds_zone_label(data: bytes, labels: tuple[bytes, ...]) -> bool:
    """Zone-like data (`$ORIGIN` or `SOA` in any case, or a record's class `IN` between blanks: a
    fragment with no SOA) holding an old FQDN's first label."""
    lowered = data.lower()
    return any(label in lowered for label in labels) and (
        b"$origin" in lowered or b"soa" in lowered or _CLASS_IN.search(lowered) is not None)


_NIBBLES = frozenset(bytes([c]) for c in b"0123456789abcdefABCDEF")


def _zone_network(text: str) -> IPNetwork | None:
    """The network a reverse zone's name stands for (`0.1.10.in-addr.arpa`: 10.1.0.0/24;
    `9.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa`: 2001:db8:9::/48), or None (an address's reverse name,
    anything else)."""
    if text.endswith(".ip6.arpa"):
        nibbles = text[: -len(".ip6.arpa")].split(".")
        if not 1 <= len(nibbles) <= 31 or not all(len(n) == 1 and n in "0123456789abcdef" for n in nibbles):
            return None
        value = int("".join(reversed(nibbles)).ljust(32, "0"), 16)
        return ipaddress.IPv6Network((value, 4 * len(nibbles)))
    if not text.endswith(".in-addr.arpa"):
        return None
    octets = text[: -len(".in-addr.arpa")].split(".")
    if not 1 <= len(octets) <= 3 or not all(o.isdigit() and int(o) < 256 for o in octets):
        return None
    network = ".".join([*reversed(octets), *["0"] * (4 - len(octets))])
    return ipaddress.IPv4Network(f"{network}/{8 * len(octets)}")


def _moved_zone(zone: IPNetwork, old: IPNetwork, new: IPNetwork) -> IPNetwork | None:
    """Where the reverse zone `zone` (inside `old`) lands when `old` moves to `new`, keeping its
    offset and its length, or None where it cannot: it would not start on its own boundary, or
    would answer for addresses outside `new` (a resize)."""
    bits = zone.max_prefixlen - zone.prefixlen
    at = int(new.network_address) + int(zone.network_address) - int(old.network_address)
    if at >> bits << bits != at:
        return None
    try:
        moved = ipaddress.ip_network((at, zone.prefixlen))
    except ValueError:
        return None
    return moved if moved.subnet_of(new) else None  # type: ignore[arg-type]


def _zone_cases(old: str, new: str, version: int) -> list[tuple[str, str]]:
    """A reverse zone's spellings (old, new): as written; for ip6.arpa also its nibbles and its
    suffix each upper-cased (IPv4 zones in any case are the generic reverse pattern's)."""
    out = [(old, new)]
    if version != 6:
        return out
    suffix = ".ip6.arpa"
    heads = [(old[: -len(suffix)], new[: -len(suffix)])]
    heads.append((heads[0][0].upper(), heads[0][1].upper()))
    for head, new_head in heads:
        for tail in (suffix, suffix.upper()):
            out.append((head + tail, new_head + tail))
    return list(dict.fromkeys(out))


def _overlaps(matches: list[Match], starts: list[int], start: int, end: int) -> bool:
    """Does a match of `matches` (in order, `starts` theirs) overlap [start, end)?"""
    i = bisect.bisect_left(starts, end)
    return i > 0 and matches[i - 1].end > start


def _holds_mapped(data: bytes) -> bool:
    """IPv4-mapped (`ffff:`) or NAT64 (`64:ff9b:`, any case: forms.MAPPED reads any) IPv6."""
    if b"ffff:" in data or b"FFFF:" in data:
        return True
    return b"64:" in data and b"64:ff9b:" in data.lower()


# What every spelling forms.MAPPED matches holds, caseless (the native gate's context literals are).
MAPPED_LITERALS = (b"ffff:", b"64:ff9b:")


def positions(data: bytes, needle: bytes) -> Iterator[int]:
    """Every offset of `needle` in `data`, overlapping ones included."""
    pos = data.find(needle)
    while pos != -1:
        yield pos
        pos = data.find(needle, pos + 1)


def _continues_name(data: bytes, end: int) -> bool:
    """Is the match at `end` followed by `-x`, i.e. the stem of a longer (derived) name?"""
    return data[end:end + 1] == b"-" and data[end + 1:end + 2].isalnum()


def new_values_matcher(hosts: Iterable[tuple[str, str]], addresses: Iterable[tuple[str, str]],
                       networks: Iterable[IPNetwork] = ()) -> Matcher:
    """The exact rules of the sweep, with the new values as the needles (probe, collisions); a
    new network finds every address inside it, as itself."""
    return Matcher([(new, new) for _, new in hosts], [(new, new) for _, new in addresses],
                   [(net, net) for net in networks])
