"""Which file a hash pin belongs to, from the text around it (break-it round 3, finding 3).

A digest names bytes, not a file: the same bytes may sit in two files (a live config and its
record copy under backups/), and the pin of the copy must not follow the live file's rewrite. Where
the pin's context names a file of the repo, the pin belongs to that file alone:

* the path of a manifest line (`<hash>  <path>`, `SHA256 (<path>) = <hash>`), read by pins.py;
* a file named for the file it pins, holding only the digest (`deploy.sh.sha256`, `app.tar.md5`,
  `app.jar.sha512`: `sidecar_of`);
* in JSON, YAML or TOML, a sibling member naming a path (`{"path": "backups/app.yaml",
  "sha256": ...}`, or `app_path:` beside `app_sha256:`), else the nearest enclosing key that is a
  path (`{"files": {"backups/app.yaml": {"sha256": ...}}}`);
* in `key=value` files (.env, shell, INI), a sibling assignment of the digest key's stem
  (`backup_sha256=` beside `backup_path=`, `backup_file=` or `backup=`).

A path counts only where it resolves to a file of the repo (from the holder's folder, or the root);
an installed path (`/opt/app/notes.txt`) names no repo file and decides nothing here. Pins whose
context names no file are left to the other rule (pins.Standing): stale only if no file of the
repo, as the sweep leaves it, still has that digest.
"""

from __future__ import annotations

import json
import posixpath
import re
import tomllib
from collections.abc import Collection, Iterator
from typing import Any

from renamer import lazy_re
from renamer.formats.yaml_source import parse_yaml_text
from renamer.sweep.digest_words import key_of, whole_word, words

# a key that holds a digest, and its stem: `sha256`, `backup_sha256`, `appChecksum`, `integrity`
_DIGEST_KEY = lazy_re.compile(r"^(?P<stem>.*?)[_.-]?(?:sha-?256|sha-?1|md5|sha-?384|sha-?512|checksum|"
                         r"digest|hash|integrity)(?:sum)?$", re.IGNORECASE)
_PATH_WORDS = ("path", "file", "filename", "name", "src", "source", "target", "dest")
_ASSIGNMENT = lazy_re.compile(r"""^\s*(?:(?:export|readonly|local|declare(?:\s+-\w+)*)\s+)?"""
                         r"""(?P<key>[A-Za-z_][\w.-]*)\s*[=:]\s*(?P<q>["']?)(?P<value>[^"'#;\s]+)(?P=q)\s*(?:[#;].*)?$""")
_SUFFIXES = {".json": "json", ".yaml": "yaml", ".yml": "yaml", ".toml": "toml"}
# the suffixes of a file that holds one file's digest, named for it (`app.tar.gz.sha256`)
_SIDECARS = (".md5", ".sha1", ".sha224", ".sha256", ".sha384", ".sha512", ".b2", ".blake2b",
             ".md5sum", ".sha1sum", ".sha256sum", ".sha512sum", ".checksum", ".digest", ".hash")


def repo_names(holder: str, written: str) -> set[str]:
    """The repo paths a written path may mean: from the holder's folder, or the root."""
    written = written.removeprefix("./")
    out = {posixpath.normpath(posixpath.join(posixpath.dirname(holder), written)),
           posixpath.normpath(written)}
    return {p for p in out if not p.startswith("../") and p != ".."}


def resolve(holder: str, written: object, known: Collection[str]) -> str | None:
    """The file of `known` that `written` names, or None (not a string, no such file)."""
    if not isinstance(written, str) or not written or len(written) > 1024 or "\n" in written:
        return None
    found = sorted(p for p in repo_names(holder, written.strip()) if p in known)
    return found[0] if found else None


def sidecar_of(holder: str, data: bytes, known: Collection[str]) -> str | None:
    """The file of `known` that `holder` is named for, where it holds only a digest (a `.sha256`
    file beside the file it pins, as `sha256sum f | cut -d' ' -f1 > f.sha256` writes it)."""
    stem, suffix = posixpath.splitext(holder)
    if suffix.lower() not in _SIDECARS or len(data) > 512:
        return None
    text = data.decode("utf-8", "replace").strip().lstrip("\ufeff")
    return stem if whole_word(text) is not None and stem in known else None


def _sibling_keys(key: str) -> set[str]:
    """The lower-case keys that would name the file a digest under `key` belongs to."""
    match = _DIGEST_KEY.match(key)
    if match is None:
        return set()
    stem = match.group("stem").lower().rstrip("_.-")
    if not stem:
        return set(_PATH_WORDS)
    return {stem} | {f"{stem}{sep}{word}" for sep in ("_", "-", ".", "") for word in _PATH_WORDS}


class Contexts:
    """The file each pin's surroundings name, per holder, read once."""

    def __init__(self, known: Collection[str]) -> None:
        self.known = known
        self._structured: dict[str, dict[str, list[str | None]] | None] = {}
        self._lines: dict[str, list[str]] = {}

    def named(self, holder: str, data: bytes, token: str, occurrence: int, line: str) -> str | None:
        """The repo file the context of the `occurrence`-th (0-based) `token` of `holder` names."""
        sidecar = sidecar_of(holder, data, self.known)
        if sidecar is not None:
            return sidecar
        found = self._structured_of(holder, data)
        if found is not None:
            names = found.get(token)
            if names is not None and occurrence < len(names):
                return names[occurrence]
            return None
        return self._assigned(holder, data, line)

    def _structured_of(self, holder: str, data: bytes) -> dict[str, list[str | None]] | None:
        """token -> the file named around each of its occurrences, in text order; None when the
        holder is no JSON, YAML or TOML document (or does not parse)."""
        if holder in self._structured:
            return self._structured[holder]
        kind = _SUFFIXES.get(posixpath.splitext(holder)[1].lower())
        text = data.decode("utf-8", "replace").lstrip("\ufeff")
        document: Any = None
        if kind is None and text.lstrip()[:1] in ("{", "["):
            kind = "json"
        try:
            if kind == "json":
                document = json.loads(text)
            elif kind == "toml":
                document = tomllib.loads(text)
            elif kind == "yaml":
                document = parse_yaml_text(text)
        except (ValueError, RecursionError):
            document = None
        if document is None:
            self._structured[holder] = None
            return None
        out: dict[str, list[str | None]] = {}
        for token, name in _walk(holder, document, (), self.known):
            out.setdefault(token, []).append(name)
        # the walk sees only the document's values: where the text holds a digest the walk did not
        # (a YAML or TOML comment), the occurrences cannot be paired, and nothing is named
        counts: dict[str, int] = {}
        for word in words(text):
            counts[word.key] = counts.get(word.key, 0) + 1
        result = {t: names for t, names in out.items() if counts.get(t) == len(names)}
        self._structured[holder] = result
        return result

    def _assigned(self, holder: str, data: bytes, line: str) -> str | None:
        """`backup_sha256=<hex>` with `backup_path=<path>` (or `backup_file`, `backup`) in the file."""
        match = _ASSIGNMENT.match(line)
        if match is None:
            return None
        wanted = _sibling_keys(match.group("key")) - {match.group("key").lower()}
        if not wanted:
            return None
        if holder not in self._lines:
            self._lines[holder] = data.decode("utf-8", "replace").splitlines()
        for other in self._lines[holder]:
            sibling = _ASSIGNMENT.match(other)
            if sibling is not None and sibling.group("key").lower() in wanted:
                name = resolve(holder, sibling.group("value"), self.known)
                if name is not None:
                    return name
        return None


def _walk(holder: str, value: Any, enclosing: tuple[str | None, ...],
          known: Collection[str]) -> Iterator[tuple[str, str | None]]:
    """(token, the file its context names) for every digest in `value`, in document order;
    `enclosing`: the files the keys above name, nearest last."""
    if isinstance(value, dict):
        items = list(value.items())
        for key, item in items:
            yield from _words(str(key), None)
            if isinstance(item, (dict, list)):
                yield from _walk(holder, item, (*enclosing, resolve(holder, key, known)), known)
                continue
            named = _sibling(holder, str(key), items, known)
            if named is None:
                named = resolve(holder, key, known)
            if named is None:
                named = next((n for n in reversed(enclosing) if n is not None), None)
            yield from _words(str(item), named)
    elif isinstance(value, list):
        for item in value:
            yield from _walk(holder, item, enclosing, known)
    elif value is not None:
        yield from _words(str(value), next((n for n in reversed(enclosing) if n is not None), None))


def _sibling(holder: str, key: str, items: list[tuple[Any, Any]], known: Collection[str]) -> str | None:
    wanted = _sibling_keys(key) - {key.lower()}
    for other, value in items:
        if str(other).lower() in wanted:
            name = resolve(holder, value, known)
            if name is not None:
                return name
    return None


def _words(text: str, named: str | None) -> Iterator[tuple[str, str | None]]:
    found = words(text)
    whole = key_of(text.strip()) if not found else None  # a value its key marks: unpadded base64
    for key in [w.key for w in found] or ([whole] if whole is not None else []):
        yield key, named
