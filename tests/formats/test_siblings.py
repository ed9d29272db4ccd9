"""Sibling labels no key parser sees: a rename that makes two of them one is a collision."""

from __future__ import annotations

import pytest

from renamer.formats import keylines, siblings

COLLIDE = {
    "nginx upstream": "http {\n  upstream pug { server 10.0.0.5:80; }\n  upstream wolf { server x:80; }\n}\n",
    "nginx location": "server {\n  location /pug/ { }\n  location /wolf/ { }\n}\n",
    "caddy site": "pug.ana.lan {\n  reverse_proxy x\n}\nwolf.ana.lan {\n  reverse_proxy y\n}\n",
    "haproxy backend": "backend pug\n  server s1 pug:80\nbackend wolf\n  server s1 other:80\n",
    "haproxy listen": "listen pug :8080\n  mode http\nlisten wolf :8081\n  mode http\n",
    "inventory host": "[all]\npug\nwolf ansible_host=10.1.0.9\n",
    "bind zone": 'zone "pug.ana.lan" {\n  type master;\n};\nzone "wolf.ana.lan" { type master; };\n',
    "hcl resource": 'resource "dns_a" "pug" {\n  x = 1\n}\nresource "dns_a" "wolf" {\n  x = "${var.a}"\n}\n',
    "keepalived": "vrrp_instance pug {\n  state MASTER\n}\nvrrp_instance wolf {\n  state BACKUP\n}\n",
    "dhcpd host": "host pug {\n  fixed-address 10.0.0.5;\n}\nhost wolf {\n  fixed-address 10.1.0.9;\n}\n",
    "job_name in a template": "scrape_configs:\n{% if a %}\n  - job_name: pug\n{% endif %}\n  - job_name: 'wolf'\n",
    "a third of one name": "backend wolf\nbackend pug\nbackend wolf\n",
    "nagios host": "define host {\n  host_name pug\n  address 10.0.0.5\n}\ndefine host {\n  host_name wolf\n}\n",
}

APART = {
    "code, not a label": 'if (x == "pug") {\n  a()\n}\nif (x == "wolf") {\n  b()\n}\n',
    "go code": 'if x == "pug" {\n  a()\n} else if x == "wolf" {\n  b()\n}\n',
    "different parents": "http {\n server {\n  location /pug/ { }\n }\n server {\n  location /wolf/ { }\n }\n}\n",
    "templated heads": "upstream {{ pug }} {\n}\nupstream {{ wolf }} {\n}\n",
    "one inventory host in two groups": "[web]\npug ansible_host=1\n[db]\npug\nwolfram\n",
    "inventory vars": "[all:vars]\npug=1\n[all]\nwolf\n",
    "a JSON-like key": '"pug": {\n  "a": 1\n},\n"wolf": {\n  "a": 2\n}\n',
    "no new one there": "backend pug\n  server s1 pug:80\nbackend rex\n",
    "nagios services of two hosts": ("define service {\n  host_name pug\n  service_description ping\n}\n"
                                     "define service {\n  host_name wolf\n  service_description ping\n}\n"),
}


@pytest.mark.parametrize("name", sorted(COLLIDE))
def test_a_renamed_sibling_label_that_meets_another_collides(name: str) -> None:
    text = COLLIDE[name]
    problem = siblings.collision(text, text.replace("pug", "wolf"))
    assert problem is not None and "would stand twice among its siblings" in problem
    assert keylines.collision(text, text.replace("pug", "wolf")) == problem  # what plain text asks


@pytest.mark.parametrize("name", sorted(APART))
def test_labels_that_stay_apart_do_not(name: str) -> None:
    text = APART[name]
    assert siblings.collision(text, text.replace("pug", "wolf")) is None


@pytest.mark.parametrize("text", [
    "[web]\npug ansible_host=1\n[db]\nwolf\n",  # was a negative: a host is one identity in all groups
    "wolf\n\n[web]\npug\n",  # ungrouped above the first group
    "[web:children]\nweb1\n[web1]\npug\n[db]\nwolf ansible_port=22\n",
])
def test_two_inventory_hosts_made_one_across_groups_collide(text: str) -> None:
    """Break-it round 16, #8: Ansible merges them into one host, one `ansible_host` wins."""
    problem = siblings.collision(text, text.replace("pug", "wolf"))
    assert problem is not None and "two machines would become one host" in problem, problem
    assert siblings.inventory_collision(text, text.replace("pug", "wolf")) == problem


def test_a_group_member_of_children_is_no_host() -> None:
    text = "[web:children]\npug\n[pug]\nrex\n[wolf]\nbox\n[db:children]\nwolf\n"
    assert siblings.inventory_collision(text, text.replace("pug", "wolf")) is None


def test_the_message_names_the_standing_line_and_both() -> None:
    text = COLLIDE["haproxy backend"]
    assert siblings.collision(text, text.replace("pug", "wolf")) == (
        "line 3: after the rename the section 'backend wolf' would stand twice among its siblings "
        "(lines 1, 3): a renamed section would collide with an existing one")


def test_a_label_held_twice_already_is_no_new_collision() -> None:
    text = "backend wolf\nbackend wolf\nbackend pug-x\n"
    assert siblings.collision(text, text.replace("pug-x", "rex")) is None


def test_a_leading_bom_hides_no_first_line_head() -> None:
    """Review finding 13: a BOM before the first `[group]` or `global` line hid the head."""
    plain = siblings.labels("[web]\npug\nrex\n")
    assert plain and siblings.labels("\ufeff[web]\npug\nrex\n") == plain


SERVERS = {
    "one listen": ("server {\n  listen 80;\n  server_name pug.lab;\n}\nserver {\n  listen 80;\n"
                   "  server_name wolf.lab;\n}\n", True),
    "no listen is port 80": ("server {\n  server_name pug.lab;\n}\nserver {\n  listen 0.0.0.0:80;\n"
                             "  server_name wolf.lab;\n}\n", True),
    "one of several names": ("server { server_name a pug.lab; }\nserver { server_name wolf.lab b; }\n", True),
    "another listen": ("server {\n  listen 8080;\n  server_name pug.lab;\n}\nserver {\n  listen 80;\n"
                       "  server_name wolf.lab;\n}\n", False),
    "another parent": ("http {\n  server { server_name pug.lab; }\n}\n"
                       "mail {\n  server { server_name wolf.lab; }\n}\n", False),
    "commented out": ("server {\n  server_name pug.lab;\n}\n#server {\n#  server_name wolf.lab;\n#}\n", False),
    "a server of an upstream": ("upstream u {\n  server pug.lab:80;\n  server wolf.lab:80;\n}\n", False),
}


@pytest.mark.parametrize("name", sorted(SERVERS))
def test_two_nginx_servers_answering_one_name_on_one_listen_collide(name: str) -> None:
    text, collides = SERVERS[name]
    problem = siblings.collision(text, text.replace("pug.lab", "wolf.lab"))
    assert (problem is not None and "the server_name 'wolf.lab' would stand twice" in problem) is collides, problem


def test_a_name_twice_in_one_server_block_is_one_label() -> None:
    text = "server {\n  listen 80;\n  listen 443 ssl;\n  server_name wolf.lab wolf.lab;\n}\n"
    assert [(label.scope, label.label) for label in siblings.servers(text)] == [
        (("server_name", 0, "80"), "wolf.lab"), (("server_name", 0, "443"), "wolf.lab")]
