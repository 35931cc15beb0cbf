"""Reading the PNG screenshots headless Chromium writes, for the render checks of
tests/reproduce/html_page.py and tests/cli/heatmap_svg.py (no imaging library needed)."""
import struct
import zlib


def png_pixels(path):
    """The RGB(A) rows of an 8-bit PNG (colour types 2 and 6), unfiltered."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, colour = header[0], header[1], header[2], header[3]
    if depth != 8 or colour not in (2, 6):
        raise ValueError(f"PNG depth {depth} colour type {colour} not handled")
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def ink(path):
    """(share of sampled pixels that are not white, distinct colours among them)."""
    w, h, bpp, rows = png_pixels(path)
    inked = 0
    colours = set()
    sampled = 0
    for line in rows[::4]:
        for x in range(0, w * bpp, bpp * 4):
            px = line[x:x + 3]
            colours.add(px)
            sampled += 1
            if px != b"\xff\xff\xff":
                inked += 1
    return inked / sampled, len(colours)
