"""A Traefik router's service and middlewares as the file provider's keys (break-it round 9,
finding 3)."""

from __future__ import annotations

from renamer.traefik_refs import traefik_refs

DYNAMIC = b"""\
http:
  routers:
    r1:
      service: pug@file
      middlewares: ["pug", "pug@docker", 'auth']
    r2:
      service: "pug"
      middlewares:
        - pug@file
        - pug@kubernetescrd
  services:
    pug: {}
tcp:
  routers:
    t:
      service: pug
other:
  service: pug
"""


def test_router_names_read_by_path() -> None:
    found = [(DYNAMIC.count(b"\n", 0, r.start) + 1, r.path) for r in traefik_refs(DYNAMIC, {"pug"})]
    assert found == [(4, ("http", "services", "pug")), (5, ("http", "middlewares", "pug")),
                     (7, ("http", "services", "pug")), (9, ("http", "middlewares", "pug")),
                     (16, ("tcp", "services", "pug"))]


def test_labels_name_the_file_provider_only_with_its_suffix() -> None:
    labels = (b'- "traefik.http.routers.r.service=pug@file"\n- "traefik.http.routers.r.middlewares=a,pug@file"\n'
              b'- "traefik.http.routers.s.service=pug"\n- "traefik.http.routers.s.middlewares=pug@docker"\n'
              b'traefik.tcp.routers.t.service: "pug@file"\n')
    found = [(labels.count(b"\n", 0, r.start) + 1, r.path) for r in traefik_refs(labels, {"pug"})]
    assert found == [(1, ("http", "services", "pug")), (2, ("http", "middlewares", "pug")),
                     (5, ("tcp", "services", "pug"))]
