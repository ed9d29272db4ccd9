"""Lookup-table files: one `key value` entry a line (outside pass t32, round 25, finding 13).

An HAProxy map (`web01 pool_a`, loaded by `map(/etc/haproxy/hosts.map)`; an nginx `map {}` block's
`include`d file has the same shape) and the Postfix and sendmail lookup tables (`transport`,
`virtual`, `canonical`, `*_access`, `mailertable`, `virtusertable`, ...: `postmap` builds the
indexed map from them) key each entry by the line's first field. A rename that makes two entries'
keys one (`web01 pool_a` beside `app01 pool_b` under `web01 -> app01`) leaves two machines under one
key: HAProxy serves one of them, `postmap` warns "duplicate entry" and keeps one. Plain text reads
no keys there, so the collision was only a warning.

A file is such a table by its name (the two formats here claim it before plain text): a `.map`
suffix (not a JSON source map), a Postfix or sendmail table's name, or a file named without a
suffix under a `postfix/` or `mail/` folder (not `main.cf`, `sendmail.mc`).
Its entries are the lines that start with a key (not a blank: Postfix continues an entry on an
indented line; not `#`). Postfix and sendmail fold keys to lower case (so does the check there).
An edit set collides when some key stands on more lines than before: the sweep refuses, naming
both lines. Everything else of the file is plain text's. Pure: text in, a sentence out.
"""

from __future__ import annotations

from collections import Counter

from renamer import lazy_re
from renamer.formats import keylines
from renamer.formats.text import Text

_POSTFIX = frozenset({
    "transport", "virtual", "canonical", "sender_canonical", "recipient_canonical", "relocated", "generic",
    "sasl_passwd", "sender_dependent_relayhost", "relay_recipients", "relay_domains", "tls_policy",
    "smtp_tls_policy", "virtual_alias", "virtual_alias_maps", "virtual_mailbox", "vmailbox",
    "virtual_domains", "vdomains", "transport_maps", "sender_login", "sender_bcc", "recipient_bcc",
    "mailertable", "virtusertable", "genericstable", "domaintable", "authinfo",
})
_FOLDERS = ("postfix/", "mail/")
_ENTRY = lazy_re.compile(r"(?m)^(?P<key>[^\s#][^\s]*)")


def _folded(path: str) -> bool:
    """Postfix and sendmail tables: keys are read in lower case."""
    name = path.rsplit("/", 1)[-1].lower()
    return not name.endswith(".map")


def is_table(path: str, data: bytes) -> bool:
    """Whether the file at `path` is a lookup table by its name (see above)."""
    lowered = path.lower()
    name = lowered.rsplit("/", 1)[-1]
    if name.endswith(".map"):
        return data.lstrip()[:1] not in (b"{", b"[")  # a JavaScript/CSS source map is JSON
    if name in _POSTFIX or name.endswith("_access") or (name == "access" and "/mail/" in f"/{lowered}"):
        return True
    # a table under postfix/ or mail/ is named without a suffix (`main.cf`, `sendmail.mc`, `x.db` are not)
    return "." not in name and any(f"/{folder}" in f"/{lowered}" for folder in _FOLDERS)


def entries(text: str, *, fold: bool) -> list[tuple[str, int]]:
    """(key, line) of each entry of a lookup table."""
    out = []
    for found in _ENTRY.finditer(text):
        key = found.group("key")
        out.append((key.lower() if fold else key, text.count("\n", 0, found.start()) + 1))
    return out


def collision(before: str, after: str, *, fold: bool) -> str | None:
    """Where the edited table holds a key on more lines than the original did; else None."""
    was = Counter(key for key, _ in entries(before, fold=fold))
    now: dict[str, list[int]] = {}
    for key, line in entries(after, fold=fold):
        now.setdefault(key, []).append(line)
    for key, lines in sorted(now.items(), key=lambda item: item[1][0]):
        if len(lines) > max(was[key], 1):
            return (f"line {lines[-1]}: after the rename the key {key!r} would stand twice in one lookup "
                    f"table (lines {', '.join(map(str, lines))}): the map serves one entry of them (HAProxy, "
                    "postmap keep one); a renamed key would collide with an existing one")
    return None


class MapFile(Text):
    """A lookup table (`.map`, a Postfix or sendmail table): plain text whose first field keys a line."""

    def __init__(self, fold: bool) -> None:
        self.fold = fold

    def claims(self, path: str, name: str, data: bytes) -> bool:
        return is_table(path, data) and _folded(path) == self.fold

    def edit_problem(self, before: str, after: str) -> str | None:
        return collision(before, after, fold=self.fold) or keylines.collision(before, after)


HAPROXY = MapFile(fold=False)
POSTFIX = MapFile(fold=True)

