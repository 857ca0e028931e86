// Shared by the dealer console and the pit view: the session, the live view, commands, cards, the supervisor panel.
"use strict";

const SESSION = document.querySelector('meta[name="console-session"]').content;
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

function cardNode(card) {
  const face = card.face_down ? { text: "face down", colour: "back" } : cardFace(card.card);
  const bad = card.disagreement ? " disagree" : "";
  return el("div", { class: "card " + face.colour + bad, "data-card": card.card, "data-target": card.target,
                     title: card.disagreement || "" },
    el("span", { class: "face", text: face.text }),
    el("span", { class: "source", text: card.source }),
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
      headers: { "Content-Type": "application/json", "X-Console-Session": SESSION },
      body: JSON.stringify(body),
    });
    const answer = await response.json();
    if (!answer.ok) showMessage(answer.reason, "refused");
    return answer;
  } catch (error) {
    showMessage("the console server cannot be reached: " + error, "refused");
    return { ok: false };
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

function connect(render) {
  const link = document.getElementById("link");
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const socket = new WebSocket(scheme + location.host + "/ws");
  socket.onopen = () => socket.send(JSON.stringify({ session: SESSION }));
  socket.onmessage = (message) => {
    link.textContent = "live";
    link.className = "link-up";
    render(JSON.parse(message.data));
  };
  socket.onclose = (event) => {
    link.textContent = "offline";
    link.className = "link-down";
    if (event.code === 4401) { showMessage("this page's session is no longer valid: reload the page"); return; }
    setTimeout(() => connect(render), 1000);
  };
}

function renderHeader(view) {
  document.getElementById("table-name").textContent = view.table + " \u00b7 " + view.game.title;
  const round = view.round;
  document.getElementById("round-id").textContent = round ? round.id : "no round yet";
  const state = document.getElementById("state");
  const name = view.table_fault ? "hold" : round ? round.state : "idle";
  state.textContent = name.replace(/_/g, " ");
  state.dataset.state = name;
}

// The supervisor panels on this page; each is told about every new view (the cards it can correct).
const supervisorPanels = [];

function refreshSupervisor(view) {
  for (const panel of supervisorPanels) panel(view);
}

// The supervisor panel: token, reason, optional card, then a second confirmation before anything happens.
function supervisorPanel(container) {
  const token = el("input", { id: container.id + "-token", type: "password", autocomplete: "off" });
  const reason = el("input", { id: container.id + "-reason", autocomplete: "off", placeholder: "why (goes in the log)" });
  const card = el("input", { id: container.id + "-card", autocomplete: "off", placeholder: "e.g. QH", size: 4 });
  const which = el("select", { id: container.id + "-which" });
  const question = el("p", { class: "question", role: "alert", hidden: true });
  const confirmRow = el("div", { class: "entry-row", hidden: true });
  let pending = null;
  async function start(action) {
    const body = { action, token: token.value, reason: reason.value, card: card.value };
    if (action === "correct_placed") body.index = which.value === "" ? null : Number(which.value);
    const answer = await post("/api/supervisor", body);
    if (!answer.ok) return;
    pending = answer.confirm;
    question.textContent = answer.question;
    question.hidden = false;
    confirmRow.hidden = false;
    confirmRow.querySelector(".confirm").focus();
  }
  async function finish(yes) {
    question.hidden = true;
    confirmRow.hidden = true;
    if (!yes || !pending) { pending = null; return; }
    const answer = await post("/api/supervisor/confirm", { confirm: pending, token: token.value });
    pending = null;
    if (answer.ok) { showMessage(answer.message, "done"); reason.value = ""; card.value = ""; }
  }
  confirmRow.append(
    el("button", { class: "big warn confirm", text: "Yes, do it", onclick: () => finish(true) }),
    el("button", { class: "big", text: "Cancel", onclick: () => finish(false) }));
  container.append(
    el("div", { class: "entry-row" }, el("label", { for: token.id, text: "Supervisor token" }), token),
    el("div", { class: "entry-row" }, el("label", { for: reason.id, text: "Reason" }), reason),
    el("div", { class: "entry-row" },
      el("button", { class: "big", "data-supervisor": "resume", text: "Resume round", onclick: () => start("resume") }),
      el("button", { class: "big warn", "data-supervisor": "void", text: "Void round", onclick: () => start("void") })),
    el("div", { class: "entry-row" }, el("label", { for: card.id, text: "Card really dealt" }), card,
      el("button", { class: "big", "data-supervisor": "correct_card", text: "Correct card",
                     onclick: () => start("correct_card") })),
    el("div", { class: "entry-row" }, el("label", { for: which.id, text: "Placed card it replaces" }), which,
      el("button", { class: "big", "data-supervisor": "correct_placed", text: "Correct placed card",
                     onclick: () => start("correct_placed") })),
    question, confirmRow);
  supervisorPanels.push((view) => {
    const cards = view.round && !["complete", "void"].includes(view.round.state) ? view.round.cards : [];
    const keep = which.value;
    which.replaceChildren(el("option", { value: "", text: cards.length ? "pick a card" : "no card placed" }),
      ...cards.map((c, i) => el("option", { value: String(i), text: (i + 1) + ". " + c.target + ": " + (c.face_down ? "face down" : c.card) })));
    which.value = cards[Number(keep)] && keep !== "" ? keep : "";
  });
}
