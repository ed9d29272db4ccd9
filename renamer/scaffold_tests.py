"""renamer init's question about a test that spells an old value: does it check the live
configuration (current state: the sweep must rewrite it with the files it tests) or freeze old data
(a record)? A folder's name cannot say (newcomer-pass-2 B1: a `tests/` class kept a regression test
that asserts what a live script renders, and the sweep left it failing); what the test reads can.

A test that names a file of the repo outside the test and history folders (the script it runs,
the config it loads: `../scripts/render.sh`, `$ROOT/inventory/hosts.yaml`) reads live values.
"""

from __future__ import annotations

import posixpath
from collections.abc import Collection

from renamer import lazy_re

# Words that may be paths: letters, digits, `._-/`, and a leading variable (`$ROOT/`, `${REPO}/`).
_WORDS = lazy_re.compile(rb"(?:\$\{?\w+\}?/|\$\(\w+\)/)?[A-Za-z0-9_./-]+")
_VARIABLE = lazy_re.compile(r"^(?:\$\{?\w+\}?|\$\(\w+\))/")  # $ROOT/, ${REPO}/, $(pwd)/


def live_file(rel: str, data: bytes, live: Collection[str], listed: Collection[str]) -> str | None:
    """The first file of `live` (repo-relative paths outside test and history folders) that
    `rel`'s text names: from the test's own folder, from the repo root, as a path ending after a
    variable (`$ROOT/scripts/render.sh`), or by a file name no other file of the repo (`listed`)
    has; None when it names none."""
    folder = posixpath.dirname(rel)
    by_name: dict[str, list[str]] = {}
    for path in listed:
        by_name.setdefault(posixpath.basename(path), []).append(path)
    for match in _WORDS.finditer(data):
        written = match.group().decode("ascii", "replace")
        word = _VARIABLE.sub("", written)
        if "/" not in word and "." not in word.strip("."):
            continue
        word = word.removeprefix("./")
        if not word or "$" in word:
            continue
        candidates = [posixpath.normpath(posixpath.join(folder, word)), posixpath.normpath(word)]
        # a path ending (`scripts/render.sh` under some `$ROOT`), or a bare name: one file has it
        same = by_name.get(posixpath.basename(word), [])
        ends = [p for p in same if p == word or p.endswith("/" + word.lstrip("./"))]
        if len(ends) == 1:
            candidates.append(ends[0])
        for candidate in candidates:
            if candidate in live and candidate != rel:
                return candidate
    return None
