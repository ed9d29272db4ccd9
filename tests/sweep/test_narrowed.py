"""sweep/narrowed.py: the paths a narrowed sweep moves, and which of them a token names."""

from __future__ import annotations

from renamer.sweep.narrowed import moved_paths, named_path


def test_a_moved_file_moves_each_folder_above_it_whose_name_changes() -> None:
    assert moved_paths([("hosts/pug/a/x.yml", "hosts/wolf/a/x.yml"), ("cfg/pug.conf", "cfg/wolf.conf")]) == {
        "hosts/pug/a/x.yml": "hosts/wolf/a/x.yml", "hosts/pug": "hosts/wolf", "hosts/pug/a": "hosts/wolf/a",
        "cfg/pug.conf": "cfg/wolf.conf"}


def test_a_token_names_a_moved_path_from_its_folder_the_root_or_as_a_tail() -> None:
    moved = moved_paths([("stacks/hosts/pug/app.env", "stacks/hosts/wolf/app.env")])
    assert named_path("stacks/compose.yaml", "hosts/pug/app.env", moved) == "stacks/hosts/pug/app.env"
    assert named_path("x.sh", "stacks/hosts/pug/", moved) == "stacks/hosts/pug"
    assert named_path("tools/sync.sh", "../stacks/hosts/pug", moved) == "stacks/hosts/pug"
    assert named_path("ci/a.sh", "hosts/pug", moved) == "stacks/hosts/pug"  # a tail of two components
    # a machine's path, a path after a variable, one component alone: none
    assert named_path("ci/a.sh", "/srv/stacks/hosts/pug", moved) is None
    assert named_path("ci/a.sh", "{}/hosts/pug", moved) is None
    assert named_path("ci/a.sh", "pug", moved) is None
