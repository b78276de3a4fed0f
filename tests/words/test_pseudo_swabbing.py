"""Deck Swabbing in the pseudo-language through the host: its lines (the board, the prompts with
Hook and Snipe, the sealed moves and answers, each move with its snipe and score, the ending) and
its refusals, in the room and by direct message, are its messages, bracketed and accented, the
players named; none of its English reaches a player around the catalogue. (The host's own lines,
"Match #1: ...", "Taken: ...", are still English.)"""

from __future__ import annotations

from geniusbot.storage import Store
from tests.words.hosting import pseudo_match

#: English words of Deck Swabbing's lines that must never reach a player as such.
ENGLISH = (
    "the board is all white",
    "your move",
    "side-by-side",
    "colours",
    "sniped",
    "Score",
    "Hook",
    "has sent their move",
    "has answered",
    "direct message",
    "resigned",
    "wins the task",
    "your own move",
)


async def test_deck_swabbing_is_said_in_the_pseudo_language(store: Store):
    host, transport, started = await pseudo_match(
        store, "swabbing", seed=7, clock="none", options={"anomalies": "hook, snipe"}
    )
    match_id = started.match_id
    refused = await host.submit(match_id, "p1", "C3 C4")  # in the room: with Snipe, moves are sealed
    assert not refused.ok and refused.message.startswith("⟦Śéñđ ýóúŕ ḿóṽé ţó ḿé ƀý đíŕéçţ ḿéśśáĝé")
    assert (await host.submit(match_id, "p1", "C3 C4", private=True)).ok
    assert (await host.submit(match_id, "p2", "snipe C3", private=True)).ok
    refused = await host.submit(match_id, "p2", "snipe D4", private=True)  # bob moves now: no snipe
    assert not refused.ok
    own = "⟦Íţ íś ýóúŕ óŵñ ḿóṽé: ýóú śñíṕé óñĺý óñ ýóúŕ óṕṕóñéñţ'ś ţúŕñ. ⟦Ñáḿé ţŵó śíđé-ƀý-śíđé ŵĥíţé ţíĺéś, śúçĥ áś A3 B3.⟧⟧"
    assert refused.message == own
    assert (await host.submit(match_id, "p2", "C5 D5", private=True)).ok
    assert (await host.submit(match_id, "p1", "snipe none", private=True)).ok
    refused = await host.submit(match_id, "p2", "B5 C5", private=True)  # alice's move: bob may only snipe
    assert not refused.ok
    assert (await host.command(match_id, "resign", seat="p2")).ok
    said = "\n".join(transport.room_texts())
    assert "⟦Đéçķ Śŵáƀƀíñĝ: ţĥé ƀóáŕđ íś áĺĺ ŵĥíţé.⟧" in said
    assert (
        "⟦⟦alice: ýóúŕ ḿóṽé; ⟦ñáḿé ţŵó śíđé-ƀý-śíđé ŵĥíţé ţíĺéś, śúçĥ áś C3 C4.⟧⟧ ⟦Śéñđ íţ ţó ḿé ƀý đíŕéçţ "
        "ḿéśśáĝé. bob: ýóú ḿáý śñíṕé á ŵĥíţé ţíĺé ƀý đíŕéçţ ḿéśśáĝé (snipe D4, óŕ snipe none).⟧⟧" in said
    )
    assert "⟦alice ĥáś śéñţ ţĥéíŕ ḿóṽé.⟧" in said and "⟦bob ĥáś áñśŵéŕéđ.⟧" in said
    assert (
        "⟦⟦⟦alice çóĺóúŕś C3 C4 ƀĺáçķ.⟧ ⟦bob śñíṕéđ C3, óñé óƒ ţĥé śáḿé ţíĺéś, śó ţĥé śñíṕé çĥáñĝéś ñóţĥíñĝ.⟧⟧ "
        "⟦Śçóŕé: alice 0, bob 0 ţíĺéś.⟧⟧" in said
    )
    assert "⟦Ĥóóķ: ţóúçĥ óñé óƒ C3 C4.⟧" in said
    assert "⟦⟦⟦bob çóĺóúŕś C5 D5 ƀĺáçķ.⟧ ⟦alice śñíṕéđ ñóţĥíñĝ.⟧⟧ ⟦Śçóŕé: alice 0, bob 0 ţíĺéś.⟧⟧" in said
    assert "⟦⟦bob ŕéśíĝñéđ; alice ŵíñś ţĥé ţáśķ⟧.⟧" in said
    assert "alice (p1): ⟦Śéñđ ýóúŕ ḿóṽé ţó ḿé ƀý đíŕéçţ ḿéśśáĝé" in said
    # The refusals of direct messages are answered by direct message, in the same words.
    dms = transport.private_texts("p2")
    assert own in dms
    assert (
        "⟦Íţ íś alice'ś ḿóṽé; óñ ţĥéíŕ ţúŕñ ýóú ḿáý óñĺý śñíṕé: śéñđ ḿé snipe D4 (á ŵĥíţé ţíĺé) óŕ snipe none ƀý "
        "đíŕéçţ ḿéśśáĝé.⟧" in dms
    )
    heard = said + "\n" + "\n".join(transport.private_texts("p1") + dms)
    for word in ENGLISH:
        assert word not in heard, f"{word!r} reached a player without the catalogue"
