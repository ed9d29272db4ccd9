"""How far a failure of dns apply reaches: batches, a canary batch, a failure budget."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

Item = TypeVar("Item")


@dataclass(frozen=True)
class Policy:
    """How far a failure reaches.

    The default is all-or-nothing: one batch of every resolver, no failure allowed, so the
    first failure rolls back every resolver changed so far. With `batch_size` (and a
    `canary` batch first), batches are final once applied and verified; a failure rolls
    back only its own batch. `max_fail_percent` is a failure budget per batch, as
    Ansible's max_fail_percentage: while the failed resolvers stay within it, each is
    restored alone and the rollout goes on; past it, the whole batch is rolled back and
    the later batches are not reached.
    """

    batch_size: int | None = None
    canary: int = 0
    max_fail_percent: int = 0

    def batches(self, items: list[Item]) -> list[list[Item]]:
        first = items[:self.canary] if self.canary else []
        rest = items[len(first):]
        size = self.batch_size or len(rest) or 1
        return ([first] if first else []) + [rest[i:i + size] for i in range(0, len(rest), size)]

    def over_budget(self, failed: int, batch: int) -> bool:
        return failed * 100 > self.max_fail_percent * batch
