"""jq/yq filter paths and Traefik label names: pairs of text and what is read."""

from __future__ import annotations

from renamer.jq_refs import jq_refs
from renamer.label_names import label_refs


def test_jq_and_yq_paths() -> None:
    text = (b"IP=$(jq -r \".hosts.pug.ip\" f.json)\nyq '.hosts[\"pug\"].ip' a.yml\n"
            b"jq --arg x y '.a | .pug' f\ncat f | jq '.all[].pug'\necho '.hosts.pug'\njq '.pugs' f\n")
    assert [(r.path, r.quoted) for r in jq_refs(text, {"pug"})] == [
        (("hosts", "pug"), False), (("hosts", "pug"), True), (("a", "pug"), False), (("all", "[]", "pug"), False)]


def test_a_key_tested_by_name_after_the_path() -> None:
    """Break-it round 9, finding 3: `select(.key == "pug")` over `to_entries`, `has`, `keys`;
    a filter in a shell's double quotes escapes its own quotes."""
    lines = [b'yq ".hosts | to_entries[] | select(.key == \\"pug\\") | .value.ip" inv.yaml',
             b"jq '.hosts | with_entries(select(.key != \"pug\"))' f",
             b"jq '.hosts | has(\"pug\")' f", b"jq '.hosts | keys | index(\"pug\")' f",
             b"jq '.hosts | keys | contains([\"rex\", \"pug\"])' f", b"jq '.hosts | keys[] | select(. == \"pug\")' f",
             b"jq '.hosts | .pug.ip' f", b'jq ".hosts[\\"pug\\"]" f']
    for line in lines:
        found = jq_refs(line, {"pug"})
        assert [(r.path, line[r.start:r.end]) for r in found] == [(("hosts", "pug"), b"pug")], line
    for line in [b"jq '.hosts | map(select(.name == \"pug\"))' f", b"jq '.hosts[] | select(.key == \"pug\")' f",
                 b"jq '.hosts | to_entries[] | select(.value == \"pug\")' f"]:
        assert jq_refs(line, {"pug"}) == [], line  # a value's field, not the mapping's key


def test_a_shell_variable_holding_the_key() -> None:
    """`H=pug` read as `.hosts.$H`, `.[env(H)]`, `.[$ENV.H]`: the key at the string; also read
    otherwise (`ssh $H`), it cannot be told; set twice, or to another name, nothing."""
    read = b'H=pug\nC=$(yq ".hosts.$H.ip" a.yml)\nD=$(yq \'.hosts.[env(H)].ip\' a.yml)\njq \'.hosts[$ENV.H]\' f\n'
    assert [(r.path, read[r.start:r.end]) for r in jq_refs(read, {"pug"})] == [(("hosts", "pug"), b"pug")]
    assert [r.path for r in jq_refs(b'H=pug\nyq ".hosts.${H}.ip" f\nssh $H\n', {"pug"})] == [("*", "pug")]
    assert jq_refs(b'H=pug\nH=rex\nyq ".hosts.$H" f\n', {"pug"}) == []
    assert jq_refs(b"H=pug\nyq '.hosts.$H' f\n", {"pug"}) == []  # single quotes: jq's own variable


def test_traefik_names_read_where_a_label_defines_them() -> None:
    text = (b'- "traefik.http.routers.r.service=pug"\n- "traefik.http.routers.r.middlewares=a,pug@docker"\n'
            b'- "traefik.http.services.pug.loadbalancer.server.port=80"\n'
            b'- "traefik.http.middlewares.pug.x=y"\n- "traefik.tcp.routers.t.service=pug"\n')
    found = [(r.name, r.kind, text.count(b"\n", 0, r.start) + 1) for r in label_refs(text, {"pug"})]
    assert found == [("pug", "services", 1), ("pug", "middlewares", 2)]
