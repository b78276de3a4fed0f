"""Tile Decklaration in the pseudo-language through the host: its lines (the grid's window, the
landmine window, the calls and declarations, a mine that goes off, the ending) and its refusals,
in the room and by direct message, are its messages, bracketed and accented, the players named;
none of its English reaches a player around the catalogue. (The host's own lines, "Match #1: ...",
"Taken: ...", are still English.)"""

from __future__ import annotations

from geniusbot.games.allhands.tiles import CENTRE, adjacent
from geniusbot.storage import Store
from tests.words.hosting import pseudo_match

#: English words of Tile Decklaration's lines that must never reach a player as such.
ENGLISH = (
    "Memorize",
    "hidden",
    "Landmine",
    "placed their mines",
    "call a colour",
    "calls",
    "declare",
    "held a landmine",
    "must move again",
    "wins the task",
    "is never called",
    "direct message",
    "is not a move",
)


async def test_tile_decklaration_is_said_in_the_pseudo_language(store: Store):
    host, transport, started = await pseudo_match(
        store, "tiles", seed=7, clock="none", options={"anomalies": "chain, landmine"}
    )
    match_id = started.match_id
    live = host.held(match_id)
    assert live is not None
    game = live.game
    # A red tile next to the black centre, for bob to declare; alice mines it.
    red = next(str(p) for p, c in game.grid.items() if c == "red" and adjacent(p, CENTRE))
    mines = f"mines {red} A1 A2 A3 A4"
    assert (await host.command(match_id, "close window")).ok
    refused = await host.submit(match_id, "p1", mines)  # in the room: mines go by DM
    assert not refused.ok and refused.message == "⟦Śéñđ ţĥíś ţó ḿé ƀý đíŕéçţ ḿéśśáĝé, ñóţ íñ ţĥé ĝáḿé ŕóóḿ.⟧"
    refused = await host.submit(match_id, "p2", "mines A1 A1 B2 C3 E6", private=True)
    assert not refused.ok
    assert refused.message == "⟦Ýóúŕ ḿíñéś ḿúśţ ƀé óñ ƒíṽé đíƒƒéŕéñţ ţíĺéś; śéñđ ţĥéḿ áĝáíñ ŵíţĥóúţ ŕéṕéáţś.⟧"
    assert (await host.submit(match_id, "p1", mines, private=True)).ok
    assert (await host.submit(match_id, "p2", "mines G1 G2 G3 G4 G5", private=True)).ok
    refused = await host.submit(match_id, "p1", "call black")
    assert not refused.ok and refused.message.startswith("⟦Ɓĺáçķ íś ñéṽéŕ çáĺĺéđ; çáĺĺ óñé óƒ: ⟦ŕéđ⟧")
    assert (await host.submit(match_id, "p1", "call red")).ok
    assert (await host.submit(match_id, "p2", f"{red} blue")).ok  # alice's mine: bob moves again
    refused = await host.submit(match_id, "p2", "zz#")
    assert not refused.ok and refused.message.startswith("⟦'zz#' íś ñóţ á ḿóṽé; ⟦ŵŕíţé á ţíĺé áñđ á çóĺóúŕ (D5 blue)")
    assert (await host.submit(match_id, "p2", "D4 green")).ok  # the black centre: bob loses
    assert game.is_over
    said = "\n".join(transport.room_texts())
    assert "⟦Ḿéḿóŕíźé ţĥé ĝŕíđ: íţ íś śĥóŵñ ƒóŕ 30 śéçóñđś, ţĥéñ ĥíđđéñ ƒóŕ ĝóóđ. Ñó ñóţéś!⟧" in said
    assert "⟦Ḿéḿóŕíźíñĝ íś óṽéŕ: ţĥé ĝŕíđ íś ĥíđđéñ.⟧" in said
    assert "⟦Ĺáñđḿíñé: ýóú ĥáṽé 30 śéçóñđś ţó śéñđ ḿé ƒíṽé đíƒƒéŕéñţ ţíĺéś ƀý đíŕéçţ ḿéśśáĝé, śúçĥ áś mines" in said
    assert "⟦alice ĥáś ṕĺáçéđ ţĥéíŕ ḿíñéś.⟧" in said and "⟦bob ĥáś ṕĺáçéđ ţĥéíŕ ḿíñéś.⟧" in said
    assert "⟦alice: çáĺĺ á çóĺóúŕ ƒóŕ bob, śúçĥ áś call red.⟧" in said
    assert "⟦alice çáĺĺś ⟦ŕéđ⟧ ƒóŕ bob.⟧" in said
    assert "⟦bob: đéçĺáŕé ⟦á ŕéđ ţíĺé⟧ ñéxţ ţó D4 áñđ çáĺĺ á çóĺóúŕ.⟧" in said
    assert f"⟦bob đéçĺáŕéđ {red}: ⟦ŕéđ⟧. bob çáĺĺś ⟦ƀĺúé⟧.⟧" in said
    assert f"⟦{red} ĥéĺđ á ĺáñđḿíñé (alice'ś)! bob ḿúśţ ḿóṽé áĝáíñ: đéçĺáŕé ⟦á ƀĺúé ţíĺé⟧ áñđ çáĺĺ á çóĺóúŕ.⟧" in said
    # The ending: what bob did, and who wins, in one sentence of messages.
    assert "⟦⟦⟦bob đéçĺáŕéđ D4 áś ⟦ƀĺúé⟧, ƀúţ íţ íś ⟦ƀĺáçķ⟧.⟧ alice ŵíñś ţĥé ţáśķ⟧.⟧" in said
    # The refusals said in the room name their player, in the host's label form.
    assert "alice (p1): ⟦Ɓĺáçķ íś ñéṽéŕ çáĺĺéđ" in said
    # A refusal of a direct message is answered by direct message, in the same words.
    dms = transport.private_texts("p2")
    assert "⟦Ýóúŕ ḿíñéś ḿúśţ ƀé óñ ƒíṽé đíƒƒéŕéñţ ţíĺéś; śéñđ ţĥéḿ áĝáíñ ŵíţĥóúţ ŕéṕéáţś.⟧" in dms
    heard = said + "\n" + "\n".join(transport.private_texts("p1") + dms)
    for word in ENGLISH:
        assert word not in heard, f"{word!r} reached a player without the catalogue"
