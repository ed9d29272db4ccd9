"""Unit tests of version_numbers: a dotted quad a version dresses (t36-33 finding 03)."""

from __future__ import annotations

import re

import pytest

from renamer.occurrences import Match
from renamer.version_numbers import refused, version_at

VERSIONS = [b'"version": "10.0.0.12"', b'[assembly: AssemblyVersion("10.0.0.1")]', b"<Version>10.0.0.3<",
            b"<PackageVersion>10.0.0.3<", b"foo==10.0.0.2", b"bar>=10.0.0.2", b"baz~=10.0.0.2",
            b"gem 'x', '~> 10.0.0.1'", b"version = 10.0.0.9", b"VERSION ?= 10.0.0.9", b"ver: 10.0.0.1",
            b"release: '10.0.0.1'", b"FileVersion=10.0.0.1",
            b"foo[bar]==10.0.0.2", b'"dependencies": {"x": ">=10.0.0.1"}', b"gem 'x', '>= 10.0.0.1'",
            # t37-break finding 04's neighbours
            b'    VALUE "FileVersion", "10.0.0.12"', b'VALUE "ProductVersion", "10.0.0.12"', b"pkgver=10.0.0.12",
            b"_pkgver=10.0.0.12", b"gem 'contoso-agent', '10.0.0.12'", b'gem "a", ">= 1.0", "10.0.0.12"',
            b'spec.add_dependency "contoso-agent", "10.0.0.12"',
            b"s.add_runtime_dependency('agent', '10.0.0.12')", b"  tag: 10.0.0.12", b'imageTag: "10.0.0.12"',
            b"image_tag = 10.0.0.12", b'"tag": "10.0.0.12"',
            # t38-break finding 08: a package manager's pin, Chef's cookbook requirements, Puppet's ensure
            b"cookbook 'agent', '= 10.0.0.12'", b"depends 'agent', '= 10.0.0.12'",
            b"apt-get install -y agent=10.0.0.12", b"    name: agent=10.0.0.12", b"dnf install -y agent-10.0.0.12",
            b"npm install agent@10.0.0.12", b"yarn add @acme/agent@10.0.0.12", b"gem install agent -v 10.0.0.12",
            b"  ensure => '10.0.0.12',"]

ADDRESSES = [b"server: 10.0.0.5", b"version_server:\n  ip: 10.0.0.6", b'if ip == "10.0.0.7":',
             b"curl --verbose http://10.0.0.8/", b"server 10.0.0.1", b"dhcp_release eth0 10.0.0.5",
             b"versions: [a, b]\nhost: 10.0.0.1", b"verify 10.0.0.1",
             b'$HTTP["remoteip"]=="10.0.0.5"', b'if ip=="10.0.0.5":', b'ip==="10.0.0.5"', b"x == 10.0.0.5",
             b"stage 10.0.0.5", b"vlan_tag_gateway 10.0.0.5", b'gem_server = "10.0.0.5"', b"gems, 10.0.0.5",
             b"hashtag 10.0.0.5", b"<a href='x'>10.0.0.5</a>", b"driver: 10.0.0.5",
             b"npm install --registry http://user@10.0.0.5/ agent", b"ssh deploy@10.0.0.5",
             b"apt-get install -o Acquire::http::Proxy=http://10.0.0.5:3142 agent", b"name: 10.0.0.5",
             b"dnf --setopt=proxy=http://10.0.0.5:3128 install agent", b"depends_on: 10.0.0.5"]



@pytest.mark.parametrize("line", VERSIONS)
def test_a_version_dress_is_read(line: bytes) -> None:
    assert version_at(line, line.index(b"10.0.0"))


@pytest.mark.parametrize("line", ADDRESSES)
def test_an_address_is_no_version(line: bytes) -> None:
    assert not version_at(line, line.index(b"10.0.0"))


def test_refused_only_open_quads() -> None:
    data = b'{"version": "10.0.0.12", "server": "10.0.0.5", "net": "10.0.0.0/24"}'
    matches = [Match(13, 22, "10.0.0.12", "10.9.0.12", "network"),
               Match(36, 44, "10.0.0.5", "10.9.0.5", "network"),
               Match(55, 66, "10.0.0.0/24", "10.9.0.0/24", "network")]
    out = refused(data, matches)
    assert [m.refused for m in out] == ["version", None, None]
    assert out[0].note is not None and "version" in out[0].note
    kept = [Match(13, 22, "10.0.0.12", "10.9.0.12", "network", kept="image")]
    assert refused(data, kept) == kept


@pytest.mark.parametrize(("line", "expected"), [
    (b"image: registry.lab/contoso/agent:10.0.0.12\n", ["version"]),
    (b"FROM 10.0.0.5:5000/base:10.0.0.12\n", [None, "version"]),
    (b"image: 10.0.0.5:5000/agent:1.0\n", [None]),
    (b"    image: agent:10.0.0.12@sha256:abc\n", ["version"]),
    (b'extra_hosts:\n  - "web:10.0.0.5"\n', [None]),
    (b"docker run --add-host web:10.0.0.5 agent:1.0\n", [None]),
    (b"url: http://web:10.0.0.5/\n", [None]),
])
def test_an_image_tag_is_a_version_and_nothing_else_is(line: bytes, expected: list[str | None]) -> None:
    """t37-break finding 04: a compose `image:`'s tag; a registry's address, compose's extra_hosts
    and `--add-host` are addresses."""
    matches = [Match(m.start(), m.end(), m.group().decode(), "10.9" + m.group().decode()[4:], "network")
               for m in re.finditer(rb"10\.0\.0\.[0-9]+", line)]
    assert [m.refused for m in refused(line, matches)] == expected


@pytest.mark.parametrize(("data", "said"), [
    (b"GEM\n  specs:\n    agent (10.0.0.12)\n\nDEPENDENCIES\n  agent (= 10.0.0.12)\n", True),
    (b'[dependencies]\nagent = "10.0.0.12"\n', True),
    (b'[target.x86_64-unknown-linux-gnu.dependencies]\nagent = "=10.0.0.12"\n', True),
    (b"[requires]\nagent/10.0.0.12\n", True),
    (b'variable "agent_version" {\n  type    = string\n  default = "10.0.0.12"\n}\n', True),
    # the same shapes where the file says no such thing: addresses
    (b"notes:\n    gateway (10.0.0.12)\n", False),
    (b'[servers]\nagent = "10.0.0.12"\n', False),
    (b"see http://wiki/10.0.0.12\n", False),
    (b'variable "agent_address" {\n  default = "10.0.0.12"\n}\n', False),
])
def test_a_file_that_says_what_it_is_dresses_a_version(data: bytes, said: bool) -> None:
    """t38-break finding 08: a Gemfile.lock's spec, a Cargo dependency, a conan requirement, a
    Terraform variable named for a version: the file, not the line, says it is a version."""
    start = data.index(b"10.0.0.12")
    match = Match(start, start + 9, "10.0.0.12", "10.0.9.12", "network")
    assert [m.refused for m in refused(data, [match])] == (["version"] if said else [None])
