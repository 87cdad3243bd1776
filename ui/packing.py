"""Bytes packed into the text of a self-contained HTML file, and the script that unpacks them in the browser. No
Streamlit here.

The lesson sheet carries plotly.js (4.8 MB) and its figures' JSON this way, so it opens offline at a third of the size:

- LZMA (the standard library's, in the .lzma form) makes plotly.js 1.11 MB, a quarter smaller than gzip does.
- The bytes are then written seven bits to a character: a character below U+0080 is one group of seven bits. The three
  groups an HTML parser would change or read as markup (NUL, carriage return and "<") are written together with the
  group after them as one character from U+0080 up, two bytes in UTF-8. The text is 8/7 of the bytes (base64: 4/3),
  and holds no "<", so it cannot end its script element.

UNPACK_JS, the browser's side, reverses both: the seven-bit groups back to bytes, then an LZMA decoder written here from
the format's description (the range coder, the literal, length and distance models, the twelve states). unpack() is
the same in Python, and read() finds a page's packed elements: for tests, and for anyone who reads a sheet's figures
with a script.
"""

from __future__ import annotations

import hashlib
import lzma
import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

UNSAFE = (0x00, 0x0D, 0x3C)  # NUL (read as U+FFFD), CR (read as a line feed), "<" (could end the script element)
# lc=3, lp=0, pb=0: the settings for text (1.112 MB for plotly.js; the defaults, made for machine code, 1.116 MB)
FILTERS = [{"id": lzma.FILTER_LZMA1, "preset": 6, "lc": 3, "lp": 0, "pb": 0}]
_WEIGHTS = 1 << np.arange(6, -1, -1)  # a group's bits, most significant first


@dataclass(frozen=True)
class Packed:
    text: str  # the seven-bit text, safe inside <script type="text/plain">
    packed: int  # how many LZMA bytes the text holds
    size: int  # how many bytes LZMA unpacks to

    def element(self, attributes: str) -> str:
        """The script element that carries it, for UNPACK_JS's unpack() (attributes: its id or class)."""
        counts = f'data-packed="{self.packed}" data-size="{self.size}"'
        return f'<script type="text/plain" {attributes} {counts}>{self.text}</script>'


def as_text(data: bytes) -> str:
    """data as seven-bit groups, one character each; an unsafe group and the group after it as one wider character."""
    bits = np.unpackbits(np.frombuffer(data, np.uint8))
    groups = np.append(bits, np.zeros(-len(bits) % 7, np.uint8)).reshape(-1, 7) @ _WEIGHTS
    codes = groups.astype("<u4")
    written = np.ones(len(groups), bool)
    taken = -1  # the group last written together with the unsafe one before it
    for i in np.flatnonzero(np.isin(groups, UNSAFE)).tolist():
        if i == taken:
            continue
        after = int(groups[i + 1]) if i + 1 < len(groups) else 0  # the last group: 7 zero bits after it, never read
        codes[i] = 0x80 + UNSAFE.index(int(groups[i])) * 128 + after
        if i + 1 < len(groups):
            written[i + 1] = False
            taken = i + 1
    return codes[written].tobytes().decode("utf-32-le")


def from_text(text: str, n: int) -> bytes:
    """The first n bytes that text holds (the inverse of as_text)."""
    codes = np.frombuffer(text.encode("utf-32-le"), "<u4").astype(np.int64)
    wide = codes >= 0x80
    starts = np.cumsum(1 + wide) - (1 + wide)
    groups = np.empty(len(codes) + int(wide.sum()), np.int64)
    groups[starts] = np.where(wide, np.array(UNSAFE)[np.maximum(codes - 0x80, 0) >> 7], codes)
    groups[starts[wide] + 1] = (codes[wide] - 0x80) & 127
    bits = ((groups[:, None] >> np.arange(6, -1, -1)) & 1).astype(np.uint8).ravel()
    return np.packbits(bits[: n * 8]).tobytes()


def pack(data: bytes, compressed: bytes | None = None) -> Packed:
    """data, LZMA-compressed (or its compressed form, already made) and written as text."""
    compressed = compressed or lzma.compress(data, format=lzma.FORMAT_ALONE, filters=FILTERS)
    return Packed(as_text(compressed), len(compressed), len(data))


def unpack(text: str, packed: int, size: int) -> bytes:
    data = lzma.decompress(from_text(text, packed), format=lzma.FORMAT_ALONE)
    if len(data) != size:
        raise ValueError(f"packed text unpacks to {len(data)} bytes, not {size}")
    return data


def read(page: str, attributes: str) -> list[bytes]:
    """The bytes of every packed element in page with these attributes (for example 'class="figure-data"')."""
    counts = 'data-packed="(\\d+)" data-size="(\\d+)"'
    pattern = f'<script type="text/plain" {re.escape(attributes)} {counts}>(.*?)</script>'
    return [unpack(text, int(packed), int(size)) for packed, size, text in re.findall(pattern, page, re.DOTALL)]


def _cache_dir() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "transformer-lessons"


def packed_once(data: bytes) -> Packed:
    """pack(data) for a large, unchanging file (plotly.js): compressing it takes 1.7 s of CPU, so its LZMA form is kept
    in the user's cache folder, and used only when it unpacks to exactly data again (callers keep the result)."""
    path = _cache_dir() / f"{hashlib.sha256(data).hexdigest()[:24]}.lzma"
    try:
        compressed = path.read_bytes()
        if lzma.decompress(compressed, format=lzma.FORMAT_ALONE) == data:
            return pack(data, compressed)
    except (OSError, lzma.LZMAError):
        pass
    packed = lzma.compress(data, format=lzma.FORMAT_ALONE, filters=FILTERS)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_suffix(f".{os.getpid()}.part")
        part.write_bytes(packed)
        part.replace(path)  # whole or not at all, when two processes write it at once
    except OSError:
        pass  # no cache: compressed again by the next process
    return pack(data, packed)


# unpack(element) -> the bytes a Packed element holds
UNPACK_JS = """
const UNSAFE = [0x00, 0x0D, 0x3C];

function sevenBits(text, n) {  // the first n bytes of the seven-bit text
  const out = new Uint8Array(n);
  let acc = 0, bits = 0, at = 0;
  const put = (group) => {
    acc = (acc << 7) | group;
    bits += 7;
    if (bits >= 8) {
      bits -= 8;
      if (at < n) out[at++] = (acc >> bits) & 0xFF;
      acc &= (1 << bits) - 1;
    }
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) put(c);
    else { put(UNSAFE[(c - 0x80) >> 7]); put((c - 0x80) & 0x7F); }
  }
  return out;
}

function lzma(input, size) {  // an .lzma stream (its 13-byte header, then the range-coded data) -> size bytes
  const props = input[0], lc = props % 9, lp = Math.floor(props / 9) % 5, pb = Math.floor(props / 45);
  let at = 14, range = 0xFFFFFFFF, code = 0;  // after the header and the range coder's first byte (always 0)
  for (let i = 0; i < 4; i++) code = code * 256 + input[at++];
  const probs = (n) => new Uint16Array(n).fill(1024);  // each bit's odds of being 0, out of 2048
  const bit = (p, i) => {
    const bound = (range >>> 11) * p[i];
    let b = 0;
    if (code < bound) { range = bound; p[i] += (2048 - p[i]) >> 5; }
    else { range -= bound; code -= bound; p[i] -= p[i] >> 5; b = 1; }
    if (range < 0x1000000) { range *= 256; code = code * 256 + input[at++]; }
    return b;
  };
  const direct = (n) => {  // n bits at even odds
    let r = 0;
    while (n--) {
      range = Math.floor(range / 2);
      if (code >= range) { code -= range; r = r * 2 + 1; } else r *= 2;
      if (range < 0x1000000) { range *= 256; code = code * 256 + input[at++]; }
    }
    return r;
  };
  const tree = (p, base, n) => {  // n bits, most significant first
    let m = 1;
    for (let i = 0; i < n; i++) m = (m << 1) | bit(p, base + m);
    return m - (1 << n);
  };
  const reverse = (p, base, n) => {  // n bits, least significant first
    let m = 1, s = 0;
    for (let i = 0; i < n; i++) { const b = bit(p, base + m); m = (m << 1) | b; s |= b << i; }
    return s;
  };
  const lengthModel = () => ({choice: probs(2), low: probs(16 * 8), mid: probs(16 * 8), high: probs(256)});
  const length = (model, posState) =>  // a match's length, less 2
    !bit(model.choice, 0) ? tree(model.low, posState * 8, 3)
      : !bit(model.choice, 1) ? 8 + tree(model.mid, posState * 8, 3)
      : 16 + tree(model.high, 0, 8);
  const literal = probs(0x300 << (lc + lp)), isMatch = probs(12 << 4), isRep0Long = probs(12 << 4);
  const isRep = probs(12), isRepG0 = probs(12), isRepG1 = probs(12), isRepG2 = probs(12);
  const slots = probs(4 << 6), special = probs(115), align = probs(16);
  const matchLength = lengthModel(), repLength = lengthModel();
  const distance = (len) => {  // a match's distance, less 1
    const slot = tree(slots, Math.min(len, 3) << 6, 6);
    if (slot < 4) return slot;
    const n = (slot >> 1) - 1, d = (2 | (slot & 1)) * 2 ** n;
    if (slot < 14) return d + reverse(special, d - slot, n);
    return d + direct(n - 4) * 16 + reverse(align, 0, 4);
  };
  const out = new Uint8Array(size);
  const pbMask = (1 << pb) - 1, lpMask = (1 << lp) - 1;
  let pos = 0, state = 0, rep0 = 0, rep1 = 0, rep2 = 0, rep3 = 0;
  while (pos < size) {
    const posState = pos & pbMask;
    if (!bit(isMatch, (state << 4) + posState)) {
      const base = 0x300 * (((pos & lpMask) << lc) + ((pos ? out[pos - 1] : 0) >> (8 - lc)));
      let s = 1;
      if (state >= 7) {  // after a match: the byte at the match's distance guides the odds until they differ
        let match = out[pos - rep0 - 1];
        do {
          const m = (match >> 7) & 1;
          match <<= 1;
          const b = bit(literal, base + ((1 + m) << 8) + s);
          s = (s << 1) | b;
          if (m !== b) break;
        } while (s < 0x100);
      }
      while (s < 0x100) s = (s << 1) | bit(literal, base + s);
      out[pos++] = s & 0xFF;
      state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
      continue;
    }
    let len;
    if (!bit(isRep, state)) {  // a match at a new distance
      rep3 = rep2; rep2 = rep1; rep1 = rep0;
      len = length(matchLength, posState);
      state = state < 7 ? 7 : 10;
      rep0 = distance(len);
      if (rep0 === 0xFFFFFFFF) break;  // the end marker
    } else {  // a match at one of the last four distances
      if (!bit(isRepG0, state)) {
        if (!bit(isRep0Long, (state << 4) + posState)) {  // one byte
          state = state < 7 ? 9 : 11;
          out[pos] = out[pos - rep0 - 1];
          pos++;
          continue;
        }
      } else {
        let d;
        if (!bit(isRepG1, state)) d = rep1;
        else {
          if (!bit(isRepG2, state)) d = rep2; else { d = rep3; rep3 = rep2; }
          rep2 = rep1;
        }
        rep1 = rep0; rep0 = d;
      }
      len = length(repLength, posState);
      state = state < 7 ? 8 : 11;
    }
    for (let n = len + 2; n > 0 && pos < size; n--, pos++) out[pos] = out[pos - rep0 - 1];
  }
  return out;
}

const unpack = (element) =>
  lzma(sevenBits(element.textContent, +element.dataset.packed), +element.dataset.size);
"""
