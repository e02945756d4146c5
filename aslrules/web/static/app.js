// aslrules serve: the page.  Plain JavaScript, no library, nothing fetched but this server's API.
// It decides nothing about ASL: the map draws the situation's fields, the forms come from the
// format's JSON Schema, and every answer is the JSON `aslrules ask --format json` gives, shown
// as it comes (a listing's groups and order included).
"use strict";

const S = {
  files: [], labels: {}, name: null, file: null, doc: null, saved: "", schema: null, defs: {},
  sel: null, tab: "attacks", asked: null, replay: null, step: 1, rules: null, rulingStatus: null,
  view: null, pending: null, yaml: "", validateTimer: null, error: null, targetOption: false,
};

// ------------------------------------------------------------------ small helpers

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(e.dataset, v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined && kid !== false)
    e.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  return e;
}
const SVGNS = "http://www.w3.org/2000/svg";
function sv(tag, attrs, ...kids) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") e.textContent = v; else if (k === "dataset") Object.assign(e.dataset, v);
    else e.setAttribute(k, v);
  }
  for (const kid of kids.flat()) if (kid) e.append(kid);
  return e;
}
const $ = (sel) => document.querySelector(sel);
const clone = (x) => (x === undefined ? undefined : JSON.parse(JSON.stringify(x)));
const num = (x) => (typeof x === "number" ? String(x) : String(x));
const signed = (n) => (typeof n === "number" && n > 0 ? "+" + n : String(n).replace("-", "−"));

async function call(method, url, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
  let res;
  try { res = await fetch(url, opts); } catch (e) {
    return { ok: false, status: 0, data: { error: { message: "the server does not answer (is aslrules serve still running?)" } } };
  }
  let data;
  try { data = await res.json(); } catch (e) { data = { error: { message: `${res.status} ${res.statusText}` } }; }
  return { ok: res.ok, status: res.status, data };
}

function message(text, kind) {
  const m = $("#message");
  if (!text) { m.hidden = true; m.textContent = ""; return; }
  m.hidden = false; m.className = "message" + (kind ? " " + kind : ""); m.textContent = text;
}

// ------------------------------------------------------------------ the grid (docs/format.md)

const COLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".split("").concat(["AA", "BB", "CC", "DD", "EE", "FF", "GG"]);
const R = 48, HH = Math.sqrt(3) * R, BOARD_W = 33 * 1.5 * R + R;

function parseHex(text) {
  const m = /^([0-9]{0,2})([A-Z]{1,2})([0-9]{1,2})$/.exec(String(text));
  if (!m) return null;
  const col = COLS.indexOf(m[2]);
  if (col < 0) return null;
  return { board: m[1] ? String(+m[1]) : "", col, row: +m[3], letters: m[2] };
}
function parseLoc(text) {
  const [h, lv] = String(text).split("@");
  const p = parseHex(h);
  if (p) p.level = lv === undefined ? 0 : +lv;
  return p;
}
function hexIds(doc) {
  const out = [];
  for (const u of doc.units || []) {
    out.push(u.hex);
    if (u.moving && u.moving.from) out.push(u.moving.from);
  }
  for (const k of Object.keys(doc.locations || {})) out.push(k.split("@")[0]);
  for (const k of Object.keys(doc.residual_fp || {})) out.push(k.split("@")[0]);
  for (const k of Object.keys(doc.fire_lane_residual || {})) out.push(k.split("@")[0]);
  for (const l of doc.lines_of_sight || []) { out.push(l.from); if (l.to) out.push(l.to); if (l.to_hexside) out.push(...l.to_hexside); }
  return out.filter((h) => parseHex(h));
}
function layout(doc) {
  const boards = [...new Set(hexIds(doc).map((h) => parseHex(h).board))];
  const prefixed = boards.filter((b) => b !== "").sort((a, b) => +a - +b);
  const dflt = prefixed.length === 1 ? prefixed[0] : "";
  const order = prefixed.length ? prefixed.slice() : [""];
  if (boards.includes("") && !order.includes(dflt)) order.unshift("");
  return { order, dflt };
}
function canon(text, lay) {
  const p = parseHex(String(text).split("@")[0]);
  if (!p) return null;
  const b = p.board || lay.dflt;
  return { key: b + p.letters + p.row, board: b, col: p.col, row: p.row, letters: p.letters };
}
function center(h, lay) {
  const bi = Math.max(0, lay.order.indexOf(h.board));
  return { x: bi * (BOARD_W + R) + h.col * 1.5 * R + R, y: (h.row + (h.col % 2 ? 0.5 : 0)) * HH };
}
function hexPoints(c) {
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 3) * k;
    pts.push((c.x + R * Math.cos(a)).toFixed(1) + "," + (c.y + R * Math.sin(a)).toFixed(1));
  }
  return pts.join(" ");
}
function sideBetween(ca, cb) {  // the hexside two adjacent hexes share
  const mx = (ca.x + cb.x) / 2, my = (ca.y + cb.y) / 2, dx = cb.x - ca.x, dy = cb.y - ca.y;
  const len = Math.hypot(dx, dy) || 1, px = -dy / len * R / 2, py = dx / len * R / 2;
  return [mx - px, my - py, mx + px, my + py];
}
function sideFacing(c, toward) {  // the hexside of hex c facing a point (the one a line to it crosses)
  const th = Math.atan2(toward.y - c.y, toward.x - c.x);
  const k = Math.round((th - Math.PI / 6) / (Math.PI / 3));
  const phi = Math.PI / 6 + k * Math.PI / 3;
  const mx = c.x + HH / 2 * Math.cos(phi), my = c.y + HH / 2 * Math.sin(phi);
  const px = -Math.sin(phi) * R / 2, py = Math.cos(phi) * R / 2;
  return [mx - px, my - py, mx + px, my + py];
}

// ------------------------------------------------------------------ the map

const SIDE_COLOURS = { german: "#9fb4c7", russian: "#d2a06a", american: "#a9b86a", british: "#d8c491",
  japanese: "#e6cf5a", italian: "#9fc0a5", finnish: "#c5c9d0", french: "#7fa2d6" };
const PALETTE = ["#d2a06a", "#9fb4c7", "#a9b86a", "#d8c491", "#c79bc2", "#8fc1b5"];
function sideColour(side, doc) {
  const key = String(side).toLowerCase();
  if (SIDE_COLOURS[key]) return SIDE_COLOURS[key];
  const sides = [...new Set((doc.units || []).map((u) => u.side))];
  return PALETTE[Math.max(0, sides.indexOf(side)) % PALETTE.length];
}
const SHORT = { "stone building": "stone bldg", "wooden building": "wooden bldg", "open ground": "open ground" };
const FIRE_BADGE = { first_fire: "First Fire", final_fire: "Final Fire", intensive_fire: "Intensive", no_fire: "No Fire" };
const STATUS_BADGE = { pinned: "PIN", broken: "BRK", berserk: "BSK", melee: "MEL", cc: "CC", concealed: "?",
  cx: "CX", inexperienced: "INX", crest: "CRST", ammunition_shortage: "AmSh" };

function mapDoc() {
  if (S.tab === "replay" && S.replay && S.replay.states) return S.replay.states[S.step - 1] || S.doc;
  return S.doc;
}

function stepHighlights() {
  const hl = { firing: new Set(), targeted: new Set(), moving: new Set(), to: null };
  if (S.tab === "replay" && S.replay && S.replay.steps) {
    const step = (S.doc.sequence || [])[S.step - 1];
    if (step && step.attack) {
      (step.attack.firers || []).forEach((f) => hl.firing.add(f));
      if (step.attack.director) hl.firing.add(step.attack.director);
      (step.attack.targets || []).forEach((t) => hl.targeted.add(t));
    }
    if (step && step.move) { step.move.units.forEach((u) => hl.moving.add(u)); hl.to = step.move.to || null; }
  } else if (S.focus) {
    (S.focus.firer || []).forEach((f) => hl.firing.add(f));
    (S.focus.director || []).forEach((f) => hl.firing.add(f));
    (S.focus.target || []).forEach((t) => hl.targeted.add(t));
  }
  return hl;
}

function renderMap() {
  const svg = $("#map");
  const doc = mapDoc();
  svg.replaceChildren();
  if (!doc) return;
  const lay = layout(doc);
  S.lay = lay;
  const defs = sv("defs", {}, sv("marker", { id: "arrow", viewBox: "0 0 10 10", refX: "8", refY: "5", markerWidth: "6",
    markerHeight: "6", orient: "auto-start-reverse" }, sv("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "#b08700" })));
  const world = sv("g", { id: "world" });
  svg.append(defs, world);
  const gHex = sv("g"), gLabels = sv("g"), gSides = sv("g"), gLos = sv("g"), gMarks = sv("g"), gUnits = sv("g");
  world.append(gHex, gLabels, gSides, gLos, gMarks, gUnits);
  // terrain by hex: level 0 shades the hex; every level is labelled
  const terrain = {};
  for (const [k, t] of Object.entries(doc.locations || {})) {
    const h = canon(k, lay); if (!h) continue;
    const lv = (parseLoc(k) || { level: 0 }).level;
    (terrain[h.key] = terrain[h.key] || []).push({ level: lv, t });
  }
  const sel = S.sel && S.sel.kind === "hex" ? canon(S.sel.hex, lay) : null;
  for (const b of lay.order) {
    const origin = center({ board: b, col: 0, row: 0 }, lay);
    if (b) world.insertBefore(sv("text", { x: origin.x - R, y: -HH * 0.3, class: "board-label", text: "board " + b }), gHex);
    for (let col = 0; col < 33; col++) {
      for (let row = col % 2 ? 0 : 1; row <= 10; row++) {
        const h = { board: b, col, row, letters: COLS[col] };
        const key = b + COLS[col] + row;
        const c = center(h, lay);
        const levels = (terrain[key] || []).sort((x, y) => x.level - y.level);
        const ground = levels.find((l) => l.level === 0) || levels[0];
        const tname = ground ? (ground.t.terrain || "open ground") : "open ground";
        const cls = "hex t-" + tname.replace(/ /g, "_") + (sel && sel.key === key ? " selected" : "");
        gHex.append(sv("polygon", { points: hexPoints(c), class: cls, dataset: { hex: key } }));
        gLabels.append(sv("text", { x: c.x, y: c.y - HH / 2 + 9, class: "hexid", text: (b && b !== lay.dflt ? b : (b ? b : "")) + COLS[col] + row }));
        levels.forEach((l, i) => {
          const t = l.t, tem = t.tem || 0;
          const name = t.terrain || "open ground";
          const label = (l.level ? "@" + l.level + " " : "") + (SHORT[name] || name) + (tem ? " TEM " + signed(tem) : "") + (t.smoke ? " smoke +" + t.smoke : "");
          gLabels.append(sv("text", { x: c.x, y: c.y + HH / 2 - 5 - 9 * (levels.length - 1 - i), class: "terrain-label", text: label }));
        });
      }
    }
  }
  // lines of sight that are not clear, and the hexsides they name
  for (const l of doc.lines_of_sight || []) {
    const a = canon(l.from, lay); if (!a) continue;
    const ca = center(a, lay);
    if (l.to) {
      const b = canon(l.to, lay); if (!b) continue;
      const cb = center(b, lay);
      const cls = "los " + (l.blocked ? "blocked" : (l.hindrance ? "hindered" : ""));
      if (l.blocked || l.hindrance || l.range !== undefined) gLos.append(sv("line", { x1: ca.x, y1: ca.y, x2: cb.x, y2: cb.y, class: cls }));
      const bits = [l.blocked ? "blocked" : "", l.hindrance ? "Hindrance +" + l.hindrance : "", l.range !== undefined ? "range " + l.range : ""].filter(Boolean);
      if (bits.length) gLos.append(sv("text", { x: (ca.x + cb.x) / 2, y: (ca.y + cb.y) / 2 - 3, class: "los-label", text: bits.join(", ") }));
      if (l.hexside_tem) {  // the hexside of the target Location the LOF crosses (hedge, wall)
        const s = sideFacing(cb, ca);
        gSides.append(sv("line", { x1: s[0], y1: s[1], x2: s[2], y2: s[3], class: "hexside" },
          sv("title", { text: `hexside TEM +${l.hexside_tem} of ${l.to} crossed by the LOF from ${l.from}` })));
        gSides.append(sv("text", { x: (s[0] + s[2]) / 2 + (cb.x - ca.x > 0 ? -9 : 9), y: (s[1] + s[3]) / 2 + 3, class: "hexside-label", text: "+" + l.hexside_tem }));
      }
    } else if (l.to_hexside) {
      const p = canon(l.to_hexside[0], lay), q = canon(l.to_hexside[1], lay);
      if (p && q) {
        const s = sideBetween(center(p, lay), center(q, lay));
        gLos.append(sv("line", { x1: ca.x, y1: ca.y, x2: (s[0] + s[2]) / 2, y2: (s[1] + s[3]) / 2, class: "los " + (l.blocked ? "blocked" : "hindered") }));
      }
    }
  }
  // Residual FP and Fire Lane markers
  const marker = (k, text, cls, dy) => {
    const h = canon(k, lay); if (!h) return;
    const c = center(h, lay);
    gMarks.append(sv("g", { class: "marker " + cls }, sv("rect", { x: c.x + R * 0.25, y: c.y - HH / 2 + 2 + dy, width: 30, height: 10, rx: 2 }),
      sv("text", { x: c.x + R * 0.25 + 15, y: c.y - HH / 2 + 9.5 + dy, text }),
      sv("title", { text: `${cls === "residual" ? "Residual FP counter" : "Fire Lane Residual FP"} in ${k}: ${text}` })));
  };
  for (const [k, v] of Object.entries(doc.residual_fp || {})) {
    const fp = typeof v === "object" && v !== null ? v.fp : v;
    if (fp) marker(k, "RFP " + fp + (v && v.crest ? " C" : ""), "residual", 0);
  }
  for (const [k, v] of Object.entries(doc.fire_lane_residual || {})) if (v) marker(k, "FL " + v, "fire-lane", 12);
  // counters, as stacks: each unit followed by its weapons, in the file's order
  const hl = stepHighlights();
  const stacks = {};
  (doc.units || []).forEach((u, i) => {
    const h = canon(u.hex, lay); if (!h) return;
    const st = (stacks[h.key] = stacks[h.key] || { h, items: [] });
    st.items.push({ kind: "unit", u, i });
    (u.weapons || []).forEach((w, j) => st.items.push({ kind: "weapon", u, w, i, j }));
  });
  for (const st of Object.values(stacks)) {
    const c = center(st.h, lay);
    const n = st.items.length, cols = n <= 4 ? 2 : (n <= 9 ? 3 : 4), size = n <= 4 ? 28 : (n <= 9 ? 19 : 14);
    const rows = Math.ceil(n / cols), gap = 2;
    const x0 = c.x - (Math.min(n, cols) * (size + gap) - gap) / 2, y0 = c.y - (rows * (size + gap) - gap) / 2 + 2;
    st.items.forEach((it, k) => {
      const x = x0 + (k % cols) * (size + gap), y = y0 + Math.floor(k / cols) * (size + gap);
      gUnits.append(counterSvg(it, x, y, size, doc, hl));
    });
  }
  // the mover: its hex, the hexside it crossed and where it came from
  for (const u of doc.units || []) {
    if (!u.moving) continue;
    const h = canon(u.hex, lay); if (!h) continue;
    const c = center(h, lay);
    gSides.append(sv("polygon", { points: hexPoints(c), class: "hex mover", fill: "none" }));
    if (u.moving.from) {
      const f = canon(u.moving.from, lay);
      if (f) {
        const cf = center(f, lay), s = sideBetween(cf, c);
        gSides.append(sv("line", { x1: s[0], y1: s[1], x2: s[2], y2: s[3], class: "crossed" },
          sv("title", { text: `${u.id} crossed the hexside ${u.moving.from}/${u.hex}` })));
        gSides.append(sv("line", { x1: cf.x + (c.x - cf.x) * 0.2, y1: cf.y + (c.y - cf.y) * 0.2, x2: cf.x + (c.x - cf.x) * 0.62, y2: cf.y + (c.y - cf.y) * 0.62, class: "move-arrow" }));
      }
    }
  }
  if (hl.to) {
    const h = canon(hl.to, lay);
    if (h) gSides.append(sv("polygon", { points: hexPoints(center(h, lay)), class: "hex active", fill: "none" }));
  }
  if (!S.view) fitView();
  applyView();
}

function counterSvg(it, x, y, s, doc, hl) {
  const u = it.u, isW = it.kind === "weapon", w = it.w;
  const id = isW ? w.id : u.id;
  const selected = S.sel && (S.sel.kind === it.kind) && S.sel.id === id;
  const cls = ["counter", isW ? "weapon" : "unit", selected ? "selected" : "",
    (!isW && u.moving) || hl.moving.has(id) ? "mover" : "", hl.firing.has(id) ? "firing" : "", hl.targeted.has(id) ? "targeted" : ""].filter(Boolean).join(" ");
  const g = sv("g", { class: cls, dataset: isW ? { weapon: id, unit: "" } : { unit: id }, transform: `translate(${x.toFixed(1)},${y.toFixed(1)})` });
  if (isW) g.removeAttribute("data-unit");
  const fill = sideColour(u.side, doc);
  g.append(sv("rect", { class: "face", width: s, height: s, rx: 2, fill: isW ? lighten(fill) : fill }));
  const values = isW ? `${w.kind}` : (u.counter || u.type);
  const sub = isW ? [w.fp !== undefined ? w.fp : "", w.range !== undefined ? w.range : ""].filter((v) => v !== "").join("-") : (u.type === "squad" || u.type === "leader" ? "" : (u.type === "half_squad" ? "HS" : u.type));
  g.append(sv("text", { x: s / 2, y: s * 0.24, "font-size": s * 0.19, text: id }));
  g.append(sv("text", { x: s / 2, y: s * 0.55, "font-size": s * (String(values).length > 5 ? 0.24 : 0.3), class: "values", text: values }));
  if (sub) g.append(sv("text", { x: s / 2, y: s * 0.74, "font-size": s * 0.19, text: sub }));
  const badges = [];
  const fire = isW ? w.fire : u.fire;
  if (fire && fire !== "none") badges.push({ text: FIRE_BADGE[fire] || fire, cls: "fire", bg: "#333" });
  if (!isW) for (const st of u.status || []) badges.push({ text: STATUS_BADGE[st] || st, cls: "status", bg: "#fff" });
  if (!isW && u.level) badges.push({ text: "@" + u.level, cls: "status", bg: "#fff" });
  if (!isW && u.known === false) badges.push({ text: "unknown", cls: "status", bg: "#fff" });
  if (isW && w.fire_lane) badges.push({ text: "Fire Lane", cls: "status", bg: "#fff" });
  if (isW && w.malfunctioned) badges.push({ text: "MAL", cls: "status", bg: "#fff" });
  let by = s * 0.8;
  for (const b of badges.slice(0, 2)) {
    g.append(sv("rect", { x: 1, y: by, width: s - 2, height: s * 0.18, fill: b.bg, opacity: b.cls === "fire" ? 0.85 : 0.9 }));
    const fs = Math.min(s * 0.15, (s - 3) / (0.62 * b.text.length));
    g.append(sv("text", { x: s / 2, y: by + s * 0.09 + fs * 0.35, "font-size": fs, class: "badge " + b.cls, text: b.text }));
    by -= s * 0.19;
  }
  const tip = isW
    ? `${w.id}: ${w.kind} of ${u.id}` + (w.fp !== undefined ? `, ${w.fp} FP` : "") + (w.range !== undefined ? `, range ${w.range}` : "") + (w.rof ? `, ROF ${w.rof}` : "") + (w.breakdown ? `, B# ${w.breakdown}` : "") + (fire && fire !== "none" ? `, ${fire}` : "")
    : `${u.id}: ${u.side} ${u.type.replace("_", " ")} ${u.counter || ""} in ${u.hex}${u.level ? "@" + u.level : ""}` + (fire && fire !== "none" ? `, ${fire}` : "") + ((u.status || []).length ? `, ${u.status.join(", ")}` : "") + (u.moving ? `, moving (from ${u.moving.from || "-"}, ${u.moving.mf_here !== undefined ? u.moving.mf_here : 1} MF here)` : "");
  g.append(sv("title", { text: tip }));
  return g;
}
function lighten(hex) {
  const n = parseInt(hex.slice(1), 16), r = (n >> 16) & 255, g = (n >> 8) & 255, b = n & 255;
  const f = (v) => Math.round(v + (255 - v) * 0.45).toString(16).padStart(2, "0");
  return "#" + f(r) + f(g) + f(b);
}

// zoom and pan: the viewBox
function fitView() {
  const doc = mapDoc(); if (!doc || !S.lay) return;
  const pts = hexIds(doc).map((h) => center(canon(h, S.lay), S.lay));
  if (!pts.length) pts.push(center({ board: S.lay.order[0], col: 16, row: 5 }, S.lay));
  const xs = pts.map((p) => p.x), ys = pts.map((p) => p.y);
  const pad = 2.2 * R;
  let x = Math.min(...xs) - pad, y = Math.min(...ys) - pad, w = Math.max(...xs) - x + pad, h = Math.max(...ys) - y + pad;
  const box = $("#map").getBoundingClientRect(), ratio = (box.width || 800) / (box.height || 600);
  if (w / h < ratio) { const nw = h * ratio; x -= (nw - w) / 2; w = nw; } else { const nh = w / ratio; y -= (nh - h) / 2; h = nh; }
  S.view = { x, y, w, h };
}
function applyView() {
  const v = S.view; if (!v) return;
  $("#map").setAttribute("viewBox", `${v.x} ${v.y} ${v.w} ${v.h}`);
}
function zoom(f, px, py) {
  const v = S.view; if (!v) return;
  const cx = px === undefined ? v.x + v.w / 2 : px, cy = py === undefined ? v.y + v.h / 2 : py;
  const w = Math.min(Math.max(v.w * f, 2 * R), 40 * BOARD_W), h = v.h * (w / v.w);
  S.view = { x: cx - (cx - v.x) * (w / v.w), y: cy - (cy - v.y) * (h / v.h), w, h };
  applyView();
}
function svgPoint(evt) {
  const box = $("#map").getBoundingClientRect(), v = S.view;
  return { x: v.x + (evt.clientX - box.left) / box.width * v.w, y: v.y + (evt.clientY - box.top) / box.height * v.h };
}
function mapEvents() {
  const svg = $("#map");
  let down = null;
  svg.addEventListener("wheel", (e) => { e.preventDefault(); const p = svgPoint(e); zoom(e.deltaY > 0 ? 1.15 : 1 / 1.15, p.x, p.y); }, { passive: false });
  svg.addEventListener("pointerdown", (e) => { down = { x: e.clientX, y: e.clientY, view: { ...S.view }, moved: false }; });
  svg.addEventListener("pointermove", (e) => {
    if (!down) { const p = svgPoint(e); const h = hexAt(p); $("#map-where").textContent = h || ""; return; }
    const dx = e.clientX - down.x, dy = e.clientY - down.y;
    if (!down.moved && Math.hypot(dx, dy) < 5) return;
    if (!down.moved) { down.moved = true; svg.setPointerCapture(e.pointerId); svg.classList.add("dragging"); }
    const box = svg.getBoundingClientRect();
    S.view = { ...down.view, x: down.view.x - dx / box.width * down.view.w, y: down.view.y - dy / box.height * down.view.h };
    applyView();
  });
  svg.addEventListener("pointerup", (e) => {
    const d = down; down = null; svg.classList.remove("dragging");
    if (!d || d.moved) return;
    const t = e.target.closest("[data-weapon], [data-unit], [data-hex]");
    const p = svgPoint(e);
    mapClick(t, hexAt(p));
  });
  $("#zoom-in").addEventListener("click", () => zoom(1 / 1.3));
  $("#zoom-out").addEventListener("click", () => zoom(1.3));
  $("#zoom-fit").addEventListener("click", () => { S.view = null; fitView(); applyView(); });
}
function hexAt(p) {  // the hex under a point of the map
  if (!S.lay) return null;
  let best = null, bd = Infinity;
  for (const b of S.lay.order) {
    const c0 = center({ board: b, col: 0, row: 0 }, S.lay);
    const col = Math.round((p.x - c0.x) / (1.5 * R));
    for (const cc of [col - 1, col, col + 1]) {
      if (cc < 0 || cc > 32) continue;
      const row = Math.round(p.y / HH - (cc % 2 ? 0.5 : 0));
      for (const rr of [row - 1, row, row + 1]) {
        if (rr < (cc % 2 ? 0 : 1) || rr > 10) continue;
        const c = center({ board: b, col: cc, row: rr }, S.lay), d = Math.hypot(c.x - p.x, c.y - p.y);
        if (d < bd) { bd = d; best = b + COLS[cc] + rr; }
      }
    }
  }
  return bd <= R ? best : null;
}

// what a click on the map does
function unitById(id, doc) { return ((doc || S.doc).units || []).find((u) => u.id === id); }
function ownerOf(wid, doc) { return ((doc || S.doc).units || []).find((u) => (u.weapons || []).some((w) => w.id === wid)); }
function hexName(key) {  // a hex key for the file: unprefixed where the file's ids are
  const lay = S.lay, p = parseHex(key);
  if (!p) return key;
  const usesPrefix = hexIds(S.doc).some((h) => parseHex(h).board);
  return usesPrefix || !lay.dflt ? (usesPrefix ? key : p.letters + p.row) : p.letters + p.row;
}

function mapClick(target, hexKey) {
  if (S.pending && S.pending.kind === "move") {
    if (!hexKey) return;
    const u = S.doc.units[S.pending.index];
    S.pending = null; setMode("");
    if (u) { u.hex = hexName(hexKey); changed(true); }
    return;
  }
  if (S.tab === "replay") return;
  if (target && target.dataset.weapon) select({ kind: "weapon", id: target.dataset.weapon });
  else if (target && target.dataset.unit) select({ kind: "unit", id: target.dataset.unit });
  else if (hexKey) select({ kind: "hex", hex: hexName(hexKey) });
}
function select(sel) {
  S.sel = sel; S.focus = null;
  renderMap();
  if (S.tab === "attacks") askSelection();
  else if (S.tab === "setup") renderSetup();
}
function setMode(text) { $("#map-mode").textContent = text; }

// ------------------------------------------------------------------ answers

function label(name) {
  if (Object.prototype.hasOwnProperty.call(S.labels, name)) return S.labels[name];
  return name.replace(/_/g, " ");
}
function valueText(v) {
  if (v === true) return "yes";
  if (v === false) return "no";
  if (Array.isArray(v)) return v.map(valueText).join(", ");
  if (v && typeof v === "object") return Object.entries(v).map(([k, x]) => `${k} ${valueText(x)}`).join(", ");
  return String(v);
}
function ruleLink(rule) {
  return el("a", { class: "rule", href: "#rule=" + encodeURIComponent(rule), dataset: { rule },
    onclick: (e) => { e.preventDefault(); showRule(rule); } }, rule);
}
function reasonItem(r) {
  return el("li", {}, r.role && r.role !== "note" ? el("span", { class: "role " + r.role }, r.role + " ") : null,
    ruleLink(r.rule), ": ", r.text);
}
function optionText(a) {
  const o = (a.figures || {}).option;
  if (typeof o === "string") return o;
  if (o && typeof o === "object") return [...new Set(Object.values(o))].join("/");
  return a.kind;
}
function answerCard(a, open) {
  const roles = a.roles || {}, f = a.figures || {};
  const who = (roles.firer || []).join(", ") || (roles.target ? "(Residual FP)" : "");
  const figs = [];
  for (const name of ["fp", "ift_column", "drm"]) if (f[name] !== undefined && !(f[name] && typeof f[name] === "object"))
    figs.push(el("span", {}, (label(name) || name) + " ", el("b", {}, name === "drm" ? signed(f[name]) : valueText(f[name]))));
  const summary = el("summary", {}, el("span", { class: "verdict " + a.verdict }, a.verdict || "?"),
    el("span", {}, optionText(a).replace(/_/g, " ")), el("span", { class: "who" }, who + (roles.target ? " → " + roles.target.join(", ") : "")),
    roles.director ? el("span", { class: "hint" }, "directed by " + roles.director.join(", ")) : null,
    el("span", { class: "figs" }, ...figs.flatMap((x, i) => (i ? [" · ", x] : [x]))));
  const body = el("div", { class: "body" });
  const reasons = a.reasons || [];
  body.append(el("div", {}, el("b", {}, "verdict: "), a.verdict || "(none)"));
  if (reasons.length) body.append(el("ul", { class: "reasons" }, reasons.map(reasonItem)));
  const other = Object.entries(roles).filter(([k]) => !["firer", "target", "director"].includes(k));
  for (const [k, ids] of other) body.append(el("div", {}, el("b", {}, k.replace(/_/g, " ") + ": "), ids.join(", ")));
  const names = Object.keys(f), ordered = Object.keys(S.labels).filter((n) => names.includes(n)).concat(names.filter((n) => !(n in S.labels)));
  const list = el("ul", { class: "figures" });
  for (const name of ordered) {
    const lab = label(name); if (lab === null) continue;
    const li = el("li", { dataset: { figure: name } }, el("b", {}, lab + ": "), name === "drm" ? signed(f[name]) : valueText(f[name]));
    const parts = (a.parts || {})[name] || [];
    const fr = (a.figure_reasons || {})[name] || {};
    const sub = el("ul", {});
    for (const p of parts) sub.append(el("li", {}, el("span", { class: "part" }, signed(p.value)), ruleLink(p.rule), ": ", p.text));
    for (const [key, rs] of Object.entries(fr)) {
      if (key !== "none" && f[name] && typeof f[name] === "object") sub.append(el("li", {}, el("b", {}, key + ": " + valueText(f[name][key])),
        el("ul", {}, rs.map(reasonItem))));
      else for (const r of rs) sub.append(reasonItem(r));
    }
    if (sub.children.length) li.append(sub);
    list.append(li);
  }
  body.append(list);
  const d = el("details", { class: "answer", dataset: { verdict: a.verdict, fp: f.fp, drm: f.drm, question: a.question } }, summary, body);
  if (open) d.open = true;
  d.addEventListener("toggle", () => { if (d.open) { S.focus = roles; renderMap(); } });
  return d;
}

function answersView(out, keep) {
  // The listing's groups when the JSON has them (as they come), else the answers in their order.
  const box = el("div", { class: "answers" });
  const answers = out.answers || [];
  const shown = answers.map((a, i) => (keep(a) ? i : -1)).filter((i) => i >= 0);
  const listing = out.listing;
  if (listing && Array.isArray(listing.groups)) {
    const counts = Object.entries(listing).filter(([k, v]) => k !== "groups" && typeof v !== "object");
    if (counts.length) box.append(el("div", { class: "hint" }, counts.map(([k, v]) => `${k.replace(/_/g, " ")} ${v}`).join(" · ")));
    for (const g of listing.groups) {
      const idx = (g.answers || []).filter((i) => shown.includes(i));
      if (!idx.length) continue;
      const head = Object.entries(g).filter(([k, v]) => k !== "answers").map(([k, v]) => `${k.replace(/_/g, " ")} ${valueText(v)}`).join(" · ");
      box.append(el("div", { class: "group" }, el("div", { class: "head" }, head), idx.map((i) => answerCard(answers[i], false))));
    }
  } else {
    for (const i of shown) box.append(answerCard(answers[i], shown.length === 1));
  }
  if (!shown.length) box.append(el("p", { class: "hint" }, "no attacks"));
  return box;
}

function sideOf(id, doc) {
  const u = unitById(id, doc) || ownerOf(id, doc);
  return u ? u.side : null;
}
function idsInHex(hex, doc) {
  const lay = layout(doc), key = (canon(hex, lay) || {}).key, ids = [];
  for (const u of doc.units || []) if ((canon(u.hex, lay) || {}).key === key) { ids.push(u.id); (u.weapons || []).forEach((w) => ids.push(w.id)); }
  return ids;
}

async function askSelection() {
  const pane = $("#tab-attacks");
  const sel = S.sel, doc = S.doc;
  if (!doc) return;
  const questions = (doc.ask || []).length + (doc.expect || []).length;
  const intro = el("p", { class: "hint" }, questions
    ? `This file states ${questions} question(s) (ask:/expect:): a click on a unit shows those it fires in, a click on an empty hex all of them.`
    : "Click a DEFENDER unit, weapon or Location for its attacks (in the MPh against the moving unit, in the DFPh against the enemy Locations); an ATTACKER unit for the attacks on it.");
  let req = { name: S.name, situation: payload() }, keep = () => true, head = "All answers";
  if (sel && (sel.kind === "unit" || sel.kind === "weapon")) {
    const side = sideOf(sel.id, doc);
    if (side === doc.attacker) {
      if (S.targetOption && sel.kind === "unit" && !questions) req.target = sel.id;
      else keep = (a) => ((a.roles || {}).target || []).includes(sel.id);
      head = `Attacks on ${sel.id} (${side})`;
    } else { req.firer = sel.id; head = `Attacks by ${sel.id} (${side})`; }
  } else if (sel && sel.kind === "hex") {
    const ids = idsInHex(sel.hex, doc);
    const def = ids.filter((i) => sideOf(i, doc) !== doc.attacker), att = ids.filter((i) => sideOf(i, doc) === doc.attacker);
    if (def.length) { keep = (a) => ((a.roles || {}).firer || []).concat((a.roles || {}).director || []).some((i) => def.includes(i)); head = `Attacks from ${sel.hex} (${def.join(", ")})`; }
    else if (att.length) { keep = (a) => ((a.roles || {}).target || []).some((i) => att.includes(i)); head = `Attacks on ${sel.hex} (${att.join(", ")})`; }
    else head = `All answers (${sel.hex}: no unit there)`;
  }
  pane.replaceChildren(intro, el("h2", {}, head), el("p", { class: "hint", id: "asking" }, "asking…"));
  const seq = (S.askSeq = (S.askSeq || 0) + 1);
  const res = await call("POST", "/api/ask", req);
  if (seq !== S.askSeq) return;
  if (!res.ok) { pane.replaceChildren(intro, el("h2", {}, head)); showError(res.data.error, pane); return; }
  S.asked = res.data;
  pane.replaceChildren(intro, el("h2", {}, head),
    el("p", { class: "hint" }, `aslrules ask ${res.data.file === "-" ? "- (the situation as edited)" : res.data.file} --format json` + (req.firer ? ` --firer ${req.firer}` : "") + (req.target ? ` --target ${req.target}` : "")),
    answersView(res.data, keep));
}

// ------------------------------------------------------------------ rules and rulings

function baseIds(rule) {
  const known = new Set((S.rules ? S.rules.statements : []).map((s) => s.rule));
  if (known.has(rule)) return [rule];
  let best = "";
  for (const k of known) if (rule.startsWith(k) && k.length > best.length && !/[0-9]/.test(rule[k.length])) best = k;
  return best ? [best] : [];
}
async function showRule(rule) {
  S.rule = rule;
  setTab("rule");
  const pane = $("#tab-rule");
  const ids = baseIds(rule);
  const st = (S.rules ? S.rules.statements : []).filter((s) => ids.includes(s.rule));
  const rulings = (S.rules ? S.rules.rulings : []).filter((r) => (r.rules || []).some((x) => x === rule || ids.includes(x)));
  const kids = [el("h2", {}, "Rule " + rule)];
  if (st.length) {
    if (ids[0] !== rule) kids.push(el("p", { class: "hint" }, `the statements of ${ids[0]} (the answer cites ${rule})`));
    for (const s of st) kids.push(el("div", { class: "statement" }, el("b", {}, s.rule + " "), s.statement, el("div", { class: "hint" }, s.section)));
  } else kids.push(el("p", { class: "hint" }, `${rule} is not in the rules-in-scope list (a rule the KB cites beside those of A8, the First Fire flowchart and the Covered Arc chart).`));
  kids.push(el("h3", {}, "Rulings"));
  if (S.rules && S.rules.rulings_error) kids.push(el("p", { class: "message" }, S.rules.rulings_error));
  if (!S.rules || !S.rules.rulings_dir) kids.push(el("p", { class: "hint" }, "No rulings folder: start the server with --rulings DIR (or from a directory holding rulings/)."));
  else if (!rulings.length) kids.push(el("p", { class: "hint" }, `No ruling of ${S.rules.rulings_dir} bears on ${rule}.`));
  const status = S.rulingStatus || { state: "none", rulings: {} };
  for (const r of rulings) {
    const chk = status.rulings[r.ruling];
    kids.push(el("div", { class: "ruling", dataset: { ruling: r.ruling } }, el("b", {}, r.ruling), " ", el("span", { class: "hint" }, r.status + " · " + r.source),
      " ", chk ? el("span", { class: "check " + chk.check }, chk.verdict) : el("span", { class: "check" }, status.state === "checking" ? "checking…" : status.state),
      el("div", {}, el("b", {}, "Q: "), r.question), el("div", {}, el("b", {}, "A: "), r.answer),
      r.not_encodable ? el("div", { class: "hint" }, "not encodable: " + r.not_encodable) : null));
  }
  pane.replaceChildren(...kids);
  if (rulings.length && (!S.rulingStatus || S.rulingStatus.state === "checking")) pollRulings();
}
async function pollRulings() {
  const res = await call("GET", "/api/rulings/status");
  if (res.ok) S.rulingStatus = res.data;
  if (S.tab === "rule" && S.rule) {
    if (res.ok && res.data.state === "checking") setTimeout(pollRulings, 2000);
    else if (res.ok) showRule(S.rule);
  }
}

// ------------------------------------------------------------------ forms from the schema

function deref(node) {
  let n = node;
  for (let k = 0; n && n.$ref && k < 10; k++) n = S.defs[n.$ref.split("/").pop()];
  return n || {};
}
function resolve(node) {  // a property's schema: nullable alternatives folded, references followed
  const n = deref(node);
  if (n.anyOf) {
    const alts = n.anyOf.filter((a) => a.type !== "null");
    const nullable = alts.length < n.anyOf.length;
    if (alts.length === 1) {
      const inner = resolve(alts[0]);
      return { ...inner, nullable, description: n.description || inner.description || deref(alts[0]).description, default: n.default };
    }
    return { mixed: alts.map(resolve), nullable, description: n.description || (alts[0] && alts[0].description), default: n.default };
  }
  return n;
}
function pathText(path) {
  let out = "";
  for (const p of path) {
    if (typeof p === "number") out += `[${p}]`;
    else if (/^[A-Za-z0-9_@+-][A-Za-z0-9_@+.-]*$/.test(p)) out += out ? "." + p : p;
    else out += `[${JSON.stringify(p)}]`;
  }
  return out;
}
function datalistFor(key) {
  const doc = S.doc, ids = (doc.units || []).flatMap((u) => [u.id, ...(u.weapons || []).map((w) => w.id)]);
  if (key === "side" || key === "attacker") return [...new Set((doc.units || []).map((u) => u.side).concat(doc.attacker ? [doc.attacker] : []))];
  if (["director", "directed", "by", "firers", "targets", "keep_rof", "weapon", "target"].includes(key)) return ids;
  return null;
}
let listSeq = 0;
function schemaForm(def, obj, path, opts) {
  // fields of one mapping of the format, each offering only what its schema allows
  const props = (def.properties || {});
  const box = el("div", { class: "schema-fields" });
  const only = opts && opts.only, skip = (opts && opts.skip) || [];
  const keys = only || Object.keys(props);
  const advanced = [];
  for (const key of keys) {
    if (skip.includes(key) || !props[key]) continue;
    const row = fieldFor(obj, key, props[key], path.concat([key]));
    if (opts && opts.advanced && opts.advanced.includes(key)) advanced.push(row); else box.append(row);
  }
  if (advanced.length) box.append(el("details", { class: "more" }, el("summary", {}, "more fields"), advanced));
  return box;
}
function setValue(obj, key, value, dflt) {
  if (value === undefined || value === "" || (Array.isArray(value) && !value.length && Array.isArray(dflt))) delete obj[key];
  else obj[key] = value;
}
function fieldFor(obj, key, raw, path) {
  const node = resolve(raw), ptext = pathText(path), dflt = node.default;
  const desc = node.description || (raw && raw.description) || "";
  const row = el("div", { class: "field", dataset: { path: ptext } }, el("label", { title: desc }, key));
  const value = obj[key];
  const set = (v, structural) => { setValue(obj, key, v, dflt); changed(structural); };
  let input;
  if (node.enum) {
    input = el("select", { "data-path": ptext, title: desc });
    const none = value === undefined || value === null;
    input.append(el("option", { value: "" }, dflt !== undefined && dflt !== null ? `(default: ${dflt})` : "(none)"));
    for (const v of node.enum) input.append(el("option", { value: String(v), selected: !none && String(value) === String(v) }, String(v)));
    input.addEventListener("change", () => {
      const v = input.value === "" ? undefined : node.enum.find((x) => String(x) === input.value);
      set(v);
    });
  } else if (node.type === "boolean") {
    input = el("input", { type: "checkbox", "data-path": ptext, title: desc, checked: value === undefined ? !!dflt : !!value });
    input.addEventListener("change", () => set(input.checked === !!dflt && value === undefined ? undefined : input.checked));
  } else if (node.type === "integer" || node.type === "number") {
    input = el("input", { type: "number", "data-path": ptext, title: desc, step: node.type === "integer" ? "1" : "any",
      min: node.minimum, max: node.maximum, value: value === undefined || value === null ? "" : value,
      placeholder: dflt !== undefined && dflt !== null ? String(dflt) : "" });
    input.addEventListener("change", () => set(input.value === "" ? undefined : Number(input.value)));
  } else if (node.type === "string") {
    input = el("input", { type: "text", "data-path": ptext, title: desc, value: value === undefined || value === null ? "" : String(value),
      pattern: node.pattern ? node.pattern.replace(/^\^/, "").replace(/\$$/, "").replace(/-\]/g, "\\-]") : null, maxlength: node.maxLength,
      placeholder: dflt ? String(dflt) : "" });
    const dl = datalistFor(key);
    if (dl) { const id = "dl" + (++listSeq); input.setAttribute("list", id); row.append(el("datalist", { id }, dl.map((v) => el("option", { value: v })))); }
    input.addEventListener("change", () => set(input.value === "" ? undefined : input.value));
  } else if (node.type === "array" && node.items && resolve(node.items).enum) {
    const words = resolve(node.items).enum, have = new Set(value || []);
    input = el("div", { class: "checks", "data-path": ptext });
    for (const w of words) {
      const cb = el("input", { type: "checkbox", checked: have.has(w), value: w });
      cb.addEventListener("change", () => {
        const now = words.filter((x) => (x === w ? cb.checked : (obj[key] || []).includes(x)));
        set(now.length ? now : undefined);
      });
      input.append(el("label", {}, cb, " " + w));
    }
  } else if (node.type === "array" && node.items && resolve(node.items).type === "object") {
    const itemDef = resolve(node.items), list = value || [];
    input = el("div", { "data-path": ptext });
    list.forEach((item, i) => {
      const fs = el("fieldset", { dataset: { path: pathText(path.concat([i])) } }, el("legend", {}, `${key}[${i}]` + (item && item.id ? " " + item.id : "")));
      fs.append(schemaForm(itemDef, item, path.concat([i]), formOpts(itemDef)));
      fs.append(el("button", { type: "button", class: "small danger", onclick: () => { list.splice(i, 1); set(list.length ? list : undefined, true); } }, "remove"));
      input.append(fs);
    });
    input.append(el("button", { type: "button", class: "small", onclick: () => { const l = obj[key] || []; l.push(newItem(itemDef, key)); obj[key] = l; changed(true); } }, "add " + key.replace(/s$/, "")));
  } else if (node.type === "object" && node.properties && !node.nullable) {  // always there (readings)
    const inner = value || {};
    input = el("fieldset", {}, schemaForm(node, inner, path, formOpts(node)));
    if (!value) input.addEventListener("change", () => { if (!obj[key] && Object.keys(inner).length) { obj[key] = inner; changed(false); } }, true);
  } else if (node.type === "object" && node.properties) {
    const present = value !== undefined && value !== null;
    const cb = el("input", { type: "checkbox", checked: present, "data-path": ptext });
    cb.addEventListener("change", () => set(cb.checked ? newItem(node, key) : undefined, true));
    input = el("div", {}, el("label", {}, cb, " " + (desc || key)));
    if (present) input.append(el("fieldset", {}, schemaForm(node, value, path, formOpts(node))));
  } else if (node.type === "array") {  // ids, a hexspine: words separated by commas
    input = el("input", { type: "text", "data-path": ptext, title: desc + " (separated by commas)", value: (value || []).join(", ") });
    input.addEventListener("change", () => { const v = input.value.split(",").map((s) => s.trim()).filter(Boolean); set(v.length ? v : undefined); });
  } else {  // a mapping or a choice of forms: written as JSON
    input = el("input", { type: "text", "data-path": ptext, title: (desc || "") + " (JSON)", value: value === undefined ? "" : JSON.stringify(value) });
    input.addEventListener("change", () => {
      const t = input.value.trim();
      if (!t) { set(undefined); return; }
      try { set(JSON.parse(t)); } catch (e) {
        if (node.mixed && t.includes(",")) set(t.split(",").map((s) => s.trim())); else set(t);
      }
    });
  }
  row.append(input);
  return row;
}
const ADVANCED = {
  Unit: ["attacked_here", "directed", "armored", "vulnerable_prc", "turret", "vca", "tca", "previous_vca", "bypass", "bu", "ct", "motion", "on_road", "motion_attempt", "opportunity_fire", "entered_from", "shots", "known"],
  Weapon: ["ca", "turret", "calibre", "aa", "aa_gun", "mount", "gun", "disabled", "acquisition", "malfunctioned", "fire_lane"],
};
function formOpts(def) {
  const adv = ADVANCED[def.title];
  return adv ? { advanced: adv } : {};
}
function newItem(def, key) {
  const out = {};
  for (const r of def.required || []) {
    const p = resolve(def.properties[r]);
    if (r === "id") out.id = uniqueId(key === "weapons" ? "w" : "u");
    else if (p.enum) out[r] = p.enum[0];
    else if (p.type === "string" && p.pattern && p.pattern.includes("A-Z")) out[r] = S.sel && S.sel.hex ? S.sel.hex : "A1";
    else if (p.type === "array") out[r] = [];
    else if (p.type === "integer" || p.type === "number") out[r] = p.minimum || 0;
    else out[r] = "";
  }
  if (def.title === "Weapon") Object.assign(out, { kind: "LMG", fp: 2, range: 6 });
  return out;
}
function uniqueId(prefix) {
  const ids = new Set((S.doc.units || []).flatMap((u) => [u.id, ...(u.weapons || []).map((w) => w.id)]));
  for (let k = 1; ; k++) if (!ids.has(prefix + k)) return prefix + k;
}

// ------------------------------------------------------------------ set up

function renderSetup() {
  const pane = $("#tab-setup");
  const doc = S.doc;
  if (!doc) { pane.replaceChildren(el("p", {}, "No situation.")); return; }
  const kids = [];
  const sitDef = S.schema;
  kids.push(el("h2", {}, "Situation"));
  kids.push(el("form", { class: "schema", onsubmit: (e) => e.preventDefault() },
    schemaForm(sitDef, doc, [], { only: ["title", "source", "phase", "attacker", "readings"] })));
  const sel = S.sel;
  kids.push(el("div", { class: "row" },
    el("button", { type: "button", id: "add-unit", onclick: addUnit }, "Add unit" + (sel && sel.kind === "hex" ? " in " + sel.hex : "")),
    el("span", { class: "hint" }, "Click a counter to edit it, a hex for its terrain; drag the map to pan, wheel to zoom.")));
  if (sel && (sel.kind === "unit" || sel.kind === "weapon")) {
    const owner = sel.kind === "unit" ? unitById(sel.id) : ownerOf(sel.id);
    const i = (doc.units || []).indexOf(owner);
    if (owner) {
      kids.push(el("h2", {}, `Unit ${owner.id}` + (sel.kind === "weapon" ? ` (weapon ${sel.id})` : "")));
      kids.push(el("div", { class: "row" },
        el("button", { type: "button", id: "move-unit", onclick: () => { S.pending = { kind: "move", index: i }; setMode(`click the hex ${owner.id} moves to`); } }, "Move to a hex…"),
        owner.moving ? el("button", { type: "button", onclick: () => { delete owner.moving; changed(true); } }, "Not moving")
          : el("button", { type: "button", id: "make-mover", onclick: () => { (doc.units || []).forEach((u) => { if (u !== owner) delete u.moving; }); owner.moving = { mf_here: 1 }; changed(true); } }, "Make it the mover"),
        el("button", { type: "button", class: "danger", id: "delete-unit", onclick: () => { doc.units.splice(i, 1); S.sel = null; changed(true); } }, "Delete")));
      kids.push(el("form", { class: "schema", id: "unit-form", onsubmit: (e) => e.preventDefault() },
        schemaForm(S.defs.Unit, owner, ["units", i], formOpts(S.defs.Unit))));
    }
  } else if (sel && sel.kind === "hex") {
    kids.push(...locationForm(sel.hex));
  }
  kids.push(el("h2", {}, "Lines of sight that are not clear"));
  kids.push(el("form", { class: "schema", onsubmit: (e) => e.preventDefault() }, schemaForm(sitDef, doc, [], { only: ["lines_of_sight"] })));
  kids.push(el("details", { class: "more" }, el("summary", {}, "the file it saves (YAML)"), el("pre", { class: "yaml", id: "yaml" }, S.yaml || "")));
  pane.replaceChildren(...kids);
  if (S.error) placeError(S.error);
}
function locationForm(hex) {
  const doc = S.doc, out = [el("h2", {}, "Location " + hex)];
  const level = S.level || 0, key = level ? `${hex}@${level}` : hex;
  const lv = el("input", { type: "number", min: -1, max: 9, step: 1, value: level, id: "level" });
  lv.addEventListener("change", () => { S.level = Number(lv.value) || 0; renderSetup(); });
  out.push(el("div", { class: "field" }, el("label", {}, "level"), lv));
  const locs = doc.locations || {};
  const existing = Object.keys(locs).find((k) => k === key);
  if (existing) {
    out.push(el("form", { class: "schema", id: "location-form", onsubmit: (e) => e.preventDefault() },
      schemaForm(S.defs.Terrain, locs[existing], ["locations", existing], {})));
    out.push(el("button", { type: "button", class: "small danger", onclick: () => { delete locs[existing]; if (!Object.keys(locs).length) delete doc.locations; changed(true); } }, "open ground (remove)"));
  } else {
    out.push(el("p", { class: "hint" }, `${key}: open ground (the default).`));
    out.push(el("button", { type: "button", id: "set-terrain", onclick: () => { doc.locations = doc.locations || {}; doc.locations[key] = { terrain: "woods", tem: 1 }; changed(true); } }, "Set its terrain"));
  }
  const rkey = Object.keys(doc.residual_fp || {}).find((k) => k === key);
  const rv = rkey ? doc.residual_fp[rkey] : undefined;
  const rin = el("input", { type: "number", min: 0, max: 99, step: "any", value: rv === undefined ? "" : (typeof rv === "object" ? rv.fp : rv), "data-path": pathText(["residual_fp", key]) });
  rin.addEventListener("change", () => {
    doc.residual_fp = doc.residual_fp || {};
    if (rin.value === "") delete doc.residual_fp[key]; else doc.residual_fp[key] = Number(rin.value);
    if (!Object.keys(doc.residual_fp).length) delete doc.residual_fp;
    changed(false);
  });
  out.push(el("div", { class: "field", dataset: { path: pathText(["residual_fp", key]) } }, el("label", { title: "Residual FP counter now on the map" }, "Residual FP"), rin));
  return out;
}
function addUnit() {
  const doc = S.doc;
  const hex = S.sel && S.sel.kind === "hex" ? S.sel.hex : ((doc.units || [])[0] || {}).hex || "A1";
  const sides = [...new Set((doc.units || []).map((u) => u.side))];
  const side = sides.find((s) => s !== doc.attacker) || (doc.attacker === "german" ? "russian" : "german");
  const u = { id: uniqueId("u"), side, type: "squad", counter: "4-6-7", hex };
  doc.units = doc.units || [];
  doc.units.push(u);
  S.sel = { kind: "unit", id: u.id };
  changed(true);
}

// the situation as sent: an empty mapping the page made (readings: {}) left out
function payload() {
  const d = clone(S.doc);
  for (const [k, v] of Object.entries(d)) if (v && typeof v === "object" && !Array.isArray(v) && !Object.keys(v).length) delete d[k];
  return d;
}

// every change: the map at once, the loader's check shortly after
function changed(structural) {
  $("#dirty").hidden = JSON.stringify(payload()) === S.saved;
  S.asked = null;
  renderMap();
  if (structural && S.tab === "setup") renderSetup();
  clearTimeout(S.validateTimer);
  S.validateTimer = setTimeout(validate, 250);
}
async function validate() {
  const res = await call("POST", "/api/validate", { name: S.name, situation: payload() });
  if (res.ok) {
    S.error = null; S.yaml = res.data.yaml; clearErrors();
    if (!$("#message").classList.contains("info")) message("");
    const y = $("#yaml"); if (y) y.textContent = S.yaml;
    if (S.tab === "attacks" && S.sel) askSelection();
  } else showError(res.data.error);
  return res.ok;
}
function clearErrors() {
  document.querySelectorAll(".field-error").forEach((e) => e.remove());
  document.querySelectorAll(".error-at").forEach((e) => e.classList.remove("error-at"));
}
function showError(err, pane) {
  err = err || { message: "unknown error" };
  S.error = err;
  message(err.message);
  if (pane) pane.append(el("p", { class: "field-error" }, err.message));
  placeError(err);
}
function placeError(err) {
  clearErrors();
  if (!err || !err.path) return;
  // the field the loader names, or the nearest enclosing one the page shows
  let p = err.path;
  for (;;) {
    const at = document.querySelector(`.field[data-path="${CSS.escape(p)}"], fieldset[data-path="${CSS.escape(p)}"]`);
    if (at) { at.classList.add("error-at"); at.append(el("div", { class: "field-error" }, err.message)); return; }
    const cut = Math.max(p.lastIndexOf("."), p.lastIndexOf("["));
    if (cut <= 0) return;
    p = p.slice(0, cut);
  }
}

// ------------------------------------------------------------------ replay

async function renderReplay() {
  const pane = $("#tab-replay");
  const doc = S.doc;
  if (!doc || !(doc.sequence || []).length) {
    pane.replaceChildren(el("p", { class: "hint" }, "This situation has no sequence: of steps. A replay is a situation with sequence: (docs/replay.md); open one, e.g. tests/cases/replays/ex_8_41.yaml."));
    return;
  }
  if (!S.replay || S.replay.doc !== JSON.stringify(doc)) {
    pane.replaceChildren(el("p", { class: "hint" }, "replaying…"));
    const res = await call("POST", "/api/replay", { name: S.name, situation: payload() });
    if (!res.ok) { pane.replaceChildren(); showError(res.data.error, pane); return; }
    S.replay = res.data; S.replay.doc = JSON.stringify(doc);
    S.step = Math.min(S.step || 1, res.data.steps.length + 1);
  }
  drawReplay();
}
function drawReplay() {
  const pane = $("#tab-replay"), rep = S.replay, n = rep.steps.length, i = S.step;
  const bad = rep.steps.filter((s) => !s.legal).map((s) => s.number);
  const go = (k) => { S.step = Math.max(1, Math.min(n + 1, k)); S.focus = null; drawReplay(); renderMap(); };
  const jump = el("input", { type: "number", min: 1, max: n + 1, value: i, id: "jump" });
  const kids = [
    el("p", {}, `${n} steps, ` + (bad.length ? `not legal at step(s) ${bad.join(", ")}` : "every step legal") + `; ${rep.passed} expectations hold, ${rep.failed} failed`),
    el("div", { class: "row" },
      el("button", { type: "button", id: "first", onclick: () => go(1) }, "« first"),
      el("button", { type: "button", id: "prev", onclick: () => go(i - 1), disabled: i <= 1 }, "◀ previous"),
      el("span", { id: "step-no" }, i <= n ? `before step ${i} of ${n}` : `after step ${n}`),
      el("button", { type: "button", id: "next", onclick: () => go(i + 1), disabled: i > n }, "next ▶"),
      el("button", { type: "button", id: "last", onclick: () => go(n + 1) }, "last »"),
      jump, el("button", { type: "button", id: "go", onclick: () => go(Number(jump.value) || 1) }, "Go")),
  ];
  const list = el("ol", { class: "steps" });
  rep.steps.forEach((s) => list.append(el("li", { class: (s.number === i ? "current " : "") + (s.legal ? "" : "illegal"), onclick: () => go(s.number), dataset: { step: s.number } },
    el("span", { class: "n" }, s.number), s.text, s.legal ? "" : "  [NOT LEGAL]")));
  kids.push(list);
  const s = rep.steps[i - 1];
  if (s) {
    const step = (S.doc.sequence || [])[i - 1] || {};
    const box = el("div", { id: "step", dataset: { kind: s.kind, legal: String(s.legal) } });
    box.append(el("h2", {}, `Step ${s.number} (line ${s.line}): ${s.text}`));
    box.append(el("p", { class: "hint" }, "The map shows the situation before this step."));
    if (step.attack) {
      const a = step.attack, opt = typeof a.option === "string" ? a.option : Object.entries(a.option).map(([k, v]) => `${k}: ${v}`).join(", ");
      box.append(el("p", {}, el("b", {}, "attack: "), `${opt} by ${(a.firers || []).join(", ") || "(Residual FP)"}` + (a.director ? ` directed by ${a.director}` : "") + ` at ${(a.targets || []).join(", ")}` + (a.dice ? ` · dice ${a.dice.original}` + (a.dice.colored ? ` (colored ${a.dice.colored})` : "") : "")));
    }
    if (!s.legal) box.append(el("div", { class: "illegal-box", id: "illegal" }, el("b", {}, "not legal"),
      el("ul", { class: "reasons" }, s.problems.map(reasonItem)), s.continues ? el("p", {}, s.continues) : null));
    if (s.answer) box.append(el("h3", {}, s.kind === "attack" ? "Answer" : "The KB on this step"), answerCard(s.answer, true));
    if (s.residual) box.append(el("h3", {}, "Residual FP attack"), answerCard(s.residual, true));
    if ((s.changes_text || []).length) box.append(el("h3", {}, "What it changes"), el("ul", { class: "changes" }, s.changes_text.map((t) => el("li", {}, t))));
    if ((s.expect || []).length) box.append(el("h3", {}, "Expectations"), el("ul", {}, s.expect.map((e) => el("li", {},
      `line ${e.line}, ${e.kind}: ` + (e.passed ? "holds" : "FAILS " + e.mismatches.map((m) => `${m.field}: expected ${m.expected}, got ${m.actual}`).join("; "))))));
    kids.push(box);
  } else kids.push(el("p", {}, "The situation after the last step."));
  pane.replaceChildren(...kids);
}

// ------------------------------------------------------------------ files, tabs, saving

function setTab(tab) {
  const was = S.tab;
  S.tab = tab;
  document.querySelectorAll(".tabs button").forEach((b) => b.classList.toggle("active", b.dataset.tab === tab));
  for (const t of ["attacks", "setup", "replay", "rule"]) $("#tab-" + t).hidden = t !== tab;
  S.pending = null; setMode("");
  if (tab === "setup") renderSetup();
  if (tab === "attacks") { if (S.sel) askSelection(); else askSelection(); }
  if (tab === "replay") renderReplay();
  if (was === "replay" || tab === "replay") renderMap();
}
async function openFile(name) {
  const res = await call("GET", "/api/file?name=" + encodeURIComponent(name));
  if (!res.ok) { showError(res.data.error); return; }
  const f = res.data;
  S.name = name; S.file = f; S.sel = null; S.replay = null; S.step = 1; S.view = null; S.asked = null; S.error = null; S.focus = null;
  S.doc = f.data && typeof f.data === "object" ? clone(f.data) : { attacker: "", units: [] };
  S.saved = JSON.stringify(payload());
  $("#file").value = name;
  $("#title").textContent = S.doc.title || "";
  $("#dirty").hidden = true;
  history.replaceState(null, "", "#file=" + encodeURIComponent(name));
  const c = $("#comments");
  if (f.comments && f.comments.length) {
    c.hidden = false;
    const lines = f.comments.length > 8 ? f.comments.slice(0, 8).join(", ") + ", …" : f.comments.join(", ");
    c.textContent = `${name} has ${f.comments.length} comment line${f.comments.length > 1 ? "s" : ""} (${lines}): Save rewrites the file without them (it asks first); Save as… writes a new file and keeps this one as it is.`;
  } else c.hidden = true;
  message("");
  renderMap();
  if (f.error) showError(f.error);
  setTab((S.doc.sequence || []).length && S.tab !== "setup" ? "replay" : S.tab === "rule" ? "attacks" : S.tab);
}
async function save(asName) {
  const body = { name: S.name, situation: payload() };
  if (asName) body.save_as = asName;
  let res = await call("POST", "/api/save", body);
  if (!res.ok && res.status === 409 && !asName && confirm(res.data.error.message + "\n\nSave without the comments?")) {
    body.drop_comments = true;
    res = await call("POST", "/api/save", body);
  }
  if (!res.ok) { showError(res.data.error); if (S.tab !== "setup") setTab("setup"); else placeError(res.data.error); return; }
  message(`saved ${res.data.path}`, "info");
  if (asName) {
    const files = await call("GET", "/api/files");
    if (files.ok) fillFiles(files.data.files);
    await openFile(res.data.saved);
    message(`saved ${res.data.path}`, "info");
  } else {
    S.saved = JSON.stringify(payload()); $("#dirty").hidden = true;
    $("#comments").hidden = true; $("#title").textContent = S.doc.title || "";
  }
}
function fillFiles(files) {
  S.files = files;
  $("#file").replaceChildren(...files.map((f) => el("option", { value: f }, f)));
  if (S.name) $("#file").value = S.name;
}

async function boot() {
  mapEvents();
  document.querySelectorAll(".tabs button").forEach((b) => b.addEventListener("click", () => setTab(b.dataset.tab)));
  $("#file").addEventListener("change", () => {
    if (!$("#dirty").hidden && !confirm("Discard the unsaved changes?")) { $("#file").value = S.name; return; }
    openFile($("#file").value);
  });
  $("#save").addEventListener("click", () => save(null));
  $("#save-as").addEventListener("click", () => {
    const n = prompt("Save as (a new file in the served directory):", (S.name || "situation.yaml").replace(/(\.ya?ml)?$/, "_2.yaml").split("/").pop());
    if (n) save(n);
  });
  window.addEventListener("beforeunload", (e) => { if (!$("#dirty").hidden) { e.preventDefault(); e.returnValue = ""; } });
  const [files, schema, rules] = await Promise.all([call("GET", "/api/files"), call("GET", "/api/schema"), call("GET", "/api/rules")]);
  if (!files.ok || !schema.ok) { message((files.data.error || schema.data.error).message); return; }
  S.labels = files.data.labels || {};
  S.targetOption = !!files.data.target_option;
  S.schema = schema.data; S.defs = schema.data.$defs || {};
  S.rules = rules.ok ? rules.data : null;
  fillFiles(files.data.files);
  if (!files.data.files.length) { message("No situation file here: start aslrules serve on a file or a directory holding *.yaml files."); return; }
  const want = decodeURIComponent((/#file=([^&]+)/.exec(location.hash) || [])[1] || "");
  await openFile(files.data.files.includes(want) ? want : files.data.files[0]);
  document.body.dataset.ready = "true";
}
window.addEventListener("resize", () => { if (S.view) { S.view = null; fitView(); applyView(); } });
document.addEventListener("DOMContentLoaded", boot);
