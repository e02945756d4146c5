"""Benchmark (not a test) of `aslrules serve`, and the web frameworks weighed for it.

    python bench/web.py [--repeats N] [--frameworks]

1. Server CPU per ask at 20 units: `aslrules serve` runs in its own process on bench/run.py's
   20-unit situation (one declared attack); this script sends POST /api/ask over loopback, N
   times, and reads the server process's CPU time (utime + stime, /proc) before and after: the
   server's whole cost of a question (HTTP, the JSON body, the loader, the CLI's ask code, the
   KB, the JSON out).  Twice: the situation as saved (`aslrules ask FILE`) and edited (`-`).
   Against it, the CLI's warm in-process question: `aslrules.core.ask` on the loaded situation,
   N times in this process (CPU time).  Rounds of both are interleaved; min and median per ask.
2. With --frameworks: for Bottle, Flask and Starlette, the CPU time of importing them (a new
   process each time, median of 5) and the CPU per request of a one-route JSON app called in
   process (WSGI, or ASGI for Starlette), and what they install.

Only the standard library and aslrules (and the frameworks, for --frameworks).  Linux (/proc).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from run import situation

TICK = os.sysconf("SC_CLK_TCK")


def proc_cpu(pid: int) -> float:
    """A process's CPU seconds so far (user + system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def post(url: str, body: bytes) -> bytes:
    req = urllib.request.Request(url, body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as r:
        return r.read()


def serve_bench(repeats: int, rounds: int) -> None:
    from aslrules.core import ask
    from aslrules.loader import load_file
    from aslrules.web.service import builtins

    folder = Path(tempfile.mkdtemp(prefix="aslrules-web-bench-"))
    path = folder / "bench20.yaml"
    path.write_text(situation(20, 1))
    sit = load_file(path)
    saved = json.dumps({"name": path.name, "situation": builtins(sit.data)}).encode()
    edited_data = builtins(sit.data)
    edited_data["title"] = "bench 20 units, edited"
    edited = json.dumps({"name": path.name, "situation": edited_data}).encode()
    proc = subprocess.Popen([sys.executable, "-m", "aslrules", "serve", str(folder), "--port", "0"],
                            stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        base = re.search(r"http://127\.0\.0\.1:\d+/", line)
        assert base, line
        url = base.group() + "api/ask"
        for body in (saved, edited):  # warm: the solver's KB parsed, the caches filled
            json.loads(post(url, body))
        for _ in range(3):
            ask(sit)
        server: dict[str, list[float]] = {"saved": [], "edited": []}
        cli: list[float] = []
        for _ in range(rounds):
            for kind, body in (("saved", saved), ("edited", edited)):
                before = proc_cpu(proc.pid)
                for _ in range(repeats):
                    post(url, body)
                server[kind].append((proc_cpu(proc.pid) - before) / repeats)
            t = time.process_time()
            for _ in range(repeats):
                ask(sit)
            cli.append((time.process_time() - t) / repeats)
        got = json.loads(post(url, saved))["answers"][0]["figures"]
        assert (got["fp"], got["drm"]) == (14, -3), got
    finally:
        proc.terminate()
        proc.wait(10)
    ms = lambda xs: f"min {min(xs) * 1000:.1f} ms, median {statistics.median(xs) * 1000:.1f} ms"
    print(f"20 units, one declared attack; {rounds} rounds of {repeats} asks each, interleaved")
    print(f"  CLI warm in-process question (core.ask):       {ms(cli)}")
    for kind in ("saved", "edited"):
        ratio = statistics.median(server[kind]) / statistics.median(cli)
        print(f"  server CPU per POST /api/ask ({kind:6}):        {ms(server[kind])}  ({ratio:.2f}x the CLI's median)")


def framework_bench() -> None:
    apps = {
        "bottle": ("import bottle", """
import bottle, io
app = bottle.Bottle()
@app.post('/api/ask')
def ask():
    return bottle.HTTPResponse(b'{"answers": []}', headers={'Content-Type': 'application/json'})
def call():
    env = {'REQUEST_METHOD': 'POST', 'PATH_INFO': '/api/ask', 'wsgi.input': io.BytesIO(b'{}'), 'CONTENT_LENGTH': '2',
           'CONTENT_TYPE': 'application/json', 'SERVER_NAME': 'x', 'SERVER_PORT': '1', 'wsgi.url_scheme': 'http'}
    return b''.join(app(env, lambda s, h, e=None: None))
"""),
        "flask": ("import flask", """
import flask, io
app = flask.Flask('b')
@app.post('/api/ask')
def ask():
    return flask.Response(b'{"answers": []}', content_type='application/json')
def call():
    env = {'REQUEST_METHOD': 'POST', 'PATH_INFO': '/api/ask', 'wsgi.input': io.BytesIO(b'{}'), 'CONTENT_LENGTH': '2',
           'CONTENT_TYPE': 'application/json', 'SERVER_NAME': 'x', 'SERVER_PORT': '1', 'wsgi.url_scheme': 'http'}
    return b''.join(app(env, lambda s, h, e=None: None))
"""),
        "starlette": ("import starlette.applications, starlette.routing, uvicorn", """
import asyncio
from starlette.applications import Starlette
from starlette.responses import Response
from starlette.routing import Route
async def ask(request):
    await request.body()
    return Response(b'{"answers": []}', media_type='application/json')
app = Starlette(routes=[Route('/api/ask', ask, methods=['POST'])])
loop = asyncio.new_event_loop()
def call():
    scope = {'type': 'http', 'method': 'POST', 'path': '/api/ask', 'headers': [(b'content-type', b'application/json')],
             'query_string': b'', 'root_path': '', 'scheme': 'http', 'server': ('x', 1), 'http_version': '1.1'}
    sent = []
    async def receive():
        return {'type': 'http.request', 'body': b'{}', 'more_body': False}
    async def send(m):
        sent.append(m)
    loop.run_until_complete(app(scope, receive, send))
    return sent
"""),
    }
    print("framework     import (CPU, median of 5)   per request in process (CPU, median)")
    for name, (imp, code) in apps.items():
        times = []
        for _ in range(5):
            script = f"import time; t = time.process_time(); {imp}; print(time.process_time() - t)"
            out = subprocess.run([sys.executable, "-c", script], check=False, capture_output=True, text=True)
            if out.returncode:
                times = []
                break
            times.append(float(out.stdout))
        if not times:
            print(f"{name:12}  not installed")
            continue
        ns: dict = {}
        exec(code, ns)  # noqa: S102 - the bench's own app definitions above
        for _ in range(200):
            ns["call"]()
        per = []
        for _ in range(7):
            t = time.process_time()
            for _ in range(2000):
                ns["call"]()
            per.append((time.process_time() - t) / 2000)
        print(f"{name:12}  {statistics.median(times) * 1000:6.1f} ms                    "
              f"{statistics.median(per) * 1e6:6.1f} us")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--repeats", type=int, default=10)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--frameworks", action="store_true")
    args = p.parse_args()
    serve_bench(args.repeats, args.rounds)
    if args.frameworks:
        framework_bench()


if __name__ == "__main__":
    main()
