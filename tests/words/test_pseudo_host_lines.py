"""The host's own lines in the pseudo-language: two games whose words are words as data
(Tic-Tac-Five and Arm's Length) played through the host, and every text the room and each seat
read, and every reply, is wholly inside the pseudo-language's brackets but for the players' names
and what is said as written (notation, command names, numbers). A line of the host's left in
English ("Match #1: ...") has letters outside the brackets and fails."""

from __future__ import annotations

import re

from geniusbot.conformance.hosted import SteppedTime, fire_due
from geniusbot.host.match import Host, Reply
from geniusbot.host.transport import Player, RecordingTransport
from geniusbot.storage import Store
from geniusbot.words import PSEUDO, unsaid

#: A letter: what may not stand outside the brackets.
_LETTER = re.compile(r"[^\W\d_]")

#: Lines of the host that honestly are not yet words as data, each named (none now).
EXCEPTIONS: tuple[str, ...] = ()


outside = unsaid


def assert_said(text: str) -> None:
    """Every word of ``text`` came from a message (or is a named exception)."""
    if any(exception in text for exception in EXCEPTIONS):
        return
    rest = outside(text)
    assert not _LETTER.search(rest), f"words outside the catalogue: {rest!r} in {text!r}"


def all_said(transport: RecordingTransport, replies: list[Reply]) -> list[str]:
    """Every text the room and the seats read, and every reply's sentence (a refusal's, a
    hint's, a status); each checked. A reply that takes an input carries data, not words (the
    move as the game wrote it, ``paused``), and is not checked."""
    texts = [sent.text for sent in transport.sent if sent.op != "delete"]
    texts += [reply.message for reply in replies if not reply.ok or reply.message.startswith("⟦")]
    for text in texts:
        assert_said(text)
    return texts


def test_the_check_finds_english():
    assert_said("⟦Ḿáţçĥ #1: ⟦Tic-Tac-Five⟧, alice (p1) ṽś bob (p2).⟧\n⟦Ţó ḿóṽé: alice (p1).⟧")
    for english in ("Match #1: ⟦...⟧", "⟦Ŕéśúĺţ⟧ Result", "alice (p1): ⟦...⟧"):
        try:
            assert_said(english)
        except AssertionError:
            continue
        raise AssertionError(f"{english!r} passed the check")


async def start(host: Host, game: str, clock: str) -> int:
    started = await host.start_match(
        game, players=[Player("p1", 1, "alice"), Player("p2", 2, "bob")], seed=3, clock=clock, channel_id=10
    )
    assert started.ok and started.match_id is not None, started
    return started.match_id


async def test_tic_tac_five_hosted_in_the_pseudo_language(store: Store):
    transport = RecordingTransport()
    clock = SteppedTime()
    host = Host(store, transport, boards=False, language=PSEUDO, now=clock)
    match_id = await start(host, "tictacfive", "20s+30s")
    replies: list[Reply] = []

    async def submit(seat: str, text: str, *, private: bool = False) -> Reply:
        reply = await host.submit(match_id, seat, text, private=private)
        replies.append(reply)
        return reply

    async def command(name: str, seat: str | None = None) -> Reply:
        reply = await host.command(match_id, name, seat=seat)
        replies.append(reply)
        return reply

    assert (await submit("p1", "H8")).ok
    refused = await submit("p2", "I9")  # not bob's turn: the game's refusal
    assert not refused.ok and refused.message
    wrong = await submit("p1", "I9", private=True)  # a room's move sent privately
    assert not wrong.ok and wrong.belongs_private is False
    for word in ("help", "status", "resign"):  # a command's name typed in the room: a hint
        hint = await host.room_move(match_id, "p1", word)
        replies.append(hint)
        assert hint.hint, word
    status = await command("status")
    assert status.ok and "Tic-Tac-Five" in status.message
    unknown = await command("help")  # not a host command: which are
    assert not unknown.ok and "'help'" in unknown.message
    assert (await command("pause")).ok
    assert not (await command("pause")).ok  # paused already
    paused = await submit("p1", "I9")
    assert not paused.ok
    replies.append(await command("status"))
    assert (await command("resume")).ok
    assert not (await command("resume")).ok  # not paused
    assert not (await command("close window")).ok  # no window runs
    # alice lets her clock run (20 s a move, then 30 s of reserve): the warnings, the reserve...
    for _ in range(9):
        clock.advance(5)
        await fire_due(host, clock)
    # ...and her move comes after her time is up, before its timer does.
    clock.advance(10)
    too_late = await submit("p1", "I9")
    assert not too_late.ok
    await fire_due(host, clock)
    live = await host.load(match_id)
    assert live is not None and live.game.is_over
    late = await submit("p1", "I9", private=True)  # to a finished match, privately
    assert not late.ok
    replies.append(await command("status"))
    assert not (await command("abort")).ok  # over already
    texts = all_said(transport, replies)
    said = "\n".join(texts)
    # The host's own lines came through the catalogue, the players and the notation as they are.
    assert "⟦Ḿáţçĥ #1: Tic-Tac-Five, ⟦alice (p1) ṽś bob (p2)⟧. Çĺóçķ: " in said
    assert "⟦Ţĥé ĥóśţ ṕáúśéđ ţĥé ḿáţçĥ; ţĥé çĺóçķś áŕé śţóṕṕéđ.⟧" in said
    assert "⟦Ţĥé ḿáţçĥ ĝóéś óñ.⟧" in said
    assert "⟦alice (p1) ŕáñ óúţ óƒ ţíḿé.⟧" in said
    assert "⟦alice (p1): ⟦Ţíḿé ŕáñ óúţ ƀéƒóŕé ţĥáţ ḿóṽé áŕŕíṽéđ; ţĥé ĝáḿé íś óṽéŕ.⟧⟧" in said
    assert "⟦alice (p1): ţĥé ḿóṽé ţíḿé íś úṕ; ñóŵ óñ ŕéśéŕṽé, 0:30 ĺéƒţ.⟧" in said
    assert "⟦Ŕéśúĺţ: " in said and "⟦Ţó ḿóṽé: " in said
    for word in ("Match", "paused", "goes on", "ran out of time", "Result", "To move", "use", "left"):
        assert not re.search(rf"(?<![\w⟦]){word}", outside(said)), word


async def test_arms_length_hosted_in_the_pseudo_language(store: Store):
    transport = RecordingTransport()
    clock = SteppedTime()
    host = Host(store, transport, boards=False, language=PSEUDO, now=clock)
    match_id = await start(host, "armslength", "none")
    replies: list[Reply] = []
    live = host.held(match_id)
    assert live is not None
    seat = live.game.to_move()[0]
    move = next(iter(live.game.legal_moves(seat)))
    replies.append(await host.submit(match_id, seat, move.text()))
    assert replies[-1].ok
    other = "p2" if seat == "p1" else "p1"
    replies.append(await host.submit(match_id, other, "Z99"))  # a refusal of the game's
    assert not replies[-1].ok
    replies.append(await host.submit(match_id, other, "A1", private=True))  # in the wrong place
    assert not replies[-1].ok
    replies.append(await host.command(match_id, "status"))
    replies.append(await host.command(match_id, "pause"))
    replies.append(await host.submit(match_id, other, "A1"))  # paused
    replies.append(await host.command(match_id, "resume"))
    replies.append(await host.command(match_id, "resign", seat=other))
    assert replies[-1].ok
    replies.append(await host.command(match_id, "status"))
    replies.append(await host.command(match_id, "resign", seat=other))  # over already
    texts = all_said(transport, replies)
    said = "\n".join(texts)
    assert "⟦Ḿáţçĥ #1: Arm's Length, ⟦alice (p1) ṽś bob (p2)⟧. Çĺóçķ: ⟦ñóñé⟧.⟧" in said
    assert "⟦Ŕéśúĺţ: " in said
