"""The built-in engine's batch policy: batches final once verified, a canary first, a failure budget."""

from __future__ import annotations

from renamer.dns.policy import Policy
from tests.testing.resolvers import dns, fails_once_written, move_gateway, serving


def _rows(stdout: str) -> dict[str, str]:
    return {line.split()[0]: " ".join(line.split()[2:4]) for line in stdout.splitlines()[1:4]}


def _broken(lab, name: str) -> None:  # type: ignore[no-untyped-def]
    lab.write_resolvers(**{name.replace("-", "_"): {"test": fails_once_written(lab, name)}})


def test_batches_and_their_sizes() -> None:
    items = list(range(7))
    assert Policy().batches(items) == [items]  # all-or-nothing: one batch
    assert Policy(batch_size=3).batches(items) == [[0, 1, 2], [3, 4, 5], [6]]
    assert Policy(batch_size=3, canary=1).batches(items) == [[0], [1, 2, 3], [4, 5, 6]]
    assert Policy(canary=2).batches(items) == [[0, 1], [2, 3, 4, 5, 6]]
    assert Policy().batches([]) == []
    assert Policy(max_fail_percent=0).over_budget(1, 50)
    assert not Policy(max_fail_percent=10).over_budget(5, 50) and Policy(max_fail_percent=10).over_budget(6, 50)


def test_a_failure_in_the_second_batch_leaves_the_first_applied(run, lab) -> None:
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    move_gateway(lab)
    _broken(lab, "ns-ana2")
    result = dns(run, lab, "apply", "--resolvers", "all", "--batch-size", "1")
    assert result.exit_code == 1
    assert _rows(result.stdout) == {"ns-ana": "applied backup", "ns-ana2": "rolled back", "ns-fv": "not reached"}
    assert result.stdout.endswith("dns apply: FAILED: 1 applied and kept; 1 rolled back; "
                                  "1 not reached\n")
    lab.write_resolvers()
    assert [serving(run, lab, name) for name in ("ns-ana", "ns-ana2", "ns-fv")] == ["new", "old", "old"]
    # Fixed, applied again: the applied batch is unchanged, the rest follows.
    again = dns(run, lab, "apply", "--resolvers", "all", "--batch-size", "1")
    assert again.exit_code == 0
    assert _rows(again.stdout) == {"ns-ana": "unchanged snippets", "ns-ana2": "applied backup",
                                   "ns-fv": "applied backup"}


def test_a_canary_failure_touches_no_other_resolver(run, lab) -> None:
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    before = lab.snippets()
    pids = lab.pids()
    move_gateway(lab)
    _broken(lab, "ns-ana")
    result = dns(run, lab, "apply", "--resolvers", "all", "--canary", "1", "--batch-size", "2")
    assert result.exit_code == 1
    assert _rows(result.stdout) == {"ns-ana": "rolled back", "ns-ana2": "not reached", "ns-fv": "not reached"}
    assert lab.snippets() == before
    assert {k: v for k, v in lab.pids().items() if k != "ns-ana"} == {k: v for k, v in pids.items()
                                                                      if k != "ns-ana"}


def test_within_the_failure_budget_only_the_failed_resolver_goes_back(run, lab) -> None:
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    move_gateway(lab)
    _broken(lab, "ns-ana2")
    result = dns(run, lab, "apply", "--resolvers", "all", "--max-fail-percent", "50")
    assert result.exit_code == 1  # a failure is still a failure
    assert _rows(result.stdout) == {"ns-ana": "applied backup", "ns-ana2": "rolled back",
                                    "ns-fv": "applied backup"}
    lab.write_resolvers()
    assert [serving(run, lab, name) for name in ("ns-ana", "ns-ana2", "ns-fv")] == ["new", "old", "new"]


def test_over_the_budget_the_whole_batch_goes_back(run, lab) -> None:
    assert dns(run, lab, "apply", "--resolvers", "all").exit_code == 0
    before = lab.snippets()
    move_gateway(lab)
    _broken(lab, "ns-ana2")
    result = dns(run, lab, "apply", "--resolvers", "all", "--max-fail-percent", "20")
    assert result.exit_code == 1
    assert _rows(result.stdout) == {"ns-ana": "rolled back", "ns-ana2": "rolled back", "ns-fv": "not reached"}
    assert lab.snippets() == before
