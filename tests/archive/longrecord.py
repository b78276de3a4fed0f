"""A long Tightwire record, every line accepted: the opening of :mod:`tests.host.longmatch`, then
each side walking one piece back and forth, and a resignation that ends it."""

from __future__ import annotations

from tests.host.longmatch import shuttle_moves


def long_record(moves: int) -> str:
    """The record text of ``moves`` legal moves and p2's resignation (``moves`` + 2 steps)."""
    lines = ['[Game "tightwire"]', '[Variant "classic"]', '[Seed "0"]', '[P1 "alice"]', '[P2 "bob"]', ""]
    lines += [f"{seat}: {text}" for seat, text in shuttle_moves(moves)]
    lines.append("host: resign p2")
    return "\n".join(lines) + "\n"
