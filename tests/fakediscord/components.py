"""Components V2, as Discord checks a message that carries the IS_COMPONENTS_V2 flag (``1 << 15``).

Discord's documentation (components reference, "Using message components"): with the flag a
message has no ``content``, ``embeds``, ``poll`` or ``sticker_ids``; its components are layout and
content components (action row 1, button 2, section 9, text display 10, thumbnail 11, media
gallery 12, file 13, separator 14, container 17; selects 3, 5-8 in action rows), at most 40 of them
counting the nested ones, with at most 4,000 characters of text display content in all; a media
item's description holds at most 1,024 characters; an ``attachment://name`` reference must name a
file of the message; a container's ``accent_color`` is an RGB integer (at most ``0xFFFFFF``).
Once a message has the flag, an edit cannot take it off. Each refusal is Discord's 400 50035
"Invalid Form Body" with the path of the faulty field, as :func:`check_v2` raises it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .model import FakeAttachment

#: The message flag of a Components V2 message.
IS_COMPONENTS_V2 = 1 << 15
ACTION_ROW, BUTTON, SECTION, TEXT_DISPLAY, THUMBNAIL, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = (
    1,
    2,
    9,
    10,
    11,
    12,
    13,
    14,
    17,
)
SELECTS = frozenset({3, 5, 6, 7, 8})
#: Components a message may hold at its top level with the flag (a container's children: all but a container).
TOP_LEVEL = frozenset({ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER})
MAX_COMPONENTS = 40
MAX_TEXT = 4000
MAX_MEDIA_DESCRIPTION = 1024
MAX_GALLERY_ITEMS = 10
MAX_ACCENT = 0xFFFFFF
#: The fields a Components V2 message may not use.
LEGACY_FIELDS = ("content", "embeds", "poll", "sticker_ids")


class FormError(Exception):
    """A field Discord refuses: ``path`` to it in the payload, and Discord's error code and message."""

    def __init__(self, path: Iterable[str | int], code: str, message: str) -> None:
        super().__init__(message)
        self.path = tuple(str(p) for p in path)
        self.code = code
        self.message = message

    def errors(self) -> dict[str, Any]:
        """Discord's nested ``errors`` object: the path, then ``_errors``."""
        tree: dict[str, Any] = {"_errors": [{"code": self.code, "message": self.message}]}
        for part in reversed(self.path):
            tree = {part: tree}
        return tree


def check_v2(payload: dict[str, Any], attachments: list[FakeAttachment]) -> None:
    """Refuse (:class:`FormError`) a Components V2 message Discord would refuse: ``payload`` as
    sent (its ``components``), ``attachments`` the files it will carry."""
    for name in LEGACY_FIELDS:
        if payload.get(name):
            raise FormError(
                [name],
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                f"The '{name}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            )
    components = payload.get("components") or []
    if not components:
        raise FormError(["components"], "BASE_TYPE_REQUIRED", "This field is required")
    names = {a.filename for a in attachments}
    tally = {"count": 0, "text": 0}
    for index, component in enumerate(components):
        _check(component, ["components", index], TOP_LEVEL, names, tally)
    if tally["count"] > MAX_COMPONENTS:
        raise FormError(
            ["components"], "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_COMPONENTS} or fewer in length (nested included)."
        )
    if tally["text"] > MAX_TEXT:
        raise FormError(
            ["components"],
            "COMPONENT_LAYOUT_TEXT_LENGTH_EXCEEDED",
            f"The text of the components must be {MAX_TEXT} or fewer in length.",
        )


def _reference(url: Any, path: list[str | int], names: set[str]) -> None:
    """A media ``url``: an ``attachment://`` one must name one of the message's files."""
    if not isinstance(url, str) or not url:
        raise FormError(path, "BASE_TYPE_REQUIRED", "This field is required")
    if url.startswith("attachment://") and url[len("attachment://") :] not in names:
        raise FormError(path, "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND", "Attachment not found in the message.")
    if not url.startswith(("attachment://", "http://", "https://")):
        raise FormError(path, "URL_TYPE_INVALID_URL", "Not a well formed URL.")


def _check(
    component: Any, path: list[str | int], allowed: frozenset[int], names: set[str], tally: dict[str, int]
) -> None:
    if not isinstance(component, dict):
        raise FormError(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
    kind = component.get("type")
    if kind not in allowed:
        raise FormError(
            [*path, "type"], "UNION_TYPE_CHOICES", f'Value of field "type" must be one of {sorted(allowed)}.'
        )
    tally["count"] += 1
    if kind == TEXT_DISPLAY:
        content = component.get("content")
        if not isinstance(content, str) or not content:
            raise FormError([*path, "content"], "BASE_TYPE_REQUIRED", "This field is required")
        tally["text"] += len(content)
    elif kind == CONTAINER:
        accent = component.get("accent_color")
        if accent is not None and (
            not isinstance(accent, int) or isinstance(accent, bool) or not 0 <= accent <= MAX_ACCENT
        ):
            raise FormError(
                [*path, "accent_color"], "NUMBER_TYPE_MAX", f"int value should be <= {MAX_ACCENT} and >= 0."
            )
        children = component.get("components") or []
        if not children:
            raise FormError([*path, "components"], "BASE_TYPE_REQUIRED", "This field is required")
        for index, child in enumerate(children):
            _check(child, [*path, "components", index], TOP_LEVEL - {CONTAINER}, names, tally)
    elif kind == ACTION_ROW:
        children = component.get("components") or []
        if not 1 <= len(children) <= 5:
            raise FormError([*path, "components"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
        for index, child in enumerate(children):
            _check(child, [*path, "components", index], frozenset({BUTTON}) | SELECTS, names, tally)
    elif kind == SECTION:
        children = component.get("components") or []
        if not 1 <= len(children) <= 3:
            raise FormError([*path, "components"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 3 in length.")
        for index, child in enumerate(children):
            _check(child, [*path, "components", index], frozenset({TEXT_DISPLAY}), names, tally)
        accessory = component.get("accessory")
        if accessory is None:
            raise FormError([*path, "accessory"], "BASE_TYPE_REQUIRED", "This field is required")
        _check(accessory, [*path, "accessory"], frozenset({BUTTON, THUMBNAIL}), names, tally)
    elif kind == MEDIA_GALLERY:
        items = component.get("items") or []
        if not 1 <= len(items) <= MAX_GALLERY_ITEMS:
            raise FormError(
                [*path, "items"], "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {MAX_GALLERY_ITEMS} in length."
            )
        for index, item in enumerate(items):
            _media(item, [*path, "items", index], names)
    elif kind == THUMBNAIL:
        _media(component, path, names)
    elif kind == FILE:
        url = (component.get("file") or {}).get("url")
        _reference(url, [*path, "file", "url"], names)
        if not str(url).startswith("attachment://"):
            raise FormError(
                [*path, "file", "url"], "UNFURLED_MEDIA_ITEM_ATTACHMENT_ONLY", "Only attachment:// is allowed."
            )
    elif kind == BUTTON:
        custom_id = component.get("custom_id")
        if custom_id is not None and not 1 <= len(str(custom_id)) <= 100:
            raise FormError([*path, "custom_id"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        if len(str(component.get("label") or "")) > 80:
            raise FormError([*path, "label"], "BASE_TYPE_MAX_LENGTH", "Must be 80 or fewer in length.")
        if component.get("style") not in (1, 2, 3, 4, 5, 6):
            raise FormError([*path, "style"], "BASE_TYPE_CHOICES", "Value must be one of (1, 2, 3, 4, 5, 6).")


def _media(item: Any, path: list[str | int], names: set[str]) -> None:
    """A media gallery's item or a thumbnail: its ``media.url`` and its ``description``."""
    if not isinstance(item, dict):
        raise FormError(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
    _reference((item.get("media") or {}).get("url"), [*path, "media", "url"], names)
    description = item.get("description")
    if description is not None and len(str(description)) > MAX_MEDIA_DESCRIPTION:
        raise FormError(
            [*path, "description"], "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_MEDIA_DESCRIPTION} or fewer in length."
        )


def texts(components: list[dict[str, Any]]) -> list[str]:
    """Every text display's content in ``components``, nested ones included, in order (a test reads a card so)."""
    found: list[str] = []
    for component in components:
        if component.get("type") == TEXT_DISPLAY:
            found.append(str(component.get("content") or ""))
        found += texts(component.get("components") or [])
        accessory = component.get("accessory")
        if isinstance(accessory, dict):
            found += texts([accessory])
    return found


def of_type(components: list[dict[str, Any]], kind: int) -> list[dict[str, Any]]:
    """Every component of type ``kind`` in ``components``, nested ones included, in order."""
    found: list[dict[str, Any]] = []
    for component in components:
        if component.get("type") == kind:
            found.append(component)
        found += of_type(component.get("components") or [], kind)
        accessory = component.get("accessory")
        if isinstance(accessory, dict):
            found += of_type([accessory], kind)
    return found
