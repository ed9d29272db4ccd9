"""kube_config.py: a kubeconfig context's `user:` is the name of a `users:` entry, no account."""

from __future__ import annotations

from renamer import kube_config
from renamer.accounts import account_starts

CONFIG = (b"apiVersion: v1\r\nkind: Config\r\ncontexts:\r\n- context:\r\n    cluster: c\r\n    user: hermes\r\n"
          b"  name: a\r\n- context: {cluster: c, \"user\": zeus}\r\n  name: b\r\nusers:\r\n- name: hermes\r\n"
          b"  user:\r\n    username: bob\r\n")


def test_a_contexts_user_block_and_flow_crlf() -> None:
    found = sorted(CONFIG[o:o + 6] for o in kube_config.context_users(CONFIG))
    assert found == [b"hermes", b"zeus}\r"]


def test_a_users_entrys_own_username_is_still_an_account() -> None:
    starts = account_starts(CONFIG)
    assert CONFIG.index(b"bob") in starts
    assert CONFIG.index(b"hermes") not in starts


def test_no_kubeconfig_no_reference() -> None:
    compose = b"services:\n  app:\n    user: hermes\ncontexts: []\n"
    assert kube_config.context_users(compose) == set()
    assert compose.index(b"hermes") in account_starts(compose)
