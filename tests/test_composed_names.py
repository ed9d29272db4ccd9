"""composed_names.py's grammar: templates as host parts, their default words, the domains of
interest (tests/cli/test_composed_names.py runs the sweep on real repos)."""

from __future__ import annotations

import pytest

from renamer import composed_names

TAILS = composed_names.tails_of([("ana-ml2", "fv-ml1"), ("ana-ml2.ana.lan", "fv-ml1.fv.lan")])


def test_tails() -> None:
    assert TAILS == ("ana.lan",)
    assert composed_names.tails_of([("ana.lan", "fv.lan")]) == ("ana.lan", "lan")


@pytest.mark.parametrize(("text", "variables", "builtin", "tail"), [
    (b"https://${NODE}.ana.lan/", ("NODE",), None, "ana.lan"),
    (b"ssh $NODE.ana.lan", ("NODE",), None, "ana.lan"),
    (b'curl "${NODE}".ana.lan', ("NODE",), None, "ana.lan"),
    (b"{{ inventory_hostname }}.ana.lan", ("inventory_hostname",), "inventory_hostname", "ana.lan"),
    (b"{{- node | lower -}}.ana.lan", ("node",), None, "ana.lan"),
    (b"%{facts.hostname}.ana.lan", ("hostname",), "hostname", "ana.lan"),
    (b"%{::hostname}.ana.lan.", ("hostname",), "hostname", "ana.lan"),
    (b"$(hostname -s).ana.lan:22", (), "hostname", "ana.lan"),
    (b"`uname -n`.ana.lan", (), "hostname", "ana.lan"),
    (b"${var.node}.ana.lan", ("node",), None, "ana.lan"),
    (b"gpu-${N}-bmc.ana.lan", ("N",), None, "ana.lan"),
    (b"${X:-${Y:-ana-ml2}}.ana.lan", ("X", "Y"), None, "ana.lan"),
])
def test_found(text: bytes, variables: tuple[str, ...], builtin: str | None, tail: str) -> None:
    [found] = composed_names.find(text, TAILS)
    assert (found.template.variables, found.template.builtin, found.tail) == (variables, builtin, tail)
    assert text[found.tail_start:found.end].decode() == tail


@pytest.mark.parametrize("text", [
    pytest.param(b"sub.${NODE}.ana.lan", id="a-label-before"),
    pytest.param(b"x_${NODE}.ana.lan", id="an-underscore-before"),
    pytest.param(b"${NODE}.ana.lanx", id="a-longer-label"),
    pytest.param(b"${NODE}.ana.lan.example", id="a-longer-domain"),
    pytest.param(b"${NODE}.other.lan", id="another-domain"),
    pytest.param(b"${NODE}-ana.lan", id="no-dot"),
    pytest.param(b"$(cat x).ana.lan", id="another-command"),
    pytest.param(b"ana-ml2.ana.lan", id="no-template"),
])
def test_not_found(text: bytes) -> None:
    assert composed_names.find(text, TAILS) == []


@pytest.mark.parametrize(("text", "default"), [
    (b"${X:-ana-ml2}", "ana-ml2"),
    (b'${X:-"ana-ml2"}', "ana-ml2"),
    (b"${X-'ana-ml2'}", "ana-ml2"),
    (b"${X:=ana-ml2}", "ana-ml2"),
    (b"${X:+ana-ml2}", "ana-ml2"),
    (b"${X:-${Y:-ana-ml2}}", "ana-ml2"),
    (b"{{ x | default('ana-ml2') }}", "ana-ml2"),
    (b'{{ x | d("ana-ml2") }}', "ana-ml2"),
    (b"{{ x | default('ana-ml2', true) | lower }}", "ana-ml2"),
])
def test_default_words(text: bytes, default: str) -> None:
    [found] = list(composed_names.defaults(text))
    assert found.default == default
    assert found.default_span is not None
    assert text[found.default_span[0]:found.default_span[1]].decode() == default


@pytest.mark.parametrize("text", [b"${X:?ana-ml2}", b"${X}", b"{{ x }}", b'${X:-"ana-ml2\'}', b"${X:-a b}"])
def test_no_default_word(text: bytes) -> None:
    assert list(composed_names.defaults(text)) == []


@pytest.mark.parametrize(("text", "host", "domain"), [
    (b'"${var.host}.${var.domain}"', "host", "domain"),
    (b'join(".", [var.host, local.domain])', "host", "domain"),
    (b'format("%s.%s", var.host, var.domain)', "host", "domain"),
    (b"{{ app_host }}.{{ app_domain }}", "app_host", "app_domain"),
    (b"{{ [app_host, app_domain] | join('.') }}", "app_host", "app_domain"),
    (b"'.'.join([h, d])", "h", "d"),
    (b"'%s.%s' % (h, d)", "h", "d"),
    (b'"{}.{}".format(h, d)', "h", "d"),
    (b"hostname: ${HOST}.${DOMAIN}", "HOST", "DOMAIN"),
    (b"{{ '%s.%s' | format(hostvars[h].name, site.domain) }}", "name", "domain"),
    (b"{{ app_host ~ '.' ~ app_domain }}", "app_host", "app_domain"),
    (b'fqdn = h + "." + d', "h", "d"),
    (b"hostname: ${HOST}${SUFFIX}", "HOST", "SUFFIX"),
])
def test_joins_of_two_variables(text: bytes, host: str, domain: str) -> None:
    [found] = composed_names.joins(text)
    assert (found.host.variables[0], found.domain) == (host, domain)


@pytest.mark.parametrize("text", [
    b"sub.${A}.${B}", b"${A}.${B}.ana.lan", b"${A}.${B}x.y", b"{{ a }}.{{ b }}x", b'join("-", [var.a, var.b])',
    b"[a, 'b'] | join('.')", b"${A}-${B}",
])
def test_no_join_of_two_variables(text: bytes) -> None:
    assert composed_names.joins(text) == []


@pytest.mark.parametrize(("text", "builtin", "tail_text"), [
    (b"{{ inventory_hostname ~ '.ana.lan' }}", "inventory_hostname", ".ana.lan"),
    (b"{{ inventory_hostname + '.ana.lan' }}", "inventory_hostname", ".ana.lan"),
    (b"{{ [inventory_hostname, 'ana.lan'] | join('.') }}", "inventory_hostname", "ana.lan"),
    (b"{{ '%s.ana.lan' | format(ansible_nodename) }}", "ansible_nodename", ".ana.lan"),
    (b'join(".", [var.node, "ana.lan"])', None, "ana.lan"),
])
def test_the_own_name_joined_to_a_literal_domain(text: bytes, builtin: str | None, tail_text: str) -> None:
    [found] = composed_names.find(text, ("ana.lan",))
    assert found.template.builtin == builtin
    assert text[found.tail_start - (tail_text[0] == "."):].decode().startswith(tail_text)
    assert found.joined == (tail_text[0] != ".")


@pytest.mark.parametrize(("text", "variable", "default"), [
    (b'{{ env "HOST" }}.ana.lan', "HOST", None),
    (b'{{ getenv "HOST" "pug" }}.ana.lan', "HOST", "pug"),
    (b'{{- env.Getenv "N" -}}.ana.lan', "N", None),
    (b'{{ os.Getenv "N" }}.ana.lan', "N", None),
    (b'{{ env "HOST" | default "pug" }}.ana.lan', "HOST", "pug"),
    (b"{{ lookup('env', 'HOST') | default('pug') }}.ana.lan", "HOST", "pug"),
])
def test_environment_lookups_read_their_variable(text: bytes, variable: str, default: str | None) -> None:
    [found] = composed_names.find(text, ("ana.lan",))
    assert (found.template.variables, found.template.default) == ((variable,), default)
    if default is not None:
        assert found.template.default_span is not None
        assert text[found.template.default_span[0]:found.template.default_span[1]].decode() == default
