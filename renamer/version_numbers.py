"""A four-part version number that spells an address of a moved network (or a renamed address) is
no address (issue 33, outside pass t36-33, finding 03): under `10.0.0.0/24 -> 10.9.0.0/24`,
package.json `"version": "10.0.0.12"`, .NET `[assembly: AssemblyVersion("10.0.0.1")]`, MSBuild
`<Version>10.0.0.3</Version>`, pip `foo==10.0.0.2`, Ruby `'~> 10.0.0.1'` were renumbered, sweep 0,
verify OK: builds then stamp or ask for versions that do not exist.

A dotted quad whose line names a version right before it (a key or element ending in `version`,
`ver`, `release`, with its quotes, `:`, `=`, `(` or `>` between, as in `"version": "`,
`AssemblyFileVersion("`, `<PackageVersion>`, `VERSION=`, `version `, a Windows resource's
`VALUE "FileVersion", "`, `pkgver=`, a Helm `tag:`), that follows a package requirement's operator
written against a name (`foo==`, `bar>=`, `baz~=`, `~> `, `===`) or a gem's name (`gem 'x', '`,
`add_dependency "x", "`), or that is an image reference's tag (`agent:10.0.0.12`), is
refused `version`: nothing rewritten, a residual a person decides (a keep rule where it is a
version, a hand edit where it really was an address). The same family as prefix_values'
`version: 10.0.0` head guard, for a whole quad. Pure: bytes in, matches out.
"""

from __future__ import annotations

from dataclasses import replace

from renamer import image_refs, lazy_re
from renamer.occurrences import Match

REASON = "version"
# What the bytes before the quad end with, on its own line (read backwards from the quad).
_BEFORE = lazy_re.compile(
    rb"(?:(?:(?i:version[A-Za-z_]*|(?<![a-z])(?:pkg)?ver|(?<![a-z])release)"
    rb"[\"']?[ \t]*(?:=>|:=|\?=|[:=(>,])?"
    # an image's tag given alone (Helm's `image: {repository: x, tag: 10.0.0.12}`, `imageTag:`)
    rb"|(?<![A-Za-z])(?i:(?:image|docker|container)?[_-]?tag)[\"']?[ \t]*(?:=>|[:=]))"
    rb"[ \t]*[\"'(]?[ \t]*"
    rb"|(?:[A-Za-z0-9_-]|(?<![\"'])\])(?:===|==|>=|<=|~=|!=)[ \t]*"
    rb"|[\"'](?:==|>=|<=)[ \t]*"
    # a Gemfile's `gem 'x', '10.0.0.12'`, a gemspec's `add_dependency "x", "10.0.0.12"`: the
    # requirements that follow the gem's name (t37-break, finding 04)
    rb"|(?:(?<![A-Za-z_])gem|add_(?:runtime_|development_)?dependency)[ \t(]+[\"'][^\"'\n]+[\"']"
    rb"(?:[ \t]*,[ \t]*[\"'][^\"'\n]*[\"'])*[ \t]*,[ \t]*[\"'](?:[~<>=!]+[ \t]*)?"
    rb"|~>[ \t]*[\"']?)\Z")
_QUAD = lazy_re.compile(r"[0-9]{1,3}(?:\.[0-9]{1,3}){3}\Z")
# The literals a line so dressed holds (a file without any is never read further).
LITERALS = (b"ersion", b"ERSION", b"ver", b"VER", b"elease", b"ELEASE", b"==", b">=", b"<=", b"~=",
            b"!=", b"~>", b"tag", b"Tag", b"TAG", b"gem", b"ependenc", *image_refs.HINTS)
_LOOK_BACK = 80


def might_hold(data: bytes) -> bool:
    return any(literal in data for literal in LITERALS)


def version_at(data: bytes, start: int) -> bool:
    """Does the text before `start` on its line dress what stands there as a version?"""
    line = data.rfind(b"\n", 0, start) + 1
    return _BEFORE.search(data, max(line, start - _LOOK_BACK), start) is not None


def refused(data: bytes, matches: list[Match]) -> list[Match]:
    """`matches` with each dotted quad a version dresses refused `version` (not an open rewrite)."""
    if not matches or not might_hold(data):
        return matches
    out = []
    refs: list[image_refs.ImageRef] | None = None
    for m in matches:
        if m.kind in ("address", "network") and m.refused is None and m.kept is None and m.new != m.old \
                and _QUAD.match(m.old) is not None:
            if version_at(data, m.start):
                m = replace(m, refused=REASON,
                            note=f"`{m.old}` stands where a version number does ({_said(data, m.start)})")
            elif data[m.start - 1:m.start] == b":":
                # an image's tag (`image: registry.lab/contoso/agent:10.0.0.12`), not a host:port
                # nor compose's `extra_hosts: web:10.0.0.5` (no image reference reads it)
                refs = image_refs.image_refs(data) if refs is None else refs
                if image_refs.in_tag(refs, data, m.start, m.end):
                    m = replace(m, refused=REASON,
                                note=f"`{m.old}` stands where a version number does (an image's tag)")
        out.append(m)
    return out


def _said(data: bytes, start: int) -> str:
    line = data.rfind(b"\n", 0, start) + 1
    found = _BEFORE.search(data, max(line, start - _LOOK_BACK), start)
    text = found.group().decode("utf-8", "replace").strip() if found is not None else ""
    text = text[1:] if text[:1].isalnum() and text[1:2] in "=<>~!" else text  # (`o==`: the operator)
    return f"after `{text}`" if text else "after a version's key"

