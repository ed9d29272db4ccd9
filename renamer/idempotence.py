"""Renames that cannot be applied together, refused at load: chains and swaps, a new value an old
form would match again, one spelling claimed by two renames, overlapping networks, and anything a
second sweep would rewrite again."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from renamer.config import matcher_of
from renamer.formats.yaml_source import Problems, shown
from renamer.forms import Form
from renamer.match import Matcher
from renamer.names import parse_address

if TYPE_CHECKING:
    from renamer.config import Config

# What the checks found, per renames and matcher options (and whether the config had problems
# already): the same renames give the same findings, so a process that loads many projects
# (a library user, a campaign over repos, the test suite) runs the sample sweeps once per set of
# renames, not once per load (issue 30: 30 % of a small project's load). Bounded.
_Key = tuple[object, ...]
_FOUND: dict[_Key, tuple[tuple[str, str, str], ...]] = {}
_FOUND_MAX = 256


def check_idempotent(config: Config, top: dict[str, Any], problems: Problems) -> None:
    """Reject renames that cannot be applied together: chains and swaps, a new value an old
    form would match again, one spelling claimed by two renames, overlapping or merging
    networks, and anything a second sweep would rewrite again (checked on every form the
    matcher rewrites: variants, derived names, longer names that contain a key). The findings
    depend on the renames and the matcher's options alone."""
    renames = top.get("renames")
    if not isinstance(renames, dict):
        return
    key: _Key = (config.renames, config.derived_names, config.variants, config.accounts, bool(problems.items))
    found = _FOUND.get(key)
    if found is None:
        found = tuple(_findings(config, matcher_of(config), quiet=not problems.items))
        if len(_FOUND) >= _FOUND_MAX:
            _FOUND.clear()
        _FOUND[key] = found
    for section, old, message in found:
        problems.add(renames.get(section, renames), old, f"renames.{section}.{old}", message)


def _findings(config: Config, matcher: Matcher, *, quiet: bool) -> list[tuple[str, str, str]]:
    """(section, old value, message) of each rename that cannot be applied; the second-sweep
    samples only where nothing else was found (`quiet`: the config had no problem before)."""
    found: list[tuple[str, str, str]] = []
    olds = {old: new for old, new in config.renames.pairs()}
    nets = tuple((str(a), str(b)) for a, b in config.renames.networks)

    def add(section: str, old: str, message: str) -> None:
        found.append((section, old, message))

    for section, pairs in (("hosts", config.renames.hosts), ("addresses", config.renames.addresses),
                           ("networks", nets)):
        for old, new in pairs:
            if new in olds:
                what = "swap" if olds[new] == old else "chain"
                add(section, old, f"{what}: {shown(new)} is itself renamed ({new} -> {olds[new]}); it cannot "
                    "be applied simultaneously without a second sweep rewriting it again")
                continue
            hits = [m for m in matcher.find(new.encode()) if not m.derived
                    and (section != "networks" or m.old != old)]
            if hits:
                add(section, old, _again(new, hits[0].old, config))
    forms = {(section, old): _forms(section, old, new, config)
             for section, pairs in (("hosts", config.renames.hosts), ("addresses", config.renames.addresses))
             for old, new in pairs}
    _check_shared_spellings(forms, add)
    _check_networks(config, add)
    if quiet and not found:
        _check_second_sweep(config, matcher, forms, add)
    return found


def _again(new: str, hit: str, config: Config) -> str:
    address = parse_address(new)
    inside = next((str(old) for old, _ in config.renames.networks if address is not None and address in old),
                  None)
    if inside is not None:
        return (f"new value {shown(new)} lies in the renamed network {inside}; a second sweep would "
                "move it again")
    key, why = _spelled_by(hit, config)
    if key == hit:
        return (f"new value {shown(new)} contains old value {shown(hit)} at a match boundary; a second "
                "sweep would rewrite it again")
    # A spelling the matcher adds (adversarial pass 2 B-18): the user wrote `key`, not `hit`.
    if hit == new:
        return (f"new value {shown(new)} is {why} of old value {shown(key)}, which a sweep rewrites; a "
                "second sweep would rewrite it again")
    return (f"new value {shown(new)} contains {shown(hit)}, {why} of old value {shown(key)}, at a match "
            "boundary; a second sweep would rewrite it again")


def _spelled_by(hit: str, config: Config) -> tuple[str, str]:
    """The old value whose spellings include `hit`, and which spelling it is."""
    sections = (("hosts", config.renames.hosts), ("addresses", config.renames.addresses))
    if any(old == hit for _, pairs in sections for old, _ in pairs):
        return hit, "old value"
    for section, pairs in sections:
        for old, new in pairs:
            if any(form.old_text == hit for form in _forms(section, old, new, config)):
                variants = {old.upper(): "upper-case", old.replace("-", "_"): "underscore",
                            old.upper().replace("-", "_"): "upper-case underscore"}
                if config.variants and hit in variants:
                    return old, f"the {variants[hit]} variant (options.variants)"
                if "\\" in hit:
                    return old, "the regex-escaped spelling"
                if hit.lower() == old.lower():
                    return old, "the upper-case spelling (an IDNA name is case-insensitive)"
                if not hit.isascii():
                    return old, "the Unicode spelling (IDNA)"
                return old, "a spelling renamer matches"
    return hit, "old value"


Forms = dict[tuple[str, str], list[Form]]  # (section, old key) -> the spellings it rewrites


def _check_shared_spellings(forms: Forms, add: Any) -> None:
    """One spelling may be rewritten one way only (a variant of one key against another key)."""
    owner: dict[str, tuple[str, str]] = {}  # spelling -> (old key, its replacement)
    for (section, old), spellings in forms.items():
        for form in spellings:
            text, new = form.text.decode(), form.new.decode()
            seen = owner.setdefault(text, (old, new))
            if seen[0] != old and seen[1] != new:
                add(section, old, f"{shown(text)} is rewritten to {new!r} here and to "
                    f"{seen[1]!r} by {seen[0]!r} (options.variants spells both): keep one")


def _forms(section: str, old: str, new: str, config: Config) -> list[Form]:
    """The spellings one rename adds to the matcher, in the matcher's own terms."""
    pair = ((old, new),)
    single = Matcher(pair if section == "hosts" else (), pair if section == "addresses" else (),
                     derived_names=config.derived_names, variants=config.variants)
    return list(single.forms.values())


def _written(old: Any, new: Any) -> tuple[int, int]:
    """The first and last address a network move writes: its old offsets in the new network."""
    first = int(new.network_address)
    return first, first + min(old.num_addresses, new.num_addresses) - 1


def _check_networks(config: Config, add: Any) -> None:
    nets = config.renames.networks
    for old, new in nets:  # a chain through a part of a network (t32-33 finding 19's class)
        first, last = _written(old, new)
        for other_old, other_new in nets:
            if other_old in (old, new) or other_old.version != old.version:
                continue  # itself, or an exact chain (reported above)
            if first <= int(other_old.broadcast_address) and int(other_old.network_address) <= last:
                add("networks", str(old), f"its addresses land in {new} on {other_old}, which is itself "
                    f"renamed ({other_old} -> {other_new}): a second sweep would move them again (a chain); "
                    "choose a new network apart from every renamed one")
    for i, (old, new) in enumerate(nets):
        for other_old, other_new in nets[:i]:
            if old.version == other_old.version and old.overlaps(other_old):
                add("networks", str(old), f"overlaps the renamed network {other_old}: an address in "
                    "both could follow either rule")
            elif new == other_new:
                add("networks", str(old), f"{other_old} is renamed to {new} too: their addresses "
                    "would collide")
            elif new.version == other_new.version and new.overlaps(other_new):
                # t32-33 finding 19: the sweep would write both networks over one range
                add("networks", str(old), f"its new network {new} overlaps {other_new}, the new network "
                    f"of {other_old}: the sweep would write both over one range (their addresses and "
                    "subnets would collide): choose new networks apart")


def _check_second_sweep(config: Config, matcher: Matcher, forms: Forms, add: Any) -> None:
    """Sweep a sample of every spelling twice: the second sweep must change nothing."""
    hosts = [old for old, _ in config.renames.hosts] + [new for _, new in config.renames.hosts]
    suffixes = sorted({h[h.index("."):] for h in hosts if "." in h})  # a name in a longer FQDN
    dashes = sorted({h[len(s):] for h in hosts for s in hosts if h.startswith(s + "-")} | {"-x1"})
    samples = [(section, old, form.text.decode() + suffix) for (section, old), spellings in forms.items()
               for form in spellings for suffix in ["", *dashes, *suffixes]]
    for section, old, sample in samples:
        once = matcher.replace(sample.encode())
        twice = matcher.replace(once)
        if twice != once:
            add(section, old, f"not idempotent: {shown(sample)} becomes {once.decode()!r}, and a second "
                f"sweep makes it {twice.decode()!r}; rename the longer names directly, or drop one rule")
            return
