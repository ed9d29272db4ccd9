"""state_names: the advice a `state-name` residual ends with fits the state its note names."""

from renamer import state_names


def test_compose_notes_get_the_compose_advice() -> None:
    note = "`hosts/pug/` holds `compose.yaml`, whose compose project is named after its folder"
    assert state_names.hint(note) == state_names.COMPOSE_HINT
    assert "docker compose up" in state_names.hint(note)


def test_helm_notes_get_the_helm_advice() -> None:
    assert state_names.hint("a helmfile release's name: Helm keeps the release by it") == state_names.HELM_HINT


def test_other_state_gets_advice_that_names_no_compose_volume() -> None:
    for note in ("a Terraform workspace's name: the workspace holds its own state",
                 "a Proxmox node's name: the cluster keeps the node's guests under it", ""):
        hint = state_names.hint(note)
        assert hint == state_names.GENERIC_HINT
        assert "compose" not in hint and "volume" not in hint and "Helm" not in hint
