# ruff: noqa
# Correct; starts with `from __future__ import annotations` (must stay the first statement) and
# annotates with a class defined later. (red team rtk)
from __future__ import annotations

from dataclasses import dataclass


def f(x: int) -> int:
    return Box(x).bump().value


@dataclass
class Box:
    value: int

    def bump(self) -> Box:
        return Box(self.value + 1)
