"""templated_names.py's pure logic: which variable a templated name reads, and what a line
defines a variable as (tests/cli/test_templated_names.py runs the sweep on real repos)."""

from __future__ import annotations

import pytest

from renamer import templated_names

LABELS = templated_names.labels_of([("ana-ml2.ana.lan", "fv-ml1.fv.lan")])


@pytest.mark.parametrize(("text", "variable", "default", "tail"), [
    (b"https://ana-ml2.{{ domain }}/", "domain", None, ""),
    (b"ana-ml2.{{- site.domain -}}", "domain", None, ""),
    (b"ana-ml2.{{ base | default('ana.lan') }}", "base", "ana.lan", ""),
    (b"ana-ml2.${DOMAIN:-ana.lan}:22", "DOMAIN", "ana.lan", ""),
    (b"ana-ml2.$DOMAIN/x", "DOMAIN", None, ""),
    (b"ana-ml2.{{ sub }}.lan", "sub", None, ".lan"),
    (b"ana-ml2.ana.{{ tld }}", "tld", None, ""),
    (b"ana-ml2.{{ .Values.domain }}", "domain", None, ""),
    (b"ana-ml2.${var.domain}", "domain", None, ""),
    (b"ana-ml2.${DOMAIN:?unset}", "DOMAIN", None, ""),
])
def test_the_variable_a_name_reads(text: bytes, variable: str, default: str | None, tail: str) -> None:
    [found] = templated_names.find(text, LABELS)
    assert (found.variable, found.default, found.tail) == (variable, default, tail)


@pytest.mark.parametrize("text", [b"xana-ml2.{{ d }}", b"ana-ml20.{{ d }}", b"ana-ml2.{{", b"ana-ml2.ana.lan"])
def test_no_templated_name(text: bytes) -> None:
    assert templated_names.find(text, LABELS) == []


@pytest.mark.parametrize(("line", "value"), [
    ("domain: ana.lan", "ana.lan"),
    ("  domain: 'ana.lan'  # lab", "ana.lan"),
    ("DOMAIN=ana.lan", "ana.lan"),
    ('export DOMAIN="ana.lan"', "ana.lan"),
    ("      - DOMAIN=ana.lan", "ana.lan"),
    ("{% set DOMAIN = 'ana.lan' %}", "ana.lan"),
    ("my_DOMAIN: x", None),
    ("DOMAINS=x", None),
])
def test_what_a_line_defines(line: str, value: str | None) -> None:
    assert templated_names.defined_value(line, "DOMAIN" if "DOMAIN" in line else "domain") == value
