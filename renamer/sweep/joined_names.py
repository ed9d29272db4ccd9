"""A host and its domain joined from two variables (break-it round 17, finding 2; the grammar is
composed_names.joins): `"${var.host}.${var.domain}"` and `join(".", [var.host, var.domain])` beside
`host = "pug"` in terraform.tfvars and `default = "ana.lan"`, Ansible's `"{{ app_host }}.{{
app_domain }}"`, compose's `${HOST}.${DOMAIN}` over `.env`. With `pug.ana.lan -> wolf.fv.lan` the
sweep rewrote the host half (`pug -> wolf`) and left the domain half, making wolf.ana.lan, a name
that does not exist, with verify OK.

Each pair of values the repo gives the two halves (sweep/templated.py's `Definitions`, the nearest
first) is joined: where the join spells an old FQDN and what the sweep leaves of the two halves
(each definition's fate: rewritten, kept, or unknown) does not join to its new name, the join is a
`composed-name` residual naming both definitions; nothing of it is written. A half that is the
machine's own name (`{{ inventory_hostname }}.{{ domain }}`, no definition of its own) holds every
moving host.
"""

from __future__ import annotations

from dataclasses import replace

from renamer import composed_names
from renamer.occurrences import Match
from renamer.sweep.composed import REASON, Known, fate_of

_Half = tuple[str, str, str]  # the value, where the repo gives it, its fate


def joined_matches(data: bytes, matches: list[Match], hosts: tuple[tuple[str, str], ...], definitions: Known,
                   rel: str = "") -> list[Match]:
    """`matches` with a `composed-name` residual for each host and domain variable pair whose join
    spells an old FQDN that the sweep would not make its new name."""
    renamed = dict(hosts)
    if not any("." in old.rstrip(".") for old in renamed):
        return matches
    joins = composed_names.joins(data)
    if not joins:
        return matches
    back = {new: old for old, new in renamed.items()}
    out = list(matches)
    added: list[Match] = []
    for joined in joins:
        inside = [i for i, m in enumerate(out) if m.start < joined.end and joined.start < m.end]
        if any(out[i].refused is not None or out[i].kept is not None for i in inside):
            continue
        found = _broken(joined, renamed, back, definitions, rel)
        if found is None:
            continue
        old, why = found
        note = (f"{joined.text} joins {old} (renamed {renamed[old]}) from two variables: {why}; give the "
                "moved host its own domain variable (or write its name out), then rerun the sweep")
        if inside:
            for i in inside:
                out[i] = replace(out[i], refused=REASON, note=note)
        else:
            added.append(Match(joined.start, joined.end, old, renamed[old], "host", refused=REASON,
                               note=note))
    if not added and out == matches:
        return matches
    return sorted([*out, *added], key=lambda m: m.start)


def _halves(variable: str, definitions: Known, rel: str) -> list[_Half]:
    found = definitions.values(variable, rel or None).found
    return [(r.value.strip().strip("'\""), r.why(), fate_of(r, definitions)) for r in found]


def _broken(joined: composed_names.Joined, renamed: dict[str, str], back: dict[str, str], definitions: Known,
            rel: str) -> tuple[str, str] | None:
    """The old FQDN the join spells and why it would not become its new name, else None."""
    hosts = _halves(joined.host.variables[0], definitions, rel)
    if not hosts and joined.host.builtin is not None:
        hosts = [(old.split(".")[0], f"`{joined.host.builtin}` is each host's own name", "rewritten")
                 for old in renamed if "." in old.rstrip(".")]
    domains = _halves(joined.domain, definitions, rel)
    for host, host_why, host_fate in hosts:
        for domain, domain_why, domain_fate in domains:
            if not joined.dot:  # `${HOST}${SUFFIX}`: only a suffix holding its own dot makes a name
                if not domain.startswith(".") or len(domain) < 2:
                    continue
                domain = domain[1:]
            source_host, source_domain = back.get(host, host), back.get(domain, domain)
            old = f"{source_host}.{source_domain}"
            if old not in renamed:
                continue
            after_host = renamed.get(source_host, source_host) if host_fate == "rewritten" else source_host
            after_domain = renamed.get(source_domain, source_domain) if domain_fate == "rewritten" \
                else source_domain
            if f"{after_host}.{after_domain}" == renamed[old] and "unknown" not in (host_fate, domain_fate):
                continue
            made = f"{after_host}.{after_domain}"
            fates = "; ".join(f"{why}{' (in a file no allowlist rule covers)' if fate == 'unknown' else ''}"
                              f"{', kept' if fate == 'kept' else ''}"
                              for why, fate in ((host_why, host_fate), (domain_why, domain_fate)))
            return old, f"{fates}; it would read {made}"
    return None
