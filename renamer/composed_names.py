"""Names whose host part is a variable and whose domain is literal: `${NODE}.ana.lan`.

`URL=https://${NODE}.ana.lan/` beside `NODE=ana-ml2`, `{{ inventory_hostname }}.ana.lan`,
Puppet's `%{hostname}.ana.lan`, a shell's `$(hostname).ana.lan`: the host part follows its
definition (`NODE=fv-ml1` after the sweep), the literal domain stays, and where the rename moves
the host to another domain (`ana-ml2.ana.lan -> fv-ml1.fv.lan`) the result names nothing
(`fv-ml1.ana.lan`). This module is the grammar: the templates a host part may be (with their
default words, quoted or nested: `${X:-"ana-ml2"}`, `${X:-${Y:-ana-ml2}}`,
`{{ x | default('ana-ml2', true) }}`), and where one stands before `.` and a domain of interest.
What the variable holds, and what follows, is sweep/composed.py's. Pure: bytes in, spans out.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from renamer import key_refs, lazy_re, loop_values

# Variables whose value is the machine's (or the play's host's) own name: every host of the fleet,
# the renamed one included.
HOST_BUILTINS = frozenset({"inventory_hostname", "inventory_hostname_short", "ansible_hostname",
                           "ansible_nodename", "HOSTNAME", "HOST", "hostname", "nodename", "certname",
                           "local_hostname"})  # cloud-init's `{{ v1.local_hostname }}`: the instance's own
_KEEPING = frozenset({"default", "d", "lower", "upper", "trim", "string", "mandatory"})

_IDENT = rb"[A-Za-z_][A-Za-z0-9_]*"
_START = lazy_re.compile(rb"\$\{|\{\{|%\{|\$\(|`|\$(?=[A-Za-z_])|\{[0-9]*\}|\{\$(?=[A-Za-z_])|\{env\.|%[Hlq]"
                    rb"|\$(?=[1-9])|#\{(?=[A-Za-z_@])")
# Ruby's interpolation, `"#{host}.#{domain}"`, `#{@host}` (break-it round 19, finding 2)
_RUBY = lazy_re.compile(rb"#\{[ \t]*@{0,2}(?P<var>" + _IDENT + rb"(?:\." + _IDENT + rb"){0,8})[ \t]*\}")
# Caddy's placeholders: `{$HOST}` (`{$HOST:default}`), read from the environment when the
# Caddyfile is loaded, and `{env.HOST}` at run time (break-it round 16, finding 17).
_CADDY = lazy_re.compile(rb"\{(?:\$(?P<var>" + _IDENT + rb")(?::(?P<default>[A-Za-z0-9._-]*))?"
                    rb"|env\.(?P<env>" + _IDENT + rb"))\}")
# systemd's specifiers for the machine's own name: `%H` (host name), `%l` (short), `%q` (pretty);
# `%%` is a literal percent.
_SYSTEMD = lazy_re.compile(rb"(?<!%)%[Hlq](?![A-Za-z0-9_])")
_SHELL_HEAD = lazy_re.compile(rb"\$\{(" + _IDENT + rb"(?:\." + _IDENT + rb")*|[0-9]+)")
_SHELL_OP = lazy_re.compile(rb":?[-=+?]")
_WORD = lazy_re.compile(rb"[A-Za-z0-9._-]*")
_ARGUMENTS = rb"(?:\((?:[^()'\"\n]|'[^'\n]*'|\"[^\"\n]*\")*\))?"  # a filter's `(...)`, quotes skipped
# `{{ x }}`, Helm's `{{ .Values.x }}` and `{{ $h }}` (a range's variable), Ansible's `{{ item.0 }}`
_JINJA = lazy_re.compile(
    rb"\{\{-?[ \t]*(?:\$\.?|\.)?(?P<var>" + _IDENT + rb"(?:\.(?:" + _IDENT + rb"|[0-9]+))*)"
                    rb"[ \t]*"
                    rb"(?P<filters>(?:\|[ \t]*" + _IDENT + rb"[ \t]*" + _ARGUMENTS + rb"[ \t]*)*)"
                    rb"-?\}\}")
_JINJA_DEFAULT = lazy_re.compile(rb"\|[ \t]*(?:default|d)[ \t]*\([ \t]*(['\"])(?P<value>[A-Za-z0-9._-]*)\1"
                            rb"[ \t]*(?:,[ \t]*(?:true|True|false|False|boolean[ \t]*=[ \t]*\w+)[ \t]*)?\)")
_JINJA_FILTER = lazy_re.compile(rb"\|[ \t]*(?P<name>" + _IDENT + rb")")
_PUPPET = lazy_re.compile(rb"%\{(?:::)?(?P<var>" + _IDENT + rb"(?:\." + _IDENT + rb")*)\}")
_COMMAND = lazy_re.compile(rb"\$\([ \t]*(?:hostname(?:[ \t]+(?:-s|--short))?|uname[ \t]+-n)[ \t]*\)"
                      rb"|`[ \t]*(?:hostname(?:[ \t]+(?:-s|--short))?|uname[ \t]+-n)[ \t]*`")
_BARE = lazy_re.compile(rb"\$(" + _IDENT + rb")")
_POSITIONAL = lazy_re.compile(rb"\$([1-9])(?![0-9])")
_MAKE = lazy_re.compile(rb"\$\((" + _IDENT + rb")\)")  # Make's `$(h)` (a shell's would be a command: unknown)
_PLACEHOLDER = lazy_re.compile(rb"\{[0-9]*\}")  # GNU parallel's and xargs -I's `{}`, parallel's `{1}`
_LABEL = lazy_re.compile(rb"[A-Za-z0-9-]*")
_NAME_BYTE = lazy_re.compile(rb"[A-Za-z0-9_-]")
_LEFT = re.compile(rb"[A-Za-z0-9_.-]")


@dataclass(frozen=True)
class Template:
    """A template at [start, end): the variables it reads (outermost first), its default word and
    where the word stands, the host-valued builtin it reads, whether its filters keep the text."""

    start: int
    end: int
    variables: tuple[str, ...]
    default: str | None = None
    default_span: tuple[int, int] | None = None
    builtin: str | None = None
    exact: bool = True
    reads: str | None = None  # the variable as a loop names it, where the text does not say (`%s`, `{{ . }}`)
    path: tuple[str, ...] = ()  # the keys a Jinja reference names before its own (`networks.app` of `.base`)


@dataclass(frozen=True)
class ComposedName:
    """`prefix` + a template + `suffix`, a dot, and `tail` (a domain of interest) at [start, end)."""

    start: int
    end: int
    template: Template
    prefix: str
    suffix: str
    tail: str
    tail_start: int
    text: str
    joined: bool = False  # the domain an element of its own (`join('.')`): no dot before it


@dataclass(frozen=True)
class Joined:
    """A host variable and a domain variable joined by a dot at [start, end) (`${HOST}.${DOMAIN}`,
    `join(".", [var.host, var.domain])`, `'%s.%s' % (h, d)`): each half's values are the repo's."""

    start: int
    end: int
    host: Template
    domain: str
    text: str
    dot: str = "."  # "" where the domain half holds its own leading dot (`${HOST}${SUFFIX}`, `.ana.lan`)


def _builtin(name: str) -> str | None:
    return name if name in HOST_BUILTINS else None


def template_at(data: bytes, pos: int, depth: int = 0) -> Template | None:
    """The template starting at `pos`, if one does."""
    head = data[pos:pos + 2]
    if head == b"${":
        shell = _shell(data, pos, depth)
        if shell is not None and shell.variables[0].isdigit():  # `${1}`: a shell function's parameter
            return Template(shell.start, shell.end, shell.variables, shell.default, shell.default_span,
                            reads=shell.variables[0])
        return shell
    if head == b"{{":
        return _jinja(data, pos)
    if head == b"#{":
        ruby = _RUBY.match(data, pos)
        if ruby is None:
            return None
        name = ruby.group("var").decode().rsplit(".", 1)[-1]
        return Template(pos, ruby.end(), (name,), builtin=_builtin(name))
    if head == b"%{":
        found = _PUPPET.match(data, pos)
        if found is None:
            return None
        name = found.group("var").decode().rsplit(".", 1)[-1]  # `facts.hostname`, `::hostname`
        return Template(pos, found.end(), (name,), builtin=_builtin(name))
    if head == b"$(" or head[:1] == b"`":
        command = _COMMAND.match(data, pos)
        if command is not None:
            return Template(pos, command.end(), (), builtin="hostname")
        make = _MAKE.match(data, pos)
        return Template(pos, make.end(), (make.group(1).decode(),)) if make is not None else None
    if head in (b"{$", b"{e"):
        caddy = _CADDY.match(data, pos)
        if caddy is None:
            return None
        name = (caddy.group("var") or caddy.group("env")).decode()
        default = caddy.group("default")
        # The environment Caddy runs in sets HOSTNAME to the machine's name; HOST is a variable.
        builtin = name if name == "HOSTNAME" else None
        if default:
            return Template(pos, caddy.end(), (name,), default.decode(), caddy.span("default"), builtin)
        return Template(pos, caddy.end(), (name,), builtin=builtin)
    if head[:1] == b"%":
        specifier = _SYSTEMD.match(data, pos)
        if specifier is None or (pos > 0 and data[pos - 1:pos] == b"%"):
            return None
        return Template(pos, specifier.end(), (), builtin=f"%{chr(data[pos + 1])}")
    if head[:1] == b"{" and head != b"{{":
        placeholder = _PLACEHOLDER.match(data, pos)
        return Template(pos, placeholder.end(), (placeholder.group().decode(),)) if placeholder else None
    positional = _POSITIONAL.match(data, pos)
    if positional is not None:  # a shell function's `$1` (function_params.py binds it)
        digit = positional.group(1).decode()
        return Template(pos, positional.end(), (digit,), reads=digit)
    bare = _BARE.match(data, pos)
    if bare is None:
        return None
    name = bare.group(1).decode()
    return Template(pos, bare.end(), (name,), builtin=_builtin(name))


def _shell(data: bytes, pos: int, depth: int) -> Template | None:
    """`${X}`, `${X:-word}` (`-`, `=`, `+`, colon or not; the word quoted or a nested `${Y:-...}`),
    `${var.x}` (Terraform): the innermost word is the default."""
    head = _SHELL_HEAD.match(data, pos)
    if head is None:
        return None
    name = head.group(1).decode().rsplit(".", 1)[-1]
    at = head.end()
    if data[at:at + 1] == b"}":
        return Template(pos, at + 1, (name,), builtin=_builtin(name))
    op = _SHELL_OP.match(data, at)
    if op is None:
        return None
    at = op.end()
    if data.startswith(b"${", at):
        inner = _shell(data, at, depth + 1) if depth < 4 else None
        if inner is None or data[inner.end:inner.end + 1] != b"}":
            return None
        return Template(pos, inner.end + 1, (name, *inner.variables), inner.default, inner.default_span,
                        inner.builtin or _builtin(name))
    quote = data[at:at + 1] if data[at:at + 1] in (b"'", b'"') else b""
    word = _WORD.match(data, at + len(quote))
    if word is None:
        return None
    close = word.end() + len(quote)
    if (quote and data[word.end():close] != quote) or data[close:close + 1] != b"}":
        return None
    if op.group().endswith(b"?"):  # `${X:?message}`: the word is an error message, never a value
        return Template(pos, close + 1, (name,), builtin=_builtin(name))
    return Template(pos, close + 1, (name,), word.group().decode(), word.span(), _builtin(name))


# An environment lookup inside a template (break-it round 17, finding 11): Traefik's file provider
# and consul-template `{{ env "HOST" }}`, gomplate `{{ getenv "HOST" "default" }}` and
# `{{ env.Getenv "HOST" }}`, Hugo `{{ os.Getenv "HOST" }}`, sprig `{{ env "HOST" | default "x" }}`,
# Ansible's `{{ lookup('env', 'HOST') }}` (`ansible.builtin.env`, `| default('x')`): the variable the
# environment gives, from the `.env` or `env_file` the service reads.
_ENV_LOOKUP = lazy_re.compile(
    rb"\{\{-?[ \t]*(?:(?:env|getenv|env\.Getenv|os\.Getenv)[ \t]+\"(?P<go>" + _IDENT + rb")\""
    rb"(?:[ \t]+\"(?P<godefault>[A-Za-z0-9._-]*)\")?"
    rb"|lookup[ \t]*\([ \t]*(?P<q>['\"])(?:ansible\.builtin\.)?env(?P=q)[ \t]*,[ \t]*(?P<q2>['\"])"
    rb"(?P<ans>" + _IDENT + rb")(?P=q2)[ \t]*\))"
    rb"[ \t]*(?:\|[ \t]*(?:default|d)[ \t]*"
    rb"(?:\([ \t]*(?P<q3>['\"])(?P<jdefault>[A-Za-z0-9._-]*)(?P=q3)[ \t]*\)"
    rb"|\"(?P<sdefault>[A-Za-z0-9._-]*)\"|[ \t]+\"(?P<s2default>[A-Za-z0-9._-]*)\")[ \t]*)?-?\}\}")


def _env_lookup(data: bytes, pos: int) -> Template | None:
    found = _ENV_LOOKUP.match(data, pos)
    if found is None:
        return None
    name = (found.group("go") or found.group("ans")).decode()
    for group in ("godefault", "jdefault", "sdefault", "s2default"):
        if found.group(group):
            return Template(pos, found.end(), (name,), found.group(group).decode(), found.span(group))
    return Template(pos, found.end(), (name,))


def _jinja(data: bytes, pos: int) -> Template | None:
    found = _JINJA.match(data, pos)
    if found is None:
        return _env_lookup(data, pos)
    dotted = found.group("var").decode()
    name = dotted.rsplit(".", 1)[-1]  # `site.domain`, Helm's `.Values.node`
    # The keys before it, where they are a mapping's path (not Helm's `.Values.`, not a list index):
    # `networks.app.base` reads networks.app's `base` (break-it round 21, finding 02).
    parts = tuple(dotted.split(".")[:-1])
    path = parts if parts and parts[0] != "Values" and not any(p.isdigit() for p in parts) else ()
    filters = found.group("filters")
    exact = all(f.group("name").decode() in _KEEPING for f in _JINJA_FILTER.finditer(filters))
    default = _JINJA_DEFAULT.search(filters)
    if default is None:
        return Template(pos, found.end(), (name,), builtin=_builtin(name), exact=exact, path=path)
    offset = found.start("filters")
    span = (offset + default.start("value"), offset + default.end("value"))
    return Template(pos, found.end(), (name,), default.group("value").decode(), span, _builtin(name), exact,
                    path=path)


def templates(data: bytes) -> Iterator[Template]:
    """Every template in `data`, in order (one inside another's default is its own)."""
    for start in _START.finditer(data):
        found = template_at(data, start.start())
        if found is not None:
            yield found


_DEFAULT_START = lazy_re.compile(rb"\$\{|\{\{")


def defaults(data: bytes) -> Iterator[Template]:
    """Every shell or Jinja template with a default word, in order (the outermost of a nest)."""
    last = -1
    for start in _DEFAULT_START.finditer(data):
        if start.start() < last:
            continue  # inside a nest already read: `${Y:-...}` of `${X:-${Y:-...}}`
        found = template_at(data, start.start())
        if found is not None and found.default_span is not None:
            last = found.end
            yield found


def tails_of(hosts: Iterable[tuple[str, str]]) -> tuple[str, ...]:
    """The domains a composed name may end in: each old FQDN's labels after its first
    (`ana.lan` for ana-ml2.ana.lan), and each old name with a dot that is a domain renamed
    itself (`ana.lan -> fv.lan`: its first label is no old host name)."""
    olds = {old.rstrip(".") for old, _ in hosts}
    out: set[str] = set()
    for old in olds:
        labels = old.split(".")
        if len(labels) > 1:
            out.add(".".join(labels[1:]))
            if labels[0] not in olds:
                out.add(old)
    return tuple(sorted(out, key=lambda t: (-len(t), t)))


def literals(tails: Iterable[str]) -> tuple[bytes, ...]:
    """One of these is in every file holding a composed name (a join's words: its domain may be an
    element of its own, or a variable)."""
    found = {b"." + tail.encode() for tail in tails}
    return tuple(sorted(found | set(JOIN_LITERALS))) if found else ()


def might_hold(data: bytes, needles: Iterable[bytes], tails: tuple[str, ...]) -> bool:
    """Does `data` hold a composed name? (A needle first: most files hold none.)"""
    return any(needle in data for needle in needles) and bool(find(data, tails))


# Break-it round 9, finding 8: the spellings that make a name of each word of a list, or of a loop's
# variable, with no `${...}` before the domain.
_HELM_DOT = lazy_re.compile(rb"\{\{-?[ \t]*\.[ \t]*-?\}\}")  # Go templates' `{{ . }}` inside a range
_FSTRING = lazy_re.compile(rb"\{(" + _IDENT + rb")\}")  # Python's f"{h}.ana.lan"
_FSTRING_OPEN = lazy_re.compile(rb"(?<![A-Za-z0-9_])[rR]?[fF][rR]?(['\"])[^'\"\n]*$")
# h + ".ana.lan", Jinja's h ~ '.ana.lan'
_CONCAT = lazy_re.compile(rb"(?<![A-Za-z0-9_.$@])(" + _IDENT + rb")[ \t]*[+~][ \t]*['\"](?=\.)")
_VERB = lazy_re.compile(rb"%[sv]")  # a format's verb: format("%s.ana.lan", h), formatlist, printf, Python's %
_MAKE_CALL = lazy_re.compile(rb"\$[({](?:addsuffix[ \t]+(?=[^,()\n]*,)"
                        rb"|patsubst[ \t]+[^,()%\n]*%[^,()%\n]*,[^,()%\n]*(?=%[^,()%\n]*,))")
_MAKE_SUBST = lazy_re.compile(
    rb"\$\(" + _IDENT + rb":(?P<pattern>[^=()\n]*)=(?P<head>[^()%\n]*)(?=[^()\n]*?\))")
_ARGUMENT = lazy_re.compile(rb"[ \t]*,[ \t]*(?P<arg>" + _IDENT + rb"(?:\." + _IDENT + rb")*)[ \t]*\)")
_PY_PERCENT = lazy_re.compile(rb"[ \t]*%[ \t]*\(?[ \t]*(?P<arg>" + _IDENT + rb")[ \t]*(?:,[ \t]*\))?")
_JINJA_FORMAT = lazy_re.compile(rb"[ \t]*\|[ \t]*format[ \t]*\([ \t]*(?P<arg>" + _IDENT + rb"(?:\." + _IDENT
                           + rb")*)[ \t]*\)")
_GO_ARGUMENT = lazy_re.compile(rb"[ \t]+(?:\$(?P<var>" + _IDENT + rb")|(?P<dot>\.))[ \t]*(?:-?\}\}|[|)])")


# Ansible's `{{ hostvars[h].inventory_hostname }}`: the host `h` names, its own name.
_HOSTVARS = lazy_re.compile(rb"\{\{-?[ \t]*hostvars[ \t]*\[[ \t]*(?P<var>" + _IDENT + rb")[ \t]*\]"
                       rb"(?:\.|\[[ \t]*['\"])(?P<name>inventory_hostname(?:_short)?)(?:['\"][ \t]*\])?"
                       rb"[ \t]*-?\}\}")


def _list_templates(data: bytes) -> Iterator[Template]:
    """The templates no `${`/`{{ x }}` opens: `{{ . }}`, an f-string's `{h}`, `h + ".ana.lan"`, a
    format's `%s` (what it reads: format's argument, `%` where formatlist or printf walks a list),
    Make's addsuffix, patsubst and substitution references (`%`, each word of their list)."""
    if b"{{" in data:
        withs = key_refs.dots(data) if b"with" in data else None
        for found in _HELM_DOT.finditer(data):
            path = key_refs.dot_at(withs, found.start()) if withs is not None else None
            if path:  # `{{ with .Values.host }}{{ . }}.ana.lan{{ end }}`: `.` is `.Values.host`
                yield Template(found.start(), found.end(), (path[-1],))
                continue
            yield Template(found.start(), found.end(), (".",), reads=".")
        for found in _HOSTVARS.finditer(data):  # inside a loop, its values; else every host's own name
            name = found.group("var").decode()
            builtin = found.group("name").decode()
            yield Template(found.start(), found.end(), (name,), builtin=builtin, reads=name)
    if b"{" in data:
        for found in _FSTRING.finditer(data):
            line_start = data.rfind(b"\n", 0, found.start()) + 1
            in_fstring = _FSTRING_OPEN.search(data, line_start, found.start()) is not None
            if in_fstring and data[found.start() - 1:found.start()] != b"$":
                name = found.group(1).decode()
                yield Template(found.start(), found.end(), (name,), reads=name)
    if b"{{" in data and (b"regex_replace" in data or b"product" in data):
        for found in loop_values.JINJA_MAP.finditer(data):  # `map('regex_replace', '$', '.ana.lan')`
            if found.group("suffix") is not None:
                yield Template(found.start("suffix"), found.start("suffix"), ("%",), reads="%")
            elif found.group("pattern") == b"$":
                yield Template(found.start("replace"), found.start("replace"), ("%",), reads="%")
            else:
                group = re.match(rb"\\{1,2}1", data[found.start("replace"):found.end("replace")])
                if group is not None:
                    at = found.start("replace")
                    yield Template(at, at + group.end(), ("%",), reads="%")
    if b".format(" in data:  # Python's "{}.ana.lan".format(h): the placeholder reads the one argument
        for found in _PLACEHOLDER.finditer(data):
            close = _string_end(data, found.start())
            if close is None:
                continue
            argument = _FORMAT_CALL.match(data, close)
            line_start = data.rfind(b"\n", 0, found.start()) + 1
            if argument is not None and len(_PLACEHOLDER.findall(data, line_start, close)) == 1:
                name = argument.group("arg").decode()
                yield Template(found.start(), found.end(), (name,), builtin=_builtin(name), reads=name)
    if b"regex_replace" in data:  # `{{ inventory_hostname | regex_replace('$', '.ana.lan') }}`
        for found in _VAR_SUFFIXED.finditer(data):
            name = found.group("var").decode().rsplit(".", 1)[-1]
            yield Template(found.start(), found.end(), (name,), builtin=_builtin(name), reads=name)
    if b"environ" in data or b"getenv" in data:  # Python's `os.environ["HOST"] + ".ana.lan"`
        for found in _PY_ENV.finditer(data):
            name = (found.group("v1") or found.group("v2")).decode()
            builtin = name if name == "HOSTNAME" else None
            if found.group("concat") is not None:
                yield Template(found.start(), found.end(), (name,), builtin=builtin)
                continue
            line_start = data.rfind(b"\n", max(0, found.start() - 256), found.start()) + 1
            if _FSTRING_OPEN.search(data, max(line_start, found.start() - 256), found.start()) is not None:
                yield Template(found.start(), found.end(), (name,), builtin=builtin)
    if b"+" in data or b"~" in data:
        for found in _CONCAT.finditer(data):
            name = found.group(1).decode()
            yield Template(found.start(), found.end(), (name,), builtin=_builtin(name), reads=name)
    if b"%" in data:
        for found in _VERB.finditer(data):
            reads = _verb_reads(data, found.start(), found.end())
            if reads is not None:
                name = reads if reads == "." else reads.rsplit(".", 1)[-1]
                yield Template(found.start(), found.end(), (name,), builtin=_builtin(name), reads=reads)
    if b"$" in data:
        for found in _MAKE_CALL.finditer(data):
            at = found.end()
            yield Template(at, at + 1 if data[at:at + 1] == b"%" else at, ("%",), reads="%")
        for found in _MAKE_SUBST.finditer(data):
            at = found.end()
            if b"%" in found.group("pattern"):
                if data[at:at + 1] == b"%":
                    yield Template(at, at + 1, ("%",), reads="%")
            else:  # `$(HOSTS:=.ana.lan)`: each word's end replaced, the text appended to it
                yield Template(found.start("head"), found.start("head"), ("%",), reads="%")


# A variable whose end a filter appends the domain to (break-it round 19, finding 2).
_VAR_SUFFIXED = lazy_re.compile(
    rb"\{\{-?[ \t]*(?P<var>" + _IDENT + rb"(?:\." + _IDENT + rb"){0,8})[ \t]*\|[ \t]*"
                           rb"regex_replace"
                           rb"[ \t]*\([ \t]*(?P<q>['\"])\$(?P=q)[ \t]*,[ \t]*['\"](?=\.)")
# An environment lookup in Python (break-it round 19, finding 3): `os.environ["HOST"]`,
# `os.environ.get("HOST")`, `os.getenv('HOST')`, joined with `+ ".ana.lan"` or inside an f-string
# (`f"{os.getenv('HOST')}.ana.lan"`).
_PY_ENV = lazy_re.compile(rb"(?P<open>\{)?(?<![A-Za-z0-9_])os\.(?:environ[ \t]*\[[ \t]*(?P<q1>['\"])(?P<v1>"
                     + _IDENT
                     + rb")(?P=q1)[ \t]*\]|(?:environ\.get|getenv)[ \t]*\([ \t]*(?P<q2>['\"])(?P<v2>" + _IDENT
                     + rb")(?P=q2)[ \t]*\))(?:(?P<concat>[ \t]*\+[ \t]*['\"](?=\.))|(?(open)\}(?=\.)|(?!)))")
_FORMAT_CALL = lazy_re.compile(rb"\.format\([ \t]*(?P<arg>" + _IDENT + rb")[ \t]*\)")


def _string_end(data: bytes, pos: int) -> int | None:
    """Just past the quote closing the one-line string literal holding `pos`, if one does."""
    line_start = data.rfind(b"\n", 0, pos) + 1
    before = data[line_start:pos]
    quote_at = max(before.rfind(b'"'), before.rfind(b"'"))
    if quote_at < 0 or before.count(before[quote_at:quote_at + 1]) % 2 != 1:
        return None
    close = data.find(before[quote_at:quote_at + 1], pos)
    line_end = data.find(b"\n", pos)
    return None if close < 0 or 0 <= line_end < close else close + 1


def _verb_reads(data: bytes, start: int, end: int) -> str | None:
    """What a format's `%s` at [start, end) reads: `%` where formatlist or a shell's printf applies
    the format to each word of a list, the argument of format(), Python's `%` or Go's printf where it
    is a variable; None where it is none of these."""
    line_start = data.rfind(b"\n", 0, start) + 1
    before = data[line_start:start]
    quote_at = max(before.rfind(b'"'), before.rfind(b"'"))
    if quote_at < 0:
        return None
    quote = before[quote_at:quote_at + 1]
    if before.count(quote) % 2 != 1:
        return None
    close = data.find(quote, end)
    line_end = data.find(b"\n", end)
    if close < 0 or (0 <= line_end < close):
        return None
    text = data[line_start + quote_at + 1:close]
    if len(re.findall(rb"%[-+ #0-9.]*[a-zA-Z]", text.replace(b"%%", b""))) != 1:
        return None  # the verb is one of several: which argument it reads is not told here
    call = before[:quote_at].rstrip()
    if re.search(rb"(?<![A-Za-z0-9_])formatlist[ \t]*\($", call) or (
            re.search(rb"(?:^|[;&|({]|\bdo|\bthen|\belse)[ \t]*printf$", call) and b"{{" not in call):
        return "%"
    if re.search(rb"(?<![A-Za-z0-9_.])format[ \t]*\($", call):
        argument = _ARGUMENT.match(data, close + 1)
        return argument.group("arg").decode() if argument is not None else None
    if re.search(rb"\{\{-?[ \t]*(?:\$" + _IDENT + rb"[ \t]*:?=[ \t]*)?\(?printf$", call):
        go = _GO_ARGUMENT.match(data, close + 1)
        if go is not None:
            return "." if go.group("dot") else go.group("var").decode()
        return None
    percent = _PY_PERCENT.match(data, close + 1)
    if percent is None:  # Jinja's `'%s.ana.lan' | format(inventory_hostname)`
        percent = _JINJA_FORMAT.match(data, close + 1)
    return percent.group("arg").decode() if percent is not None else None


# A host and its domain joined by a dot as two elements (break-it round 17, findings 2 and 14): a
# list joined with ".", a format of `%s.%s` / `{}.{}`; each element a variable (`var.host`,
# `app_host`, `hostvars[h].x`) or a quoted literal.
_ELEMENT = (rb"(?:'[A-Za-z0-9._-]{1,253}'|\"[A-Za-z0-9._-]{1,253}\"|" + _IDENT + rb"(?:\." + _IDENT
            + rb"|\[[^\]\n]{0,64}\]){0,8})")  # bounded: a hostile line is read in linear time
_PAIR = rb"(?P<a>" + _ELEMENT + rb")[ \t]*,[ \t]*(?P<b>" + _ELEMENT + rb")[ \t]*,?[ \t]*"
_T = rb"[ \t]*"
_JOINS = (
    re.compile(rb"(?<![A-Za-z0-9_.])join" + _T + rb"\(" + _T + rb"\"\.\"" + _T + rb"," + _T + rb"\["
               + _T + _PAIR + rb"\]" + _T + rb"\)"),
    re.compile(rb"\[" + _T + _PAIR + rb"\]" + _T + rb"\|" + _T + rb"join" + _T + rb"\(" + _T
               + rb"(?P<q>['\"])\.(?P=q)" + _T + rb"\)"),
    re.compile(rb"(?P<q>['\"])\.(?P=q)" + _T + rb"\." + _T + rb"join" + _T + rb"\(" + _T + rb"[\[(]" + _T
               + _PAIR + rb"[\])]" + _T + rb"\)"),
    re.compile(rb"(?<![A-Za-z0-9_.])(?:format|printf|sprintf|Sprintf)" + _T + rb"\(" + _T
               + rb"(?P<q>['\"])%[sv]\.%[sv](?P=q)" + _T + rb"," + _T + _PAIR + rb"\)"),
    re.compile(rb"(?P<q>['\"])%s\.%s(?P=q)" + _T + rb"(?:%" + _T + rb"\(|\|" + _T + rb"format" + _T + rb"\()"
               + _T + _PAIR + rb"\)"),
    # Jinja's `a ~ '.' ~ b`, `a + "." + b` (Python, Jinja)
    re.compile(rb"(?<![A-Za-z0-9_.'\"])(?P<a>" + _ELEMENT + rb")" + _T + rb"(?P<op>[~+])" + _T
               + rb"(?P<q>['\"])\.(?P=q)" + _T + rb"(?P=op)" + _T + rb"(?P<b>" + _ELEMENT
               + rb")(?![A-Za-z0-9_.(\[])"),
    re.compile(rb"(?P<q>['\"])\{[0-9]?\}\.\{[0-9]?\}(?P=q)" + _T + rb"\." + _T + rb"format" + _T + rb"\(" + _T
               + _PAIR + rb"\)"),
    # Python's f"{host}.{domain}", C#'s $"{host}.{domain}" (break-it round 19, finding 2)
    re.compile(rb"(?<![A-Za-z0-9_])(?:[rR]?[fF][rR]?|\$)(?P<q>['\"])[^'\"\n{]{0,200}\{(?P<a>" + _IDENT
               + rb"(?:\."
               + _IDENT + rb"){0,8})\}\.\{(?P<b>" + _IDENT + rb"(?:\." + _IDENT + rb"){0,8})\}"),
)
JOIN_LITERALS = (b'join(".",', b"join('.')", b'join(".")', b"'.'.join", b'".".join', b"%s.%s", b"{}.{}",
                 b"%v.%v", b"{0}.{1}", b"'.'", b'"."', b"}.${", b"}}.{{", b"}.{{", b"}}.${", b"}${", b"}}{{",
                 b"}.{", b").$(", b"}.#{")
# A shell's bare `$HOST.$DOMAIN` (break-it round 19, finding 2): asked of joins only, a literal too
# common to gate the composed names on.
_BARE_JOIN = lazy_re.compile(rb"\$[A-Za-z_][A-Za-z0-9_]*\.\$[A-Za-z_]")


def _element(data: bytes, start: int, end: int) -> Template | str:
    """A join's element: its quoted literal's text, else the variable's template."""
    raw = data[start:end]
    if raw[:1] in (b"'", b'"'):
        return raw[1:-1].decode()
    path = re.sub(rb"\[[^\]]*\]", b"", raw).decode()  # `hostvars[h].name`: its `name`
    name = path.rsplit(".", 1)[-1]
    return Template(start, end, (name,), builtin=_builtin(name), reads=path)


def _joined_pairs(data: bytes) -> Iterator[tuple[re.Match[bytes], Template | str, Template | str]]:
    for form in _JOINS:
        for found in form.finditer(data):
            yield (found, _element(data, *found.span("a")), _element(data, *found.span("b")))


def joins(data: bytes) -> list[Joined]:
    """Every host variable and domain variable joined by a dot in `data` (`${HOST}.${DOMAIN}`,
    `{{ host }}.{{ domain }}`, `join(".", [var.host, var.domain])`, `'%s.%s' % (h, d)`)."""
    if not any(literal in data for literal in JOIN_LITERALS) \
            and not (b".$" in data and _BARE_JOIN.search(data)):
        return []
    out = []
    for found, half, other in _joined_pairs(data):
        if isinstance(half, Template) and isinstance(other, Template):
            out.append(Joined(found.start(), found.end(), half, other.variables[0],
                              found.group().decode("utf-8", "replace")))
    formed = sorted((j.start, j.end) for j in out)
    starts = [start for start, _ in formed]
    for start in _START.finditer(data):
        host = template_at(data, start.start())
        if host is None or data[host.end:host.end + 2] not in (b".$", b".{", b"${", b"{{", b".#") or \
                _prefix_start(data, host.start) != host.start:
            continue
        dot = data[host.end:host.end + 1] == b"."
        domain = template_at(data, host.end + 1 if dot else host.end)
        at = bisect.bisect_right(starts, host.start) - 1
        if (at >= 0 and host.start < formed[at][1]) or host.variables[0].startswith("{") or \
                b".Values." in data[host.start:host.end]:  # Helm's: helm_tails.py decides on the values
            continue  # inside a join read already, or a `{}` placeholder of a format read there
        if domain is None or domain.builtin is not None or _NAME_BYTE.match(data, domain.end) or (
                data[domain.end:domain.end + 1] == b"." and _NAME_BYTE.match(data, domain.end + 1)):
            continue
        out.append(Joined(host.start, domain.end, host, domain.variables[0],
                          data[host.start:domain.end].decode("utf-8", "replace"), "." if dot else ""))
    return sorted(out, key=lambda j: j.start)


def _joined_names(data: bytes, encoded: list[tuple[str, bytes]]) -> Iterator[ComposedName]:
    """A host variable joined to a literal domain as a list element or a format's argument
    (`[inventory_hostname, 'ana.lan'] | join('.')`, `join(".", [var.host, "ana.lan"])`)."""
    if not any(literal in data for literal in JOIN_LITERALS[:10]):
        return
    for found, host, domain in _joined_pairs(data):
        if not isinstance(host, Template) or isinstance(domain, Template):
            continue
        tail = next((t for t, _ in encoded if t == domain), None)
        if tail is None:
            continue
        tail_start = found.start("b") + 1
        out = ComposedName(found.start(), found.end(), host, "", "", tail, tail_start,
                           found.group().decode("utf-8", "replace"), joined=True)
        yield out


def find(data: bytes, tails: tuple[str, ...]) -> list[ComposedName]:
    """Every template standing as a host part before `.` and one of `tails` (longest first), the
    name ending there."""
    encoded = [(tail, tail.encode()) for tail in tails]
    out = []
    read = {t.start: t for t in _list_templates(data)}  # one that names what it reads wins its start
    found = sorted([*(t for t in templates(data) if t.start not in read), *read.values()],
                   key=lambda t: t.start)
    for template in found:
        suffix = _LABEL.match(data, template.end)
        at = suffix.end() if suffix is not None else template.end
        if at == template.end and data[at:at + 1] in (b'"', b"'") and data[at + 1:at + 2] == b".":
            at += 1  # `"${NODE}".ana.lan`: a shell joins the quoted expansion and what follows
        if data[at:at + 1] != b".":
            continue
        for tail, raw in encoded:
            end = at + 1 + len(raw)
            if data[at + 1:end] != raw or _NAME_BYTE.match(data, end) or (
                    data[end:end + 1] == b"." and _NAME_BYTE.match(data, end + 1)):
                continue
            start = _prefix_start(data, template.start)
            if start is None:
                break
            out.append(ComposedName(start, end, template, data[start:template.start].decode(),
                                    data[template.end:at].strip(b"'\"").decode(), tail, at + 1,
                                    data[start:end].decode("utf-8", "replace")))
            break
    taken = [(n.start, n.end) for n in out]
    out += [n for n in _joined_names(data, encoded)
            if not any(start < n.end and n.start < end for start, end in taken)]
    return sorted(out, key=lambda n: n.start)


def _prefix_start(data: bytes, pos: int) -> int | None:
    """Where the host label holding a template at `pos` starts; None where a dot or an
    underscore before it makes the template part of a longer name (`sub.${X}.ana.lan`)."""
    start = pos
    while start > 0 and (data[start - 1:start].isalnum() or data[start - 1:start] == b"-") \
            and data[start - 1] < 0x80:
        start -= 1
    if start > 0 and _LEFT.match(data, start - 1):
        return None
    return start
