"""except_blocks.py on text (t31-33 finding 18): which `except` entry a move makes cover its cidr."""

from __future__ import annotations

import ipaddress

import pytest

from renamer.except_blocks import TOOL, except_hits
from renamer.prefix_moves import PrefixMove


def _hits(old: str, new: str, text: str) -> list[tuple[str, str | None]]:
    move = PrefixMove(ipaddress.ip_network(old), ipaddress.ip_network(new))
    return [(h.old, h.refused) for h in except_hits(text.encode(), [move])]


BLOCK = "- ipBlock:\n    cidr: 10.0.48.0/24\n    except:\n      - 10.0.48.0/25\n      - 10.0.48.200/29\n"
FLOW = '{"cidr": "10.0.48.0/24", "except": ["10.0.48.0/25"]}\n'
FIRST = "- except: [10.0.48.0/25]\n  cidr: 10.0.48.0/24\n"


def test_an_except_covering_the_new_cidr() -> None:
    assert _hits("10.0.48.0/24", "10.0.48.0/25", BLOCK) == [("10.0.48.0/25", TOOL)]
    assert _hits("10.0.48.0/24", "10.0.48.0/25", FLOW) == [("10.0.48.0/25", TOOL)]
    assert _hits("10.0.48.0/24", "10.0.48.0/25", FIRST) == [("10.0.48.0/25", TOOL)]
    # the except lands on the new cidr by its offset
    assert _hits("10.0.48.0/24", "10.0.60.0/25", BLOCK) == [("10.0.48.0/25", TOOL)]


def test_an_except_left_inside_or_another_cidr() -> None:
    assert _hits("10.0.48.0/24", "10.0.48.0/22", BLOCK) == []  # a grow
    assert _hits("10.0.48.0/24", "10.0.48.0/25", BLOCK.replace("/25", "/26")) == []
    assert _hits("10.1.0.0/24", "10.1.0.0/25", BLOCK) == []  # another network moves
    # an except in another mapping than the cidr's names nothing of it
    other = "- ipBlock:\n    cidr: 10.0.48.0/24\n- other:\n    except:\n      - 10.0.48.0/25\n"
    assert _hits("10.0.48.0/24", "10.0.48.0/25", other) == []


def test_a_flow_mapping_reads_its_own_line_only() -> None:
    text = FLOW + "- 10.0.48.0/25\n"
    assert _hits("10.0.48.0/24", "10.0.48.0/25", text) == [("10.0.48.0/25", TOOL)]
    assert _hits("10.0.48.0/24", "10.0.48.0/25", FLOW.replace("/25", "/27") + "- 10.0.48.0/25\n") == []


# t32-33 findings 01 and 02: an indentless list, Calico's notNets, Istio's notIpBlocks
INDENTLESS = "    - ipBlock:\n        cidr: 10.0.48.0/24\n        except:\n        - 10.0.48.0/25\n        - 10.9.0.0/29\n"


def test_an_indentless_except_list_is_read() -> None:
    assert _hits("10.0.48.0/24", "10.0.48.0/25", INDENTLESS) == [("10.0.48.0/25", TOOL)]
    first = "- ipBlock:\n    except:\n    - 10.0.48.0/25\n    cidr: 10.0.48.0/24\n"
    assert _hits("10.0.48.0/24", "10.0.48.0/25", first) == [("10.0.48.0/25", TOOL)]
    assert _hits("10.0.48.0/24", "10.0.48.0/22", INDENTLESS) == []  # a grow
    assert _hits("10.0.48.0/24", "10.0.48.0/25", INDENTLESS.replace("/25", "/26")) == []  # inside
    # the next item of the outer list is no entry of the except
    sibling = "- cidr: 10.0.48.0/24\n  except:\n  - 10.0.48.128/26\n- 10.0.48.0/25\n"
    assert _hits("10.0.48.0/24", "10.0.48.0/25", sibling) == []


@pytest.mark.parametrize(("old", "new", "text"), [
    ("10.0.48.0/24", "10.0.48.0/25", "nets: [10.0.48.0/24]\nnotNets: [10.0.48.0/25]\n"),
    ("10.0.48.0/23", "10.0.48.0/24", "nets:\n- 10.0.48.0/23\n- 10.9.0.0/16\nnotNets:\n- 10.0.48.0/24\n"),
    ("2001:db8:a::/48", "2001:db8:a::/56",
     'remoteIpBlocks: ["2001:db8:a::/48"]\nnotRemoteIpBlocks: ["2001:db8:a::/56"]\n'),
    ("10.0.48.0/24", "10.0.60.0/25", '{"ipBlocks": ["10.0.48.0/24"], "notIpBlocks": ["10.0.48.0/25"]}\n'),
    ("10.0.48.0/24", "10.0.48.0/25", "not_nets: [10.0.48.0/25]\nnets: [10.0.48.0/24]\n"),
    # AWS IAM: `NotIpAddress` beside `IpAddress` in one Condition (both must hold)
    ("10.0.48.0/24", "10.0.48.0/25", '{\n  "IpAddress": {\n    "aws:SourceIp": ["10.0.48.0/24"]\n  },\n'
     '  "NotIpAddress": {\n    "aws:SourceIp": "10.0.48.0/25"\n  }\n}\n'),
    ("10.0.48.0/24", "10.0.48.0/25", '{"IpAddress": {"aws:SourceIp": "10.0.48.0/24"}, '
     '"NotIpAddress": {"aws:SourceIp": "10.0.48.0/25"}}\n'),
])
def test_a_not_key_excludes_from_its_key(old: str, new: str, text: str) -> None:
    found = _hits(old, new, text)
    assert [refused for _, refused in found] == [TOOL], found


HCL = ('resource "kubernetes_network_policy" "lan" {\n  spec {\n    ingress {\n      from {\n        ip_block {\n'
       '          cidr   = "10.0.48.0/24"\n          except = ["10.0.48.0/25"]\n        }\n      }\n    }\n  }\n}\n')
KUBECTL_JSON = ('{\n    "ipBlock": {\n        "cidr": "10.0.48.0/24",\n        "except": [\n            "10.0.48.0/25"\n'
                '        ]\n    }\n}\n')


def test_hcl_and_multi_line_json() -> None:
    assert _hits("10.0.48.0/24", "10.0.48.0/25", HCL) == [("10.0.48.0/25", TOOL)]
    assert _hits("10.0.48.0/24", "10.0.48.0/22", HCL) == []
    assert _hits("10.0.48.0/24", "10.0.48.0/25", KUBECTL_JSON) == [("10.0.48.0/25", TOOL)]


def test_a_not_key_beside_another_key_or_a_word_is_none() -> None:
    assert _hits("10.0.48.0/24", "10.0.48.0/25", "cidrs: [10.0.48.0/24]\nnotNets: [10.0.48.0/25]\n") == []
    assert _hits("10.0.48.0/24", "10.0.48.0/25", "notes: 10.0.48.0/25\nes: 10.0.48.0/24\n") == []
    # a flow mapping's value ends at its comma: the cidr after the except is not an entry of it
    assert _hits("10.0.48.0/24", "10.0.48.0/22", '{"except": ["10.0.48.0/25"], "cidr": "10.0.48.0/24"}\n') == []
