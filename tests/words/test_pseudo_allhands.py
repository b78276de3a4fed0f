"""All Hands On Deck's own lines in the pseudo-language, through the host: the match's opening
(its items), each play's announcement, the Override and ban questions, the bans, the All-In
answers, the score after each play and the ending are its messages, bracketed and accented with
the players' names; none of its English reaches the room or a DM around the catalogue. (The
tasks' own lines are their games' words: those are converted on their own.)"""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime

from geniusbot.games.allhands.final import AllHandsOnDeck, AllHandsOnDeckEvent, Pass
from geniusbot.games.base import EventKind, GameError
from geniusbot.host.match import Host
from geniusbot.host.transport import Player, RecordingTransport
from geniusbot.storage import Store
from geniusbot.words import PSEUDO

#: English of the final match's own lines that must never reach the room or a DM as such.
ENGLISH = (
    "Items:",
    "three tasks, five times each",
    "its 1st play",
    "its 2nd play",
    "ban an anomaly of",
    "to go), such as",
    "use your Override",
    "use your All-In",
    "has sent an All-In answer",
    "Your answer is in",
    "uses All-In",
    "Nobody uses All-In",
    "and scores",
    "nobody scores",
    "The active anomal",
    "passes on the Override",
    "is banned for them",
    "resigned the match",
    "wins All Hands On Deck",
)

ITEMS = "p1 all-in override; p2 all-in clock"


async def test_the_final_match_is_said_in_the_pseudo_language(store: Store):
    transport = RecordingTransport()
    host = Host(store, transport, boards=False, language=PSEUDO)
    players = [Player("p1", 1, "alice"), Player("p2", 2, "bob")]
    started = await host.start_match("allhands", players=players, seed=4, clock="none", options={"items": ITEMS})
    assert started.ok and started.match_id is not None
    rng = random.Random(4)
    # Play on to the second play of Dueling Decks (play 5): the Override used in play 4, passed on
    # in play 5, then banned from the five until one remains.
    while (live := host.held(started.match_id)) is not None and live.game.view(None)["play"] < 6:
        game = live.game
        movers = game.to_move()
        if not movers or (game.window() is not None and rng.random() < 0.5):
            far = datetime(2100, 1, 1, tzinfo=UTC)
            timers = await store.due_timers(far)
            assert timers, "a window with nobody to move and no timer"
            for timer in timers:
                await host.on_timer(timer)
                await store.delete_timer(timer.id)
            continue
        seat = movers[0]
        move = rng.choice(list(itertools.islice(game.legal_moves(seat), 60)))
        if game.view(None)["play"] == 5 and game.view(None)["phase"] == "override":
            move = Pass(seat)
        reply = await host.submit(started.match_id, seat, move.text(), private=game.is_private(move))
        assert reply.ok, reply.message
    assert (await host.command(started.match_id, "resign", seat="p2")).ok
    room = "\n".join(transport.room_texts())
    dms = "\n".join(transport.private_texts("p1") + transport.private_texts("p2"))
    # The opening: the items of each seat, a list of phrases, the seats named.
    assert (
        "⟦Áĺĺ Ĥáñđś Óñ Đéçķ: ţĥŕéé ţáśķś, ƒíṽé ţíḿéś éáçĥ; ţĥé ķ-ţĥ ṕĺáý óƒ á ţáśķ íś ŵóŕţĥ ķ ṕóíñţś áñđ ţĥé "
        "ƒíŕśţ ţó 23 ŵíñś. Íţéḿś: ⟦⟦alice: ⟦áĺĺ-íñ⟧⟦, ⟧⟦óṽéŕŕíđé⟧⟧; ⟦bob: ⟦áĺĺ-íñ⟧⟦, ⟧⟦çĺóçķ⟧⟧⟧.⟧" in room
    )
    assert "⟦Ṕĺáý 1 óƒ 15: ⟦Ţíĺé Đéçķĺáŕáţíóñ⟧, íţś ⟦1śţ⟧ ṕĺáý, ŵóŕţĥ 1 ṕóíñţ.⟧" in room
    assert "⟦Ṕĺáý 4 óƒ 15: ⟦Ţíĺé Đéçķĺáŕáţíóñ⟧, íţś ⟦2ñđ⟧ ṕĺáý, ŵóŕţĥ 2 ṕóíñţś.⟧" in room
    # Each play's score, the seats named; the All-In question to both holders, and their answers.
    assert "⟦alice ŵíñś ṕĺáý 1 (⟦Ţíĺé Đéçķĺáŕáţíóñ⟧)" in room or "⟦bob ŵíñś ṕĺáý 1 (⟦Ţíĺé Đéçķĺáŕáţíóñ⟧)" in room
    assert "Śçóŕé: alice 3, bob 0.⟧" in room
    # The Override, a question and its use, the count picking the form; then the bans.
    assert "⟦alice: úśé ýóúŕ Óṽéŕŕíđé ƒóŕ ţĥíś ṕĺáý (⟦2 úśéś ĺéƒţ⟧)? Ĥáñđ-ṕíçķ 1 áñóḿáĺý" in room
    assert "⟦alice úśéś ţĥé Óṽéŕŕíđé (⟦1 úśé ĺéƒţ⟧): ţĥé áçţíṽé áñóḿáĺý íś ⟦" in room
    assert "⟦alice ṕáśśéś óñ ţĥé Óṽéŕŕíđé.⟧" in room
    assert "⟦alice: ƀáñ áñ áñóḿáĺý óƒ ⟦Đúéĺíñĝ Đéçķś⟧ (4 ƀáñś ţó ĝó), śúçĥ áś ban backup. Óṕéñ: ⟦ƀáçķúṕ⟧⟦, ⟧" in room
    assert "⟦bob ƀáñś ⟦" in room
    assert "⟦⟦alice áñđ bob⟧: úśé ýóúŕ Áĺĺ-Íñ óñ ţĥíś ṕĺáý" in room
    assert "ĥáś śéñţ áñ Áĺĺ-Íñ áñśŵéŕ.⟧" in room
    # The ending: the game's own sentence.
    assert "⟦bob ŕéśíĝñéđ ţĥé ḿáţçĥ; alice ŵíñś Áĺĺ Ĥáñđś Óñ Đéçķ⟧" in room
    for word in ENGLISH:
        assert word not in room and word not in dms, f"{word!r} reached a player without the catalogue"


def test_the_final_matchs_own_events_and_refusals_are_messages():
    """What ``geniusbot check allhands``'s words check asks of the final match's own lines (the
    running tasks' lines are theirs): every event of its own and every refusal between plays."""
    for seed in range(6):
        rng = random.Random(seed)
        game = AllHandsOnDeck.new(seed=seed, items="p1 all-in override; p2 all-in override clock")
        events = list(game.opening_events())
        for _ in range(400):
            if game.is_over:
                break
            if game.phase != "task":
                for text in ("", "zz99", "ban chain", "use override hook", "use all-in", "pass", "ban zz"):
                    for seat in ("p1", "p2"):
                        for private in (False, True):
                            try:
                                game.parse_move(text, seat, private=private)
                            except GameError as error:
                                if "not your turn; waiting for" in str(error):
                                    continue  # the rules API's own refusal (Game.require_turn)
                                assert error.said is not None, str(error)
            movers = game.to_move()
            if not movers:
                events += game.close_window()
                continue
            seat = rng.choice(movers)
            moves = list(itertools.islice(game.legal_moves(seat), 40))
            events += game.timeout(seat) if not moves or rng.random() < 0.02 else game.play(rng.choice(moves))
        events += game.resign("p1")
        for event in events:
            # The match's own: its kinds (a task's kinds may share their values), a play's
            # announcement, a timed-out ban or Override question, the end.
            own = isinstance(event.kind, AllHandsOnDeckEvent) and event.kind is not AllHandsOnDeckEvent.TASK_END
            own |= event.kind is EventKind.BOUT and "clock" in event.data
            own |= event.kind is EventKind.TIMEOUT and ("anomaly" in event.data or "used" in event.data)
            if event.text and (own or event.kind is EventKind.END):
                assert event.said is not None, event.text
        assert game.outcome() is not None and game.outcome().said is not None
