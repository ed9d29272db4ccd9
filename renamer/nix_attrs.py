"""Nix attribute paths read segment by segment (break-it round 15, findings 2 and 6).

`custom.yggdrasil.peers.pug.allowedTCPPorts = [ 8080 ];` defines the attribute
`custom.yggdrasil.peers.pug`; so does `pug.ip = "...";` inside `custom.yggdrasil.peers = { ... };`,
and `config.custom.yggdrasil.peers."pug".ip` reads it. Each segment equal to a word is an
occurrence of that word as an attribute name, with its whole path up to that segment: the
enclosing sets' bindings (`a = {`, `a = lib.mkIf c {`, `a = [ {` ...), a `let`'s names, and a
select chain's own segments (a leading `config.` dropped: it reads the module's own options).

A segment `pug-0` (the word, a dash, more) is a literal name derived from the word, as
`"${name}-${toString x}"` builds from a key `pug`.

Pure: bytes in, occurrences out. Strings, `''` strings and comments are skipped, except the code of
their `${ }` interpolations.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from renamer import lazy_re

_IDENT = re.compile(rb"[A-Za-z_][A-Za-z0-9_'\-]*")
_KEYWORDS = {b"let", b"in", b"rec", b"with", b"inherit", b"if", b"then", b"else", b"assert", b"or"}
# A name composed from a variable and a dash: `"${name}-${toString x}"`, `"${name}-eth"`.
COMPOSES = lazy_re.compile(rb"\$\{[^}\n]*\}[-_]")  # `"${name}-${toString i}"`, `"${name}_..."` (round 16 #11)


@dataclass(frozen=True)
class Occurrence:
    start: int  # the word's bytes in the file
    end: int
    path: tuple[str, ...]  # the attribute path up to and including this segment
    binding: bool  # on a binding's left side (a definition), else read by a select chain
    derived: bool = False  # `pug-0`: a literal name derived from the word


@dataclass
class _Tok:
    kind: str  # id str . = ; { } [ ] ( ) ${ : , other
    start: int
    end: int
    text: bytes = b""  # an identifier's name, a plain string's contents (None-like b"" else)
    plain: bool = False  # a string with no interpolation


def _tokens(data: bytes) -> list[_Tok]:
    out: list[_Tok] = []
    # A stack of what a `}` closes: "code" (a brace of code) or the string kind an interpolation
    # returns to.
    stack: list[str] = []
    i, n = 0, len(data)

    def string(i: int, kind: str) -> int:
        """Read a string from `i` (just past its opening quote); return where code resumes. An
        interpolation pushes the string's kind and returns to the code loop."""
        begin = i
        while i < n:
            c = data[i:i + 1]
            if kind == '"':
                if c == b"\\":
                    i += 2
                    continue
                if c == b'"':
                    return i + 1
            else:
                if data.startswith(b"''", i):
                    if data.startswith((b"'''", b"''$", b"''\\"), i):
                        i += 3
                        continue
                    return i + 2
            if data.startswith(b"${", i):
                out.append(_Tok("str", begin, i))  # a string's text before its interpolation
                out.append(_Tok("${", i, i + 2))
                stack.append(kind)
                return i + 2
            i += 1
        return n

    while i < n:
        c = data[i:i + 1]
        if c in b" \t\r\n":
            i += 1
        elif c == b"#":
            j = data.find(b"\n", i)
            i = n if j < 0 else j + 1
        elif data.startswith(b"/*", i):
            j = data.find(b"*/", i + 2)
            i = n if j < 0 else j + 2
        elif c == b'"':
            before = len(out)
            end = string(i + 1, '"')
            if len(out) == before:  # closed with no interpolation: a plain string
                out.append(_Tok("str", i, end, data[i + 1:end - 1], True))
            i = end
        elif data.startswith(b"''", i):
            before = len(out)
            end = string(i + 2, "''")
            if len(out) == before:
                out.append(_Tok("str", i, end))
            i = end
        elif data.startswith(b"${", i):
            out.append(_Tok("${", i, i + 2))
            stack.append("code")
            i += 2
        elif c == b"{":
            out.append(_Tok("{", i, i + 1))
            stack.append("code")
            i += 1
        elif c == b"}":
            back = stack.pop() if stack else "code"
            out.append(_Tok("}", i, i + 1))
            i += 1
            if back != "code":  # the end of an interpolation: back inside its string
                before, resumed = len(out), i
                i = string(i, back)
                if len(out) == before:
                    out.append(_Tok("str", resumed, i))
        elif _IDENT.match(data, i) and (i == 0 or not data[i - 1:i].isalnum()):
            m = _IDENT.match(data, i)
            assert m is not None
            out.append(_Tok("id", i, m.end(), m.group()))
            i = m.end()
        elif c in b".=;[]():,":
            if c == b"=" and data.startswith(b"==", i):
                out.append(_Tok("other", i, i + 2))
                i += 2
            else:
                out.append(_Tok(c.decode(), i, i + 1))
                i += 1
        else:
            out.append(_Tok("other", i, i + 1))
            i += 1
    return out


def _segment(tok: _Tok) -> str | None:
    if tok.kind == "id":
        return tok.text.decode("utf-8", "replace")
    if tok.kind == "str" and tok.plain:
        return tok.text.decode("utf-8", "replace")
    return None


def occurrences(data: bytes, words: Collection[str]) -> list[Occurrence]:
    """Every segment of an attribute path that is one of `words`, or a name derived from one."""
    wanted = set(words)
    if not wanted:
        return []
    toks = _tokens(data)
    out: list[Occurrence] = []
    # Frames: (prefix, kind) for each open `{`, `[`, `(`, `${` and `let`; kind "set" reads
    # bindings, "let" too (its names are local), "code" does not.
    frames: list[tuple[tuple[str, ...], str]] = [((), "code")]
    pending: list[tuple[str, ...] | None] = [None]  # per frame: the binding whose value is open
    at_start = [True]  # per frame: at a binding's start
    i, n = 0, len(toks)

    def add(path: list[str], spans: list[tuple[int, int]], base: tuple[str, ...], binding: bool,
            head: bool = False) -> None:
        """`head`: the path's first segment is a variable, no attribute name."""
        for k, seg in enumerate(path):
            if head and k == 0:
                continue
            full = (*base, *path[:k + 1])
            if full[0] == "config" and len(full) > 1:  # a module's `config = { ... }`: its options
                full = full[1:]
            start, end = spans[k]
            if seg in wanted:
                out.append(Occurrence(start, end, full, binding))
                continue
            for word in wanted:
                if seg.startswith((word + "-", word + "_")) and len(seg) > len(word) + 1:
                    out.append(Occurrence(start, start + len(word), full, binding, derived=True))

    def chain(j: int) -> tuple[list[str], list[tuple[int, int]], int, bool]:
        """Read an attribute path from token j: (segments, word spans, next token, fully known)."""
        segs: list[str] = []
        spans: list[tuple[int, int]] = []
        known = True
        while j < n:
            seg = _segment(toks[j])
            if seg is None:
                if toks[j].kind == "${" or toks[j].kind == "str":
                    known = False
                break
            segs.append(seg)
            off = 1 if toks[j].kind == "str" else 0
            spans.append((toks[j].start + off, toks[j].end - off))
            j += 1
            if j < n and toks[j].kind == ".":
                j += 1
                continue
            break
        return segs, spans, j, known

    while i < n:
        t = toks[i]
        prefix, kind = frames[-1]
        if kind in ("set", "let") and at_start[-1] and t.kind in ("id", "str") \
                and not (t.kind == "id" and t.text in _KEYWORDS):
            segs, spans, j, known = chain(i)
            if segs and known and j < n and toks[j].kind == "=":
                add(segs, spans, prefix, True)
                pending[-1] = (*prefix, *segs)
                at_start[-1] = False
                i = j + 1
                continue
        if t.kind == "id" and t.text == b"inherit" and kind in ("set", "let"):
            j = i + 1
            source: tuple[str, ...] | None = None
            if j < n and toks[j].kind == "(":
                segs, spans, k, known = chain(j + 1)
                if known and k < n and toks[k].kind == ")":
                    source = tuple(segs[1:] if segs[:1] == ["config"] else segs)
                depth = 0
                while j < n:
                    depth += toks[j].kind == "("
                    depth -= toks[j].kind == ")"
                    j += 1
                    if depth == 0:
                        break
            while j < n and toks[j].kind != ";":
                seg = _segment(toks[j])
                if seg in wanted:
                    out.append(Occurrence(toks[j].start + (toks[j].kind == "str"),
                                          toks[j].end - (toks[j].kind == "str"), (*prefix, seg), True))
                    if source is not None:
                        out.append(Occurrence(toks[j].start + (toks[j].kind == "str"),
                                              toks[j].end - (toks[j].kind == "str"), (*source, seg), False))
                j += 1
            i = j
            continue
        if t.kind == "id" and t.text == b"let":
            frames.append(((), "let"))
            pending.append(None)
            at_start.append(True)
            i += 1
            continue
        if t.kind == "id" and t.text == b"in" and kind == "let":
            frames.pop()
            pending.pop()
            at_start.pop()
            i += 1
            continue
        if t.kind == "id" and t.text == b"rec":
            i += 1
            continue
        if t.kind == "id" and t.text not in _KEYWORDS and not (i > 0 and toks[i - 1].kind == "."):
            segs, spans, j, _known = chain(i)
            if segs[:1] == ["config"]:  # the module's own options
                add(segs[1:], spans[1:], (), False)
            elif len(segs) > 1:
                add(segs, spans, (), False, head=True)
            i = max(j, i + 1)
            continue
        if t.kind == "{":  # a set bound to a path, directly or through a call (`x = lib.mkIf c {`)
            bound = pending[-1]
            frames.append((bound if bound is not None else prefix, "set"))
            pending.append(None)
            at_start.append(True)
            i += 1
            continue
        if t.kind in ("[", "(", "${"):
            bound = pending[-1]
            frames.append((bound if bound is not None else prefix, "code"))
            pending.append(bound)
            at_start.append(False)
            i += 1
            continue
        if t.kind in ("}", "]", ")"):
            if len(frames) > 1:
                frames.pop()
                pending.pop()
                at_start.pop()
            i += 1
            continue
        if t.kind == ";" and kind in ("set", "let"):
            pending[-1] = None
            at_start[-1] = True
        i += 1
    return out


def dotted(path: tuple[str, ...]) -> str:
    return ".".join(f'"{p}"' if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_'\-]*", p) else p for p in path)
