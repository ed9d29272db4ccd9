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

# A number directive: printf's `%02d` (`%02s`, `%g`, `%i`, `%u`), Python's `{:02d}` and `{n:02d}`,
# a positional `{}` / `{0}` (str.format's), and Terraform's `${format("%02d", n)}` inside a string.
_PRINTF = rb"%(?P<zero>0?)(?P<width>[0-9]*)(?P<conv>[dsgiu])"
_BRACE = rb"\{(?P<field>[A-Za-z_][A-Za-z0-9_.]*|[0-9]*)(?::(?P<bzero>0?)(?P<bwidth>[0-9]*)d?)?\}"
_TF = (rb"\$\{[ \t]*format[ \t]*\([ \t]*\"%(?P<tzero>0?)(?P<twidth>[0-9]*)[dsgiu]\"[ \t]*,[ \t]*"
       rb"(?P<targ>[^()\n]*?)[ \t]*\)[ \t]*\}")
_DIRECTIVE = re.compile(_PRINTF + rb"|" + _BRACE + rb"|" + _TF)
_NAME = re.compile(rb"[A-Za-z0-9.-]*")
# A template opened right after a name's stem, the directive its first text: Jinja's `{{ '%02d' % i }}`
# (or `| format(i)`), a shell's `$(printf '%02d' "$i")`.
_OPENED = re.compile(rb"(?P<stem>[A-Za-z][A-Za-z0-9-]*)(?P<open>\{\{-?[ \t]*|\$\([ \t]*printf[ \t]+)['\"]?\Z")
_WINDOW = 256
_FORMAT_AFTER = re.compile(rb"[^\n]*?['\"][ \t]*\.format[ \t]*\(")
_NUMBER = re.compile(rb"[ \t]*['\"]?(?P<num>[0-9]+)['\"]?[ \t]*")

# What follows the closing quote of a format given its number: a call's argument, Jinja's filter,
# Python's `%`, str.format.
_AFTER = (
    re.compile(rb"[ \t]*,[ \t]*(?P<num>[0-9]+)[ \t]*\)"),  # format("pve%02d", 1), sprintf(...)
    re.compile(rb"[ \t]*\|[ \t]*format[ \t]*\([ \t]*(?P<num>[0-9]+)[ \t]*\)"),  # 'pve%02d' | format(1)
    re.compile(rb"[ \t]*%[ \t]*\(?[ \t]*(?P<num>[0-9]+)(?![0-9A-Za-z_.])"),  # 'pve%02d' % 1
    re.compile(rb"\.format[ \t]*\([ \t]*(?P<num>[0-9]+)[ \t]*\)"),  # "pve{:02d}".format(1)
)
_PRINTF_CMD = re.compile(rb"(?<![A-Za-z0-9_-])printf[ \t]+(?:-v[ \t]+\w+[ \t]+)?$")
_PRINTF_ARG = re.compile(rb"[ \t]+['\"]?(?P<num>[0-9]+)['\"]?(?![0-9A-Za-z_.])")
_SEQ_CMD = re.compile(rb"(?<![A-Za-z0-9_-])seq[ \t]+(?:-[ws][ \t]+(?:\S+[ \t]+)?)*(?:-f[ \t]*|--format=)$")
_SEQ_ARGS = re.compile(rb"(?:[ \t]+-[ws](?:[ \t]+\S+)?)*[ \t]+(?P<a>-?[0-9]+)(?:[ \t]+(?P<b>-?[0-9]+))?"
                       rb"(?:[ \t]+(?P<c>-?[0-9]+))?(?![0-9A-Za-z_.])")
_SEQUENCE = re.compile(rb"with_sequence|lookup[ \t]*\([ \t]*['\"]sequence|query[ \t]*\([ \t]*['\"]sequence")
_SEQUENCE_KEY = re.compile(rb"(?<![A-Za-z_])(?P<key>start|end|count|stride)[ \t]*=[ \t]*(?P<num>-?[0-9]+)")


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


def might_hold(data: bytes, needles: Iterable[bytes]) -> bool:
    for needle in needles:
        at = data.find(needle)
        while at >= 0:
            after = data[at + len(needle):at + len(needle) + 1]
            if after in (b"%", b"{", b"$"):
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
        candidates = by_stem.get(stem)
        if not candidates:
            continue
        if found.group("field") is not None and not found.group("bwidth") and found.group("bzero") is None \
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
        for old in candidates:
            digits = _digits(old, stem, tail)
            if digits is None or _render(int(digits), zero, width) != digits:
                continue
            if number is not None and _render(number, zero, width) != digits:
                continue
            if exact_range is not None and not _walks(exact_range, int(digits)):
                continue
            given = str(number) if number is not None else (
                f"{exact_range[0]}..{exact_range[1]}" if exact_range is not None else "")
            yield Formatted(left, end, old, data[left:end].decode("utf-8", "replace"), given,
                            number is not None or exact_range is not None)
            break


def _walks(sequence: tuple[int, int, int], number: int) -> bool:
    first, last, step = sequence
    return step > 0 and first <= number <= last and (number - first) % step == 0


def _spec(found: re.Match[bytes]) -> tuple[bytes, bytes]:
    if found.group("conv") is not None:
        return found.group("zero"), found.group("width")
    if found.group("twidth") is not None:
        return found.group("tzero"), found.group("twidth")
    return found.group("bzero") or b"", found.group("bwidth") or b""


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
    if found.group("twidth") is not None:  # "pve${format("%02d", 1)}"
        arg = _NUMBER.fullmatch(found.group("targ"))
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
