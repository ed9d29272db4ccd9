"""Where a key is read under another path (pure): module calls, subcharts, loaded data files."""

from __future__ import annotations

import pytest

from renamer.sweep import key_mounts


def test_module_calls_name_their_lines_and_source() -> None:
    text = ('module "dns" {\n  source = "./modules/dns"\n  hosts = { pug = {\n    ip = "}" } }\n}\n'
            'resource "x" "y" {}\nmodule "reg" {\n  source = "hashicorp/x/y"\n}\n')
    assert key_mounts.module_calls(text) == [(1, 5, "dns", "./modules/dns"), (7, 9, "reg", "hashicorp/x/y")]


@pytest.mark.parametrize(("rel", "source", "folder"), [
    pytest.param("main.tf", "./modules/dns", "modules/dns", id="root"),
    pytest.param("envs/prod/main.tf", "../../modules/dns", "modules/dns", id="up"),
    pytest.param("main.tf", "../outside", None, id="outside-the-repo"),
    pytest.param("main.tf", "git::https://x/y.git", None, id="remote"),
    pytest.param("a/main.tf", "./", "a", id="itself"),
])
def test_module_folder(rel: str, source: str, folder: str | None) -> None:
    assert key_mounts.module_folder(rel, source) == folder


@pytest.mark.parametrize(("chart", "parent"), [
    ("chart/charts/web", "chart"), ("charts/web", ""), ("a/charts/b/charts/c", "a/charts/b"), ("web", None),
])
def test_parent_of(chart: str, parent: str | None) -> None:
    assert key_mounts.parent_of(chart) == parent


def test_library_and_names() -> None:
    assert key_mounts.is_library("name: lib\ntype: library\n")
    assert not key_mounts.is_library("name: lib\n# type: library\ntype: application\n")
    assert key_mounts.subchart_name("chart/charts/web", "name: frontend\n") == {"web", "frontend"}


FILES = ["lab/data/net.yml", "prod/data/net.yml", "roles/dns/files/net.yml", "roles/dns/net.yml"]


@pytest.mark.parametrize(("rel", "loaded", "hcl", "expected"), [
    pytest.param("prod/play.yml", "data/net.yml", False, (["prod/data/net.yml"], True), id="beside-the-play"),
    pytest.param("roles/dns/tasks/main.yml", "net.yml", False, (["roles/dns/files/net.yml"], True),
                 id="role-files-first"),
    pytest.param("other/play.yml", "data/net.yml", False, ([], True), id="none-in-the-search-path"),
    pytest.param("prod/main.tf", "${path.module}/data/net.yml", True, (["prod/data/net.yml"], True), id="hcl"),
    pytest.param("prod/play.yml", "{{ base }}/data/net.yml", False, (["lab/data/net.yml", "prod/data/net.yml"], False),
                 id="an-unknown-folder"),
])
def test_loaded_files(rel: str, loaded: str, hcl: bool, expected: tuple[list[str], bool]) -> None:
    assert key_mounts.loaded_files(rel, loaded, hcl, FILES, lambda p: p in FILES) == expected


def test_a_chart_s_dependencies_give_folder_alias_and_imports() -> None:
    meta = ("apiVersion: v2\nname: app\ndependencies:\n"
            "  - {name: web, alias: frontend, repository: file://charts/web}\n"
            "  - name: db\n    import-values: [data, {child: hosts, parent: sub.hosts}]\n"
            "  - name: remote\n    repository: https://charts.example/x\n"
            "  - {alias: no-name}\n")
    found = key_mounts.dependencies("app", meta)
    assert found == [
        key_mounts.Dependency("app/charts/web", frozenset({"web", "frontend"}), ()),
        key_mounts.Dependency("app/charts/db", frozenset({"db"}),
                              ((("exports", "data"), ()), (("hosts",), ("sub", "hosts")))),
        key_mounts.Dependency("app/charts/remote", frozenset({"remote"}), ()),
    ]


@pytest.mark.parametrize("meta", ["name: app\n", "dependencies: [\n", "dependencies: 3\n", ""])
def test_a_chart_with_no_readable_dependencies_gives_none(meta: str) -> None:
    assert key_mounts.dependencies("", meta) == []
