"""Secrets in daemon configuration directives: a statement's name, a space, its secret value.

`key = value` and `key: value` are masking.py's; these daemons write their secrets as a bare
statement instead (break-it round 8, finding 12), where the form is certain:

* a statement (at the line's start, or after `{` or `;`) whose name is a secret's and which holds
  one value: keepalived `auth_pass X`, redis `requirepass X` / `masterauth X`, nslcd and slapd
  `bindpw X` / `rootpw X`, mosquitto `remote_password X`, `password X`, BIND's `secret "X";`;
* HAProxy `stats auth USER:X`, its userlist's `user NAME password X` / `insecure-password X`, and
  redis sentinel's `sentinel auth-pass MASTER X`;
* snmpd's communities `rocommunity X`, `rwcommunity6 X`, `com2sec NAME SOURCE X`;
* strongSwan's ipsec.secrets `: PSK "X"` (EAP, XAUTH, NTLM, PIN alike);
* Cisco IOS `enable secret [5] X`, `username U [privilege N] password [7] X`,
  `snmp-server community X`.
"""

from __future__ import annotations

import re

MASK = "****"
_AT = r"(?:^|(?<=[{;]))[ \t]*"  # a statement starts the line or follows `{` or `;`
_VALUE = r"(?P<value>\"(?:[^\"\\]|\\.)*\"|'[^']*'|(?:\{[A-Za-z0-9-]+\})?[^\s;{}#'\"]+)"  # `{SSHA}...`
_END = r"(?=[ \t]*(?:;|\}|#|//|$))"
# A statement's name that says secret: a secret word, alone or as the last word of a snake or
# kebab name (`remote_password`, `auth-pass`), or a daemon's own word for its password.
_SECRET_NAME = (r"(?:[A-Za-z0-9]+[_-])*(?:password|passwd|passphrase|secret|psk)"
                r"|(?:[A-Za-z0-9]+[_-])+(?:pass|pw)|requirepass|masterauth|bindpw|rootpw")
_DIRECTIVE = re.compile(_AT + r"(?P<name>" + _SECRET_NAME + r")[ \t]+" + _VALUE + _END,
                        re.I | re.M)
_SHAPES = [
    re.compile(_AT + r"stats[ \t]+auth[ \t]+[^\s:]+:" + _VALUE, re.M),  # HAProxy
    re.compile(_AT + r"user[ \t]+\S+[ \t]+(?:insecure-)?password[ \t]+" + _VALUE, re.M),  # HAProxy userlist
    re.compile(_AT + r"sentinel[ \t]+auth-pass[ \t]+\S+[ \t]+" + _VALUE, re.M),  # redis sentinel
    re.compile(_AT + r"(?:ro|rw)community6?[ \t]+" + _VALUE, re.M),  # snmpd
    re.compile(_AT + r"com2sec6?[ \t]+(?:-Cn[ \t]+\S+[ \t]+)?\S+[ \t]+\S+[ \t]+" + _VALUE, re.M),
    re.compile(r"(?:^|[ \t]):[ \t]*(?:PSK|EAP|XAUTH|NTLM|PIN)[ \t]+" + _VALUE, re.M),  # strongSwan
    re.compile(_AT + r"enable[ \t]+(?:secret|password)[ \t]+(?:level[ \t]+\d+[ \t]+)?(?:\d[ \t]+)?" + _VALUE,
               re.M),  # Cisco IOS
    re.compile(_AT + r"username[ \t]+\S+[ \t]+(?:privilege[ \t]+\d+[ \t]+)?(?:password|secret)[ \t]+"
               r"(?:\d[ \t]+)?" + _VALUE, re.M),
    re.compile(_AT + r"snmp-server[ \t]+community[ \t]+" + _VALUE, re.M),
]
# what a lower-cased line must hold for any shape above (masking.py's cheap prefilter adds it; `pass`,
# `pw`, `secret`, `psk` and `auth` are there already)
HINT = r"community|com2sec|:\s*(?:eap|xauth|ntlm|pin)\s"


def mask_directives(line: str) -> str:
    """`line` with the secret value of each directive above masked."""
    spans = [m.span("value") for m in _DIRECTIVE.finditer(line)]
    for shape in _SHAPES:
        spans += [m.span("value") for m in shape.finditer(line)]
    for start, end in sorted(set(spans), reverse=True):
        word = line[start:end]
        if word.strip("'\"") in (MASK, ""):
            continue
        quote = word[0] if word[:1] in "'\"" and len(word) > 1 and word[-1] == word[0] else ""
        line = f"{line[:start]}{quote}{MASK}{quote}{line[end:]}"
    return line
