// boardwire live view: the board and schematic sheets of the session, redrawn on every
// document.changed, with the agent chat box. Speaks the bridge protocol (docs/bridge.md):
// handshake, hello, then JSON-RPC 2.0 over the WebSocket /view/bridge.
"use strict";

const $ = (id) => document.getElementById(id);
const version = document.querySelector('meta[name="boardwire-version"]').content;
const state = {
  ws: null, nextId: 1, pending: new Map(), docs: [], current: null, sheet: null,
  side: "front", hidden: new Set(["F.CrtYd", "B.CrtYd", "References", "F.Mask", "B.Mask", "F.Paste", "B.Paste",
    "F.Adhes", "B.Adhes", "Margin"]), patch: new URLSearchParams(location.search).get("patch") !== "0", revisions: {}, zoom: 1, pan: [0, 0],
  fitted: false, requests: new Map(), listening: false, loading: null, again: false,
};

// -- the bridge ------------------------------------------------------------------------

function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/view/bridge");
  state.ws = ws;
  ws.onopen = () => ws.send(JSON.stringify({
    type: "handshake", protocol: "boardwire.bridge", protocolVersion: "1.0.0", contractVersion: 1,
    clientName: "boardwire-web", clientVersion: version, devMode: false,
  }));
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  ws.onclose = (ev) => {
    status("closed", "disconnected" + (ev.reason ? ": " + ev.reason : "") + " — retrying");
    for (const [, p] of state.pending) p.reject(new Error("connection closed"));
    state.pending.clear();
    setTimeout(connect, 1500);
  };
}

function status(s, text) { const el = $("status"); el.dataset.state = s; el.textContent = text; }

function rpc(method, params) {
  return new Promise((resolve, reject) => {
    const id = state.nextId++;
    state.pending.set(id, { resolve, reject });
    state.ws.send(JSON.stringify({ jsonrpc: "2.0", id, method, params: params || {} }));
  });
}

function onMessage(msg) {
  if (msg.type === "hello") { status("connected", "live · " + msg.bridgeVersion); start(); return; }
  if (msg.type === "refused") { status("closed", "refused: " + msg.message); return; }
  if (msg.id !== undefined && state.pending.has(msg.id)) {
    const p = state.pending.get(msg.id); state.pending.delete(msg.id);
    msg.error ? p.reject(Object.assign(new Error(msg.error.message), { data: msg.error.data })) : p.resolve(msg.result);
    return;
  }
  if (msg.method === "document.changed") onChanged(msg.params);
  else if (msg.method === "agent.chatEvent") onChat(msg.params);
}

async function start() {
  const want = new URLSearchParams(location.search).get("open");
  if (want) { try { await rpc("session.open", { path: want }); } catch (e) { note(e.message); } }
  await refreshDocs(want);
  const chat = await rpc("agent.requests");
  state.listening = chat.listening;
  for (const r of chat.requests) state.requests.set(r.chatId, r);
  renderCards(); agentState();
}

async function refreshDocs(prefer) {
  const d = await rpc("session.documents");
  state.docs = d.documents.filter((x) => x.kind === "board" || x.kind === "schematic");
  for (const x of d.documents) state.revisions[x.path] = x.revision;
  const sel = $("doc");
  sel.innerHTML = "";
  for (const x of state.docs) sel.add(new Option(`${x.path} (${x.kind})`, x.path));
  const keep = state.docs.find((x) => x.path === (state.current || prefer)) || state.docs.find((x) => x.kind === "board") || state.docs[0];
  if (!keep) { $("drawing").innerHTML = '<p style="padding:20px">No board or schematic is open in this session (open one with ?open=PATH or from an agent).</p>'; return; }
  sel.value = keep.path;
  await choose(keep.path);
}

async function choose(path) {
  state.current = path; state.fitted = false;
  const doc = state.docs.find((x) => x.path === path);
  const sheetSel = $("sheet");
  sheetSel.hidden = doc.kind !== "schematic";
  $("sides").hidden = doc.kind !== "board";
  if (doc.kind === "schematic") {
    const tree = await rpc("query.sheetTree", { path });
    sheetSel.innerHTML = "";
    for (const s of tree.sheets) sheetSel.add(new Option(`${s.page}: ${s.name || s.file}`, s.page));
    state.sheet = tree.sheets.length ? tree.sheets[0].page : null;
  }
  await draw();
}

function onChanged(ev) {
  state.revisions[ev.path] = ev.revision;
  if (ev.reason === "open" || ev.reason === "close") { refreshDocs(); return; }
  const doc = state.docs.find((x) => x.path === state.current);
  // a schematic's drawing depends on its sub-sheets too: redraw on any schematic change
  if (ev.path === state.current || (doc && doc.kind === "schematic" && ev.path.endsWith(".kicad_sch"))) draw();
  renderCards();
}

// -- drawing -----------------------------------------------------------------------------

async function draw() {
  if (state.loading) { state.again = true; return state.loading; }  // one fetch at a time, the last one wins
  state.loading = (async () => {
    do {
      state.again = false;
      delete $("drawing").dataset.drawMs;  // set again once this drawing is painted
      const doc = state.docs.find((x) => x.path === state.current);
      if (!doc) return;
      const q = new URLSearchParams({ path: doc.path });
      const el = $("drawing");
      const shown = el.className === "board" ? el.querySelector("svg") : null;
      // the board shown at an earlier revision: ask for the items changed since (a delta)
      const since = doc.kind === "board" && state.patch && shown && shown.dataset.path === doc.path
        && shown.dataset.side === state.side ? shown.dataset.revision : null;
      let url;
      if (doc.kind === "board") { q.set("side", state.side); if (since !== null) q.set("from", since); url = "/view/board.svg?" + q; }
      else { if (state.sheet) q.set("page", state.sheet); url = "/view/sheet.svg?" + q; }
      const r = await fetch(url, { credentials: "same-origin" });
      const text = await r.text();
      if (!r.ok) { note(JSON.parse(text).error.message); return; }
      const t0 = performance.now();
      let patched = null;
      if ((r.headers.get("content-type") || "").startsWith("application/json")) {
        try { patched = applyDelta(shown, JSON.parse(text)); } catch (e) { shown.dataset.revision = "-1"; state.again = true; continue; }
      } else {
        el.className = doc.kind === "board" ? "board" : "sheet";
        el.innerHTML = text;
      }
      const svg = el.querySelector("svg");
      if (svg && !svg.getAttribute("width")) sizeSvg(svg);
      el.dataset.revision = svg && svg.dataset.revision !== undefined ? svg.dataset.revision : String(state.revisions[doc.path]);
      el.dataset.path = doc.path;
      applyLayers();
      if (!patched) buildLayerList();
      // what the last drawing did, for tests and measurements: items replaced (or "all") and ms
      el.dataset.replaced = patched ? String(patched.replaced) : "all";
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));  // after the frame is painted
      el.dataset.drawMs = (performance.now() - t0).toFixed(1);
      if (!state.fitted) { fit(); state.fitted = true; } else applyView();
    } while (state.again);
  })();
  try { await state.loading; } finally { state.loading = null; }
}

// Apply a delta of /view/board.svg?from=R (web/board_delta.py) to the drawing shown:
// per layer, the items (<g data-k>) set (replaced in place, or appended) and removed, a
// copper layer's zones likewise, and the whole inside of the layers without items.
function applyDelta(svg, body) {
  const layers = new Map([...svg.querySelectorAll("g.layer")].map((g) => [g.dataset.layer, g]));
  for (const d of body.delta.layers) {
    const g = layers.get(d.layer);
    if (!g) throw new Error("no layer " + d.layer);
    if (d.raw !== undefined) { g.replaceChildren(...fragment(d.raw)); continue; }
    setItems(g, d.set, d.remove);
    const zones = g.querySelector(":scope > g.zones");
    if (zones) setItems(zones, d.zonesSet, d.zonesRemove);
  }
  svg.setAttribute("data-revision", String(body.revision));
  return { replaced: body.delta.items };
}

function setItems(parent, set, remove) {
  const keys = Object.keys(set || {});
  if (!keys.length && !(remove || []).length) return;
  const at = new Map();
  for (const c of parent.children) { const k = c.getAttribute("data-k"); if (k !== null) at.set(k, c); }
  for (const k of remove || []) { const c = at.get(k); if (c) c.remove(); }
  for (const n of fragment(keys.map((k) => set[k]).join(""))) {
    const c = at.get(n.getAttribute("data-k"));
    if (c) c.replaceWith(n); else parent.append(n);
  }
}

function fragment(svgText) {
  const doc = new DOMParser().parseFromString('<svg xmlns="http://www.w3.org/2000/svg">' + svgText + "</svg>", "image/svg+xml");
  if (doc.querySelector("parsererror")) throw new Error("bad drawing");
  return [...doc.documentElement.children].map((n) => document.importNode(n, true));
}

function sizeSvg(svg) {
  const vb = svg.viewBox.baseVal;
  if (!vb || !vb.width) return;
  const px = 1000;  // drawn at 1000 px across, zoomed by the CSS transform
  svg.setAttribute("width", px); svg.setAttribute("height", Math.round(px * vb.height / vb.width));
}

function buildLayerList() {
  const box = $("layers"); box.innerHTML = "";
  for (const g of $("drawing").querySelectorAll("g.layer")) {
    const name = g.dataset.layer;
    const lab = document.createElement("label");
    const cb = document.createElement("input"); cb.type = "checkbox"; cb.checked = !state.hidden.has(name); cb.dataset.layer = name;
    cb.onchange = () => { cb.checked ? state.hidden.delete(name) : state.hidden.add(name); applyLayers(); };
    const sw = document.createElement("span"); sw.className = "swatch";
    sw.style.background = g.getAttribute("fill") !== "none" && g.getAttribute("fill") || g.getAttribute("stroke") || "#888";
    lab.append(cb, sw, document.createTextNode(name)); box.append(lab);
  }
}

function applyLayers() {
  for (const g of $("drawing").querySelectorAll("g.layer")) g.style.display = state.hidden.has(g.dataset.layer) ? "none" : "";
}

function applyView() {
  $("drawing").style.transform = `translate(${state.pan[0]}px, ${state.pan[1]}px) scale(${state.zoom})`;
}

function fit() {
  const svg = $("drawing").querySelector("svg"); if (!svg) return;
  const c = $("canvas").getBoundingClientRect();
  const w = svg.width.baseVal.value || 1000, h = svg.height.baseVal.value || 1000;
  state.zoom = Math.min(c.width / w, c.height / h) * 0.95;
  state.pan = [(c.width - w * state.zoom) / 2, (c.height - h * state.zoom) / 2];
  applyView();
}

function setupPanZoom() {
  const canvas = $("canvas");
  canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    const r = canvas.getBoundingClientRect(), x = e.clientX - r.left, y = e.clientY - r.top;
    const k = Math.exp(-e.deltaY * 0.0015);
    state.pan = [x - (x - state.pan[0]) * k, y - (y - state.pan[1]) * k]; state.zoom *= k; applyView();
  }, { passive: false });
  let drag = null;
  canvas.addEventListener("mousedown", (e) => { drag = [e.clientX - state.pan[0], e.clientY - state.pan[1]]; canvas.classList.add("dragging"); });
  window.addEventListener("mouseup", () => { drag = null; canvas.classList.remove("dragging"); });
  window.addEventListener("mousemove", (e) => {
    if (drag) { state.pan = [e.clientX - drag[0], e.clientY - drag[1]]; applyView(); }
    hover(e);
  });
  $("fit").onclick = fit;
}

function hover(e) {
  const tip = $("tip");
  const el = e.target instanceof Element ? e.target.closest("[data-ref],[data-net],[data-rule]") : null;
  if (!el || !$("drawing").contains(el)) { tip.hidden = true; return; }
  const d = el.dataset, lines = [];
  if (d.ref) lines.push(d.ref + (d.value ? "  " + d.value : ""));
  if (d.pad) lines.push("pad " + d.pad);
  if (d.net) lines.push("net " + d.net);
  if (d.rule) lines.push("DRC " + d.rule + (d.message ? ": " + d.message : ""));
  if (d.kind === "ratsnest") lines.unshift("unrouted");
  tip.textContent = lines.join("\n"); tip.hidden = false;
  tip.style.left = e.clientX + 14 + "px"; tip.style.top = e.clientY + 12 + "px";
}

// -- the chat box --------------------------------------------------------------------------

function onChat(ev) {
  let r = state.requests.get(ev.chatId);
  if (ev.kind === "request") { state.requests.set(ev.chatId, ev.request); renderCards(); return; }
  if (!r) return;
  if (ev.kind === "taken") { r.state = "running"; r.takenBy = ev.actor; state.listening = true; }
  else if (ev.kind === "progress") { r.progress = ev.text; r.percent = ev.percent; }
  else if (ev.kind === "text") r.answer += ev.text;
  else if (ev.kind === "edit") r.edits.push(ev.edit);
  else if (ev.kind === "done") r.state = "done";
  else if (ev.kind === "error") { r.state = "error"; r.error = ev.text; }
  renderCards(); agentState();
}

function agentState() {
  const el = $("agent-state");
  el.className = state.listening ? "" : "none";
  el.textContent = state.listening ? "An agent is listening." :
    "No agent is listening. Connect one over MCP with the agent toolset (boardwire mcp --toolset all,agent) and the editor-chat prompt.";
}

function renderCards() {
  const box = $("cards"); box.innerHTML = "";
  for (const r of state.requests.values()) {
    const card = document.createElement("div"); card.className = "card"; card.dataset.chat = r.chatId; card.dataset.state = r.state;
    const q = document.createElement("div"); q.className = "q"; q.textContent = r.text;
    const st = document.createElement("div"); st.className = "state";
    st.textContent = r.state + (r.takenBy ? " · " + r.takenBy : "") + (r.progress ? " · " + r.progress : "");
    card.append(q, st);
    if (r.percent !== null && r.percent !== undefined && r.state === "running") {
      const bar = document.createElement("div"); bar.className = "progress";
      const fill = document.createElement("div"); fill.style.width = r.percent + "%"; bar.append(fill); card.append(bar);
    }
    if (r.answer) { const a = document.createElement("div"); a.className = "answer"; a.textContent = r.answer; card.append(a); }
    if (r.error) { const a = document.createElement("div"); a.className = "answer error"; a.textContent = r.error; card.append(a); }
    if (r.edits.length) {
      const t = document.createElement("div"); t.className = "state"; t.textContent = `${r.edits.length} edit(s)`;
      const ul = document.createElement("ul"); ul.className = "edits";
      for (const e of r.edits) {
        const li = document.createElement("li"); li.textContent = `${e.label} on ${e.path} (rev ${e.revision})`;
        const b = document.createElement("button"); b.className = "undo"; b.textContent = e.undone ? "undone" : "Undo";
        const top = state.revisions[e.path] === e.revision;
        b.disabled = !!e.undone || !top;
        b.title = top ? "Undo this edit (session.undo)" : "Later changes exist: undo those first";
        b.onclick = async () => {
          try { await rpc("session.undo", { path: e.path }); e.undone = true; renderCards(); } catch (err) { note(err.message); }
        };
        li.append(b); ul.append(li);
      }
      card.append(t, ul);
    }
    box.append(card);
  }
  box.scrollTop = box.scrollHeight;
}

function note(text) { const el = $("agent-state"); el.textContent = text; }

async function ask(e) {
  e.preventDefault();
  const text = $("ask-text").value.trim(); if (!text) return;
  $("ask-text").value = "";
  try {
    const r = await rpc("agent.ask", { text, path: state.current || undefined });
    state.listening = r.listening; agentState();
  } catch (err) { note(err.message); }
}

// -- wiring --------------------------------------------------------------------------------

$("doc").onchange = (e) => choose(e.target.value);
$("sheet").onchange = (e) => { state.sheet = e.target.value; state.fitted = false; draw(); };
for (const r of document.querySelectorAll('input[name="side"]')) r.onchange = (e) => { state.side = e.target.value; draw(); };
$("ask").onsubmit = ask;
$("ask-text").addEventListener("keydown", (e) => { if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) ask(e); });
window.addEventListener("resize", () => applyView());
setupPanZoom(); agentState(); connect();
