"""The banded PNG encoder: every output decodes, through Pillow, to the image it was given."""

from __future__ import annotations

import io
import random
import struct
import threading
import zlib

import pytest
from hypothesis import given, settings, strategies as st
from PIL import Image

from geniusbot.games import new_game
from geniusbot.pictures import render_image, render_view
from geniusbot.render import png
from geniusbot.render.png import encode_png

BYTES_PER_PIXEL = {"L": 1, "LA": 2, "P": 1, "RGB": 3, "RGBA": 4}


def noise(mode: str, size: tuple[int, int], seed: int, colours: int = 256) -> Image.Image:
    """An image of random pixels (palette indices below ``colours`` in P)."""
    rng = random.Random(seed)
    count = size[0] * size[1] * BYTES_PER_PIXEL[mode]
    top = colours if mode == "P" else 256
    image = Image.frombytes(mode, size, bytes(rng.randrange(top) for _ in range(count)))
    if mode == "P":
        image.putpalette([rng.randrange(256) for _ in range(3 * colours)])
    return image


def decoded(data: bytes) -> Image.Image:
    """``data`` opened by Pillow, after Pillow's own integrity check (chunk CRCs, structure)."""
    with Image.open(io.BytesIO(data)) as probe:
        assert probe.format == "PNG"
        probe.verify()
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def assert_same_picture(data: bytes, image: Image.Image) -> None:
    out = decoded(data)
    assert (out.mode, out.size) == (image.mode, image.size)
    assert out.tobytes() == image.tobytes()
    if image.mode == "P":
        assert out.getpalette() == image.getpalette()
    assert out.info.get("transparency") == image.info.get("transparency")


def chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """The (type, data) chunks of a PNG, checking each chunk's CRC on the way."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    found, at = [], 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        assert struct.unpack(">I", data[at + 8 + length : at + 12 + length])[0] == zlib.crc32(kind + body)
        found.append((kind, body))
        at += 12 + length
    return found


def filtered(image: Image.Image) -> bytes:
    """The PNG image data before compression: each row after a filter-type-0 byte."""
    row = image.width * BYTES_PER_PIXEL[image.mode]
    raw = image.tobytes()
    return b"".join(b"\0" + raw[k : k + row] for k in range(0, len(raw), row))


@pytest.fixture(autouse=True)
def cold_cache():
    png.clear_cache()
    yield
    png.clear_cache()


@pytest.mark.parametrize("mode", ["P", "RGB", "RGBA", "L", "LA"])
@pytest.mark.parametrize("size", [(1, 1), (7, 13), (300, 1), (1, 40), (901, 37)])
def test_every_mode_and_odd_size_round_trips_through_pillow(mode, size):
    image = noise(mode, size, seed=size[0] * 1000 + size[1])
    assert_same_picture(png.encode_png(image), image)


@settings(max_examples=80, deadline=None)
@given(
    mode=st.sampled_from(sorted(BYTES_PER_PIXEL)),
    width=st.integers(1, 40),
    height=st.integers(1, 60),
    band_rows=st.integers(1, 20),
    level=st.integers(1, 9),
    seed=st.integers(0, 10**6),
)
def test_any_band_height_and_level_decodes_to_the_image(mode, width, height, band_rows, level, seed):
    image = noise(mode, (width, height), seed, colours=1 + seed % 256)
    data = png.encode_png(image, level=level, band_rows=band_rows)
    assert_same_picture(data, image)
    (idat,) = [body for kind, body in chunks(data) if kind == b"IDAT"]
    # A complete zlib stream (header, last block and Adler-32 are checked), and nothing after it.
    inflate = zlib.decompressobj()
    assert inflate.decompress(idat) == filtered(image)
    assert inflate.eof and inflate.unused_data == b""


def test_chunks_in_order_with_eight_bit_depth_and_filter_zero():
    image = noise("P", (20, 5), seed=1, colours=16)
    found = chunks(png.encode_png(image))
    assert [kind for kind, _ in found] == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    width, height, depth, colour_type, *methods = struct.unpack(">IIBBBBB", found[0][1])
    assert (width, height, depth, colour_type, methods) == (20, 5, 8, 3, [0, 0, 0])


def test_palette_with_one_transparent_index():
    image = noise("P", (33, 21), seed=2, colours=40)
    image.info["transparency"] = 7
    data = png.encode_png(image)
    assert dict(chunks(data))[b"tRNS"] == b"\xff" * 7 + b"\0"
    assert_same_picture(data, image)
    assert decoded(data).convert("RGBA").getpixel((0, 0))[3] == (0 if image.getpixel((0, 0)) == 7 else 255)


def test_palette_with_alpha_per_entry():
    image = noise("P", (17, 9), seed=3, colours=12)
    image.info["transparency"] = bytes(range(0, 240, 20))
    assert_same_picture(png.encode_png(image), image)
    rgba = noise("P", (17, 9), seed=3, colours=12)
    rgba.putpalette([v for k in range(12) for v in (k * 20, 255 - k * 20, 9, k * 21)], "RGBA")
    out = decoded(png.encode_png(rgba))
    assert out.tobytes() == rgba.tobytes()
    assert out.convert("RGBA").tobytes() == rgba.convert("RGBA").tobytes()


def test_grey_and_rgb_transparency_keys():
    grey = noise("L", (10, 10), seed=4)
    grey.info["transparency"] = 200
    assert_same_picture(png.encode_png(grey), grey)
    colour = noise("RGB", (10, 10), seed=5)
    colour.info["transparency"] = (1, 2, 3)
    assert_same_picture(png.encode_png(colour), colour)


def test_other_modes_go_to_pillow_and_still_round_trip():
    for image in (noise("L", (30, 9), seed=6).convert("1"), Image.new("I;16", (5, 4), 40000)):
        out = decoded(png.encode_png(image))
        assert out.size == image.size and out.tobytes() == image.convert(out.mode).tobytes()


def test_same_image_same_bytes_with_a_cold_a_warm_and_a_crowded_cache():
    image = noise("P", (120, 70), seed=7)
    cold = png.encode_png(image)
    warm = png.encode_png(image)
    for seed in range(30):  # other pictures pass through the cache in between
        png.encode_png(noise("P", (120, 70), seed=100 + seed))
    assert cold == warm == png.encode_png(image)
    png.clear_cache()
    assert png.encode_png(image) == cold


def test_an_unchanged_picture_is_served_entirely_from_the_cache():
    image = noise("RGB", (50, 100), seed=8)
    png.encode_png(image)
    bands = -(-100 // png.BAND_ROWS)
    assert png.cache_info() == png.CacheInfo(hits=0, misses=bands, bands=bands)
    png.encode_png(image)
    assert png.cache_info() == png.CacheInfo(hits=bands, misses=bands, bands=bands)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(x=st.integers(0, 63), y=st.integers(0, 99), band_rows=st.integers(1, 24))
def test_a_changed_pixel_changes_only_its_own_band(x, y, band_rows):
    before = noise("P", (64, 100), seed=9)
    after = before.copy()
    after.putpixel((x, y), (before.getpixel((x, y)) + 1) % 256)
    old, _ = png.compressed_bands(before, band_rows=band_rows)
    new, _ = png.compressed_bands(after, band_rows=band_rows)
    assert len(old) == len(new) == -(-100 // band_rows)
    assert [k for k in range(len(old)) if old[k] != new[k]] == [y // band_rows]
    assert_same_picture(png.encode_png(after, band_rows=band_rows), after)


@settings(max_examples=100, deadline=None)
@given(first=st.binary(max_size=300), second=st.binary(max_size=70000))
def test_adler32_of_joined_bands_is_that_of_the_whole(first, second):
    combined = png._adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second))
    assert combined == zlib.adler32(first + second)


def test_threads_encoding_at_once_get_the_same_bytes():
    images = [noise("P", (90, 90), seed=20 + k % 3) for k in range(12)]
    expected = [png.encode_png(image) for image in images]
    png.clear_cache()
    results: list[bytes | None] = [None] * len(images)

    def work(k: int) -> None:
        results[k] = png.encode_png(images[k])

    threads = [threading.Thread(target=work, args=(k,)) for k in range(len(images))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == expected


@pytest.mark.parametrize("game_name", ["tictacfive", "armslength", "tightwire"])
def test_boards_of_a_played_match_decode_to_the_drawn_card(game_name):
    game = new_game(game_name, seed=3)
    rng = random.Random(3)
    for move in range(12):
        if move % 4 == 0:
            view = game.view()
            card = render_image(view, players={"p1": "Ann", "p2": "Ben"}, title=f"Move {move}")
            data = render_view(view, players={"p1": "Ann", "p2": "Ben"}, title=f"Move {move}")
            assert_same_picture(data, card)
            assert data == encode_png(card)
        if game.is_over:
            break
        game.play(rng.choice(list(game.legal_moves(game.to_move()[0]))))


def test_the_cache_keeps_at_most_its_capacity_and_drops_the_least_recently_used():
    first = noise("P", (40, 2 * png.BAND_ROWS), seed=30)
    png.encode_png(first)
    flood = noise("RGBA", (3, png.CACHE_BANDS + 100), seed=31)  # one distinct band per row
    png.encode_png(flood, band_rows=1)
    assert png.cache_info().bands == png.CACHE_BANDS
    misses = png.cache_info().misses
    assert png.encode_png(first) == png.encode_png(first)
    assert png.cache_info().misses == misses + 2  # both bands of ``first`` were dropped, then cached again


def test_a_band_of_no_rows_or_an_unknown_level_is_refused():
    image = noise("P", (4, 4), seed=32)
    with pytest.raises(ValueError):
        png.encode_png(image, band_rows=0)
    with pytest.raises(ValueError):
        png.encode_png(image, level=10)
