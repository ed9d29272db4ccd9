"""The pure parts of two sibling sets across files (break-it round 9 #5): which files one reader
loads as one text (sweep/config_dirs.py), and which entries of `host_vars/` or `group_vars/` are
one name to Ansible (sweep/vars_names.py)."""

from __future__ import annotations

from pathlib import Path

from renamer.sweep import config_dirs, vars_names


def test_a_config_directory_is_named_so_or_numbered() -> None:
    paths = ["nginx/conf.d/a.conf", "nginx/conf.d/b.conf", "nginx/conf.d/c.txt", "haproxy/10-a.cfg",
             "haproxy/20-b.cfg", "sites-enabled/x.conf", "sites-enabled/y.conf", "configs/a.conf",
             "configs/b.conf", "one.d/only.conf", "mixed/10-a.cfg", "mixed/b.cfg"]
    assert config_dirs.sets(paths) == [["haproxy/10-a.cfg", "haproxy/20-b.cfg"],
                                       ["nginx/conf.d/a.conf", "nginx/conf.d/b.conf"],
                                       ["sites-enabled/x.conf", "sites-enabled/y.conf"]]


def test_a_label_across_two_files_collides_named_where_it_stood() -> None:
    texts = {"d/a.conf": ("upstream pug { }\nserver { listen 80; }\n", "upstream wolf { }\nserver { listen 80; }\n"),
             "d/b.conf": ("upstream wolf { }\nserver { listen 80; }\n",) * 2}
    found = config_dirs.collision(texts)
    assert found is not None and found[:2] == ("d/b.conf", 1) and "(d/a.conf:1, d/b.conf:1)" in found[2]
    # a block head that stood in both files already (two `server`s) is none; nor is a nested one
    assert config_dirs.collision({"d/a.conf": ("http { upstream pug { } }\n", "http { upstream wolf { } }\n"),
                                  "d/b.conf": ("http { upstream wolf { } }\n",) * 2}) is None


def test_the_entries_of_one_ansible_name() -> None:
    assert vars_names.entry("inv/host_vars/wolf.yml") == ("inv/host_vars", "wolf", "wolf.yml")
    assert vars_names.entry("host_vars/wolf/a/b.yml") == ("host_vars", "wolf", "wolf/")
    assert vars_names.entry("group_vars/wolf") == ("group_vars", "wolf", "wolf")
    assert vars_names.entry("group_vars/.yml") == ("group_vars", ".yml", ".yml")
    assert vars_names.entry("roles/x/vars/main.yml") is None


def test_a_rename_beside_another_entry_of_its_new_name_merges(tmp_path: Path) -> None:
    for path in ("host_vars/wolf/main.yml", "host_vars/rex.json", "host_vars/pug.yml", "host_vars/fox.yml"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("a: 1\n")
    assert vars_names.merging(tmp_path, [("host_vars/pug.yml", "host_vars/wolf.yml"),
                                         ("host_vars/fox.yml", "host_vars/rex.yml")]) == [
        ("host_vars/fox.yml", "host_vars/rex.yml", "rex", ["host_vars/rex.json"]),
        ("host_vars/pug.yml", "host_vars/wolf.yml", "wolf", ["host_vars/wolf/"])]
    # a file that itself moves away is no entry left behind; a name that only starts alike none
    assert vars_names.merging(tmp_path, [("host_vars/rex.json", "host_vars/cat.json"),
                                         ("host_vars/fox.yml", "host_vars/rex.yml"),
                                         ("host_vars/pug.yml", "host_vars/wolfram.yml")]) == []


SERVICE = "apiVersion: v1\nkind: Service\nmetadata:\n  name: {}\n  namespace: web\n"


def test_manifests_of_one_folder_are_one_set_unless_kustomized() -> None:
    paths = ["k8s/a.yaml", "k8s/b.yml", "k8s/notes.md", "kust/kustomization.yaml", "kust/a.yaml", "kust/b.yaml",
             "one/a.yaml"]
    assert config_dirs.manifest_sets(paths) == [["k8s/a.yaml", "k8s/b.yml"]]
    texts = {"k8s/a.yaml": (SERVICE.format("pug"), SERVICE.format("wolf")), "k8s/b.yml": (SERVICE.format("wolf"),) * 2}
    found = config_dirs.manifest_collision(texts)
    assert found is not None and found[:2] == ("k8s/b.yml", 4) and "(k8s/a.yaml:4, k8s/b.yml:4)" in found[2]
    # one object in two files already (pug twice), renamed: still one identity
    assert config_dirs.manifest_collision({"k8s/a.yaml": (SERVICE.format("pug"), SERVICE.format("wolf")),
                                           "k8s/b.yml": (SERVICE.format("pug"), SERVICE.format("wolf"))}) is None


def test_a_folder_an_include_glob_names_is_one_set(tmp_path: Path) -> None:
    files = {"nginx/nginx.conf": "http {\n  include /etc/nginx/sites/*.conf;\n}\n", "nginx/sites/a.conf": "",
             "nginx/sites/b.conf": "", "nginx/other/a.conf": "", "nginx/other/b.conf": ""}
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    assert config_dirs.sets(files, tmp_path) == [["nginx/sites/a.conf", "nginx/sites/b.conf"]]
    assert config_dirs.sets(files) == []  # without the tree, names and numbers alone
