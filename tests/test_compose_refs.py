"""A compose file's bare service names, and the words beside them that name other things."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from renamer import compose_refs as compose_module
from renamer.compose_refs import compose_refs, env_files, env_refs, is_compose, mounted_files

TEXT = b"""\
services:
  pug:
    image: pug/nginx
    hostname: pug
  app:
    depends_on: [pug]
    links: ["pug:db"]
    network_mode: "service:pug"
    volumes: ["./pug/data:/d", "pug_data:/e"]
    environment:
      U: http://pug:80
      V: pug.ana.lan
"""


def test_service_names_and_not_images_hosts_paths_or_longer_words() -> None:
    found = [(TEXT.count(b"\n", 0, r.start) + 1, r.path) for r in compose_refs(TEXT, {"pug"})]
    assert found == [(2, ("services", "pug")), (6, ("services", "pug")), (7, ("services", "pug")),
                     (8, ("services", "pug")), (11, ("services", "pug"))]
    assert all(r.local and r.quoted for r in compose_refs(TEXT, {"pug"}))


def test_compose_file_names() -> None:
    assert all(is_compose(n) for n in ("compose.yaml", "a/docker-compose.yml", "compose.override.yaml",
                                       "docker-compose.prod.yml"))
    assert not any(is_compose(n) for n in ("composer.json", "a/compose.json", "values.yaml"))
    assert compose_refs(b"x: pug\n", {"pug"}) == []


def test_env_files_and_mounts_a_compose_file_names() -> None:
    """Break-it round 9, finding 3: what a project's services read beside the compose file."""
    text = ("services:\n  a:\n    env_file: .env.db\n  b:\n    env_file: [x.env, 'y.env']\n  c:\n    env_file:\n"
            "      - path: ./z.env\n        required: false\n      - w.env\n"
            "    volumes: [\"./nginx.conf:/etc/nginx/nginx.conf:ro\"]\n    volumes:\n      - ../conf/a.conf:/a\n"
            "      - data:/var/lib\n      - /etc/hosts:/etc/hosts\n")
    assert env_files(text) == [".env.db", "x.env", "y.env", "./z.env", "w.env"]
    assert mounted_files(text) == ["./nginx.conf", "../conf/a.conf"]


def test_env_values_and_mounted_hosts_naming_a_service() -> None:
    env = b"DB_HOST=pug\nURL=http://pug:80/x\nexport B=pug:5432\nFQDN=pug.ana.lan\nUSER=pugs\n# C=pug\n"
    assert [env[r.start:r.end + 3] for r in env_refs(env, {"pug"}, "c.yaml")] == [b"pug\nUR", b"pug:80", b"pug:54"]
    assert all(r.project == "c.yaml" and r.path == ("services", "pug") for r in env_refs(env, {"pug"}, "c.yaml"))
    conf = b"upstream pug { server x; }\nproxy_pass http://pug:5432;\nroot /srv/pug;\nx pug:80 //pugs:1 pug.lan:2\n"
    found = [conf.count(b"\n", 0, r.start) + 1 for r in env_refs(conf, {"pug"}, "c.yaml", mounted=True)]
    assert found == [2, 4]


def _reference_word(name: bytes, mounted: bool) -> re.Pattern[bytes]:
    """compose_refs._word as first written: the lookbehinds before the name."""
    n = re.escape(name)
    if mounted:
        return re.compile(rb"(?<=//)" + n + rb"(?![A-Za-z0-9_.-])|(?<![A-Za-z0-9_.@$/-])" + n + rb"(?=:\d)")
    return re.compile(rb"(?<![A-Za-z0-9_.@$-])(?<![^/]/)" + n + rb"(?![A-Za-z0-9_-])(?!\.[A-Za-z0-9])")


_ENV_PIECES = [b"DB_HOST=pug", b"\n", b"URL=http://pug:80", b"pug", b"/pug", b"x/pug", b"//pug", b"pug:5432",
               b"pug.lan", b"pug-x", b"_pug", b"@pug", b"$pug", b" ", b"=", b"a", b"-", b".", b"#", b"pugs",
               b"pug.", b"\r\n", b"p", b"u", b"g", b"/", b":", b"1"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_ENV_PIECES), max_size=12), st.booleans(), st.sampled_from([b"pug", b"pu", b"g"]))
def test_the_name_first_patterns_find_what_the_lookbehind_first_ones_do(pieces: list[bytes], mounted: bool,
                                                                        name: bytes) -> None:
    data = b"".join(pieces)
    found = [m.span() for m in compose_module._word(name, mounted).finditer(data)]
    assert found == [m.span() for m in _reference_word(name, mounted).finditer(data)]
