"""Scan one file: classify it, find old values, decide each reference's fate.

Pure decisions over bytes read once. The structural parsers run only on files
that hold a match, and only where they change the answer.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from renamer import (
    continuations,
    folded_lines,
    hex_names,
    host_roles,
    interface_stanzas,
    kube_identities,
    label_names,
    lazy_re,
    markup_tables,
    moved_tags,
    name_limits,
    near_miss,
    prefix_moves,
    prefix_pools,
    reverse_refs,
    sealed,
    sealed_scopes,
    state_names,
    tool_state,
    unit_names,
    vcs_listing,
    vcs_status,
    wide_access,
    work,
)
from renamer.base64_values import LITERALS as BASE64_LITERALS
from renamer.base64_values import encoded_matches
from renamer.classify import CURRENT, RECORD, UNCLASSIFIED, FileClass
from renamer.composed_tails import completed_matches
from renamer.concatenated import concatenated_matches, may_join
from renamer.decoded import (
    default_joined_matches,
    is_makefile,
    might_hold_break,
    might_join_default,
    might_join_quotes,
    might_split,
    quote_joined_matches,
    split_matches,
)
from renamer.dressed_addresses import REASON as DRESSED_ADDRESS
from renamer.dressed_addresses import dressed_matches
from renamer.escapes import escaped_matches, might_escape, might_hold_escape
from renamer.formats import Format, format_of, zone
from renamer.formats.dns_config import names_dns
from renamer.formats.server_zones import presentation_config
from renamer.hex_names import REASON as HEX_NAME
from renamer.markdown_joins import markdown_joined_matches
from renamer.number_addresses import REASON as NUMBER_ADDRESS
from renamer.number_addresses import number_matches
from renamer.occurrences import Match
from renamer.opaque import opaque
from renamer.packed_addresses import PACKED as PACKED_ADDRESS
from renamer.packed_addresses import SHORT as SHORT_ADDRESS
from renamer.packed_addresses import packed_matches
from renamer.prefix_values import prefix_matches
from renamer.project import LoadedProject
from renamer.snmp_indexes import REASON as SNMP_INDEX
from renamer.snmp_indexes import snmp_matches
from renamer.sweep import access_sets_v6 as access_v6
from renamer.sweep import (
    caseless_names,
    chart_consumers,
    chart_schema,
    compressed,
    decoded_names,
    lowered_names,
    multibyte,
    record_case,
    split_lengths,
    subdomains,
)
from renamer.sweep.access_sets import REASON as ACCESS_SET
from renamer.sweep.access_sets import access_matches
from renamer.sweep.access_sets import might_hold as might_hold_access
from renamer.sweep.binary_hits import binary_hits
from renamer.sweep.captured import REASON as CAPTURED
from renamer.sweep.case_records import case_in_records
from renamer.sweep.composed import composed_matches
from renamer.sweep.composed_addresses import composed_address_matches, computed_matches
from renamer.sweep.computed_resizes import resized_matches
from renamer.sweep.content import classify_bytes, read_content, read_scanned
from renamer.sweep.data_records import might_hold as might_hold_records
from renamer.sweep.data_records import record_owner_matches, with_serials
from renamer.sweep.file_rules import (
    measured_problem,
    submodule_paths_refused,
    with_digests,
    with_lengths,
    with_serial,
)
from renamer.sweep.formatted_names import formatted_matches
from renamer.sweep.function_calls import helm_call_matches, imported_call_matches
from renamer.sweep.helm_tails import held_lines, helm_matches
from renamer.sweep.included import IncludedBy
from renamer.sweep.joined_names import joined_matches
from renamer.sweep.key_index import KeyIndex, key_matches
from renamer.sweep.keyed import may_stand
from renamer.sweep.kube_labels import label_matches
from renamer.sweep.lines import Lines, Spans, Spot, chunks
from renamer.sweep.links import dangling
from renamer.sweep.loop_holds import LoopHolds
from renamer.sweep.machine_search import line_holder, machine_search_matches
from renamer.sweep.merges import merge_problem
from renamer.sweep.model import (
    KEPT,
    NAMED_LIKE,
    RESIDUAL,
    SKIPPED,
    Edit,
    FileResult,
    NearMiss,
    Reference,
    RefStatus,
    apply_edits,
)
from renamer.sweep.model import UNCLASSIFIED as UNCLASSIFIED_STATUS
from renamer.sweep.nix_attrs import NixIndex
from renamer.sweep.nsupdate_zones import nsupdate_matches
from renamer.sweep.own_storage import literal_storage_matches, own_storage_matches
from renamer.sweep.resolved_case import REASON as DNS_CASE
from renamer.sweep.resolved_case import fqdns as resolved_fqdns
from renamer.sweep.resolved_case import might_hold_vhost, resolved_case_matches, vhost_case_matches
from renamer.sweep.subdomains import subdomain_matches
from renamer.sweep.templated import Definitions, Fates, templated_matches
from renamer.sweep.templated import Note as TemplatedNote
from renamer.sweep.terraform_addresses import address_matches
from renamer.sweep.terraform_keys import Instance, InstanceKeys, moved_text
from renamer.sweep.terraform_labels import TerraformIndex
from renamer.sweep.terraform_matches import instance_bodies, terraform_matches
from renamer.sweep.tool_names import (
    Templates,
    env_file_matches,
    hosts_file_matches,
    instance_matches,
    instance_note,
    service_matches,
    ssh_include_matches,
    tool_name_matches,
    zone_file_matches,
)
from renamer.sweep.unit_mentions import UnitMentions
from renamer.sweep.wide import holds_wide, wide_matches, wide_needles
from renamer.sweep.zone_records import zone_record_matches
from renamer.sweep.zone_rules import derived_in_zone, with_zone_names
from renamer.terraform_state import (
    HTTP_LITERALS,
    STATE,
    STATE_HINT,
    is_hcl,
    kept_state,
    state_file_note,
    state_held,
)
from renamer.tool_names import relative_names
from renamer.unicode_names import folded_matches, might_fold
from renamer.version_numbers import REASON as VERSION
from renamer.wildcard_names import REASON as WILDCARD_DNS
from renamer.wildcard_names import wildcard_matches

# Key paths only name where a reference is; they never change a verdict or an edit. Past this
# size a YAML/JSON file's references are shown by line and column alone: parsing 20 MB of JSON
# in ruamel takes a minute.
LOCATE_LIMIT = 2 * 1024 * 1024
IDENTIFIER_HINT = ("an identifier: renamer never renames code symbols; rename it by hand "
                   "or mark the line with the inline marker")
CODE_HINT = "outside any string or comment, where a text edit could change the code; edit by hand"
# Occurrences the matcher finds but must not rewrite, by Match.refused.
REFUSED_HINTS = {
    "public-domain": ("a short host name followed by a public domain the repo does not show as its own "
                      "(`web01.mycorp.de`): it may be this host under the lab's real domain or another "
                      "organisation's name; name the FQDN in the renames "
                      "(`web01.mycorp.de: app01.mycorp.de`) "
                      "to follow it, or keep the line with the inline marker"),
    "software-path": ("an old host name that is also the software's (an image's, a well-known "
                      "package's) as a component of an absolute path (`/etc/pihole/`): most likely the "
                      "software's own folder, which keeps its name; keep it with a keep rule, or rename it "
                      "by hand if the folder is named after the machine"),
    "case-record": ("an old host name in another case (`PUG`) in the record of an old address: moved alone, "
                    "the address would pair with the old name; rename the record by hand, or keep it with a "
                    "keep rule"),
    prefix_moves.OUTSIDE: ("an address in use that a network move cannot place: a shrink leaves it outside "
                           "the new network (it keeps its offset from the network address, and the new "
                           "network is too small for it), or a grown /31 or /127 puts a host on the new "
                           "network address: the sweep is refused, nothing written; renumber it into the "
                           "new network by hand (renames.addresses), or choose another new network"),
    prefix_moves.BROADCAST: ("the old network's broadcast address, on a line that does not say `broadcast` "
                             "(nor `bcast`, `brd`): as a broadcast address it becomes the new network's, "
                             "but its offset is another address of a network of another length, so "
                             "neither reading is certain; write the new address by hand, or keep it with a "
                             "keep rule"),
    prefix_moves.ZONE: ("a reverse zone a network move cannot carry: an RFC 2317 classless name "
                        "(`0/26.40.168.192.in-addr.arpa`, never rewritten), a zone the new network cannot "
                        "hold on an octet boundary (renamed, it would answer for other machines' addresses), "
                        "or a zone the new network needs that the repo does not declare; delegate the new "
                        "network's reverse names by hand (RFC 2317 classless delegation, or a zone per /24 "
                        "it spans), or keep it with a keep rule"),
    prefix_moves.MASK: ("a netmask, wildcard or prefix length of the moved network's old length where "
                        "nothing beside it (the same line, or the stanza's address key) names an address "
                        "of the moved network: it may belong to another network; write the new one by "
                        "hand where it is the moved network's, or keep it with a keep rule"),
    prefix_pools.TOOL: ("a length, pool or set member that a resized network move would make invalid for "
                        "the tool that reads the file (a Kea pd-pool's delegated-len under its prefix-len, a "
                        "prefix-list's ge/le under the network's length, a Calico block larger than its "
                        "pool, an nftables interval set whose elements overlap): the sweep is refused, "
                        "nothing written; edit it by hand, or choose another new network"),
    name_limits.LIMIT: name_limits.HINT,
    host_roles.NO_HOST: host_roles.HINT,
    prefix_pools.TIED: ("a length tied to a resized network by a key of its own (a pd-pool's delegations, "
                        "a node CIDR mask, a prefix-list's ge/le) that the new length leaves valid but "
                        "changes the meaning of: it is left as it was (a prefix-list entry whole, a node "
                        "mask's pool with it): decide by hand, or keep it with a keep rule"),
    wide_access.REASON: wide_access.HINT,
    "supernet": ("a network wider than the renamed one: rewriting its address would give an invalid "
                 "network meaning something else; decide by hand, or keep it with a keep rule"),
    sealed.SOPS: sealed.HINTS[sealed.SOPS],
    decoded_names.CERTIFICATE: decoded_names.HINTS[decoded_names.CERTIFICATE],
    decoded_names.HASHED: decoded_names.HINTS[decoded_names.HASHED],
    decoded_names.REG_HEX: decoded_names.HINTS[decoded_names.REG_HEX],
    decoded_names.SIGNED_TOKEN: decoded_names.HINTS[decoded_names.SIGNED_TOKEN],
    STATE: STATE_HINT,
    sealed.SIGNED: sealed.HINTS[sealed.SIGNED],
    sealed.SEALED_SECRET: sealed.HINTS[sealed.SEALED_SECRET],
    "submodule": ("a submodule's path: move the submodule with `git mv OLD NEW` (which rewrites this "
                  "line too), or keep it with a keep rule"),
    "range": ("one end of a range or set of machines (web01-04, 192.0.2.10-.14, web{01..03}), or a set "
              "that expands to an old value (an Ansible range ana-ml[1:3], 10.0.0.[50:60]; a shell brace set "
              "{ana,fv}-ml2; a pdsh/Slurm hostlist web[01-05,07]): "
              "renaming one member breaks the set; edit the range by hand, or keep it with a keep "
              "rule or the inline marker"),
    "pattern": ("a regular expression or glob that matches an old value, or a placeholder over its digits "
                "(`web0X`, `web0<n>`, `10.0.0.7x`): no text substitution knows "
                "what it should become; edit it by hand, or keep it with a keep rule"),
    "gateway": ("an interface's own address renamed out of the network its stanza's gateway (`gateway`, "
                "`gateway4`, netplan `via:`) stands in: the host would get an off-link default route; move "
                "the gateway too (or rename the network under renames.networks), then rerun the sweep, or "
                "keep it with a keep rule"),
    "split": ("an old value split by a line-ending backslash (YAML, TOML, a shell continuation, a make "
              "recipe, a Java `.properties` line; PowerShell's backtick, cmd's caret, a Dockerfile's "
              "`# escape=`; quoted-printable's soft `=`), by literals a language concatenates "
              "(`\"ana-\" + \"ml2\"`, `${\"ml2\"}`, `~`) or by "
              "quotes inside one word (`ana-\"ml2\"`, `'ana-'ml2`) or by a shell default's brace "
              "(`${X:-ana}-ml2`): read joined, but no text edit knows where the break goes; rejoin it and "
              "rerun the sweep, or keep it with a keep rule"),
    "encoded": ("an old value spelled with escapes (`\\x2d`, `\\u002d`, `\\055`, `%2D`, `&#45;`, "
                "RTF's `\\'2d`, "
                "`an\\a-ml2`) where renamer cannot tell that the consumer decodes them, an escape beside "
                "it that makes another name once decoded (`ana-ml2%30`), or a Unicode name in a case "
                "renamer does not rewrite (`BÜCHER.ana.lan`), or base64 its format declares that renamer "
                "cannot re-encode with certainty (gzip, wrapped lines): write it plainly and rerun the "
                "sweep, or keep it with a keep rule"),
    "reverse-owner": ("the PTR owner of an old address whose new address lies in another reverse zone: "
                      "move the record to that zone's file by hand"),
    "dnssec-key": ("the owner of a DNSSEC key record (DNSKEY, CDNSKEY, CDS, DS) that the rename would "
                   "move: the parent's DS is a digest over the owner name, so validating resolvers would "
                   "reject the zone; rename it with a key rollover (a new DS at the parent) by hand, or keep "
                   "it with a keep rule"),
    "signed-zone": ("a DNSSEC-signed zone file (it holds RRSIG, NSEC, NSEC3 or NSEC3PARAM records, by "
                    "name or in RFC 3597's generic TYPEnn form): an edit breaks its signatures or its "
                    "denial chain and "
                    "validating resolvers refuse the name; edit the unsigned zone and sign it again "
                    "(dnssec-signzone), or keep this file with a keep rule"),
    "zonemd": ("a zone file holding a ZONEMD record (RFC 8976): its digest covers every record, so an "
               "edit makes a consumer that checks it (a secondary, a local root copy) refuse the whole zone; "
               "edit the zone and compute its ZONEMD again (dnssec-signzone -z, ldns-zone-digest), or keep "
               "this file with a keep rule"),
    ACCESS_SET: ("a network literal of an access rule (allow, deny, iptables -s, hosts allow, trusted_*) "
                 "that holds a renamed address: rewritten it moves the rule for its neighbours, left it no "
                 "longer admits the renamed host; decide the rule by hand, or keep it with a keep rule"),
    CAPTURED: ("a glob, regex or host pattern (`hosts: db*`, ssh `Host db*`, a relabel `regex:`), or an "
               "access rule's network (`-s 10.0.2.64/28 -j DROP`), that matches a new value and did not "
               "match the old one: after the rename the machine falls under a rule written for others (a "
               "playbook's roles, an earlier ssh block's User and ProxyJump, a scrape job, a DROP); nothing "
               "is rewritten: choose another new value, narrow the pattern, or keep the line with a keep "
               "rule or the inline marker"),
    WILDCARD_DNS: ("a wildcard DNS name (nip.io, sslip.io, xip.io, traefik.me) or a cloud's host name "
                   "(`ip-10-0-0-70.ec2.internal`, `*.compute.internal`) spelling an address of a "
                   "network moved to one of another size: the service (or cloud) answers with the address it "
                   "spells; "
                   "write the name with the host's new address by hand, or keep it with a keep rule"),
    VERSION: ("a dotted quad where a version number stands (`\"version\": \"10.0.0.12\"`, "
              "`AssemblyVersion(\"10.0.0.1\")`, `<Version>`, `foo==10.0.0.2`, `~> 10.0.0.1`) that spells "
              "an old address: most likely a version, which a rewrite would corrupt; keep it with a keep "
              "rule, or write the new address by hand if it is one"),
    HEX_NAME: ("a boot loader's hex file name (PXELINUX `pxelinux.cfg/C0A828`, GRUB `grub.cfg-C0A82805`) "
               "that a network move cannot carry: a host a shrink leaves outside, a prefix block the new "
               "network cannot hold, or a prefix file around the moved network that its clients no longer "
               "ask for; rename or split the file by hand, or keep it with a keep rule"),
    SNMP_INDEX: ("an SNMP object's instance index that spells an old address (`IP-MIB::ipAdEntNetMask.A`, "
                 "`.1.3.6.1.2.1.4.20.1.3.A`): the agent answers for its new address, the old index gets "
                 "`No Such Instance`; nothing is rewritten (an index may hold a mask or a next hop "
                 "beside it): write the new index by hand, or keep it with a keep rule"),
    DRESSED_ADDRESS: ("an old address with a zero-padded, octal or hex octet (`192.168.040.005`, "
                      "`0300.0250.050.05`, `0xc0.0xa8.0x28.0x05`): inet_aton reads a leading zero as octal "
                      "and `0x` as hex, other readers as decimal or not at all, so nothing is rewritten; "
                      "write the new address plainly by hand, or keep it with a keep rule"),
    PACKED_ADDRESS: ("an address of a moved network packed where no rule can carry it: as hex bytes "
                     "of a DHCP option (`43,01:04:0a:00:00:46`, `option 43 hex f104.0a00.0046`), in a "
                     "6to4 prefix (`2002:a00:46::/48`) or an ISATAP id (`fe80::5efe:a00:46`); nothing is "
                     "rewritten (four bytes of an option may fall in a network by chance): write the new "
                     "bytes by hand, or keep it with a keep rule"),
    SHORT_ADDRESS: ("a renamed address in inet_aton's short form where a network tool or a URL takes it "
                    "(`ping 10.70`, `ssh root@10.0.70`, `http://10.70/`: the last part fills the bytes "
                    "left); nothing is rewritten (`1.2.3` is as often a version): write the new address "
                    "dotted in full by hand, or keep it with a keep rule"),
    NUMBER_ADDRESS: ("a renamed IPv4 address spelled as one number (decimal, or hex with 0x), as inet_aton, "
                     "curl, ping and browsers read it; write the new address by hand (dotted is clearer), "
                     "or keep the line with a keep rule if the number is no address"),
    DNS_CASE: ("an old FQDN in another case where a resolver reads it (a URL's host, a host:port, ssh's "
               "HostName): DNS ignores case, so it is the old name, live; write the new name in the case "
               "you want by hand, or keep it with a keep rule"),
    "record-owner": ("the owner of a DNS record held as data (a role's zone list, an nsupdate task, an "
                     "octoDNS or Terraform record) relative to a zone named where it cannot be read (a "
                     "template variable): it may spell an old name or an old address's reverse name, and "
                     "what it means cannot be judged; write the zone literally and rerun the sweep, rename "
                     "the owner by hand, or keep it with a keep rule"),
    "zone-origin": ("a relative name in a zone file whose origin is unknown (no $ORIGIN before it, no "
                    "named.conf naming the file, no zone $INCLUDEing it) that spells an old name or an old "
                    "address's reverse name relatively: what it means cannot be judged; add $ORIGIN (or the "
                    "named.conf zone statement) and rerun the sweep, or keep it with a keep rule"),
    "classless-zone": ("a name in an RFC 2317 classless reverse zone (`$ORIGIN 64/26.0.0.10.in-addr.arpa.`"
                       "): its owners are the last octets of addresses the parent zone points at with "
                       "CNAMEs (`70.0.0.10.in-addr.arpa. CNAME 70.64/26.0.0.10.in-addr.arpa.`), which the "
                       "sweep does not read: renumber the owner here and the parent's CNAME by hand (a "
                       "move out of the block needs another zone), or keep it with a keep rule; the "
                       "record's other names wait with its owner"),
    "templated-name": ("a name built from a variable the repo defines as an old FQDN's domain "
                       "(`ana-ml2.{{ domain }}` beside `domain: ana.lan`, `ana-ml2.${DOMAIN}`): no byte "
                       "spells the old name, so no text edit follows it, and rewriting the label alone "
                       "would keep a domain the rename changes; write the new name (or its label, where "
                       "the domain stays) by hand, or keep it with a keep rule"),
    "key-reference": ("a reference to a mapping key named by an old host (`{{ net.hosts.pug.ip }}`, "
                      "`var.hosts[\"pug\"]`) by a path no key of the repo has, while a key of that name "
                      "is renamed: which key it reads cannot be told, so it is not rewritten; write the "
                      "path of the renamed key (or keep the reference with a keep rule or the inline "
                      "marker) and rerun the sweep"),
    "terraform-label": ("a Terraform block label (resource, data, module, variable, output) that cannot move "
                        "with every reference to it (the note says which part could not): renaming the "
                        "label alone would leave a reference to an undeclared name; rename it and its "
                        "references by hand (with a `moved` block for a resource or module), or keep it "
                        "with a keep rule"),
    "composed-name": ("a name built from a variable and literal text: a variable host part before a "
                      "literal domain (`${NODE}.ana.lan`, `{{ inventory_hostname }}.ana.lan`) where no one "
                      "domain is right for every value (the literal domain would make a name that does not "
                      "exist, `fv-ml1.ana.lan`), or an old name's start an interpolation completes "
                      "(`k3s-server-0${count.index + 1}`), which no text edit follows for one value alone; "
                      "give the moved host its own variable or write its name out, or keep it with a keep "
                      "rule"),
    "prefix": ("a moved network's leading octets (or groups) standing as a value of their own "
               "(`base: \"192.168.2\"`, `PREFIX=fd00:250:0:1`, `netaddress: \"192.168.178.\"`, "
               "`[192, 168, 2]`), or a head a placeholder completes (`192.168.2.X`, `10.0.0.%d`): what "
               "reads it (a template, a format, a join, sed, a sequence) completes it into an old "
               "address, and no text edit is certain (a dotted value may be a version); write the new "
               "network's head by hand, or keep the line with a keep rule or the inline marker"),
    "composed-address": ("an address made of variables and literal octets (`${LAB_PREFIX}.5` beside "
                         "`LAB_PREFIX=10.0.0`, `10.0.0.${HOST}`, `${PTR}.${REV_ZONE}`), or an old address's "
                         "start an interpolation completes (`10.0.40.10${count.index + 1}`), that is an old "
                         "address: no byte spells it, and the sweep renumbers no prefix or octet (one "
                         "prefix serves addresses that move and addresses that stay; the line makes the "
                         "others too); write the new address, or a variable of the new network, by hand, "
                         "or keep the line with a keep rule or the inline marker"),
    "kept-reference": ("a line kept on purpose (the inline marker, a keep rule, a dated section) that reads "
                       "a key or a variable the sweep rewrites: kept, it would read a key that is gone or "
                       "a name that does not exist; nothing is written until it is decided"),
    "unit-name": ("a systemd mount, automount or swap unit's path, which the unit's name encodes (a unit's "
                  "`Where=`, or an fstab or NixOS mount point systemd makes a unit of, where the repo names "
                  "that unit): rewritten alone, systemd refuses the unit, or generates one under a name "
                  "nothing requires; rename the unit by hand to the escaped new path "
                  "(`systemd-escape -p --suffix=mount NEW`: a `-` becomes `\\x2d`) with the path and every "
                  "reference to the unit (`Requires=`, `systemctl enable`, `.wants/` links, a deploy task's "
                  "`dest:`), and stop the old unit on the machine; or keep it with a keep rule"),
    "state-name": state_names.GENERIC_HINT,
    "identity": ("a Kubernetes object's identity (`metadata.name` of any kind, a StatefulSet's "
                 "`serviceName` and volume claim templates, a `claimName`, a kustomize patch's target, a "
                 "field naming another object or its namespace, a chart value or generator parameter naming "
                 "one, a Service's `NAME.NS.svc` DNS name): the cluster knows the object by it, so a text "
                 "rename is a delete and a create (the note says what is lost); move the object first (or "
                 "accept it: `renamer sweep --allow-identity` moves every identity and every `.svc` name of "
                 "a renamed Service together), or keep it with a keep rule"),
    "multibyte": multibyte.HINT,
    "subdomain": subdomains.HINT,
    "zone-owner": ("a zone file's owner name (or $ORIGIN) whose new name lies outside the zone: BIND "
                   "ignores an out-of-zone owner, so the record would be lost; move the record to the "
                   "new name's zone file by hand"),
}
# The byte before an edit that makes it a YAML anchor (&) or an alias (*): names other lines
# refer to, so the result is parsed; and an INI section's `[` opening its line.
_NAMING = frozenset({b"&", b"*"})


def _names(data: bytes, start: int) -> bool:
    before = data[start - 1:start]
    if before in _NAMING:
        return True
    return before == b"[" and not data[data.rfind(b"\n", 0, start) + 1:start - 1].strip()

_KEY_TAIL = lazy_re.compile(rb"""[A-Za-z0-9_.\-"' \t\]]*?(?:=|:(?:[ \t\r\n]|$)|(?<=["']):)""")


def _in_key(data: bytes, start: int, end: int) -> bool:
    """Whether the edit at start:end may stand in a key: on its line, only name characters,
    quotes, blanks, dots or `]` before a `=` or a `:` that ends a YAML key (a blank or the line's
    end after it, or a quote before it: JSON), or a line that opens a table, a section or a
    complex key (`[`, `?`), or a flow mapping (`{`)."""
    line_start = data.rfind(b"\n", 0, start) + 1
    if data[line_start:start].lstrip()[:1] in (b"[", b"?", b"{"):
        return True
    line_end = data.find(b"\n", end)
    return _KEY_TAIL.match(data, end, len(data) if line_end < 0 else line_end) is not None


def _label_names(data: bytes, matches: list[Match]) -> list[Match]:
    """A Traefik label's value naming a service or middleware a label key of the file defines is
    kept with that name, which the plain rules never rename (break-it round 8, finding 9)."""
    if not matches or b"traefik." not in data:
        return matches
    refs = label_names.label_refs(data, {m.old for m in matches if m.kind == "host"})
    if not refs:
        return matches
    by_start = {r.start: r for r in refs}
    out = []
    for m in matches:
        ref = by_start.get(m.start)
        if ref is not None and m.end == ref.end and m.refused is None and m.kept is None:
            line = data.count(b"\n", 0, ref.defined_at) + 1
            what = "service" if ref.kind == "services" else "middleware"
            m = replace(m, kept="key-of-record",
                        note=f"`{ref.name}` names the Traefik {what} a label defines on line {line} (a label "
                             "key's part, which keeps its name): it reads that name, so it keeps it too")
        out.append(m)
    return out


# Occurrences left on purpose, by Match.kept: listed by audit, never a verify failure.
KEPT_NOTES = {
    "base64": ("inside base64 key material (a WireGuard or ssh key, a TSIG or API secret, a certificate "
               "line: `/`, `+` and `=` are base64's letters, `-` and `_` base64url's): no reference to the "
               "host, and rewriting it would make another key"),
    "hash": ("inside a password hash or digest (`$id$salt$hash` crypt, htpasswd, a hex digest or UUID): no "
             "reference to the host, and rewriting it would make another hash"),
    "key-of-record": ("a reference to a mapping key that keeps the old name (a record's, a kept "
                      "line's): it reads that key, so it keeps the name with it"),
    "terraform-label": ("a reference to a Terraform label that keeps its old name (a record's, a kept "
                        "line's): it reads that label, so it keeps the name with it"),
    "terraform-moved": ("the `from` of a Terraform `moved` or `removed` block: the address before the "
                        "move, kept on purpose"),
    "terraform-state": ("names where Terraform keeps this configuration's state; renaming it starts an "
                        "empty state: move the state first (terraform state / workspace rename), then "
                        "edit it by hand"),
    "image": ("a container image's repository path, tag or digest (`image: pihole/pihole:tag`, `FROM`, "
              "`docker pull`, Helm `repository:`): it names a repository of the registry, not a host; only "
              "a registry part (`pug.lab.lan:5000/`) is a host, and follows"),
    "account": ("a user account named like the host (/home/NAME, chown NAME, User=NAME, NAME@host): "
                "not the host; set options.accounts: rewrite to rename accounts too"),
    "repository": ("a repository's path on a code forge (`github.com/acme/pug`, `git@host:acme/pug.git`, "
                   "`git::https://host/infra/pug.git//dir`, `uses: acme/pug@v1`, a Terraform registry "
                   "`source`, a Go module path): it names a repository, not a host, and the move renames no "
                   "repository; only the URL's host follows"),
    "dashboard": ("a Grafana dashboard's UID in its URL (`https://grafana.lab/d/UID/slug`): Grafana keeps "
                  "the dashboard under it, so a renamed link finds nothing; only the URL's host follows"),
    "chart": ("a Helm chart's own name: a dependency's `name:` in Chart.yaml, or a values key inside a "
              "dependency's block (`grafana:`, `grafana.ini:`): the chart's and its schema's names, not the "
              "host's; the move renames no chart"),
    "public-domain": ("a short host name as the registrable name of a public domain (`proxmox.com`, "
                      "`grafana.github.io`, `debian.pool.ntp.org`) or in the path of a URL on one: another "
                      "organisation's name, not a host of this repo; the move renames no public domain"),
    # break-it round 24 (software_refs.py): a host named after its software, in the software's own names
    "scheme": ("a URL's scheme (`postgres://`, `redis+tls://`): the protocol a client speaks, not a host; "
               "the host after `://` follows"),
    "package": ("an npm scope (`@grafana/ui`) or an imported code module (Go `\"code.gitea.io/sdk/gitea\"` "
                "and `gitea.NewClient(`, Python `import grafana`), or a package manifest's own name "
                "(package.json's `\"name\"`, pyproject's or Cargo's `name =`): the registry's or the code's "
                "namespace, not a host; the move renames no package"),
    "api-group": ("a Kubernetes API group (`apiVersion: grafana.integreatly.org/v1beta1`, `apiGroups:`): "
                  "the name of a CRD's group, not a host; the move renames no API"),
    "label-key": ("a label's or annotation's key (`traefik.enable=true`, `homepage.group:`, "
                  "`nginx.ingress.kubernetes.io/...`): the namespace the software reads its configuration "
                  "from, not a host; the label's value still follows"),
    "software": ("the software's own name, not the host's: a package, service or user of an Ansible module "
                 "(`apt: {name: nginx}`), a file's owner or group, a daemon's `user`/`User=`, a pg_hba.conf "
                 "role or database, a systemd unit (`vault.service`), or the software's command "
                 "(`nginx -t`, `vault token create`)"),
    "container-port": ("a container's or a port's name inside a Kubernetes object (`containers: - name:`, "
                       "`ports: - name:`, `port:`/`targetPort:` naming a port): no host; an operator that "
                       "merges its container by that name, a ServiceMonitor that scrapes that port, finds "
                       "nothing if it changes alone"),
    "prose-noun": ("a common noun or a product's name in prose (`from a vault`, `the hashicorp vault`), "
                   "not a host"),
    "storage": ("names where data lives in a storage service (an `s3://`/`gs://` bucket and key, a restic "
                "repository on S3, B2, GCS, Azure, Swift, rclone or a rest-server, a ZFS dataset or pool): "
                "renamed in the text alone, the next run writes to a new, empty place (or another owner's "
                "bucket); move the data first (copy the bucket, `zfs rename`), then edit it by hand"),
}


@dataclass(frozen=True)
class ScanOptions:
    texts: bool = True  # each reference's line, for reports (a sweep's diff needs none)
    locate: bool = False  # YAML key paths and Python roles for every reference (reports)
    locate_records: bool = True  # also in record files (audit shows them; verify does not)
    loose: bool = False  # near-misses and derived-name candidates
    # The byte edits, where only a report is wanted (verify, audit) and nothing depends on them:
    # a structured file's edits decide `structure` residuals, a Markdown file's its links.
    edits: bool = True
    # The revision just before this move's first commit (sweep/history.py's move_parent), where
    # the history records one: a renamed key meeting its new name collides only where the file
    # held that name there (sweep/merges.py).
    before_move: str | None = None
    # New values to look for in every file, for collisions (sweep/collisions.py): the scan lists
    # the files that hold one, so that only those are read again.
    present: tuple[bytes, ...] = ()
    # `sweep --allow-identity`: a Kubernetes object's identity follows (kube_identities.py)
    allow_identity: bool = False
    # Zone files a server's configuration in the repo names (or a zone of it $INCLUDEs): (path, the
    # origin it is read against, its zone's apex), from sweep/zone_origins.py. Such a file needs no
    # $ORIGIN, and is always scanned (its owners spell no old value).
    zone_origins: tuple[tuple[str, str, str], ...] = ()
    # Hosts files a dnsmasq configuration reads with `expand-hosts`: (path, the domain it qualifies
    # their bare names with, the configuration), from sweep/tool_names.expanded_hosts. Always
    # scanned (a name an earlier sweep rewrote alone spells no old value).
    expanded_hosts: tuple[tuple[str, str, str], ...] = ()
    # Env files a compose service reads (`env_file:`) while its `dns_search` lists domains: (path,
    # the domains, the compose file), from sweep/compose_search.compose_searches. Always scanned.
    searched_env: tuple[tuple[str, tuple[str, ...], str], ...] = ()
    # Compose services that take a `dns_search` from the service they `extends`: (compose file,
    # service, the domains, where from), from sweep/compose_search.compose_searches. Always scanned.
    searched_services: tuple[tuple[str, str, tuple[str, ...], str], ...] = ()
    # ssh configs one includes (`Include config.d/*`): (included, including), from
    # sweep/tool_names.ssh_included. Both always scanned.
    ssh_includes: tuple[tuple[str, str], ...] = ()
    # Machines whose resolver search list the repo sets (`search ana.lan`): (folder, '' for all,
    # the domains, the configuration), from sweep/machine_search.machine_searches.
    machine_searches: tuple[tuple[str, tuple[str, ...], str], ...] = ()
    # Helm values a chart template composes with a domain value (`{{ .Values.host }}.{{ .Values.domain
    # }}`): (values file, the host's key path, the domain, where), from sweep/helm_tails.py. Always scanned.
    helm_compositions: tuple[tuple[str, tuple[str, ...], str, str], ...] = ()


NAMED_LIKE_NOTE = (NAMED_LIKE + " {old}, which the rename moves: whatever "
                   "finds it by the host's name (a variable, a command line: `nodes/{{{{ node }}}}.yaml`) "
                   "finds nothing under the new name; rename it with the host, or keep the host's name where "
                   "it is read")


def named_like(rel: str, start: int, end: int) -> bool:
    """Is the old value at rel[start:end] a whole component of the path, or the stem before its
    extensions (`hosts/pug/`, `nodes/pug.yaml.j2`): a path named by the host, not one that only
    mentions it (`pug-backup.sh`)?"""
    component_start = rel.rfind("/", 0, start) + 1
    slash = rel.find("/", end)
    component_end = len(rel) if slash == -1 else slash
    return start == component_start and (end == component_end or rel[end] == ".")


class FileScanner:
    def __init__(self, project: LoadedProject, options: ScanOptions) -> None:
        self.project = project
        self.options = options
        self.resolved_fqdns = resolved_fqdns(project.matcher)  # old FQDNs a URL's host may spell in any case
        self.renamed_addresses = [(o, n) for o, n in project.matcher.addresses if ":" not in o]
        self.renamed_v6 = [(o, n) for o, n in project.matcher.addresses if ":" in o]
        self._held: dict[str, frozenset[str]] = {}  # new value -> the files holding it before the move
        self.matcher = project.matcher
        self.origins = {rel: (origin, apex) for rel, origin, apex in options.zone_origins}
        self.wide = wide_needles(self.matcher.needles)  # old values in UTF-16/32 code units (sweep/wide.py)
        # Variables a templated or composed name reads (sweep/templated.py): defined in live files only.
        self.definitions = Definitions(project.root, lambda rel: project.classifier.classify(rel).status
                                       in (CURRENT, UNCLASSIFIED), Fates(project.root, project.classifier,
                                                                 project.config.max_file_size,
                                                                 held_lines(project.root,
                                                                            options.helm_compositions,
                                                                            self.matcher.hosts,
                                                                            project.config.max_file_size),
                                                                 line_holder(options.machine_searches,
                                                                             self.matcher.hosts)))
        # Words of lists that a loop whose composed name is a residual walks (sweep/loop_holds.py).
        self.loop_holds = LoopHolds(project.root, self.matcher, self.definitions, self.definitions.live,
                                    project.config.max_file_size)
        self.keys = KeyIndex(project)  # keys named by a host, which references read (sweep/key_index.py)
        self.terraform = TerraformIndex(project)  # Terraform labels and their references
        self.nix = NixIndex(project)  # Nix attribute paths through a host word (sweep/nix_attrs.py)
        self.templates = Templates(project.root)  # systemd template units, where an instance is named
        self.hosts_files = {rel: (domain, conf) for rel, domain, conf in options.expanded_hosts}
        # Where a unit a generator makes (fstab's `mnt-pug.mount`) is named (sweep/unit_mentions.py).
        self.unit_mentions = UnitMentions(project.root, lambda rel: project.classifier.classify(rel).status
                                          in (CURRENT, UNCLASSIFIED))
        self.env_files = {rel: (domains, conf) for rel, domains, conf in options.searched_env}
        self.helm_values = {composition[0] for composition in options.helm_compositions}
        # mixed-case old names, whose lower-case literals a run-time lowering meets (lowered_names.py)
        self.lowered_pairs = lowered_names.mixed(self.matcher.hosts)
        self._lowering: tuple[str, int, str] | bool | None = False  # False: not read yet
        self._charts: dict[str, bytes | None] = {}  # Chart.yaml beside a values file (chart_schema.py)
        self.extended: dict[str, list[tuple[str, tuple[str, ...], str]]] = {}
        for rel, service, domains, how in options.searched_services:
            self.extended.setdefault(rel, []).append((service, domains, how))
        self.ssh_includes = dict(options.ssh_includes)
        self.signatures = sealed.Signatures(str(project.root))  # detached signatures (sealed.py)
        self.scopes = sealed_scopes.Scopes(str(project.root))  # namespaces set on SealedSecrets
        # A preset record folder's file a live file includes by path (sweep/included.py).
        classifier = project.classifier
        self.included = IncludedBy(project.root, lambda rel: classifier.classify(rel).status == CURRENT,
                                   classifier.preset_folder,
                                   lambda rel: classifier.classify(rel).status == UNCLASSIFIED)
        self.ssh_configs = set(self.ssh_includes) | set(self.ssh_includes.values())
        # A resized network's length kept in another file or block of its namespace (split_lengths.py)
        self.split_lengths = split_lengths.index(project.root, self.matcher.network_moves,
                                                 lambda rel: classifier.classify(rel).status == CURRENT)
        # `for_each` instance keys: decided with what the loop and key rules hold (sweep/terraform_keys.py)
        self.instance_keys = InstanceKeys(self.terraform, self._before_terraform)
        self.keys.seeds = self.instance_keys.seeds  # a key kept whole holds its map key's readers
        self._before: dict[str, list[Match]] = {}
        self._services: kube_identities.Services | None = None  # the repo's Services, read on first need
        self._project_folders: dict[str, str | None] = {}  # folder -> why renaming it renames a project

    def scan(self, rel: str, klass: FileClass | None = None,
             read: tuple[bytes, int] | None = None,
             hints: tuple[bool, bool] | None = None) -> FileResult | None:
        """What `rel` holds; None when it is no file to scan (a folder, a socket, gone).

        Classification waits until a prefilter hit: most files hold no old value.
        `read`: the (bytes, mode) of a regular file the caller has read already; `hints`: what
        the matcher's and the loose pass's prefilters answered for those bytes (not asked again).
        """
        path = f"{self.project.root}/{rel}"
        content = (classify_bytes(*read, rel) if read is not None
                   else read_content(path, self.project.config.max_file_size))
        if content is None:
            return None
        if content.kind == "unreadable":
            return FileResult(rel, content.kind, "", refused=content.detail)
        if content.kind == "text" and compressed.kind(content.data) is not None:  # bzip2 holds no NUL
            content = replace(content, kind="binary")
        data = content.data
        if hints is not None and read is not None and data is read[0]:  # not decoded from UTF-16
            hit, loose_hit = hints
        else:
            hit = content.kind != "too-large" and (self.matcher.might_match(data)
                                                   or might_split(self.matcher, data)
                                                   or might_join_quotes(self.matcher, data)
                                                   or might_join_default(self.matcher, data)
                                                   or might_escape(self.matcher, data)
                                                   or might_fold(self.matcher, data))
            loose_hit = self.options.loose and self.project.loose.might_match(data)
        origin, apex = self.origins.get(rel, (None, None))
        hit = hit or (origin is not None and content.kind == "text")
        hit = hit or (content.kind == "text" and rel in self.hosts_files)  # read with `expand-hosts`
        hit = hit or (content.kind == "text" and rel in self.env_files)  # read with a search list
        hit = hit or (content.kind == "text" and rel in self.extended)  # a service extending a search list
        hit = hit or (content.kind == "text" and rel in self.helm_values)  # a value a template composes
        hit = hit or (content.kind == "text" and rel in self.split_lengths)  # a length of a network elsewhere
        hit = hit or (content.kind == "text" and rel in self.ssh_configs)  # an ssh config with its includes
        # A binary file may spell an old value in UTF-16 or UTF-32 code units: reported skipped too.
        wide = content.kind == "binary" and holds_wide(data, self.wide)
        # gzip, xz, bzip2, zip: its text, decompressed (sweep/compressed.py)
        hit = hit or (content.kind == "binary" and compressed.kind(data) is not None)
        # a certificate, a hashed known_hosts entry, a registry hex value (sweep/decoded_names.py)
        hidden_names = content.kind == "text" and decoded_names.might_hold(data)
        hit = hit or hidden_names
        # a line folded by a leading blank (LDIF, iCalendar, vCard), an LDIF base64 value (folded_lines.py)
        folded = content.kind == "text" and folded_lines.might_hold(rel, data, self.matcher.needles)
        hit = hit or folded
        # `pxelinux.cfg/0A000046`: an old address as a boot loader's hex file name (hex_names.py)
        hex_refs = (hex_names.text_spans(data, self.matcher.addresses, self.matcher.networks)
                    if content.kind == "text" and hex_names.might_hold(data) else [])
        hit = hit or bool(hex_refs)
        hex_path = hex_names.path_rename(rel, self.matcher.addresses, self.matcher.networks)
        hex_unplaced = hex_names.path_unplaced(rel, self.matcher.networks) \
            if hex_path is None and self.matcher.networks else None
        path_hit = self.matcher.might_match(os.fsencode(rel))
        # DNS names (a zone, a hosts file) match in any case: asked only of text that holds an old
        # value in some case, which the first pass let through (its gates are case-folded).
        folded_hit = content.kind == "text" and not hit and self.matcher.might_match_any_case(data)
        fmt = format_of(rel, data) if content.kind == "text" and (hit or folded_hit) else None
        # A Kea `.json` is JSON in every other respect (formats/dns_config.py).
        any_case = fmt is not None and (fmt.dns_names or names_dns(rel))
        hit = hit or any_case
        # An old FQDN in another case where a resolver reads it (`https://ANA-ML2.ANA.LAN/`) is a
        # residual in any file, not only one the loose pass (verify's) or an exact value let in:
        # the sweep and verify list the same `dns-case` spellings (round 21, finding 09's rest).
        case_hit = folded_hit and bool(self.resolved_fqdns)
        path_loose = self.options.loose and self.project.loose.might_match(os.fsencode(rel))
        # `nixos-server1` where the repo computes `toLower hostName` (round 25, finding 15)
        lowered = (self._lowered() if self.lowered_pairs and (
            (content.kind == "text" and any(old.lower().encode() in data for old, _ in self.lowered_pairs))
            or any(old.lower() in rel for old, _ in self.lowered_pairs)) else None)
        if not (hit or wide or path_hit or loose_hit or path_loose or case_hit or hex_path is not None
                or hex_unplaced is not None or lowered is not None or content.kind == "too-large"):
            return FileResult(rel, content.kind, "")
        work.add("full scans")
        klass = klass or self.project.classifier.classify(rel)
        if klass.status in (RECORD, UNCLASSIFIED) and content.kind in ("text", "encoding"):  # a preset guess
            klass = self.project.classifier.by_content(rel, klass, data, bool(content.mode & 0o111),
                                                       self.included.naming)
        status = klass.status
        # A link or a file too large to rewrite is still renamed with its folder: left behind,
        # a link would dangle and the old folder would stay.
        path_kept = path_hit and self.project.classifier.path_kept(rel)
        path_near = self._path_near_misses(rel) if path_loose and status != RECORD and not path_kept else []
        new_path = self._new_path(rel) if status == CURRENT and path_hit and not path_kept else None
        path_refs = self._path_references(rel, klass, kept=path_kept) if status != RECORD and path_hit else []
        if lowered is not None and status == CURRENT:  # `certs/nixos-server1.pem` (lowered_names.py)
            held = [Reference(rel, 0, start + 1, old.lower(), new.lower(), RESIDUAL, lowered_names.REASON,
                              lowered_names.note(old, new, lowered), rel, None, "path")
                    for start, _, old, new in lowered_names.spans(os.fsencode(rel), self.lowered_pairs)]
            path_refs += held
            path_near = [n for n in path_near if all(n.text != r.old for r in held)]  # said once
        if hex_path is not None and status == CURRENT and not self.project.classifier.path_kept(rel):
            moved = hex_names.path_rename(new_path or rel, self.matcher.addresses, self.matcher.networks)
            new_path = moved[0] if moved is not None else new_path
            path_refs.append(Reference(rel, 0, hex_path[1], hex_path[2], hex_path[3], RESIDUAL, None,
                                       "a boot loader's file name for the client's address in hex (PXELINUX, "
                                       "GRUB): `renamer sweep` renames it to the new address's", rel, None,
                                       "path"))
        if hex_unplaced is not None and status == CURRENT and not self.project.classifier.path_kept(rel):
            path_refs.append(Reference(rel, 0, hex_unplaced[0], hex_unplaced[1], hex_unplaced[1], RESIDUAL,
                                       HEX_NAME, hex_unplaced[2], rel, None, "path"))
        if new_path is not None:
            new_path, path_refs = self._host_vars_path(rel, new_path, path_refs)
        if new_path is not None and "@" in rel:  # `check@pug.service` of a template making `%i.ana.lan`
            new_path, path_refs = self._instance_path(rel, new_path, path_refs)
        if new_path is not None:  # `hosts/pug/compose.yaml`: the folder names the compose project
            new_path, path_refs = self._project_path(rel, new_path, path_refs)
        if new_path is not None and ".tfstate" in rel:  # `state/pug.tfstate`: a kept backend path reads it
            note = state_file_note(rel, new_path)
            if note is not None:
                why = f"{note}; {state_names.hint(note)}"
                new_path = None
                path_refs = [replace(r, reason=state_names.HELD, note=why)
                             if r.status == RESIDUAL and r.reason is None else r for r in path_refs]
        if new_path is not None and content.kind == "text" and tool_state.might_hold(data):
            tool = tool_state.written_by(data)  # `facts/pug` of Ansible's fact cache (round 24, #13)
            if tool is not None:
                new_path = None
                path_refs = [replace(r, reason=state_names.HELD, note=tool)
                             if r.status == RESIDUAL and r.reason is None else r for r in path_refs]
        if content.kind == "symlink":
            shown = data.decode("utf-8", "replace")
            refs = self._skipped(rel, data, "symlink",
                                 f"symlink to {shown}: never followed or written through")
            missing = dangling(self.project.root, rel)
            if missing is not None and status != RECORD:  # a link that names an old path and leads nowhere
                refs = [replace(r, status=RESIDUAL, reason="dangling-link",
                                note=f"symlink to {shown}: {missing} does not exist; re-point it at the "
                                     "renamed path") for r in refs]
            return FileResult(rel, content.kind, status, tuple(path_refs + refs), new_path=new_path,
                              near_misses=tuple(path_near))
        if content.kind == "too-large":
            refs = list(self._scan_large(rel, Path(path), content.detail))
            return FileResult(rel, content.kind, status, tuple(path_refs + refs), new_path=new_path,
                              near_misses=tuple(path_near))
        find = self.matcher.find_any_case if any_case else self.matcher.find
        templated: list[TemplatedNote] = []
        inserts: list[Edit] = []  # `moved` blocks after renamed Terraform labels
        matches = find(data, fmt.name_starts(data) if fmt is not None else ()) if hit else []
        if lowered is not None and status == CURRENT and content.kind == "text" and not any_case:
            matches = lowered_names.lowered_matches(data, matches, self.lowered_pairs, lowered)
        if hex_refs:  # `pxelinux.cfg/0A000046` in a script: the file's new name (hex_names.py)
            taken = Spans([(m.start, m.end) for m in matches])
            matches = sorted([*matches, *(Match(start, end, old, new, "address")
                                          for start, end, old, new in hex_refs
                                          if not taken.overlaps(start, end))], key=lambda m: m.start)
        # A zone, a fragment of one (records with no SOA), a name server's configuration: names in
        # presentation format, whose `\DDD` escapes are decimal (RFC 1035 5.1).
        zone_like = hit and content.kind == "text" and (origin is not None or zone.is_zone(data)
                                                         or zone.is_records(data))
        decided: list[tuple[int, int]] = []  # zone names spelled with escapes, decided by meaning
        if zone_like:
            matches, decided = with_zone_names(data, matches, self.matcher, origin, apex, any_case=any_case)
        if hit and content.kind == "text" and might_hold_break(data):
            indent = (fmt or format_of(rel, data)).joins_indent or continuations.joins_indent(rel)
            matches = split_matches(self.matcher, data, matches, indent=indent, recipe=is_makefile(rel),
                                    mark=continuations.mark(rel, data))
            if continuations.soft_breaks(data):  # a quoted-printable part's soft line breaks
                matches = split_matches(self.matcher, data, matches, indent=False, mark=b"=")
        if folded:  # unfolded as LDIF, iCalendar, vCard read them; LDIF `attr::` base64 decoded
            matches = folded_lines.folded_matches(self.matcher.find, rel, data, matches)
            matches = folded_lines.ldif_base64_matches(self.matcher.find, self.matcher.needles, rel, data,
                                                       matches)
        if hit and content.kind == "text" and interface_stanzas.might_hold(data):
            # an interface's address renamed out of its gateway's network (interface_stanzas.py)
            matches = interface_stanzas.with_gateways(data, matches)
        if hit and content.kind == "text" and not zone_like and reverse_refs.might_hold(data, matches):
            # `4.0.168.192.in-addr.arpa` beside `domain_id` 2 / `zone_id`: its record's zone (t32 round 25,
            # 19); a zone file's owners are the zone rules' (with_zone_names, sweep/zone_rules.py)
            matches = reverse_refs.refused(data, matches)
        # (each reader's own cheap shape test first: the work counts count the readers that run)
        if hit and content.kind == "text" and may_join(data) and self.matcher.may_hold("concatenated", data):
            # `"ana-" + "ml2"`, `("ana-" "ml2")`, `"ana-${"ml2"}"`: a join of literals (concatenated.py)
            matches = concatenated_matches(data, matches, self.matcher.find, self.matcher.set_needles, rel)
        if hit and content.kind == "text" and any(literal in data for literal in BASE64_LITERALS) \
                and self.matcher.may_hold("base64 values", data):
            # a Secret's `data:`, a ConfigMap's `binaryData:`, cloud-init `encoding: b64` (base64_values.py)
            matches = encoded_matches(data, matches, self.matcher.find, self.matcher.needles)
        if hit and content.kind == "text" and not self.matcher.rules_out("wildcard names", data) \
                and self.matcher.wildcards.holds_literal(data) \
                and self.matcher.may_hold("wildcard names", data):
            # `grafana.10-0-0-70.nip.io`: the service answers with the address the name spells
            matches = wildcard_matches(data, matches, self.matcher.wildcards)
        if hit and content.kind == "text":
            matches = quote_joined_matches(self.matcher, data, matches)
            # `` `10.0.48.`**`1`** ``: a Markdown page's value split by its inline markup (f28, finding 22)
            matches = markdown_joined_matches(self.matcher, data, matches, rel)
            matches = default_joined_matches(self.matcher, data, matches)
            matches, templated = templated_matches(data, matches, self.matcher.hosts, self.definitions)
            if status == CURRENT:  # a reference to a renamed key follows it, or says why not
                matches = key_matches(data, rel, matches, self.keys)
                matches = _label_names(data, matches)  # `routers.pug.service=pug`: Traefik's own names
                matches = self.keys.hold(rel, data, matches)  # a key whose reader cannot follow
                matches = self.keys.hold_readers(rel, data, matches)  # a held inventory host's readers
                # `peers.pug.allowedTCPPorts` beside `pug.ip` in `peers = { }`: one Nix attribute
                matches = self.nix.matches(data, rel, matches)
                matches, inserts = terraform_matches(data, rel, matches, self.terraform, self.instance_keys)
                # `"module.pug.x.y"` in a policy: the label's fate (break-it round 8, finding 13)
                matches = address_matches(data, rel, matches, self.terraform)
            if status != RECORD:  # a record keeps its names as they are: no domain to follow
                kept = self._kept_at(rel, data) if status == CURRENT else None
                matches, composed = composed_matches(data, matches, self.matcher.hosts, self.definitions, rel,
                                                     kept)
                templated += composed
                # `${HOST}.${DOMAIN}`, `join(".", [var.host, var.domain])`: both halves variables
                matches = joined_matches(data, matches, self.matcher.hosts, self.definitions, rel)
                matches = self.loop_holds.hold(rel, data, matches)
                # (Each reader below that a literal gates is skipped where the native first pass found
                # none of its literals in these bytes: Matcher.may_hold.)
                if self.matcher.may_hold("tool names", data):  # `Host pug` + `%h.ana.lan`
                    matches = tool_name_matches(data, matches, self.matcher.hosts)
                # `10.0.40.11 pug` in a hosts file dnsmasq reads with `expand-hosts` + `domain=`
                matches = hosts_file_matches(data, rel, matches, self.matcher.hosts, self.hosts_files)
                # `DB_HOST=pug` in an env file a service with `dns_search: ana.lan` reads
                matches = env_file_matches(data, rel, matches, self.matcher.hosts, self.env_files)
                # `DB_HOST: pug` of a service that `extends` one with `dns_search: ana.lan`
                matches = service_matches(data, matches, self.matcher.hosts, self.extended.get(rel, ()))
                # `ssh admin@pug` on a machine whose resolv.conf says `search ana.lan`
                matches = machine_search_matches(data, rel, matches, self.matcher.hosts,
                                                 self.options.machine_searches)
                if rel in self.helm_values:  # `host: pug` beside `domain: ana.lan`, a template joining them
                    matches = helm_matches(data, rel, matches, self.matcher.hosts,
                                           self.options.helm_compositions)
                # `pug:` in an OctoDNS zone file `config/ana.lan.yaml`
                matches = zone_file_matches(data, rel, matches, self.matcher.hosts)
                # `A("pug", ...)` in DNSControl's `D("ana.lan", ...)`, nsupdate's `zone:` + `record:`...
                if self.matcher.may_hold("tool names", data):  # zone_records.LITERALS are of that group
                    matches = zone_record_matches(self.project.root, data, rel, matches, self.matcher.hosts)
                # `label: 12.0` of a PTR in a role's zone list `name: 0.10.in-addr.arpa`, octoDNS's
                # `'70':` in `config/0.0.10.in-addr.arpa.yaml`: owners relative to a zone the file names
                if might_hold_records(rel, data):
                    matches = record_owner_matches(data, rel, matches, self.matcher)
                # nsupdate's `zone ana.lan` over `update add pug.ana.lan.` moving out of the zone
                matches = nsupdate_matches(data, matches, self.matcher.hosts)
                # `repository: ".../{{ inventory_hostname }}"`: a backup repository named by the machine
                if self.matcher.may_hold("own storage", data):
                    matches = own_storage_matches(data, rel, matches, self.matcher.hosts)
                if status == CURRENT:  # `.../restic/pug`, `/etc/letsencrypt/live/pug.ana.lan/`: spelled
                    matches = literal_storage_matches(data, rel, matches,
                                                      backups=not self.matcher.rules_out("own storage", data))
                # `include "fqdn" "pug"` of a define in another template of the chart making `{{ . }}.ana.lan`
                matches = helm_call_matches(self.project.root, data, rel, matches, self.matcher.hosts)
                # `fqdn("pug")` of a macro, def or shell function another file defines (`{{ h }}.ana.lan`)
                matches = imported_call_matches(self.project.root, data, rel, matches, self.matcher.hosts,
                                                self.project.config.max_file_size)
                if rel in self.ssh_configs:  # `Host *` of one file composing the `Host pug` of another
                    matches = ssh_include_matches(self.project.root, data, rel, matches, self.matcher.hosts,
                                                  self.ssh_includes, self.project.config.max_file_size)
                matches = instance_matches(data, matches, self.matcher.hosts, self.templates)  # `check@pug`
                if status == CURRENT and rel.endswith((".tf", ".tf.json")):
                    matches = instance_bodies(data, rel, matches, self.instance_keys, self.matcher.hosts)
                told: list[tuple[int, int]] = []  # compositions whose values are known, old or not
                if self.matcher.may_hold("address parts", data) and self.matcher.might_compose_address(data):
                    matches = composed_address_matches(data, matches, self.matcher, self.definitions, rel,
                                                       self.project.root, told)
                # `"10.0.40.${count.index + 11}"`: a renamed network's head a template completes
                matches = self.matcher.templated_heads(data, matches, told)
                if self.matcher.may_hold("computed", data) and self.matcher.might_compute_address(data):
                    # `cidrhost("10.0.40.0/24", 11)`
                    matches = computed_matches(data, matches, self.matcher,
                                               [*self.matcher.v4_olds, *self.matcher.v4_networks], rel,
                                               self.project.root, self.definitions)
                if self.matcher.may_hold("resized", data):  # `cidrhost("192.168.40.0/24", -2)` under a resize
                    matches = resized_matches(data, matches, self.matcher.network_moves, rel,
                                              self.project.root, self.definitions)
                if rel in self.split_lengths:  # `lan_prefix: 24` in host_vars, `lan_network` in group_vars
                    matches = split_lengths.held_matches(data, matches, self.split_lengths[rel])
                if self.matcher.may_hold("formatted", data) and self.matcher.might_format_name(data):
                    # `format("pve%02d", 1)` makes pve01
                    matches = formatted_matches(data, matches, self.matcher.hosts)
                # `10.0.40.10${count.index + 1}`: an old value's start an interpolation completes.
                matches = completed_matches(data, matches, self.matcher.completions)
                # `base: "192.168.2"`, `10.0.0.X`: a moved network's head as a value (issue 27, round 21)
                if status == CURRENT and self.matcher.may_hold("prefixes", data):
                    matches = prefix_matches(data, matches, self.matcher.prefixes, rel)
                if status == CURRENT:  # `| 10.0.48.0 | 24 |`: a resized network's length in its own cell
                    matches = self.matcher.table_lengths(data, rel, matches)
                    matches = self.matcher.prose_lengths(data, matches)  # `# /16 gives ~64K`
                    if matches and markup_tables.might_hold(data):  # an rST table's columns stay put
                        matches = markup_tables.keep_widths(data, matches)
                if not any_case and status == CURRENT:  # `PUG` beside the address it names: never an OK
                    matches = case_in_records(data, matches, self.matcher)
        if hit and content.kind == "text" and status == CURRENT \
                and not self.matcher.rules_out("number addresses", data) \
                and self.matcher.numbers.holds_literal(data) \
                and self.matcher.may_hold("number addresses", data):  # `http://184169014/`
            matches = number_matches(data, matches, self.matcher.numbers)
        if hit and content.kind == "text" and status == CURRENT \
                and not self.matcher.rules_out("dressed addresses", data) \
                and self.matcher.dressed.holds_literal(data) \
                and self.matcher.may_hold("dressed addresses", data):  # `192.168.040.005` (t36-33 11)
            matches = dressed_matches(data, matches, self.matcher.dressed)
        if hit and content.kind == "text" and status == CURRENT \
                and not self.matcher.rules_out("packed addresses", data) \
                and self.matcher.packed.holds_literal(data) \
                and self.matcher.may_hold("packed addresses", data):  # `43,01:04:0a:00:00:46` (t36 12)
            matches = packed_matches(data, matches, self.matcher.packed)
        if hit and content.kind == "text" and status == CURRENT \
                and not self.matcher.rules_out("snmp indexes", data) \
                and self.matcher.snmp.holds_literal(data) \
                and self.matcher.may_hold("snmp indexes", data):  # `ipAdEntNetMask.192.168.40.1` (t36-33 14)
            matches = snmp_matches(data, matches, self.matcher.snmp)
        if content.kind == "text" and status == CURRENT and self.renamed_addresses and (
                (matches and might_hold_access(data))  # `allow 10.0.0.70/30` spelling a renamed address
                or (hit and not matches and not self.matcher.rules_out("access sets", data)
                    and self.matcher.access.holds_literal(data)
                    and self.matcher.may_hold("access sets", data)
                    and self.matcher.access.might_hold(data))):  # `allow 10.0.0.64/29;` around 10.0.0.70
            matches = access_matches(data, matches, self.renamed_addresses)
        if content.kind == "text" and status == CURRENT and self.matcher.wide_sets.blocks \
                and self.matcher.may_hold("wide sets", data):  # `allow 192.168.0.0/16;` a move leaves
            matches = self.matcher.wide_sets.wide_matches(data, matches, rel)
        if content.kind == "text" and status == CURRENT and matches and \
                access_v6.might_hold(data, self.renamed_v6):  # `allow fd00::70/126;` (t31 round 24, 23)
            matches = access_v6.access_matches_v6(data, matches, self.renamed_v6)
        if (hit or loose_hit or case_hit) and content.kind == "text" and status == CURRENT and not any_case \
                and self.resolved_fqdns and (case_hit or self.matcher.might_match_any_case(data)):
            # `https://ANA-ML2.ANA.LAN/api`: an old FQDN in another case that a resolver reads
            matches = resolved_case_matches(data, matches, self.resolved_fqdns)
        if (hit or folded_hit) and content.kind == "text" and status == CURRENT and not any_case \
                and might_hold_vhost(rel, data) and (case_hit or self.matcher.might_match_any_case(data)):
            # `server_name WEB01.lab;`, `ServerAlias Web01`, a Caddy site, ethers: caseless by definition
            matches = vhost_case_matches(data, rel, matches, list(self.matcher.hosts))
        if (hit or folded_hit) and content.kind == "text" and status == CURRENT and not any_case \
                and caseless_names.might_hold(data) and (case_hit or self.matcher.might_match_any_case(data)):
            # `\\WEB01\share`, `-ComputerName WEB01`, `CN=WEB01,`, `ops@WEB01.lab` (t31 round 24, 08)
            matches = caseless_names.caseless_matches(data, matches, list(self.matcher.hosts))
        if (hit or folded_hit) and content.kind == "text" and status == CURRENT and not any_case \
                and record_case.might_hold(data) and (case_hit or self.matcher.might_match_any_case(data)):
            # `Add-DnsServerResourceRecordA -Name "WEB01"`, `dns_a_record_set { name = "WEB01" }` (t32, 20)
            matches = record_case.record_case_matches(data, matches, list(self.matcher.hosts))
        if hit and content.kind == "text" and might_hold_escape(data):
            decodes = (fmt or format_of(rel, data)).escapes
            matches = escaped_matches(self.matcher, data, matches, decodes=decodes,
                                      decimal=zone_like or presentation_config(rel), decided=decided)
        if hit and content.kind == "text":
            matches = folded_matches(self.matcher, data, matches)
            if status != RECORD:  # `grafana.pug.lab.lan`, `*.pug` in the lab.lan zone: under the host
                matches = subdomain_matches(data, matches, self.matcher, zone_like=zone_like, origin=origin,
                                            apex=apex, any_case=any_case,
                                            follow=self.project.config.subdomains == "follow",
                                            relative=relative_names(rel, data))
        if rel == ".gitmodules" and matches:
            matches = submodule_paths_refused(data, matches)
        if matches and (is_hcl(rel) or b"backend-config" in data or b"backend_config" in data
                        or any(word in data for word in HTTP_LITERALS)):
            matches = kept_state(rel, data, matches)  # a state's name: renamed, the next apply starts empty
        if hit and status == CURRENT and content.kind == "text" \
                and (b".svc" in data or (b"." in data and self.kube_services())):  # `api.pug.svc` of ns pug
            matches = label_matches(data, matches, self.matcher.hosts, self.kube_services())
        if matches and status == CURRENT and content.kind == "text":  # before identities: a sealed namespace
            matches = sealed_scopes.held(self.scopes, rel, data, matches)  # a kustomization's namespace
        if matches and content.kind == "text" and status == CURRENT \
                and (kube_identities.might_hold(data)  # `metadata: {name: pug}`
                     or (b"." in data and self.kube_services())):  # `pug.db:5432` of Service db/pug
            matches = self._identities(rel, data, matches)
        if matches and status == CURRENT and content.kind == "text" \
                and (chart_schema.is_chart_file(rel) or chart_schema.is_values(rel)
                     or chart_schema.might_inline(data)):  # a chart's own names
            matches = chart_schema.held(self.project.root, rel, data, matches, self._charts)
        if matches and status == CURRENT and content.kind == "text" and chart_consumers.might_hold(data):
            matches = chart_consumers.held(data, matches)  # helmCharts, helmfile, helm_release (round 25)
        if matches and content.kind == "text":  # `name: pug` of a compose project: its volumes' prefix
            matches = self._state_names(rel, data, matches)
        if matches and content.kind == "text" and (unit_names.might_define(data)  # `mnt-pug.mount`
                                                   or unit_names.might_generate(rel, data)):  # fstab
            matches, unit_note = unit_names.held(rel, new_path, data, matches, self.unit_mentions.named)
            if unit_note is not None:
                new_path = None
                why = f"{unit_note}; {REFUSED_HINTS[unit_names.HELD]}"
                path_refs = [replace(r, reason=unit_names.HELD, note=why)
                             if r.status == RESIDUAL and r.reason is None else r for r in path_refs]
        if hidden_names:  # old values only its decoded bytes spell: residuals, never rewritten
            matches = decoded_names.decoded_matches(data, matches, self.matcher.hosts, self.matcher.addresses)
        if matches and status == CURRENT and content.kind == "text" and name_limits.might_hold(data, matches):
            matches = name_limits.limited(rel, data, matches)  # `netbios name = fs01`: 15 characters (#14)
        if matches and status == CURRENT and content.kind == "text":  # a sops file, a signed text (sealed.py)
            matches = sealed.held(self.signatures, rel, data, matches)
        if matches and status == CURRENT and ".tfstate" in rel:  # terraform's record of the world: kept as is
            matches = state_held(rel, matches)
        if matches and status == CURRENT and content.kind == "text" and tool_state.might_hold(data):
            tool = tool_state.written_by(data)  # Pulumi, Packer, Ansible facts (break-it round 24, #13)
            if tool is not None:
                matches = [replace(m, refused=state_names.HELD, note=tool)
                           if m.refused is None and m.kept is None else m for m in matches]
        # Not UTF-8, and a double-byte encoding reads it otherwise than Latin-1 (sweep/multibyte.py).
        double = (multibyte.readings(data) if (hit or loose_hit) and content.kind == "text"
                  and not data.isascii() else [])
        if double and hit:
            matches = multibyte.checked(data, matches, double,
                                        lambda b: find(b, fmt.name_starts(b) if fmt is not None else ()))
        if wide:
            covered = {(m.start, m.end) for m in matches}
            matches = sorted([*matches, *(m for m in wide_matches(self.matcher, data)
                                          if (m.start, m.end) not in covered)], key=lambda m: m.start)
        if content.kind == "binary" and not matches:  # `web0110.0.0.70` of a SQLite row, a .gz's text
            matches = binary_hits(data, self.matcher, self.project.config.max_file_size)
        if content.kind in ("binary", "encoding"):
            note = (f"{content.detail} text is not rewritten" if content.kind == "encoding"
                    else "binary file (NUL bytes): never rewritten")
            if matches and matches[0].note:
                note = f"{note}; {matches[0].note}"
            lines = Lines(data)
            spots = lines.locate([m.start for m in matches])
            refs = [self._reference(rel, lines, m, spots[i], SKIPPED, content.kind, note)
                    for i, m in enumerate(matches)]
            if content.kind == "binary":  # a binary "line" is noise in a report
                refs = [replace(r, text="") for r in refs]
            return FileResult(rel, content.kind, status, tuple(refs), new_path=new_path,
                              near_misses=tuple(path_near), mode=content.mode)
        near = self._near_misses(rel, data, matches, loose=self.options.loose, any_case=any_case,
                                 zone_like=zone_like and b"\\" in data, double=double) \
            if status != RECORD and (hit or loose_hit) else []
        near = path_near + near
        if templated and status != RECORD:
            near += self._templated_notes(rel, data, templated)
        if not matches and not inserts:  # a `moved` block alone: a key spelled in another file moved
            return FileResult(rel, content.kind, status, tuple(path_refs), new_path=new_path,
                              near_misses=tuple(near), mode=content.mode)
        fmt = fmt or format_of(rel, data)
        refs, edits, refused = self._decide(rel, fmt, data, matches, klass, inserts)
        serial = None
        if edits:
            edits, serial = with_serial(fmt, data, edits)
            edits = with_serials(rel, data, edits)  # a role's zone list's `serial:`
            edits = with_lengths(data, edits)
            edits, measured = with_digests(data, edits)  # a WARC record's digests (g31)
            refused = refused or measured or measured_problem(data, edits)
        digest = hashlib.sha1(data).hexdigest() if edits else ""
        return FileResult(rel, content.kind, status, tuple(path_refs + refs), tuple(edits),
                          new_path, tuple(near), digest, content.mode, refused, serial)

    # -- decisions -------------------------------------------------------------------------

    def _decide(self, rel: str, fmt: Format, data: bytes, matches: list[Match], klass: FileClass,
                inserts: list[Edit] | None = None) -> tuple[list[Reference], list[Edit], str | None]:
        lines = Lines(data)
        spots = lines.locate([m.start for m in matches])  # once: a dense file holds millions
        locate = self.options.locate and (klass.status != RECORD or self.options.locate_records)
        # Python roles decide edits in current files and locate references: parse once.
        roles = self._python_roles(fmt, data, matches) if klass.status == CURRENT or locate else None
        locations = self._locations(fmt, data, lines, matches, roles) if locate else None
        if klass.status in (RECORD, UNCLASSIFIED):
            status = KEPT if klass.status == RECORD else UNCLASSIFIED_STATUS
            reason = klass.reason if klass.status == RECORD else None
            as_found = [self._reference(rel, lines, m, spots[i], status, reason, klass.note,
                                        locations[i] if locations else None)
                        for i, m in enumerate(matches)]
            return as_found, [], None
        wanted = [spot[0] for spot in spots]
        exemptions = self.project.classifier.line_exemptions(rel, lines.texts(), wanted)
        refs: list[Reference] = []
        pending: list[tuple[int, Match]] = []
        broken: str | None = None
        for i, m in enumerate(matches):
            where = locations[i] if locations else None
            if roles is not None and where is None:
                where = (None, roles[i])
            exempt = exemptions.get(wanted[i])
            if m.refused == "kept-reference":  # kept on purpose, but what it reads moves: refused
                refs.append(self._reference(rel, lines, m, spots[i], RESIDUAL, m.refused, m.note or "",
                                            where))
                broken = broken or f"line {spots[i][0] + 1}: {m.note}"
            elif exempt is not None:
                refs.append(self._reference(rel, lines, m, spots[i], KEPT, exempt.reason, exempt.note,
                                            where))
            elif m.kept is not None:
                note = f"{m.note}; {KEPT_NOTES[m.kept]}" if m.note else KEPT_NOTES[m.kept]
                refs.append(self._reference(rel, lines, m, spots[i], KEPT, m.kept, note, where))
            elif m.refused is not None:
                hint = (state_names.hint(m.note or "") if m.refused == state_names.HELD
                        else REFUSED_HINTS[m.refused])
                refs.append(self._reference(rel, lines, m, spots[i], RESIDUAL, m.refused,
                                            f"{m.note}; {hint}" if m.note else hint, where))
            elif roles is not None and roles[i] in ("identifier", "code"):
                hint = IDENTIFIER_HINT if roles[i] == "identifier" else CODE_HINT
                refs.append(self._reference(rel, lines, m, spots[i], RESIDUAL, roles[i], hint, where))
            else:
                pending.append((len(refs), m))
                note = (f"{m.note}; `renamer sweep` rewrites it" if m.note  # a key reference, a zone
                        else "current-state file: `renamer sweep` rewrites it")  # spelling: says why
                refs.append(self._reference(rel, lines, m, spots[i], RESIDUAL, None, note, where))
        if inserts:  # a `moved` block only for an instance whose every span here is rewritten
            inserts = self._whole_instances(rel, matches, refs, pending, inserts)
        if broken is not None:
            return refs, [], broken
        if not self.options.edits and not fmt.needs_edits and not (
                fmt.checks_edits and any(new.encode() in data for new in {m.new for _, m in pending})):
            return refs, [], None  # a dense file holds millions: a report needs none of them
        edits = [Edit(m.start, m.end, m.new.encode("ascii")) for _, m in pending]
        merges = self.project.config.renames.merges
        # A renamed key may meet its new name standing already (two machines under one name), in
        # any spelling its reader takes for the same (escaped, another case, another address form).
        standing = may_stand(data, {e.new.decode("ascii") for e in edits})  # each new value once
        held = (lambda new: self._held_before(rel, new))  # noqa: E731
        refused = (merge_problem(data, edits, merges, fmt, held) if merges or standing else None)
        if refused is None:
            refused = self._structure_problem(fmt, data, edits, partial=len(pending) < len(matches))
            # The parser names one place, on its own line: name both lines of every place.
            places = (merge_problem(data, edits, merges, fmt, held, parsed=True)
                      if refused and standing else None)
            refused = f"{refused} ({places})" if refused and places else refused
        if refused:
            own = self._line_problems(fmt, data, edits) if len(pending) > 1 else {}
            # A line fine on its own is left with the file: it says which line refused the file.
            first = min((line for line, why in own.items() if why == refused), default=None)
            shared = f"the whole file is left as it is: line {first}: {refused}" if first else refused
            for index, _ in pending:
                refs[index] = replace(refs[index], reason="structure",
                                      note=own.get(refs[index].line, shared))
            edits = []
        elif inserts:  # a renamed Terraform label's or instance key's `moved` block
            # (sweep/terraform_labels.py, terraform_keys.py: a key spelled elsewhere moves this file's)
            edits = sorted([*edits, *inserts], key=lambda e: e.start)
        return refs, edits, refused

    def _whole_instances(self, rel: str, matches: list[Match], refs: list[Reference],
                         pending: list[tuple[int, Match]], inserts: list[Edit]) -> list[Edit]:
        """The final consistency pass of a file's instance keys (sweep/terraform_keys.py): an
        instance moving by its verdict, whose key or a reference here ends up not rewritten (kept,
        refused or residual by any rule after the Terraform hook: case_in_records, computed or
        completed addresses, an exempt line...), is held whole in this file: its `moved` block is
        dropped and each of its spans here is refused. `refs[i]` is `matches[i]`'s reference."""
        spans = [(s, e, i) for s, e, i, role in self.instance_keys.spans(rel) if role in ("word", "ref")
                 and i.verdict is not None and i.verdict.action == "moves"]
        if not spans:
            return inserts
        rewritten = {index for index, _ in pending}
        held: dict[int, tuple[Instance, str]] = {}  # id(instance) -> the instance, why
        for i, m in enumerate(matches):
            if i in rewritten:
                continue
            for start, end, instance in spans:
                if m.start < end and start < m.end and id(instance) not in held:
                    held[id(instance)] = (instance, f"line {refs[i].line} ({refs[i].reason or 'kept'})")
        if not held:
            return inserts
        for index, m in list(pending):
            for start, end, instance in spans:
                if id(instance) in held and m.start < end and start < m.end:
                    note = (f"held with {instance.old_address}, not rewritten at {held[id(instance)][1]}; "
                            f"{REFUSED_HINTS['terraform-label']}")
                    refs[index] = replace(refs[index], reason="terraform-label", note=note)
                    pending.remove((index, m))
                    break
        out = []
        for edit in inserts:
            text = edit.new
            for instance, _why in held.values():
                if instance.moved_at is not None and instance.moved_at[:2] == (rel, edit.start):
                    text = text.replace(moved_text(instance), b"", 1)
            if text or edit.start != edit.end:  # (an undo's inverse `moved` block removed: no text)
                out.append(Edit(edit.start, edit.end, text))
        return out

    def _before_terraform(self, rel: str) -> list[Match]:
        """A Terraform file's matches as the rules before the Terraform hook decide them (key
        references and holds, composed names, loop holds): a `for_each` key one of them holds is
        held with its references in every file (sweep/terraform_keys.py)."""
        if rel not in self._before:
            try:
                data = read_scanned(self.project.root / rel)
            except OSError:
                data = b""
            matches = self.matcher.find(data)
            if matches and self.project.classifier.classify(rel).status == CURRENT:
                matches = key_matches(data, rel, matches, self.keys)
                matches = self.keys.hold(rel, data, matches)
                matches, _ = composed_matches(data, matches, self.matcher.hosts, self.definitions, rel,
                                              self._kept_at(rel, data))
                matches = self.loop_holds.hold(rel, data, matches)
            self._before[rel] = matches
        return self._before[rel]

    def _kept_at(self, rel: str, data: bytes) -> Callable[[int], str | None]:
        """What keeps the line at an offset of `data` (the inline marker, a keep rule), or None."""
        lines = Lines(data)

        def at(offset: int) -> str | None:
            index = lines.locate([offset])[0][0]
            found = self.project.classifier.line_exemptions(rel, lines.texts(), [index])
            return found[index].reason if index in found else None
        return at

    def _held_before(self, rel: str, value: str) -> bool:
        """Whether `rel` held new value `value` before this move's first commit (every file did,
        where no commit of the move is known): after the move, only such a name collides."""
        parent = self.options.before_move
        if parent is None:
            return True
        if value not in self._held:
            self._held[value] = vcs_status.files_holding(self.project.root, parent, value) or frozenset()
        return rel in self._held[value]

    def _python_roles(self, fmt: Format, data: bytes, matches: list[Match]) -> list[str] | None:
        roles = fmt.roles(data, [(m.start, m.end) for m in matches])
        if roles is not None:
            work.add("python parses")
        return roles

    def _structure_problem(self, fmt: Format, data: bytes, edits: list[Edit], *, partial: bool) -> str | None:
        """Parse only when an edit could change structure: in a format with a parser that knows
        keys (YAML, JSON, TOML, INI) wherever an edit may stand in a key (`_in_key`: what loaded
        before the edit must load after it with as
        many keys per mapping, whatever spelling a standing key has: `"fv\\u002dml1"`, a TOML
        dotted key `fv-ml1.fv = {..}` that a renamed `fv-ml1.fv.lan` would overwrite; issue 27,
        break-it 1 and 2); elsewhere (key-like lines of plain text) when a value that the format
        might read as another type, a new value already present (a renamed key could collide), a
        partial edit set (a kept alias whose anchor is renamed), an anchor, alias or INI section
        renamed, or a template (its keys are no parser's). Only files the sweep changes are parsed."""
        if not fmt.checks_edits or not edits:
            return None
        news = {e.new for e in edits}
        sources: dict[bytes, set[bytes]] = {}
        for e in edits:
            sources.setdefault(e.new, set()).add(data[e.start:e.end])
        merged = any(len(olds) > 1 for olds in sources.values())  # two old keys could become one
        # An escaped new value (`fv\u002dml1`) may already stand in its plain spelling.
        escaped = any(b"\\" in n or b"%" in n or b"&#" in n for n in news)
        risky = (merged or escaped or any(n in data for n in news) or _first_wins(data, news)
                 # a Postfix table folds its keys: `App01` stands as `app01` (formats/map_files.py)
                 or (getattr(fmt, "fold", False) and any(n.lower() in data.lower() for n in news))
                 or any(fmt.retypes(n.decode()) for n in news)
                 or (partial and fmt.structured) or b"{%" in data or b"{{" in data
                 or any(_names(data, e.start) for e in edits)
                 # a key renamed, in a format whose parser knows keys: it may meet a standing key in
                 # any spelling, or a dotted key's table (parsing every changed file of those
                 # formats doubled a compose-heavy sweep; a value's edit changes no key)
                 or (fmt.keys and any(_in_key(data, e.start, e.end) for e in edits)))
        if not risky:
            return None
        before = data.decode("utf-8", "replace")
        after = apply_edits(data, edits).decode("utf-8", "replace")
        work.add("edit checks")
        return fmt.edit_problem(before, after)

    @staticmethod
    def _line_problems(fmt: Format, data: bytes, edits: list[Edit]) -> dict[int, str]:
        """Each refused line's own reason, where the format knows it (adversarial pass 2 B-19)."""
        if not fmt.checks_edits or not edits:
            return {}
        return fmt.line_problems(data.decode("utf-8", "replace"),
                                 apply_edits(data, edits).decode("utf-8", "replace"))

    def _locations(self, fmt: Format, data: bytes, lines: Lines, matches: list[Match],
                   roles: list[str] | None) -> list[tuple[str | None, str]] | None:
        if fmt.keys and len(data) <= LOCATE_LIMIT:
            text = data.decode("utf-8", "replace")
            offsets = [lines.char_offset(m.start) for m in matches]
            work.add("key path parses")
            return fmt.locate(text, offsets)
        if roles is not None:
            return [(None, role) for role in roles]
        return None

    # -- references ------------------------------------------------------------------------

    def _reference(self, rel: str, lines: Lines, m: Match, spot: Spot, status: RefStatus,
                   reason: str | None, note: str | None,
                   where: tuple[str | None, str] | None = None) -> Reference:
        index, line_start, column = spot
        text = lines.text(m.start, line_start) if self.options.texts else ""
        return Reference(rel, index + 1, column, m.old, m.new, status, reason, note, text,
                         where[0] if where else None, where[1] if where else None)

    def _skipped(self, rel: str, data: bytes, reason: str, note: str) -> list[Reference]:
        lines = Lines(data)
        matches = self.matcher.find(data)
        spots = lines.locate([m.start for m in matches])
        return [self._reference(rel, lines, m, spots[i], SKIPPED, reason, note)
                for i, m in enumerate(matches)]

    def _scan_large(self, rel: str, path: Path, size: str) -> Iterator[Reference]:
        """Stream a file over max_file_size: report its old values, never load it whole."""
        overlap = max((len(n) for n in self.matcher.needles), default=0) + 64
        note = f"{size}, over options.max_file_size: never rewritten"
        newlines_before, last_end = 0, -1
        for base, buf, final in chunks(path, overlap):
            limit = len(buf) if final else len(buf) - overlap
            for m in self.matcher.find(buf):
                if m.start >= limit or base + m.start < last_end:
                    continue
                last_end = base + m.end
                line = newlines_before + buf.count(b"\n", 0, m.start) + 1
                yield Reference(rel, line, 0, m.old, m.new, SKIPPED, "too-large", note)
            newlines_before += buf.count(b"\n", 0, max(limit, 0))

    def _lowered(self) -> tuple[str, int, str] | None:
        """The first line of the tree lower-casing a host's name at run time, or None (read once)."""
        if self._lowering is False:
            found = lowered_names.lowerings(self.project.root)
            self._lowering = found[0] if found else None
        return self._lowering if not isinstance(self._lowering, bool) else None

    def _new_path(self, rel: str) -> str | None:
        new = os.fsdecode(self.matcher.replace(os.fsencode(rel)))
        return new if new != rel else None

    def _host_vars_path(self, rel: str, new_path: str,
                        refs: list[Reference]) -> tuple[str | None, list[Reference]]:
        """`host_vars/pug.yml` keeps its name where the inventory keeps the host `pug`, and is a
        residual where the inventories disagree (break-it round 7, finding 1): renamed alone, the
        host would lose its vars. Either way the whole path stays as it is in this sweep."""
        decided = self.keys.host_path(rel)
        if decided is None or decided[0] == "follow":
            return new_path, refs
        if decided[0] == "keep":
            return None, [replace(r, status=KEPT, reason="key-of-record", note=decided[1]) for r in refs]
        return None, [replace(r, status=RESIDUAL, reason="key-reference", note=decided[1]) for r in refs]

    def _instance_path(self, rel: str, new_path: str,
                       refs: list[Reference]) -> tuple[str | None, list[Reference]]:
        """A systemd instance link keeps its name where its template composes a name from it that
        the rename would break (break-it round 8, finding 7): a `composed-name` residual."""
        note = instance_note(self.project.root, rel, self.matcher.hosts)
        if note is None:
            return new_path, refs
        return None, [replace(r, status=RESIDUAL, reason="composed-name", note=note) for r in refs]

    def _project_path(self, rel: str, new_path: str,
                      refs: list[Reference]) -> tuple[str | None, list[Reference]]:
        """A folder holding a compose file is its project's name (break-it round 10, finding 4):
        where a rename changes the name of a folder above `rel` that holds one, the file keeps its
        path, a `state-name` residual, so the folder is held whole."""
        old, new = rel.split("/")[:-1], new_path.split("/")[:-1]
        if len(old) != len(new):
            return new_path, refs
        for i in range(len(old)):
            if old[i] == new[i]:
                continue
            folder = "/".join(old[: i + 1])
            if folder not in self._project_folders:
                self._project_folders[folder] = state_names.folder_note(str(self.project.root), folder,
                                                                        self.project.config.terraform_dirs)
            note = self._project_folders[folder]
            if note is not None:
                why = f"{note}; {state_names.hint(note)}"
                return None, [replace(r, reason=state_names.HELD, note=why)
                              if r.status == RESIDUAL and r.reason is None else r for r in refs]
        return new_path, refs

    def _identities(self, rel: str, data: bytes, matches: list[Match]) -> list[Match]:
        """Occurrences in a Kubernetes object's identity (kube_identities.py): residuals `identity`,
        the consequence said, unless the sweep moves identities (`--allow-identity`); an external
        secret store's item, which no sweep moves, a `state-name` residual either way."""
        if not any(m.refused is None and m.kept is None for m in matches):
            return matches
        found = [i for i in kube_identities.identities(rel, data, self.kube_services())
                 if not self.options.allow_identity or i.field == kube_identities.STORED]
        if not found:
            return matches
        out = []
        for m in matches:
            what = next((i for i in found if i.start <= m.start and m.end <= i.end), None)
            if what is not None and m.refused is None and m.kept is None:
                held = state_names.HELD if what.field == kube_identities.STORED else kube_identities.IDENTITY
                m = replace(m, refused=held, note=what.note.replace("NAME", m.old))
            out.append(m)
        return out

    def kube_services(self) -> kube_identities.Services:
        """The Services the repo's live manifests define (their short DNS names are identities)."""
        if self._services is None:
            self._services = repo_services(self.project)
        return self._services

    def _state_names(self, rel: str, data: bytes, matches: list[Match]) -> list[Match]:
        """Occurrences in a name that keys state outside the repo (a compose project's, a volume's,
        a StatefulSet's, a Helm release's): residuals `state-name` (state_names.py)."""
        if not any(m.refused is None and m.kept is None for m in matches):
            return matches
        found = state_names.spans(rel, data)
        if not found:
            return matches
        out = []
        for m in matches:
            what = next((w for s, e, w in found if s <= m.start and m.end <= e), None)
            if what is not None and m.refused is None and m.kept is None:
                m = replace(m, refused=state_names.HELD, note=what.replace("NAME", m.old))
            out.append(m)
        return out

    def _path_references(self, rel: str, klass: FileClass, *, kept: bool) -> list[Reference]:
        status: RefStatus = RESIDUAL if klass.status == CURRENT else UNCLASSIFIED_STATUS
        reason, note = None, ("the file's path holds an old value: `renamer sweep` renames it"
                              if klass.status == CURRENT else klass.note)
        if kept:
            status, reason, note = KEPT, "keep-paths", "kept by keep_paths: only the contents follow"
        out = []
        for m in self.matcher.find(os.fsencode(rel)):
            if kept and m.kept is None and named_like(rel, m.start, m.end):  # break-it round 17, #21
                out.append(Reference(rel, 0, m.start + 1, m.old, m.new, KEPT, reason,
                                     NAMED_LIKE_NOTE.format(old=m.old), rel, None, "path"))
                continue
            if m.kept is not None:  # in a path too: /home/NAME/...
                out.append(Reference(rel, 0, m.start + 1, m.old, m.new, KEPT, m.kept, KEPT_NOTES[m.kept],
                                     rel, None, "path"))
            elif m.refused is not None and klass.status == CURRENT:
                out.append(Reference(rel, 0, m.start + 1, m.old, m.new, RESIDUAL, m.refused,
                                     REFUSED_HINTS[m.refused], rel, None, "path"))
            else:
                out.append(Reference(rel, 0, m.start + 1, m.old, m.new, status, reason, note, rel, None,
                                     "path"))
        return out

    def _path_near_misses(self, rel: str) -> list[NearMiss]:
        """An old name inside a longer name of the file's path (`bin/ssh-pug`, `backup-pug.tar`):
        a near-miss, as the same spelling in a file's text is. The exact rules rename a path only
        where a whole component (or its stem) is the old value, so a path like this was renamed by
        nobody and said by nobody (a trial on mholzen/init, `bin/ssh-ubuntu-1`). Line 0: the path."""
        data = os.fsencode(rel)
        taken = Spans([(m.start, m.end) for m in self.matcher.find(data)])
        out = []
        for start, end, spelling, like in self.project.loose.find(data, taken.spans):
            if taken.overlaps(start, end):
                continue
            before = data[max(0, start - 1):start].decode("latin-1")
            after = data[end:end + 8].decode("utf-8", "replace")
            if near_miss.in_identifier(spelling, like, before, after) or _opaque_like(data, start, end, like):
                continue
            why = near_miss.why(spelling, like, before, after)
            if why == "short-label" and not near_miss.short_label_said(spelling, like, any_case=False,
                                                                       path=rel, start=start):
                continue  # `puppet/modules/...`: the product's folder, not the host (round 23, finding 04)
            out.append(NearMiss(rel, 0, start + 1, spelling, like, "near-miss", rel,
                                f"{why}, in the path",
                                near_miss.name_around(data, start, end) if spelling == like else ""))
        if not out or self.project.classifier.near_miss_path_ignored(rel):
            return []
        ignore = self.project.allowlist.near_miss_ignore
        return [m for m in out if not any(p.fullmatch(m.text) for p in ignore)]

    def _near_misses(self, rel: str, data: bytes, matches: list[Match], *, loose: bool,
                     any_case: bool = False, zone_like: bool = False,
                     double: list[multibyte.Reading] | None = None) -> list[NearMiss]:
        """Derived-name candidates, and with `loose` what the looser pass finds besides.
        `any_case`: host names are DNS names (`PUG-X` in a zone is a derived name, as the sweep
        would rename it); `zone_like`: a zone holding escapes, whose escaped names are read
        decoded (`pug\\045x` is the derived name pug-x; `pug-x\\.y`, one label, is none)."""
        exact = [(m.start, m.end) for m in matches]
        if rel.endswith(".tf") and b"# renamer: move " in data:  # a `moved` block's tag: its history
            exact = sorted(exact + moved_tags.tag_spans(data))
        derived = self.matcher.derived_candidates(data, any_case=any_case)
        if zone_like and not self.matcher.derived_names:
            decoded, escaped = derived_in_zone(data, self.matcher, any_case=any_case)
            inside = Spans(escaped)
            derived = sorted([d for d in derived if not inside.overlaps(d[0], d[1])] + decoded)
        lines = Lines(data)
        out = []
        exact_spans = Spans(exact) if derived else None
        derived = [d for d in derived if exact_spans is None or not exact_spans.overlaps(d[0], d[1])]
        for start, end, name in derived:  # (a range such as web01-03 is a match, refused)
            like = next((old for old, _ in self.matcher.hosts if _derived_from(name, old)), name)
            if _opaque_like(data, start, end, like):
                continue
            line, column, text = lines.position(start)
            out.append(NearMiss(rel, line, column, name, like, "derived-name", text, "derived"))
        if loose:
            taken = Spans(exact + [(s, e) for s, e, _ in derived])
            for start, end, spelling, like in self.project.loose.find(data, taken.spans):
                if taken.overlaps(start, end):
                    continue
                line, column, text = lines.position(start)
                before = data[max(0, start - 1):start].decode("latin-1")
                after = data[end:end + 8].decode("utf-8", "replace")
                if near_miss.in_identifier(spelling, like, before, after):
                    continue  # NS1_ADDR, DDNS_NS1_PTR: a constant named for the host, no host name
                if _opaque_like(data, start, end, like):
                    continue  # `q2Xo_pug-8a9ZkLmN0pQ`: a token's letters (opaque.py), no name
                said = near_miss.short_label_said
                if near_miss.why(spelling, like, before, after) == "short-label" and not said(
                        spelling, like, any_case=any_case or zone_like or names_dns(rel),
                        before=data[max(0, start - 3):start].decode("latin-1"), after=after):
                    continue  # `Puppet::Parser`: another case outside DNS files (round 23, finding 04)
                out.append(NearMiss(rel, line, column, spelling, like, "near-miss", text,
                                    near_miss.why(spelling, like, before, after),
                                    near_miss.name_around(data, start, end) if spelling == like else ""))
            # A near-miss only a double-byte reading sees (`ホストPUG`: `…gPUG` byte by byte).
            hits = multibyte.near_hits(data, double or [], lambda b: self.project.loose.find(b, taken.spans))
            for start, end, spelling, like, label in hits:
                if taken.overlaps(start, end):
                    continue
                line, column, text = lines.position(start)
                out.append(NearMiss(rel, line, column, spelling, like, "near-miss", text,
                                    f"a whole name where the file is read as {label} (it is not UTF-8; "
                                    "byte by byte, a double-byte character's second byte joins the name)"))
            if hits:
                out.sort(key=lambda n: (n.line, n.column))
        return self._silenced(rel, data, out) if out else out

    def _templated_notes(self, rel: str, data: bytes, notes: list[TemplatedNote]) -> list[NearMiss]:
        """A templated name whose variable the repo defines nowhere: a near-miss (sweep/templated.py)."""
        lines = Lines(data)
        out = []
        for start, text, like, why in notes:
            line, column, line_text = lines.position(start)
            out.append(NearMiss(rel, line, column, text, like, "near-miss", line_text, why))
        return self._silenced(rel, data, out)

    def _silenced(self, rel: str, data: bytes, misses: list[NearMiss]) -> list[NearMiss]:
        """Near-misses the user decided about: on a line a keep rule or the inline marker
        exempts, or matched by the allowlist's `near_miss:` section."""
        allowlist = self.project.allowlist
        if self.project.classifier.near_miss_path_ignored(rel):
            return []
        texts = data.decode("utf-8", "replace").split("\n")
        exempt = self.project.classifier.line_exemptions(rel, texts, [m.line - 1 for m in misses])
        return [m for m in misses if m.line - 1 not in exempt
                and not any(p.fullmatch(m.text) for p in allowlist.near_miss_ignore)]


def repo_services(project: LoadedProject) -> kube_identities.Services:
    """The Services of the repo's live manifests (tracked ones in a git repo)."""
    files = vcs_listing.ls_files(project.root, "--cached") if project.git else None
    return kube_identities.services(str(project.root),
                                    lambda rel: project.classifier.classify(rel).status == CURRENT,
                                    project.config.max_file_size, files)


def _derived_from(name: str, old: str) -> bool:
    """Is `name` a derived name of the host `old`: `pug-ipmi` of `pug`, `pug-ipmi.ana.lan` of
    `pug.ana.lan` (its first label's, in its domain)?"""
    name, old = name.lower(), old.lower()
    if name.startswith(old + "-"):
        return True
    label, _, domain = old.partition(".")
    return bool(domain) and name.startswith(label + "-") and name.endswith("." + domain)


def _opaque_like(data: bytes, start: int, end: int, like: str) -> bool:
    """Whether the old value a loose hit resembles stands inside an opaque token there (a key, a
    hash: opaque.py), so that the hit is a token's letters, no near-miss."""
    at = data[start:end].lower().find(like.lower().encode("utf-8", "replace")) if like else -1
    return at != -1 and opaque(data, start + at, start + at + len(like)) is not None


# Lists whose reader matches a name in any case and takes its first entry (compose `extra_hosts`, a
# pod's `hostAliases`, /etc/ethers lines): a new value standing there in another case may collide.
_ETHERS_LINE = lazy_re.compile(rb"(?m)^[ \t]*[0-9A-Fa-f]{1,2}(?:[:-][0-9A-Fa-f]{1,2}){5}[ \t]")


def _first_wins(data: bytes, news: set[bytes]) -> bool:
    if b"extra_hosts" not in data and b"hostAliases" not in data and _ETHERS_LINE.search(data) is None:
        return False
    lowered = data.lower()
    return any(n.lower() in lowered for n in news)
