"""`aslrules serve [FILE|DIR] [--port N] [--host HOST] [--rulings DIR]`: registered by aslrules/cli.py
(`add_parsers`, `COMMANDS`).  The web framework is imported only when the command runs."""

from __future__ import annotations

import argparse
import errno
import signal
import sys

from ..errors import InputError

PORT = 8765


def _port(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = -1
    if not 0 <= n <= 65535:
        raise argparse.ArgumentTypeError(f"a port number from 0 to 65535, 0 for any free port (got {text!r})")
    return n


def add_parsers(sub: argparse._SubParsersAction) -> None:
    s = sub.add_parser("serve", help="a local web page: the map, set-up forms, answers and replays",
                       description="Serve a local web page over situation files: an SVG hex map of the situation, "
                       "forms to set it up (only values the format allows), a click on a DEFENDER unit, weapon or "
                       "Location for its attacks with their figures and reasons (rule ids link to their statements "
                       "and rulings), and the steps of a sequence: to walk through. It reads and writes only FILE "
                       "(or the files under DIR), and new files in that directory by an explicit save-as. It listens "
                       f"on 127.0.0.1:{PORT} unless told otherwise. Example: aslrules serve "
                       "examples/berserk_charge.yaml, then open http://127.0.0.1:8765/")
    s.add_argument("target", nargs="?", default=".", metavar="FILE|DIR",
                   help="a situation file, or a directory of them (default: the current directory)")
    s.add_argument("--port", type=_port, default=PORT, metavar="N",
                   help=f"the port (default {PORT}; 0: any free port, printed)")
    s.add_argument("--host", metavar="HOST",
                   help="listen on this address instead of 127.0.0.1: the page then answers anyone who reaches it")
    s.add_argument("--rulings", metavar="DIR",
                   help="the ruling files shown beside a rule id (default: ./rulings, when it holds any)")


def _cmd_serve(args: argparse.Namespace) -> int:
    try:
        from .app import server
    except ImportError as e:
        raise InputError("serve", None, "", "the web extra installed: pip install 'aslrules[web]'",
                         f"missing {e.name}") from None
    from .rules import default_rulings
    from .service import Workspace

    ws = Workspace(args.target, args.rulings if args.rulings is not None else default_rulings())
    host = args.host or "127.0.0.1"
    try:
        srv = server(ws, host, args.port, explicit_host=args.host is not None)
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            raise InputError(f"{host}:{args.port}", None, "--port", "a free port (another server, perhaps another "
                             "aslrules serve, uses this one; --port N picks another, --port 0 any free one)",
                             "in use") from None
        raise InputError(f"{host}:{args.port}", None, "--host", "an address of this machine to listen on",
                         e.strerror or str(e)) from None
    port = srv.server_address[1]
    shown = f"[{host}]" if ":" in host else host
    print(f"aslrules serve: http://{shown}:{port}/ serves {args.target} (Ctrl-C stops)", flush=True)
    if args.host is not None and host not in ("127.0.0.1", "localhost", "::1"):
        print(f"aslrules serve: listening on {host}: anyone who reaches it can read and save these files",
              file=sys.stderr, flush=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # stop as Ctrl-C does (the rulings check too)
    try:
        srv.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        print("aslrules serve: stopped", file=sys.stderr)
    finally:
        srv.server_close()
    return 0


COMMANDS = {"serve": _cmd_serve}
