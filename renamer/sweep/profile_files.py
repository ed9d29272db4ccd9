"""Words that name a file by a framework's naming convention (break-it round 22, finding 10).

A profile or environment name is a bare word, and the framework finds a file by it:
Spring's `spring.profiles.active=pug` (`SPRING_PROFILES_ACTIVE`, `--spring.profiles.active=`,
`spring.profiles.include`, YAML `profiles: active: pug`) loads `application-pug.yml`
(`.yaml`, `.properties`, `bootstrap-pug.yml`) beside it, in `config/` or `src/main/resources/`;
`RAILS_ENV=pug` reads `config/environments/pug.rb`; `NODE_ENV=pug` (node-config) reads
`config/pug.json` (`.yml`, `.yaml`, `.js`); Symfony's `APP_ENV=pug` reads `.env.pug`.
Where that file keeps its name (the old value inside a longer name, a kept path), the word
rewritten names nothing: the profile loads no file, silently. Each convention is a
`held_words.Reader` that composes one name (prefix, word, suffix) in a folder, read only on the
line that sets the profile; sweep/held_paths.py holds the word as it holds any reader's.
"""

from __future__ import annotations

import re

from renamer import lazy_re
from renamer.sweep.held_words import Reader

_SPRING_KEY = lazy_re.compile(rb"(?i)(?:^|[\s\"'-])(?:-D)?spring[._]profiles[._](?:active|include)[\"']?"
                         rb"[ \t]*[=:][ \t]*")
_SPRING_YAML = lazy_re.compile(rb"^[ \t]*(?:active|include)[ \t]*:[ \t]*")
_SPRING_PARENT = lazy_re.compile(rb"^[ \t]*profiles[ \t]*:[ \t]*$")
_RAILS = lazy_re.compile(rb"(?:^|[\s\"'])(?:RAILS_ENV|RACK_ENV)[\"']?[ \t]*[=:][ \t]*")
_NODE = lazy_re.compile(rb"(?:^|[\s\"'])(?:NODE_ENV|NODE_CONFIG_ENV)[\"']?[ \t]*[=:][ \t]*")
_SYMFONY = lazy_re.compile(rb"(?:^|[\s\"'])APP_ENV[\"']?[ \t]*[=:][ \t]*")

_SPRING_FOLDERS = (".", "config", "src/main/resources", "src/main/resources/config")
_SPRING_FILES = tuple((prefix, suffix) for prefix in ("application-", "bootstrap-")
                      for suffix in (".yml", ".yaml", ".properties"))
_NODE_SUFFIXES = (".json", ".yml", ".yaml", ".js", ".json5", ".toml")
# what a list of profile names may hold between the key and the word
_VALUE = lazy_re.compile(rb"[\"'\[ \t]*(?:[A-Za-z0-9_.-]+[ \t]*,[ \t]*)*[\"']?")


def readers(data: bytes, start: int) -> list[Reader]:
    """The conventions by which the word at `start` names a file, where its line sets a profile
    or environment to it (the word is the value, or an item of the value's comma list)."""
    line_start = data.rfind(b"\n", 0, start) + 1
    before = data[line_start:start]
    out: list[Reader] = []

    def setting(pattern: re.Pattern[bytes]) -> re.Match[bytes] | None:
        for found in pattern.finditer(before):
            rest = before[found.end():]
            if _VALUE.fullmatch(rest):
                return found
        return None

    spring = setting(_SPRING_KEY)
    nested = _SPRING_YAML.match(before)
    if spring is None and nested is not None and _VALUE.fullmatch(before[nested.end():]) \
            and _yaml_parent(data, line_start):
        spring = nested
    if spring is not None:
        shown = data[line_start:data.find(b"\n", start) if b"\n" in data[start:] else len(data)].strip()
        how = (f"sets a Spring profile (`{shown.decode('utf-8', 'replace')}`), "
               "which loads application-NAME.yml")
        out += [Reader(folder, prefix, suffix, False, how, start)
                for folder in _SPRING_FOLDERS for prefix, suffix in _SPRING_FILES]
    if setting(_RAILS) is not None:
        out.append(Reader("config/environments", "", ".rb", False,
                          "sets the Rails environment, which reads config/environments/NAME.rb", start))
    if setting(_NODE) is not None:
        out += [Reader("config", "", suffix, False,
                       "sets NODE_ENV, by which node-config reads config/NAME.json", start)
                for suffix in _NODE_SUFFIXES]
    if setting(_SYMFONY) is not None:
        out.append(Reader(".", ".env.", "", False, "sets APP_ENV, by which Symfony reads .env.NAME", start))
    return out


def _yaml_parent(data: bytes, line_start: int) -> bool:
    """Whether the YAML line at `line_start` (`active: pug`) stands under a `profiles:` key."""
    indent = len(data[line_start:]) - len(data[line_start:].lstrip(b" "))
    at = line_start
    while at > 0:
        prev_start = data.rfind(b"\n", 0, at - 1) + 1
        line = data[prev_start:at - 1]
        at = prev_start
        if not line.strip() or line.lstrip().startswith(b"#"):
            continue
        if len(line) - len(line.lstrip(b" ")) < indent:
            return bool(_SPRING_PARENT.match(line))
        if at == 0:
            break
    return False
