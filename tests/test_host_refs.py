"""Where Ansible names an inventory host (renamer/host_refs.py): pure logic over bytes."""

from __future__ import annotations

import pytest

from renamer.host_refs import host_refs


def _found(text: str, *, yaml: bool = True) -> list[tuple[str, tuple[str, ...]]]:
    data = text.encode()
    return [(data[r.start:r.end].decode(), r.path) for r in host_refs(data, {"pug"}, yaml=yaml)]


@pytest.mark.parametrize(("text", "consumer"), [
    ('when: inventory_hostname == "pug"\n', "inventory_hostname"),
    ("when: inventory_hostname_short != 'pug'\n", "inventory_hostname"),
    ("when: \"'pug' == inventory_hostname\"\n", "inventory_hostname"),
    ("when: inventory_hostname in ['pom', 'pug']\n", "inventory_hostname"),
    ("when: inventory_hostname not in [\"pug\"]\n", "inventory_hostname"),
    ("  delegate_to: pug\n", "delegate_to"),
    ("- hosts: 'pug'\n", "hosts"),
    ("- hosts: web:&prod:!pug\n", "hosts"),
    ("- hosts: pom,pug  # the old box\n", "hosts"),
    ("ansible-playbook site.yml --limit pug\n", "limit"),
    ("ansible-playbook site.yml --limit=web:pug\n", "limit"),
    ("ansible all -l 'pug' -m ping\n", "limit"),
])
def test_a_consumer_names_the_host(text: str, consumer: str) -> None:
    assert _found(text) == [("pug", (consumer, "pug"))]


@pytest.mark.parametrize("text", [
    "ls -l pug\n",  # no ansible on the line: not a limit
    "- hosts: pug*\n",  # a glob: the pattern rules see it
    "- hosts: ~pu.\n",
    "  delegate_to: \"{{ pug_host }}\"\n",  # Jinja: a variable, not the host
    "  delegate_to: pugs\n",
    "when: inventory_hostname == \"pug.ana.lan\"\n",
    "when: inventory_hostname == other\n",
])
def test_what_names_no_host_is_left(text: str) -> None:
    assert _found(text) == []


def test_keywords_are_only_yaml_s() -> None:
    assert _found("hosts: pug\n", yaml=False) == []
    assert _found("hosts: pug\n", yaml=True) == [("pug", ("hosts", "pug"))]
