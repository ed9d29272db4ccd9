"""What a Terraform `for` expression's keys are built from (the lead's L1, issue 27).

`for_each = local.vms` where `local.vms = { for k in flatten([for zone in local.zones : [for inx in
range(...) : { name : "${lower(zone)}-talos-${local.prefix}-${1 + inx}", ipv4 : cidrhost(local.subnet,
inx) }]]) : k.name => k }`: the instance keys are each object's `name`, so only what the `for`
headers iterate over and what the `name` attribute reads can change a key; `local.subnet` (from a
network literal) only feeds a value, and renaming it moves no instance. Pure: text in, the text
that feeds the keys out (None where the key is not an attribute of the iteration variable: the
whole expression then counts, as before).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from renamer import lazy_re

# the object-for's key: `: k.name =>`, `: k["name"] =>`
_KEY = re.compile(r":\s*(?P<var>[A-Za-z_]\w*)\s*"
                  r"(?:\.\s*(?P<attr>[A-Za-z_][\w-]*)|\[\s*\"(?P<q>[A-Za-z_][\w-]*)\"\s*\])\s*=>")
# each `for X[, Y] in SOURCE :` header, its source up to the colon that ends it
_HEADER = lazy_re.compile(r"\bfor\s+[A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)?\s+in\s+(?P<src>[^:]*?)\s*:", re.S)


@dataclass(frozen=True)
class KeyFeed:
    attribute: str  # the objects' attribute the keys are (`name`)
    definitions: tuple[str, ...]  # its value expressions, as written (`"${lower(zone)}-talos-..."`)
    text: str  # everything that feeds the keys: the headers' sources, the attribute's values


def key_feed(text: str) -> KeyFeed | None:
    """What feeds the keys of the object-`for` in `text` whose key is an attribute of its
    iteration variable; None for any other shape."""
    keys = list(_KEY.finditer(text))
    if len(keys) != 1:
        return None
    attr = keys[0].group("attr") or keys[0].group("q")
    value = re.compile(r"(?m)^[ \t]*\"?" + re.escape(attr) + r"\"?[ \t]*[:=](?!=)[ \t]*(?P<v>[^\r\n]*)")
    definitions = tuple(m.group("v").strip() for m in value.finditer(text))
    if not definitions:
        return None
    sources = [m.group("src") for m in _HEADER.finditer(text)]
    return KeyFeed(attr, definitions, "\n".join([*sources, *definitions]))
