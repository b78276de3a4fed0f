"""The fake Discord's Components V2 against the real discord.py 2.7: a ``LayoutView`` message is
stored with its flag, components and attachments, edited with new ones, and a button inside its
container is clicked; what Discord refuses (text beside the flag, over 40 components or 4,000
characters of text, a media description over 1,024 characters, an ``attachment://`` naming no
file, an accent colour over 0xFFFFFF, taking the flag off) answers 400 50035 with the field's path."""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest
from discord.ext import commands

from tests.fakediscord import FakeDiscord
from tests.fakediscord.components import IS_COMPONENTS_V2, check_v2, of_type, texts
from tests.fakediscord.running import running

PNG = b"\x89PNG\r\n\x1a\nfake"


class CardBot(commands.Bot):
    """A bot the test drives itself; it answers the card's button."""

    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.01)
        self.pressed: list[str] = []

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        custom_id = (interaction.data or {}).get("custom_id", "")
        self.pressed.append(str(custom_id))
        await interaction.response.send_message("pressed", ephemeral=True)


def card(
    filename: str = "board.png", *, colour: int | None = 0xFFC400, text: str = "Match #1", alt: str = "a board"
) -> discord.ui.LayoutView:
    view = discord.ui.LayoutView(timeout=None)
    container: discord.ui.Container[Any] = discord.ui.Container(accent_colour=colour)
    container.add_item(discord.ui.TextDisplay(text))
    gallery: discord.ui.MediaGallery[Any] = discord.ui.MediaGallery()
    gallery.add_item(media=f"attachment://{filename}", description=alt)
    container.add_item(gallery)
    container.add_item(discord.ui.Separator())
    row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
    row.add_item(discord.ui.Button(label="Send privately", custom_id="gb:private:1"))
    container.add_item(row)
    view.add_item(container)
    return view


def png(name: str = "board.png") -> discord.File:
    return discord.File(io.BytesIO(PNG), filename=name)


async def refused(send: Any) -> dict[str, Any]:
    """The errors of a send the fake refuses as Discord does (400 50035)."""
    with pytest.raises(discord.HTTPException) as caught:
        await send
    assert caught.value.status == 400 and caught.value.code == 50035
    errors: dict[str, Any] = caught.value._errors  # type: ignore[attr-defined]
    return errors


def errors_at(errors: dict[str, Any], *path: str) -> list[dict[str, Any]]:
    for part in path:
        errors = errors[part]
    return list(errors["_errors"])


async def test_a_card_is_posted_edited_and_clicked() -> None:
    async with FakeDiscord() as fake:
        guild = fake.create_guild("The Genius")
        room = fake.create_channel(guild, "room")
        alice = fake.create_user("alice")
        fake.add_member(guild, alice)
        bot = CardBot()
        async with running(fake, bot):
            channel = bot.get_partial_messageable(room.id)
            sent = await channel.send(view=card(), file=png())
            [message] = [m for m in fake.messages(room) if m.id == sent.id]
            assert message.flags & IS_COMPONENTS_V2 and message.content == ""
            [container] = of_type(message.components, 17)
            assert container["accent_color"] == 0xFFC400
            [gallery] = of_type(message.components, 12)
            assert gallery["items"][0]["media"]["url"] == "attachment://board.png"
            assert gallery["items"][0]["description"] == "a board"
            assert texts(message.components) == ["Match #1"]
            assert fake.attachments(message) == [PNG]
            # discord.py reads the card back (its components as discord.py models them).
            assert isinstance(sent.components[0], discord.components.Container)
            # An edit replaces the picture and the words; the flag stays.
            view = card("board2.png", colour=0x141416, text="Match #1, move 2")
            await sent.edit(view=view, attachments=[png("board2.png")])
            assert message.edits == 1 and texts(message.components) == ["Match #1, move 2"]
            assert [a.filename for a in message.attachments] == ["board2.png"]
            assert of_type(message.components, 17)[0]["accent_color"] == 0x141416
            assert message.flags & IS_COMPONENTS_V2
            # The button inside the container is clicked as any other.
            pressed = await fake.click(alice, message, "gb:private:1")
            await fake.wait_for_response(pressed)
            assert bot.pressed == ["gb:private:1"]


async def test_what_discord_refuses_of_a_card() -> None:
    async with FakeDiscord() as fake:
        guild = fake.create_guild("The Genius")
        room = fake.create_channel(guild, "room")
        bot = CardBot()
        async with running(fake, bot):
            http = bot.http
            channel = bot.get_partial_messageable(room.id)
            # A media item names a file the message does not carry.
            errors = await refused(channel.send(view=card("other.png"), file=png()))
            [error] = errors_at(errors, "components", "0", "components", "1", "items", "0", "media", "url")
            assert error["code"] == "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND"
            # A description over 1,024 characters.
            errors = await refused(channel.send(view=card(alt="x" * 1025), file=png()))
            assert errors_at(errors, "components", "0", "components", "1", "items", "0", "description")
            # Over 4,000 characters of text in all.
            errors = await refused(channel.send(view=card(text="y" * 4001), file=png()))
            assert errors_at(errors, "components")[0]["code"] == "COMPONENT_LAYOUT_TEXT_LENGTH_EXCEEDED"
            # Raw payloads discord.py would not build: over 40 components (nested ones counted),
            # content beside the flag, a colour past 0xFFFFFF.
            route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=room.id)
            text = {"type": 10, "content": "hi"}
            box = {"type": 17, "components": [text] * 40}
            errors = await refused(http.request(route, json={"flags": IS_COMPONENTS_V2, "components": [box]}))
            assert errors_at(errors, "components")[0]["code"] == "BASE_TYPE_MAX_LENGTH"
            errors = await refused(
                http.request(route, json={"flags": IS_COMPONENTS_V2, "content": "hi", "components": [text]})
            )
            assert errors_at(errors, "content")[0]["code"] == "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"
            loud = {"type": 17, "accent_color": 0x1000000, "components": [text]}
            errors = await refused(http.request(route, json={"flags": IS_COMPONENTS_V2, "components": [loud]}))
            assert errors_at(errors, "components", "0", "accent_color")
            # Nothing refused was stored.
            assert fake.messages(room) == []
            # An edit cannot put text back on a card, nor take its flag off.
            sent = await channel.send(view=card(), file=png())
            errors = await refused(sent.edit(content="plain again"))
            assert errors_at(errors, "content")
            [message] = fake.messages(room)
            await http.request(
                discord.http.Route(
                    "PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=room.id, message_id=sent.id
                ),
                json={"flags": 0},
            )
            assert message.flags & IS_COMPONENTS_V2


def test_a_plain_card_passes_the_check() -> None:
    from tests.fakediscord.model import FakeAttachment

    attachment = FakeAttachment(id=1, filename="b.png", data=PNG, url="http://x/b.png")
    payload = {"components": card("b.png").to_components()}
    check_v2(payload, [attachment])


def test_sections_files_and_nesting_are_checked_as_discord_does() -> None:
    from tests.fakediscord.components import FormError
    from tests.fakediscord.model import FakeAttachment

    files = [FakeAttachment(id=1, filename="b.png", data=PNG, url="http://x/b.png")]
    text = {"type": 10, "content": "hi"}
    thumb = {"type": 11, "media": {"url": "attachment://b.png"}, "description": "a board"}
    section = {"type": 9, "components": [text], "accessory": thumb}
    check_v2({"components": [section, {"type": 13, "file": {"url": "attachment://b.png"}}]}, files)

    def refusal(components: list[dict[str, Any]]) -> FormError:
        with pytest.raises(FormError) as caught:
            check_v2({"components": components}, files)
        return caught.value

    assert refusal([{"type": 9, "components": [text]}]).path == ("components", "0", "accessory")
    assert refusal([{"type": 9, "components": [text] * 4, "accessory": thumb}]).code == "BASE_TYPE_BAD_LENGTH"
    inner = {"type": 17, "components": [text]}
    assert refusal([{"type": 17, "components": [inner]}]).path == ("components", "0", "components", "0", "type")
    web = {"type": 13, "file": {"url": "https://example.com/b.png"}}
    assert refusal([web]).code == "UNFURLED_MEDIA_ITEM_ATTACHMENT_ONLY"
    assert refusal([]).code == "BASE_TYPE_REQUIRED"
    # The error object nests the path as Discord's does.
    assert refusal([{"type": 10, "content": ""}]).errors() == {
        "components": {
            "0": {"content": {"_errors": [{"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}]}}
        }
    }
