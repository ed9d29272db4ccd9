"""Host names made by a format with a number (break-it round 17, finding 1).

`target_node = format("pve%02s", (count.index % 3) + 1)` makes pve01 for count.index 0 and 3, as
Terraform's `format("pve%02d", 1)` and `"pve${format("%02d", 1)}"`, Jinja's `'pve%02d' | format(1)`,
Python's `'pve%02d' % 1` and `"pve{:02d}".format(1)`, an f-string's `f"pve{n:02d}"`, a shell's
`printf 'pve%02d' 1` and `seq -f 'pve%02g' 1 3`, and Ansible's `with_sequence: start=1 end=3
format=pve%02d` do: no byte spells pve01, so the sweep rewrote the literal `pve01` elsewhere and
left every VM the format places on a node that no longer exists, with verify OK.

Each format whose literal text around a number directive (`%02d`, `%02s`, `%g`, `{:02d}`, `{}`)
is an old name's with its number taken out (`pve` + `01`, `k8s-` + `0`) is read here with the
number it is given: a literal (or a literal sequence: `seq`'s and `with_sequence`'s bounds) that
makes the old name, or one that cannot be told (a variable, arithmetic): it may make it. What the
sweep does with it is sweep/formatted_names.py's. Pure: bytes in, spans out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from renamer import composed_tails, formatted_values, lazy_re

# A number directive: printf's `%02d` (`%02s`, `%g`, `%i`, `%u`), Python's `{:02d}` and `{n:02d}`,
# a positional `{}` / `{0}` (str.format's), and Terraform's `${format("%02d", n)}` inside a string.
_PRINTF = rb"%(?P<zero>0?)(?P<width>[0-9]*)(?P<conv>[dsgiu])"
_BRACE = (rb"\{(?P<field>[A-Za-z_][A-Za-z0-9_.]*|[0-9]*)(?::(?P<bzero>0?)(?P<bwidth>[0-9]*)d?"
          rb"|:[dD](?P<dwidth>[0-9]+))?\}")  # .NET's `{0:D2}` (PowerShell's -f, C#'s $"...")
# Nix's `${lib.fixedWidthNumber 2 i}` (`lib.strings.`, bare): zero-padded to its width
_NIX = (rb"\$\{[ \t]*(?:lib\.)?(?:strings\.)?fixedWidthNumber[ \t]+(?P<nwidth>[0-9]+)[ \t]+"
        rb"(?P<narg>[^{}\n]*?)[ \t]*\}")
_TF = (rb"\$\{[ \t]*format[ \t]*\([ \t]*\"%(?P<tzero>0?)(?P<twidth>[0-9]*)[dsgiu]\"[ \t]*,[ \t]*"
       rb"(?P<targ>[^()\n]*?)[ \t]*\)[ \t]*\}")
_DIRECTIVE = lazy_re.compile(_PRINTF + rb"|" + _BRACE + rb"|" + _TF + rb"|" + _NIX)
_NAME = re.compile(rb"[A-Za-z0-9.-]*")
# A template opened right after a name's stem, the directive its first text: Jinja's `{{ '%02d' % i }}`
# (or `| format(i)`), a shell's `$(printf '%02d' "$i")`.
_OPENED = lazy_re.compile(rb"(?P<stem>[A-Za-z][A-Za-z0-9-]*)"
                     rb"(?P<open>\{\{-?[ \t]*(?:printf[ \t]+)?|\$\([ \t]*printf[ \t]+)"
                     rb"['\"]?\Z")
_WINDOW = 256
_EVALUATIONS = 64
_FORMAT_AFTER = lazy_re.compile(
    rb"[^\n]*?['\"][ \t]*(?:\.format[ \t]*\(|-f[ \t])")  # str.format, PowerShell's -f
_NUMBER = lazy_re.compile(rb"[ \t]*['\"]?(?P<num>[0-9]+)['\"]?[ \t]*")

# What follows the closing quote of a format given its number: a call's argument, Jinja's filter,
# Python's `%`, str.format.
_AFTER = (
    re.compile(rb"[ \t]*,[ \t]*(?P<num>[0-9]+)[ \t]*\)"),  # format("pve%02d", 1), sprintf(...)
    re.compile(rb"[ \t]*\|[ \t]*format[ \t]*\([ \t]*(?P<num>[0-9]+)[ \t]*\)"),  # 'pve%02d' | format(1)
    re.compile(rb"[ \t]*%[ \t]*\(?[ \t]*(?P<num>[0-9]+)(?![0-9A-Za-z_.])"),  # 'pve%02d' % 1
    re.compile(rb"\.format[ \t]*\([ \t]*(?P<num>[0-9]+)[ \t]*\)"),  # "pve{:02d}".format(1)
    re.compile(rb"[ \t]*-f[ \t]+(?P<num>[0-9]+)(?![0-9A-Za-z_.])"),  # PowerShell's "pve{0:D2}" -f 1
)
_PRINTF_CMD = lazy_re.compile(rb"(?<![A-Za-z0-9_-])printf[ \t]+(?:-v[ \t]+\w+[ \t]+)?$")
_PRINTF_ARG = lazy_re.compile(rb"[ \t]+['\"]?(?P<num>[0-9]+)['\"]?(?![0-9A-Za-z_.])")
_SEQ_CMD = lazy_re.compile(
    rb"(?<![A-Za-z0-9_-])seq[ \t]+(?:-[ws][ \t]+(?:\S+[ \t]+)?)*(?:-f[ \t]*|--format=)$")
_SEQ_ARGS = lazy_re.compile(rb"(?:[ \t]+-[ws](?:[ \t]+\S+)?)*[ \t]+(?P<a>-?[0-9]+)(?:[ \t]+(?P<b>-?[0-9]+))?"
                       rb"(?:[ \t]+(?P<c>-?[0-9]+))?(?![0-9A-Za-z_.])")
_SEQUENCE = lazy_re.compile(
    rb"with_sequence|lookup[ \t]*\([ \t]*['\"]sequence|query[ \t]*\([ \t]*['\"]sequence")
_SEQUENCE_KEY = lazy_re.compile(
    rb"(?<![A-Za-z_])(?P<key>start|end|count|stride)[ \t]*=[ \t]*(?P<num>-?[0-9]+)")


@dataclass(frozen=True)
class Formatted:
    """A format at [start, end) that makes `old` (`exact`: its literal number does; else it may)."""

    start: int
    end: int
    old: str
    text: str
    number: str  # what the directive is given, as written (or "" where it cannot be told)
    exact: bool


def stems(olds: Iterable[str]) -> dict[str, list[str]]:
    """Each old host name (an FQDN's first label too) with a number in it, by the letters before
    its last run of digits (`pve` for pve01, `k8s-` for k8s-0): a format's literal text."""
    out: dict[str, list[str]] = {}
    for old in olds:
        for name in {old.rstrip("."), old.rstrip(".").split(".")[0]}:
            split = re.fullmatch(r"(.*?[A-Za-z][^0-9]*?|.*[A-Za-z].*?)([0-9]+)([^0-9]*)", name)
            if split is None or not re.search(r"[A-Za-z]", split.group(1)):
                continue
            if name not in out.setdefault(split.group(1), []):
                out[split.group(1)].append(name)
    return {stem: sorted(names, key=lambda n: (-len(n), n)) for stem, names in out.items()}


def literals(olds: Iterable[str]) -> tuple[bytes, ...]:
    """One of these stands in every file `might_hold` accepts (the scan's prefilter words)."""
    return tuple(sorted(stem.encode() for stem in stems(olds)))


_PREFIX_END = lazy_re.compile(rb"[0-9]*['\"/,]")
_LEAD_DIGITS = lazy_re.compile(rb"[0-9]+")


def might_hold(data: bytes, needles: Iterable[bytes]) -> bool:
    for needle in needles:
        at = data.find(needle)
        while at >= 0:
            after = data[at + len(needle):at + len(needle) + 1]
            if after in (b"%", b"{", b"$", b"#"):
                return True
            digits = _LEAD_DIGITS.match(data, at + len(needle))  # `'web0%d'`: a digit before the directive
            if digits is not None and data[digits.end():digits.end() + 1] in (b"%", b"{"):
                return True
            # `"pve" + str(i).zfill(2)`, `'pve0')` (regex_replace), `s/^/pve/`, `addprefix pve0,`
            end = _PREFIX_END.match(data, at + len(needle))
            if end is not None and (at == 0 or data[at - 1:at] in b"'\"/ \t"):
                return True
            at = data.find(needle, at + 1)
    return False


def _render(number: int, zero: bytes, width: bytes) -> str:
    text = str(number)
    size = int(width) if width else 0
    return text.rjust(size, "0" if zero or size == 0 else " ")


def find(data: bytes, olds: Iterable[str]) -> Iterator[Formatted]:
    """Every format in `data` that makes (or may make) one of `olds`."""
    by_stem = stems(olds)
    if not by_stem:
        return
    budget = [_EVALUATIONS]  # loops evaluated per file: past it, a number is one that cannot be told
    yield from _more(data, by_stem, budget)
    for found in _DIRECTIVE.finditer(data):
        start = found.start()
        left = start
        while left > max(0, start - _WINDOW) and re.match(rb"[A-Za-z0-9.-]", data[left - 1:left]):
            left -= 1
        stem = data[left:start].decode("ascii", "replace")
        inside = None
        if not stem:  # `pve{{ '%02d' % i }}`, `pve$(printf '%02d' "$i")`: the stem before the template
            inside = _OPENED.search(data, max(0, start - 80), start)
            if inside is not None:
                left = inside.start("stem")
                stem = inside.group("stem").decode("ascii", "replace")
        candidates = by_stem.get(stem) or _fixed_digits(by_stem, stem)
        if not candidates:
            continue
        if found.group("field") is not None and not found.group("bwidth") and found.group("bzero") is None \
                and not found.group("dwidth") \
                and not _FORMAT_AFTER.match(data, found.end(), found.end() + _WINDOW):
            continue  # `{name}` / `{}` given to no str.format: composed_names.py's, not a number
        after = found.end()
        if inside is not None:  # the name goes on after the template closes
            shut = b"}}" if inside.group("open").startswith(b"{{") else b")"
            close = data.find(shut, after, after + _WINDOW)
            line_end = data.find(b"\n", after, after + _WINDOW)
            if close < 0 or 0 <= line_end < close:
                continue
            after = close + (2 if inside.group("open").startswith(b"{{") else 1)
        right = _NAME.match(data, after, after + _WINDOW)
        end = right.end() if right is not None else after
        tail = data[after:end].decode("ascii", "replace")
        zero, width = _spec(found)
        number, exact_range = _argument(data, found, left if inside is None else start)
        bound = None
        if number is None and exact_range is None:  # a variable: its loop's literal numbers, if told
            expression = _expression(data, found, left if inside is None else start)
            bound = _bounded(data, start, expression, budget) if expression else None
        for old in candidates:
            digits = _digits(old, stem, tail)
            if digits is None or _render(int(digits), zero, width) != digits:
                continue
            if number is not None and _render(number, zero, width) != digits:
                continue
            if exact_range is not None and not _walks(exact_range, int(digits)):
                continue
            if bound is not None and not any(_render(v, zero, width) == digits for v in bound.values):
                continue  # `count.index + 2` under `count = 2`, `for i in range(2, 4)`: never the old number
            given = str(number) if number is not None else (
                f"{exact_range[0]}..{exact_range[1]}" if exact_range is not None else "")
            if bound is not None:
                given = _shown(bound)
            yield Formatted(left, end, old, data[left:end].decode("utf-8", "replace"), given,
                            number is not None or exact_range is not None or bound is not None)
            break


# A stem joined to a padded number (break-it round 19, finding 1): Python's `"pve" + str(i).zfill(2)`,
# `str(i).rjust(2, "0")`, `"pve" + f"{i:02d}"`, `"pve" + "%02d" % i`, JavaScript's
# `"pve" + String(i).padStart(2, "0")`, Ruby's `"pve" + i.to_s.rjust(2, "0")`, Jinja's
# `'pve' ~ '%02d' | format(i)`.
_ARG = rb"[^()\n]{1,40}?"
_PADS = (
    rb"str\([ \t]*(?P<a1>" + _ARG + rb")[ \t]*\)\.zfill\([ \t]*(?P<w1>[0-9]+)[ \t]*\)",
    rb"(?:str|String)\([ \t]*(?P<a2>" + _ARG + rb")[ \t]*\)\.(?:rjust|padStart)\([ \t]*(?P<w2>[0-9]+)[ \t]*,"
    rb"[ \t]*"
    rb"['\"]0['\"][ \t]*\)",
    rb"(?P<a3>[A-Za-z_$][A-Za-z0-9_.]{0,40}?)\.(?:to_s|toString\(\))\.(?:rjust|padStart)"
    rb"\([ \t]*(?P<w3>[0-9]+)[ \t]*,"
    rb"[ \t]*['\"]0['\"][ \t]*\)",
    rb"[fF](?P<q4>['\"])\{(?P<a4>[A-Za-z_][A-Za-z0-9_]*):0(?P<w4>[0-9]+)d?\}(?P=q4)",
    rb"(?P<q5>['\"])%0(?P<w5>[0-9]+)[dsi](?P=q5)[ \t]*(?:%[ \t]*(?P<a5>[A-Za-z_$][A-Za-z0-9_.]*)"
    rb"|\|[ \t]*format[ \t]*\([ \t]*(?P<a6>" + _ARG + rb")[ \t]*\))",
)
_JOINED_PAD = lazy_re.compile(
    rb"(?P<q>['\"])(?P<stem>[A-Za-z][A-Za-z0-9-]*)(?P=q)[ \t]*(?:\+|~|\.\.)[ \t]*(?:"
                         + rb"|".join(_PADS) + rb")"
                         rb"(?:[ \t]*(?:\+|~|\.\.)[ \t]*(?P<tq>['\"])(?P<tail>[A-Za-z0-9.-]+)(?P=tq))?")
# A text put before each number of a list (finding 1): Ansible's `map('regex_replace', '^', 'pve0')`,
# sed's `s/^/pve/` (after `seq -w 1 3 |`), Make's `$(addprefix pve0,...)`.
_PREPEND = lazy_re.compile(
    rb"regex_replace['\"]?[ \t]*,?[ \t]*\(?[ \t]*(?P<q>['\"])\^(?P=q)[ \t]*,[ \t]*(?P<q2>['\"])"
    rb"(?P<pre>[A-Za-z][A-Za-z0-9-]*)(?P=q2)"
    rb"|(?<![A-Za-z0-9_])s(?P<d>[/|#,])\^(?P=d)(?P<sed>[A-Za-z][A-Za-z0-9-]*)(?P=d)"
    rb"|\$\(addprefix[ \t]+(?P<make>[A-Za-z][A-Za-z0-9-]*),")
_PY_RANGE = lazy_re.compile(
    rb"range[ \t]*\([ \t]*(?P<a>[0-9]+)[ \t]*(?:,[ \t]*(?P<b>[0-9]+)[ \t]*)?\)[^\n]*$")
_SEQ_PIPE = lazy_re.compile(
    rb"(?<![A-Za-z0-9_-])seq[ \t]+(?P<w>-w[ \t]+)?(?P<a>[0-9]+)(?:[ \t]+(?P<b>[0-9]+))?"
                       rb"(?:[ \t]+(?P<c>[0-9]+))?[ \t]*\|[^\n]*$")
# A variable between a stem and a literal after it (finding 1): `web${i}-mgmt`, `web$i-mgmt`,
# `web{{ i }}-mgmt`, Ruby's `web#{i}-mgmt`; the number is unpadded.
_MIDDLE = lazy_re.compile(rb"\$\{(?P<v1>[A-Za-z_][A-Za-z0-9_]*)\}|\$(?P<v2>[A-Za-z_][A-Za-z0-9_]*)"
                     rb"|\{\{-?[ \t]*(?P<v3>[A-Za-z_][A-Za-z0-9_]*)[ \t]*-?\}\}"
                     rb"|#\{(?P<v4>[A-Za-z_][A-Za-z0-9_]*)\}")


def _shown(bound: formatted_values.Bound) -> str:
    more = ", ..." if len(bound.values) > 6 else ""
    return f"{', '.join(str(v) for v in bound.values[:6])}{more} ({bound.why})"


def _line_start(data: bytes, pos: int) -> int:
    """Where the line holding `pos` starts, at most _WINDOW bytes back (a hostile line is read in
    linear time)."""
    floor = max(0, pos - _WINDOW)
    return max(floor, data.rfind(b"\n", floor, pos) + 1)


def _bounded(data: bytes, pos: int, expression: str, budget: list[int]) -> formatted_values.Bound | None:
    """formatted_values.bounded, while the file's budget lasts (a hostile file of thousands of
    formats is read in linear time; past the budget each may make the old name: a residual)."""
    if budget[0] <= 0:
        return None
    budget[0] -= 1
    return formatted_values.bounded(data, pos, expression)


def _more(data: bytes, by_stem: dict[str, list[str]], budget: list[int]) -> Iterator[Formatted]:
    """The spellings the directive grammar does not read: a stem joined to a padded number, a
    text put before each number of a list, a variable between a stem and a literal after it."""
    for found in _JOINED_PAD.finditer(data):
        stem = found.group("stem").decode()
        candidates = by_stem.get(stem)
        if not candidates:
            continue
        width = next(found.group(g) for g in ("w1", "w2", "w3", "w4", "w5") if found.group(g) is not None)
        arg = next((found.group(g) for g in ("a1", "a2", "a3", "a4", "a5", "a6")
                    if found.group(g) is not None), b"")
        tail = (found.group("tail") or b"").decode()
        yield from _made(data, found.start(), found.end(), candidates, stem, tail, arg.decode(), b"0", width,
                         budget)
    for found in _PREPEND.finditer(data):
        pre = (found.group("pre") or found.group("sed") or found.group("make")).decode()
        line_start = _line_start(data, found.start())
        values: tuple[str, ...] | None = None
        why = ""
        if found.group("pre") is not None:
            at = data.rfind(b"range", line_start, found.start())
            numbers = _PY_RANGE.match(data, at, found.start()) if at >= 0 else None
            if numbers is not None:
                low, high = (0, int(numbers.group("a"))) if numbers.group("b") is None else (
                    int(numbers.group("a")), int(numbers.group("b")))
                values = tuple(str(i) for i in range(low, min(high, low + 1000)))
                why = numbers.group().split(b"|")[0].decode("utf-8", "replace")
        elif found.group("sed") is not None:
            at = data.rfind(b"seq", line_start, found.start())
            seq = _SEQ_PIPE.match(data, at, found.start()) if at >= 0 else None
            if seq is not None:
                walk = _seq(seq)
                if walk is not None:
                    size = len(str(walk[1])) if seq.group("w") else 0
                    values = tuple(str(i).rjust(size, "0") for i in range(walk[0], walk[1] + 1, walk[2]))
                    why = seq.group().split(b"|")[0].decode("utf-8", "replace")
        for stem, olds in by_stem.items():
            if not pre.startswith(stem):
                continue
            for old in olds:
                rest = old[len(pre):] if old.startswith(pre) else ""
                if not rest.isdigit():
                    continue
                if values is not None and rest not in values:
                    continue
                given = f"{', '.join(values[:6])}{', ...' if len(values) > 6 else ''} ({why.strip()})" \
                    if values is not None else ""
                text = found.group().decode("utf-8", "replace")
                yield Formatted(found.start(), found.end(), old, text, given, values is not None)
                break
    for found in _MIDDLE.finditer(data):
        left = found.start()
        while left > max(0, found.start() - _WINDOW) and re.match(rb"[A-Za-z0-9-]", data[left - 1:left]):
            left -= 1
        if left > 0 and data[left - 1:left] in (b".", b"_"):
            continue
        stem = data[left:found.start()].decode("ascii", "replace")
        candidates = by_stem.get(stem)
        if not candidates:
            continue
        right = re.compile(rb"[A-Za-z0-9-]*").match(data, found.end())
        end = right.end() if right is not None else found.end()
        tail = data[found.end():end].decode("ascii", "replace")
        if not tail:
            continue  # `pve${i}` alone: composed_tails' (a literal start), or a composed name's (a domain)
        var = next(found.group(g) for g in ("v1", "v2", "v3", "v4") if found.group(g) is not None).decode()
        expression = data[found.start():found.end()].decode()
        loop = None
        if budget[0] > 0:
            budget[0] -= 1
            floor = max(0, found.start() - formatted_values.WINDOW)
            window = data[floor:found.end() + _WINDOW]
            loop = composed_tails.loop_values(window, found.start() - floor, f"${var}")
        for old in candidates:
            made = re.fullmatch(re.escape(stem) + r"([0-9]+)" + re.escape(tail) + r"(?:\..*)?", old)
            if made is None or (tail and tail[0] == "-" and not old[len(stem):].split("-")[0].isdigit()):
                continue
            digits = made.group(1)
            if loop is not None:
                if digits not in loop.items:
                    continue
                shown = ", ".join(loop.items[:6]) + (", ..." if len(loop.items) > 6 else "")
                yield Formatted(left, end, old, f"{stem}{expression}{tail}", f"{shown} ({loop.why})", True)
                break
            bound = _bounded(data, found.start(), var, budget)
            if bound is not None:
                if int(digits) not in bound.values or str(int(digits)) != digits:
                    continue
                yield Formatted(left, end, old, f"{stem}{expression}{tail}", _shown(bound), True)
                break
            if str(int(digits)) != digits:
                continue  # an unpadded number never makes `web01-mgmt`
            yield Formatted(left, end, old, f"{stem}{expression}{tail}", "", False)
            break


def _made(data: bytes, start: int, end: int, candidates: list[str], stem: str, tail: str, arg: str,
          zero: bytes, width: bytes, budget: list[int]) -> Iterator[Formatted]:
    number = _NUMBER.fullmatch(arg.encode())
    bound = _bounded(data, start, arg, budget) if number is None and arg else None
    for old in candidates:
        digits = _digits(old, stem, tail)
        if digits is None or _render(int(digits), zero, width) != digits:
            continue
        if number is not None and _render(int(number.group("num")), zero, width) != digits:
            continue
        if bound is not None and not any(_render(v, zero, width) == digits for v in bound.values):
            continue
        given = number.group("num").decode() if number is not None else (
            _shown(bound) if bound is not None else "")
        yield Formatted(start, end, old, data[start:end].decode("utf-8", "replace"), given,
                        number is not None or bound is not None)
        break


def _walks(sequence: tuple[int, int, int], number: int) -> bool:
    first, last, step = sequence
    return step > 0 and first <= number <= last and (number - first) % step == 0


def _spec(found: re.Match[bytes]) -> tuple[bytes, bytes]:
    if found.group("conv") is not None:
        return found.group("zero"), found.group("width")
    if found.group("twidth") is not None:
        return found.group("tzero"), found.group("twidth")
    if found.group("nwidth") is not None:
        return b"0", found.group("nwidth")
    if found.group("dwidth") is not None:
        return b"0", found.group("dwidth")
    return found.group("bzero") or b"", found.group("bwidth") or b""


def _fixed_digits(by_stem: dict[str, list[str]], stem: str) -> list[str]:
    """The old names a stem with some of the number's digits written before the directive makes
    (`'web0%d'`, `"web0{}"`: `web` + `0`, the directive the rest; outside round 25, finding 05)."""
    base = stem.rstrip("0123456789")
    if base == stem or not base:
        return []
    return [old for old in by_stem.get(base, []) if old.startswith(stem) and len(old) > len(stem)
            and old[len(stem)].isdigit()]


def _digits(old: str, stem: str, tail: str) -> str | None:
    """The number `old` holds where the format's stem and tail stand around it, else None."""
    for suffix in (tail, tail.split(".")[0]):
        made = re.fullmatch(re.escape(stem) + r"([0-9]+)" + re.escape(suffix), old)
        if made is not None:
            return made.group(1)
    return None


def _argument(data: bytes, found: re.Match[bytes],
              left: int) -> tuple[int | None, tuple[int, int, int] | None]:
    """The literal number the directive is given, or the literal sequence it walks; (None, None)
    where it cannot be told."""
    if found.group("twidth") is not None or found.group("nwidth") is not None:  # "pve${format("%02d", 1)}"
        given = found.group("targ") if found.group("twidth") is not None else found.group("narg")
        arg = _NUMBER.fullmatch(given)
        return (int(arg.group("num")), None) if arg is not None else (None, None)
    # A window around the directive: a format and what it is given stand within a few hundred bytes,
    # and a hostile line of thousands of directives is read in linear time.
    floor = max(0, found.start() - _WINDOW)
    line_start = max(floor, data.rfind(b"\n", floor, found.start()) + 1)
    line_end = data.find(b"\n", found.end(), found.end() + _WINDOW)
    line_end = min(len(data), found.end() + _WINDOW) if line_end < 0 else line_end
    before = data[line_start:left]
    quote_at = max(before.rfind(b'"'), before.rfind(b"'"))
    if quote_at >= 0 and before.count(before[quote_at:quote_at + 1]) % 2 == 1:
        quote = before[quote_at:quote_at + 1]
        close = data.find(quote, found.end(), line_end)
        if close >= 0:
            head = before[:quote_at]
            if _PRINTF_CMD.search(head):
                arg = _PRINTF_ARG.match(data, close + 1)
                return (int(arg.group("num")), None) if arg is not None else (None, None)
            if _SEQ_CMD.search(head):
                return None, _seq(_SEQ_ARGS.match(data, close + 1))
            for form in _AFTER:
                arg = form.match(data, close + 1)
                if arg is not None:
                    if form is _AFTER[0] and not re.search(rb"(?:format|printf)[ \t]*\($", head):
                        continue
                    return int(arg.group("num")), None
    if _PRINTF_CMD.search(data, line_start, found.start()):  # `printf %02d 1`, the format unquoted
        arg = _PRINTF_ARG.match(data, found.end())
        return (int(arg.group("num")), None) if arg is not None else (None, None)
    block = data[max(0, line_start - _WINDOW):line_end]
    if _SEQUENCE.search(block) or b"format=" in data[line_start:found.start()]:
        keys = {m.group("key"): int(m.group("num"))
                for m in _SEQUENCE_KEY.finditer(data, line_start, line_end)}
        first = keys.get(b"start", 1)
        step = keys.get(b"stride", 1)
        if b"end" in keys:
            return None, (first, keys[b"end"], step)
        if b"count" in keys:
            return None, (first, first + (keys[b"count"] - 1) * step, step)
    return None, None


def _seq(args: re.Match[bytes] | None) -> tuple[int, int, int] | None:
    """seq's LAST, FIRST LAST or FIRST INCREMENT LAST."""
    if args is None:
        return None
    numbers = [int(g) for g in (args.group("a"), args.group("b"), args.group("c")) if g is not None]
    if len(numbers) == 1:
        return 1, numbers[0], 1
    if len(numbers) == 2:
        return numbers[0], numbers[1], 1
    return numbers[0], numbers[2], numbers[1]


# What a format's directive is given, as written: a call's argument (balanced), Jinja's `| format(x)`,
# Python's `% x`, str.format's `(x)`, PowerShell's `-f x`, a shell printf's word.
_GIVEN = (
    re.compile(rb"[ \t]*,[ \t]*"),
    re.compile(rb"[ \t]*\|[ \t]*format[ \t]*\("),
    re.compile(rb"\.format[ \t]*\("),
)
_PERCENT_ARG = lazy_re.compile(rb"[ \t]*%[ \t]*\(?[ \t]*"
                          rb"(?P<arg>[A-Za-z_$][A-Za-z0-9_.]*(?:[ \t]*[+-][ \t]*[0-9]+)?)")
_DASH_F_ARG = lazy_re.compile(rb"[ \t]*-f[ \t]+(?P<arg>\$[A-Za-z_][A-Za-z0-9_]*)")
_SHELL_ARG = lazy_re.compile(rb"[ \t]+(?P<arg>\"?\$\{?[A-Za-z_][A-Za-z0-9_]*\}?\"?)")


def _balanced(data: bytes, at: int) -> str | None:
    """The text from `at` to the `)` closing the call it stands in (one line), else None."""
    depth = 0
    for i in range(at, min(len(data), at + 120)):
        c = data[i:i + 1]
        if c == b"\n":
            return None
        if c == b"(":
            depth += 1
        elif c == b")":
            if depth == 0:
                return data[at:i].decode("utf-8", "replace").strip()
            depth -= 1
        elif c == b"," and depth == 0:
            return None  # a second argument: which one the directive reads is not told here
    return None


def _expression(data: bytes, found: re.Match[bytes], left: int) -> str | None:
    """The expression a directive is given where it is a variable (`i`, `count.index + 2`, `$i`,
    `item`, `$_`), for formatted_values to bound; None where it is not found."""
    if found.group("twidth") is not None:
        return found.group("targ").decode("utf-8", "replace")
    if found.group("nwidth") is not None:
        return found.group("narg").decode("utf-8", "replace")
    field = found.group("field")
    if field and not field[:1].isdigit():  # f"pve{i:02d}": the field is the variable
        return field.decode()
    line_start = _line_start(data, left)
    line_end = data.find(b"\n", found.end(), found.end() + _WINDOW)
    line_end = min(len(data), found.end() + _WINDOW) if line_end < 0 else line_end
    before = data[line_start:left]
    quote_at = max(before.rfind(b'"'), before.rfind(b"'"))
    if quote_at < 0:
        return None
    close = data.find(before[quote_at:quote_at + 1], found.end(), line_end)
    if close < 0:
        return None
    head = before[:quote_at][-48:]  # what calls the format ends here: a short tail, read in linear time
    if _PRINTF_CMD.search(head):
        arg = _SHELL_ARG.match(data, close + 1)
        return arg.group("arg").decode() if arg is not None else None
    for form in _GIVEN:
        opened = form.match(data, close + 1)
        if opened is not None:
            if form is _GIVEN[0] and not re.search(rb"(?:format|printf|sprintf|Sprintf)[ \t]*\($", head):
                continue
            return _balanced(data, opened.end())
    for simple in (_PERCENT_ARG, _DASH_F_ARG):
        arg = simple.match(data, close + 1)
        if arg is not None:
            return arg.group("arg").decode()
    return None
