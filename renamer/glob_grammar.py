"""The grammar of the paths a configuration names, and of a gitignore-style path pattern
(`current`, `exclude`, `records[].paths`, `keep[].path`, ...): what one may hold, checked where
the configuration is loaded, so that a bad one is a line naming its file, line and key, never a
failure later; and the POSIX character classes (`[[:alpha:]]`), which git's wildmatch reads and
Python's `re` does not, spelt out as the ranges they stand for."""

from __future__ import annotations

from renamer import lazy_re

MAX_PATTERN_BYTES = 4096  # PATH_MAX: no path in a work tree is longer

# wildmatch's classes, in the C locale git matches paths in (bytes, not the user's locale); each
# spelt so that it never starts with `!` or `^` (a negation where it lands first) nor holds a `/`
# (pathspec would split the pattern there; no bracket matches a `/` anyway)
_CLASSES = {
    "alnum": "a-zA-Z0-9", "alpha": "a-zA-Z", "blank": " \t", "cntrl": "\x01-\x1f\x7f",
    "digit": "0-9", "graph": '"-~!', "lower": "a-z", "print": " -~",
    "punct": '"-.:-@\\[-`{-~!', "space": " \t\n\v\f\r", "upper": "A-Z", "xdigit": "0-9a-fA-F",
}
_CLASS = lazy_re.compile(r"\[:([a-z]*):\]")


def path_problem(path: str) -> str | None:
    """Why `path` (a folder or file named in the configuration) can name no file, or None: what
    would otherwise fail deep inside the first system call that takes it."""
    try:
        size = len(path.encode("utf-8"))
    except UnicodeEncodeError as exc:
        bad = ascii(path[exc.start])[1:-1]
        return f"holds {bad}, a lone surrogate: no path written in UTF-8 holds one"
    if "\0" in path:  # a line break may be in a file name; a NUL never is
        return "holds \\x00: no path holds one"
    if size > MAX_PATTERN_BYTES:
        return f"is {size} bytes long: no path is longer than {MAX_PATTERN_BYTES}"
    return None


def pattern_problem(pattern: str) -> str | None:
    """Why `pattern` is no gitignore pattern a path could match, by its grammar, or None (what pathspec
    makes of it is `classify.compile_problem`'s to say: pathspec has one home)."""
    return path_problem(pattern) or _brackets_problem(pattern)


def _brackets_problem(pattern: str) -> str | None:
    """An unclosed `[`, a reversed range or an unknown `[:class:]`: git matches nothing with them."""
    at = 0
    while at < len(pattern):
        char = pattern[at]
        if char == "\\":
            if at + 1 == len(pattern):
                return "ends in a lone backslash, which escapes nothing"
            at += 2
            continue
        if char != "[":
            at += 1
            continue
        end, why = _bracket_end(pattern, at)
        if why:
            return why
        at = end + 1
    return None


def _bracket_end(pattern: str, start: int) -> tuple[int, str | None]:
    """Where the bracket expression opened at `start` closes, or why it does not."""
    at = start + 1
    if at < len(pattern) and pattern[at] in "!^":
        at += 1
    first = at
    previous: str | None = None
    while at < len(pattern):
        char = pattern[at]
        if char == "]" and at > first:
            return at, None
        if pattern.startswith("[:", at):
            found = _CLASS.match(pattern, at)
            if found is None or found.group(1) not in _CLASSES:
                name = found.group(1) if found else pattern[at + 2:at + 10]
                return at, f"[:{name}:] is no character class (known: {', '.join(sorted(_CLASSES))})"
            at, previous = found.end(), None
            continue
        if char == "\\" and at + 1 < len(pattern):
            at += 1
            char = pattern[at]
        if char == "-" and previous is not None and at + 1 < len(pattern) and pattern[at + 1] != "]":
            high = pattern[at + 2] if pattern[at + 1] == "\\" and at + 2 < len(pattern) else pattern[at + 1]
            if high < previous:
                return at, f"the range {previous}-{high} runs backwards: it matches nothing"
            at += 3 if pattern[at + 1] == "\\" else 2
            previous = None
            continue
        previous = char
        at += 1
    return at, f"opens a [ at column {start + 1} that never closes: git matches nothing with it"


def with_classes(pattern: str) -> str:
    """`pattern` with each `[:class:]` inside a bracket expression spelt out as its ranges (a
    `[:alpha:]` outside one is a bracket of its own, of the letters `:alph`, as git reads it)."""
    out, at = [], 0
    while at < len(pattern):
        char = pattern[at]
        if char == "\\":
            out.append(pattern[at:at + 2])
            at += 2
        elif char == "[":
            end, why = _bracket_end(pattern, at)
            if why:  # refused at load; left to pathspec as it is
                return pattern
            inner = _CLASS.sub(lambda m: _CLASSES[m.group(1)], pattern[at + 1:end])
            out.append(f"[{inner}]")
            at = end + 1
        else:
            out.append(char)
            at += 1
    return "".join(out)
