"use strict";
// The floor's pit page: polls the floor service's JSON every two seconds. Money arrives as dollar text.
const $ = (id) => document.getElementById(id);
let selectedTable = null;
let csrf = null;
let timer = null;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value; else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child ?? "")));
  return node;
}

class LoggedOut extends Error {}
// fetch's own failure (TypeError: "Failed to fetch"): the service did not answer at all
const UNREACHABLE = "the floor service does not answer (stopped, or the network to it is down): this page tries again every two seconds";

async function get(path) {
  const answer = await fetch(path, { headers: { "Accept": "application/json" }, credentials: "same-origin" });
  const body = await answer.json().catch(() => ({ ok: false, reason: `the floor answered ${answer.status}` }));
  if (answer.status === 401) throw new LoggedOut(body.reason);
  if (!answer.ok || !body.ok) throw new Error(body.reason || `the floor answered ${answer.status}`);
  return body;
}

async function post(path, data) {
  const headers = { "Content-Type": "application/json" };
  if (csrf) headers["X-CSRF-Token"] = csrf;
  const answer = await fetch(path, { method: "POST", headers, credentials: "same-origin", body: JSON.stringify(data) });
  const body = await answer.json().catch(() => ({ ok: false, reason: `the floor answered ${answer.status}` }));
  if (!answer.ok || !body.ok) throw new Error(body.reason || `the floor answered ${answer.status}`);
  return body;
}

function showLogin(reason) {
  clearInterval(timer); timer = null; csrf = null;
  $("floor").hidden = true; $("logout").hidden = true; $("who").textContent = "";
  $("login").hidden = false; $("login-pin").value = "";
  $("link").textContent = "logged out"; $("link").className = "link-down";
  if (reason) { $("message").textContent = reason; $("message").hidden = false; }
  $("login-name").focus();
}

function showFloor(name) {
  $("login").hidden = true; $("floor").hidden = false; $("logout").hidden = false; $("message").hidden = true;
  $("who").textContent = name;
  refresh();
  timer = timer || setInterval(refresh, 2000);
}

function pitQuery() {
  const pit = $("pit").value;
  return pit ? `?pit=${encodeURIComponent(pit)}` : "";
}

function showTables(body) {
  $("site").textContent = `site ${body.site}`;
  const select = $("pit");
  if (select.options.length === 1) for (const pit of body.pits) select.append(el("option", { value: pit }, pit));
  const grid = $("tables");
  grid.replaceChildren(...body.tables.map((t) => {
    const kind = t.state === "hold" ? "hold" : (t.missing_records || t.recent_alerts ? "alarm" : (t.last_event ? "" : "quiet"));
    const tile = el("div", { class: `tile ${kind}`, "data-table": t.table },
      el("div", { class: "row" }, el("span", { class: "name" }, t.table), el("span", {}, t.pit ?? "")),
      el("div", { class: "row" }, el("span", {}, t.game ?? "—"), el("span", { class: "state" }, t.state)),
      el("div", { class: "row" }, el("span", {}, "drop"), el("span", {}, t.drop_text)),
      el("div", { class: "row" }, el("span", {}, "win"), el("span", {}, t.win_text)),
      el("div", { class: "row" }, el("span", {}, "hold / theo"), el("span", {}, `${t.hold_pct} / ${t.theoretical_hold_pct}`)),
      el("div", { class: "row" }, el("span", {}, "rounds last hour"), el("span", {}, t.rounds_last_hour)),
      el("div", { class: "row dealing" }, el("span", {}, "dealer"), el("span", {}, t.dealing ?? "nobody logged in")),
      t.hold_reason ? el("div", { class: "reason" }, t.hold_reason) : "",
      t.missing_records ? el("div", { class: "reason" }, "records missing on the floor") : "");
    tile.addEventListener("click", () => openTable(t.table));
    return tile;
  }));
}

function showAlerts(body) {
  $("alerts").replaceChildren(...body.alerts.map((a) =>
    el("li", {}, el("strong", {}, a.table), " ", a.message, " ", el("span", { class: "muted" }, a.at_text || ""))));
}

function hitLine(h) {
  const what = h.verified ? `${h.amount_text} ${h.settled ? "paid" : "awarded, the table settling it"}` : `refused: ${h.reason}`;
  return el("li", { class: "hit" }, `${h.at_text} ${h.table} spot ${h.spot}: ${what}`);
}

function showJackpots(body) {
  $("jackpots").replaceChildren(...body.jackpots.map((j) =>
    el("li", {}, el("strong", {}, j.jackpot), " ", j.meter_text,
       j.locked_by ? el("span", { class: "locked" }, ` locked: ${j.locked_text}`) : "",
       el("div", { class: "muted" }, `fed ${j.contributed_text}, paid ${j.paid_text}`),
       j.hits.length ? el("ul", { class: "plain hits" }, ...j.hits.map(hitLine)) : "")));
}

async function openTable(table) {
  selectedTable = table;
  $("detail").hidden = false;
  $("detail-title").textContent = `${table}: last rounds`;
  let body;
  try {
    body = await get(`/api/rounds?table=${encodeURIComponent(table)}`);
  } catch (error) {
    if (error instanceof LoggedOut) { showLogin(error.message); return; }
    $("detail-rounds").replaceChildren(el("p", { class: "reason" },
      `${table}'s last rounds cannot be shown now: ${error instanceof TypeError ? UNREACHABLE : error.message}`));
    return;
  }
  $("detail-rounds").replaceChildren(...body.rounds.map((r) => el("table", {},
    el("caption", {}, `${r.round} ${r.state} wagered ${r.wagered_text} paid ${r.paid_text} house ${r.house_win_text}`),
    el("tr", {}, el("th", {}, "cards"), el("td", {}, r.cards.map((c) => `${c.card}→${c.to}`).join("  ")
      + (r.cards_not_shown ? `  (${r.cards_not_shown} never turned up at the table)` : ""))),
    ...r.settlements.map((s) => el("tr", {}, el("td", {}, `spot ${s.spot} ${s.wager}`),
                                    el("td", {}, `${s.stake_text} → ${s.returned_text} (${s.outcome})`))))));
}

async function refresh() {
  try {
    const q = pitQuery();
    const [tables, alerts, jackpots] = await Promise.all([get(`/api/tables${q}`), get(`/api/alerts${q}`), get("/api/jackpots")]);
    showTables(tables); showAlerts(alerts); showJackpots(jackpots);
    // live only while the floor takes in the tables' records: with its broker or database away the figures stand still
    const behind = tables.consumer && tables.consumer.last_error && (tables.consumer.behind || "the floor is catching up");
    $("link").textContent = behind ? "behind" : "live"; $("link").className = behind ? "link-down" : "link-up";
    $("message").textContent = behind ? `figures not up to date: ${behind}` : "";
    $("message").hidden = !behind;
  } catch (error) {
    if (error instanceof LoggedOut) { showLogin(error.message); return; }
    $("link").textContent = "offline"; $("link").className = "link-down";
    $("message").textContent = error instanceof TypeError ? UNREACHABLE : error.message; $("message").hidden = false;
  }
}

document.addEventListener("DOMContentLoaded", async () => {
  $("pit").addEventListener("change", refresh);
  $("detail-close").addEventListener("click", () => { $("detail").hidden = true; selectedTable = null; });
  $("login").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const body = await post("/api/login", { name: $("login-name").value.trim(), pin: $("login-pin").value });
      csrf = body.csrf;
      showFloor(body.name);
    } catch (error) {
      $("login-pin").value = "";
      $("message").textContent = error.message; $("message").hidden = false;
    }
  });
  $("logout").addEventListener("click", async () => {
    try { await post("/api/logout", {}); } catch (error) { /* logged out either way */ }
    showLogin("logged out");
  });
  const session = await fetch("/api/session", { credentials: "same-origin" }).then((r) => r.json()).catch(() => ({}));
  if (session.logged_in) { csrf = session.csrf; showFloor(session.name); } else { showLogin(""); }
});
