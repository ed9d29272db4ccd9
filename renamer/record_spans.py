"""Records inside a file that is otherwise current state, found by the file's own structure (issue 27,
t35-sweep findings 10, 13, 14, 15): the sweep keeps these lines as they are, the way it keeps a
dated section, and `audit` lists each with why. Pure: a path, its lines and the cutover.

* a notebook's `outputs` (`.ipynb`): what a past run printed. Its `source` cells are current and
  follow the rename; an output is a record inside a current file (a `PING web01 (10.0.0.70)` that
  never answered as `app01` must not be made up);
* an RPM spec's `%changelog` section: dated entries of past builds, under the names of their time;
* dated rows: a file whose lines start with a date and that says it is a log or ledger (its rows
  carry a time of day, its path names a log or ledger, or a header names what happened: a CSV
  ledger `date,host,ip,action`): each row dated on or before the cutover is a record, a row dated
  after it is current (no dated section can say that: a section starts, a row is one line); a
  line without a date below a dated row continues that row. A table whose first column is a date
  and that says nothing more (a reservation's `added` date, a renewal date) is current state;
* saved tool output by its first line (an nmap scan, normal or XML, a `terraform plan`, an
  `ansible-playbook` run, an mbox of mail): the whole file is what a tool printed then.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from renamer import lazy_re


@dataclass(frozen=True)
class Span:
    start: int  # first line, 0-based
    end: int  # one past the last line
    reason: str  # notebook-output | spec-changelog | dated-row | tool-output
    note: str


_OUTPUTS = lazy_re.compile(r'"outputs"\s*:\s*\[')
_SPEC_CHANGELOG = lazy_re.compile(r"^%changelog\s*$")
_SPEC_SECTION = lazy_re.compile(
    r"^%(?:package|description|prep|build|install|check|files|pre|post|preun|postun|pretrans|posttrans"
    r"|triggerin|triggerun|triggerpostun|clean|verifyscript|generate_buildrequires|conf)\b")
# A row's date at the start of its line: `2025-03-01`, `2025/03/01`, `[2025-03-01 ...]`, `"2025-03-01"`.
_ROW_DATE = lazy_re.compile(r"^[\[\"'(]?(\d{4})[-/](\d{2})[-/](\d{2})(?:[T ,;|\t\]\"')_]|$)")
_PROLOG = lazy_re.compile(r"^(?:<[?!][^>]*>\s*)+")
# Saved tool output, by what its first non-empty line says.
_TOOL_FIRST = (
    (lazy_re.compile(r"^<nmaprun\b"), "an nmap scan (XML)"),
    (lazy_re.compile(r"^(?:# Nmap \d[\w.]* scan initiated|Starting Nmap \d)"), "an nmap scan"),
    (lazy_re.compile(r"^(?:Terraform (?:will perform the following actions|used the selected providers)"
                     r"|An execution plan has been generated|OpenTofu (?:will perform|used the selected))"),
     "a saved terraform/tofu plan"),
    (lazy_re.compile(r"^PLAY \[.*\] \*+\s*$"), "a captured ansible-playbook run"),
    (lazy_re.compile(r"^From \S+ +\w{3} \w{3} +\d{1,2} \d{1,2}:\d{2}(?::\d{2})? (?:\S+ )?\d{4}\s*$"),
     "an mbox of mail"),
)


def spans(path: str, lines: Sequence[str], cutover: dt.date | None) -> list[Span]:
    """The record spans of a current-state file, in order of their start."""
    name = path.rsplit("/", 1)[-1].lower()
    if name.endswith(".ipynb"):
        return notebook_outputs(lines)
    if name.endswith(".spec"):
        return spec_changelog(lines)
    tool = tool_output(lines)
    if tool is not None:
        return [Span(0, len(lines), "tool-output",
                     f"{tool}, saved: what the tool printed then, under the names of the time")]
    return dated_rows(lines, cutover) if cutover is not None and _reads_as_log(path, lines) else []


def notebook_outputs(lines: Sequence[str]) -> list[Span]:
    """The lines of each cell's `outputs` array (JSON read with its strings, so a `]` inside an
    output's text does not end it). A notebook written on one line shares that line with the cells'
    source: the span then keeps the whole line, and says so."""
    out: list[Span] = []
    text = "\n".join(lines)
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    at = 0
    while True:
        found = _OUTPUTS.search(text, at)
        if found is None:
            return out
        end = _close(text, found.end() - 1)
        first = _line_of(starts, found.start())
        last = _line_of(starts, end)
        tail_end = starts[last + 1] - 1 if last + 1 < len(starts) else len(text)
        shared = (text[starts[first]:found.start()].strip(" \t{,") != ""
                  or text[end + 1:tail_end].strip(" \t,}]") != "")
        note = ("a notebook cell's outputs: what a past run printed, kept as it was (the cell's source "
                "follows the rename)")
        if shared:
            note += ("; the outputs share this line with other cells' JSON: the whole line is kept, "
                     "edit it by hand")
        if not out or out[-1].end <= first:
            out.append(Span(first, last + 1, "notebook-output", note))
        at = end + 1


def _close(text: str, open_at: int) -> int:
    """The index of the `]` closing the JSON array opened at `open_at` (the end of text if none)."""
    depth = 0
    index = open_at
    in_string = False
    while index < len(text):
        char = text[index]
        if in_string:
            if char == "\\":
                index += 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
        elif char in "]}":
            depth -= 1
            if depth == 0:
                return index
        index += 1
    return len(text) - 1


def _line_of(starts: Sequence[int], offset: int) -> int:
    low, high = 0, len(starts) - 1
    while low < high:
        mid = (low + high + 1) // 2
        if starts[mid] <= offset:
            low = mid
        else:
            high = mid - 1
    return low


def spec_changelog(lines: Sequence[str]) -> list[Span]:
    """An RPM spec's `%changelog` section, to the next section or the end."""
    for index, line in enumerate(lines):
        if _SPEC_CHANGELOG.match(line.rstrip("\r")):
            end = next((j for j in range(index + 1, len(lines)) if _SPEC_SECTION.match(lines[j])), len(lines))
            return [Span(index, end, "spec-changelog",
                         "an RPM spec's %changelog: entries of past builds, under the names of their time")]
    return []


def tool_output(lines: Sequence[str]) -> str | None:
    """What tool printed the file, by its first non-empty line (within the first lines), or None."""
    # an XML file's declaration, doctype and stylesheet come before its root element
    first = next((head for line in lines[:20] if (head := _PROLOG.sub("", line.strip()))), "")
    for pattern, what in _TOOL_FIRST:
        if pattern.match(first):
            return what
    return None


def row_date(line: str) -> dt.date | None:
    """The date a row starts with, or None."""
    found = _ROW_DATE.match(line.lstrip())
    if found is None:
        return None
    try:
        return dt.date(int(found.group(1)), int(found.group(2)), int(found.group(3)))
    except ValueError:
        return None


# A file of dated rows is a log or a ledger, its rows records, only where something besides the
# dates says so (t37-break, finding 01: a DHCP reservation list with the date each was added, an
# inventory's `added` column, a certificate renewal list and a backup schedule's start dates were
# kept whole, the moved machine's live reservation with them): a time of day after the dates (a
# log's lines), a path that names a log or ledger, or a header naming what happened. A date alone
# is no record, as for a `.txt` list headed by a dated comment (formats/prose.says_past).
_TIME_OF_DAY = lazy_re.compile(r"^[\[\"'(]?\d{4}[-/]\d{2}[-/]\d{2}(?:T|[ \t,;|]+)\d{1,2}:\d{2}")
_LOG_PATH = lazy_re.compile(
    r"(?i)(?:^|[-_./])(?:logs?|ledgers?|history|histories|journal|changelog|changes|maintenance|incidents?|"
    r"reboots?|audit|events?|activity|timeline|diary|retired|decommissioned|archived?)(?:[-_./]|$)")
_EVENT_HEADER = lazy_re.compile(
    r"(?i)(?:^|[\s,;|\t\"'])(?:action|event|change|changes|what|happened|message|activity|incident|done|work)"
    r"(?:[\s,;|\t\"']|$)")


def _reads_as_log(path: str, lines: Sequence[str]) -> bool:
    """Whether a file of dated rows says it is a log or ledger (see above)."""
    if _LOG_PATH.search(path):
        return True
    filled = [line for line in lines[:200] if line.strip()]
    if filled and row_date(filled[0]) is None and _EVENT_HEADER.search(filled[0]):
        return True
    dated = [line for line in filled if row_date(line) is not None]
    return bool(dated) and 2 * sum(1 for line in dated if _TIME_OF_DAY.match(line.lstrip())) >= len(dated)


def dated_rows(lines: Sequence[str], cutover: dt.date) -> list[Span]:
    """Rows dated on or before the cutover, in a file of dated rows: the first row (or the one after
    a header line) is dated, and so are at least two rows and half the non-empty lines. A line with
    no date below a dated row continues it (a log's multi-line message)."""
    filled = [index for index, line in enumerate(lines) if line.strip()]
    if len(filled) < 2 or (row_date(lines[filled[0]]) is None and row_date(lines[filled[1]]) is None):
        return []
    dates = {index: day for index in filled if (day := row_date(lines[index])) is not None}
    if len(dates) < 2 or 2 * len(dates) < len(filled):
        return []
    out: list[Span] = []
    current: dt.date | None = None
    for index in filled:
        day = dates.get(index)
        if day is not None:
            current = day
        if current is None or current > cutover:
            continue
        note = f"a row dated {current}, on or before the cutover {cutover}: a record of its day"
        if out and out[-1].end == index and out[-1].note == note:
            out[-1] = Span(out[-1].start, index + 1, "dated-row", note)
        else:
            out.append(Span(index, index + 1, "dated-row", note))
    return out
