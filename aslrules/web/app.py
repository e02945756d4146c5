"""The HTTP side of `aslrules serve`: Bottle routes over the Workspace, and the server.

Safety: the server listens on 127.0.0.1 unless `--host` says otherwise, and then answers only
requests whose Host header names that address (a page of another site cannot reach it through
DNS rebinding); a POST must carry JSON (no cross-site form can send one without the browser
asking first, and nothing here answers that question); bodies are held in memory, at most 4 MiB;
every body is decoded into the API's types (api.py) and every situation read by the loader;
every failure is a JSON message, never a traceback (the server's console gets those).
"""

from __future__ import annotations

import json
import logging
import socketserver
import sys
import traceback
from collections.abc import Callable
from importlib import resources
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import bottle

from ..errors import InputError
from . import api
from .service import Problem, Workspace, error_dict

log = logging.getLogger("aslrules.serve")

MAX_BODY = 4 << 20
bottle.BaseRequest.MEMFILE_MAX = MAX_BODY  # larger bodies are refused, never spooled to a file

#: The page's files: served from the package, never from a path a request names.
STATIC_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "frame-ancestors 'none'; base-uri 'none'; form-action 'none'")


def static_files() -> dict[str, tuple[bytes, str]]:
    """name -> (content, type) of every file of aslrules/web/static."""
    out = {}
    for entry in (resources.files("aslrules.web") / "static").iterdir():
        suffix = "." + entry.name.rsplit(".", 1)[-1]
        if entry.is_file() and suffix in STATIC_TYPES:
            out[entry.name] = (entry.read_bytes(), STATIC_TYPES[suffix])
    return out


def _json(data: Any, status: int = 200) -> bottle.HTTPResponse:
    body = data if isinstance(data, (str, bytes)) else json.dumps(data)
    return bottle.HTTPResponse(body, status=status, headers={"Content-Type": "application/json",
                                                             "Cache-Control": "no-store"})


def _error(message: str, status: int, **extra: Any) -> bottle.HTTPResponse:
    return _json({"error": {"message": message, **extra}}, status)


def make_app(ws: Workspace, allowed_hosts: set[str] | None) -> bottle.Bottle:
    """The page and its API over `ws`; `allowed_hosts`: the Host headers answered (None: any)."""
    app = bottle.Bottle(catchall=True)
    app.config["json.enable"] = False
    files = static_files()

    def guarded(fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kw: Any) -> Any:
            try:
                return _json(fn(*args, **kw))
            except InputError as e:
                return _json({"error": error_dict(e)}, 400)
            except Problem as p:
                return _error(p.message, p.status, path=p.path)
            except ValueError as e:  # a request body that is not one of api.py's types
                return _error(str(e), 400)
            except Exception as e:  # noqa: BLE001 - a bug: a message on the page, the traceback on the console
                traceback.print_exc(file=sys.stderr)
                return _error(f"internal error: {type(e).__name__}: {e}", 500)
        wrapper.__name__ = fn.__name__
        return wrapper

    def body(tp: type) -> Any:
        ctype = (bottle.request.content_type or "").split(";")[0].strip()
        if ctype != "application/json":
            raise Problem(f"a JSON request body (Content-Type: application/json), got {ctype or 'none'!r}", 415)
        length = bottle.request.content_length
        if length < 0 or length > MAX_BODY:
            raise Problem(f"a request body of at most {MAX_BODY >> 20} MiB with its Content-Length", 413)
        return api.decode(bottle.request.body.read(), tp)

    @app.hook("before_request")
    def _host() -> None:
        if allowed_hosts is not None and bottle.request.get_header("Host", "") not in allowed_hosts:
            raise bottle.HTTPResponse(json.dumps({"error": {"message": "this server answers only at "
                                                            + " or ".join(sorted(allowed_hosts))}}),
                                      status=403, headers={"Content-Type": "application/json"})

    @app.hook("after_request")
    def _headers() -> None:
        bottle.response.set_header("Content-Security-Policy", CSP)
        bottle.response.set_header("X-Content-Type-Options", "nosniff")
        bottle.response.set_header("Referrer-Policy", "no-referrer")

    def page(name: str) -> bottle.HTTPResponse:
        found = files.get(name)
        if found is None:
            return bottle.HTTPResponse("not found", status=404, headers={"Content-Type": "text/plain"})
        return bottle.HTTPResponse(found[0], headers={"Content-Type": found[1], "Cache-Control": "no-cache"})

    @app.get("/")
    def index() -> Any:
        return page("index.html")

    @app.get("/favicon.ico")
    def favicon() -> Any:
        return bottle.HTTPResponse(status=204)

    @app.get("/static/<name>")
    def static(name: str) -> Any:
        return page(name)

    @app.get("/api/files")
    @guarded
    def files_() -> Any:
        return ws.file_list()

    @app.get("/api/file")
    @guarded
    def file_() -> Any:
        return ws.open(bottle.request.query.getunicode("name") or "")

    @app.post("/api/validate")
    @guarded
    def validate() -> Any:
        req = body(api.Request)
        return ws.validate(req.name, req.situation)

    @app.post("/api/ask")
    @guarded
    def ask() -> Any:
        req = body(api.AskRequest)
        return ws.ask(req.name, req.situation, firer=req.firer, target=req.target)

    @app.post("/api/replay")
    @guarded
    def replay() -> Any:
        req = body(api.Request)
        return ws.replay(req.name, req.situation)

    @app.post("/api/save")
    @guarded
    def save() -> Any:
        req = body(api.SaveRequest)
        return ws.save(req.name, req.situation, save_as=req.save_as, drop_comments=req.drop_comments)

    schema_cache: dict[str, str] = {}

    @app.get("/api/schema")
    @guarded
    def schema() -> Any:
        if "s" not in schema_cache:
            from ..schema import json_schema

            schema_cache["s"] = json.dumps(json_schema(), separators=(",", ":"))
        return schema_cache["s"]

    @app.get("/api/openapi.json")
    @guarded
    def openapi() -> Any:
        return api.openapi()

    @app.get("/api/rules")
    @guarded
    def rules() -> Any:
        return ws.rules.index()

    @app.get("/api/rulings/status")
    @guarded
    def rulings_status() -> Any:
        return ws.rules.check_status()

    @app.error(404)
    @app.error(405)
    @app.error(500)
    def _err(error: bottle.HTTPError) -> str:
        bottle.response.content_type = "application/json"
        return json.dumps({"error": {"message": f"{error.status_line}: {bottle.request.method} "
                                                f"{bottle.request.path}"}})

    return app


class _Quiet(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        log.info("%s %s", self.address_string(), format % args)


class _Server(socketserver.ThreadingMixIn, WSGIServer):
    daemon_threads = True
    # a port another server listens on is an error (Linux never shares a listening port); a port
    # left in TIME_WAIT by a server just stopped is free again (Windows' SO_REUSEADDR would share it)
    allow_reuse_address = sys.platform != "win32"


def server(ws: Workspace, host: str, port: int, explicit_host: bool) -> WSGIServer:
    """The server bound to host:port (port 0: any free port); OSError when the port is taken."""
    srv = make_server(host, port, lambda environ, start: [], server_class=_Server, handler_class=_Quiet)
    real = srv.server_address[1]
    if explicit_host and host not in ("127.0.0.1", "localhost", "::1"):
        allowed = None  # the user chose the address: answer whatever name reaches it
    else:
        names = {"127.0.0.1", "localhost", "[::1]"} | ({host} if explicit_host else set())
        allowed = {f"{n}:{real}" for n in names}
    srv.set_app(make_app(ws, allowed))
    return srv
