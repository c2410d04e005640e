#!/usr/bin/env python3
# tests/integration/png_stats.py - says whether a PNG (a browser's
# screenshot of report.html) is blank: prints "colours N nonwhite F" with
# the number of distinct colours and the fraction of pixels that are not
# white.  Standard library only (zlib): 8-bit RGB or RGBA, not interlaced,
# the five PNG row filters.
import struct
import sys
import zlib


def chunks(data):
    pos = 8
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        yield kind, data[pos + 8:pos + 8 + length]
        pos += 12 + length


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def unfilter(kind, row, prev, bpp):
    out = bytearray(row)
    for i in range(len(out)):
        a = out[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if kind == 1:
            out[i] = (out[i] + a) & 255
        elif kind == 2:
            out[i] = (out[i] + b) & 255
        elif kind == 3:
            out[i] = (out[i] + (a + b) // 2) & 255
        elif kind == 4:
            out[i] = (out[i] + paeth(a, b, c)) & 255
    return out


def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("%s: not a PNG" % path)
    idat = b""
    for kind, body in chunks(data):
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
    if depth != 8 or ctype not in (2, 6) or interlace:
        sys.exit("%s: only 8-bit RGB/RGBA, not interlaced" % path)
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        row = unfilter(raw[start], raw[start + 1:start + 1 + stride], prev, bpp)
        for x in range(0, stride, bpp):
            yield bytes(row[x:x + 3])
        prev = row


def main():
    colours = set()
    total = nonwhite = 0
    for px in pixels(sys.argv[1]):
        total += 1
        colours.add(px)
        nonwhite += px != b"\xff\xff\xff"
    print("colours %d nonwhite %.4f" % (len(colours), nonwhite / max(total, 1)))


main()
