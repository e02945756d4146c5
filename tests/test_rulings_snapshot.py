"""The rulings corpus in the gate: `aslrules rulings rulings` decides what
tests/data/rulings-snapshot.json says, ruling by ruling (status, the readings varied and under
which it holds), with the readings that fit and the conflicts.  A change to the KB or to a ruling
file that moves a ruling fails here, naming it, until the snapshot is written again on purpose:

    aslrules rulings rulings --snapshot tests/data/rulings-snapshot.json
"""

from __future__ import annotations

import json
from pathlib import Path

from aslrules.cli import main
from aslrules.consistency import report, snapshot, snapshot_changes
from aslrules.rulings import load_rulings

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOT = ROOT / "tests" / "data" / "rulings-snapshot.json"
UPDATE = "aslrules rulings rulings --snapshot tests/data/rulings-snapshot.json"


def test_the_rulings_decide_what_the_snapshot_says() -> None:
    now = snapshot(report(load_rulings([str(ROOT / "rulings")])))
    changes = snapshot_changes(json.loads(SNAPSHOT.read_text(encoding="utf-8")), now)
    assert not changes, "rulings moved:\n" + "\n".join(changes) + f"\nif on purpose: {UPDATE}"


def test_a_moved_ruling_is_named(tmp_path: Path, capsys) -> None:
    """--against prints each ruling that moved and exits 1; the same snapshot, 0."""
    data = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    rid, entry = next((k, v) for k, v in data["rulings"].items() if v["check"] == "holds")
    entry["check"] = "contradicted"
    data["ok"] = not data["ok"]
    changed = tmp_path / "snap.json"
    changed.write_text(json.dumps(data), encoding="utf-8")
    assert main(["rulings", str(ROOT / "rulings"), "--against", str(changed)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert f'{rid}: check: "contradicted" -> "holds"' in out and any(line.startswith("ok: ") for line in out)
    assert main(["rulings", str(ROOT / "rulings"), "--against", str(SNAPSHOT)]) == 0
    assert "no ruling moved" in capsys.readouterr().out


def test_snapshot_written_is_read_back(tmp_path: Path, capsys) -> None:
    out = tmp_path / "s.json"
    assert main(["rulings", str(ROOT / "rulings" / "perry-sez" / "P1.yaml"), "--snapshot", str(out)]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["rulings"]["P1"]["check"] == "holds"
    capsys.readouterr()
    assert main(["rulings", str(ROOT / "rulings" / "perry-sez" / "P1.yaml"), "--against", "/nonexistent.json"]) == 2
