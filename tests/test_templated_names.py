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


# -- round 23 finding 03: a label joined to its domain variable by an operator or a format's slot --------

@pytest.mark.parametrize(("text", "variable"), [
    (b'"ana-ml2." + domain', "domain"),
    (b"'ana-ml2.' ~ domain", "domain"),
    (b'"ana-ml2." .. domain', "domain"),
    (b"'ana-ml2.' . $domain", "domain"),
    (b'f"ana-ml2.{domain}"', "domain"),
    (b'"ana-ml2.%s" % domain', "domain"),
    (b'"ana-ml2.{}".format(domain)', "domain"),
    (b'fmt.Sprintf("ana-ml2.%s", domain)', "domain"),
    (b'format("ana-ml2.%s", var.domain)', "domain"),
    (b'join(".", ["ana-ml2", var.domain])', "domain"),
    (b"'.'.join(['ana-ml2', domain])", "domain"),
    (b"ssh ana-ml2.$(DOMAIN) true", "DOMAIN"),
])
def test_a_joined_name_reads_its_variable(text: bytes, variable: str) -> None:
    found = templated_names.find(text, LABELS)
    assert [name.variable for name in found] == [variable]


@pytest.mark.parametrize("text", [
    b'"ana-ml2." == domain',  # a comparison, no join
    b'"ana-ml2." + get_domain()',  # a call: what it returns is not read
    b'x = "see %s ana-ml2.%s" % (a, b)',  # the slot is not the format's first
    b'{"ana-ml2.": 1}',
])
def test_no_join_read(text: bytes) -> None:
    assert templated_names.find(text, LABELS) == []


@pytest.mark.parametrize(("line", "value"), [
    ('const domain = "ana.lan"', "ana.lan"),
    ("DOMAIN := ana.lan", "ana.lan"),
    ("DOMAIN ?= ana.lan", "ana.lan"),
    ("$domain = 'ana.lan';", "ana.lan"),
    ('const string domain = "ana.lan";', "ana.lan"),
    ('local domain = "ana.lan"', "ana.lan"),
])
def test_more_definitions(line: str, value: str) -> None:
    variable = "DOMAIN" if "DOMAIN" in line else "domain"
    assert templated_names.defined_value(line, variable) == value


def test_a_comparison_defines_nothing() -> None:
    assert templated_names.defined_value('domain == "ana.lan"', "domain") is None
