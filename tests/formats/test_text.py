"""Plain text and .env: no structure, but zone records with no usable SOA are told apart."""

from __future__ import annotations

import datetime as dt

import pytest

from renamer.formats import format_of
from renamer.formats.base import UNBUMPED

TODAY = dt.date(2026, 12, 1)


@pytest.mark.parametrize("data", (
    pytest.param(b"ana-ml2 IN A 10.250.50.54\n", id="a-record"),
    pytest.param(b"www 300 IN CNAME ana-ml2.\n", id="ttl-and-cname"),
    pytest.param(b"$ORIGIN lab.\n", id="origin"),
    pytest.param(b"www in a 10.0.0.1\nana-ml2 in cname www\n", id="lower-case-types"),
    pytest.param(b"@ in soa ns. root. 99999999999 1 1 1 1\nwww in a 10.0.0.1\n", id="serial-out-of-range"),
))
def test_zone_records_without_a_serial_are_unbumped(data: bytes) -> None:
    assert format_of("zones/included", data).serial(data, TODAY) in (UNBUMPED, None)
    fmt = format_of("zones/included", data)
    if fmt.name == "text":
        assert fmt.serial(data, TODAY) == UNBUMPED


@pytest.mark.parametrize("data", (
    pytest.param(b"10.250.50.54 ana-ml2\n", id="hosts-file"),
    pytest.param(b"no records here\n", id="prose-words"),
    # Zone-looking lines in files that are no zone (break-it round 4, finding 9): never records.
    pytest.param(b"#!/bin/sh\n# a 1.2.3.4\nssh ana-ml2\n", id="shell-comment-owner-hash"),
    pytest.param(b"a   IN  a\nserver ana-ml2\n", id="in-a-without-data"),
    pytest.param(b"  ns ns1\nhost ana-ml2\n", id="indented-ns-word"),
    pytest.param(b"[main]\n# a 1.2.3.4\nhost = ana-ml2\n", id="ini-comment"),
    pytest.param(b"| host | IN | A | 10.0.0.1 |\n", id="markdown-table"),
    pytest.param(b"the SOA serial of ana-ml2 is 5\n", id="prose-soa"),
))
def test_no_zone_records_noop(data: bytes) -> None:
    assert format_of("etc/hosts", data).serial(data, TODAY) is None


@pytest.mark.parametrize(("path", "name"), (
    pytest.param("stacks/.env", "env", id="dot-env"),
    pytest.param("stacks/app.env", "env", id="named-env"),
    pytest.param("stacks/App.ENV", "env", id="upper-case"),
    pytest.param("stacks/env", "text", id="noop-bare-name"),
    pytest.param("Makefile", "text", id="noop-makefile"),
))
def test_env_claims(path: str, name: str) -> None:
    fmt = format_of(path, b"HOST=ana-ml2\n")
    assert fmt.name == name
    assert fmt.comment is None and not fmt.structured
