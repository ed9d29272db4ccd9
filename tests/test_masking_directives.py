"""Secrets in daemon directives (break-it round 8, finding 12): a bare statement, its secret value."""

from __future__ import annotations

import string

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from renamer.masking import mask_line

LINES = [
    ("  stats auth admin:H4proxy2 # pug", "  stats auth admin:**** # pug"),  # HAProxy
    ("authentication { auth_type PASS; auth_pass K33palive } # pug",
     "authentication { auth_type PASS; auth_pass **** } # pug"),  # keepalived, inline
    ("    auth_pass K33palive", "    auth_pass ****"),
    ("requirepass S3cr3t", "requirepass ****"),  # redis
    ('masterauth "S3cr3t"', 'masterauth "****"'),
    ("sentinel auth-pass mymaster Snpw", "sentinel auth-pass mymaster ****"),
    ("  user admin insecure-password Hapw1", "  user admin insecure-password ****"),  # HAProxy userlist
    ("  user admin password $6$abc$def", "  user admin password ****"),
    ('key "k" { algorithm hmac-sha256; secret "c2VjcmV0"; };',
     'key "k" { algorithm hmac-sha256; secret "****"; };'),  # BIND TSIG / rndc
    ("  secret testing123", "  secret ****"),
    ('%any : PSK "IpsecPw"', '%any : PSK "****"'),  # strongSwan ipsec.secrets
    ('bob : EAP "EapPw"', 'bob : EAP "****"'),
    ("rocommunity Publ1c 10.0.0.0/8", "rocommunity **** 10.0.0.0/8"),  # snmpd
    ("rwcommunity6 Publ1c", "rwcommunity6 ****"),
    ("com2sec local 10.0.0.0/8 Comm1", "com2sec local 10.0.0.0/8 ****"),
    ("bindpw Bindpw1", "bindpw ****"),  # nslcd, pam_ldap
    ("rootpw {SSHA}abc", "rootpw ****"),  # slapd
    ("remote_password Mqpw", "remote_password ****"),  # mosquitto bridge
    ("enable secret 5 Enpw", "enable secret 5 ****"),  # Cisco IOS
    ("username admin privilege 15 password 0 Cipw", "username admin privilege 15 password 0 ****"),
    ("snmp-server community Comm2 RO", "snmp-server community **** RO"),
    # the two cosmetic maskings of the same report: the mask covers the secret, nothing around it
    ("  - {job_name: n, basic_auth: {username: u, password: Pr0mPw}, x: 1}",
     "  - {job_name: n, basic_auth: {username: u, password: ****}, x: 1}"),
    ("vault login -method=userpass username=x password=V4ultPw # pug",
     "vault login -method=userpass username=x password=**** # pug"),
]


@pytest.mark.parametrize(("line", "expected"), LINES)
def test_a_directive_s_secret_is_masked(line: str, expected: str) -> None:
    assert mask_line(line) == expected


@pytest.mark.parametrize("line", [
    "pass in on em0 all", "pass all",  # pf: `pass` alone is a rule, not a password
    "auth required pam_unix.so",  # PAM
    "# password is set elsewhere", "stats uri /stats", "user admin groups ops",
    "server pug 10.0.40.11:80 check", "community.general.ufw: rule=allow",
])
def test_other_statements_are_left_alone(line: str) -> None:
    assert mask_line(line) == line


SHAPES = ["stats auth admin:{s}", "  auth_pass {s}", "requirepass {s}", 'masterauth "{s}"',
          "sentinel auth-pass m {s}", "user a insecure-password {s}", 'secret "{s}";', ': PSK "{s}"',
          "rocommunity {s} default", "bindpw {s}", "enable secret 5 {s}", "vrrp {{ auth_pass {s} }}",
          "snmp-server community {s} RO"]
SECRET = st.text(st.sampled_from(string.ascii_letters + string.digits + "+/=_-!%^*~.:@$"), min_size=6,
                 max_size=24)


@settings(max_examples=300, deadline=None)
@given(shape=st.sampled_from(SHAPES), secret=SECRET, comment=st.sampled_from(["", " # pug", ";"]))
def test_no_generated_directive_secret_leaks(shape: str, secret: str, comment: str) -> None:
    line = shape.format(s=secret) + comment
    assume(secret not in shape.format(s=""))
    assert secret not in mask_line(line)
