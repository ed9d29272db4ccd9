"""More silent wrong answers of a network move that break-it round 20p found (issue 33):
composed addresses a shrink leaves outside, length keys known by their name only, hex netmasks,
RFC 3442 route lists, a grow over networks in use. Each end to end: what the sweep writes or
refuses, and what verify says of what it leaves.
"""

from __future__ import annotations

from tests.testing.repos import Repo, Run, snapshot

ALLOW = ('version: 1\ncurrent: ["**"]\nrecords:\n'
         '  - {name: notes, paths: ["notes/**"], reason: dated notes}\n')


def _config(networks: str) -> str:
    return f"version: 1\nrenames:\n  networks: {{{networks}}}\nallowlist: allow.yaml\n"


COMPOSED = {
    "s.sh": "for i in 9 10 11; do ping -c1 10.0.48.$i; done\nfor j in 3 4; do ping 10.0.48.$j; done\n"
            "for k in 200 201; do ping 10.0.48.$k; done\n",
    ".env": "LAB_PREFIX=10.0.48\nLAST=13\n",
    "run.sh": "HOST=${LAB_PREFIX}.12\nB=\"${LAB_PREFIX}.${LAST}\"\n",
    "gw.yml": "- hosts: all\n  vars:\n    last: 12\n    addr: \"10.0.48.{{ last }}\"\n",
    "p.yml": "- command: ping 10.0.48.{{ item }}\n  with_items: [9, 10]\n",
}


def test_a_composed_address_a_shrink_leaves_outside_refuses_the_sweep(repo: Repo, run: Run) -> None:
    """finding 4: `10.0.48.$i` over 9..11, `${LAB_PREFIX}.12` over .env, `10.0.48.{{ last }}` under
    `10.0.48.0/28: 10.0.49.0/29` were dropped (they map to no new address): each is refused with
    its file:line, as the literal is; values that fit stay composed-address residuals."""
    root = repo(COMPOSED, config=_config("10.0.48.0/28: 10.0.49.0/29"), allowlist=ALLOW)
    before = snapshot(root)
    done = run(root, "sweep", "--commit")
    assert done.exit_code == 3, done.stdout + done.stderr
    assert snapshot(root) == before
    error = done.stderr
    assert error.startswith("renamer: error: a network move shrinks past 5 addresses in use: "), error
    for where in ("s.sh:1: outside the new, smaller network: 10.0.48.$i is 10.0.48.9: 10.0.48.9 lies 9 "
                  "addresses into 10.0.48.0/28, and 10.0.49.0/29 holds 8",
                  "run.sh:1: outside the new, smaller network: ${LAB_PREFIX}.12 is 10.0.48.12",
                  "run.sh:2: outside the new, smaller network: ${LAB_PREFIX}.${LAST} is 10.0.48.13",
                  "gw.yml:4: outside the new, smaller network: 10.0.48.{{ last }} is 10.0.48.12",
                  "p.yml:1: outside the new, smaller network: 10.0.48.{{ item }} is 10.0.48.9"):
        assert where in error, (where, error)
    out = run(root, "verify").stdout
    assert "s.sh:2:23: residual (composed-address): 10.0.48.3 -> 10.0.49.3" in out, out
    assert "s.sh:3" not in out, out  # 200 and 201 lie outside the old network: nothing to say


def test_composed_addresses_under_an_equal_length_move_and_a_grow_are_residuals(repo: Repo, run: Run) -> None:
    """The same words under a move of the same length and a grow: residuals, nothing refused; a
    grow in place keeps every address, so nothing to say."""
    for networks in ("10.0.48.0/28: 10.0.49.0/28", "10.0.48.0/28: 10.0.64.0/27"):
        root = repo(COMPOSED, config=_config(networks), allowlist=ALLOW)
        done = run(root, "sweep", "--commit")
        assert done.exit_code == 1, (networks, done.stdout + done.stderr)
        out = run(root, "verify").stdout
        for where in ("s.sh:1:31: residual (composed-address): 10.0.48.9", "s.sh:2:23: residual (composed-address)",
                      "run.sh:1:6: residual (composed-address): 10.0.48.12",
                      "run.sh:2:4: residual (composed-address): 10.0.48.13",
                      "gw.yml:4:12: residual (composed-address): 10.0.48.12",
                      "p.yml:1:17: residual (composed-address): 10.0.48.9"):
            assert where in out, (networks, where, out)
        assert "s.sh:3" not in out, out
    root = repo(COMPOSED, config=_config("10.0.48.0/28: 10.0.48.0/27"), allowlist=ALLOW)
    assert run(root, "sweep", "--commit").exit_code == 0
    assert run(root, "verify").exit_code == 0
