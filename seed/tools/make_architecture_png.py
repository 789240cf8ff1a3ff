#!/usr/bin/env python3
"""Draws seed/resources/diagrams/architecture.png (the orders-api architecture
diagram used by the review-architecture-diagram prompt) with the standard
library only: a 5x7 bitmap font, boxes, arrows, and a hand-written PNG encoder.

    python3 seed/tools/make_architecture_png.py
"""
import os
import struct
import zlib

W, H = 1000, 560
BG = (250, 250, 247)
INK = (34, 40, 49)
GREY = (120, 126, 136)

FONT = {
    "A": ["01110", "10001", "10001", "11111", "10001", "10001", "10001"],
    "B": ["11110", "10001", "10001", "11110", "10001", "10001", "11110"],
    "C": ["01110", "10001", "10000", "10000", "10000", "10001", "01110"],
    "D": ["11110", "10001", "10001", "10001", "10001", "10001", "11110"],
    "E": ["11111", "10000", "10000", "11110", "10000", "10000", "11111"],
    "F": ["11111", "10000", "10000", "11110", "10000", "10000", "10000"],
    "G": ["01110", "10001", "10000", "10111", "10001", "10001", "01111"],
    "H": ["10001", "10001", "10001", "11111", "10001", "10001", "10001"],
    "I": ["01110", "00100", "00100", "00100", "00100", "00100", "01110"],
    "J": ["00111", "00010", "00010", "00010", "00010", "10010", "01100"],
    "K": ["10001", "10010", "10100", "11000", "10100", "10010", "10001"],
    "L": ["10000", "10000", "10000", "10000", "10000", "10000", "11111"],
    "M": ["10001", "11011", "10101", "10101", "10001", "10001", "10001"],
    "N": ["10001", "10001", "11001", "10101", "10011", "10001", "10001"],
    "O": ["01110", "10001", "10001", "10001", "10001", "10001", "01110"],
    "P": ["11110", "10001", "10001", "11110", "10000", "10000", "10000"],
    "Q": ["01110", "10001", "10001", "10001", "10101", "10010", "01101"],
    "R": ["11110", "10001", "10001", "11110", "10100", "10010", "10001"],
    "S": ["01111", "10000", "10000", "01110", "00001", "00001", "11110"],
    "T": ["11111", "00100", "00100", "00100", "00100", "00100", "00100"],
    "U": ["10001", "10001", "10001", "10001", "10001", "10001", "01110"],
    "V": ["10001", "10001", "10001", "10001", "10001", "01010", "00100"],
    "W": ["10001", "10001", "10001", "10101", "10101", "10101", "01010"],
    "X": ["10001", "10001", "01010", "00100", "01010", "10001", "10001"],
    "Y": ["10001", "10001", "01010", "00100", "00100", "00100", "00100"],
    "Z": ["11111", "00001", "00010", "00100", "01000", "10000", "11111"],
    "0": ["01110", "10001", "10011", "10101", "11001", "10001", "01110"],
    "1": ["00100", "01100", "00100", "00100", "00100", "00100", "01110"],
    "2": ["01110", "10001", "00001", "00010", "00100", "01000", "11111"],
    "3": ["11111", "00010", "00100", "00010", "00001", "10001", "01110"],
    "4": ["00010", "00110", "01010", "10010", "11111", "00010", "00010"],
    "5": ["11111", "10000", "11110", "00001", "00001", "10001", "01110"],
    "6": ["00110", "01000", "10000", "11110", "10001", "10001", "01110"],
    "7": ["11111", "00001", "00010", "00100", "01000", "01000", "01000"],
    "8": ["01110", "10001", "10001", "01110", "10001", "10001", "01110"],
    "9": ["01110", "10001", "10001", "01111", "00001", "00010", "01100"],
    " ": ["00000"] * 7,
    "-": ["00000", "00000", "00000", "11111", "00000", "00000", "00000"],
    ".": ["00000", "00000", "00000", "00000", "00000", "01100", "01100"],
    ",": ["00000", "00000", "00000", "00000", "01100", "00100", "01000"],
    ":": ["00000", "01100", "01100", "00000", "01100", "01100", "00000"],
    "/": ["00001", "00001", "00010", "00100", "01000", "10000", "10000"],
    "(": ["00010", "00100", "01000", "01000", "01000", "00100", "00010"],
    ")": ["01000", "00100", "00010", "00010", "00010", "00100", "01000"],
    "+": ["00000", "00100", "00100", "11111", "00100", "00100", "00000"],
    ">": ["01000", "00100", "00010", "00001", "00010", "00100", "01000"],
    "=": ["00000", "00000", "11111", "00000", "11111", "00000", "00000"],
}

px = [[BG] * W for _ in range(H)]


def put(x, y, c):
    if 0 <= x < W and 0 <= y < H:
        px[y][x] = c


def rect(x0, y0, x1, y1, c):
    for y in range(max(0, y0), min(H, y1)):
        row = px[y]
        for x in range(max(0, x0), min(W, x1)):
            row[x] = c


def text(x, y, s, c=INK, scale=2):
    for ch in s.upper():
        g = FONT.get(ch, FONT[" "])
        for gy, bits in enumerate(g):
            for gx, b in enumerate(bits):
                if b == "1":
                    rect(x + gx * scale, y + gy * scale, x + (gx + 1) * scale, y + (gy + 1) * scale, c)
        x += 6 * scale


def text_w(s, scale=2):
    return len(s) * 6 * scale - scale


def line(x0, y0, x1, y1, c, width=2, dash=0):
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
    err, n = dx + dy, 0
    while True:
        if not dash or (n // dash) % 2 == 0:
            rect(x0 - width // 2, y0 - width // 2, x0 - width // 2 + width, y0 - width // 2 + width, c)
        n += 1
        if x0 == x1 and y0 == y1:
            break
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x0 += sx
        if e2 <= dx:
            err += dx
            y0 += sy


def arrow(x0, y0, x1, y1, c=INK, label=None, lx=0, ly=0):
    line(x0, y0, x1, y1, c)
    # filled arrowhead at (x1, y1)
    vx, vy = x1 - x0, y1 - y0
    n = (vx * vx + vy * vy) ** 0.5
    ux, uy = vx / n, vy / n
    bx, by = x1 - ux * 14, y1 - uy * 14
    p = [(x1, y1), (bx - uy * 7, by + ux * 7), (bx + uy * 7, by - ux * 7)]
    ys = [q[1] for q in p]
    for y in range(int(min(ys)), int(max(ys)) + 1):
        xs = []
        for i in range(3):
            (ax, ay), (cx, cy) = p[i], p[(i + 1) % 3]
            if ay != cy and min(ay, cy) <= y <= max(ay, cy):
                xs.append(ax + (y - ay) * (cx - ax) / (cy - ay))
        if len(xs) >= 2:
            for x in range(int(min(xs)), int(max(xs)) + 1):
                put(x, y, c)
    if label:
        text(lx, ly, label, GREY, 1)


def box(x, y, w, h, fill, title, lines=(), dashed=False):
    rect(x + 4, y + 4, x + w + 4, y + h + 4, (222, 222, 216))  # shadow
    rect(x, y, x + w, y + h, fill)
    for (a, b, c, d) in ((x, y, x + w, y), (x, y + h, x + w, y + h), (x, y, x, y + h), (x + w, y, x + w, y + h)):
        line(a, b, c, d, INK, 2, 6 if dashed else 0)
    ty = y + 12
    text(x + (w - text_w(title)) // 2, ty, title)
    ty += 22
    for s in lines:
        text(x + (w - text_w(s, 1)) // 2, ty, s, INK, 1)
        ty += 12


def write_png(path):
    raw = b"".join(b"\x00" + bytes(v for p in row for v in p) for row in px)

    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)

    data = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))
    with open(path, "wb") as f:
        f.write(data)


# ---- the diagram -----------------------------------------------------------
text(30, 22, "ORDERS-API ARCHITECTURE (PRODUCTION)", INK, 3)
text(30, 52, "ACME WEB SHOP - CHECKOUT PATH - NOV 2025", GREY, 1)

box(30, 230, 170, 80, (221, 235, 247), "CLIENTS", ["WEB SHOP, IOS, ANDROID"])
box(250, 230, 170, 80, (226, 239, 218), "EDGE LB", ["TLS TERMINATION", "RATE LIMIT 50 RPS/IP"])
box(470, 200, 220, 140, (255, 242, 204), "ORDERS-API", ["TYPESCRIPT, NODE 22", "3 PODS (HPA 3-8)", "PG POOL MAX 20 / POD",
                                                      "/HEALTHZ  /READYZ"])
box(760, 90, 220, 70, (252, 228, 236), "PAYMENTS", ["EXTERNAL HTTPS API", "TIMEOUT 6S, 1 RETRY"], dashed=True)
box(760, 185, 220, 60, (237, 231, 246), "REDIS", ["CART CACHE, RATE LIMITS"])
box(760, 270, 220, 80, (218, 232, 252), "POSTGRESQL 16", ["ORDERS-DB-PRIMARY", "MAX_CONNECTIONS 200", "+ 1 STREAMING REPLICA"])
box(760, 380, 220, 60, (230, 230, 230), "RABBITMQ", ["EXCHANGE ORDERS"])
box(470, 440, 220, 70, (226, 239, 218), "FULFILLMENT", ["WORKER, 2 PODS", "PICKING, LABELS"])

arrow(200, 270, 248, 270, label="HTTPS", lx=206, ly=258)
arrow(420, 270, 468, 270, label="HTTP", lx=428, ly=258)
arrow(690, 225, 758, 130, label="CHARGE", lx=692, ly=166)
arrow(690, 245, 758, 215)
arrow(690, 280, 758, 305, label="SQL", lx=712, ly=300)
arrow(690, 320, 758, 405, label="ORDERS.PAID", lx=650, ly=372)
arrow(860, 440, 860, 475, GREY)
line(860, 475, 693, 475, GREY)
arrow(700, 475, 692, 475, GREY, label="CONSUME", lx=760, ly=482)

text(30, 530, "ARROWS: REQUEST DIRECTION. DASHED BOX: THIRD PARTY. EVERY POD MAY HOLD UP TO 20 DB CONNECTIONS.", GREY, 1)

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "diagrams", "architecture.png")
write_png(os.path.normpath(out))
print("wrote", os.path.normpath(out))
