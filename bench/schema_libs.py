"""How the schema libraries weighed for the format compare (not a test; needs pydantic and
jsonschema besides msgspec: `pip install pydantic jsonschema`).

    python bench/schema_libs.py

For each of msgspec, pydantic v2 and jsonschema, in a fresh process: the CPU time to import
the library and declare a small slice of the format (situation, units, weapons, moving), the
CPU time to validate a 20-unit situation (median of 200), and the message for a bad value
nested three levels deep (a weapon's ROF of 9).
"""

from __future__ import annotations

import subprocess
import sys

DECLARE = {
    "msgspec": '''
import msgspec
from typing import Annotated, Literal
from msgspec import Meta, Struct
class Weapon(Struct, forbid_unknown_fields=True, kw_only=True):
    id: Annotated[str, Meta(pattern=r"^[A-Za-z0-9_-]+$")]
    kind: Literal["LMG", "MMG", "HMG", "ATR"]
    fp: Annotated[float, Meta(ge=0)] = 0
    rof: Annotated[int, Meta(ge=1, le=6)] | None = None
class Moving(Struct, forbid_unknown_fields=True, kw_only=True):
    frm: str | None = msgspec.field(default=None, name="from")
    mf_here: float = 1
class Unit(Struct, forbid_unknown_fields=True, kw_only=True):
    id: str
    side: str
    type: Literal["squad", "leader", "half_squad"]
    counter: str
    hex: str
    weapons: list[Weapon] = []
    moving: Moving | None = None
class Sit(Struct, forbid_unknown_fields=True, kw_only=True):
    phase: Literal["MPh", "DFPh"]
    attacker: str
    units: list[Unit] = []
def validate(doc):
    return msgspec.convert(doc, Sit, strict=True)
def message(doc):
    try:
        validate(doc)
    except msgspec.ValidationError as e:
        return str(e)
''',
    "pydantic": '''
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from typing import Annotated, Literal
class M(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
class Weapon(M):
    id: Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]+$")]
    kind: Literal["LMG", "MMG", "HMG", "ATR"]
    fp: Annotated[float, Field(ge=0)] = 0
    rof: Annotated[int, Field(ge=1, le=6)] | None = None
class Moving(M):
    frm: str | None = Field(default=None, alias="from")
    mf_here: float = 1
class Unit(M):
    id: str
    side: str
    type: Literal["squad", "leader", "half_squad"]
    counter: str
    hex: str
    weapons: list[Weapon] = []
    moving: Moving | None = None
class Sit(M):
    phase: Literal["MPh", "DFPh"]
    attacker: str
    units: list[Unit] = []
def validate(doc):
    return Sit.model_validate(doc)
def message(doc):
    try:
        validate(doc)
    except ValidationError as e:
        err = e.errors()[0]
        return f"{err['loc']}: {err['msg']}"
''',
    "jsonschema": '''
import jsonschema
weapon = {"type": "object", "additionalProperties": False, "required": ["id", "kind"], "properties": {
    "id": {"type": "string", "pattern": "^[A-Za-z0-9_-]+$"}, "kind": {"enum": ["LMG", "MMG", "HMG", "ATR"]},
    "fp": {"type": "number", "minimum": 0}, "rof": {"anyOf": [{"type": "integer", "minimum": 1, "maximum": 6},
                                                                {"type": "null"}]}}}
unit = {"type": "object", "additionalProperties": False, "required": ["id", "side", "type", "counter", "hex"],
        "properties": {"id": {"type": "string"}, "side": {"type": "string"},
                       "type": {"enum": ["squad", "leader", "half_squad"]}, "counter": {"type": "string"},
                       "hex": {"type": "string"}, "weapons": {"type": "array", "items": weapon},
                       "moving": {"type": "object", "additionalProperties": False,
                                  "properties": {"from": {"type": "string"}, "mf_here": {"type": "number"}}}}}
sit = {"type": "object", "additionalProperties": False, "required": ["phase", "attacker"], "properties": {
    "phase": {"enum": ["MPh", "DFPh"]}, "attacker": {"type": "string"}, "units": {"type": "array", "items": unit}}}
validator = jsonschema.Draft202012Validator(sit)
def validate(doc):
    validator.validate(doc)
def message(doc):
    e = next(validator.iter_errors(doc))
    return f"{list(e.absolute_path)}: {e.message}"
''',
}

RUN = '''
import time
t0 = time.process_time()
exec(compile(DECLARE, "declare", "exec"))
t1 = time.process_time()
doc = {"phase": "MPh", "attacker": "r", "units": [{"id": f"u{i}", "side": "g", "type": "squad", "counter": "4-6-7",
       "hex": "X2", "weapons": [{"id": f"w{i}", "kind": "LMG", "fp": 3, "rof": 1}]} for i in range(20)]}
times = []
for _ in range(200):
    a = time.process_time(); validate(doc); times.append(time.process_time() - a)
times.sort()
bad = {"phase": "MPh", "attacker": "r", "units": [{"id": "u", "side": "g", "type": "squad", "counter": "4-6-7",
       "hex": "X2", "weapons": [{"id": "w", "kind": "LMG", "fp": 3, "rof": 9}]}]}
print(f"{(t1 - t0) * 1e3:.0f} ms | {times[100] * 1e6:.0f} us | {message(bad)}")
'''


def main() -> None:
    print("| library | import + declare (CPU) | validate 20 units (median CPU) | message for rof: 9 |")
    print("|---|---|---|---|")
    for name, declare in DECLARE.items():
        code = f"DECLARE = {declare!r}\n" + RUN
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        print(f"| {name} | {out.stdout.strip() or out.stderr.strip().splitlines()[-1]} |")


if __name__ == "__main__":
    main()
