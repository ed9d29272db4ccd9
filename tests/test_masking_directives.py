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
    # break-it round 9, finding 14
    (" neighbor 10.0.40.11 password FrrS3cret1", " neighbor 10.0.40.11 password ****"),  # FRR
    (" neighbor PEERS password 7 0822455D0A16", " neighbor PEERS password 7 ****"),  # IOS, a peer group
    ("1 SHA1 HEX:ABCDEF0123456789ABCDEF01 # pug", "1 SHA1 **** # pug"),  # chrony.keys
    ("2 ASCII:Chr0nyPw", "2 ****"), ("3 MD5 Chr0nyPw", "3 MD5 ****"), ("4 M ntpKeyPw", "4 M ****"),  # ntp.keys
    ("ntp authentication-key 5 md5 NtpK3y", "ntp authentication-key 5 md5 ****"),  # IOS ntp
    (" ip ospf authentication-key 0spfK", " ip ospf authentication-key ****"),
    (" ip ospf message-digest-key 1 md5 0spfK", " ip ospf message-digest-key 1 md5 ****"),
    ("tacacs-server host 10.0.40.11 key TacK3y99", "tacacs-server host 10.0.40.11 key ****"),  # IOS TACACS+
    ("tacacs-server key 7 TacK3y99", "tacacs-server key 7 ****"),
    # the key path verify prints for the line: the line and its key
    ("tacacs-server host 10.0.40.11 key TacK3y99 key", "tacacs-server host 10.0.40.11 key **** key"),
    ("radius-server host 10.0.40.11 auth-port 1812 key Rk2", "radius-server host 10.0.40.11 auth-port 1812 key ****"),
    (" key Rad1usK3y", " key ****"),  # IOS `radius server NAME` block
    (" key 7 Rad1usK3y", " key 7 ****"), (" key-string K3yStr", " key-string ****"),  # a key chain
    ("secret = testing123", "secret = ****"),  # FreeRADIUS clients.conf
    ("pug * Ch4pPass 10.0.40.11", "pug * **** 10.0.40.11"),  # ppp chap-secrets
    ('"bob" "*" "Pap Pw" *', '"bob" "*" "****" *'), ("bob pug Chp2 *", "bob pug **** *"),  # pap-secrets
    ("admin:$apr1$pug$Xyz0123456789abcdefghi", "admin:****"),  # .htpasswd
    ('    passwd: "$6$rounds=4096$Zx9$abc/pug/def0123456789"', '    passwd: ****'),  # cloud-init
    ("bob:$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW:1000", "bob:****:1000"),  # bcrypt
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
    # round 9's shapes, on statements that carry no secret
    " neighbor 10.0.40.11 remote-as 65001", " neighbor 10.0.40.11 update-source lo", "ntp server 10.0.40.11 key 5",
    "ntp trusted-key 5", "radius server pug", " address ipv4 10.0.40.11 auth-port 1812",
    'key "xfer" {', "x = a * b * c", "a * b * c", "2 * 3 apples are many", "1 server pug iburst",
    " ip ospf message-digest-key", "bob pug Chp2 10.0.40.0/24", "echo $1 $pug", "- key: node-role", 'echo "$1$2"', "x=$1$pug$HOME",
    'key = "pug/terraform.tfstate"', 'key = "pug"',  # Terraform's backend and locals: shown
])
def test_other_statements_are_left_alone(line: str) -> None:
    assert mask_line(line) == line


SHAPES = ["stats auth admin:{s}", "  auth_pass {s}", "requirepass {s}", 'masterauth "{s}"',
          "sentinel auth-pass m {s}", "user a insecure-password {s}", 'secret "{s}";', ': PSK "{s}"',
          "rocommunity {s} default", "bindpw {s}", "enable secret 5 {s}", "vrrp {{ auth_pass {s} }}",
          "snmp-server community {s} RO", " neighbor 10.0.40.11 password {s}", "1 SHA1 {s}", "1 MD5 {s}",
          "ntp authentication-key 5 md5 {s}", "tacacs-server host 10.0.40.11 key {s}", "radius-server key {s}",
          " key {s}", "pug * {s} 10.0.40.11", "pug * {s} *", '"pug" "*" "{s}" *',
          " ip ospf message-digest-key 1 md5 {s}"]
SECRET = st.text(st.sampled_from(string.ascii_letters + string.digits + "+/=_-!%^*~.:@$"), min_size=6,
                 max_size=24)


@settings(max_examples=300, deadline=None)
@given(shape=st.sampled_from(SHAPES), secret=SECRET, comment=st.sampled_from(["", " # pug", ";"]))
def test_no_generated_directive_secret_leaks(shape: str, secret: str, comment: str) -> None:
    line = shape.format(s=secret) + comment
    assume(secret not in shape.format(s=""))
    assert secret not in mask_line(line)
