"""Hostlists as pdsh, Slurm and ClusterShell write them: `web[01-05]`, `node[1,3-5]`,
`web[01-05,07]`, `rack[1-2]-node[01-08/2]`, `10.0.0.[70-74]`.

A bracket of comma-separated numbers and ranges (`a-b`, ClusterShell's `a-b/step`) stands for
every name it expands to, padded to the width of each range's first number where that is written
with a leading zero (`[01-05]` is web01 ... web05), as pdsh's and Slurm's `hostlist_expand` and
ClusterShell's `NodeSet` expand it. host_sets.py reads the bracket as one of its groups (an
Ansible `[1:3]`'s sibling): a set whose expansion holds an old value is a `range` residual, never
rewritten (one member renamed breaks the set; the new names rarely form the same list).

A bracket of one number (`[1]`, `[12]`) is an index or a regular expression's class far more
often than a hostlist of one: it needs a `-` or a `,` to be read as one.
"""

from __future__ import annotations

from renamer import lazy_re

# The bracket: numbers and ranges (with an optional ClusterShell step), at least one `-` or `,`,
# right after a name's character (a hostlist has a prefix; YAML's `[80,443]` has none); never
# `[0-9]` (a regular expression's class spells the same set) nor one a quantifier follows.
BRACKET = lazy_re.compile(rb"\[(?<=[A-Za-z0-9._-]\[)(?![0-9]-[0-9]\])(?=[0-9,/-]*[-,])"
                     rb"(?P<body>[0-9]+(?:-[0-9]+(?:/[0-9]+)?)?(?:,[0-9]+(?:-[0-9]+(?:/[0-9]+)?)?)*)\](?![*+?{])")
# One item of the body: `7`, `01-05`, `1-9/2`.
_ITEM = lazy_re.compile(rb"(?P<first>[0-9]+)(?:-(?P<last>[0-9]+)(?:/(?P<step>[0-9]+))?)?")
MAX_VALUES = 100_000  # past this many numbers a range stands for its two ends


def values(body: bytes) -> tuple[bytes, ...]:
    """The numbers a hostlist bracket's body (`01-05,07`) expands to, in order, each padded as the
    item it comes from is written."""
    out: list[bytes] = []
    for item in body.split(b","):
        found = _ITEM.fullmatch(item)
        if found is None:
            return ()
        first = found.group("first")
        width = len(first) if first.startswith(b"0") and len(first) > 1 else 0
        if found.group("last") is None:
            out.append(first)
            continue
        low, high = int(first), int(found.group("last"))
        step = int(found.group("step") or b"1") or 1
        if high < low:
            return ()  # pdsh refuses a descending range: no hostlist
        numbers = range(low, high + 1, step) if (high - low) // step <= MAX_VALUES else (low, high)
        out.extend(f"{n:0{width}d}".encode() for n in numbers)
    return tuple(out)
