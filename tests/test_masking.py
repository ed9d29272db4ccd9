"""Secret values masked before a line reaches verify or audit output (and so CI logs)."""

from __future__ import annotations

import string

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from renamer.masking import MASK, hides, is_secret_name, mask_line
from renamer.masking_paths import is_path


@pytest.mark.parametrize(("line", "expected"), (
    # URL userinfo
    pytest.param("postgres://user:hunter2@db:5432/x", "postgres://user:****@db:5432/x", id="url-password"),
    pytest.param("amqp://guest:guest@rabbit//", "amqp://guest:****@rabbit//", id="url-password-amqp"),
    pytest.param("a://u:p@h b://v:q@i", "a://u:****@h b://v:****@i", id="two-urls"),
    pytest.param("DB_URL=postgres://u:p4ss@ana-ml2/db", "DB_URL=postgres://u:****@ana-ml2/db",
                 id="url-in-env-value"),
    pytest.param('url: "postgres://u:p@ana-ml2"', 'url: "postgres://u:****@ana-ml2"', id="url-in-yaml-value"),
    # KEY=value
    pytest.param("password=hunter2", "password=****", id="env-password"),
    pytest.param("export API_KEY=abc123", "export API_KEY=****", id="env-export"),
    pytest.param("  PASSWORD = s3cret  ", "  PASSWORD = ****  ", id="env-spacing-kept"),
    pytest.param("GITHUB_TOKEN=ghp_x", "GITHUB_TOKEN=****", id="env-token-suffix"),
    pytest.param("db_passwd=x", "db_passwd=****", id="env-passwd"),
    pytest.param('API_KEY=""', "API_KEY=****", id="env-empty-quotes"),
    pytest.param("PASSWORD=${DB_PASSWORD}", "PASSWORD=****", id="env-reference"),
    pytest.param("password=x # c", "password=****", id="env-comment-masked-too"),
    pytest.param('secret_key = "x"', "secret_key = ****", id="toml-style"),
    # key: value
    pytest.param("api_key: sk-123", "api_key: ****", id="yaml-api-key"),
    pytest.param("  - api_key: sk-123", "  - api_key: ****", id="yaml-list-item"),
    pytest.param("'api_key': x", "'api_key': ****", id="yaml-single-quoted-key"),
    pytest.param('"api_key": sk-1', '"api_key": ****', id="yaml-double-quoted-key"),
    pytest.param("api-key: x", "api-key: ****", id="yaml-dashed-key"),
    pytest.param("client_secret: x", "client_secret: ****", id="yaml-secret-suffix"),
    pytest.param("auth_token: abc", "auth_token: ****", id="yaml-auth-token"),
    pytest.param("token: abc", "token: ****", id="yaml-token"),
    pytest.param("mysecretthing: x", "mysecretthing: ****", id="yaml-secret-inside"),
    pytest.param('password: ""', "password: ****", id="yaml-empty-quotes"),
    pytest.param("api_key: sk-123   ", "api_key: ****", id="yaml-trailing-space-dropped"),
    pytest.param("password: x  # note", "password: ****", id="yaml-comment-masked-too"),
    # "key": "value" anywhere in a line
    pytest.param('{"api_key": "sk-1", "host": "ana-ml2"}', '{"api_key": "****", "host": "ana-ml2"}',
                 id="json-string"),
    pytest.param('{"token": 5}', '{"token": "****"}', id="json-number"),
    pytest.param('x: {"password": "a\\"b"}', 'x: {"password": "****"}', id="json-escaped-quote"),
    pytest.param('JSON {"password":"x","n":1}', 'JSON {"password":"****","n":1}', id="json-no-spaces"),
    pytest.param("redis://:hunter2@cache:6379/0", "redis://:****@cache:6379/0", id="url-password-no-user"),
    pytest.param("  - MYSQL_PASSWORD=hunter2", "  - MYSQL_PASSWORD=****", id="compose-env-list-item"),
    # The adversarial pass's W12 table
    pytest.param("DATABASE_URL=postgres://app:Xy/9+abc@ana-ml2:5432/db",
                 "DATABASE_URL=postgres://app:****@ana-ml2:5432/db", id="w12-url-password-slash"),
    pytest.param("REDIS_URL=redis://:p@ss@ana-ml2:6379", "REDIS_URL=redis://:****@ana-ml2:6379",
                 id="w12-url-password-at"),
    pytest.param("labels: {host: ana-ml2, password: S3cret}", "labels: {host: ana-ml2, password: ****}",
                 id="w12-yaml-flow"),
    pytest.param('{"host": "ana-ml2", "accessToken": "abc", "authToken": "def"}',
                 '{"host": "ana-ml2", "accessToken": "****", "authToken": "****"}', id="w12-camel-case"),
    pytest.param("- PG_DSN=host=ana-ml2 user=app password=pw1", "- PG_DSN=host=ana-ml2 user=app password=****",
                 id="w12-dsn"),
    pytest.param("mysql -h ana-ml2 -pS3cret db", "mysql -h ana-ml2 -p**** db", id="w12-mysql-flag"),
    pytest.param("curl -u admin:S3cret https://ana-ml2/", "curl -u admin:**** https://ana-ml2/",
                 id="w12-curl-user"),
    pytest.param("machine ana-ml2 login app password S3cret", "machine ana-ml2 login app password ****",
                 id="w12-netrc"),
    pytest.param("ana-ml2:5432:app:app:S3cret", "ana-ml2:5432:app:app:****", id="w12-pgpass"),
    pytest.param("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.x", "Authorization: ****", id="w12-bearer"),
    pytest.param("curl -H 'Authorization: Bearer Bx2rT0kXvq' http://h/", "curl -H 'Authorization: **** ****' http://h/",
                 id="w12-quoted-header"),
    pytest.param("headers: {Authorization: Basic dXNlcjpwYXNz}", "headers: {Authorization: Basic ****}",
                 id="w12-header-in-flow"),
    pytest.param("curl -H 'X: 1' -H \"Bearer eyJhbGciOiJIUzI1NiJ9.x\"", "curl -H 'X: 1' -H \"Bearer ****\"",
                 id="bearer-anywhere"),
    pytest.param("http://ana-ml2/v1?api_key=abc123&q=1", "http://ana-ml2/v1?api_key=****&q=1",
                 id="query-string"),
    # a pair inside a flag's value (the break-it pass): kubectl's literal, docker's env
    ("kubectl create secret generic x --from-literal=password=S3cretX",
     "kubectl create secret generic x --from-literal=password=****"),
    ("docker run --env=API_TOKEN=abc123 img", "docker run --env=API_TOKEN=**** img"),
))
def test_mask_line_rewrites(line: str, expected: str) -> None:
    assert mask_line(line) == expected


@pytest.mark.parametrize("line", (
    pytest.param("host: ana-ml2", id="yaml-plain"),
    pytest.param("HOST=ana-ml2", id="env-plain"),
    pytest.param("password=", id="env-empty-value"),
    pytest.param("password:", id="yaml-no-value"),
    pytest.param("password: ", id="yaml-blank-value"),
    pytest.param("tokenizer: bert", id="token-prefix-only"),
    pytest.param("key: value", id="bare-key"),
    pytest.param("keys=1", id="keys"),
    pytest.param("monkey: banana", id="key-inside-word"),
    pytest.param("http://ana-ml2:8016/v1", id="url-with-port"),
    pytest.param("ssh root@ana-ml2", id="user-at-host"),
    pytest.param("url: https://user@host/x", id="url-user-only"),
    pytest.param("# password is set elsewhere", id="comment"),
    pytest.param('{"host": "ana-ml2", "port": 8016}', id="json-plain"),
    pytest.param("ip: 10.250.50.54  # ana-ml2", id="comment-after-value"),
    # an IPv6 address is no pgpass line's password (break-it round 21, finding 25)
    pytest.param("P2=fd00:250:0:1::", id="ipv6-prefix-assigned"),
    pytest.param("fd00:250:0:1::7", id="ipv6-address-alone"),
    pytest.param("", id="empty"),
    pytest.param("   ", id="blank"),
))
def test_mask_line_leaves_alone(line: str) -> None:
    assert mask_line(line) == line


@pytest.mark.parametrize("name", (
    pytest.param("password", id="password"),
    pytest.param("DB_PASSWORD", id="password-suffix"),
    pytest.param("db_passwd", id="passwd"),
    pytest.param("API_KEY", id="key-suffix"),
    pytest.param("api-key", id="dashed-key-suffix"),
    pytest.param("apikey", id="apikey"),
    pytest.param("token", id="token"),
    pytest.param("GITHUB_TOKEN", id="token-suffix"),
    pytest.param("client_secret", id="secret-suffix"),
    pytest.param("secrets", id="secret-inside"),
))
def test_is_secret_name_finds(name: str) -> None:
    assert is_secret_name(name) is True


@pytest.mark.parametrize("name", (
    pytest.param("host", id="host"),
    pytest.param("key", id="bare-key"),
    pytest.param("keys", id="keys"),
    pytest.param("tokenizer", id="tokenizer"),
    pytest.param("monkey", id="monkey"),
    pytest.param("api_base", id="api-base"),
    pytest.param("", id="empty"),
))
def test_is_secret_name_leaves_alone(name: str) -> None:
    assert is_secret_name(name) is False


def test_mask_is_four_stars() -> None:
    assert MASK == "****"


SECRET_NAMES = ["password", "DB_PASSWORD", "apiKey", "api_key", "clientSecret", "AUTH_TOKEN",
                "accessToken", "private-key", "x-api-key", "githubToken", "passwd", "secret"]
SECRET = st.text(st.sampled_from(string.ascii_letters + string.digits + "+/=_-!%^*~.:"), min_size=6,
                 max_size=30)
SHAPES = [
    "{name}={secret}", "export {name}={secret}", "  - {name}={secret}", "{name}: {secret}",
    "  {name}: '{secret}'", 'x: {{host: ana-ml2, {name}: "{secret}"}}', '{{"{name}": "{secret}", "h": 1}}',
    "{name} = \"{secret}\"", "http://ana-ml2/?{name}={secret}&x=1",
]


@settings(max_examples=400, deadline=None)
@given(name=st.sampled_from(SECRET_NAMES), shape=st.sampled_from(SHAPES), secret=SECRET)
def test_no_generated_secret_shape_leaks(name: str, shape: str, secret: str) -> None:
    line = shape.format(name=name, secret=secret)
    assume(secret not in shape.format(name=name, secret=""))  # e.g. "passwo" inside "password"
    # A file path under a key's name is where the key lies, shown (test_a_key_s_path_is_shown...).
    assume(not (name == "private-key" and is_path(secret)))
    assert secret not in mask_line(line)


URL_SECRET = st.text(st.sampled_from(string.ascii_letters + string.digits + "+/=_-!%^*~.:@"), min_size=6,
                     max_size=30)


@settings(max_examples=300, deadline=None)
@given(user=st.sampled_from(["", "app", "u-1"]), secret=URL_SECRET,
       scheme=st.sampled_from(["postgres", "redis", "https", "mongodb+srv", "amqp"]))
def test_no_url_password_leaks(user: str, secret: str, scheme: str) -> None:
    line = f"URL={scheme}://{user}:{secret}@ana-ml2:5432/db"
    # A secret that is part of what stays shown (e.g. "ana-ml" inside the host) cannot be absent.
    assume(secret not in line.replace(f":{secret}@", ":@"))
    masked = mask_line(line)
    assert secret not in masked and "@ana-ml2:5432/db" in masked


# Break-it round 5, finding 8: a key's file path is shown, so that a rename of it can be reviewed;
# key material under the same names, and any value of a name for the secret itself, stay masked.
@pytest.mark.parametrize("line", (
    pytest.param("ssh_private_key_file: ~/.ssh/pug_ed25519", id="ansible-key-file"),
    pytest.param("ansible_ssh_private_key_file=/home/op/.ssh/pug.pem", id="inventory-var"),
    pytest.param("private_key_path: /etc/ssl/private/pug.key", id="key-path"),
    pytest.param('private_key_path = "C:/keys/pug.pem"', id="toml-windows-path"),
    pytest.param("key_file: ./certs/pug.pem", id="relative-path"),
    pytest.param("tls_key: ../tls/pug.key", id="parent-path"),
    pytest.param("private_key: pug.pem", id="key-file-name"),
    pytest.param("SSH_PRIVATE_KEY=id_pug_ed25519", id="ssh-key-name"),
    pytest.param("SSH_KEY=~/.ssh/pug_rsa  # deploy key", id="env-with-comment"),
    pytest.param("    IdentityFile ~/.ssh/id_pug", id="ssh-config"),
    pytest.param("password_file: /run/secrets/pug", id="a-password-s-file"),
    pytest.param("secrets_dir: /run/secrets", id="secrets-dir"),
    pytest.param('{"ssh_key_file": "~/.ssh/pug.pem", "port": 22}', id="json"),
    pytest.param("vm: {private_key: /etc/tls/pug.key, user: op}", id="yaml-flow"),
    pytest.param("ansible-playbook --private-key ~/.ssh/pug_rsa site.yml", id="long-flag"),
    pytest.param("ansible-playbook --private-key=./keys/pug.pem site.yml", id="long-flag-equals"),
    pytest.param("keytool -keystore ./pug.jks -list", id="keytool-keystore"),
))
def test_a_key_s_path_is_shown(line: str) -> None:
    assert mask_line(line) == line


@pytest.mark.parametrize(("line", "expected"), (
    pytest.param("ssh_key: -----BEGIN OPENSSH PRIVATE KEY-----", "ssh_key: ****", id="pem-armour"),
    pytest.param("private_key: MC4CAQAwBQYDK2VwBCIEIOe0pugXqz", "private_key: ****", id="base64-run"),
    pytest.param("private_key: /9j/4AAQSkZJRgABAQAAAQABAAD", "private_key: ****", id="base64-with-slashes"),
    pytest.param("private_key: AKIAIOSFODNN7EXAMPLE.pem", "private_key: ****", id="key-id-dressed-as-a-file"),
    pytest.param("key: AKIAIOSFODNN7EXAMPLE", "key: ****", id="bare-key-aws-id"),
    pytest.param("tls_key: MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", "tls_key: ****", id="plain-key-name-material"),
    pytest.param("ssh_key_file: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPug", "ssh_key_file: ****",
                 id="material-under-a-file-name"),
    pytest.param("password: /etc/pug.pass", "password: ****", id="password-path-shaped"),
    pytest.param("token: ../pug.token", "token: ****", id="token-path-shaped"),
    pytest.param("api_key: /etc/pug.key", "api_key: ****", id="api-key-path-shaped"),
    pytest.param("private_key_path: /etc/my keys/pug.key", "private_key_path: ****", id="blank-inside"),
    pytest.param("ansible-playbook --password /etc/pug ok", "ansible-playbook --password **** ok",
                 id="password-flag"),
    pytest.param("vm: {private_key: /etc/tls/pug.key, password: x}", "vm: {private_key: /etc/tls/pug.key, "
                 "password: ****}", id="flow-path-beside-password"),
))
def test_key_material_and_the_secret_itself_stay_masked(line: str, expected: str) -> None:
    assert mask_line(line) == expected


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(["private_key_path", "ssh_private_key_file", "tls_key", "key_file", "SSH_KEY"]),
       start=st.sampled_from(["/", "~/", "./", "../", "/home/op/.ssh/"]),
       stem=st.text(st.sampled_from(string.ascii_lowercase + "-_."), min_size=1, max_size=12),
       shape=st.sampled_from(["{name}: {v}", "{name}={v}", '{{"{name}": "{v}"}}', "x: {{{name}: {v}, a: 1}}"]))
def test_any_key_path_is_shown_in_every_shape(name: str, start: str, stem: str, shape: str) -> None:
    value = f"{start}{stem}.pem"
    assert hides(name, value) is False
    assert value in mask_line(shape.format(name=name, v=value))


# Break-it round 16, finding 19: a setting about secrets is no secret (renamer/masking_values.py).
@pytest.mark.parametrize("line", (
    pytest.param("      max_tokens: 4096", id="litellm-max-tokens"),
    pytest.param("      max_input_tokens: 32768", id="litellm-max-input-tokens"),
    pytest.param("  use_refresh_tokens  = true", id="keycloak-boolean"),
    pytest.param("  access_token_lifespan = \"300\"", id="keycloak-quoted-seconds"),
    pytest.param('{"max_tokens": 4096, "host": "ana-ml2"}', id="json-count"),
    pytest.param("x: {maxTokens: 4096, host: ana-ml2}", id="flow-camel-count"),
    pytest.param("TOKEN_TTL=1h30m", id="env-duration"),
    pytest.param("password_min_length: 12  # policy", id="length-with-comment"),
    pytest.param("auth_port: 1812", id="radius-port"),
    pytest.param("key_bits: 4096", id="key-size"),
    pytest.param("secret_cache_size: 512Mi", id="size"),
    pytest.param("tokens_per_minute: 100000", id="rate"),
    pytest.param("token_expiry: P1D", id="iso-duration"),
    pytest.param("verify_token: false", id="boolean-false"),
    pytest.param("AUTH_ENABLED=yes", id="env-yes"),
    pytest.param("password: null", id="null"),
    pytest.param("http://ana-ml2/v1?max_tokens=64&q=1", id="query-count"),
))
def test_a_setting_about_secrets_is_shown(line: str) -> None:
    assert mask_line(line) == line


@pytest.mark.parametrize(("line", "expected"), (
    pytest.param("password: 123456", "password: ****", id="numeric-password"),
    pytest.param("token: 5", "token: ****", id="number-under-the-secret-s-own-name"),
    pytest.param("retry_token: 482913", "retry_token: ****", id="a-token-named-for-what-it-does"),
    pytest.param("API_KEY=4096", "API_KEY=****", id="env-numeric-key"),
    pytest.param('password: "true"', "password: ****", id="quoted-boolean-is-a-string"),
    pytest.param("max_tokens: sk-abc123", "max_tokens: ****", id="count-name-holding-text"),
    pytest.param('{"session_token": "1h"}', '{"session_token": "****"}', id="duration-shaped-token"),
    pytest.param("client_secret: 12e4", "client_secret: ****", id="exponent"),
))
def test_a_number_under_the_secret_s_own_name_stays_masked(line: str, expected: str) -> None:
    assert mask_line(line) == expected


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from([*SECRET_NAMES, "retry_token", "SESSION_TOKEN"]),
       shape=st.sampled_from(SHAPES), secret=st.text(st.sampled_from(string.digits + "smhdkMGi."), min_size=4,
                                                      max_size=12))
def test_no_number_shaped_secret_leaks(name: str, shape: str, secret: str) -> None:
    """A numeric or size-shaped secret under a name for the secret itself is masked in every shape."""
    line = shape.format(name=name, secret=secret)
    assume(secret not in shape.format(name=name, secret=""))
    assert secret not in mask_line(line)
