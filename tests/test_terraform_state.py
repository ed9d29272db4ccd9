"""Which string literals of an HCL file name a Terraform state (pure logic: renamer/terraform_state.py);
the sweep's behaviour is proved end to end in tests/cli/test_terraform_state.py."""

from __future__ import annotations

import pytest

from renamer.terraform_state import state_spans


def _named(rel: str, text: str) -> list[str]:
    data = text.encode()
    return [data[s:e].decode().strip('"') for s, e in state_spans(rel, data)]


@pytest.mark.parametrize(("rel", "text", "expected"), (
    pytest.param("a.tf", 'terraform {\n  cloud {\n    workspaces { name = "pug" }\n  }\n}\n', ["pug"],
                 id="cloud-workspace-name"),
    pytest.param("a.tf", 'terraform {\n  backend "remote" {\n    hostname = "h"\n'
                 '    workspaces { prefix = "pug-" }\n  }\n}\n', ["pug-"], id="remote-prefix-not-hostname"),
    pytest.param("a.tf", 'terraform {\n  backend "gcs" {\n    bucket = "b"\n    prefix = "pug"\n  }\n}\n',
                 ["b", "pug"], id="gcs"),
    pytest.param("a.tf", 'terraform {\n  backend "http" {\n    address = "https://pug/state"\n'
                 '    lock_address = "https://pug/lock"\n  }\n}\n', [], id="http-servers-are-hosts"),
    pytest.param("a.tf", 'data "terraform_remote_state" "x" {\n  config = {\n    key = "pug/t"\n  }\n}\n',
                 ["pug/t"], id="remote-state-config"),
    pytest.param("a.tf", 'data "terraform_remote_state" "x" {\n  config = {\n    "key" = "pug/t"\n  }\n}\n',
                 ["pug/t"], id="quoted-object-key"),
    pytest.param("a.tf", 'data "aws_s3_object" "x" {\n  key = "pug/t"\n}\n', [], id="another-data-source"),
    pytest.param("a.tf", 'resource "tfe_workspace" "w" {\n  name = "pug"\n}\n', [], id="a-resource"),
    pytest.param("a.tf", 'terraform {\n  backend "s3" {\n    key = <<EOT\npug/t\nEOT\n  }\n}\n', ["pug/t\n"],
                 id="heredoc"),
    pytest.param("a.tf", 'terraform {\n  backend "s3" {\n    key = "${var.a}/pug"  # }\n'
                 '    /* } */ bucket = "b"\n  }\n}\nlocals {\n  key = "pug"\n}\n', ["${var.a}/pug", "b"],
                 id="comments-and-interpolation-hold-braces"),
    pytest.param("x.s3.tfbackend", 'key = "pug/t"\nendpoint = "http://pug"\n', ["pug/t"], id="tfbackend"),
    pytest.param("envs/backend.hcl", 'workspaces { name = "pug" }\n', ["pug"], id="backend-hcl"),
    pytest.param("envs/vars.hcl", 'key = "pug/t"\n', [], id="other-hcl-top-level"),
    pytest.param("terragrunt.hcl", 'remote_state {\n  config = {\n    key = "pug/t"\n  }\n}\n', ["pug/t"],
                 id="terragrunt"),
))
def test_state_spans(rel: str, text: str, expected: list[str]) -> None:
    assert _named(rel, text) == expected
