#!/usr/bin/python3
"""Open an iobench report in headless Chromium and check what the issue asks
(tests/e2e/test_report.sh). Standard library only: Debian's python3 has no
websocket module, so the DevTools protocol is spoken over a small websocket
client of its own.

  report_browser.py load PAGE.html
      loads the page through the DevTools protocol and prints one JSON object:
      every request the page made, console messages and exceptions, log
      entries of level error, and the render time (navigation to the load
      event, as the client saw it, and the page's own navigation timing).
  report_browser.py dom DUMP.html SECTION...
      reads a --dump-dom of the page and prints one JSON object: the sections
      present, and per plot (figure) whether it is an inline SVG with drawn
      data (a path, polyline or polygon of 2 or more points inside a plot
      group of gnuplot's) and its text labels.
  report_browser.py md REPORT.md
      parses a --format md report with python3-markdown (tables extension)
      and prints one JSON object: per table its header and the number of
      rows and of cells in each, and the raw table lines that are not rows
      of a table in the parsed document.
  report_browser.py fio FIO.out REPORT.md
      FIO.out is fio --output-format=json,normal: the figures of fio's normal
      output (per direction bw, IOPS, clat p50 and p99) beside the same
      figures in the report's figures table, as JSON.
"""
import base64
import html.parser
import json
import os
import re
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request

CHROMIUM = os.environ.get("CHROMIUM", "chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class WS:
    """A websocket client (RFC 6455) enough for DevTools: text frames."""

    def __init__(self, url):
        m = re.match(r"ws://([^:/]+):(\d+)(/.*)", url)
        self.s = socket.create_connection((m.group(1), int(m.group(2))), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.s.sendall((f"GET {m.group(3)} HTTP/1.1\r\nHost: {m.group(1)}:{m.group(2)}\r\n"
                        f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                        "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.s.recv(1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError("websocket handshake failed: %r" % head[:80])
        self.buf = b""
        self.id = 0
        self.events = []

    def _read(self, n):
        while len(self.buf) < n:
            d = self.s.recv(65536)
            if not d:
                raise EOFError("devtools closed the connection")
            self.buf += d
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def send(self, obj):
        data = json.dumps(obj).encode()
        mask = os.urandom(4)
        n = len(data)
        head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else
                                bytes([0x80 | 126]) + struct.pack(">H", n) if n < 65536 else
                                bytes([0x80 | 127]) + struct.pack(">Q", n))
        self.s.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def recv(self):
        msg = b""
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7f
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            payload = self._read(n)
            op = b0 & 0x0f
            if op == 8:
                raise EOFError("devtools closed the websocket")
            if op in (0, 1, 2):
                msg += payload
                if b0 & 0x80:
                    return json.loads(msg)

    def call(self, method, **params):
        self.id += 1
        self.send({"id": self.id, "method": method, "params": params})
        while True:
            m = self.recv()
            if m.get("id") == self.id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def wait(self, method, timeout):
        end = time.monotonic() + timeout
        for i, m in enumerate(self.events):
            if m.get("method") == method:
                return m
        while time.monotonic() < end:
            m = self.recv()
            self.events.append(m)
            if m.get("method") == method:
                return m
        raise TimeoutError(method)


def load(page):
    prof = tempfile.mkdtemp(prefix="iobench-chromium.")
    proc = subprocess.Popen([CHROMIUM, *FLAGS, f"--user-data-dir={prof}", "--remote-debugging-port=0",
                             "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        port = None
        end = time.monotonic() + 30
        while port is None and time.monotonic() < end:
            line = proc.stderr.readline()
            if not line:
                break
            m = re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line)
            if m:
                port = int(m.group(1))
        if port is None:
            raise RuntimeError("chromium did not start its DevTools server")
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10))
        ws = WS([t for t in targets if t["type"] == "page"][0]["webSocketDebuggerUrl"])
        for dom in ("Page", "Network", "Runtime", "Log"):
            ws.call(dom + ".enable")
        url = "file://" + os.path.abspath(page)
        t0 = time.monotonic()
        ws.call("Page.navigate", url=url)
        ws.wait("Page.loadEventFired", 60)
        t1 = time.monotonic()
        timing = json.loads(ws.call("Runtime.evaluate", returnByValue=True, expression=
            "JSON.stringify({nav: performance.getEntriesByType('navigation').map(e => e.toJSON()),"
            " paint: performance.getEntriesByType('paint').map(e => [e.name, e.startTime])})")
            ["result"]["value"])
        ev = ws.events
        out = {
            "url": url,
            "render_ms": round((t1 - t0) * 1000, 1),
            "load_event_ms": round(timing["nav"][0]["loadEventEnd"], 1) if timing["nav"] else None,
            "paint_ms": {k: round(v, 1) for k, v in timing["paint"]},
            "requests": [m["params"]["request"]["url"] for m in ev
                         if m.get("method") == "Network.requestWillBeSent"],
            "console": [m["params"]["type"] + ": " + " ".join(str(a.get("value", a.get("description")))
                        for a in m["params"]["args"]) for m in ev if m.get("method") == "Runtime.consoleAPICalled"],
            "exceptions": [m["params"]["exceptionDetails"].get("text") for m in ev
                           if m.get("method") == "Runtime.exceptionThrown"],
            "log_errors": [m["params"]["entry"]["text"] for m in ev
                           if m.get("method") == "Log.entryAdded" and m["params"]["entry"]["level"] == "error"],
        }
        print(json.dumps(out))
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        subprocess.run(["rm", "-rf", prof])


class Dom(html.parser.HTMLParser):
    """Sections (their ids) and, per figure, its SVG's drawn shapes and texts."""

    def __init__(self):
        super().__init__()
        self.sections = []
        self.figures = []
        self.fig = None
        self.plot_depth = 0  # inside a gnuplot_plot_N group: its depth of <g>
        self.g_depth = 0
        self.in_text = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section" and a.get("id"):
            self.sections.append(a["id"])
        if tag == "figure":
            self.fig = {"svg": False, "shapes": 0, "points": 0, "texts": [], "caption": ""}
            self.figures.append(self.fig)
        if self.fig is None:
            return
        if tag == "svg":
            self.fig["svg"] = True
        if tag == "g":
            self.g_depth += 1
            if re.search(r"gnuplot_plot_\d+$", a.get("id", "")):
                self.plot_depth = self.g_depth
        if self.plot_depth and tag in ("path", "polyline", "polygon"):
            pts = re.findall(r"-?\d+(?:\.\d+)?\s*,\s*-?\d+(?:\.\d+)?|-?\d+(?:\.\d+)?\s+-?\d+(?:\.\d+)?",
                             a.get("d", "") + " " + a.get("points", ""))
            if len(pts) >= 2:
                self.fig["shapes"] += 1
                self.fig["points"] += len(pts)
        if tag == "text":
            self.in_text = True
        if tag == "figcaption":
            self.in_text = "caption"

    def handle_endtag(self, tag):
        if tag == "g" and self.fig is not None:
            if self.plot_depth == self.g_depth:
                self.plot_depth = 0
            self.g_depth -= 1
        if tag in ("text", "figcaption"):
            self.in_text = False
        if tag == "figure":
            self.fig = None

    def handle_data(self, data):
        if self.fig is not None and self.in_text == "caption":
            self.fig["caption"] += data
        elif self.fig is not None and self.in_text and data.strip():
            self.fig["texts"].append(data.strip())


def dom(path):
    p = Dom()
    p.feed(open(path, encoding="utf-8").read())
    print(json.dumps({"sections": p.sections, "figures": p.figures}))


def md(path):
    import markdown
    text = open(path, encoding="utf-8").read()
    doc = markdown.markdown(text, extensions=["tables"])
    tables = []
    for t in re.findall(r"<table>(.*?)</table>", doc, re.S):
        head = [re.sub(r"<.*?>", "", h) for h in re.findall(r"<th(?:\s[^>]*)?>(.*?)</th>", t, re.S)]
        rows = [len(re.findall(r"<td[^>]*>", r)) for r in re.findall(r"<tr>(.*?)</tr>", t, re.S)
                if "<td" in r]
        tables.append({"head": head, "rows": len(rows), "cells": sorted(set(rows))})
    lines = [l for l in text.splitlines() if l.startswith("|") and not l.startswith("| ---")]
    import html as h

    def cell_text(cell):  # a Markdown cell as the parsed document shows it
        return h.escape(re.sub(r"\\(.)", r"\1", cell.strip().replace("**", "")), quote=False)
    # a table line is stray when its first cell is in no parsed table
    in_tables = "".join(re.findall(r"<table>.*?</table>", doc, re.S))
    stray = [l for l in lines if cell_text(l.split("|")[1]) not in in_tables]
    print(json.dumps({"tables": tables, "stray": stray[:5], "pipes_in_text": "<p>|" in doc}))


UNIT = {"": 1, "k": 1e3, "K": 1e3, "M": 1e6}
BYTES = {"B/s": 1, "KiB/s": 1024, "MiB/s": 1024 ** 2, "GiB/s": 1024 ** 3, "TiB/s": 1024 ** 4}
NS = {"ns": 1, "nsec": 1, "us": 1e3, "usec": 1e3, "µs": 1e3, "ms": 1e6, "msec": 1e6, "s": 1e9}


def fio(normal_path, md_path):
    txt = open(normal_path, encoding="utf-8").read()
    start = txt.index("\n{") + 1
    depth, end = 0, start
    for i in range(start, len(txt)):
        depth += {"{": 1, "}": -1}.get(txt[i], 0)
        if depth == 0:
            end = i + 1
            break
    normal = txt[:start] + txt[end:]
    fio_figs = {}
    for m in re.finditer(r"^\s+(read|write|trim): IOPS=([\d.]+)([kM]?), BW=([\d.]+)([KMGT]?i?B/s)"
                         r"(.*?)(?=^\s+(?:read|write|trim): |\Z)", normal, re.S | re.M):
        d = m.group(1)
        fio_figs[d + " iops"] = float(m.group(2)) * UNIT[m.group(3)]
        fio_figs[d + " bw"] = float(m.group(4)) * BYTES[m.group(5)]
        body = m.group(6)
        pm = re.search(r"clat percentiles \((\w+)\):(.*?)(?:\n\s*bw |\n\s*iops|\Z)", body, re.S)
        if pm:
            scale = NS[pm.group(1)]
            for p, v in re.findall(r"([\d.]+)th=\[\s*(\d+)\]", pm.group(2)):
                if p in ("50.00", "99.00"):
                    fio_figs[f"{d} clat p{int(float(p))}"] = float(v) * scale
                    fio_figs[f"{d} clat p{int(float(p))} step"] = scale
    rep = {}
    for line in open(md_path, encoding="utf-8"):
        m = re.match(r"\| ((?:read|write|trim) (?:bw|iops|clat p50|clat p99)) \| ([\d.]+) ([^ (|]+)", line)
        if not m or m.group(1) in rep:
            continue
        v, u = float(m.group(2)), m.group(3)
        if u in BYTES:
            v *= BYTES[u]
        elif u in NS:
            v *= NS[u]
        elif u in ("/s", "k/s", "M/s"):
            v *= UNIT[u[:-2]]
        rep[m.group(1)] = v
    print(json.dumps({"fio": fio_figs, "report": rep}))


if __name__ == "__main__":
    if sys.argv[1] == "md":
        md(sys.argv[2])
        sys.exit(0)
    if sys.argv[1] == "fio":
        fio(sys.argv[2], sys.argv[3])
        sys.exit(0)
    if sys.argv[1] == "load":
        load(sys.argv[2])
    elif sys.argv[1] == "dom":
        dom(sys.argv[2])
    else:
        sys.exit("usage: report_browser.py load PAGE | dom DUMP")
