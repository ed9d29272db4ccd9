"""Values no secret is, whatever the key's name says (break-it round 16, finding 19).

`max_tokens: 4096`, `use_refresh_tokens = true`, `token_ttl: 1h`, `password_min_length: 12`: the
name holds a secret word, but the value is a setting about secrets, not one. Masked, the dry run's
diff no longer applies as printed, and a LiteLLM or Keycloak configuration is full of them.

* a boolean or null written as the format's literal, unquoted (`true`, `False`, `yes`, `off`,
  `null`, `~`): never a secret's text;
* a number, a size (`512Mi`, `10GB`, `4k`) or a duration (`30s`, `1h30m`, `P1D`), quoted or not,
  only under a name that says quantity: a measure after the secret's word (`token_ttl`,
  `password_min_length`, `access_token_lifespan`, `auth_port`, `key_bits`), or a count before it
  (`max_tokens`, `num_tokens`). Under a name for the secret alone (`password: 123456`, `token: 5`)
  or one whose secret word comes last without a count (`retry_token: 123456`: a token for
  retries), a number is a secret's text and stays masked.
"""

from __future__ import annotations

import re

from renamer import lazy_re

_TRAILING_COMMENT = lazy_re.compile(r"\s+(?:#|//).*\Z")
_LITERAL = re.compile(r"(?i)(?:true|false|yes|no|on|off|null|none|nil|~)\Z")
_QUANTITY = lazy_re.compile(r"(?i)[-+]?(?:\d+(?:\.\d+)?|\.\d+)(?:e[-+]?\d+)?"  # a number
                       r"(?:[kmgtpe]i?b?|[kmgtpe]?bytes?|b)?\Z"  # a size
                       r"|(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h|d|w|y))+\Z"  # a duration
                       r"|P(?:\d+[YMWD])*(?:T(?:\d+(?:\.\d+)?[HMS])+)?\Z")  # ISO 8601
_COUNTS = frozenset({"max", "min", "maximum", "minimum", "num", "number", "total", "remaining",
                     "reserved", "count"})
# The words that name the secret itself: last in a name without a count, the value is one.
_SECRET_LAST = frozenset({"password", "passwd", "pwd", "passphrase", "secret", "secrets", "token",
                          "tokens", "key", "keys", "apikey", "credential", "credentials", "auth",
                          "authorization", "bearer", "cookie", "privatekey", "pass", "psk", "otp",
                          "pw", "pin"})
_QUANTITY_WORDS = _COUNTS | frozenset({"limit", "limits", "length", "len", "size", "ttl", "expiry",
                                       "expires", "expire", "expiration", "timeout", "lifetime",
                                       "lifespan", "age", "rate", "interval", "duration", "period",
                                       "retries", "retry", "attempts", "bits", "rounds",
                                       "iterations", "second", "seconds", "secs", "minute",
                                       "minutes", "mins", "hour", "hours", "day", "days", "week",
                                       "weeks", "ms", "port", "version", "capacity", "budget",
                                       "window", "delay", "history", "threshold", "per", "tpm",
                                       "rpm", "cost", "width", "bytes", "kb", "mb", "gb"})

# PostgreSQL's authentication methods (pg_hba.conf's last field, the geerlingguy.postgresql role's
# `auth_method`, community.postgresql's `method`), the name of a method under a key naming one.
_AUTH_METHODS = frozenset({"trust", "reject", "md5", "password", "scram-sha-256", "gss", "sspi", "ident",
                           "peer", "ldap", "radius", "cert", "pam", "bsd"})


def _bare(value: str) -> tuple[str, bool]:
    """`value` without a trailing comment, a trailing comma and its quotes; whether it was quoted."""
    text = _TRAILING_COMMENT.sub("", value.strip()).rstrip(",").strip()
    if len(text) > 1 and text[0] in "'\"" and text[-1] == text[0]:
        return text[1:-1], True
    return text, False


# A list of addresses or networks (comma or blank separated, its items quoted or not, in brackets or
# not), nothing else: IPv4 with a length or a port, IPv6 with a length (t38-break finding 15).
_ONE = (r"[\"']?(?:[0-9]{1,3}(?:\.[0-9]{1,3}){3}(?:/[0-9]{1,2}|:[0-9]{1,5})?"
        r"|[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?:/[0-9]{1,3})?)[\"']?")
_ADDRESS_LIST = lazy_re.compile(r"\[?[ \t]*" + _ONE + r"(?:[ \t]*[, \t][ \t]*" + _ONE + r")*[ \t]*\]?")
_PLACE_WORDS = frozenset({"network", "networks", "nets", "net", "host", "hosts", "ip", "ips", "address",
                          "addresses", "cidr", "cidrs", "subnet", "subnets", "range", "ranges", "allowed",
                          "allow", "whitelist", "allowlist", "trusted", "proxies", "peers",
                          # what a key names by where it is (an auth server, its gateway, a listen
                          # address; `IPV6` reads as the words IPV and 6)
                          "server", "servers", "gateway", "gw", "listen", "bind", "endpoint", "endpoints",
                          "addr", "ipv", "upstream", "upstreams", "resolver", "resolvers", "dns"})
_SECRET_ITSELF = frozenset({"password", "passwd", "pwd", "passphrase", "secret", "secrets", "token", "tokens",
                            "key", "keys", "apikey", "psk", "pass", "credential", "credentials", "otp", "pw"})
_SETUP_PASSES = frozenset({"windowsPE", "offlineServicing", "generalize", "specialize", "auditSystem",
                           "auditUser", "oobeSystem"})


def no_secret(words: list[str], value: str) -> bool:
    """Whether `value`, under a key whose lower-case words are `words`, cannot be a secret: an
    unquoted boolean or null, or a number, size or duration under a name that says quantity."""
    text, quoted = _bare(value)
    if not text:
        return False  # empty: what a secret's placeholder looks like (`API_KEY=""`)
    if words[-1:] == ["method"] or ("method" in words and text.lower() in _AUTH_METHODS):
        # `auth_method: md5`, `auth_method: "{{ postgresql_auth_method }}"`: a key naming a method
        # holds the name of one (or what chooses it), no secret (t33-33 finding 12)
        return True
    if not quoted and _LITERAL.match(text):
        return True
    if _ADDRESS_LIST.fullmatch(text) is not None and any(w in _PLACE_WORDS for w in words) \
            and not any(w in _SECRET_ITSELF for w in words):
        # `PLEX_NO_AUTH_NETWORKS: 192.168.0.0/16,10.0.0.0/8` (t37-break, finding 15): networks and
        # addresses a key names for what they are, no secret; masked, the diff did not apply as
        # printed. Under a name holding a word for the secret itself (`password=0.0.0.0`, even
        # `PASSWORD_SERVER`) it stays masked: masked is the safe side where the name is both.
        return True
    if words[-1:] == ["pass"] and text in _SETUP_PASSES:
        return True  # unattend.xml's `<settings pass="specialize">`: a Windows setup pass
    if _QUANTITY.match(text) is None or not any(word in _QUANTITY_WORDS for word in words):
        return False
    return words[-1] not in _SECRET_LAST or any(word in _COUNTS for word in words)
