"""A host command whose COMMIT landed but whose answer was lost, the server away past the
retries (docs/host.md ruling 23), on PostgreSQL through the TCP proxy that cuts the COMMIT's
answer (``tests/host/pgcutter.py``). The host never says such a command changed nothing: it
says it does not know yet, finds the command by its key once the database answers, and
announces it (or says it was not saved). The same command again is answered as done already.
"""

from __future__ import annotations

import pytest

from geniusbot.host.commands import COMMAND_NOT_KNOWN_YET, DONE_ALREADY
from geniusbot.storage import Store

from .test_lost_commit import cutter, direct, gate, host, proxied, start  # noqa: F401 - fixtures

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


async def commands(store: Store, match_id: int) -> list[tuple[str, str | None]]:
    return [(a.text, a.key) for a in await store.actions(match_id, accepted_only=True) if a.kind == "command"]


async def test_a_pause_saved_but_unanswered_is_announced_once_the_database_is_back(
    host, transport, cutter, direct, gate
):
    match_id = await start(host)
    settled: list[int] = []
    host.subscribe(settled.append)
    transport.clear()
    cutter.cut_next_commit(lands=True)
    reply = await host.command(match_id, "pause", key="discord:7001")
    assert cutter.cut.is_set()
    assert (await commands(direct, match_id))[-1] == ("pause", "discord:7001")  # it landed
    assert reply.status == "unavailable" and reply.message == COMMAND_NOT_KNOWN_YET
    assert "nothing changed" not in reply.message and transport.room_texts() == []
    # The same interaction again while the database is away: still not known.
    assert (await host.command(match_id, "pause", key="discord:7001")).message == COMMAND_NOT_KNOWN_YET
    await gate.one_try()
    assert transport.room_texts() == [] and settled == []
    await cutter.come_back()
    gate.open()
    await host.confirmations()
    assert transport.room_texts() == ["The host's pause was saved after all; it stands.", "The host paused the match."]
    assert settled == [match_id]
    assert host.matches[match_id].status == "paused" and (await direct.get_match(match_id)).status == "paused"
    # The same interaction delivered again: done already, not done twice (nor refused as paused).
    transport.clear()
    again = await host.command(match_id, "pause", key="discord:7001")
    assert again.status == "rejected" and again.message == DONE_ALREADY
    assert transport.room_texts() == []
    assert [c for c in await commands(direct, match_id) if c[0] == "pause"] == [("pause", "discord:7001")]
    assert (await host.command(match_id, "resume", key="discord:7002")).ok
    assert (await direct.get_match(match_id)).status == "live"


async def test_a_pause_whose_commit_did_not_land_is_said_not_saved_once_that_is_known(
    host, transport, cutter, direct, gate
):
    match_id = await start(host)
    transport.clear()
    cutter.cut_next_commit(lands=False)
    reply = await host.command(match_id, "pause", key="discord:8001")
    assert reply.message == COMMAND_NOT_KNOWN_YET
    await cutter.come_back()
    gate.open()
    await host.confirmations()
    assert transport.room_texts() == ["The host's pause was not saved after all, so nothing changed; use pause again."]
    assert host.matches[match_id].status == "live"
    assert [c for c in await commands(direct, match_id) if c[0] == "pause"] == []
    assert (await host.command(match_id, "pause", key="discord:8002")).ok
    assert (await commands(direct, match_id))[-1] == ("pause", "discord:8002")


async def test_a_resignation_saved_but_unanswered_ends_the_match_once_found(host, transport, cutter, direct, gate):
    match_id = await start(host)
    transport.clear()
    cutter.cut_next_commit(lands=True)
    reply = await host.command(match_id, "resign", seat="p1", key="console:1:4")
    assert reply.message == COMMAND_NOT_KNOWN_YET
    # A move meanwhile is told what the bot waits for, and not taken.
    other = await host.submit(match_id, "p2", "H8", key="discord:9002")
    assert other.message == (
        "The bot is still waiting for its database to say whether the host's resign was saved, "
        "so that was not taken; send it again once the bot has said."
    )
    await cutter.come_back()
    gate.open()
    await host.confirmations()
    said = transport.room_texts()
    assert "The host's resign was saved after all; it stands." in said
    assert any("Result: bob (p2) wins. alice resigned." in text for text in said), said
    assert (await direct.get_match(match_id)).status == "finished"
