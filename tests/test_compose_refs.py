"""A compose file's bare service names, and the words beside them that name other things."""

from __future__ import annotations

from renamer.compose_refs import compose_refs, is_compose

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
