// Shared by the dealer console and the pit view: the login, the live view, commands, cards, the supervisor panel.
"use strict";

const PAGE = document.body.classList.contains("pit") ? "pit" : "dealer";
let CSRF = null; // the session's CSRF token: only a page the console served can read it (GET /api/session)
const SUITS = { S: ["\u2660", "black"], H: ["\u2665", "red"], D: ["\u2666", "red"], C: ["\u2663", "black"] };

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

function cardFace(code) {
  if (code === "JK") return { text: "Joker", colour: "black" };
  const rank = code.slice(0, -1) === "T" ? "10" : code.slice(0, -1);
  const suit = SUITS[code.slice(-1)];
  if (!suit) return { text: code, colour: "black" };
  return { text: rank + suit[0], colour: suit[1] };
}

// Cards the engine's text names by code (a hand label "3-card flush KS QS 2S", a result "dealer 6S 5S 7D AS 2D: 1
// point", a reveal's "up card: 6C") as the cards themselves read: "K\u2660 Q\u2660 2\u2660".
function cardWords(text) {
  return String(text).replace(/\b(?:[2-9TJQKA][SHDC]|JK)\b/g, (code) => cardFace(code).text);
}

function cardNode(card) {
  const face = card.face_down ? { text: "face down", colour: "back" } : cardFace(card.card);
  const bad = card.disagreement ? " disagree" : "";
  return el("div", { class: "card " + face.colour + bad, "data-card": card.card, "data-target": card.target,
                     "data-source": card.source, title: card.disagreement || card.source },
    el("span", { class: "face", text: face.text }),
    // "shoe+camera" may break after its "+": on one line it was wider than a small card, and cut at both ends
    el("span", { class: "source" }, ...String(card.source || "").split("+").flatMap((part, i) =>
      i ? [el("wbr", {}), "+" + part] : [part])),
    card.disagreement ? el("span", { class: "why", text: card.disagreement }) : null);
}

function showMessage(text, kind) {
  const box = document.getElementById("message");
  box.textContent = text || "";
  box.hidden = !text;
  box.className = "message " + (kind || "refused");
}

async function post(path, body) {
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": CSRF || "" },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
    let answer;
    try { answer = await response.json(); } catch (error) { answer = { ok: false, reason: "the console answered " + response.status }; }
    if (response.status === 401 && path !== "/api/login") showLogin("You are logged out: log in again.");
    else if (!answer.ok) showMessage(answer.reason, "refused");
    return answer;
  } catch (error) {
    showMessage("the console server cannot be reached: " + error, "refused");
    return { ok: false };
  }
}

// The login: a name and a PIN (or a card swiped into the PIN field); nothing is shown or sent before it.
let onLoggedIn = null;

function showLogin(why) {
  CSRF = null;
  document.body.classList.add("logged-out");
  document.getElementById("login").hidden = false;
  document.getElementById("login-why").textContent = why || "";
  document.getElementById("whoami").textContent = "";
  document.getElementById("logout").hidden = true;
  document.getElementById("login-name").focus();
}

function loggedIn(who) {
  CSRF = who.csrf;
  document.body.classList.remove("logged-out");
  document.getElementById("login").hidden = true;
  document.getElementById("whoami").textContent = who.name + " (" + who.role + ")";
  document.getElementById("logout").hidden = false;
  if (onLoggedIn) { const start = onLoggedIn; onLoggedIn = null; start(); }
}

async function logIn() {
  const name = document.getElementById("login-name");
  const pin = document.getElementById("login-pin");
  const answer = await post("/api/login", { name: name.value, pin: pin.value, page: PAGE });
  pin.value = "";
  if (answer.ok) { showMessage(""); loggedIn(answer); }
  else document.getElementById("login-why").textContent = answer.reason || "refused";
}

function loginPanel() {
  const submit = () => logIn();
  document.getElementById("login-submit").addEventListener("click", submit);
  document.getElementById("login-pin").addEventListener("keydown", (event) => { if (event.key === "Enter") submit(); });
  document.getElementById("login-name").addEventListener("keydown", (event) => {
    if (event.key === "Enter") document.getElementById("login-pin").focus();
  });
  document.getElementById("logout").addEventListener("click", async () => {
    await post("/api/logout", {});
    showLogin("Logged out.");
  });
}

// Start a page: once someone is logged in (now, or after the login), follow the live view.
async function startPage(render) {
  loginPanel();
  onLoggedIn = () => connect(render);
  try {
    const who = await (await fetch("/api/session", { credentials: "same-origin" })).json();
    if (who.logged_in) loggedIn(who);
    else showLogin("");
  } catch (error) {
    showLogin("the console server cannot be reached: " + error);
  }
}

// Commands go one at a time, in the order clicked: two in flight could reach the table out of order,
// and a late "ok" would clear the refusal of the command clicked after it.
let commandQueue = Promise.resolve();

function command(body) {
  const answer = commandQueue.then(() => post("/api/command", body)).then((result) => {
    if (result.ok) showMessage("");
    return result;
  });
  commandQueue = answer;
  return answer;
}

// A view that arrives while a finger or the mouse is down waits until it lifts (at most a second): drawn at once it
// replaced the buttons under the pointer, and a tap whose press and release met two different buttons was lost
// (no click), so the dealer's tap on the next wager or tile did nothing.
let pressed = false;
let heldView = null;  // the newest view that came while pressed, or while its draw was waiting
let heldRender = null;
let drawing = false;  // a held view's draw is scheduled: a view arriving meanwhile joins it, never overtaken by it

function drawHeldView() {
  pressed = false;
  if (heldView === null || drawing) return;
  drawing = true;
  setTimeout(() => {  // after the click this release makes
    drawing = false;
    const next = heldView;
    heldView = null;
    if (next !== null) heldRender(next);
  }, 0);
}

document.addEventListener("pointerdown", () => { pressed = true; }, true);
for (const name of ["pointerup", "pointercancel"]) document.addEventListener(name, drawHeldView, true);
window.addEventListener("blur", drawHeldView);

function drawWhenLifted(draw, next) {
  heldRender = draw;
  if (!pressed && !drawing) { draw(next); return; }
  if (heldView === null && !drawing) setTimeout(() => { if (heldView !== null) drawHeldView(); }, 1000);
  heldView = next;
}

function connect(render) {
  const link = document.getElementById("link");
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const socket = new WebSocket(scheme + location.host + (PAGE === "pit" ? "/ws/pit" : "/ws"));
  socket.onmessage = (message) => {
    link.textContent = "live";
    link.className = "link-up";
    drawWhenLifted(render, JSON.parse(message.data));
  };
  socket.onclose = (event) => {
    link.textContent = "offline";
    link.className = "link-down";
    if (event.code === 4401) { onLoggedIn = () => connect(render); showLogin("You are logged out: log in again."); return; }
    setTimeout(() => connect(render), 1000);
  };
}

function renderHeader(view) {
  document.getElementById("table-name").textContent = view.table + " \u00b7 " + view.game.title;
  const round = view.round;
  document.getElementById("round-id").textContent = round ? round.id : "no round yet";
  // the table's state in the dealer's words, as the engine words it ("Place your bets", "Round held: ..."); its name
  // ("betting", "hold") stays beside it for tests and surveillance
  const state = document.getElementById("state");
  state.textContent = view.screens.state_text;
  state.title = view.screens.state_text;
  state.dataset.state = view.screens.state;
}

// The supervisor panels on this page; each is told about every new view (the cards it can correct).
const supervisorPanels = [];

function refreshSupervisor(view) {
  for (const panel of supervisorPanels) panel(view);
}

// The supervisor panel: the supervisor's name and PIN (masked), a reason, optional card, then the console's question,
// answered by typing the PIN again. Nothing happens before that.
function supervisorPanel(container) {
  const name = el("input", { id: container.id + "-name", autocomplete: "off", placeholder: "supervisor" });
  const pin = el("input", { id: container.id + "-pin", type: "password", inputmode: "numeric", autocomplete: "off" });
  const reason = el("input", { id: container.id + "-reason", autocomplete: "off", placeholder: "why (goes in the log)" });
  const card = el("input", { id: container.id + "-card", autocomplete: "off", placeholder: "e.g. QH", size: 4 });
  const which = el("select", { id: container.id + "-which" });
  const question = el("p", { class: "question", role: "alert", hidden: true });
  const again = el("input", { id: container.id + "-pin-again", type: "password", inputmode: "numeric", autocomplete: "off",
                              "aria-label": "PIN again to confirm" });
  const confirmRow = el("div", { class: "entry-row", hidden: true });
  let pending = null;
  async function start(action) {
    const body = { action, name: name.value, pin: pin.value, reason: reason.value, card: card.value };
    if (action === "correct_placed") body.index = which.value === "" ? null : Number(which.value);
    pin.value = "";
    const answer = await post("/api/supervisor", body);
    if (!answer.ok) return;
    showMessage("");  // the PIN is right: a refusal before it no longer applies
    pending = answer.confirm;
    question.textContent = answer.question + " Type the PIN again to confirm.";
    question.hidden = false;
    confirmRow.hidden = false;
    again.focus();
  }
  async function finish(yes) {
    question.hidden = true;
    confirmRow.hidden = true;
    const typed = again.value;
    again.value = "";
    if (!yes || !pending) { pending = null; return; }
    const answer = await post("/api/supervisor/confirm", { confirm: pending, pin: typed });
    pending = null;
    if (answer.ok) { showMessage(answer.message, "done"); reason.value = ""; card.value = ""; }
  }
  again.addEventListener("keydown", (event) => { if (event.key === "Enter") finish(true); });
  confirmRow.append(
    el("label", { for: again.id, text: "PIN again" }), again,
    el("button", { class: "big warn confirm", text: "Yes, do it", onclick: () => finish(true) }),
    el("button", { class: "big", text: "Cancel", onclick: () => finish(false) }));
  // three rows (who, PIN and why; the actions; a placed card), so the hold screen fits the table's 1024x600 screen
  container.append(
    el("div", { class: "entry-row" }, el("label", { for: name.id, text: "Supervisor" }), name,
      el("label", { for: pin.id, text: "PIN" }), pin,
      el("label", { for: reason.id, text: "Reason" }), reason),
    el("div", { class: "entry-row" },
      el("button", { class: "big", "data-supervisor": "resume", text: "Resume round", onclick: () => start("resume") }),
      el("button", { class: "big warn", "data-supervisor": "void", text: "Void round", onclick: () => start("void") }),
      el("span", { class: "entry-row round-only" }, el("label", { for: card.id, text: "Card really dealt" }), card,
        el("button", { class: "big", "data-supervisor": "correct_card", text: "Correct card",
                       onclick: () => start("correct_card") }))),
    el("div", { class: "entry-row round-only" }, el("label", { for: which.id, text: "Placed card it replaces" }), which,
      el("button", { class: "big", "data-supervisor": "correct_placed", text: "Correct placed card",
                     onclick: () => start("correct_placed") })),
    question, confirmRow);
  supervisorPanels.push((view) => {
    const active = Boolean(view.round) && !["complete", "void"].includes(view.round.state);
    // the resume says what it does (the round in play, or the table's hold: the engine's word); none offered for a
    // round that may only be voided (nor a card entered, which resumes it)
    const resume = container.querySelector('[data-supervisor="resume"]');
    resume.textContent = view.screens.resume || "";
    resume.hidden = !view.screens.resume;
    // a fault between rounds: resume the table only; no round to void, no card to correct
    for (const node of container.querySelectorAll('[data-supervisor="void"], .round-only')) node.hidden = !active;
    container.querySelector('[data-supervisor="correct_card"]').parentElement.hidden = !active || !view.screens.resume;
    const cards = active ? view.round.cards : [];
    const keep = which.value;
    which.replaceChildren(el("option", { value: "", text: cards.length ? "pick a card" : "no card placed" }),
      ...cards.map((c, i) => el("option", { value: String(i), text: (i + 1) + ". " + (c.place || c.target) + ": " + (c.face_down ? "face down" : c.card) })));
    which.value = cards[Number(keep)] && keep !== "" ? keep : "";
  });
}
