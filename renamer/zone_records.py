"""DNS names written as a zone and a name relative to it, by more tools (break-it round 16, finding 5).

Round 15 (finding 1) read Terraform's hashicorp/dns resources and OctoDNS zone files
(tool_names.py). The same pair is written by:

* DNSControl: `D("ana.lan", REG, DnsProvider(P), A("pug", "10.0.40.11"), CNAME("grafana", "pug"))`:
  a record's label and a target with no dot are names in the domain (a tag, `ana.lan!internal`,
  is no part of it; `D(DOMAIN, ...)` reads the file's `var DOMAIN = "ana.lan"`);
* Ansible modules: `zone:` / `zone_name:` beside `record:` / `prefix:` / `record_name:` /
  `name:` in one mapping (community.general.nsupdate, cloudflare_dns, ipa_dnsrecord,
  community.dns.hetzner_dns_record_set, win_dns_record...), block, flow or `key=value`; and
  `domain:` beside `hostname:` / `host:` (break-it round 19, #10: OPNsense's `unbound_host`,
  pfSense's `pfsense_dns_resolver` host overrides, a vars list of overrides), each flow mapping of
  a line read on its own;
* NixOS: `networking.hostName = "pug";` beside `networking.domain = "ana.lan";` (the machine's
  FQDN), spelled as attribute paths or inside `networking = { }`;
* ISC dhcpd: `option domain-name "ana.lan";` (or `ddns-domainname`) over a `host pug { }`
  declaration, its `option host-name "pug";` and `ddns-hostname "pug";` (the lease's name and the
  DDNS record), read through the braces: the innermost scope setting a domain wins;
* command lines (break-it round 17, #13): `pdnsutil add-record ana.lan pug A ...` (also
  `replace-rrset`, `delete-rrset`, `rrset add|replace|delete`), `knotc zone-set ana.lan pug ...`
  (`zone-unset`, `zone-get`), `samba-tool dns add dc1 ana.lan pug A ...` (`delete`, `update`,
  `query`), FreeIPA's `ipa dnsrecord-add ana.lan pug ...` (`-mod`, `-del`, `-show`), PowerShell's
  `Add-DnsServerResourceRecordA -ZoneName "ana.lan" -Name "pug"` (any `*-DnsServerResourceRecord*`
  cmdlet, its parameters in any order); a zone in a variable (`$ZONE`, `{{ zone }}`) is unread;
* Terraform record resources of other providers (`aws_route53_record`, `cloudflare_record`,
  `hetznerdns_record`, `digitalocean_record`, `azurerm_dns_a_record`, ...): `name = "pug"` with a
  zone written as a literal (`domain = "ana.lan"`, `zone_name = ...`) or a reference to a zone
  resource, data source, variable default or local of the module (`zone_id =
  aws_route53_zone.lan.zone_id`, whose `name = "ana.lan"`), in the file or another of its folder
  (sweep/zone_records.py reads those).

Each gives the host word's span and its zone; a zone the text names but this reader cannot read
(`zone: "{{ dns_zone }}"`, `zone_id = var.zone_id` with no default) is None, with the text that
names it: where the domain moves, the right name cannot be told. Whether a composition breaks is
sweep/zone_records.py's. Pure: bytes in, spans out.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass

from renamer import lazy_re
from renamer.loop_values import bracket_end

# One of these stands in every file `might_hold` accepts (the scan's prefilter words).
LITERALS = (b"D(", b"D_EXTEND(", b"zone", b"domain", b"pdnsutil", b"samba-tool", b"dnsrecord-",
            b"DnsServerResourceRecord", b"dnscmd", b"record-set", b"records", b"flarectl")
# The shapes themselves: a file holding a literal but none of these (`timezone:`) is no candidate.
_SHAPES = lazy_re.compile(
    rb"(?<![A-Za-z0-9_$.])D(?:_EXTEND)?[ \t]*\("  # DNSControl
    rb"|(?:^|[{,\s-])zone(?:_name)?[ \t]*[:=]"  # an Ansible task's `zone:`, `zone=`, Terraform's `zone =`
    rb"|(?:^|[{,\s-])[\"']?domain[\"']?[ \t]*:"  # an OPNsense / pfSense host override's `domain:`
    rb"|(?m:^)[ \t]*(?:zone_id|domain|domain_id|managed_zone)[ \t]*="  # Terraform, a Nix block
    rb"|networking\.domain|option[ \t]+domain-name[ \t]|ddns-domainname"
    rb"|(?<![A-Za-z0-9_-])(?:pdnsutil|knotc|samba-tool|ipa|dnscmd|az|doctl|flarectl)(?:\.exe)?[ \t]"  # a tool
    rb"|-DnsServerResourceRecord", re.MULTILINE)


def might_hold(data: bytes) -> bool:
    return any(word in data for word in LITERALS) and _SHAPES.search(data) is not None


@dataclass(frozen=True)
class Relative:
    """The host word at [start, end), a name relative to `zone` (None: the zone is not written
    where it can be read; `named` is the text naming it); `how` says where the zone comes from."""

    start: int
    end: int
    word: str
    zone: str | None
    how: str
    named: str = ""
    ref: str | None = None  # a Terraform reference another file of the module may answer


_DOMAIN = lazy_re.compile(r"[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+")


def _domain(text: str) -> str | None:
    text = text.strip().rstrip(".")
    return text if _DOMAIN.fullmatch(text) else None


def relatives(data: bytes, rel: str, words: Collection[str], *, domains: bool = True) -> Iterator[Relative]:
    """Every word of `words` written as a name relative to a zone in `data` (the file `rel`);
    `domains`: a `domain:` key names the zone of its mapping's `host:`/`hostname:` too."""
    if not might_hold(data):
        return
    if b"D(" in data or b"D_EXTEND(" in data:
        yield from _dnscontrol(data, words)
    if rel.endswith((".yml", ".yaml")) or b"zone=" in data:
        yield from _ansible(data, words, _ZONE_KEYS if domains else _ZONE_KEYS[:2])
    if rel.endswith(".nix"):
        yield from _nixos(data, words)
    if b"domain-name" in data or b"ddns-domainname" in data:
        yield from _dhcpd(data, words)
    if rel.endswith(".tf"):
        yield from _terraform(data, words)
    if _TOOLS.search(data) is not None:
        yield from _commands(data, words)


# DNS tools' command lines ----------------------------------------------------------------------

_TOOL_NAMES = rb"pdnsutil|knotc|samba-tool|ipa|dnscmd|az|doctl|flarectl"
_TOOLS = lazy_re.compile(
    rb"(?<![A-Za-z0-9_-])(?:" + _TOOL_NAMES + rb")(?:\.exe)?[ \t]|-DnsServerResourceRecord",
                    re.IGNORECASE)
_LINE_TOOL = lazy_re.compile(
    rb"(?<![A-Za-z0-9_/-])(?:[A-Za-z0-9_./\\:-]*[/\\])?(?P<tool>" + _TOOL_NAMES + rb")(?:\.exe)?[ \t]"
    rb"|(?P<cmdlet>(?:Add|Remove|Get|Set)-DnsServerResourceRecord[A-Za-z]*)", re.IGNORECASE)
# A shell word: quoted or bare, up to a blank, `;`, `|`, `&` or a line's end.
_WORD = lazy_re.compile(rb"\"(?P<dq>[^\"\r\n]*)\"|'(?P<sq>[^'\r\n]*)'|(?P<bare>[^\s;|&\"'`]+)")
# Where a tool's zone or name stands: the index among the words after the subcommand (options left
# out), or the options giving it (`--zone-name X`, `--zone-name=X`).
Spec = int | tuple[str, ...]
# (tool, subcommand words) -> (the zone's spec, the name's)
_SUBCOMMANDS: dict[tuple[bytes, ...], tuple[Spec, Spec]] = {
    **{(b"pdnsutil", s): (0, 1) for s in (b"add-record", b"replace-rrset", b"delete-rrset")},
    **{(b"pdnsutil", b"rrset", s): (0, 1) for s in (b"add", b"replace", b"delete")},
    **{(b"knotc", s): (0, 1) for s in (b"zone-set", b"zone-unset", b"zone-get")},
    **{(b"samba-tool", b"dns", s): (1, 2) for s in (b"add", b"delete", b"update", b"query")},
    **{(b"ipa", s): (0, 1)
       for s in (b"dnsrecord-add", b"dnsrecord-mod", b"dnsrecord-del", b"dnsrecord-show")},
    # Windows' dnscmd: `dnscmd dc1 /RecordAdd ana.lan pug A 10.0.40.11`
    **{(b"dnscmd", s): (0, 1) for s in (b"/recordadd", b"/recorddelete")},
    # Azure: `az network dns record-set a add-record -g rg -z ana.lan -n pug -a 10.0.40.11`
    (b"az", b"network", b"dns", b"record-set"): (("-z", "--zone-name"),
                                                 ("-n", "--name", "--record-set-name")),
    # DigitalOcean: `doctl compute domain records create ana.lan --record-name pug ...`
    **{(b"doctl", b"compute", b"domain", b"records", s): (0, ("--record-name",))
       for s in (b"create", b"update", b"delete")},
    # Cloudflare: `flarectl dns create --zone ana.lan --name pug --type A --content ...`
    **{(b"flarectl", b"dns", s): (("--zone",), ("--name",))
       for s in (b"create", b"create-or-update", b"update", b"delete")},
}


def _shell_words(line: bytes, start: int) -> list[tuple[str, int, int]]:
    """(value, start, end) of each word of `line` from `start`, the quotes left out of the span."""
    out = []
    for found in _WORD.finditer(line, start):
        group = next(g for g in ("dq", "sq", "bare") if found.group(g) is not None)
        if group == "bare" and found.group(group).startswith(b"#"):
            break  # a comment
        out.append((found.group(group).decode("utf-8", "replace"), found.start(group), found.end(group)))
    return out


def _commands(data: bytes, words: Collection[str]) -> Iterator[Relative]:
    offset = 0
    for line in data.split(b"\n"):
        for found in _LINE_TOOL.finditer(line):
            if found.group("cmdlet") is not None:
                yield from _cmdlet(line, offset, found, words)
            else:
                yield from _tool(line, offset, found, words)
        offset += len(line) + 1


def _flag(listed: list[tuple[str, int, int]], flags: tuple[str, ...]) -> tuple[str, int, int] | None:
    """The value an option of `flags` gives (`-z X`, `--zone-name=X`), or None."""
    for i, (word, start, end) in enumerate(listed):
        for flag in flags:
            if word == flag and i + 1 < len(listed):
                return listed[i + 1]
            if flag.startswith("--") and word.startswith(flag + "="):
                return word[len(flag) + 1:], start + len(flag) + 1, end
    return None


def _tool(line: bytes, offset: int, found: re.Match[bytes], words: Collection[str]) -> Iterator[Relative]:
    tool = found.group("tool").lower()
    listed = _shell_words(line, found.end())
    after = [w for w in listed if not w[0].startswith("-")]
    lowered = [w[0].encode().lower() for w in after]
    for key, (zone_spec, name_spec) in _SUBCOMMANDS.items():
        # the subcommand after the tool's options (an option's value is a word too: `-s SOCKET`)
        at = next((i for i in range(len(lowered)) if tuple(lowered[i:i + len(key) - 1]) == key[1:]), None)
        if key[0] != tool or at is None:
            continue
        rest = after[at + len(key) - 1:]
        zone = _flag(listed, zone_spec) if isinstance(zone_spec, tuple) else (
            rest[zone_spec] if zone_spec < len(rest) else None)
        name = _flag(listed, name_spec) if isinstance(name_spec, tuple) else (
            rest[name_spec] if name_spec < len(rest) else None)
        if zone is None or name is None:
            return
        ztext, (word, start, end) = zone[0], name
        if word in words:
            shown = " ".join(k.decode() for k in key)
            how = f"`{shown}`'s zone {ztext} (a name in that zone)"
            yield Relative(offset + start, offset + end, word, _zone_of(ztext), how, ztext)
        return


def _cmdlet(line: bytes, offset: int, found: re.Match[bytes], words: Collection[str]) -> Iterator[Relative]:
    values: dict[str, tuple[str, int, int]] = {}
    listed = _shell_words(line, found.end("cmdlet"))
    for i, (word, _, _) in enumerate(listed):
        lowered = word.lower()
        key, _, inline = lowered.partition(":")
        if key in ("-zonename", "-name"):
            if inline:  # `-ZoneName:ana.lan`
                at = listed[i][1] + len(key) + 1
                values[key] = (word[len(key) + 1:], at, listed[i][2])
            elif i + 1 < len(listed):
                values[key] = listed[i + 1]
    if "-zonename" in values and "-name" in values and values["-name"][0] in words:
        ztext = values["-zonename"][0]
        name, start, end = values["-name"]
        cmdlet = found.group("cmdlet").decode()
        yield Relative(offset + start, offset + end, name, _zone_of(ztext),
                       f"`{cmdlet} -ZoneName {ztext} -Name {name}` (a name in that zone)", ztext)


# DNSControl ----------------------------------------------------------------------------------

_D_CALL = lazy_re.compile(rb"(?<![A-Za-z0-9_$.])D(?:_EXTEND)?[ \t]*\([ \t\r\n]*"
                     rb"(?:(?P<q>['\"`])(?P<zone>[^'\"`\r\n]*)(?P=q)|(?P<var>[A-Za-z_$][A-Za-z0-9_$]*))")
_RECORD_CALL = lazy_re.compile(rb"(?<![A-Za-z0-9_$.])(?P<fn>[A-Z][A-Z0-9_]*)[ \t]*\(")
_JS_STRING = lazy_re.compile(rb"(?P<q>['\"`])(?P<value>[^'\"`\r\n]*)(?P=q)")
_NOT_RECORDS = frozenset({b"D", b"D_EXTEND", b"TTL", b"DefaultTTL", b"IP"})


def _js_var(data: bytes, name: bytes) -> str | None:
    found = re.search(rb"(?<![A-Za-z0-9_$.])(?:var|let|const)[ \t]+" + re.escape(name)
                      + rb"[ \t]*=[ \t]*(?P<q>['\"`])(?P<value>[^'\"`\r\n]*)(?P=q)", data)
    return found.group("value").decode("utf-8", "replace") if found is not None else None


def _dnscontrol(data: bytes, words: Collection[str]) -> Iterator[Relative]:
    for call in _D_CALL.finditer(data):
        if call.group("var") is not None:
            named = call.group("var").decode("utf-8", "replace")
            value = _js_var(data, call.group("var"))
        else:
            named = call.group("zone").decode("utf-8", "replace")
            value = named
        zone = _domain(value.split("!")[0]) if value is not None else None
        how = (f'`{call.group().decode("utf-8", "replace").strip()}` (a DNSControl domain: its records\' '
               "names and targets without a dot are names in it)")
        opened = data.index(b"(", call.start())
        end = bracket_end(data, opened, b"(")
        for record in _RECORD_CALL.finditer(data, call.end(), end):
            if record.group("fn") in _NOT_RECORDS:
                continue
            inner = record.end() - 1
            close = bracket_end(data, inner, b"(")
            for string in _JS_STRING.finditer(data, inner, close):
                word = string.group("value").decode("utf-8", "replace")
                if word in words:
                    yield Relative(string.start("value"), string.end("value"), word, zone, how, named)


# Ansible modules -----------------------------------------------------------------------------

_ZONE_KEYS = (b"zone", b"zone_name", b"domain")
_NAME_KEYS = (b"record", b"prefix", b"record_name", b"name")
# `domain:` makes a name of its mapping's host word only (`hostname:`, `host:`; a `name:` beside it
# is as often a task's or an object's own name).
_DOMAIN_NAME_KEYS = (b"hostname", b"host")
_FLOW_MAPPING = lazy_re.compile(rb"\{[^{}\r\n]*\}")
_YAML_KEY = lazy_re.compile(rb"^(?P<lead>[ \t]*(?:-[ \t]+)*)(?P<key>[A-Za-z0-9_.-]+)[ \t]*:(?:[ \t]+|$)"
                       rb"(?P<value>[^\r\n]*)")
_FLOW_PAIR = lazy_re.compile(rb"(?:^|[{,])[ \t]*(?P<key>[A-Za-z0-9_]+)[ \t]*:[ \t]*(?P<value>[^,{}\r\n]*)")
_KV_PAIR = lazy_re.compile(rb"(?:^|(?<=[ \t]))(?P<key>[A-Za-z0-9_]+)="
                      rb"(?P<value>\"[^\"\r\n]*\"|'[^'\r\n]*'|[^ \t\r\n]*)")


def _scalar(raw: bytes, offset: int) -> tuple[str, int, int]:
    """A YAML scalar's text and span (quotes and a trailing comment dropped)."""
    text = raw.split(b" #")[0].rstrip()
    lead = len(text) - len(text.lstrip())
    text = text.strip()
    start = offset + lead
    if len(text) >= 2 and text[:1] in (b'"', b"'") and text[-1:] == text[:1]:
        return text[1:-1].decode("utf-8", "replace"), start + 1, start + len(text) - 1
    return text.decode("utf-8", "replace"), start, start + len(text)


def _zone_of(value: str) -> str | None:
    return None if "{{" in value or "$" in value else _domain(value)


def _ansible(data: bytes, words: Collection[str], keys: tuple[bytes, ...]) -> Iterator[Relative]:
    lines = data.split(b"\n")
    offsets = [0]
    for line in lines[:-1]:
        offsets.append(offsets[-1] + len(line) + 1)
    for row, line in enumerate(lines):
        if b"zone" not in line and b"domain" not in line:
            continue
        if b"{" in line and b":" in line:  # `nsupdate: {zone: ana.lan, record: pug}`, each mapping alone
            for mapping in _FLOW_MAPPING.finditer(line):
                pairs = [(p.group("key"), p.group("value"), p.start("value"))
                         for p in _FLOW_PAIR.finditer(line, mapping.start(), mapping.end())]
                yield from _pairs(pairs, offsets[row], words, keys=keys)
        if b"zone=" in line:  # `nsupdate: zone=ana.lan record=pug`
            pairs = [(p.group("key"), p.group("value"), p.start("value")) for p in _KV_PAIR.finditer(line)]
            yield from _pairs(pairs, offsets[row], words, keys=keys)
        key = _YAML_KEY.match(line)
        if key is None or key.group("key") not in keys:
            continue
        column = key.start("key")
        siblings = _siblings(lines, row, column)
        yield from _pairs([(lines[r][m.start("key"):m.end("key")], m.group("value"), m.start("value"))
                           for r, m in siblings], 0, words, offsets, [r for r, _ in siblings], keys=keys)


def _pairs(pairs: list[tuple[bytes, bytes, int]], base: int, words: Collection[str],
           offsets: list[int] | None = None, rows: list[int] | None = None, *,
           keys: tuple[bytes, ...] = _ZONE_KEYS) -> Iterator[Relative]:
    zones = [(k, v, at) for k, v, at in pairs if k in keys]
    if len(zones) != 1:
        return
    zkey, zraw, _ = zones[0]
    ztext, _, _ = _scalar(zraw, 0)
    zone = _zone_of(ztext)
    if zone is None and "{{" not in ztext and "$" not in ztext:
        return  # a literal that is no domain (`zone: us-east-1a`): no DNS zone
    how = f"`{zkey.decode()}: {ztext}` of the same task (a name in that zone)"
    names = _DOMAIN_NAME_KEYS if zkey == b"domain" else _NAME_KEYS + _DOMAIN_NAME_KEYS
    for i, (key, raw, at) in enumerate(pairs):
        if key not in names:
            continue
        start0 = base + at if offsets is None or rows is None else offsets[rows[i]] + at
        text, start, end = _scalar(raw, start0)
        if text in words:
            yield Relative(start, end, text, zone, how, ztext)


def _siblings(lines: list[bytes], row: int, column: int) -> list[tuple[int, re.Match[bytes]]]:
    """The keys of the block mapping holding the key at (`row`, `column`): each line's match."""
    out: list[tuple[int, re.Match[bytes]]] = []
    first = _YAML_KEY.match(lines[row])
    for step in (-1, 1) if first is None or b"-" not in first.group("lead") else (1,):
        at = row if step == 1 else row - 1
        while 0 <= at < len(lines):
            line = lines[at]
            stripped = line.strip()
            if not stripped or stripped.startswith(b"#"):
                at += step
                continue
            indent = len(line) - len(line.lstrip(b" \t-"))
            found = _YAML_KEY.match(line)
            if found is not None and found.start("key") == column:
                out.append((at, found))
                if step == -1 and b"-" in found.group("lead"):
                    break  # a list item's first key: the mapping starts here
                if step == 1 and at != row and b"-" in found.group("lead"):
                    break  # the next item
            elif indent < column:
                break
            at += step
    return sorted(out, key=lambda pair: pair[0])


# NixOS ---------------------------------------------------------------------------------------

_NIX_NETWORKING = lazy_re.compile(rb"(?<![A-Za-z0-9_.-])networking[ \t]*=[ \t]*\{")
_NIX_ATTR = lazy_re.compile(rb"(?<![A-Za-z0-9_.-])(?P<path>(?:networking\.)?(?:hostName|domain))[ \t]*=[ \t]*"
                       rb"\"(?P<value>[^\"\r\n$]*)\"[ \t]*;")


def _nixos(data: bytes, words: Collection[str]) -> Iterator[Relative]:
    if b"hostName" not in data or b"domain" not in data:
        return
    blocks = [(b.end() - 1, bracket_end(data, b.end() - 1, b"{")) for b in _NIX_NETWORKING.finditer(data)]
    names: list[re.Match[bytes]] = []
    domains: list[str] = []
    for attr in _NIX_ATTR.finditer(data):
        path = attr.group("path")
        if not path.startswith(b"networking.") and not any(s < attr.start() < e for s, e in blocks):
            continue
        if path.endswith(b"hostName"):
            names.append(attr)
        else:
            domains.append(attr.group("value").decode("utf-8", "replace"))
    if len(set(domains)) != 1:
        return
    zone = _domain(domains[0])
    for name in names:
        word = name.group("value").decode("utf-8", "replace")
        if word in words:
            yield Relative(name.start("value"), name.end("value"), word, zone,
                           f'`networking.domain = "{domains[0]}"` of the same configuration (the machine\'s '
                           "FQDN is hostName.domain)", domains[0])


# ISC dhcpd -----------------------------------------------------------------------------------

_DHCPD_DOMAIN = lazy_re.compile(rb"(?:option[ \t]+domain-name|ddns-domainname)[ \t]+"
                           rb"\"(?P<value>[^\"\r\n]*)\"[ \t]*;")
_DHCPD_HOST = lazy_re.compile(rb"(?<![A-Za-z0-9_-])host[ \t]+(?P<value>[A-Za-z0-9_.-]+)[ \t]*\{")
_DHCPD_NAME = lazy_re.compile(
    rb"(?:option[ \t]+host-name|ddns-hostname)[ \t]+\"(?P<value>[^\"\r\n]*)\"[ \t]*;")


def _scopes(data: bytes) -> list[tuple[int, int]]:
    """Each brace block's span (comments skipped), outermost first."""
    out: list[tuple[int, int]] = []
    stack: list[int] = []
    at = 0
    quoted = False
    while at < len(data):
        byte = data[at]
        if quoted:
            quoted = byte != 0x22
        elif byte == 0x22:
            quoted = True
        elif byte == 0x23:  # `#` to the end of the line
            line_end = data.find(b"\n", at)
            at = len(data) if line_end < 0 else line_end
            continue
        elif byte == 0x7B:
            stack.append(at)
        elif byte == 0x7D and stack:
            out.append((stack.pop(), at))
        at += 1
    return sorted(out)


def _dhcpd(data: bytes, words: Collection[str]) -> Iterator[Relative]:
    scopes = _scopes(data)
    # The domain each scope sets itself (-1: the file's top level).
    domains: dict[int, str] = {}
    for found in _DHCPD_DOMAIN.finditer(data):
        if data.rfind(b"#", data.rfind(b"\n", 0, found.start()) + 1, found.start()) >= 0:
            continue
        enclosing = [s for s, e in scopes if s < found.start() < e]
        value = found.group("value").decode("utf-8", "replace")
        domains.setdefault(enclosing[-1] if enclosing else -1, value)
    if not domains:
        return
    # A host declaration's own block counts: its `option domain-name` applies to it.
    spans = [(m.start("value"), m.end("value"), m.group("value"), m.start(), m.end() - 1)
             for m in _DHCPD_HOST.finditer(data)]
    spans += [(m.start("value"), m.end("value"), m.group("value"), m.start(), -1)
              for m in _DHCPD_NAME.finditer(data)]
    for start, end, raw, at, own in sorted(spans):
        word = raw.decode("utf-8", "replace")
        if word not in words:
            continue
        enclosing = [s for s, e in scopes if s < at < e or s == own]
        domain = next((domains[s] for s in reversed(enclosing) if s in domains), domains.get(-1))
        if domain is None:
            continue
        yield Relative(start, end, word, _domain(domain),
                       f'`option domain-name "{domain}"` of the dhcpd scope (the lease\'s and the DDNS '
                       "record's name is the host's name in it)", domain)


# Terraform record resources of other providers -----------------------------------------------

_TF_BLOCK = lazy_re.compile(rb"^[ \t]*(?P<kind>resource|data)[ \t]+\"(?P<type>[A-Za-z0-9_]+)\"[ \t]+"
                       rb"\"(?P<label>[A-Za-z0-9_-]+)\"[ \t]*\{", re.MULTILINE)
_RECORD_TYPE = lazy_re.compile(rb"record|dns|host_override|unbound")
_TF_ATTR = lazy_re.compile(rb"^[ \t]*(?P<key>[A-Za-z0-9_]+)[ \t]*=[ \t]*"
                      rb"(?P<value>\"[^\"\r\n]*\"|[A-Za-z0-9_.\[\]\"-]+)", re.MULTILINE)
_TF_NAME_KEYS = (b"name", b"subdomain", b"hostname")
_TF_ZONE_KEYS = (b"zone", b"zone_name", b"domain", b"zone_id", b"domain_id", b"managed_zone")
_TF_REF = lazy_re.compile(
    r"(?:(?P<data>data)\.)?(?P<type>[A-Za-z0-9_]+)\.(?P<label>[A-Za-z0-9_-]+)(?:\[[^\]]*\])?"
                     r"(?:\.[A-Za-z0-9_]+)?")


def _terraform(data: bytes, words: Collection[str]) -> Iterator[Relative]:
    for block in _TF_BLOCK.finditer(data):
        kind, rtype = block.group("kind"), block.group("type")
        if kind != b"resource" or rtype.startswith(b"dns_") or not _RECORD_TYPE.search(rtype):
            continue  # hashicorp/dns's `dns_*` records: tool_names._dns_records
        opened = block.end() - 1
        body_end = bracket_end(data, opened, b"{")
        attrs = list(_TF_ATTR.finditer(data, opened + 1, body_end))
        zones = [a for a in attrs if a.group("key") in _TF_ZONE_KEYS]
        if not zones:
            continue
        zattr = zones[0]
        raw = zattr.group("value").decode("utf-8", "replace")
        zone: str | None = None
        ref: str | None = None
        if raw.startswith('"'):
            zone = _domain(raw[1:-1]) if "${" not in raw else None  # a zone id (`"Z0123..."`): unread
        else:
            ref = raw
            zone = resolve(ref, [data])
        named = f"{zattr.group('key').decode()} = {raw}"
        how = f"`{named}` of the same record (a name in that zone)"
        for attr in attrs:
            value = attr.group("value")
            if attr.group("key") not in _TF_NAME_KEYS or not value.startswith(b'"'):
                continue
            word = value[1:-1].decode("utf-8", "replace")
            if word in words:
                start = attr.start("value") + 1
                yield Relative(start, start + len(value) - 2, word, zone, how, named,
                               ref if zone is None else None)


def resolve(ref: str, texts: Iterable[bytes]) -> str | None:
    """The domain a Terraform reference names (`aws_route53_zone.lan.zone_id`: that zone's `name`,
    `domain` or `zone`; `var.zone`: its default; `local.zone`: its value) in the module's `texts`."""
    found = _TF_REF.fullmatch(ref)
    if found is None:
        return None
    rtype, label = found.group("type"), found.group("label")
    for text in texts:
        if rtype == "var" and found.group("data") is None:
            block = re.search(rb"variable[ \t]+\"" + re.escape(label.encode()) + rb"\"[ \t]*\{", text)
            if block is not None:
                body = text[block.end() - 1:bracket_end(text, block.end() - 1, b"{")]
                default = re.search(rb"(?m)^[ \t]*default[ \t]*=[ \t]*\"(?P<v>[^\"\r\n$]*)\"", body)
                return _domain(default.group("v").decode("utf-8", "replace")) if default is not None else None
            continue
        if rtype == "local" and found.group("data") is None:
            for locals_block in re.finditer(rb"(?m)^[ \t]*locals[ \t]*\{", text):
                body = text[locals_block.end() - 1:bracket_end(text, locals_block.end() - 1, b"{")]
                value = re.search(rb"(?m)^[ \t]*" + re.escape(label.encode())
                                  + rb"[ \t]*=[ \t]*\"(?P<v>[^\"\r\n$]*)\"", body)
                if value is not None:
                    return _domain(value.group("v").decode("utf-8", "replace"))
            continue
        kind = b"data" if found.group("data") else b"resource"
        block = re.search(rb"(?m)^[ \t]*" + kind + rb"[ \t]+\"" + re.escape(rtype.encode()) + rb"\"[ \t]+\""
                          + re.escape(label.encode()) + rb"\"[ \t]*\{", text)
        if block is None:
            continue
        body = text[block.end() - 1:bracket_end(text, block.end() - 1, b"{")]
        for key in (b"name", b"domain", b"zone"):
            value = re.search(rb"(?m)^[ \t]*" + key + rb"[ \t]*=[ \t]*\"(?P<v>[^\"\r\n$]*)\"", body)
            if value is not None:
                return _domain(value.group("v").decode("utf-8", "replace"))
        return None
    return None
