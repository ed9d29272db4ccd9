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
    # round 25, finding 08: Chef's node and client objects, Puppet's cached facts
    (b'{"name": "pug", "json_class": "Chef::Node", "automatic": {"hostname": "pug"}}', "Chef node"),
    (b'{\r\n  "name": "pug",\r\n  "chef_type": "node",\r\n  "automatic": {}\r\n}', "Chef node"),
    (b'{"name": "pug", "json_class": "Chef::ApiClient", "public_key": "x"}', "Chef API client"),
    (b'--- !ruby/object:Puppet::Node::Facts\nname: pug\nvalues:\n  hostname: pug\n', "Puppet"),
    (b'{"name": "web", "json_class": "Chef::Role", "default_attributes": {"db": "pug"}}', None),  # input
    (b'# knife node show pug -F json prints a Chef::Node\n', None),  # prose
    (b'name: pug\nclass: Puppet::Node::Facts\n', None),  # not the cache's own header
])
def test_written_by(data: bytes, tool: str | None) -> None:
    said = tool_state.written_by(data)
    if tool is None:
        assert said is None
    else:
        assert said is not None and tool in said
