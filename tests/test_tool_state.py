"""Which tool wrote a file as its own state (break-it round 24, finding 13): pure logic; the CLI
behaviour is tests/cli/test_tool_state.py."""

from __future__ import annotations

import pytest

from renamer import tool_state


@pytest.mark.parametrize(("data", "tool"), [
    (b'{"checkpoint": {"latest": {"resources": [{"urn": "urn:pulumi:dev::p::t::pug"}]}}}', "Pulumi"),
    (b'\xef\xbb\xbf{\r\n "builds": [], "packer_run_uuid": "x"}', "Packer"),
    (b'{"ansible_hostname": "pug", "ansible_default_ipv4": {}}', "fact cache"),
    (b'{"ansible_host": "pug", "ansible_user": "ops"}', None),  # an inventory's vars
    (b'{"ansible_hostname": "pug"}', None),  # one fact-like key is no evidence
    (b'# urn:pulumi:dev::p::t::pug\n', None),  # prose about a URN, not a checkpoint
    (b'const u = "urn:pulumi:dev::p::t::pug";\n', None),
])
def test_written_by(data: bytes, tool: str | None) -> None:
    said = tool_state.written_by(data)
    if tool is None:
        assert said is None
    else:
        assert said is not None and tool in said
