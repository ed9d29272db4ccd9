"""image_refs: which spans of an image reference can be a host (break-it round 9, finding 10)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from renamer import image_refs as image_refs_module
from renamer.image_refs import image_refs, in_absolute_path, in_repository, software_names


def _repository(data: bytes) -> list[bytes]:
    return [data[r.repository:r.end] for r in image_refs(data)]


@pytest.mark.parametrize(("data", "expected"), [
    (b"image: pihole/pihole:2024.07.0\n", [b"pihole/pihole:2024.07.0"]),
    (b"  - image: 'docker.io/pihole/pihole@sha256:ab'\n", [b"pihole/pihole@sha256:ab"]),
    (b"image: pug.lab.lan:5000/app\n", [b"app"]),
    (b"image: pug:5000/app\n", [b"app"]),
    (b"image: localhost/app\n", [b"app"]),
    (b"image: pug\n", [b"pug"]),  # one component: a Docker Hub repository, no registry
    (b"services: {a: {image: nginx, hostname: pug}}\n", [b"nginx"]),
    (b'  image = "pihole/pihole"\n', [b"pihole/pihole"]),
    (b"FROM --platform=linux/amd64 pihole/pihole AS base\n", [b"pihole/pihole"]),
    (b"docker pull -q reg.lan/pihole\n", [b"pihole"]),
    (b"docker run -d --name pug -e A=b -p 80:80 pihole/pihole:latest sh\n", [b"pihole/pihole:latest"]),
    (b"docker run -v /etc/pihole:/etc/pihole\n", []),  # no image word: nothing read
    (b"repository: https://charts.lan/pug\n", []),
    (b"repository: oci://reg.lan:5000/pug\n", [b"pug"]),
])
def test_the_repository_part_of_each_dialect(data: bytes, expected: list[bytes]) -> None:
    assert _repository(data) == expected


def test_a_registry_is_outside_the_repository_and_software_names_are_its_words() -> None:
    data = b"image: pug.lab.lan:5000/team/pihole:v1\n"
    refs = image_refs(data)
    at = data.index(b"pug")
    assert not in_repository(refs, at, at + 3)
    at = data.index(b"pihole")
    assert in_repository(refs, at, at + 6)
    assert software_names(data, refs) == {"team", "pihole"}


@pytest.mark.parametrize(("data", "name", "expected"), [
    (b'- "./etc-pihole/:/etc/pihole/"', b"pihole", True),
    (b"dest: /var/lib/pihole\n", b"pihole", True),
    (b"curl http://pihole/admin\n", b"pihole", False),
    (b"ls host_vars/pihole/\n", b"pihole", False),
    (b"cat /etc/pihole.d/x\n", b"pihole", False),
    (b"rsync a pug:/pihole/\n", b"pihole", True),
])
def test_a_whole_component_of_an_absolute_path(data: bytes, name: bytes, expected: bool) -> None:
    at = data.rindex(name)
    assert in_absolute_path(data, at, at + len(name)) is expected


def _whole_file(data: bytes) -> list[tuple[int, int, int]]:
    """The reference reading: each pattern over the whole text (image_refs reads only the lines
    that hold a keyword, which must find the same)."""
    if not any(word in data for word in image_refs_module.HINTS):
        return []
    out: list[image_refs_module.ImageRef] = []
    for regex in (image_refs_module._KEYED, image_refs_module._FROM, image_refs_module._PULL):
        for hit in regex.finditer(data):
            image_refs_module._add_keyed(data, hit, out)
    for hit in image_refs_module._RUN.finditer(data):
        image_refs_module._add_run(data, hit, out)
    return [(r.start, r.repository, r.end) for r in sorted(out, key=lambda r: r.start)]


_PIECES = [b"image: pug.lan:5000/app:1", b"\n", b"FROM --platform=x pug/app", b"docker run -d pug/x",
           b"podman pull -q reg.io/a", b"{image: x}", b", repository: 'oci://a/b'", b'  - image = "a"',
           b"IMAGE:x", b"\r\n", b" ", b"from ", b"docker  container create --rm img", b"nerdctl push a",
           b"Image", b"DOCKER run x", b'"image": "a/b"', b"https://c.lan/x", b"\t", b"-"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=14))
def test_the_lines_with_a_keyword_find_what_the_whole_text_does(pieces: list[bytes]) -> None:
    data = b"".join(pieces)
    assert [(r.start, r.repository, r.end) for r in image_refs(data)] == _whole_file(data)
