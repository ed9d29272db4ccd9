"""Names built from a domain variable: `ana-ml2.{{ domain }}`, `ana-ml2.${DOMAIN}`, `ana-ml2.$DOMAIN`.

An old FQDN's first label followed by a dot and a template (Jinja `{{ var }}`, `{{ site.domain }}`,
`{{ base_domain | default('ana.lan') }}`, Helm's `{{ .Values.domain }}`; a shell's `${VAR}`,
`${VAR:-ana.lan}`, `$VAR`, Terraform's `${var.domain}`) is the
old FQDN wherever the variable holds the old domain, while the bytes spell no old value. Where
the variable is defined is another file's business (sweep/templated.py asks the repo); this
module finds such names, says which variable (and default) each reads, and reads a definition
of a variable off a line (YAML `domain: ana.lan`, `.env` or shell `DOMAIN=ana.lan`, `export`,
an INI inventory's `domain=ana.lan`, a compose list's `- DOMAIN=ana.lan`, Jinja's `{% set %}`).
Pure: bytes in, spans out.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from renamer import lazy_re

_IDENT = rb"[A-Za-z_][A-Za-z0-9_]*"
# The template right after `label.`: Jinja (a dotted name, then filters), `${VAR...}`, `$VAR`.
_TEMPLATE = lazy_re.compile(
    rb"\{\{-?[ \t]*\.?(?P<jvar>" + _IDENT + rb"(?:\." + _IDENT + rb")*)"
    rb"(?P<filters>(?:[^}\n]|\}(?!\}))*)-?\}\}"
    rb"|\$\{(?P<svar>" + _IDENT + rb"(?:\." + _IDENT + rb")*)(?:(?P<op>:?[-=?+])(?P<sdef>[^}\n]*))?\}"
    rb"|\$(?P<bvar>" + _IDENT + rb")")
# A name joined to its domain variable by an operator or a format's slot (round 23 finding 03), after
# `label.`: Make's `$(DOMAIN)`; a single-brace slot naming a variable (Python's f-string, C#'s `$"..."`,
# Rust's `format!`); the string's closing quote, then `+` (Ruby, Python, Go, Nix, JS), Jinja's `~`,
# Lua's `..`, PHP's and Perl's spaced `.`, SQL's `||`, VB's `&` and a variable; a `%s` / `{}` slot
# closing the string, then its argument: Python's `% domain`, `.format(domain)`, and the first
# argument of a printf-family call (`Sprintf("web01.%s", domain)`, HCL `format()`), where the
# string opens at the label (the slot is then the first).
_DOTTED = _IDENT + rb"(?:\." + _IDENT + rb")*"
_JOINED = lazy_re.compile(
    rb"\$\((?P<mvar>" + _IDENT + rb")\)"
    rb"|\{(?P<fvar>" + _DOTTED + rb")\}"
    rb"|[\"'][ \t]*(?:\+|~|\.\.|[ \t]\.|\|\||&)[ \t]*\$?(?P<ovar>" + _DOTTED + rb")(?![A-Za-z0-9_(\[])")
_SLOT = lazy_re.compile(
    rb"(?:%s|\{\})[\"'][ \t]*(?:%[ \t]*\(?[ \t]*|\)?[ \t]*\.format\([ \t]*|,[ \t]*)\$?"
    rb"(?P<pvar>" + _DOTTED + rb")(?![A-Za-z0-9_(\[])")
# HCL's and Python's joins of a list with ".": `join(".", ["web01", var.domain])`,
# `".".join(["web01", domain])`: the label, then the variable
_LIST_JOIN = lazy_re.compile(
    rb"(?:\bjoin\([ \t]*[\"']\.[\"'][ \t]*,[ \t]*\[|[\"']\.[\"']\.join\([ \t]*[\[(])[ \t]*[\"']"
    rb"(?P<label>[A-Za-z0-9][A-Za-z0-9-]*)[\"'][ \t]*,[ \t]*\$?(?P<lvar>" + _DOTTED + rb")[ \t]*[\])]")
_JINJA_DEFAULT = lazy_re.compile(rb"\|[ \t]*(?:default|d)[ \t]*\([ \t]*(['\"])(?P<value>[^'\"\n]*)\1")
_TAIL = lazy_re.compile(rb"(?:\.[A-Za-z0-9-]+)*")  # labels after the template: `.{{ domain }}.internal`
_LEFT = re.compile(rb"[A-Za-z0-9_.-]")


@dataclass(frozen=True)
class TemplatedName:
    """`label.` and a template at [start, end): the candidates it may be, each (old, new, domain)."""

    start: int
    end: int
    text: str
    variable: str
    default: str | None  # a Jinja `default('...')` or a shell `${V:-...}` word
    tail: str  # labels after the template, which the old domain must end with
    candidates: tuple[tuple[str, str, str], ...]


def labels_of(hosts: Iterable[tuple[str, str]]) -> dict[str, tuple[tuple[str, str, str], ...]]:
    """Old FQDNs by each of their leading labels: `ana-ml2` and `ana-ml2.ana` for ana-ml2.ana.lan
    (the variable may hold the domain, or only its last labels) -> ((old, new, the rest), ...)."""
    out: dict[str, list[tuple[str, str, str]]] = {}
    for old, new in hosts:
        labels = old.rstrip(".").split(".")
        for cut in range(1, len(labels)):
            head, rest = ".".join(labels[:cut]), ".".join(labels[cut:])
            if head and rest:
                out.setdefault(head, []).append((old, new, rest))
    return {label: tuple(found) for label, found in out.items()}


def literals(labels: Iterable[str]) -> tuple[bytes, ...]:
    """One of these is in every file holding a templated name: `label.{{` or `label.$`, and the
    quoted label a list join names (`join(".", ["puppet", var.domain])`)."""
    return tuple(sorted({f"{label}.{start}".encode() for label in labels
                         for start in ("{{", "$", '"', "'", "%s", "{")}
                        | {f"{quote}{label}{quote}".encode() for label in labels for quote in "\"'"}))


def might_hold(data: bytes, needles: Iterable[bytes]) -> bool:
    """The quoted label (a needle starting with a quote) counts only beside a `join(`: the literal
    set above gates the reader, so a file with a join but no label is not read (the join form of
    round 23, finding 03, had made every `join(` a candidate, past the native first pass's gate)."""
    return ((b".{{" in data or b".$" in data or b'."' in data or b".'" in data or b".%s" in data
             or b".{" in data) and any(n in data for n in needles if n[:1] not in b"\"'")) \
        or (b"join(" in data and any(n in data for n in needles if n[:1] in b"\"'"))


def find(data: bytes, labels: dict[str, tuple[tuple[str, str, str], ...]]) -> list[TemplatedName]:
    """Every `label.` + template in `data` whose label is an old FQDN's first label, in order."""
    out = []
    for label, candidates in labels.items():
        needle = label.encode() + b"."
        pos = data.find(needle)
        while pos != -1:
            found = _at(data, pos, len(needle), candidates)
            if found is not None:
                out.append(found)
            pos = data.find(needle, pos + 1)
    if b"join(" in data:
        for hit in _LIST_JOIN.finditer(data):
            joined = labels.get(hit.group("label").decode())
            if joined:
                text = data[hit.start():hit.end()].decode("utf-8", "replace")
                variable = hit.group("lvar").decode().rsplit(".", 1)[-1]
                out.append(TemplatedName(hit.start(), hit.end(), text, variable, None, "", joined))
    return sorted(out, key=lambda t: t.start)


def _at(data: bytes, pos: int, width: int,
        candidates: tuple[tuple[str, str, str], ...]) -> TemplatedName | None:
    if pos > 0 and _LEFT.match(data, pos - 1) and data[pos - 2:pos] != b":-":
        return None  # `x-ana-ml2.{{`: another name (DESIGN's left boundary)
    template = _TEMPLATE.match(data, pos + width)
    if template is None:
        return _joined(data, pos, width, candidates)
    tail = _TAIL.match(data, template.end())
    end = tail.end() if tail is not None else template.end()
    tail_text = data[template.end():end].decode("ascii", "replace")
    default = None
    if template.group("jvar") is not None:
        variable = template.group("jvar").decode().rsplit(".", 1)[-1]  # `site.domain`: the key `domain`
        filters = _JINJA_DEFAULT.search(template.group("filters"))
        default = filters.group("value").decode("utf-8", "replace") if filters else None
    elif template.group("svar") is not None:
        variable = template.group("svar").decode().rsplit(".", 1)[-1]  # Terraform's `${var.domain}`
        if template.group("op") is not None and template.group("op")[-1:] in b"-=":
            default = template.group("sdef").decode("utf-8", "replace")
    else:
        variable = template.group("bvar").decode()
    text = data[pos:end].decode("utf-8", "replace")
    return TemplatedName(pos, end, text, variable, default, tail_text, candidates)


def _joined(data: bytes, pos: int, width: int,
            candidates: tuple[tuple[str, str, str], ...]) -> TemplatedName | None:
    """`label.` joined to a variable by an operator or a format's slot (above), else None."""
    at = pos + width
    joined = _JOINED.match(data, at)
    variable = None
    if joined is not None:
        variable = joined.group("mvar") or joined.group("fvar") or joined.group("ovar")
    elif data[pos - 1:pos] in (b'"', b"'") or data[pos - 2:pos] in (b'f"', b"f'"):
        slot = _SLOT.match(data, at)
        if slot is not None:
            joined, variable = slot, slot.group("pvar")
    if joined is None or variable is None:
        return None
    name = variable.decode().rsplit(".", 1)[-1]  # `var.domain`, `self.domain`: the key `domain`
    text = data[pos:joined.end()].decode("utf-8", "replace")
    return TemplatedName(pos, joined.end(), text, name, None, "", candidates)


def same_domain(value: str, tail: str, domain: str) -> bool:
    """Does a variable holding `value`, followed by `tail`, spell `domain` (any case, a final dot)?"""
    return (value.strip().strip("'\"") + tail).rstrip(".").lower() == domain.lower()


def defined_value(line: str, variable: str) -> str | None:
    """The value `line` gives `variable`, if it defines it: `variable: value` (YAML),
    `variable=value` (`.env`, shell, an INI inventory's vars and host lines, a compose list's
    `- VAR=value`),
    `export variable=value`, `{% set variable = 'value' %}`; quotes and a trailing comment off."""
    readers = _definition_readers(variable)
    found = None
    for kind, reader in zip("msmms", readers[:5], strict=True):
        found = reader.match(line) if kind == "m" else reader.search(line)
        if found is not None:
            break
    if found is None:
        return None
    value = found.group(1).strip()
    if value[:1] in ("'", '"'):
        closing = value.find(value[0], 1)
        return value[1:closing] if closing > 0 else None
    value = _COMMENT.split(value, maxsplit=1)[0].strip()
    if readers[5].match(line):
        # A shell assignment ends where its command list goes on: `OCT=5; ping 10.0.0.$OCT`.
        value = _COMMAND_LIST.split(value, maxsplit=1)[0].strip()
    return value


_COMMENT = lazy_re.compile(r"\s+#")
_COMMAND_LIST = lazy_re.compile(r"\s*(?:;|&&|\|\|)")


@functools.lru_cache(maxsize=4096)
def _definition_readers(variable: str) -> tuple[re.Pattern[str], ...]:
    """defined_value's regexes for one variable, compiled once (issue 30: re's own cache holds 512
    patterns, and a repo whose definitions name a few hundred variables, six regexes each, compiled
    them again on every line: 13 s of a sweep of mailcow-dockerized). Matched (m) or searched (s) in
    this order; the last one is the shell assignment's test."""
    name = re.escape(variable)
    # (round 23 finding 03: `const domain = "x"`, `val`, `var`, `let`, `local`, `my`, PHP's `$domain`,
    # Go's and Make's `:=`, Make's `?=`, a type after the name: `domain: string = "x"`)
    return (re.compile(rf"\s*(?:-\s+)?(?:(?:export|const|var|val|let|local|my|our|readonly|static|final)"
                       rf"\s+)*\$?{name}(?:\s*:\s*[A-Za-z][\w.]*(?=\s*=))?\s*(?::=|\?=|::=|[:=](?!=))\s*(.*)$"),
            re.compile(rf"\{{%-?\s*set\s+{name}\s*=\s*(.*?)\s*-?%\}}"),
            # a typed declaration, a C-family statement: `const string domain = "x";`, Java's
            # `static final String domain = "x";` (round 23 finding 03)
            re.compile(rf"\s*(?:(?:public|private|protected|internal|static|final|const|readonly)\s+)*"
                       rf"[A-Za-z_][\w<>\[\].?]*\s+{name}\s*=\s*(\"[^\"\n]*\"|'[^'\n]*')\s*;"),
            # An INI inventory's host line: `ana-ml2 ansible_host=10.250.50.54 node=ana-ml2`.
            re.compile(rf"[A-Za-z0-9_.\[\]:-]+(?:\s+[A-Za-z0-9_]+=\S+)*?\s+{name}="
                       rf"(\"[^\"]*\"|'[^']*'|\S+)"),
            # A Nix binding after `let`, `{` or `;`: `let host = "pug"; domain = "ana.lan"; in ...`
            # (break-it round 19, finding 13: the nearest definition, on the join's own line)
            re.compile(rf"(?:\blet\s+|[{{;]\s*){name}\s*=\s*(\"[^\"\\$]*\")\s*;"),
            re.compile(rf"\s*(?:-\s+)?(?:export\s+)?{name}\s*="))
