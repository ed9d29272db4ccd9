"""Many file operations in one ssh round trip: a fixed remote script, the operations on stdin.

The script is constant text; every path, name, content and argv word travels on stdin as
base64 (`=` + base64, so an empty value is a field too), one operation a line, and is decoded
by the remote shell into a variable: nothing from the inventory or the repo is ever part of a
command line a shell parses. One result line comes back per operation run: its exit status,
its stdout and its stderr, base64 again. An operation marked `must` that fails ends the batch
there: what follows it (a snippet write after a failed backup write) is never run.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

# Operations: R read, W write (atomic), D remove, C create (exclusive), X run an argv,
# S list own files by a glob, G remove leftovers by globs, T dump a folder (see _DUMP).
SCRIPT = r"""d() { printf '%s' "${1#=}" | base64 -d; }
e() { printf '='; base64 | tr -d '\n'; }
o=$(mktemp) r=$(mktemp) || exit 1
trap 'rm -f -- "$o" "$r"' EXIT
while IFS=' ' read -r op f1 f2 f3 rest; do
  must=; case $op in '!'*) must=1; op=${op#!};; esac
  : > "$o"; : > "$r"
  case $op in
  R) p=$(d "$f1"); if [ -e "$p" ]; then cat -- "$p" > "$o" 2> "$r"; s=$?; else s=44; fi;;
  W) ( set -e; dir=$(d "$f1"); name=$(d "$f2"); umask 022; mkdir -p -- "$dir"
       t=$(mktemp "$dir/.$name.XXXXXX"); trap 'rm -f -- "$t"' EXIT
       d "$f3" > "$t"; chmod 644 "$t"; mv -f -- "$t" "$dir/$name" ) > "$o" 2> "$r"; s=$?;;
  D) p=$(d "$f1"); rm -f -- "$p" > "$o" 2> "$r"; s=$?;;
  C) ( dir=$(d "$f1"); name=$(d "$f2"); umask 022; mkdir -p -- "$dir" || exit 1
       t=$(mktemp "$dir/.$name.XXXXXX") || exit 1; trap 'rm -f -- "$t"' EXIT
       d "$f3" > "$t" || exit 1
       ln -- "$t" "$dir/$name" 2>/dev/null && exit 0; [ -e "$dir/$name" ] && exit 45; exit 1
     ) > "$o" 2> "$r"; s=$?;;
  X) set --; for w in $f1 $f2 $f3 $rest; do set -- "$@" "$(d "$w")"; done
     "$@" < /dev/null > "$o" 2> "$r"; s=$?;;
  S) ( cd -- "$(d "$f1")" 2>/dev/null || exit 0; g=$(d "$f2")
       for f in $g; do [ -f "$f" ] && printf '%s\n' "$f"; done; exit 0 ) > "$o" 2> "$r"; s=$?;;
  G) ( cd -- "$(d "$f1")" 2>/dev/null || exit 0; g=$(d "$f2")
       for f in $g; do [ -f "$f" ] && rm -f -- "$f"; done; exit 0 ) > "$o" 2> "$r"; s=$?;;
  T) ( cd -- "$(d "$f1")" 2>/dev/null || exit 44; max=$(d "$f2")
       for f in * .*; do
         case $f in .|..) continue;; esac; [ -e "$f" ] || [ -L "$f" ] || continue
         n=$(printf '%s' "$f" | e)
         if [ ! -f "$f" ]; then printf 'O %s\n' "$n"
         elif [ -L "$f" ]; then printf 'L %s\n' "$n"
         elif [ "$(wc -c < "$f")" -le "$max" ]; then printf 'F %s %s\n' "$n" "$(e < "$f")"
         else printf 'B %s\n' "$n"; fi
       done ) > "$o" 2> "$r"; s=$?;;
  *) s=2; printf 'unknown operation\n' > "$r";;
  esac
  printf '%s %s %s\n' "$s" "$(e < "$o")" "$(e < "$r")"
  if [ -n "$must" ] && [ "$s" -ne 0 ]; then exit 0; fi
done
"""

MISSING = 44  # R: no such file; T: no such folder
EXISTS = 45  # C: the name is taken


@dataclass(frozen=True)
class Op:
    code: str
    fields: tuple[bytes, ...] = ()
    must: bool = False  # a failure ends the batch here


@dataclass(frozen=True)
class Done:
    status: int
    out: bytes
    err: bytes


def encode(ops: list[Op]) -> bytes:
    return b"".join((b"!" if op.must else b"") + op.code.encode()
                    + b"".join(b" =" + base64.b64encode(f) for f in op.fields) + b"\n" for op in ops)


def decode(stdout: bytes) -> list[Done]:
    """The result of each operation that ran, in order (fewer than sent when one ended the batch)."""
    done = []
    for line in stdout.split(b"\n"):
        parts = line.split(b" ")
        if len(parts) != 3 or not parts[0].isdigit():
            continue
        done.append(Done(int(parts[0]), _field(parts[1]), _field(parts[2])))
    return done


@dataclass(frozen=True)
class Entry:
    kind: str  # F a regular file (read whole), L a link to a file, B a file over the limit, O not a file
    data: bytes | None = None  # F only

    @property
    def is_file(self) -> bool:
        return self.kind in ("F", "L", "B")  # as `[ -f ]` says: through links too


def dumped(out: bytes) -> dict[str, Entry]:
    """A T operation's folder: entry name -> what it is (and a regular file's bytes)."""
    entries: dict[str, Entry] = {}
    for line in out.split(b"\n"):
        parts = line.split(b" ")
        if len(parts) >= 2 and parts[0] in (b"F", b"L", b"B", b"O"):
            name = _field(parts[1]).decode("utf-8", "surrogateescape")
            data = _field(parts[2]) if parts[0] == b"F" and len(parts) == 3 else None
            entries[name] = Entry(parts[0].decode(), data)
    return entries


def _field(raw: bytes) -> bytes:
    return base64.b64decode(raw[1:]) if raw.startswith(b"=") else b""
