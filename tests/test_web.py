"""`aslrules serve` without a browser (issue 19): the JSON API returns exactly what `aslrules ask
--format json` writes, a save loads back identically, the server reads and writes only its files,
every request is checked and every failure is a message, never a traceback; the busy port, the
rules-in-scope statements and the rulings' status."""

from __future__ import annotations

import io
import json
import re
import shutil
import socket
import sys
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any
from wsgiref.util import setup_testing_defaults

import pytest

bottle = pytest.importorskip("bottle", reason="the web extra is not installed: pip install '.[web]' (or '.[test]')")

from aslrules.cli import main
from aslrules.loader import load_file, load_text
from aslrules.web import api
from aslrules.web.app import make_app
from aslrules.web.rules import Rules, base_ids, read_scope, scope_file
from aslrules.web.service import Workspace, builtins, comment_lines, situation_yaml

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
REPLAYS = sorted((ROOT / "tests" / "cases" / "replays").glob("*.yaml"))
HOST = "127.0.0.1:8765"


def cli(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                code = main(list(args))
            except SystemExit as e:  # argparse's usage errors
                code = e.code if isinstance(e.code, int) else 1
    finally:
        sys.stdin = saved
    return code, out.getvalue(), err.getvalue()


class Client:
    """Requests straight into the WSGI app, as the browser sends them."""

    def __init__(self, ws: Workspace, host: str = HOST):
        self.app = make_app(ws, {HOST, "localhost:8765"})
        self.host = host

    def request(self, method: str, path: str, body: Any = None, ctype: str = "application/json",
                host: str | None = None) -> tuple[int, Any, dict[str, str]]:
        raw = b"" if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        path, _, query = path.partition("?")
        env: dict[str, Any] = {"REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": query,
                               "HTTP_HOST": host or self.host, "CONTENT_LENGTH": str(len(raw)),
                               "wsgi.input": io.BytesIO(raw)}
        if body is not None:
            env["CONTENT_TYPE"] = ctype
        setup_testing_defaults(env)
        got: dict[str, Any] = {}

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> None:
            got["status"], got["headers"] = int(status.split()[0]), dict(headers)

        data = b"".join(self.app(env, start))
        ctype_out = got["headers"].get("Content-Type", "")
        return got["status"], json.loads(data) if "json" in ctype_out else data, got["headers"]

    def get(self, path: str, **kw: Any) -> tuple[int, Any]:
        status, data, _ = self.request("GET", path, **kw)
        return status, data

    def post(self, path: str, body: Any, **kw: Any) -> tuple[int, Any]:
        status, data, _ = self.request("POST", path, body, **kw)
        return status, data


@pytest.fixture
def served(tmp_path: Path) -> Path:
    for f in EXAMPLES:
        shutil.copy(f, tmp_path / f.name)
    return tmp_path


def test_ask_is_the_clis_json(served: Path) -> None:
    """The API's body is what `aslrules ask FILE --format json` writes: FILE itself while the
    situation is the file's as saved, `-` with the situation on standard input once edited."""
    ws = Workspace(str(served))
    c = Client(ws)
    for f in EXAMPLES:
        name = f.name
        status, opened = c.get(f"/api/file?name={name}")
        assert status == 200 and opened["error"] is None
        path = str(served / name)
        for firer in (None, "g-467"):
            body = {"name": name, "situation": opened["data"], **({"firer": firer} if firer else {})}
            status, got = c.post("/api/ask", body)
            code, out, _ = cli("ask", path, "--format", "json", *(["--firer", firer] if firer else []))
            if code == 2:  # that firer is not in this file: the same message, at the same field
                assert status == 400 and got["error"]["path"] == "--firer"
                continue
            assert status == 200 and code == 0
            assert got == json.loads(out)
    # an edited situation: `-` with its text on standard input
    _, opened = c.get("/api/file?name=berserk_charge.yaml")
    data = opened["data"]
    data["units"][0]["counter"] = "5-4-8"
    status, got = c.post("/api/ask", {"name": "berserk_charge.yaml", "situation": data, "firer": "g-467"})
    code, out, _ = cli("ask", "-", "--format", "json", "--firer", "g-467", stdin=situation_yaml(data))
    assert status == 200 and code == 0 and got == json.loads(out) and got["file"] == "-"
    first = [a for a in got["answers"] if a["figures"].get("option") == {"g-467": "first_fire"}
             or a["figures"].get("option") == "first_fire"]
    assert first and first[0]["figures"]["fp_by_firer"]["g-467"] == 10  # the 5-4-8's 5 FP, x2 PBF: the edit counts


def test_the_8_41_ex_attack_through_the_api(served: Path) -> None:
    """A8.41 EX (seed 004): the 4-6-7 and LMG directed by the 8-1 attack at 14 FP and -3 DRM."""
    c = Client(Workspace(str(served)))
    _, opened = c.get("/api/file?name=a8_41_ex_case.yaml")
    status, got = c.post("/api/ask", {"name": "a8_41_ex_case.yaml", "situation": opened["data"], "firer": "g-467"})
    assert status == 200
    a = got["answers"][0]
    assert (a["verdict"], a["figures"]["fp"], a["figures"]["drm"]) == ("allowed", 14, -3)
    assert {r["rule"] for r in a["reasons"]} >= {"A8.1"}
    assert {p["rule"] for p in a["parts"]["drm"]} == {"A7.53", "A8.13"}


@pytest.mark.parametrize("path", EXAMPLES + REPLAYS, ids=lambda p: p.name)
def test_save_loads_back_identically(path: Path, tmp_path: Path) -> None:
    """Open a file, save it unchanged: it loads as the original did (comments dropped on request)."""
    shutil.copy(path, tmp_path / path.name)
    c = Client(Workspace(str(tmp_path / path.name)))
    _, opened = c.get(f"/api/file?name={path.name}")
    body = {"name": path.name, "situation": opened["data"]}
    status, got = c.post("/api/save", body)
    if opened["comments"]:
        assert status == 409 and "comments" in got["error"]["message"]
        assert (tmp_path / path.name).read_text() == path.read_text()  # refused: nothing written
        status, got = c.post("/api/save", {**body, "drop_comments": True})
    assert status == 200, got
    assert load_file(tmp_path / path.name).data == load_file(path).data
    # and the page's situation, opened again, is the one it sent
    _, again = c.get(f"/api/file?name={path.name}")
    assert again["data"] == opened["data"] and again["comments"] == []


def test_edit_save_reload(served: Path) -> None:
    c = Client(Workspace(str(served / "berserk_charge.yaml")))
    _, opened = c.get("/api/file?name=berserk_charge.yaml")
    data = opened["data"]
    data["units"][0]["counter"] = "5-4-8"
    data["units"].append({"id": "g-548", "side": "german", "type": "squad", "counter": "5-4-8", "hex": "Y2",
                          "weapons": [{"id": "g-mmg", "kind": "MMG", "fp": 4, "range": 10, "rof": 2}]})
    data["locations"]["Y2"] = {"terrain": "woods", "tem": 1}
    data["lines_of_sight"] = [{"from": "Y2", "to": "W2", "hindrance": 1}]
    status, got = c.post("/api/save", {"name": "berserk_charge.yaml", "situation": data, "drop_comments": True})
    assert status == 200, got
    _, again = c.get("/api/file?name=berserk_charge.yaml")
    assert again["data"] == data
    assert builtins(load_file(served / "berserk_charge.yaml").data) == data


def test_text_the_loader_reads_as_numbers_is_quoted() -> None:
    """A text like `1e2`, `on` or `010` is saved quoted: it loads back as the same text."""
    data = {"title": "on", "source": "1e2", "attacker": "010", "units": [
        {"id": "1e2", "side": "yes", "type": "squad", "counter": "4-6-7", "hex": "X2"},
        {"id": "u2", "side": "010", "type": "squad", "counter": "4-6-7", "hex": "X3"}]}
    sit = load_text(situation_yaml(data), "t.yaml")
    got = (sit.title, sit.source, sit.attacker, sit.units[0].id, sit.units[0].side)
    assert got == ("on", "1e2", "010", "1e2", "yes")
    assert builtins(sit.data) == data


def test_save_as_writes_only_new_files_in_the_directory(served: Path) -> None:
    ws = Workspace(str(served / "berserk_charge.yaml"))
    c = Client(ws)
    _, opened = c.get("/api/file?name=berserk_charge.yaml")
    body = {"name": "berserk_charge.yaml", "situation": opened["data"]}
    for bad in ("../escape.yaml", "/tmp/x.yaml", "sub/x.yaml", "x.txt", ".yaml", "a" * 130 + ".yaml"):
        status, got = c.post("/api/save", {**body, "save_as": bad})
        assert status == 400 and ("save as" in got["error"]["message"] or "save_as" in got["error"]["message"]), bad
    status, got = c.post("/api/save", {**body, "save_as": "gun_ca.yaml"})  # exists
    assert status == 409 and "exists" in got["error"]["message"]
    assert (served / "gun_ca.yaml").read_text() == (ROOT / "examples" / "gun_ca.yaml").read_text()
    status, got = c.post("/api/save", {**body, "save_as": "my_turn.yaml"})
    assert status == 200 and got["saved"] == "my_turn.yaml"
    assert load_file(served / "my_turn.yaml").data == load_file(served / "berserk_charge.yaml").data
    assert "my_turn.yaml" in c.get("/api/files")[1]["files"]
    assert not (served.parent / "escape.yaml").exists()


def test_only_the_files_it_was_started_on(served: Path) -> None:
    c = Client(Workspace(str(served / "berserk_charge.yaml")))
    assert c.get("/api/files")[1]["files"] == ["berserk_charge.yaml"]
    for name in ("gun_ca.yaml", "../berserk_charge.yaml", "/etc/passwd", str(served / "gun_ca.yaml")):
        status, got = c.get(f"/api/file?name={name}")
        assert status == 404 and "started on" in got["error"]["message"]
        status, got = c.post("/api/ask", {"name": name, "situation": {"attacker": "x"}})
        assert status == 404
    status, _ = c.get("/static/../service.py")
    assert status == 404


def test_requests_are_checked_and_failures_are_messages(served: Path) -> None:
    c = Client(Workspace(str(served)))
    _, opened = c.get("/api/file?name=berserk_charge.yaml")
    good = {"name": "berserk_charge.yaml", "situation": opened["data"]}
    # another Host (DNS rebinding) and a body that is not JSON (a cross-site form)
    assert c.get("/api/files", host="evil.example:8765")[0] == 403
    assert c.post("/api/ask", good, ctype="application/x-www-form-urlencoded")[0] == 415
    assert c.post("/api/ask", b"{not json")[0] == 400
    status, got = c.post("/api/ask", {**good, "extra": 1})
    assert status == 400 and "extra" in got["error"]["message"]
    status, got = c.post("/api/ask", {**good, "firer": "x; DROP"})
    assert status == 400 and "firer" in got["error"]["message"]
    # the loader's own message, at the field
    bad = json.loads(json.dumps(opened["data"]))
    bad["units"][0]["weapons"][0]["rof"] = 9
    for route in ("/api/validate", "/api/ask", "/api/save"):
        status, got = c.post(route, {**good, "situation": bad})
        assert status == 400 and got["error"]["path"] == "units[0].weapons[0].rof", route
        assert "expected a whole number from 1 to 6, got 9" in got["error"]["message"]
        assert str(served / "berserk_charge.yaml") in got["error"]["message"]
    # what only the map can tell (the KB's input checks), at its field
    far = json.loads(json.dumps(opened["data"]))
    far["units"][2]["moving"]["from"] = "A1"
    status, got = c.post("/api/validate", {**good, "situation": far})
    assert status == 400 and got["error"]["path"].startswith("units[2].moving"), got
    # an unknown route and an unexpected failure: JSON messages, no traceback
    status, got = c.get("/api/nothing")
    assert status == 404 and "error" in got
    status, got = c.post("/api/replay", good)
    assert status == 400 and "sequence" in got["error"]["message"]
    for status, got in (c.post("/api/ask", {**good, "situation": []}), c.post("/api/ask", {"name": "x"})):
        assert status == 400 and "Traceback" not in json.dumps(got)
    assert (served / "berserk_charge.yaml").read_text() == (ROOT / "examples" / "berserk_charge.yaml").read_text()


def test_internal_errors_are_messages(served: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    ws = Workspace(str(served))
    monkeypatch.setattr(ws, "file_list", lambda: 1 / 0)
    status, got = Client(ws).get("/api/files")
    assert status == 500 and got == {"error": {"message": "internal error: ZeroDivisionError: division by zero"}}
    assert "Traceback" in capsys.readouterr().err  # on the server's console only


def test_page_and_headers(served: Path) -> None:
    c = Client(Workspace(str(served)))
    status, html, headers = c.request("GET", "/")
    assert status == 200 and b"/static/app.js" in html and not re.search(rb'(src|href)="(https?:)?//', html)
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    for name in ("app.js", "app.css"):
        status, body, _ = c.request("GET", f"/static/{name}")
        assert status == 200 and b"https://" not in body  # nothing fetched from elsewhere


def test_replay_api(tmp_path: Path) -> None:
    src = ROOT / "tests" / "cases" / "replays" / "ex_8_41.yaml"
    shutil.copy(src, tmp_path / src.name)
    c = Client(Workspace(str(tmp_path)))
    _, opened = c.get(f"/api/file?name={src.name}")
    status, got = c.post("/api/replay", {"name": src.name, "situation": opened["data"]})
    assert status == 200
    _, out, _ = cli("replay", str(tmp_path / src.name), "--format", "json")
    want = json.loads(out)
    assert [s["text"] for s in got["steps"]] == [s["text"] for s in want["steps"]]
    assert [s["answer"] for s in got["steps"]] == [s["answer"] for s in want["steps"]]
    assert len(got["states"]) == len(got["steps"]) + 1
    # the state before step 2 (the first attack) has the 6-2-8 in W2, moving; 8.41 EX
    before = {u["id"]: u for u in got["states"][1]["units"]}
    assert before["r-628"]["hex"] == "W2" and before["r-628"]["moving"]["mf_here"] == 1
    fpf = next(s for s in got["steps"] if s["kind"] == "attack" and "final_protective_fire" in s["text"])
    assert (fpf["answer"]["verdict"], fpf["answer"]["figures"]["fp"], fpf["answer"]["figures"]["drm"]) == (
        "mandatory", 10.5, 1)
    illegal = ROOT / "tests" / "cases" / "replays" / "illegal_first_fire_twice.yaml"
    shutil.copy(illegal, tmp_path / illegal.name)
    c = Client(Workspace(str(tmp_path)))
    _, opened = c.get(f"/api/file?name={illegal.name}")
    _, got = c.post("/api/replay", {"name": illegal.name, "situation": opened["data"]})
    bad = [s for s in got["steps"] if not s["legal"]]
    assert bad and all(s["problems"] for s in bad)


def test_comment_lines() -> None:
    text = "# head\ntitle: 'a # not a comment'  # one\nunits: [] #two\nsource: x#y\n"
    assert comment_lines(text) == [1, 2, 3]
    assert comment_lines("title: a\n") == []


def test_openapi(served: Path) -> None:
    status, doc = Client(Workspace(str(served))).get("/api/openapi.json")
    assert status == 200 and doc["openapi"].startswith("3.1")
    assert {"/api/ask", "/api/save", "/api/replay", "/api/validate", "/api/file"} <= set(doc["paths"])
    text = json.dumps(doc)
    for ref in set(re.findall(r'"#/components/schemas/([A-Za-z]+)"', text)):
        assert ref in doc["components"]["schemas"], ref
    assert "#/$defs/" not in text
    props = doc["components"]["schemas"]["AskRequest"]["properties"]
    assert props["situation"] == {"$ref": "#/components/schemas/Situation"} and "firer" in props
    assert api.decode(b'{"name": "x", "situation": {}}', api.AskRequest).name == "x"


def test_rules_in_scope_and_rulings() -> None:
    statements = read_scope(scope_file())
    ids = {s["rule"] for s in statements}
    assert {"A8.1", "A8.31", "A8.312"} <= ids
    assert base_ids("A8.41 EX", ids) == (["A8.41"] if "A8.41" in ids else [])
    assert base_ids("A8.312", ids) == ["A8.312"] and base_ids("A8.3129", ids) == []
    r = Rules(str(ROOT / "tests" / "data" / "rulings" / "report"))
    index = r.index()
    assert {x["ruling"] for x in index["rulings"]} >= {"T1", "T2"} and index["rulings_error"] is None
    assert Rules(None).check_status() == {"state": "none", "rulings": {}}
    assert "not a directory" in Rules("/nonexistent").index()["rulings_error"]


def test_rulings_check_status(tmp_path: Path) -> None:
    """The rulings' check status, as `aslrules rulings` reports it, computed in a worker process."""
    folder = tmp_path / "rulings"
    folder.mkdir()
    shutil.copy(ROOT / "tests" / "data" / "rulings" / "report" / "T1.yaml", folder)
    r = Rules(str(folder))
    deadline = time.monotonic() + 300
    status = r.check_status()
    while status["state"] == "checking" and time.monotonic() < deadline:
        time.sleep(0.5)
        status = r.check_status()
    _, out, _ = cli("rulings", str(folder), "--format", "json")
    want = {x["ruling"]: x["check"] for x in json.loads(out)["rulings"]}
    assert status["state"] == "done"
    assert {k: v["check"] for k, v in status["rulings"].items()} == want == {"T1": "holds"}


def test_serve_busy_port_and_bad_target(tmp_path: Path) -> None:
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        code, _, err = cli("serve", str(ROOT / "examples"), "--port", str(port))
    finally:
        taken.close()
    assert code == 2 and "in use" in err and "--port" in err and "Traceback" not in err
    code, _, err = cli("serve", str(tmp_path / "nothing.yaml"))
    assert code == 2 and "nothing there" in err
    code, _, err = cli("serve", "--port", "70000")
    assert code == 2 and "port number" in err


def test_serve_without_the_web_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "bottle", None)  # import bottle fails, as without the extra
    monkeypatch.delitem(sys.modules, "aslrules.web.app", raising=False)
    code, _, err = cli("serve", str(ROOT / "examples"), "--port", "0")
    assert code == 2 and "pip install 'aslrules[web]'" in err and "Traceback" not in err
