"""masking.mask_line runs each step only where the line holds what the step's shapes need: the
same output as running every step, on every line the masking tests use and on random lines."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from renamer import masking
from renamer.masking_args import mask_args
from renamer.masking_directives import mask_directives
from renamer.masking_flags import mask_flags
from renamer.masking_stdin import mask_stdin


def _every_step(line: str) -> str:
    """mask_line as it was before the gates: every step on every line that passes _MAYBE."""
    if not masking._MAYBE.search(line.lower()):
        return line
    line = masking._URL.sub(rf"\g<1>{masking.MASK}\g<3>", line)
    line = mask_stdin(line)
    line = mask_directives(line)
    env = masking._ENV.match(line)
    if env and env.group(4) and masking.hides(env.group(2), env.group(4)):
        return f"{env.group(1)}{env.group(2)}{env.group(3)}{masking.MASK}{env.group(5)}"
    yaml = masking._YAML.match(line)
    if yaml and yaml.group(5) and masking.hides(yaml.group(3), yaml.group(5)):
        return f"{yaml.group(1)}{yaml.group(2)}{yaml.group(3)}{yaml.group(2)}{yaml.group(4)}{masking.MASK}"
    line = masking._QUERY.sub(lambda m: m.group(1) + masking.MASK if masking.hides(m.group("name"), m.group(3))
                              else m.group(0), line)
    line = masking._AUTH_HEADER.sub(masking._mask_header, line)
    line = masking._FLOW.sub(masking._mask_flow, line)
    line = mask_args(line, masking.is_secret_name)
    line = masking._PAIR.sub(masking._mask_pair, line)
    line = masking._CLI_USER.sub(rf"\g<1>{masking.MASK}", line)
    line = mask_flags(line, masking.is_secret_name, masking.hides)
    if re.search(r"(?i)^\s*(machine|default)\b|\blogin\s+\S+", line):
        line = masking._NETRC.sub(rf"\g<1>\g<2>{masking.MASK}", line)
    return masking._mask_pgpass(line)  # (an IPv6 address is no pgpass line: round 21, 25)


def _corpus() -> list[str]:
    """Every line of every string literal in the masking tests."""
    lines: set[str] = set()
    for path in sorted(Path(__file__).parent.glob("test_masking*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
                text = node.value if isinstance(node.value, str) else node.value.decode("utf-8", "replace")
                lines.update(text.splitlines())
    return sorted(lines)


CORPUS = _corpus()


def test_the_corpus_is_the_masking_tests() -> None:
    assert len(CORPUS) > 500
    assert any(masking.mask_line(line) != line for line in CORPUS)


@pytest.mark.parametrize("chunk", range(8))
def test_the_gated_steps_mask_what_every_step_does_on_the_masking_tests(chunk: int) -> None:
    lines = CORPUS[chunk::8]
    assert [masking.mask_line(line) for line in lines] == [_every_step(line) for line in lines]


_WORDS = ["password", "PASS", "pw", "token", "key", "secret", "auth", "bearer", "Authorization:", "Bearer",
          "://", "u:p@h", "?", "&", ";", "=", ":", " ", "\t", "-u", "--user", "--password", "-p", "{", "}",
          ",", "'", '"', "machine", "login", "default", "****", "*", "redis-cli", "mysql", "chpasswd",
          "echo", "|", "sudo", "-S", "community", "psk", "x9Kq2mZ", "AKIAABCDEFGHIJKLMNOP", "$6$abc$",
          "abcdefghijkl", "export", "- ", "10", "192.168.1.20", "/etc/key.pem", "neighbor", "radius-server",
          "key-string", "snmp-server", "ipmitool", "-P", "tacacs", "PGPASSWORD", "host:5432:db:user:"]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), max_size=12))
def test_the_gated_steps_mask_what_every_step_does_on_random_lines(words: list[str]) -> None:
    line = "".join(words)
    assert masking.mask_line(line) == _every_step(line)


def _every_shape(line: str) -> str:
    """mask_directives as it was before each shape had its hint: every shape on every line."""
    from renamer import masking_directives as md

    spans = [m.span("value") for m in md._DIRECTIVE.finditer(line)]
    for shape in md._SHAPES:
        spans += [m.span("value") for m in shape.finditer(line)]
    for start, end in sorted(set(spans), reverse=True):
        word = line[start:end]
        if word.strip("'\"") in (md.MASK, ""):
            continue
        quote = word[0] if word[:1] in "'\"" and len(word) > 1 and word[-1] == word[0] else ""
        line = f"{line[:start]}{quote}{md.MASK}{quote}{line[end:]}"
    return line


_DIRECTIVE_WORDS = ["stats auth", "user", "insecure-password", "password", "sentinel auth-pass", "rocommunity",
                    "rwcommunity6", "com2sec", "-Cn", ": PSK", ": EAP", "enable secret", "enable password",
                    "level 15", "username", "privilege 15", "secret", "snmp-server community", "neighbor",
                    "authentication-key", "message-digest-key", "md5", "SHA1", "HEX:ab12", "ASCII:x", "1",
                    "42", "tacacs-server host", "radius-server", "key", "key-string", "server-private",
                    "*", '"*"', "$6$salt$abcdefghijkl", "$apr1$x$ABCDEFGHIJ", "requirepass", "bindpw",
                    "masterauth", "Passphrase", "PSK", "x9Kq2mZ", '"quoted value"', "'v'", "10.0.0.1",
                    "10.0.0.0/24", " ", "\t", ";", "{", "}", "#", "!", "//", ":", "=", "-"]


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from(_DIRECTIVE_WORDS), max_size=10), st.booleans())
def test_each_directive_shape_runs_where_its_hint_is_and_masks_what_every_shape_does(words: list[str],
                                                                                   spaced: bool) -> None:
    line = (" " if spaced else "").join(words)
    assert mask_directives(line) == _every_shape(line)


def test_the_directive_shapes_gated_mask_what_every_shape_does_on_the_masking_tests() -> None:
    assert [mask_directives(line) for line in CORPUS] == [_every_shape(line) for line in CORPUS]


# Break-it round 18, finding 1: a numbered key's statement after `{` or `;`, not at the line's start.
@pytest.mark.parametrize("line", ["keys { 1 SHA1 HEX:0123456789abcdef0123 }", "trustedkey 1; 1 M s3cretv4lue",
                                  "keys {2 md5 X9kq2mZ7}"])
def test_a_numbered_key_after_a_brace_or_a_semicolon_is_masked_as_every_shape_masks_it(line: str) -> None:
    assert mask_directives(line) == _every_shape(line) != line
    assert masking.mask_line(line) != line
