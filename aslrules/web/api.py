"""The page's JSON API: the request bodies (msgspec Structs: every request is checked against them
before anything else reads it) and the OpenAPI description made from them and from the format's
own JSON Schema (`aslrules schema`), served at /api/openapi.json."""

from __future__ import annotations

import json
from typing import Annotated, Any

import msgspec
from msgspec import Meta, Struct

from .. import __version__
from ..schema import ID_PATTERN, json_schema

Name = Annotated[str, Meta(min_length=1, max_length=300, description="a file's name, as /api/files lists it")]
Ident = Annotated[str, Meta(pattern=ID_PATTERN, description="a unit's or weapon's id")]


class Request(Struct, forbid_unknown_fields=True, kw_only=True):
    name: Name
    situation: dict[str, Any]  # the format's mapping: checked by the loader, as a file is


class AskRequest(Request, kw_only=True):
    firer: Ident | None = None
    target: Ident | None = None


class SaveRequest(Request, kw_only=True):
    save_as: Annotated[str, Meta(max_length=120, description="a new file in the served directory")] | None = None
    drop_comments: bool = False


def decode(body: bytes, tp: type) -> Any:
    """A request body as `tp`; a body that is not one is a message naming what was expected."""
    try:
        return msgspec.json.decode(body, type=tp)
    except msgspec.ValidationError as e:
        raise ValueError(f"the request body: {e}") from None
    except msgspec.DecodeError as e:
        raise ValueError(f"the request body: JSON, {e}") from None


_ERROR = {"type": "object", "required": ["error"], "properties": {"error": {
    "type": "object", "required": ["message"],
    "properties": {"message": {"type": "string", "description": "the loader's or the server's message "
                                                                "(file:line: field.path: expected ..., got ...)"},
                   "file": {"type": ["string", "null"]}, "line": {"type": ["integer", "null"]},
                   "path": {"type": ["string", "null"], "description": "the field it names (units[0].counter)"},
                   "expected": {"type": ["string", "null"]}, "got": {"type": ["string", "null"]}}}}}

_ANSWER = {"type": "object", "description": "one answer: the KB's verdict, roles, reasons, figures (docs/format.md, "
           "Answers)", "properties": {
               "question": {}, "kind": {"type": "string"}, "verdict": {"type": "string"},
               "roles": {"type": "object", "additionalProperties": {"type": "array"}},
               "reasons": {"type": "array", "items": {"$ref": "#/components/schemas/Reason"}},
               "figures": {"type": "object"}, "figure_reasons": {"type": "object"}, "parts": {"type": "object"}}}


def openapi() -> dict[str, Any]:
    """The API as OpenAPI 3.1 (its schemas are JSON Schema 2020-12, as `aslrules schema` prints)."""
    fmt = json_schema()
    defs = fmt.pop("$defs")
    situation = {k: v for k, v in fmt.items() if k not in ("$schema", "$id")}
    schemas = json.loads(json.dumps({**defs, "Situation": situation}).replace("#/$defs/", "#/components/schemas/"))
    _, comps = msgspec.json.schema_components([Request, AskRequest, SaveRequest],
                                              ref_template="#/components/schemas/{name}")
    for c in comps.values():
        if "situation" in c.get("properties", {}):
            c["properties"]["situation"] = {"$ref": "#/components/schemas/Situation"}
    schemas.update(comps)
    schemas["Error"] = _ERROR
    schemas["Reason"] = {"type": "object", "properties": {k: {"type": "string"} for k in ("rule", "text", "role")}}
    schemas["Answer"] = _ANSWER
    schemas["AskOutput"] = {
        "type": "object", "description": "exactly what `aslrules ask FILE --format json` writes (FILE: the file "
        "when the situation sent is the file as saved, else `-`, the situation on standard input); a listing may "
        "carry more keys (its groups), which the page shows as they come",
        "required": ["file", "answers"], "properties": {
            "file": {"type": "string"}, "title": {"type": "string"},
            "answers": {"type": "array", "items": {"$ref": "#/components/schemas/Answer"}}}}

    def body(ref: str) -> dict[str, Any]:
        return {"required": True, "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{ref}"}}}}

    def out(desc: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
        ok = {"description": desc, "content": {"application/json": {"schema": schema or {"type": "object"}}}}
        err = {"description": "a message: the loader's error at a field, or a refused request",
               "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
        return {"200": ok, "400": err, "404": err, "409": err}

    situation_req = {"$ref": "#/components/schemas/Request"}
    name_param = [{"name": "name", "in": "query", "required": True, "schema": {"type": "string"}}]
    paths = {
        "/api/files": {"get": {"summary": "the files this server was started on", "responses": out("names")}},
        "/api/file": {"get": {"summary": "a file: its text, its situation (the format's mapping), the loader's "
                              "error if any, the lines of its comments", "parameters": name_param,
                              "responses": out("the file")}},
        "/api/validate": {"post": {"summary": "check a situation: the loader, then the KB's input checks "
                                   "(aslrules validate)", "requestBody": {"required": True, "content": {
                                       "application/json": {"schema": situation_req}}},
                                   "responses": out("{ok: true, yaml: the file it would save}")}},
        "/api/ask": {"post": {"summary": "aslrules ask --format json on the situation (--firer, --target: the "
                              "listing's filters)", "requestBody": body("AskRequest"),
                              "responses": out("the answers", {"$ref": "#/components/schemas/AskOutput"})}},
        "/api/replay": {"post": {"summary": "aslrules replay --format json on the situation, with `states`: the "
                                 "situation before each step and after the last", "requestBody": {
                                     "required": True, "content": {"application/json": {"schema": situation_req}}},
                                 "responses": out("the replay")}},
        "/api/save": {"post": {"summary": "write the situation over its file, or (save_as) into a new file of the "
                               "served directory; read back, it loads as the situation sent",
                               "requestBody": body("SaveRequest"), "responses": out("{saved, path, text}")}},
        "/api/schema": {"get": {"summary": "the format as JSON Schema (aslrules schema)", "responses": out("schema")}},
        "/api/rules": {"get": {"summary": "rule statements (rules-in-scope) and ruling files by rule id",
                               "responses": out("statements and rulings")}},
        "/api/rulings/status": {"get": {"summary": "the rulings' check status (aslrules rulings), once checked",
                                        "responses": out("status")}},
    }
    return {"openapi": "3.1.0", "info": {"title": "aslrules serve", "version": __version__,
                                         "description": "The JSON API of the page `aslrules serve` shows: the same "
                                         "loader, schema, KB and answers as the command line."},
            "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
            "paths": paths, "components": {"schemas": schemas}}
