"""Secrets (issue 27, item 14 / adversarial A-3 and a flow mapping): every output that shows a repo's
lines masks every secret shape renamer claims to mask, checked by a property over a generated corpus
through the real commands, and a masked diff counts exactly the lines it masked."""

from __future__ import annotations

import json
import string
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import Result
from tests.test_masking_args import LINES as ARGUMENT_SHAPES
from tests.test_masking_args import WHOLE_LINES
from tests.testing.repos import git, make_repo
from tests.testing.terminal import Terminal

# Each shape holds the old host, so every output shows its line, and one secret.
CLI_SHAPES = [
    "redis-cli -h ana-ml2 -a {s} ping", "sshpass -p {s} ssh root@ana-ml2", "sshpass -p{s} scp f ana-ml2:",
    "mysql -h ana-ml2 -p{s} app", "mysql -h ana-ml2 -u root -p {s}", "mysqladmin -h ana-ml2 -p{s} status",
    "mysql --host=ana-ml2 --password={s}", "mysqldump --password {s} -h ana-ml2 app",
    "smbclient //ana-ml2/share -U admin%{s}", "wget --password {s} http://ana-ml2/f",
    "wget --http-password={s} http://ana-ml2/f", "curl -u admin:{s} http://ana-ml2/",
    "deploy --token={s} --host ana-ml2", "deploy --api-key {s} ana-ml2", "cli --client-secret='{s}' ana-ml2",
    "ipmitool -I lanplus -H ana-ml2 -U admin -P {s} power status", "docker login -u me -p {s} ana-ml2:5000",
    "ldapsearch -H ldap://ana-ml2 -D cn=admin -w {s}", "snmpwalk -v2c -c {s} ana-ml2",
    "/usr/bin/redis-cli -a \"{s}\" -h ana-ml2", "x=$(sshpass -p '{s}' ssh ana-ml2 uptime)",
    "openssl s_client -connect ana-ml2:443 -pass pass:{s}",
    # sent on stdin to a command that reads a password there (break-it round 7, finding 14)
    "echo 'root:{s}' | chpasswd  # on ana-ml2", "echo {s} | sudo -S ssh ana-ml2 true",
    "printf 'admin:%s\\n' {s} | ssh ana-ml2 chpasswd", "echo -n \"{s}\" | docker login -u me --password-stdin ana-ml2",
    "echo {s} | passwd --stdin bob  # ana-ml2", "echo '{s}' | htpasswd -i /etc/ana-ml2.htpasswd bob",
    "echo {s} | kinit admin@ana-ml2", "ssh ana-ml2 chpasswd <<< 'bob:{s}'",
    # every command of the grammar tables (tests/test_masking_args.py), on a line naming the old host
    *(f"{shape} # on ana-ml2" for shape in ARGUMENT_SHAPES if shape not in WHOLE_LINES),
]
URL_SHAPES = ["DB_URL={scheme}://app:{s}@ana-ml2:5432/db", "  url: {scheme}://:{s}@ana-ml2/0"]
FLOW_SHAPES = [
    "db: {{host: ana-ml2, {name}: {s}}}", "- {{user: app, {name}: {s}, host: ana-ml2}}",
    'cfg: {{"host": "ana-ml2", "{name}": "{s}"}}', '{{"{name}": "{s}", "host": "ana-ml2"}}',
    "labels: {{a: {{host: ana-ml2, {name}: '{s}'}}}}",
]
# daemons' bare directives (break-it round 8, finding 12)
DIRECTIVE_SHAPES = ["stats auth admin:{s} # ana-ml2", "vrrp_instance ana-ml2 {{ auth_pass {s} }}",
                    "requirepass {s} # ana-ml2", "masterauth {s} # ana-ml2", "sentinel auth-pass mymaster {s} # ana-ml2",
                    "user admin insecure-password {s} # ana-ml2", 'secret "{s}"; # ana-ml2',
                    'ana-ml2 : PSK "{s}"', "rocommunity {s} ana-ml2", "bindpw {s} # ana-ml2",
                    # break-it round 9, finding 14
                    " neighbor ana-ml2 password {s}", "tacacs-server host ana-ml2 key {s}", "ana-ml2 * {s} *",
                    "ntp authentication-key 5 md5 {s} # ana-ml2", "1 SHA1 {s} # ana-ml2"]
ENV_SHAPES = ["{name}={s}  # ana-ml2", "export {name}='{s}' # ana-ml2", "  - {name}={s} host=ana-ml2"]
NAMES = ["password", "DB_PASSWORD", "apiKey", "api_key", "clientSecret", "AUTH_TOKEN", "accessToken",
         "private-key", "passwd", "secret", "REDIS_PASS", "SMTP_PW"]
SCHEMES = ["postgres", "redis", "https", "mongodb+srv", "amqp"]
# A secret starts with a marker no output holds by itself and then a letter: a value that starts
# with `-` after a space reads as the next flag (docs/reliability.md).
SECRET = st.text(st.sampled_from(string.ascii_letters + string.digits + "+/=_!^~."), min_size=5,
                 max_size=16).map(lambda tail: f"Zq{tail}")
FLOW_SECRET = st.text(st.sampled_from(string.ascii_letters + string.digits + "+/=_!^~. "), min_size=5,
                      max_size=16).map(lambda tail: f"Zq{tail.strip()}x")


@st.composite
def corpus(draw: st.DrawFn) -> list[tuple[str, str]]:
    """(line, secret) pairs: one line of each family and a few drawn at random."""
    lines = []
    for _ in range(draw(st.integers(4, 10))):
        family = draw(st.sampled_from(["cli", "url", "flow", "env", "directive"]))
        name, scheme = draw(st.sampled_from(NAMES)), draw(st.sampled_from(SCHEMES))
        if family == "cli":
            secret, shape = draw(SECRET), draw(st.sampled_from(CLI_SHAPES))
        elif family == "url":
            secret, shape = draw(SECRET) + "@x", draw(st.sampled_from(URL_SHAPES))
        elif family == "flow":
            secret, shape = draw(FLOW_SECRET), draw(st.sampled_from(FLOW_SHAPES))
        elif family == "directive":
            secret, shape = draw(SECRET), draw(st.sampled_from(DIRECTIVE_SHAPES))
        else:
            secret, shape = draw(SECRET), draw(st.sampled_from(ENV_SHAPES))
        lines.append((shape.format(s=secret, name=name, scheme=scheme), secret))
    return lines


ALLOW = """version: 1
current: [stacks/**]
records:
  - name: incidents
    paths: [incidents/**]
    reason: incident notes describe the system then
"""
CONFIG = "version: 1\nname: m\nrenames:\n  hosts: {ana-ml2: fv-ml1}\nallowlist: allow.yaml\n"
OUTPUTS = [
    ("verify",), ("verify", "--format", "json"), ("verify", "--format", "sarif"), ("audit",),
    ("audit", "--format", "markdown"), ("audit", "--format", "json"), ("audit", "--format", "sarif"),
    ("explain", "stacks/run.sh"), ("explain", "incidents/then.md", "--format", "json"),
    ("sweep", "--dry-run"), ("sweep", "--dry-run", "--format", "json"),
]


def _repo(root: Path, lines: list[tuple[str, str]]) -> Path:
    text = "".join(f"{line}\n" for line, _ in lines)
    return make_repo(root, {"stacks/run.sh": text, "incidents/then.md": text}, config=CONFIG, allowlist=ALLOW)


def _leaks(result: Result, lines: list[tuple[str, str]]) -> list[str]:
    shown = result.stdout + result.stderr
    return [line for line, secret in lines if secret in shown or secret.strip() in shown]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=corpus())
def test_no_output_shows_a_generated_secret(lines: list[tuple[str, str]], run: Callable[..., Result]) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        root = _repo(Path(scratch) / "repo", lines)
        for args in OUTPUTS:
            result = run(root, *args)
            assert "ana-ml2" in result.stdout, (args, result.stdout, result.stderr)  # the lines are shown
            assert _leaks(result, lines) == [], args


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=corpus())
def test_a_masked_diff_counts_the_lines_it_masked(lines: list[tuple[str, str]],
                                                  run: Callable[..., Result]) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        root = _repo(Path(scratch) / "repo", lines)
        masked = run(root, "sweep", "--dry-run")
        exact = run(root, "sweep", "--dry-run", "--show-secrets")
        differ = [pair for pair in zip(masked.stdout.splitlines(), exact.stdout.splitlines(), strict=True)
                  if pair[0] != pair[1]]
        assert all("****" in shown and "****" not in real for shown, real in differ)
        # no line counted as masked still shows a secret (a mask that hides one of two is no mask)
        assert [shown for shown, _ in differ if any(secret in shown for _, secret in lines)] == []
        n = len(differ)  # each line of the corpus shows twice: removed and added
        assert n == 2 * len(lines)
        assert f"renamer: {n} diff lines hold secrets, masked (****)" in masked.stderr
        assert "hold secrets" not in exact.stderr


@pytest.mark.parametrize("line", (
    pytest.param("-- password=Sq1Lx9 on ana-ml2", id="sql-comment-reads-as-a-header"),
    pytest.param("++ token=Sq1Lx9 ana-ml2", id="plus-plus-reads-as-a-header"),
    pytest.param("@@ -1 +1 @@ password=Sq1Lx9 ana-ml2", id="a-line-like-a-hunk-header"),
))
def test_a_line_that_looks_like_a_diff_header_is_still_masked(line: str, repo: Callable[..., Path],
                                                              run: Callable[..., Result]) -> None:
    root = repo({"stacks/run.sh": f"ssh ana-ml2\n{line}\n"}, config=CONFIG, allowlist=ALLOW)
    result = run(root, "sweep", "--dry-run")
    assert "Sq1Lx9" not in result.stdout
    assert "renamer: 2 diff lines hold secrets, masked (****)" in result.stderr


def test_a_diff_without_secrets_claims_nothing(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"stacks/run.sh": "ssh ana-ml2\nmysql -h ana-ml2 -u app db\ndocker run -p 80:80 ana-ml2\n"},
                config=CONFIG, allowlist=ALLOW)
    result = run(root, "sweep", "--dry-run")
    assert "-p 80:80" in result.stdout and "hold secrets" not in result.stderr


def test_interactive_prompts_mask_secrets(repo: Callable[..., Path]) -> None:
    root = repo({"stacks/run.sh": "redis-cli -h ana-ml2 -a R3dKq9\n"
                                  "db: {host: ana-ml2, password: Fl0w s3cret}\n"}, config=CONFIG, allowlist=ALLOW)
    term = Terminal([str(Path(sys.executable).parent / "renamer"), "sweep", "--interactive"], root)
    shown = term.expect("]? ")
    term.send("n")
    shown += term.expect("]? ")
    term.send("q")
    term.wait()
    assert "ana-ml2" in shown and "R3dKq9" not in shown and "Fl0w" not in shown and "s3cret" not in shown


def test_json_keeps_the_masked_line_valid(repo: Callable[..., Path], run: Callable[..., Result]) -> None:
    root = repo({"stacks/run.sh": 'cfg: {"host": "ana-ml2", "token": 5}\n'}, config=CONFIG, allowlist=ALLOW)
    found = json.loads(run(root, "verify", "--format", "json").stdout)
    texts = [json.dumps(found)]
    assert '\\"token\\": \\"****\\"' in texts[0] and "5}" not in texts[0]


# Round 3 finding 16: a password after a share (`net use`, smbclient), Windows and PowerShell flags,
# and the other shapes the report named, each on a line naming the old host.
SHARE_LINES = [
    (r"net use \\ana-ml2\share S3cretKa /user:bob", "S3cretKa"),
    (r"net use X: \\ana-ml2\share S3cretKb /user:bob", "S3cretKb"),
    (r"net use \\ana-ml2\share /user:dom\bob S3cretKc", "S3cretKc"),
    (r"NET USE Z: \\ana-ml2\share S3cretKd /USER:dom\bob /persistent:no", "S3cretKd"),
    ("smbclient //ana-ml2/share S3cretKe -U bob", "S3cretKe"),
    ("smbclient -U bob //ana-ml2/share 'S3cretKf'", "S3cretKf"),
    ("mount -t cifs //ana-ml2/share /mnt -o user=bob,password=S3cretKg,vers=3.0", "S3cretKg"),
    ("sshpass -p S3cretKh ssh root@ana-ml2", "S3cretKh"),
    ("mysql -h ana-ml2 -pS3cretKi app", "S3cretKi"),
    ("cd /srv && PGPASSWORD=S3cretKj psql -h ana-ml2", "S3cretKj"),
    ("curl -u bob:S3cretKk http://ana-ml2/", "S3cretKk"),
    ("tool --password=S3cretKl --host ana-ml2", "S3cretKl"),
    (r"psexec \\ana-ml2 -u bob -p S3cretKm cmd", "S3cretKm"),
    ("xfreerdp /v:ana-ml2 /u:bob /p:S3cretKn", "S3cretKn"),
    ("schtasks /create /s ana-ml2 /u bob /p S3cretKo /tn x", "S3cretKo"),
    ("$pw = ConvertTo-SecureString 'S3cretKp' -AsPlainText -Force # ana-ml2", "S3cretKp"),
    ("rdesktop -u bob -p S3cretKq ana-ml2", "S3cretKq"),  # round 4 finding 10
    ("ncftp -u bob -p S3cretKr ana-ml2", "S3cretKr"),
]


@pytest.mark.parametrize("args", [pytest.param(args, id="-".join(args)) for args in OUTPUTS])
def test_share_passwords_are_masked_in_every_output(args: tuple[str, ...], repo: Callable[..., Path],
                                                    run: Callable[..., Result]) -> None:
    text = "".join(f"{line}\n" for line, _ in SHARE_LINES)
    text += r"net use X: \\ana-ml2\share * /user:bob" + "\n"  # a prompt: nothing to mask, shown as it is
    root = repo({"stacks/run.sh": text, "incidents/then.md": text}, config=CONFIG, allowlist=ALLOW)
    result = run(root, *args)
    assert "ana-ml2" in result.stdout, result.stdout + result.stderr
    assert _leaks(result, SHARE_LINES) == []
    if args in (("audit",), ("explain", "stacks/run.sh")):
        assert r"\share * /user:bob" in result.stdout  # the prompt's `*` is no secret
    if args == ("sweep", "--dry-run"):  # every line but the prompt's counted, twice: removed and added
        assert f"renamer: {2 * len(SHARE_LINES)} diff lines hold secrets, masked (****)" in result.stderr


# Break-it round 8, finding 12: daemons write their secrets as bare directives.
DAEMON_FILES = {
    "stacks/haproxy.cfg": "listen stats\n  stats auth admin:H4proxyZ2 # ana-ml2\n"
                          "userlist ops\n  user bob insecure-password HaUserZ3 # ana-ml2\n",
    "stacks/keepalived.conf": "authentication { auth_type PASS; auth_pass K33paliveZ } # ana-ml2\n",
    "stacks/redis.conf": "replicaof ana-ml2 6379\nmasterauth R3dMasterZ # ana-ml2\nrequirepass R3dReqZ # ana-ml2\n",
    "stacks/named.conf": 'key "ana-ml2" { algorithm hmac-sha256; secret "TsigZ64="; };\n',
    "stacks/snmpd.conf": "rocommunity SnmpCommZ ana-ml2\n",
    "stacks/ipsec.secrets": 'ana-ml2 : PSK "IpsecPskZ"\n',
}


@pytest.mark.parametrize("args", [pytest.param(args, id="-".join(args)) for args in OUTPUTS[:7] + OUTPUTS[9:]])
def test_daemon_directive_secrets_are_masked_in_every_output(args: tuple[str, ...], repo: Callable[..., Path],
                                                             run: Callable[..., Result]) -> None:
    root = repo(DAEMON_FILES, config=CONFIG, allowlist=ALLOW)
    result = run(root, *args)
    shown = result.stdout + result.stderr
    assert "ana-ml2" in result.stdout, (args, result.stdout)
    leaked = [s for s in ("H4proxyZ2", "HaUserZ3", "K33paliveZ", "R3dMasterZ", "R3dReqZ", "TsigZ64",
                          "SnmpCommZ", "IpsecPskZ") if s in shown]
    assert leaked == [], args


# Break-it round 9, finding 14: routing, time, PPP, TACACS+ and RADIUS secrets, and crypt hashes; the
# TACACS+ key also stood in the key path verify prints for its line.
ROUND9_FILES = {
    "stacks/frr.conf": "router bgp 65000\n neighbor ana-ml2 remote-as 65001\n neighbor ana-ml2 password FrrPwZ1\n",
    "stacks/chrony.keys": "1 SHA1 HEX:ABCDEF0123456789ABCDEF0123456789ABCDEFZ2 # ana-ml2\n2 ASCII:ChronyZ3 # ana-ml2\n",
    "stacks/ntp.keys": "4 M NtpKeysZ4 # ana-ml2\n",
    "stacks/chap-secrets": 'ana-ml2 * ChapPwZ5 10.0.40.11\n"bob" ana-ml2 "PapPwZ6" *\n',
    "stacks/tac.cfg": "tacacs-server host ana-ml2 key TacKeyZ7\nradius-server host ana-ml2 auth-port 1812 key RadKeyZ8\n",
    "stacks/radius.cfg": "radius server ana-ml2\n address ipv4 10.0.40.11 auth-port 1812\n key RadBlockZ9\n",
    "stacks/ntp.cfg": "ntp server ana-ml2 key 5\nntp authentication-key 5 md5 NtpAuthZ10\n",
    "stacks/clients.conf": "client ana-ml2 {\n  secret = RadClientZ12\n}\n",
    "stacks/ospf.conf": "interface eth0 # ana-ml2\n ip ospf message-digest-key 1 md5 OspfZ13\n",
    "stacks/.htpasswd": "ana-ml2:$apr1$Zq1$HtpasswdZ14abcdefghij\n",
}
ROUND9_SECRETS = ["FrrPwZ1", "DEFZ2", "ChronyZ3", "NtpKeysZ4", "ChapPwZ5", "PapPwZ6", "TacKeyZ7", "RadKeyZ8",
                  "RadBlockZ9", "NtpAuthZ10", "RadClientZ12", "OspfZ13", "HtpasswdZ14"]


@pytest.mark.parametrize("args", [pytest.param(args, id="-".join(args)) for args in
                                  [*OUTPUTS[:7], ("explain", "stacks/tac.cfg"), ("explain", "stacks/chap-secrets"),
                                   *OUTPUTS[9:]]])
def test_round9_secrets_are_masked_in_every_output(args: tuple[str, ...], repo: Callable[..., Path],
                                                    run: Callable[..., Result]) -> None:
    root = repo(ROUND9_FILES, config=CONFIG, allowlist=ALLOW)
    result = run(root, *args)
    shown = result.stdout + result.stderr
    assert "ana-ml2" in result.stdout, (args, result.stdout)
    assert [s for s in ROUND9_SECRETS if s in shown] == [], (args, shown)
    if args == ("verify",):  # the key path of the TACACS+ line, shown masked
        assert "[tacacs-server host ana-ml2 key **** key]" in result.stdout, result.stdout


def test_a_dry_run_diff_of_settings_about_secrets_applies_as_printed(repo: Callable[..., Path],
                                                                     run: Callable[..., Result]) -> None:
    """Break-it round 16, finding 19: `max_tokens: 4096` and `use_refresh_tokens = true` (context and
    changed lines) are no secrets: the default diff applies with git apply; a real secret beside them,
    numeric too, is still masked."""
    files = {
        "stacks/litellm.yaml": "model_list:\n  - model_name: qwen\n    litellm_params:\n      model: openai/qwen\n"
                               "      api_base: http://ana-ml2:8016/v1\n      max_tokens: 4096\n"
                               "      max_input_tokens: 32768\n",
        "stacks/main.tf": 'resource "keycloak_openid_client" "app" {\n  use_refresh_tokens  = true\n'
                          '  access_token_lifespan = "300"\n  valid_redirect_uris = ["https://ana-ml2/cb"]\n}\n',
    }
    root = repo(files, config=CONFIG, allowlist=ALLOW)
    result = run(root, "sweep", "--dry-run")
    assert "****" not in result.stdout and "hold secrets" not in result.stderr
    assert "max_tokens: 4096" in result.stdout and "use_refresh_tokens  = true" in result.stdout
    patch = root.parent / "dry.diff"
    patch.write_text(result.stdout)
    assert subprocess.run(["git", "apply", "--check", str(patch)], cwd=root, capture_output=True).returncode == 0
    # the secrets beside them stay masked, a numeric one too
    (root / "stacks/run.sh").write_text("ssh ana-ml2\nPASSWORD=48213377\napi_key: 90210\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "secrets")
    result = run(root, "sweep", "--dry-run")
    assert "48213377" not in result.stdout and "90210" not in result.stdout
    assert "max_tokens: 4096" in result.stdout
