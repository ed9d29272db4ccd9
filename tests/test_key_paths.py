"""Mapping keys by path, read by line for every keyed dialect: pairs of text and the paths of
the keys named `pug` (or `wolf`), negatives beside them."""

from __future__ import annotations

import pytest

from renamer.key_paths import Dialect, KeyDef, key_defs

NAMES = {"pug", "wolf"}


@pytest.mark.parametrize(("text", "dialect", "expected"), [
    pytest.param("net:\n  hosts:\n    pug: {ip: 1}\n    cat: {ip: 2}\n", "yaml", [(("net", "hosts", "pug"), 3)],
                 id="yaml-block"),
    pytest.param("net: {hosts: {pug: {ip: 1}, wolf: {}}}\n", "yaml",
                 [(("net", "hosts", "pug"), 1), (("net", "hosts", "wolf"), 1)], id="yaml-flow"),
    pytest.param("a:\n  - name: x\n    pug: 1\nb:\n  pug: 2\n", "yaml", [(("a", "[]", "pug"), 3), (("b", "pug"), 5)],
                 id="yaml-list-item-then-sibling"),
    pytest.param("a: |\n  pug: 1\nb: 'pug: 2'\n", "yaml", [], id="yaml-block-scalar-and-string-no-key"),
    pytest.param("a: pug\n- pug\nurl: http://pug:80\n", "yaml", [], id="yaml-values-no-key"),
    pytest.param("net:\r\n  hosts:\r\n    pug: 1\r\n", "yaml", [(("net", "hosts", "pug"), 3)], id="yaml-crlf"),
    pytest.param("\ufeffhosts:\n  pug: 1\n", "yaml", [(("hosts", "pug"), 2)], id="yaml-bom"),
    pytest.param('\ufefflocals {\n  hosts = { pug = 1 }\n}\n', "hcl", [(("local", "hosts", "pug"), 2)], id="hcl-bom"),
    pytest.param("\ufeff[pug]\n", "ini", [(("pug",), 1)], id="ini-bom"),
    pytest.param('{\n  "hosts": {\n    "pug": {"ip": "1"}\n  },\n  "x": ["pug", {"pug": 1}]\n}\n', "yaml",
                 [(("hosts", "pug"), 3), (("x", "[]", "pug"), 5)], id="json"),
    pytest.param('[net.hosts.pug]\nip = "1"\n[x]\nhosts = { pug = { ip = "1" } }\na."pug" = 1\n', "toml",
                 [(("net", "hosts", "pug"), 1), (("x", "hosts", "pug"), 4), (("x", "a", "pug"), 5)], id="toml"),
    pytest.param("[pug]\nip = 1\n[all:vars]\npug = 2\n; pug = 3\n", "ini", [(("pug",), 1), (("all:vars", "pug"), 4)],
                 id="ini"),
    pytest.param('variable "hosts" {\n  default = {\n    pug = { ip = "1" }\n  }\n}\n'
                 'locals {\n  hosts = {\n    "pug" = {}\n  }\n}\n'
                 'resource "x" "y" {\n  pug = 1\n}\noutput "a" { value = var.hosts.pug.ip }\n', "hcl",
                 [(("var", "hosts", "pug"), 3), (("local", "hosts", "pug"), 8), (("<resource>", "pug"), 12)],
                 id="hcl-variable-default-locals-resource"),
    pytest.param('hosts = {\n  pug = { ip = "1" } # pug = 2\n}\n// pug = 3\n', "hcl", [(("hosts", "pug"), 2)],
                 id="hcl-tfvars-comments"),
])
def test_keys_by_path(text: str, dialect: Dialect, expected: list[tuple[tuple[str, ...], int]]) -> None:
    assert key_defs(text, dialect, NAMES) == [KeyDef(path, line) for path, line in expected]
