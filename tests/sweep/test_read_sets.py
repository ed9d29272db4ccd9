"""sweep/read_sets.py: the files one tool reads as one inventory or one compose project, and the
identities (inventory hosts, compose services) that an edit makes one across them."""

from __future__ import annotations

from pathlib import Path

from renamer.sweep import read_sets


def _tree(root: Path, files: dict[str, str]) -> list[str]:
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    return sorted(files)


def test_an_inventory_is_every_file_its_pointer_names(tmp_path: Path) -> None:
    paths = _tree(tmp_path, {
        "ansible.cfg": "[defaults]\ninventory = inv/\n",
        "inv/a.yml": "", "inv/sub/b.ini": "", "inv/host_vars/x.yml": "", "inv/README.md": "", "inv/.hidden": "",
        "run.sh": "ansible-playbook -i one.ini -i two.yml site.yml  # -i three\n", "one.ini": "", "two.yml": "",
        "ci.yml": "ANSIBLE_INVENTORY=one.ini,two.yml\n",  # no script: not read
        "lonely.sh": "ansible all -i one.ini -m ping\n",  # one source: no set
    })
    assert read_sets.inventory_sets(paths, tmp_path) == [
        ("ansible.cfg", ["inv/a.yml", "inv/sub/b.ini"]), ("run.sh", ["one.ini", "two.yml"])]


def test_a_compose_project_is_every_file_its_pointer_names(tmp_path: Path) -> None:
    paths = _tree(tmp_path, {
        "app/.env": "COMPOSE_PATH_SEPARATOR=,\nCOMPOSE_FILE=a.yaml,b.yaml\n", "app/a.yaml": "", "app/b.yaml": "",
        "s/compose.yml": "include:\n  - inc.yml\n", "s/inc.yml": "include: [deeper.yml]\n", "s/deeper.yml": "",
        "s/compose.override.yml": "",
        "up.sh": "docker-compose -f app/a.yaml -f missing.yaml up\n",  # one file that exists: no set
    })
    assert read_sets.compose_sets(paths, tmp_path) == [
        ("app/.env", ["app/a.yaml", "app/b.yaml"]),
        ("s/compose.yml", ["s/compose.yml", "s/compose.override.yml"]),
        ("s/compose.yml", ["s/compose.yml", "s/inc.yml", "s/deeper.yml"])]


def test_two_hosts_of_one_inventory_made_one_across_files_collide() -> None:
    yml = "web:\n  hosts:\n    pug:\n"
    texts = {"a.yml": (yml, yml.replace("pug", "wolf")), "b.ini": ("[db]\nwolf\n",) * 2}
    found = read_sets.inventory_collision("ansible.cfg", texts)
    assert found is not None and found[:2] == ("b.ini", 2) and "a.yml:3, b.ini:2" in found[2]
    # one host in two files, renamed together, stays one; a text that is no inventory has none
    both = {"a.yml": (yml, yml.replace("pug", "wolf")), "b.ini": ("[db]\npug\n", "[db]\nwolf\n"),
            "notes": ("pug wolf\n",) * 2}
    assert read_sets.inventory_collision("ansible.cfg", both) is None


def test_two_services_of_one_project_made_one_across_files_collide() -> None:
    base = "services:\n  pug: {image: x}\nvolumes:\n  data: {}\n"
    texts = {"a.yaml": (base, base.replace("pug", "wolf")), "b.yaml": ("services:\n  wolf: {image: y}\n",) * 2}
    found = read_sets.compose_collision(".env", texts)
    assert found is not None and found[:2] == ("b.yaml", 2) and "compose service 'wolf'" in found[2]
    override = {"a.yaml": (base, base.replace("pug", "wolf")),
                "b.yaml": ("services:\n  pug: {ports: ['80:80']}\n", "services:\n  wolf: {ports: ['80:80']}\n")}
    assert read_sets.compose_collision(".env", override) is None
