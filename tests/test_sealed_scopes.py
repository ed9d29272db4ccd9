"""sealed_scopes.py: what a kustomization, a Flux or Argo CD object and a command line apply, read
on a real tree (the end-to-end cases are tests/cli/test_sealed.py)."""

from __future__ import annotations

from pathlib import Path

from renamer.sealed_scopes import Scopes, _applied_paths

SEALED = b"apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nmetadata:\n  name: db\n"


def _tree(root: Path, files: dict[str, bytes]) -> Scopes:
    for rel, data in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    return Scopes(str(root))


def test_a_cycle_of_kustomizations_and_a_path_outside_bind_nothing(tmp_path: Path) -> None:
    scopes = _tree(tmp_path, {"a/kustomization.yaml": b"resources: [../b]\n",
                              "b/kustomization.yaml": b"resources: [../a]\n",
                              "c/kustomization.yaml": b"namespace: pug\nresources: [../a, ../../x, s.yaml]\n",
                              "c/s.yaml": SEALED})
    assert not scopes.binds("a")
    assert not scopes.binds("../x")
    assert scopes.binds("c")
    data = (tmp_path / "c/kustomization.yaml").read_bytes()
    assert [data[s:e] for s, e in scopes.spans("c/kustomization.yaml", data)] == [b"namespace: pug"]


def test_a_command_line_binds_only_the_namespace_of_a_path_holding_a_sealed_secret(tmp_path: Path) -> None:
    scopes = _tree(tmp_path, {"m/s.yaml": SEALED, "m/w.yaml": b"kind: Deployment\n"})
    data = b"kubectl -n pug apply -f m/w.yaml\nkubectl --namespace pug apply -f 'm/s.yaml'\noc -n pug apply -f m\n"
    assert [data[s:e] for s, e in scopes.spans("deploy.sh", data)] == [b"pug", b"pug"]
    assert scopes.spans("deploy.sh", b"kubectl apply -f m/s.yaml\n") == []  # no namespace set here


def test_the_paths_each_kind_applies() -> None:
    assert _applied_paths({"kind": "Kustomization", "spec": {"path": "./flux/app"}}) == ["flux/app"]
    assert _applied_paths({"kind": "HelmRelease", "spec": {"chart": {"spec": {"chart": "./charts/x"}}}}) == ["charts/x"]
    assert _applied_paths({"kind": "Application", "spec": {"sources": [{"path": "a"}, {"repoURL": "x"}]}}) == ["a"]
    assert _applied_paths({"kind": "Deployment", "spec": {"path": "a"}}) == []
    assert _applied_paths(["not", "a", "mapping"]) == []
