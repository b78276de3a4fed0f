"""PNG encoding that reuses the compressed bytes of the rows a board shares with earlier boards.

Successive boards of a match differ in a few places (a stone, the clocks, the status line), so
most of the compressed picture can be reused. The image data is cut into bands of
:data:`BAND_ROWS` filtered scanlines (filter type 0: a zero byte, then the row), and each band is
deflated by a compressor of its own and ended with a flush: byte-aligned, no back-references
into another band. A compressed band is then a pure function of its bytes and the level, so an
LRU cache keyed by a hash of the band returns it for the price of the hash, and the bands,
joined between a zlib header and an empty final block plus the Adler-32 of all the data, are one
valid zlib stream. The output is the same bytes whatever the cache held before.

Pillow still draws every picture and stays the reference: the tests decode every output with it.
Modes other than P, L, LA, RGB and RGBA, and images carrying an ICC profile, go to Pillow's own
encoder.
"""

from __future__ import annotations

import io
import struct
import threading
import types
import zlib
from collections import OrderedDict
from collections.abc import Mapping
from functools import lru_cache
from typing import NamedTuple

from PIL import Image

try:
    # zlib-ng (the "zlib-ng" package) deflates and sums these bands faster than the standard
    # library's zlib, and the changed bands are most of an encode's cost (bench/README.md).
    # Either writes a valid stream; the bytes differ between the two, never between two runs.
    from zlib_ng import zlib_ng as _zlib_ng

    _deflate: types.ModuleType = _zlib_ng
except ImportError:
    _deflate = zlib
DEFLATE_LIBRARY = "zlib-ng" if _deflate is not zlib else "zlib"  # which one deflates the bands

__all__ = [
    "BAND_ROWS",
    "CACHE_BANDS",
    "DEFLATE_LIBRARY",
    "LEVEL",
    "PNG_SETTINGS",
    "CacheInfo",
    "cache_info",
    "clear_cache",
    "compressed_bands",
    "encode_png",
]

# Pillow's own PNG settings for these cards, the baseline the encoder is timed against
# (bench/bench_render.py): zlib level 2 packs the flat cards to a few tens of kilobytes for the CPU
# of level 1, while higher levels cost several times the CPU for a few kilobytes less.
PNG_SETTINGS: Mapping[str, object] = {"format": "PNG", "compress_level": 2, "optimize": False}

# Measured over whole matches (bench/README.md, "Rendering"): smaller bands recompress fewer
# unchanged rows around a change, but each costs a compressor, a block header and a flush marker;
# 48 rows was the fastest of 8-64 with either deflate library, and packs smallest.
BAND_ROWS = 48
# zlib level of the bands: level 1 costs as much with the standard library's zlib (with zlib-ng it
# is faster, but its files are 60% larger); 2 packs as small as Pillow's whole-image encode.
LEVEL = 2
# 24 bands make a 900 x 1124 card, so this holds the boards of well over a hundred live
# matches (about 5 MB: a compressed band is one to three kB).
CACHE_BANDS = 4096

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_FINAL_BLOCK = b"\x03\x00"  # an empty last block (fixed Huffman codes), as zlib writes one
_ADLER_BASE = 65521
_ADLER_OF_ZERO = zlib.adler32(b"\0")  # a band's leading filter byte
# mode -> (PNG colour type, bytes per pixel)
_COLOUR_TYPES = {"L": (0, 1), "RGB": (2, 3), "P": (3, 1), "LA": (4, 2), "RGBA": (6, 4)}


_Key = tuple[int, int, int, int]  # (hash of the band's bytes, level, stride, length)


class CacheInfo(NamedTuple):
    """Counters of the band cache since the last :func:`clear_cache`."""

    hits: int
    misses: int
    bands: int


class _BandCache:
    """_Key -> (deflated band, Adler-32 of the band), least recently used dropped first.
    Locked: the host renders in worker threads."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._entries: OrderedDict[_Key, tuple[bytes, int]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, key: _Key) -> tuple[bytes, int] | None:
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                self.misses += 1
            else:
                self.hits += 1
                self._entries.move_to_end(key)
            return found

    def put(self, key: _Key, value: tuple[bytes, int]) -> None:
        with self._lock:
            self._entries[key] = value
            if len(self._entries) > self.capacity:
                self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.hits = self.misses = 0


_cache = _BandCache(CACHE_BANDS)


def clear_cache() -> None:
    """Empty the band cache (the next picture is encoded cold) and reset its counters."""
    _cache.clear()


def cache_info() -> CacheInfo:
    """Hits, misses and bands held by the band cache."""
    return CacheInfo(_cache.hits, _cache.misses, len(_cache))


@lru_cache(maxsize=16)
def _zlib_header(level: int) -> bytes:
    # The two header bytes zlib itself writes at this level (its FLEVEL field records the level).
    return zlib.compress(b"", level)[:2]


def _adler32_combine(adler1: int, adler2: int, length2: int) -> int:
    """The Adler-32 of A + B from those of A and of B (``length2`` bytes), as zlib's
    ``adler32_combine`` computes it, so unchanged bands need not be summed again."""
    rem = length2 % _ADLER_BASE
    sum1 = adler1 & 0xFFFF
    sum2 = (rem * sum1) % _ADLER_BASE
    sum1 = (sum1 + (adler2 & 0xFFFF) + _ADLER_BASE - 1) % _ADLER_BASE
    sum2 = (sum2 + (adler1 >> 16) + (adler2 >> 16) + _ADLER_BASE - rem) % _ADLER_BASE
    return sum1 | (sum2 << 16)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def _supported(image: Image.Image) -> bool:
    sized = image.width > 0 and image.height > 0
    return image.mode in _COLOUR_TYPES and sized and not image.info.get("icc_profile")


def compressed_bands(image: Image.Image, *, level: int = LEVEL, band_rows: int = BAND_ROWS) -> tuple[list[bytes], int]:
    """The deflated bands of ``image``'s filtered scanlines, top to bottom, and the Adler-32 of
    all the filtered data. Unchanged bands come from the cache. Modes as :func:`encode_png`."""
    if not _supported(image):
        raise ValueError(f"Mode {image.mode} is not encoded in bands; encode_png hands it to Pillow.")
    if band_rows < 1 or not 0 <= level <= 9:
        raise ValueError(f"Bands need at least one row and a zlib level of 0-9, not {band_rows}, {level}.")
    stride = image.width * _COLOUR_TYPES[image.mode][1] + 1
    band_len = stride * band_rows
    # Pillow's raw encoder (what Image.tobytes runs) hands the rows over one band at a time, each
    # row padded at its end with a zero byte to ``stride``: no megabyte-long buffer to allocate
    # (which costs more in page faults than the whole encode when the allocator hands back fresh
    # pages). The filtered band wants each row's zero at its start instead, which is the same
    # bytes shifted by one: b"\0" + piece[:-1] (the piece before ends in its row's zero).
    image.load()
    encoder = Image._getencoder(image.mode, "raw", (image.mode, stride))
    encoder.setimage(image.im, (0, 0, image.width, image.height))
    bands: list[bytes] = []
    adler = 1
    status = 0
    while not status:
        _, status, piece = encoder.encode(band_len)
        if status < 0:
            raise OSError(f"Pillow's raw encoder failed with error {status}.")
        if not piece:
            continue
        # Python's own hash of the bytes (64-bit SipHash, keyed per process) is two or three times
        # cheaper than SHA-1 here, and a false hit (one in 2**64 per pair of bands) is negligible.
        key = (hash(piece), level, stride, len(piece))
        found = _cache.get(key)
        if found is None:
            # The band is b"\0" + body: fed in two parts rather than copied into one.
            body = memoryview(piece)[:-1]
            # A sync flush ends the band byte-aligned; with a compressor of its own per band it
            # writes the same bytes as a full flush, without clearing tables thrown away next.
            compressor = _deflate.compressobj(level, zlib.DEFLATED, -15)
            deflated = compressor.compress(b"\0") + compressor.compress(body)
            found = (deflated + compressor.flush(zlib.Z_SYNC_FLUSH), _deflate.adler32(body, _ADLER_OF_ZERO))
            _cache.put(key, found)
        bands.append(found[0])
        adler = _adler32_combine(adler, found[1], len(piece))
    return bands, adler


def encode_png(image: Image.Image, *, level: int = LEVEL, band_rows: int = BAND_ROWS) -> bytes:
    """The PNG bytes of ``image`` (P, L, LA, RGB or RGBA; 8 bits, filter 0, one IDAT chunk), with
    its palette and transparency as Pillow writes them. Deterministic: the same image, level and
    band height give the same bytes, whatever the cache holds. Other modes go to Pillow."""
    if not _supported(image):
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", compress_level=level)
        return buffer.getvalue()
    bands, adler = compressed_bands(image, level=level, band_rows=band_rows)
    colour_type = _COLOUR_TYPES[image.mode][0]
    header = struct.pack(">IIBBBBB", image.width, image.height, 8, colour_type, 0, 0, 0)
    chunks = [_SIGNATURE, _chunk(b"IHDR", header)]
    chunks.extend(_chunk(kind, data) for kind, data in _palette_chunks(image))
    idat = b"".join([_zlib_header(level), *bands, _FINAL_BLOCK, struct.pack(">I", adler)])
    chunks += [_chunk(b"IDAT", idat), _chunk(b"IEND", b"")]
    return b"".join(chunks)


def _palette_chunks(image: Image.Image) -> list[tuple[bytes, bytes]]:
    # PLTE and tRNS as Pillow's PNG writer makes them, so a decoded picture has the same palette
    # and transparency whichever encoder wrote it.
    transparency = image.info.get("transparency")
    if image.mode == "P":
        palette = image.getpalette() or []
        colours = max(1, min(len(palette) // 3, 256))
        chunks = [(b"PLTE", bytes(palette[: colours * 3]) or b"\0\0\0")]
        if isinstance(transparency, bytes):
            chunks.append((b"tRNS", transparency[:colours]))
        elif isinstance(transparency, int):
            chunks.append((b"tRNS", (b"\xff" * max(0, min(255, transparency)) + b"\0")[:colours]))
        elif transparency is None and image.palette is not None and image.palette.mode == "RGBA":
            chunks.append((b"tRNS", bytes((image.getpalette("RGBA") or [])[3::4])[:colours]))
        return chunks
    if image.mode == "L" and isinstance(transparency, int):
        return [(b"tRNS", struct.pack(">H", max(0, min(65535, transparency))))]
    if image.mode == "RGB" and isinstance(transparency, (tuple, list)) and len(transparency) == 3:
        return [(b"tRNS", struct.pack(">HHH", *transparency))]
    return []  # RGBA and LA carry their own alpha; Pillow ignores a stale "transparency" too
