"""Git-style unified diffs over bytes, exact enough for `git apply`.

Edits replace host names and addresses inside lines and never add or remove a
line break, so old and new line i always correspond: no diff algorithm needed. The one
exception, a `moved` block added after a renamed Terraform label (sweep/terraform_labels.py),
adds lines: that file's diff is difflib's.
"""

from __future__ import annotations

import difflib

CONTEXT = 3
NO_NEWLINE = b"\\ No newline at end of file\n"


def quote_path(path: str) -> bytes:
    """A path as git writes it in headers: C-quoted when it holds odd characters."""
    raw = path.encode("utf-8", "surrogateescape")
    if all(0x20 < b < 0x7F and b not in b'"\\' for b in raw):
        return raw
    out = bytearray(b'"')
    escapes = {0x22: b'\\"', 0x5C: b"\\\\", 0x09: b"\\t", 0x0A: b"\\n"}
    for b in raw:
        if b in escapes:
            out += escapes[b]
        elif 0x20 <= b < 0x7F:
            out.append(b)
        else:
            out += b"\\%03o" % b
    return bytes(out + b'"')


def _prefixed(prefix: str, path: str) -> bytes:
    quoted = quote_path(path)
    if quoted.startswith(b'"'):
        return b'"' + prefix.encode() + quoted[1:]
    return prefix.encode() + quoted


def _split(data: bytes) -> list[bytes]:
    lines = data.split(b"\n")
    out = [line + b"\n" for line in lines[:-1]]
    if lines[-1]:
        out.append(lines[-1])
    return out


def file_diff(old_path: str, new_path: str, old: bytes, new: bytes, *, created: int | None = None) -> bytes:
    """The `diff --git` block turning `old` at old_path into `new` at new_path; with `created` (its
    mode), a file the sweep creates (a module's `moved.tf`), as git shows a new file."""
    a, b = _prefixed("a/", old_path), _prefixed("b/", new_path)
    header = [b"diff --git " + a + b" " + b + b"\n"]
    if created is not None:
        mode = b"100755" if created & 0o111 else b"100644"
        lines = _split(new)
        body = [part for line in lines for part in _line(b"+", line)]
        return b"".join([*header, b"new file mode " + mode + b"\n", b"--- /dev/null\n", b"+++ " + b + b"\n",
                         b"@@ -0,0 +1,%d @@\n" % len(lines), *body])
    if old_path != new_path:
        if old == new:
            header.append(b"similarity index 100%\n")
        header += [b"rename from " + quote_path(old_path) + b"\n",
                   b"rename to " + quote_path(new_path) + b"\n"]
    if old == new:
        return b"".join(header) if old_path != new_path else b""
    old_lines, new_lines = _split(old), _split(new)
    header += [b"--- " + a + b"\n", b"+++ " + b + b"\n"]
    if len(old_lines) != len(new_lines):  # lines added: a Terraform `moved` block
        lines = list(difflib.diff_bytes(difflib.unified_diff, old_lines, new_lines, n=CONTEXT))[2:]
        return b"".join(header + [line if line.endswith(b"\n") else line + b"\n" + NO_NEWLINE
                                  for line in lines])
    changed = [i for i, (x, y) in enumerate(zip(old_lines, new_lines, strict=True)) if x != y]
    body = [hunk for group in _groups(changed, len(old_lines))
            for hunk in _hunk(group, old_lines, new_lines)]
    return b"".join(header + body)


def _groups(changed: list[int], total: int) -> list[tuple[int, int, list[int]]]:
    """(first line, end line, changed lines) per hunk, merging hunks whose context touches."""
    groups: list[tuple[int, int, list[int]]] = []
    for index in changed:
        start, end = max(0, index - CONTEXT), min(total, index + CONTEXT + 1)
        if groups and start <= groups[-1][1]:
            first, _, members = groups[-1]
            groups[-1] = (first, end, [*members, index])
        else:
            groups.append((start, end, [index]))
    return groups


def _hunk(group: tuple[int, int, list[int]], old: list[bytes], new: list[bytes]) -> list[bytes]:
    start, end, members = group
    count = end - start
    out = [b"@@ -%d,%d +%d,%d @@\n" % (start + 1, count, start + 1, count)]
    changed = set(members)
    index = start
    while index < end:
        if index not in changed:
            out += _line(b" ", old[index])
            index += 1
            continue
        run_end = index
        while run_end < end and run_end in changed:
            run_end += 1
        out += [part for i in range(index, run_end) for part in _line(b"-", old[i])]
        out += [part for i in range(index, run_end) for part in _line(b"+", new[i])]
        index = run_end
    return out


def _line(prefix: bytes, line: bytes) -> list[bytes]:
    if line.endswith(b"\n"):
        return [prefix + line]
    return [prefix + line + b"\n", NO_NEWLINE]


def link_diff(old_path: str, new_path: str, old: bytes, new: bytes) -> bytes:
    """The block re-pointing a symlink (its target text is its content, mode 120000, no final
    newline), renamed too where the paths differ."""
    block = file_diff(old_path, new_path, old, new)
    at = block.find(b"\n--- ") + 1
    # git apply reads the mode from the index line; the object names are not needed to apply.
    return block[:at] + b"index 0000000..0000000 120000\n" + block[at:]
