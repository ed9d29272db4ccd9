"""jq/yq filter paths and Traefik label names: pairs of text and what is read."""

from __future__ import annotations

from renamer.jq_refs import jq_refs
from renamer.label_names import label_refs


def test_jq_and_yq_paths() -> None:
    text = (b"IP=$(jq -r \".hosts.pug.ip\" f.json)\nyq '.hosts[\"pug\"].ip' a.yml\n"
            b"jq --arg x y '.a | .pug' f\ncat f | jq '.all[].pug'\necho '.hosts.pug'\njq '.pugs' f\n")
    assert [(r.path, r.quoted) for r in jq_refs(text, {"pug"})] == [
        (("hosts", "pug"), False), (("hosts", "pug"), True), (("all", "[]", "pug"), False)]


def test_traefik_names_read_where_a_label_defines_them() -> None:
    text = (b'- "traefik.http.routers.r.service=pug"\n- "traefik.http.routers.r.middlewares=a,pug@docker"\n'
            b'- "traefik.http.services.pug.loadbalancer.server.port=80"\n'
            b'- "traefik.http.middlewares.pug.x=y"\n- "traefik.tcp.routers.t.service=pug"\n')
    found = [(r.name, r.kind, text.count(b"\n", 0, r.start) + 1) for r in label_refs(text, {"pug"})]
    assert found == [("pug", "services", 1), ("pug", "middlewares", 2)]
