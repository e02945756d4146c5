"""Interchange with asl-rulebook2's Q+A files (`aslrules qa import|export`).

asl-rulebook2 (a searchable ASL rulebook) reads every `q+a/*.json` of its data folder: a
mapping of chapter -> entries, each entry `{caption, ruleids, content: [{question, answers:
[[text, source-key], ...]}, ...]}` (an entry's `content`, a content's `question` and `answers`
may each be missing), and `q+a/sources.json` maps a source key to its name (`{"ps": "Perry
Sez"}`).  Content items may carry other keys (`image`, `see_other`): it passes them on.

* import: one ruling skeleton per answered content item (its question, its answers lettered,
  the entry's rule ids, the source's name; no cases, `not_encodable` saying so), written as
  `DIR/<id>.yaml`, never over an existing file;
* export: the rulings checked (`aslrules rulings`) and written back in that shape, one entry per
  ruling, each answer followed by its check status (`[aslrules: holds]`); the content item
  carries the ruling's id, citation and status under `aslrules`, which import reads back.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

from . import schema as S
from .errors import InputError

DEFAULT_SOURCES = {"ps": "Perry Sez"}
STATUS_MARK = re.compile(r"\s*\[aslrules: [^\]]*\]\s*$")
_RULE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 .,()*'/-]{0,39}$")
_MAX_JSON = 16 << 20


def _read_json(path: str) -> Any:
    try:
        with open(path, "rb") as f:
            raw = f.read(_MAX_JSON + 1)
    except OSError as error:
        raise InputError(path, None, "", "a readable file", error.strerror or str(error)) from None
    if len(raw) > _MAX_JSON:
        raise InputError(path, None, "", "a file of at most 16 MiB")
    try:
        return json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as error:
        raise InputError(path, None, "", "UTF-8 text", f"byte {error.start}") from None
    except json.JSONDecodeError as error:
        raise InputError(path, error.lineno, "", "JSON", error.msg) from None


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", text).strip("_")[:40] or "qa"


def skeletons(data: Any, sources: dict[str, str], name: str) -> list[dict[str, Any]]:
    """Ruling skeletons (plain data, ready to dump) for every answered content item of a Q+A file."""
    if not isinstance(data, dict):
        raise InputError(name, None, "", "a mapping of chapter -> Q+A entries", type(data).__name__)
    out: list[dict[str, Any]] = []
    used: set[str] = set()
    for chapter, entries in data.items():
        where = f"[{json.dumps(chapter)}]"
        if not isinstance(entries, list):
            raise InputError(name, None, where, "a list of Q+A entries", type(entries).__name__)
        for i, entry in enumerate(entries):
            at = f"{where}[{i}]"
            if not isinstance(entry, dict):
                raise InputError(name, None, at, "a Q+A entry {caption, ruleids, content}", type(entry).__name__)
            caption = entry.get("caption", "")
            ruleids = entry.get("ruleids", [])
            if not isinstance(caption, str) or not isinstance(ruleids, list) or \
                    not all(isinstance(r, str) and _RULE_RE.match(r) for r in ruleids):
                raise InputError(name, None, at, "a caption (text) and ruleids (a list of rule ids like A8.15)")
            content = entry.get("content", [])
            if not isinstance(content, list):
                raise InputError(name, None, at + ".content", "a list of {question, answers}")
            for k, item in enumerate(content):
                cat = f"{at}.content[{k}]"
                if not isinstance(item, dict):
                    raise InputError(name, None, cat, "a mapping {question, answers}", type(item).__name__)
                answers = item.get("answers", [])
                if not isinstance(answers, list) or not all(
                        isinstance(a, list) and len(a) == 2 and all(isinstance(x, str) for x in a) for a in answers):
                    raise InputError(name, None, cat + ".answers", "a list of [text, source-key] pairs")
                if not answers:
                    continue  # an unanswered question is no ruling
                ours = item.get("aslrules") if isinstance(item.get("aslrules"), dict) else {}
                rid = ours.get("ruling") if isinstance(ours.get("ruling"), str) else None
                if rid is None or not re.match(S.RULING_ID_PATTERN, rid):
                    base = _slug(caption or chapter)
                    rid = next(f"{base}-{n}" for n in range(1, 10_000) if f"{base}-{n}" not in used)
                if rid in used:
                    raise InputError(name, None, cat + ".aslrules.ruling", "a ruling id used once", rid)
                used.add(rid)
                texts = [STATUS_MARK.sub("", text).strip() for text, _ in answers]
                answer = texts[0] if len(texts) == 1 else " ".join(
                    f"({chr(ord('a') + j)}) {t}" for j, t in enumerate(texts))
                keys = list(dict.fromkeys(key for _, key in answers))
                source = ours.get("source") if isinstance(ours.get("source"), str) else \
                    "; ".join(sources.get(key, key) for key in keys) + f" (asl-rulebook2 Q+A: {chapter}, {caption})"
                status = ours.get("status") if ours.get("status") in ("current", "obsolete", "unclear") else "current"
                question = item.get("question")
                ruling = {
                    "ruling": rid, "source": source, "status": status, "rules": list(ruleids),
                    "question": question if isinstance(question, str) and question.strip() else "(no question given)",
                    "answer": answer,
                    "not_encodable": f"not encoded yet: imported from {os.path.basename(name)}; write its cases",
                }
                for key in ("overturned_by", "tensions"):  # what our own export carries
                    if isinstance(ours.get(key), list) and ours[key] and \
                            (key != "overturned_by" or status == "obsolete"):
                        ruling[key] = ours[key]
                order = list(S.Ruling.__struct_encode_fields__)
                ruling = {k: ruling[k] for k in sorted(ruling, key=order.index)}
                for key in ("question", "answer", "source"):
                    if len(ruling[key]) > S.TEXT_MAX:
                        raise InputError(name, None, cat, f"a {key} of at most {S.TEXT_MAX} characters")
                out.append(ruling)
    return out


def import_file(path: str, directory: str, *, sources: str | None = None) -> list[str]:
    """Write a ruling skeleton for every answered question of a Q+A file into `directory`."""
    import yaml

    from .rulings import load_ruling_text

    data = _read_json(path)
    names = DEFAULT_SOURCES
    if sources is not None:
        names = _read_json(sources)
        if not isinstance(names, dict) or not all(isinstance(v, str) for v in names.values()):
            raise InputError(sources, None, "", 'a mapping of source key -> name, like {"ps": "Perry Sez"}')
    rulings = skeletons(data, names, path)
    texts = []
    for r in rulings:
        text = "# a ruling skeleton imported by `aslrules qa import`: add cases (docs/rulings.md)\n" + \
               yaml.safe_dump(r, sort_keys=False, allow_unicode=True, width=100)
        load_ruling_text(text, os.path.join(directory, r["ruling"] + ".yaml"))  # what we write reads back
        texts.append((os.path.join(directory, r["ruling"] + ".yaml"), text))
    os.makedirs(directory, exist_ok=True)
    written = []
    for target, text in texts:
        write_new(target, text)
        written.append(target)
    return written


def write_new(path: str, text: str) -> None:
    try:
        with open(path, "x", encoding="utf-8") as out:
            out.write(text)
    except OSError as error:
        raise InputError(path, None, "", "a new file to write", error.strerror or str(error)) from None


def _source_key(source: str, sources: dict[str, str]) -> str:
    for key, name in sources.items():
        if name.casefold() in source.casefold():
            return key
    return "aslrules"


def export(paths: list[str], *, sources: dict[str, str] | None = None) -> tuple[dict[str, Any], dict[str, str]]:
    """The rulings under `paths`, checked, as a Q+A mapping and its sources map."""
    from .consistency import report, verdict_text
    from .rulings import load_rulings

    names = dict(sources or DEFAULT_SOURCES)
    rep = report(load_rulings(paths))
    chapters: dict[str, list[dict[str, Any]]] = {}
    used: dict[str, str] = {}
    for res in rep.results:
        r = res.ruling.data
        key = _source_key(r.source, names)
        used[key] = names.get(key, "aslrules rulings")
        letter = r.rules[0][0].upper() if r.rules and r.rules[0][0].isalpha() else ""
        chapter = f"Chapter {letter}" if letter else "Other"
        item = {"question": r.question.strip(),
                "answers": [[f"{r.answer.strip()} [aslrules: {verdict_text(res)}]", key]],
                "aslrules": {"ruling": r.ruling, "source": r.source, "status": r.status, "check": res.status,
                             **({"overturned_by": [{"reading": x.reading, "value": x.value} for x in r.overturned_by]}
                                if r.overturned_by else {}),
                             **({"tensions": list(r.tensions)} if r.tensions else {})}}
        chapters.setdefault(chapter, []).append(
            {"caption": " & ".join(r.rules) or r.ruling, "ruleids": list(r.rules), "content": [item]})
    ordered = {c: chapters[c] for c in sorted(chapters, key=lambda c: (c == "Other", c))}
    return ordered, used
