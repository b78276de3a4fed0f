"""Fixtures the host's tests share: an injected clock and a transport that records what is said."""

from __future__ import annotations

import pytest

from geniusbot.host.transport import RecordingTransport
from tests.host.support import FakeTime


@pytest.fixture
def clock() -> FakeTime:
    return FakeTime()


@pytest.fixture
def transport() -> RecordingTransport:
    return RecordingTransport()
