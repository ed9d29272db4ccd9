"""The numbers a format's argument takes, where the text around it says for certain (break-it
round 19, findings 1 and 12).

`format("pve%02d", count.index + 2)` under `count = 2` makes pve02 and pve03, never pve01;
`[f"pve{i:02d}" for i in range(2, 4)]`, a shell's `for i in 2 3`, Ansible's `loop: [2, 3]`, Nix's
`map (i: ...) [ 2 3 ]` and PowerShell's `2..3 | ForEach-Object` likewise. Where the argument is a
variable (plus or minus a literal) bound by one of these loops, its values are read and the
format is evaluated: only a value that makes the old name is reported. Anything else (a call, a
variable bound elsewhere, arithmetic other than `+ K`/`- K`) cannot be told: None, and the
format stays a "may make" residual. Pure: bytes in, numbers out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from renamer import composed_tails, lazy_re

_WINDOW = 512  # how far before (and after) the argument a loop header is looked for
WINDOW = _WINDOW * 8  # the bytes around the argument read at all
_MAX = 1000  # a range past this many values is not walked

_ARITH = lazy_re.compile(
    r"\(?\s*(?:(?P<k1>\d+)\s*\+\s*)?\(?\s*(?P<var>\$?\{?[A-Za-z_][A-Za-z0-9_.]*\}?)\s*\)?"
                    r"\s*(?:(?P<op>[+-])\s*(?P<k2>\d+))?\s*\)?")
_INT = lazy_re.compile(r"\s*\d+\s*")
_RANGE = r"range\s*\(\s*(?P<a>-?\d+)\s*(?:,\s*(?P<b>-?\d+)\s*)?(?:,\s*(?P<c>-?\d+)\s*)?\)"
_LIST = r"[\[(]\s*(?P<list>-?\d+(?:\s*,\s*-?\d+)*)\s*,?\s*[\])]"
_SEQ = r"\$\(\s*seq\s+(?:-w\s+)?(?P<s1>-?\d+)(?:\s+(?P<s2>-?\d+))?(?:\s+(?P<s3>-?\d+))?\s*\)"


@dataclass(frozen=True)
class Bound:
    """The values an argument takes, and the loop that says so."""

    values: tuple[int, ...]
    why: str


def _range(a: str, b: str | None, c: str | None) -> list[int] | None:
    start, stop, step = (0, int(a), 1) if b is None else (int(a), int(b), int(c) if c else 1)
    if step == 0 or abs(stop - start) // abs(step) > _MAX:
        return None
    return list(range(start, stop, step))


def _seq(a: str, b: str | None, c: str | None) -> list[int] | None:
    numbers = [int(x) for x in (a, b, c) if x is not None]
    first, step, last = (1, 1, numbers[0]) if len(numbers) == 1 else (
        (numbers[0], 1, numbers[1]) if len(numbers) == 2 else tuple(numbers))
    if step <= 0 or (last - first) // step > _MAX:
        return None
    return list(range(first, last + 1, step))


def _loops(var: str) -> list[re.Pattern[str]]:
    v = re.escape(var)
    return [
        # Python and Jinja comprehensions and loops, Terraform's `[for i in range(2, 4) : ...]`
        re.compile(r"\bfor\s+" + v + r"\s+in\s+(?:" + _RANGE + r"|" + _LIST + r")"),
        # a shell's `for i in $(seq 2 3)` (its word lists are composed_tails'), bash's C-style loop
        re.compile(r"\bfor\s+" + v + r"\s+in\s+" + _SEQ + r"\s*;?\s*(?:do\b|\n)"),
        re.compile(r"\bfor\s*\(\(\s*" + v + r"\s*=\s*(?P<ca>-?\d+)\s*;\s*" + v
                   + r"\s*(?P<cmp><=?)\s*(?P<cb>-?\d+)"
                   r"\s*;\s*(?:" + v + r"\+\+|\+\+" + v + r"|" + v + r"\s*\+=\s*1)\s*\)\)"),
        # Ruby's `(2..3).each { |i|` (`...`: the end left out), `2.upto(3) { |i|`
        re.compile(r"\(\s*(?P<ra>-?\d+)\s*(?P<dots>\.\.\.?)\s*(?P<rb>-?\d+)\s*\)\s*\.each\s*(?:do|\{)\s*\|\s*"
                   + v
                   + r"\s*\|"),
        re.compile(r"\b(?P<ua>-?\d+)\.upto\(\s*(?P<ub>-?\d+)\s*\)\s*(?:do|\{)\s*\|\s*" + v + r"\s*\|"),
        # Go's `for i := 2; i <= 3; i++`, C's and JavaScript's `for (let i = 2; i < 4; i++)`
        re.compile(r"\bfor\s*\(?\s*(?:(?:let|var|int|const)\s+)?" + v + r"\s*:?=\s*(?P<ca>-?\d+)\s*;\s*" + v
                   + r"\s*(?P<cmp><=?)\s*(?P<cb>-?\d+)\s*;\s*(?:" + v + r"\+\+|\+\+" + v + r")"),
    ]


def _line_of(text: str, pos: int) -> tuple[int, int]:
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return start, len(text) if end < 0 else end


def _variable_values(text: str, pos: int, var: str) -> Bound | None:
    """The values of `var` where a loop around `pos` binds it to literal numbers."""
    if var in ("item", "_"):
        return None
    line_start, line_end = _line_of(text, pos)
    lo = max(0, line_start - _WINDOW)
    best: tuple[int, list[int], str] | None = None
    for form in _loops(var):
        # The loop's header stands before the argument, or after it on its line (a comprehension).
        for found in form.finditer(text, lo, line_end):
            groups = found.groupdict()
            values: list[int] | None
            if groups.get("list") is not None:
                values = [int(x) for x in re.split(r"\s*,\s*", groups["list"])]
            elif groups.get("a") is not None:
                values = _range(groups["a"], groups.get("b"), groups.get("c"))
            elif groups.get("ra") is not None:
                stop = int(groups["rb"]) + (0 if groups["dots"] == "..." else 1)
                values = _range(groups["ra"], str(stop), None)
            elif groups.get("ua") is not None:
                values = _range(groups["ua"], str(int(groups["ub"]) + 1), None)
            elif groups.get("s1") is not None:
                values = _seq(groups["s1"], groups.get("s2"), groups.get("s3"))
            else:
                first, last = int(groups["ca"]), int(groups["cb"])
                values = _range(str(first), str(last + 1 if groups["cmp"] == "<=" else last), None)
            if values is None:
                continue
            if best is None or found.start() > best[0]:  # the innermost: the nearest header
                best = (found.start(), values, found.group().strip())
    if best is None:
        return None
    return Bound(tuple(best[1]), best[2])


_ANSIBLE_LOOP = lazy_re.compile(r"^[ \t]*(?:-[ \t]+)?(?:loop|with_items)[ \t]*:[ \t]*(?:" + _LIST
                           + r"|(?P<q>['\"])\{\{-?\s*" + _RANGE + r"\s*(?:\|\s*list\s*)?-?\}\}(?P=q))[ \t]*$",
                           re.M)


def _ansible_item(text: str, pos: int) -> Bound | None:
    """`item` of the task holding `pos`: a `loop:` or `with_items:` of literal numbers (or a
    `range()`) among the task's keys, before the next task starts."""
    line_start, line_end = _line_of(text, pos)
    task = line_start
    while task > 0:  # back to the task's `- ` line
        if re.match(r"[ \t]*-[ \t]", text[task:task + _WINDOW]):
            break
        task = text.rfind("\n", 0, task - 1) + 1
    head = re.match(r"[ \t]*", text[task:]).group()  # type: ignore[union-attr]
    end = line_end
    while end < len(text) and end - line_end < _WINDOW * 4:
        nxt = text.find("\n", end + 1)
        line = text[end + 1: len(text) if nxt < 0 else nxt]
        indent = len(line) - len(line.lstrip(" \t"))
        if line.strip() and (indent < len(head) or (indent == len(head) and line.lstrip().startswith("-"))):
            break
        end = len(text) if nxt < 0 else nxt
    found = _ANSIBLE_LOOP.search(text, task, end)
    if found is None:
        return None
    if found.group("list") is not None:
        values = [int(x) for x in re.split(r"\s*,\s*", found.group("list"))]
    else:
        got = _range(found.group("a"), found.group("b"), found.group("c"))
        if got is None:
            return None
        values = got
    return Bound(tuple(values), found.group().strip().lstrip("- "))


def _powershell(text: str, pos: int) -> Bound | None:
    """`$_` of a `2..3 | ForEach-Object { ... }` on the line."""
    line_start, _ = _line_of(text, pos)
    heads = list(re.finditer(r"(?P<a>-?\d+)\.\.(?P<b>-?\d+)\s*\|\s*(?:ForEach-Object|foreach|%)\s*\{",
                             text[line_start:pos]))
    if not heads:
        return None
    found = heads[-1]
    a, b = int(found.group("a")), int(found.group("b"))
    step = 1 if b >= a else -1
    if abs(b - a) > _MAX:
        return None
    return Bound(tuple(range(a, b + step, step)), found.group().rstrip(" {"))


def _nix_map(text: str, pos: int, var: str) -> Bound | None:
    """`map (i: "pve${...}") [ 1 2 3 ]` and `builtins.genList (i: ...) 3`: the lambda's argument."""
    line_start, line_end = _line_of(text, pos)
    before = text[max(line_start - _WINDOW, 0):pos]
    lams = list(re.finditer(r"(?:\bmap|\bgenList)\s*\(\s*" + re.escape(var) + r"\s*:", before))
    if not lams:
        return None
    lam = lams[-1]
    after = text[pos:min(len(text), line_end + _WINDOW)]
    close = after.find(")")
    if close < 0:
        return None
    rest = after[close + 1:]
    if lam.group().lstrip().startswith("map"):
        items = re.match(r"\s*\[\s*((?:-?\d+\s+)*-?\d+)\s*\]", rest)
        if items is None:
            return None
        return Bound(tuple(int(x) for x in items.group(1).split()), f"map over [ {items.group(1)} ]")
    count = re.match(r"\s*(\d+)\b", rest)
    if count is None or int(count.group(1)) > _MAX:
        return None
    return Bound(tuple(range(int(count.group(1)))), f"genList over {count.group(1)}")


def bounded(data: bytes, pos: int, argument: str) -> Bound | None:
    """The values `argument` (the expression a format at `pos` is given) takes, else None."""
    argument = argument.strip().strip("\"'")
    if not argument or len(argument) > 80:
        return None
    floor = max(0, pos - WINDOW)
    window = data[floor:pos + WINDOW]
    text = window.decode("utf-8", "replace")
    at = len(window[:pos - floor].decode("utf-8", "replace"))
    arith = _ARITH.fullmatch(argument)
    if arith is None:
        return None
    var = arith.group("var").strip("${}")
    k = int(arith.group("k1") or 0) + (int(arith.group("k2") or 0) * (-1 if arith.group("op") == "-" else 1))
    bound: Bound | None = None
    if var == "count.index":
        found = composed_tails.loop_values(window, pos - floor, "${count.index}")
        if found is not None:
            bound = Bound(tuple(int(v) for v in found.items), found.why)
    elif var == "_" and argument.startswith("$"):
        bound = _powershell(text, at)
    elif var == "item":
        bound = _ansible_item(text, at)
    elif "." not in var:
        shell = composed_tails.loop_values(window, pos - floor, f"${var}")
        if shell is not None and all(v.lstrip("-").isdigit() for v in shell.items):
            bound = Bound(tuple(int(v) for v in shell.items), shell.why)
        else:
            bound = _variable_values(text, at, var) or _nix_map(text, at, var)
    if bound is None:
        return None
    return Bound(tuple(v + k for v in bound.values), bound.why)
