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
  `snmp-server community X`;
* (break-it round 9, finding 14) FRR/IOS BGP `neighbor P password X`, ntp and OSPF
  `authentication-key N [md5] X` / `message-digest-key N md5 X`, chrony and ntp keys files
  (`1 SHA1 HEX:X`, `1 M X`), IOS `tacacs-server [host H] key X`, `radius-server key X`, a
  `radius server` block's `key X`, `key-string X`, ppp chap-secrets and
  pap-secrets lines (`client server X [addresses]`, a `*` for the server or an address after),
  and a crypt hash wherever it stands (`$1$`, `$apr1$`, `$6$`, `$2b$`, `$y$`...). tac_plus's
  `key = X` is not: a line alone cannot tell it from Terraform's `key = "pug/t"` (a state path) or
  a `locals` entry, which reports must show.
"""

from __future__ import annotations

import re

from renamer import lazy_re

MASK = "****"
_AT = r"(?:^|(?<=[{;]))[ \t]*"  # a statement starts the line or follows `{` or `;`
_VALUE = r"(?P<value>\"(?:[^\"\\]|\\.)*\"|'[^']*'|(?:\{[A-Za-z0-9-]+\})?[^\s;{}#'\"]+)"  # `{SSHA}...`
_END = r"(?=[ \t]*(?:;|\}|#|//|$))"
# A statement's name that says secret: a secret word, alone or as the last word of a snake or
# kebab name (`remote_password`, `auth-pass`), or a daemon's own word for its password.
_SECRET_NAME = (r"(?:[A-Za-z0-9]+[_-])*(?:password|passwd|passphrase|secret|psk)"
                # nginx's upstream directives (`proxy_pass`...) take an address (round 22, #08)
                r"|(?!(?:proxy|fastcgi|uwsgi|grpc|scgi|memcached)_pass\b)(?:[A-Za-z0-9]+[_-])+(?:pass|pw)"
                r"|requirepass|masterauth|bindpw|rootpw")
_DIRECTIVE = lazy_re.compile(_AT + r"(?P<name>" + _SECRET_NAME + r")[ \t]+" + _VALUE + _END,
                        re.I | re.M)
# what may follow a ppp secret to the line's end: addresses (IPv4, a range, `*`, `-`), a comment
_PPP_ADDRESSES = r"(?=(?:[ \t]+(?:\"\*\"|\*|-|[0-9][0-9./-]*|\"[0-9][0-9./-]*\"))*[ \t]*(?:[#;].*)?$)"
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
    # break-it round 9, finding 14: routing, time, PPP, TACACS+ and RADIUS secrets
    # FRR, IOS BGP
    re.compile(_AT + r"neighbor[ \t]+\S+[ \t]+password[ \t]+(?:[07][ \t]+)?" + _VALUE, re.M | re.I),
    re.compile(r"(?:^|(?<=[\s{;]))(?:authentication-key|message-digest-key)[ \t]+(?:\d+[ \t]+)?"  # ntp, OSPF
               r"(?:(?:md5|sha1|sha-?256|hmac-sha-?\d+|cmac-aes)[ \t]+)?(?:[07][ \t]+)?"
               + _VALUE, re.M | re.I),
    re.compile(_AT + r"\d+[ \t]+(?:m|md5|sha|sha1|sha224|sha256|sha384|sha512|sha3-\d+|rmd160|aes128|aes256"
               r"|aes-?128-cmac|aes-?256-cmac)[ \t]+" + _VALUE, re.M | re.I),  # chrony.keys, ntp.keys
    re.compile(_AT + r"\d+[ \t]+(?P<value>(?:HEX|ASCII):[^\s#;]+)", re.M),  # chrony
    re.compile(_AT + r"(?:tacacs|radius)-server[ \t](?:[^#\n]*?[ \t])?key[ \t]+(?:[07][ \t]+)?" + _VALUE,
               re.M | re.I),  # IOS `tacacs-server host X key K`, `radius-server key K`
    # IOS `radius server X` block's `key K`, a key chain's `key-string K`
    re.compile(_AT + r"(?:server-private[ \t]+\S+[ \t](?:[^#\n]*?[ \t])?)?key(?:-string)?[ \t]+"
               r"(?:[07][ \t]+)?" + _VALUE + r"(?=[ \t]*(?:!|;|#|$))", re.M),
    # ppp chap-secrets / pap-secrets, a whole line: `client server secret [addresses]`, with a `*` for
    # the server or the last address (`pug * X 10.0.40.11`, `"bob" pug "X" *`)
    re.compile(r"^[ \t]*(?:\"[^\"]*\"|[^\s#\"*=]+)[ \t]+(?:\"\*\"|\*)[ \t]+" + _VALUE + _PPP_ADDRESSES, re.M),
    re.compile(r"^[ \t]*(?:\"[^\"]*\"|[^\s#\"*=]+)[ \t]+(?:\"[^\"*]*\"|[^\s#\"*=]+)[ \t]+" + _VALUE
               + r"(?=(?:[ \t]+(?:[0-9][0-9./-]*|\"[0-9][0-9./-]*\"))*[ \t]+(?:\"\*\"|\*)[ \t]*(?:[#;].*)?$)",
               re.M),
    # a crypt hash wherever it stands (.htpasswd `user:$apr1$...`, shadow, cloud-init `passwd:`)
    re.compile(r"(?:^|(?<=[\s:=\"']))(?P<value>\$(?:1|2[abxy]?|5|6|apr1|y|gy|7|md5|sha1|argon2(?:i|d|id)?)"
               r"(?:\$[^\s'\":;,$]*)+\$[./A-Za-z0-9+=]{8,})"),  # `"$1$2"` in a script is no hash
]
# What a lower-cased line must hold for each shape above to match, in the same order: a line runs
# only the shapes it could match (most lines that reach here hold `key` and need one shape of 18,
# a cost of seconds in a dense diff, issue 30); tests/test_masking_gates.py checks the output is
# that of every shape.
_NUMBERED = lazy_re.compile(r"(?:^|[{;])[ \t]*\d")  # a statement's start, as _AT: `keys { 1 SHA1 HEX:... }`
_SHAPE_HINTS: tuple[str | re.Pattern[str], ...] = (
    "auth", "password", "auth-pass", "community", "com2sec", ":", "enable", "username", "community",
    "neighbor", "-key", _NUMBERED, _NUMBERED, "-server", "key", "*", "*", "$")
_DIRECTIVE_HINT = lazy_re.compile(r"pass|pw|secret|psk|masterauth")
assert len(_SHAPE_HINTS) == len(_SHAPES)
# what a lower-cased line must hold for any shape above (masking.py's cheap prefilter adds it; `pass`,
# `pw`, `secret`, `psk` and `auth` are there already)
HINT = (r"community|com2sec|:\s*(?:eap|xauth|ntlm|pin)\s|neighbor|-key|tacacs|radius|^\s*\d+\s|\*"
        r"|\$(?:1|2|5|6|7|a|y|g|m|s)")


def mask_directives(line: str) -> str:
    """`line` with the secret value of each directive above masked."""
    lowered = line.lower()
    spans = [m.span("value") for m in _DIRECTIVE.finditer(line)] if _DIRECTIVE_HINT.search(lowered) else []
    for hint, shape in zip(_SHAPE_HINTS, _SHAPES, strict=True):
        if hint in lowered if isinstance(hint, str) else hint.search(lowered):
            spans += [m.span("value") for m in shape.finditer(line)]
    for start, end in sorted(set(spans), reverse=True):
        word = line[start:end]
        if word.strip("'\"") in (MASK, ""):
            continue
        quote = word[0] if word[:1] in "'\"" and len(word) > 1 and word[-1] == word[0] else ""
        line = f"{line[:start]}{quote}{MASK}{quote}{line[end:]}"
    return line
