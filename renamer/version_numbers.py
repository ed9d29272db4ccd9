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
    rb"|(?:(?<![A-Za-z_])(?:gem|cookbook|depends)|add_(?:runtime_|development_)?dependency)[ \t(]+"
    rb"[\"'][^\"'\n]+[\"']"
    rb"(?:[ \t]*,[ \t]*[\"'][^\"'\n]*[\"'])*[ \t]*,[ \t]*[\"'](?:[~<>=!]+[ \t]*)?"
    rb"|~>[ \t]*[\"']?"
    # a package manager's pin (t38-break finding 08): `apt-get install agent=V`, Ansible's
    # `name: agent=V`, `dnf install agent-V-1.el9`, `npm install agent@V`, `gem install agent -v V`,
    # Puppet's `ensure => 'V'`
    rb"|(?:(?<![\w-])(?:apt|apt-get|aptitude)[ \t]+[^\n]*?install[ \t][^\n]*?"
    rb"|(?<![\w-])name[ \t]*[:=][ \t]*[\"']?)[A-Za-z0-9.+-]+="
    rb"|(?<![\w-])(?:dnf|yum|microdnf|zypper)[ \t]+[^\n]*?install[ \t][^\n]*?[A-Za-z][\w.+]*-"
    rb"|(?<![\w-])(?:npm|pnpm|yarn|npx)[ \t]+(?:[^\n]*?[ \t])?(?:install|i|add)[ \t](?:[^\n]*?[ \t])?"
    rb"(?:@[\w.-]+/)?[\w.-]+@"
    rb"|(?<![\w-])gem[ \t]+install[ \t][^\n]*?(?<![\w-])-v[ \t]+[\"']?"
    rb"|(?<![\w-])ensure[ \t]*=>[ \t]*[\"']?)\Z")
# Dresses a line does not show alone (the file says what it is, finding 08): a Gemfile.lock's
# `    agent (10.0.0.12)` and `  agent (= 10.0.0.12)`, a Cargo dependency table's `agent = "V"`, a
# conan requirement `agent/V`, a Terraform variable's `default` whose name ends in `version`.
_LOCK_SPEC = lazy_re.compile(rb"[ \t]+[A-Za-z0-9_.-]+[ \t]\((?:[~<>=!]+[ \t]*)?\Z")
_CARGO_DEP = lazy_re.compile(rb"[A-Za-z0-9_-]+[ \t]*=[ \t]*[\"'](?:[~^=<>]+[ \t]*)?\Z")
_CARGO_TABLE = lazy_re.compile(rb"(?m)^\[(?P<table>[^\]\n]+)\][ \t]*$")
_CONAN_REF = lazy_re.compile(rb"(?:(?<![^\n])[ \t]*|[\"'(][ \t]*)[A-Za-z0-9_.+-]+/\Z")
_TF_DEFAULT = lazy_re.compile(rb"[ \t]*default[ \t]*=[ \t]*\"\Z")
_TF_VERSION_VARIABLE = lazy_re.compile(rb'(?i)variable[ \t]+"[\w-]*version[\w-]*"[ \t]*\{[^{}]*\Z')
_QUAD = lazy_re.compile(r"[0-9]{1,3}(?:\.[0-9]{1,3}){3}\Z")
# The literals a line so dressed holds (a file without any is never read further).
LITERALS = (b"ersion", b"ERSION", b"ver", b"VER", b"elease", b"ELEASE", b"==", b">=", b"<=", b"~=",
            b"!=", b"~>", b"tag", b"Tag", b"TAG", b"gem", b"ependenc", b"cookbook", b"depends", b"install",
            b"name", b"ensure", b"GEM", b"requires", b"@", *image_refs.HINTS)
_LOOK_BACK = 80


def might_hold(data: bytes) -> bool:
    return any(literal in data for literal in LITERALS)


def version_at(data: bytes, start: int) -> bool:
    """Does the text before `start` on its line dress what stands there as a version?"""
    line = data.rfind(b"\n", 0, start) + 1
    return _BEFORE.search(data, max(line, start - _LOOK_BACK), start) is not None


def file_version_at(data: bytes, start: int) -> str | None:
    """What, in a file that says what it is, dresses the quad at `start` as a version (finding 08)."""
    line = data.rfind(b"\n", 0, start) + 1
    # (each line pattern is matched from the line's start: a search's `^` would not anchor at `line`)
    if (data.startswith(b"GEM\n") or b"\nGEM\n" in data) and _LOCK_SPEC.match(data, line, start):
        return "a Gemfile.lock's spec"
    if b"dependencies" in data and _CARGO_DEP.match(data, line, start):
        tables = [t.group("table").strip() for t in _CARGO_TABLE.finditer(data, 0, line)]
        if tables and tables[-1].endswith(b"dependencies"):
            return f"a dependency of [{tables[-1].decode('utf-8', 'replace')}]"
    conan = b"[requires]" in data or (b"requires" in data and b"conan" in data)
    if conan and _CONAN_REF.search(data, line, start):
        return "a conan requirement"
    if b"variable" in data and _TF_DEFAULT.match(data, line, start):
        block = data.rfind(b"variable", 0, line)
        if block != -1 and _TF_VERSION_VARIABLE.match(data, block, line):
            return "the default of a variable named for a version"
    return None


def refused(data: bytes, matches: list[Match]) -> list[Match]:
    """`matches` with each dotted quad a version dresses refused `version` (not an open rewrite)."""
    # (the matches first: a quad is rare among them, the literals are in most files)
    if not any(m.kind in ("address", "network") and _QUAD.match(m.old) is not None for m in matches) \
            or not might_hold(data):
        return matches
    out = []
    refs: list[image_refs.ImageRef] | None = None
    for m in matches:
        if m.kind in ("address", "network") and m.refused is None and m.kept is None and m.new != m.old \
                and _QUAD.match(m.old) is not None:
            context = _said(data, m.start) if version_at(data, m.start) else file_version_at(data, m.start)
            if context is not None:
                m = replace(m, refused=REASON,
                            note=f"`{m.old}` stands where a version number does ({context})")
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

