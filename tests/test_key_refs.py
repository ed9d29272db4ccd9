"""References to a mapping key by its path: pairs of text and the references to `pug` found,
negatives beside them (a host read through the inventory, a value, a name outside an expression)."""

from __future__ import annotations

import pytest

from renamer.key_refs import key_refs

NAMES = {"pug"}


@pytest.mark.parametrize(("text", "hcl", "expected"), [
    pytest.param("{{ net.hosts.pug.ip }}", False, [(("net", "hosts", "pug"), False)], id="jinja-dotted"),
    pytest.param("{{ net.hosts['pug'] }} {{ net[\"hosts\"][\"pug\"] }}", False,
                 [(("net", "hosts", "pug"), True), (("net", "hosts", "pug"), True)], id="jinja-both-quotes"),
    pytest.param("{% for x in net.hosts.get('pug') %}", False, [(("net", "hosts", "pug"), True)], id="jinja-get"),
    pytest.param("{{- $h := .Values.hosts }}{{ $h.pug.ip }}", False, [(("hosts", "pug"), False)],
                 id="helm-variable"),
    pytest.param("{{ range $k, $v := .Values.all }}{{ $v.pug }}{{ end }}", False, [(("all", "*", "pug"), False)],
                 id="helm-range-variable"),
    pytest.param("{{ $h := include \"x\" . }}{{ $h.pug }}", False, [(("*", "pug"), False)], id="helm-computed"),
    pytest.param("{{ $y.pug }}", False, [], id="helm-variable-never-assigned"),
    pytest.param("{{ with $h := .Values.hosts }}{{ $h.pug }}{{ end }}", False, [(("hosts", "pug"), False)],
                 id="helm-with-variable"),
    pytest.param("{{ $h := .Values.hosts | default dict }}{{ $h.pug }}", False, [(("*", "pug"), False)],
                 id="helm-variable-through-a-pipe"),
    pytest.param("{{ (.Values.hosts).pug }} {{ (net.hosts).pug }}", False,
                 [(("hosts", "pug"), False), (("net", "hosts", "pug"), False)], id="grouped"),
    pytest.param("{{ f(net.hosts).pug }}", False, [], id="a-call-is-no-group"),
    pytest.param("{{ a[0].pug }} {{ a[k].pug }}", False, [(("a", "[]", "pug"), False), (("a", "*", "pug"), False)],
                 id="index-and-variable-parts"),
    pytest.param("{{ .Values.hosts.pug }}", False, [(("hosts", "pug"), False)], id="helm-values-root"),
    pytest.param("- debug: msg=x\n  when: net.hosts.pug.up\n", False, [(("net", "hosts", "pug"), False)],
                 id="ansible-bare-when"),
    pytest.param("{{ hostvars['pug'].ip }} {{ groups['pug'] }} {{ pug.ip }} {{ x | default('pug') }}", False,
                 [(("hostvars", "pug"), True), (("groups", "pug"), True)],
                 id="inventory-hosts-by-subscript-roots-and-values-no-key"),
    pytest.param("net.hosts.pug.ip outside any expression", False, [], id="prose-no-expression"),
    pytest.param("{{ $.Values.hosts.pug }} {{ $x.pug }}", False, [(("hosts", "pug"), False)], id="helm-top-context"),
    pytest.param("{{ with .Values.hosts }}{{ .pug }}{{ with .n }}{{ .pug }}{{ end }}{{ else }}{{ .pug }}{{ end }}",
                 False, [(("hosts", "pug"), False), (("hosts", "n", "pug"), False)], id="helm-with-scopes"),
    pytest.param("{{ range .Values.hosts }}{{ .pug }}{{ end }}{{ .pug }}", False, [(("hosts", "*", "pug"), False)],
                 id="helm-range-element-any"),
    pytest.param("{{ hostvars.pug.ip }} {{ groups.pug }} {{ hostvars.pugs }}", False,
                 [(("hostvars", "pug"), False), (("groups", "pug"), False)], id="inventory-host-attribute"),
    pytest.param('x = var.hosts.pug.ip\ny = local.hosts["pug"]\nz = lookup(var.hosts, "pug", null)\n', True,
                 [(("var", "hosts", "pug"), False), (("local", "hosts", "pug"), True), (("var", "hosts", "pug"), True)],
                 id="hcl"),
    pytest.param('v = "${var.hosts.pug.ip}"\n', False, [(("var", "hosts", "pug"), False)], id="interpolation"),
    pytest.param('a = "www.pug.lab"\nb = "${var.hosts.pug.ip}-x.pug.y"\n', True, [(("var", "hosts", "pug"), False)],
                 id="hcl-string-is-a-name"),
    pytest.param("{{ lookup('dig', 'www.pug.lab') }} {{ \"x.pug\" ~ a.pug }}", False, [(("a", "pug"), False)],
                 id="jinja-string-is-a-name"),
    pytest.param("  when: \"net.hosts.pug.up\"\n", False, [(("net", "hosts", "pug"), False)],
                 id="ansible-when-in-yaml-quotes"),
    pytest.param("{{ net.hosts.pugs.ip }} {{ net.hosts['pug-1'] }}", False, [], id="longer-names"),
    pytest.param('b = contains(keys(var.hosts), "pug")\nd = { for k, v in var.hosts : k => v if k == "pug" }\n'
                 'e = [for k in keys(var.hosts) : k if "pug" != k]\nf = [for v in var.hosts : v if v == "pug"]\n'
                 'g = index(keys(local.hosts), "pug")\n',
                 True, [(("var", "hosts", "pug"), True)] * 3 + [(("local", "hosts", "pug"), True)],
                 id="hcl-key-functions-and-loops-not-values"),
    pytest.param('{{ index .Values.hosts "pug" }} {{ get .Values.hosts "pug" }} {{ pluck "pug" .Values.hosts }} '
                 '{{ hasKey $.Values.hosts "pug" }} {{ dig "pug" "ip" "" .Values.hosts }} '
                 '{{ index .Values "hosts" "pug" }} {{ get .Values.hosts "pugs" }}', False,
                 [(("hosts", "pug"), True)] * 6, id="helm-key-functions"),
    pytest.param("{% set h = net.hosts %}{{ h['pug'] }} {{ net.hosts | dict2items | selectattr('key', 'eq', 'pug') }}"
                 " {{ lookup('vars', 'net').hosts['pug'] }} {% if 'pug' in net.hosts %}{% endif %}"
                 "{% for k, v in net.hosts.items() %}{{ k == 'pug' }}{% endfor %}{{ lookup('dig', 'pug') }}",
                 False, [(("net", "hosts", "pug"), True)] * 5, id="jinja-alias-filters-loops"),
    pytest.param('{{ range $k, $v := .Values.hosts }}{{ if eq $k "pug" }}a{{ end }}{{ if ne "pug" $k }}b'
                 '{{ end }}{{ end }}{{ if eq $k "pug" }}{{ end }}', False, [(("hosts", "pug"), True)] * 2,
                 id="helm-range-key-compared"),
    pytest.param("{% set h = net.hosts | combine(x) %}{{ h['pug'] }}", False, [(("*", "pug"), True)],
                 id="jinja-alias-not-a-path"),
    # break-it round 9, finding 3: a variable holding the key, a list test, a filter
    pytest.param("{% set n = 'pug' %}{{ net.hosts[n].ip }}{{ net.hosts | dict2items | selectattr('key', 'in', "
                 "['rex', 'pug']) }}{{ net.hosts | json_query('pug.ip') }}{% for k in net.hosts %}"
                 "{% if k in ['pug'] %}{% endif %}{% endfor %}{% if 'pug' in net.hosts.keys() %}{% endif %}",
                 False, [(("net", "hosts", "pug"), True)] * 5, id="jinja-variable-lists-filters"),
    pytest.param('{{ $n := "pug" }}{{ (index .Values.hosts $n).ip }}{{ range $k, $v := .Values.hosts }}'
                 '{{ if has $k (list "rex" "pug") }}{{ end }}{{ end }}', False, [(("hosts", "pug"), True)] * 2,
                 id="helm-variable-and-has-list"),
    pytest.param('output "g" { value = { for k, v in var.hosts : k => v if contains(["pug"], k) } }\n'
                 'output "h" { value = [for v in var.hosts : v if contains(["pug"], v)] }\n', True,
                 [(("var", "hosts", "pug"), True)], id="hcl-list-test-of-the-loop-key"),
    pytest.param("{% set n = 'pug' %}{{ net.hosts[n] }}{{ n }}.lan", False, [(("*", "pug"), True)],
                 id="jinja-variable-read-otherwise-too"),
])
def test_references_by_path(text: str, hcl: bool, expected: list[tuple[tuple[str, ...], bool]]) -> None:
    found = key_refs(text.encode(), NAMES, hcl=hcl)
    assert [(r.path, r.quoted) for r in found] == expected
    assert all(text.encode()[r.start:r.end] == b"pug" for r in found)
