"""What surrounds an occurrence decides whether it may be rewritten: accounts.

`/home/NAME`, `~NAME`, `chown NAME`, `User=NAME`, `ansible_user: NAME`,
`NAME@host`...: a user account that happens to share the host's name is not the
host. Kept with reason `account` unless `options.accounts: rewrite`.

`NAME@file`, `NAME@docker`, `NAME@kubernetescrd`... in a Traefik configuration is no account: it is
Traefik's reference to the router, service or middleware NAME of that provider (break-it round 9,
finding 4), so it follows the name's fate like any other reference to it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from renamer import kube_config, lazy_re

# Where a user account's name begins: each alternative ends right before the name.
_ACCOUNT = lazy_re.compile(
    rb"(?:(?<=[\s\"'=:(,])|^)(?:/home/|/Users/|/var/home/|/export/home/)"
    rb"|(?:(?<=[\s\"'=:(,])|^)~(?=[A-Za-z_])"
    rb"|(?i:\b[a-z]:\\+users\\+)"  # C:\Users\NAME, also C:\\Users\\NAME inside a string
    rb"|\b(?:chown|chgrp)[ \t]+(?:-[A-Za-z]+[ \t]+)*"
    rb"|\b(?:sudo|runuser)[ \t]+(?:-[A-Za-z]+[ \t]+)*-u[ \t]*|\bsu[ \t]+(?:-l?[ \t]+)?"
    rb"|^[ \t]*(?:User|Group)[ \t]*=[ \t]*"
    rb"|<key>(?:UserName|GroupName)</key>\s*<string>"
    rb"|(?:(?<=[\s{,])|^)[\"']?(?:ansible_user|ansible_ssh_user|remote_user|become_user|user|username)"
    rb"[\"']?[ \t]*[:=][ \t]*[\"']?",
    re.MULTILINE,
)
_GROUP = lazy_re.compile(rb"\bchown[ \t]+(?:-[A-Za-z]+[ \t]+)*[A-Za-z0-9_.\-]+:")  # chown user:NAME
# Every alternative above holds one of these: lines without one are never searched.
_MARKERS = (b"/home/", b"/Users/", b"~", b"sers\\", b"SERS\\", b"chown", b"chgrp", b"-u", b"su ",
            b"su\t", b"User", b"Group", b"user")


def account_starts(data: bytes, near: Iterable[int] | None = None) -> set[int]:
    """Offsets where a user account's name would begin (after `/home/`, `chown `, `User=`...).

    `near`: only those that could be one of these offsets. A start comes from a marker on its
    own line or the line before (each search reaches the end of the next line), so only those
    lines are searched for markers: a file's few matches, not its every `user` or `~`."""
    out: set[int] = set()
    searched: set[int] = set()
    for low, high in _windows(data, near):
        for marker in _MARKERS:
            _account_starts_at(data, marker, low, high, searched, out)
    if out and b"contexts" in data:  # a kubeconfig context's `user:` names a `users:` entry, no account
        out -= kube_config.context_users(data)
    return out


def _windows(data: bytes, near: Iterable[int] | None) -> list[tuple[int, int]]:
    """[line before, end of line] around each offset, merged; the whole of `data` without any."""
    if near is None:
        return [(0, len(data))]
    out: list[tuple[int, int]] = []
    for pos in sorted(near):
        line = data.rfind(b"\n", 0, pos) + 1
        low = data.rfind(b"\n", 0, max(0, line - 1)) + 1 if line else 0
        high = data.find(b"\n", pos)
        high = len(data) if high == -1 else high
        if out and low <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], high))
        else:
            out.append((low, high))
    return out


def _account_starts_at(data: bytes, marker: bytes, low: int, high: int, searched: set[int],
                       out: set[int]) -> None:
    pos = data.find(marker, low, high)
    while pos != -1:
        line = data.rfind(b"\n", 0, pos) + 1
        if line not in searched:
            searched.add(line)
            # To the end of the next line: a plist's <string> follows its <key> line.
            end = data.find(b"\n", pos)
            end = len(data) if end == -1 else data.find(b"\n", end + 1)
            end = len(data) if end == -1 else end
            for regex in (_ACCOUNT, _GROUP):
                out.update(hit.end() for hit in regex.finditer(data, line, end))
        pos = data.find(marker, pos + 1, high)


# Traefik's providers, as a `NAME@provider` reference spells them (doc.traefik.io, "Providers").
_PROVIDERS = (rb"file|docker|swarm|internal|kubernetescrd|kubernetesingress|kubernetesgateway|kubernetes"
              rb"|consulcatalog|consul|nomad|ecs|marathon|rancher|etcd|redis|zookeeper|zk|http|rest"
              rb"|plugin|tailscale|hub")
_TRAEFIK_REF = lazy_re.compile(rb"@(?:" + _PROVIDERS + rb")(?![A-Za-z0-9_.@-])")
# A file that is Traefik's: its name in a label, a key, an image, or a dynamic configuration's
# sections (`http:` `routers:`, `middlewares:`).
_TRAEFIK_FILE = lazy_re.compile(rb"(?i)traefik|^[ \t]*(?:routers|middlewares)[ \t]*:", re.MULTILINE)


def is_traefik_ref(data: bytes, end: int) -> bool:
    """Is the `@` at data[end] the start of a Traefik provider suffix (`pug@file`) in a file that
    configures Traefik? Then the name before it is a router's, service's or middleware's."""
    return _TRAEFIK_REF.match(data, end) is not None and _TRAEFIK_FILE.search(data) is not None


def is_account(data: bytes, start: int, end: int, starts: set[int]) -> bool:
    """Does the name at data[start:end] stand for a user account, not the host?"""
    if data[end:end + 1] == b"@" and data[start - 1:start] != b"@":
        return not is_traefik_ref(data, end)  # NAME@host: the user on the left of @ (root@NAME is the host)
    return start in starts
