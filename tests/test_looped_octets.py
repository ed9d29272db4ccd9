"""Last octets a loop makes from literal numbers under a shrink (looped_octets.py, t31-33 finding
25), through the Matcher and the scan's templated heads: refused where one address the loop makes
lies outside the new network; the residual it was where all fit or the loop cannot be read."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.match import Matcher
from renamer.prefix_moves import OUTSIDE


def _refusals(pairs: list[tuple[str, str]], text: str) -> list[str | None]:
    matcher = Matcher(networks=[(ipaddress.ip_network(a), ipaddress.ip_network(b)) for a, b in pairs])
    data = text.encode()
    return [m.refused for m in matcher.templated_heads(data, matcher.find(data))]


SHRINK = [("10.0.48.0/24", "10.0.48.0/25")]
PY = 'for i in range(A, B):\n    print(f"10.0.48.{i}")\n'
SEQ = "for i in $(seq A B); do ping -c1 10.0.48.$i; done\n"
BRACE = "for i in {A..B}; do echo 10.0.48.$i; done\n"
JINJA = "{% for i in range(A, B) %}host{{ i }} 10.0.48.{{ i }}\n{% endfor %}\n"


@pytest.mark.parametrize("template", [PY, SEQ, BRACE, JINJA])
@pytest.mark.parametrize(("low", "high", "outside"), [(150, 160, True), (120, 130, True), (10, 20, False)])
def test_a_loop_making_an_address_outside_refuses(template: str, low: int, high: int, outside: bool) -> None:
    found = _refusals(SHRINK, template.replace("A", str(low)).replace("B", str(high)))
    assert found, found
    assert (OUTSIDE in found) is outside, found
    if not outside:
        assert set(found) <= {"composed-address", "pattern"}, found


def test_other_lengths_and_unread_loops() -> None:
    # /23 -> /24 in place: the loop's head is the lost half
    assert OUTSIDE in _refusals([("10.0.48.0/23", "10.0.48.0/24")], PY.replace("48.{i}", "49.{i}")
                                .replace("A", "1").replace("B", "5"))
    # a grow: nothing lies outside
    assert OUTSIDE not in _refusals([("10.0.48.0/24", "10.0.48.0/23")], PY.replace("A", "150").replace("B", "160"))
    # a loop over a variable renamer cannot read: the residual it was
    assert OUTSIDE not in _refusals(SHRINK, 'for i in hosts:\n    print(f"10.0.48.{i}")\n')
