"""image_refs: which spans of an image reference can be a host (break-it round 9, finding 10)."""

from __future__ import annotations

import pytest

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
