"""What the host tests share: an injected clock that moves only when a test moves it, and a store
whose commits can be made to fail."""

from __future__ import annotations

from geniusbot.storage import StorageUnavailable, Store

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


class DownStore(Store):
    """A real store whose commits fail while ``down`` is true (the database is away)."""

    down = False

    async def commit_action(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        if self.down:
            raise StorageUnavailable("The database is unavailable; try again.")
        return await super().commit_action(*args, **kwargs)
