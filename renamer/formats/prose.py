"""Prose: notes and documents, where a dated heading starts a dated section (a record).

Markdown is prose too (formats/markdown.py claims it first, for its anchors); this
format claims the other document suffixes. `is_prose` is the dated-section rule's
question, asked by path; `reads_as_configuration` is asked of a plain-text file's lines,
since `.txt` is also the suffix of line-oriented configuration (break-it round 8, #10).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Sequence

from renamer import lazy_re
from renamer.formats.base import BaseFormat
from renamer.formats.markdown import SUFFIXES as MARKDOWN

SUFFIXES = frozenset({*MARKDOWN, ".txt", ".text", ".rst", ".adoc", ".asciidoc", ".org", ".textile", ".wiki"})


# Files without a suffix that are notes by their name; any other suffix-less file (Makefile,
# Dockerfile, Jenkinsfile, Caddyfile, an ssh `config`, `hosts`, a crontab) is configuration,
# where a `# 2025-03-01 ...` line is a comment, never a dated heading.
NAMES = frozenset({"README", "NOTES", "CHANGELOG", "CHANGES", "HISTORY", "NEWS", "TODO", "JOURNAL"})

# `.txt` files that are configuration by their name, whatever they hold: pip's requirement and
# constraint files (`requirements-dev.txt`, `dev-requirements.txt`, `requirements/base.txt`), CMake,
# robots.txt and security.txt, ads.txt, bindep, Heroku's runtime.txt, host and package lists.
# A list named for what is gone (`retired-hosts.txt`, `decommissioned_nodes.txt`) is a record by its
# name, not a live host list: its lines decide, and a dated comment heading them keeps them.
_CONFIG_NAME = lazy_re.compile(
    r"(?i)^(?:(?:[\w.-]*[-_.])?(?:requirements|constraints|reqs)(?:[-_.][\w.-]*)?|CMakeLists|robots|security"
    r"|ads|app-ads|sellers|bindep|runtime|apt|packages"
    r"|(?:(?!(?:[\w-]*[-_.])?(?:retired|decommissioned|decom|old|former|removed|dead|previous|archived)[-_.])"
    r"[\w-]+[-_.])?(?:hosts|servers|nodes|targets)"
    r"|inventory|pip|pylock)\.txt$")
_CONFIG_FOLDER = lazy_re.compile(r"(?i)(?:^|/)(?:requirements|constraints)/[^/]+\.(?:txt|in)$")

# A line of line-oriented configuration, as a plain-text file's every non-comment line may be.
_CONFIG_LINE = (
    re.compile(r"^[A-Za-z_][\w.-]*[ \t]*=[ \t]*\S"),  # key=value, KEY = value
    re.compile(r"^\S+$"),  # one word: a host, an address, a package, a URL, a path
    re.compile(r"^-{1,2}[A-Za-z][\w-]*(?:[ \t=]\S+)?(?:[ \t]+#.*)?$"),  # pip's -r file, --index-url URL
    # a pip requirement: name[extras] op version ; marker, or name @ url
    re.compile(r"^[A-Za-z0-9][\w.-]*(?:\[[\w,. -]+\])?[ \t]*(?:===|==|>=|<=|~=|!=|<|>|@)[ \t]*\S"),
    re.compile(r"^[A-Za-z_]\w*\("),  # CMake and other command calls: set(SERVER pug)
    re.compile(r"^[^\s(]*\)[ \t]*(?:#.*)?$"),  # a call's closing line
    # robots.txt, security.txt and ads.txt directives
    re.compile(r"(?i)^(?:user-agent|disallow|allow|sitemap|crawl-delay|host|clean-param|contact|expires|"
               r"encryption|acknowledgments|preferred-languages|canonical|policy|hiring|csaf)[ \t]*:"),
    re.compile(r"^[\w.-]+,[ \t]*[\w.-]+,[ \t]*(?:DIRECT|RESELLER)\b"),  # ads.txt records
)
_COMMENT = ("#", ";", "//")


def is_prose(path: str) -> bool:
    """Markdown and plain-text notes, a closed list: by suffix, or by name (README, NOTES, ...)."""
    name = path.rsplit("/", 1)[-1]
    stem, dot, suffix = name.rpartition(".")
    if dot and stem:
        return f".{suffix.lower()}" in SUFFIXES and not is_configuration_name(path)
    return name.upper() in NAMES


def is_configuration_name(path: str) -> bool:
    """A `.txt` file that is configuration by its name or folder (requirements.txt, CMakeLists.txt)."""
    name = path.rsplit("/", 1)[-1]
    return bool(_CONFIG_NAME.match(name) or _CONFIG_FOLDER.search(path))


def reads_as_configuration(path: str, lines: Sequence[str]) -> bool:
    """Whether a plain-text file (`.txt`, `.text`) is line-oriented configuration: every line that is
    neither blank nor a comment is a `key=value`, a word alone (a host, an address, a package, a
    URL), an address followed by names (a hosts list), a pip requirement or option, a command call
    (CMake's `set(...)`) or a robots/security.txt directive, and there is at least one. A `# 2025-...`
    line there is a comment, never a dated heading. Markdown, reStructuredText and the other
    document suffixes are prose whatever they hold."""
    suffix = path.rsplit(".", 1)[-1].lower() if "." in path.rsplit("/", 1)[-1] else ""
    if suffix not in ("txt", "text"):
        return False
    seen = False
    for raw in lines:
        line = raw.strip()
        if not line or line.startswith(_COMMENT):
            continue
        if not _config_line(line):
            return False
        seen = True
    return seen


def _config_line(line: str) -> bool:
    if any(p.match(line) for p in _CONFIG_LINE):
        return True
    first = line.split(None, 1)[0]
    try:
        ipaddress.ip_address(first.split("%", 1)[0])  # 10.0.0.5 host host.lan
    except ValueError:
        return False
    return True


# What a dated comment heading a `.txt` list, or the list's name, says when its lines are gone: a
# retired-host list, a log. A date alone says when, not that: `# 2025-06-01 web tier, rebuilt on
# bookworm` over a live pdsh group is a comment (break-it round 22, #09; issue 27 item 8).
_PAST_HEADING = lazy_re.compile(
    r"(?i)\b(?:retired?|retiring|decommission\w*|decom+e?d?|removed|former(?:ly)?|dead|gone|archived?|"
    r"replaced|deleted|obsolete|previous(?:ly)?|old|shut\s*down|powered\s*off|turned\s*off|disabled|"
    r"log|history|journal|changelog|changes|maintenance|reboots?|incidents?)\b")
_PAST_NAME = lazy_re.compile(
    r"(?i)(?:^|[-_./])(?:retired|decommissioned|decom|old|former|removed|dead|previous|archived?|"
    r"logs?|history|journal|changelog|changes|maintenance|incidents?|reboots?)(?:[-_.]|$)")


def says_past(path: str, heading: Sequence[str]) -> bool:
    """Whether a `.txt` whose lines read as configuration says they are past: its name
    (`retired-hosts.txt`, `ops/log.txt`, `maintenance.txt`) or a comment heading them
    (`# 2025-03-03 decommissioned`, `# reboots`). A dated comment that says neither keeps
    nothing: the list is live configuration, as the same lines in a suffix-less file are."""
    name = path.rsplit("/", 1)[-1]
    return bool(_PAST_NAME.search(name) or any(_PAST_HEADING.search(line) for line in heading))


class Prose(BaseFormat):
    name = "prose"
    suffixes = tuple(sorted(SUFFIXES))


FORMAT = Prose()
