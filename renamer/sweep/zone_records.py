"""A DNS name written as a zone and a relative name follows only where the name does (break-it
round 16, finding 5; the grammar is renamer/zone_records.py).

DNSControl's `A("pug", ...)` in `D("ana.lan", ...)`, an Ansible nsupdate/cloudflare/hetzner task's
`record: pug` beside `zone: ana.lan`, NixOS's `networking.hostName = "pug"` beside
`networking.domain = "ana.lan"`, dhcpd's `host pug { }` under `option domain-name "ana.lan"`, a
Route53 record `name = "pug"` in a zone whose `name = "ana.lan"`: each publishes pug.ana.lan.
Where the renames move it to another domain (`pug.ana.lan -> wolf.fv.lan`), the word rewritten
alone would publish wolf.ana.lan: a `composed-name` residual (as sweep/tool_names.py's), the word
left as it is; where the domain stays, the word follows. Where the zone is named but cannot be
read (a Jinja variable, `var.zone_id` with no default, a zone resource in no file of the module),
the right name cannot be told: the same residual, saying so, wherever the renames move the word's
host to another domain.
"""

from __future__ import annotations

import posixpath
from dataclasses import replace
from pathlib import Path

from renamer import tool_names, zone_records
from renamer.occurrences import Match
from renamer.sweep.tool_names import REASON, _refused, _words


def zone_record_matches(root: Path, data: bytes, rel: str, matches: list[Match],
                        hosts: tuple[tuple[str, str], ...]) -> list[Match]:
    """`matches` with each relative record name whose rename would publish a name that does not
    exist (or whose zone cannot be read while its host changes domain) refused. A `domain:` key
    makes its mapping's `host:` a name in that zone, but in a chart's values file, whose templates
    say how the two join (sweep/helm_tails.py reads them)."""
    if not zone_records.might_hold(data):
        return matches
    folder, name = posixpath.split(rel)
    domains = not (name.startswith("values") and (root / folder / "Chart.yaml").is_file())
    found = list(zone_records.relatives(data, rel, _words(hosts), domains=domains))
    if not found:
        return matches
    if any(f.ref is not None for f in found):
        module = _module_texts(root, rel, data)
        found = [replace(f, zone=zone_records.resolve(f.ref, module), ref=None) if f.ref is not None else f
                 for f in found]
    known = [tool_names.Composed(f.start, f.end, f.word, "", f".{f.zone}", f.how) for f in found
             if f.zone is not None]
    out = _refused(known, matches, hosts) if known else matches
    unread = [f for f in found if f.zone is None]
    return _unread(unread, out, hosts) if unread else out


def _module_texts(root: Path, rel: str, data: bytes) -> list[bytes]:
    """The file's own text, then the other `.tf` files of its folder (one Terraform module)."""
    texts = [data]
    folder, name = root / posixpath.dirname(rel), posixpath.basename(rel)
    try:
        others = sorted(p for p in folder.iterdir() if p.suffix == ".tf" and p.name != name)
    except OSError:
        return texts
    for path in others:
        try:
            texts.append(path.read_bytes())
        except OSError:
            continue
    return texts


def _moves(hosts: tuple[tuple[str, str], ...], word: str) -> tuple[str, str] | None:
    """(old FQDN, new FQDN) of a rename taking the host `word` to another domain, else None."""
    for old, new in hosts:
        head, dot, domain = old.rstrip(".").partition(".")
        if not dot or head != word:
            continue
        if new.rstrip(".").partition(".")[2] != domain:
            return old, new
    return None


def _unread(found: list[zone_records.Relative], matches: list[Match],
            hosts: tuple[tuple[str, str], ...]) -> list[Match]:
    renamed = dict(hosts)
    out = list(matches)
    for f in found:
        moves = _moves(hosts, f.word) if f.word in renamed else None  # a new word: the zone may be new too
        if moves is None:
            continue
        old, new = moves
        domain = old.rstrip(".").partition(".")[2]
        note = (f"`{f.word}` is a name relative to a zone ({f.how}) that cannot be read here (`{f.named}`): "
                f"where it is {domain}, this is {old}, renamed {new}, and the word rewritten alone would "
                f"publish {renamed.get(f.word, f.word)}.{domain}; check the zone and rename the pair by hand "
                "(or keep the line with a keep rule or the inline marker)")
        inside = [i for i, m in enumerate(out) if m.start < f.end and f.start < m.end]
        if any(out[i].refused is not None or out[i].kept is not None for i in inside):
            continue
        for i in inside:
            out[i] = replace(out[i], refused=REASON, note=note)
    return out
