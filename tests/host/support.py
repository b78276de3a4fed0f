"""What the host tests share: an injected clock that moves only when a test moves it."""

from __future__ import annotations

T0 = 1_800_000_000.0


class FakeTime:
    """Epoch seconds that move only when a test says so."""

    def __init__(self, start: float = T0) -> None:
        self.t = start

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> float:
        self.t += seconds
        return self.t
