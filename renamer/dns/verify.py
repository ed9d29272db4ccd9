"""Ask each resolver directly (dnspython, its address and port) whether it serves the inventory.

No system resolver, no search domains, no cache: every name is sent fully
qualified to exactly one server. The querier is injected (dns/query.py holds
the real one), so the comparison logic is tested with a fake and the whole
with a real resolver.
"""

from __future__ import annotations

import concurrent.futures
import ipaddress
import time
from collections import Counter
from collections.abc import Callable, Sequence

from renamer import work
from renamer.clock import shown_time
from renamer.dns.answers import NONE, NXDOMAIN, Answer, Check, Expectation, NoAnswer, Querier, ResolverReport
from renamer.dns.backend import backend_for
from renamer.dns.inventory import Inventory, Resolver, Site
from renamer.forked import available_cores, can_fork, fork_map

_TYPES = ("A", "AAAA")  # by family: _TYPES[address.version == 6]


def expectations(inventory: Inventory, resolver: Resolver) -> list[Expectation]:
    """Every check, for the sites this resolver serves, and what must be gone everywhere.

    Served sites: the canary (the resolver reads this very snippet), each host's A or AAAA
    exactly (no second value, none of the other family), its PTR naming the FQDN, each alias's
    A and AAAA the same way. Every resolver: retired names and renamer.yaml's old names resolve
    to nothing (neither A nor AAAA), and the PTR of an old address names no old host.

    A resolver with `manage: false` (a forwarder the site's clients use) is asked what those
    clients ask it: fully qualified names only (a client's search domain makes `fv-ml1` into
    `fv-ml1.fv.lan.` before it asks; a one-label name is no name a forwarder sends on), and
    the canary of any managed resolver serving the site, whichever it forwards to.
    """
    out = []
    served = [site for site in inventory.sites if site.name in resolver.sites]
    # one-label names are asked of the resolvers that hold the records, where their backend serves them
    short = resolver.manage and backend_for(resolver).short_names
    for site in served:
        name, digests = canaries(inventory, site, resolver)
        cname = cname_aliases(inventory, site, resolver)
        # a CNAME into another zone, answered alone by a server that does not follow it there
        alone = resolver.manage and not backend_for(resolver).follows_other_zones
        out.append(Expectation(f"{name} TXT (canary)", f"{name}.", "TXT", digests))
        for host in site.hosts:
            names = (f"{host.name}.", f"{site.fqdn(host.name)}.")
            # Each family exactly: a dual-stack host's A and AAAA, each its one address; a host
            # of one family has nothing of the other.
            wanted = {_TYPES[a.version == 6]: (str(a),) for a in host.addresses}
            asked = [(rdtype, wanted.get(rdtype, (NONE,))) for rdtype in _TYPES]
            for label, qname in ((host.name, names[0]), (site.fqdn(host.name), names[1]))[0 if short else 1:]:
                out += [Expectation(f"{label} {rdtype}", qname, rdtype, want) for rdtype, want in asked]
            for address in host.addresses:  # each address's PTR names the FQDN
                out.append(Expectation(f"{address} PTR", address.reverse_pointer + ".", "PTR", (names[1],)))
            for alias in host.aliases:
                out += _alias(f"{alias}.", f"{site.fqdn(alias)}.", names[1], asked, short, cname)
        for moved in site.transitional:  # an old name until its date: as an alias of its new host
            wanted = {_TYPES[a.version == 6]: (str(a),) for a in moved.addresses}
            asked = [(rdtype, wanted.get(rdtype, (NONE,))) for rdtype in _TYPES]
            # a resolver that does not serve the new host's site holds no address for it: the CNAME
            # is its part, the target's address that of the resolvers serving it (checked there)
            elsewhere = resolver.manage and moved.target_site not in resolver.sites
            out += _alias(f"{moved.name}.", f"{moved.fqdn}.", f"{moved.target}.", asked, short, cname,
                          f" (transitional until {shown_time(moved.expires)})", alone or elsewhere)
    gone: dict[str, None] = {}
    for site in inventory.sites:  # retired names must resolve nowhere, not only where they lived
        for name in site.retired:
            gone.update({f"{name}.": None, f"{site.fqdn(name)}.": None})
    current = {f"{n}." for site in inventory.sites for h in site.hosts for n in (h.name, site.fqdn(h.name))}
    for name in inventory.old_hosts:  # renamer.yaml's: as written, and a short one under every site's domain
        fqdns = [f"{name}.", *(f"{site.fqdn(name)}." for site in inventory.sites if "." not in name)]
        gone.update({fqdn: None for fqdn in fqdns if fqdn not in current})
    # The old address's PTR names no old name, one kept as a transitional alias included: the alias
    # keeps the name at the NEW address; reverse data of the old one naming it is stale (finding 7).
    forbidden = tuple(gone)
    # A transitional alias keeps alive exactly the names it is checked as, on the resolvers that
    # hold it (those serving its site): its FQDN, and its one-label name where they serve those.
    # Everywhere else, and every other form of the old name, it is still gone (findings 1, 6).
    alive = {f"{moved.fqdn}." for site in served for moved in site.transitional}
    alive |= {f"{moved.name}." for site in served for moved in site.transitional if short}
    gone = {name: None for name in gone if name.lower() not in alive}
    if not short:
        gone = {name: None for name in gone if "." in name[:-1]}
    local = tuple(f".{site.domain}." for site in served if site.authoritative)
    # Elsewhere, the alias's FQDN may still reach a client through this resolver (a forwarder that
    # sends ana.lan on to a resolver holding it): gone, or exactly the alias, never another value.
    relayed = {f"{moved.fqdn}.": moved for site in inventory.sites for moved in site.transitional}
    # Gone is asked of both families: a name that still answers an AAAA (or a CNAME, which either
    # question returns) is not gone, though it has no A.
    for name in gone:
        relay = relayed.get(name.lower())
        for rdtype in _TYPES:
            want = (NXDOMAIN,) if name.endswith(local) else (NONE,)
            if relay is None:
                out.append(Expectation(f"{name[:-1]} {rdtype} gone", name, rdtype, want))
                continue
            finals = tuple(str(a) for a in relay.addresses if _TYPES[a.version == 6] == rdtype)
            out.append(Expectation(f"{name[:-1]} {rdtype} gone (or its transitional alias)", name, rdtype,
                                   want, alias=(f"{relay.target}.", *finals)))
    addresses = {str(a) for site in inventory.sites for h in site.hosts for a in h.addresses}
    for old in inventory.old_addresses:
        if old not in addresses:
            pointer = ipaddress.ip_address(old).reverse_pointer + "."
            out.append(Expectation(f"{old} PTR (old)", pointer, "PTR", (NONE,), forbid=forbidden))
    return out


def _alias(short_name: str, fqdn: str, target: str, asked: Sequence[tuple[str, tuple[str, ...]]],
           short: bool, cname: bool | str, note: str = "", alone: bool = False) -> list[Expectation]:
    """An alias's checks, A and AAAA, for its one-label name (where the backend serves those) and
    its FQDN: its CNAME to `target` (an FQDN) and then the target's address of that family."""
    out = []
    for alias_name in (short_name, fqdn)[0 if short else 1:]:
        # The CNAME must point at the FQDN: a one-label target breaks behind a forwarder.
        # A backend that serves an alias as the host's own addresses: those, no CNAME.
        # Both families, exactly as the host's names: an alias of a v4-only host answers
        # no AAAA (a hand-written one beside renamer's records fails here).
        for rdtype, want in asked:
            if cname:
                label = f"{alias_name[:-1]} CNAME" + (" AAAA" if rdtype == "AAAA" else "") + note
                out.append(Expectation(label, alias_name, rdtype, want, via=(target,),
                                       via_optional=cname == EITHER, target_optional=alone))
            else:
                out.append(Expectation(f"{alias_name[:-1]} {rdtype} (alias){note}", alias_name, rdtype, want))
    return out


def canaries(inventory: Inventory, site: Site, resolver: Resolver) -> tuple[str, tuple[str, ...]]:
    """(TXT name, acceptable values) of a site's canary at `resolver`: its own rendering's; for a
    resolver renamer does not manage, that of any managed resolver serving the site."""
    if resolver.manage:
        name, digest = backend_for(resolver).canary(site, resolver)
        return name, (f'"{digest}"',)
    found = {backend_for(r).canary(site, r) for r in inventory.managed if site.name in r.sites}
    if not found:  # no managed resolver serves it: still a name, a value that cannot match
        return backend_for(None).canary(site, resolver)[0], ("(no managed resolver serves this site)",)
    return min(found)[0], tuple(sorted(f'"{digest}"' for _, digest in found))


EITHER = "either"  # cname_aliases: a CNAME or the host's addresses alone, whichever upstream answered


def cname_aliases(inventory: Inventory, site: Site, resolver: Resolver) -> bool | str:
    """Whether `resolver` answers the site's aliases with a CNAME (Backend.cname_aliases): its own
    backend's way; for a resolver renamer does not manage, that of the managed resolvers serving
    the site: a CNAME when all of them answer so (or none is managed), the addresses alone when
    none does, and EITHER for a mixed fleet (a forwarder asks one of them, whichever it picks)."""
    if resolver.manage:
        return backend_for(resolver).cname_aliases
    managed = {backend_for(r).cname_aliases for r in inventory.managed if site.name in r.sites}
    if len(managed) > 1:
        return EITHER
    return next(iter(managed), True)


def judge(expectation: Expectation, answer: Answer) -> Check:
    """Compare one answer with what the inventory says, and say what came back."""
    if expectation.want == (NONE,) and expectation.via:
        # An alias with nothing of this family: the CNAME to its host (where the backend answers
        # one), no record of the type, nothing else.
        cnames = [value for kind, value in answer.records if kind == "CNAME"]
        others = [value for kind, value in answer.records if kind != "CNAME"]
        shown = _show(answer) if answer.records else "no records"
        got = answer.rcode if answer.rcode != "NOERROR" else shown
        linked = cnames[0] in expectation.via if cnames else expectation.via_optional
        return Check(expectation, got, answer.rcode == "NOERROR" and not others and linked)
    if expectation.alias and answer.rcode == "NOERROR" and answer.records:
        # An old name relayed from a resolver that holds its transitional alias: that alias exactly,
        # the CNAME to its new FQDN and nothing but that host's addresses (or the CNAME alone).
        target, *finals = expectation.alias
        first, *rest = answer.records
        ok = first == ("CNAME", target) and all(kind == expectation.rdtype and value in finals
                                                for kind, value in rest)
        return Check(expectation, _show(answer), ok)
    if expectation.want in ((NXDOMAIN,), (NONE,)):
        # Gone: no record. NXDOMAIN where the domain is local; REFUSED where the name would be
        # forwarded and no upstream knows it; NODATA for the other family. SERVFAIL proves nothing.
        got = answer.rcode if answer.rcode != "NOERROR" or not answer.records else _show(answer)
        if expectation.forbid:
            return Check(expectation, got, not any(v in expectation.forbid for _, v in answer.records))
        if expectation.want == (NXDOMAIN,):  # in a domain the resolver answers for: NXDOMAIN only
            return Check(expectation, got, answer.rcode == NXDOMAIN)
        gone = answer.rcode in (NXDOMAIN, "REFUSED", "NOERROR") and not answer.records
        return Check(expectation, got, gone)
    if answer.rcode != "NOERROR":
        return Check(expectation, answer.rcode, False)
    if not answer.records:
        return Check(expectation, "no records (NODATA)", False)
    cnames = [value for kind, value in answer.records if kind == "CNAME"]
    finals = [value for kind, value in answer.records if kind == expectation.rdtype]
    reached = bool(finals) or (expectation.target_optional and bool(cnames))  # BIND: the CNAME alone
    ok = reached and all(v in expectation.want for v in finals)
    if expectation.via and (cnames or not expectation.via_optional):
        ok = ok and bool(cnames) and cnames[0] in expectation.via
    elif cnames:
        ok = False
    return Check(expectation, _show(answer), ok)


def _show(answer: Answer) -> str:
    return " -> ".join(value for _, value in answer.records)


def old_names_left(inventory: Inventory, left_in_place: Sequence[tuple[str, str, str]]) -> list[Expectation]:
    """For hand-written records an apply leaves in place (name, type, value): those whose owner is
    an old or retired name under a domain `expectations` does not ask (an operator's own zone:
    `srv-prod-3.home.example`) must be gone too; the apply's verify asks them, so it never says OK
    while they answer, and the plan predicts it (dns/served.py)."""
    gone = {n.lower() for n in inventory.old_hosts}
    for site in inventory.sites:
        gone |= {n.lower() for name in site.retired for n in (name, site.fqdn(name))}
    # A transitional alias within its window keeps alive its own FQDN and nothing else: the same
    # label under another domain (an operator's own zone) is an old name left answering (finding 1).
    alive = {moved.fqdn for site in inventory.sites for moved in site.transitional}
    out: dict[tuple[str, str], Expectation] = {}
    for name, rdtype, _ in left_in_place:
        if name.lower() in alive:
            continue
        if rdtype in (*_TYPES, "CNAME") and (name in gone or name.split(".", 1)[0] in gone):
            out[(name, rdtype)] = Expectation(f"{name} {rdtype} gone", f"{name}.", rdtype, (NONE,))
    return list(out.values())


def with_extra(checks: list[Expectation], extra: Sequence[Expectation]) -> list[Expectation]:
    """`checks`, then those of `extra` asking a question none of them asks."""
    asked = {(e.name, e.rdtype) for e in checks}
    return [*checks, *(e for e in extra if (e.name, e.rdtype) not in asked)]


def verify_resolver(inventory: Inventory, resolver: Resolver, querier: Querier,
                    extra: Sequence[Expectation] = ()) -> ResolverReport:
    report = ResolverReport(resolver)
    checks = with_extra(expectations(inventory, resolver), extra)
    if not checks:
        return report
    try:  # one query first: a dead resolver is named now, not once per check
        first = querier(checks[0].name, checks[0].rdtype)
    except NoAnswer:
        report.unreachable = f"{resolver.name} {resolver.endpoint}: no answer in {resolver.timeout:.1f} s"
        return report
    answers: list[Answer | None] = [first]
    rest = checks[1:]
    many = getattr(querier, "many", None)
    if many is not None:
        answers += many([(e.name, e.rdtype) for e in rest])
    else:
        for expectation in rest:
            try:
                answers.append(querier(expectation.name, expectation.rdtype))
            except NoAnswer:
                answers.append(None)
    for expectation, answer in zip(checks, answers, strict=True):
        if answer is None:
            report.checks.append(Check(expectation, f"no answer in {resolver.timeout:.1f} s", False))
        else:
            report.checks.append(judge(expectation, answer))
    return report


# Above this many checks in all, resolvers are verified in forked processes: building and
# parsing messages is CPU work that threads would serialise on the GIL.
PROCESSES_FROM = 3000


def verify_all(inventory: Inventory, resolvers: Sequence[Resolver],
               make_querier: Callable[[Resolver], Querier], workers: int = 8) -> list[ResolverReport]:
    """All resolvers at once (bounded), reports in the order given."""
    if not resolvers:
        return []

    def verify_one(resolver: Resolver) -> ResolverReport:
        return verify_resolver(inventory, resolver, make_querier(resolver))

    def verify_forked(resolver: Resolver) -> tuple[ResolverReport, Counter[str]]:
        counted = Counter(work.COUNTS)
        return verify_one(resolver), work.since(counted)  # the queries it asked, for -vv

    total = sum(len(expectations(inventory, r)) for r in resolvers)
    cores = available_cores()
    if total >= PROCESSES_FROM and len(resolvers) > 1 and cores > 1 and can_fork():
        reports = []
        for report, counted in fork_map(verify_forked, resolvers, min(cores, len(resolvers), workers)):
            work.merge(counted)
            reports.append(report)
        return reports
    with concurrent.futures.ThreadPoolExecutor(max_workers=min(workers, len(resolvers))) as pool:
        return list(pool.map(verify_one, resolvers))


def wait_until_answering(querier: Querier, deadline: float) -> bool:
    """After a restart: poll until the resolver answers anything, or the deadline passes."""
    end = time.monotonic() + deadline
    while True:
        try:
            querier("renamer-probe.invalid.", "A")
            return True
        except NoAnswer:
            if time.monotonic() >= end:
                return False
            time.sleep(0.1)
