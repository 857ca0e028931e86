// The dealer console: renders the table loop's view and turns taps into commands.
"use strict";

let view = null;
let selected = null; // { spot, wager } picked for entry
const FINISHED = ["complete", "void"];

function spotOf(target) {
  const match = /^(?:seat|spot)(\d+)/.exec(target);
  return match ? Number(match[1]) : null;
}

function label(name) { return name.replace(/^seat(\d+)/, "spot $1").replace(/_/g, " "); }

const STATUS = {
  betting: "Betting is open: tap a wager on a spot, enter the amount, Place. Then No more bets.",
  no_more_bets: "No more bets.",
  dealing: "Dealing.",
  decisions: "Waiting for a player's decision.",
  reveal: "Revealing.",
  settling: "Settling.",
  complete: "Pay and collect as listed below, spot by spot, in this order. Then open the next round.",
  hold: "On hold.",
  void: "Round void: return every wager.",
};

function render(next) {
  view = next;
  renderHeader(view);
  const round = view.round;
  const state = view.table_fault ? "hold" : round ? round.state : "idle";
  const dealerMode = view.mode === "dealer";
  document.getElementById("mode").textContent = dealerMode ? "dealer enters wagers" : "simulated players (watching)";
  if (view.message) showMessage(view.message);

  const held = state === "hold";
  document.getElementById("hold-screen").hidden = !held;
  if (held) {
    document.getElementById("hold-reason").textContent = view.table_fault || round.hold_reason || "";
    document.getElementById("hold-help").textContent = view.hold_help;
  }
  const voided = state === "void";
  document.getElementById("void-screen").hidden = !voided;
  if (voided) renderVoid(round);
  document.getElementById("main").classList.toggle("dimmed", held);

  const finished = !round || FINISHED.includes(round.state);
  document.getElementById("open-round").hidden = !(dealerMode && finished && !view.stopped && !voided && !view.table_fault);
  document.getElementById("no-more-bets").hidden = !(dealerMode && state === "betting");
  let status = STATUS[state] || "Open betting to start a round.";
  if (round && round.card_due && !held) status = "Dealing: the next card goes to " + label(round.card_due) + ".";
  if (view.stopped) status = "The game has stopped: " + view.stopped;
  document.getElementById("status-line").textContent = status;

  const betting = state === "betting" && dealerMode;
  if (!betting) selected = null;
  document.getElementById("entry").hidden = !betting;
  renderEntry(round);
  renderDecision(round, dealerMode);
  renderCards(round);
  renderLayout(round);
  renderSettlement(round);
}

function renderVoid(round) {
  document.getElementById("void-reason").textContent = round.void_reason || "";
  document.getElementById("void-help").textContent = view.void_help;
  const list = document.getElementById("void-returns");
  list.replaceChildren(...round.settlements.map((s) =>
    el("li", { text: "Spot " + s.spot + " " + label(s.wager) + ": return " + s.returned })));
  document.getElementById("void-next").hidden = view.mode !== "dealer";
}

function renderEntry(round) {
  const text = selected ? "Spot " + selected.spot + " \u00b7 " + label(selected.wager) : "Tap a wager on a spot";
  document.getElementById("entry-label").textContent = text;
  let limits = "";
  if (selected && round) {
    const spot = round.layout.find((s) => s.spot === selected.spot);
    const wager = spot && spot.wagers.find((w) => w.name === selected.wager);
    if (wager && wager.limits) limits = "limits " + wager.limits;
  }
  document.getElementById("entry-limits").textContent = limits;
  document.getElementById("place").disabled = !selected;
  document.getElementById("take-back").disabled = !selected;
}

function renderDecision(round, dealerMode) {
  const box = document.getElementById("decision");
  const pending = round && round.state === "decisions" ? round.pending : null;
  box.hidden = !pending;
  if (!pending) return;
  const hand = pending.hand ? " (hand " + pending.hand + ")" : "";
  document.getElementById("decision-label").textContent = "Spot " + pending.spot + hand + " to act";
  const buttons = pending.actions.map((action) => el("button", {
    class: "big action", "data-action": action, text: label(action), disabled: !dealerMode,
    onclick: () => command({ command: "decide", spot: pending.spot, action, hand: pending.hand }),
  }));
  document.getElementById("decision-actions").replaceChildren(...buttons);
}

function renderCards(round) {
  const cards = round ? round.cards.filter((c) => spotOf(c.target) === null) : [];
  const groups = new Map();
  for (const card of cards) {
    if (!groups.has(card.target)) groups.set(card.target, []);
    groups.get(card.target).push(card);
  }
  const nodes = [...groups].map(([target, list]) =>
    el("div", { class: "target", "data-target": target }, el("h3", { text: label(target) }), list.map(cardNode)));
  if (round && round.card_due && spotOf(round.card_due) === null && round.state !== "hold")
    nodes.push(el("div", { class: "target due" }, el("h3", { text: label(round.card_due) }), el("div", { class: "card empty", text: "next" })));
  document.getElementById("table-cards").replaceChildren(...nodes);
  const shown = (v) => (v === true ? "yes" : v === false ? "no" : String(v));
  const reveal = round && round.reveal ? Object.entries(round.reveal)
    .filter(([, v]) => v !== null && typeof v !== "object").map(([k, v]) => label(k) + ": " + shown(v)).join(" \u00b7 ") : "";
  document.getElementById("reveal").textContent = reveal;
  document.getElementById("table-cards-box").hidden = !nodes.length && !reveal;
}

function renderLayout(round) {
  const layout = document.getElementById("layout");
  if (!round) { layout.replaceChildren(el("p", { class: "muted", text: "No round yet." })); return; }
  const betting = round.state === "betting" && view.mode === "dealer";
  const pendingSpot = round.state === "decisions" && round.pending ? round.pending.spot : null;
  layout.replaceChildren(...round.layout.map((spot) => {
    const cards = round.cards.filter((c) => spotOf(c.target) === spot.spot);
    const decided = round.decisions.filter((d) => d.spot === spot.spot).map((d) => label(d.action));
    const classes = ["spot"];
    if (pendingSpot === spot.spot) classes.push("acting");
    if (spot.role) classes.push("banker");
    return el("section", { class: classes.join(" "), "data-spot": spot.spot, "aria-label": "spot " + spot.spot },
      el("h3", { text: "Spot " + spot.spot }, spot.role ? el("span", { class: "badge", text: spot.role }) : null,
        decided.map((action) => el("span", { class: "badge decided", text: action }))),
      el("div", { class: "wagers" }, spot.wagers.map((w) => {
        const isSelected = selected && selected.spot === spot.spot && selected.wager === w.name;
        return el("button", {
          class: "wager" + (isSelected ? " selected" : "") + (w.amount ? " staked" : ""),
          "data-spot": spot.spot, "data-wager": w.name, disabled: !(betting && w.open),
          "aria-pressed": isSelected ? "true" : "false",
          onclick: () => select(spot.spot, w),
        }, el("span", { class: "name", text: label(w.name) }), el("span", { class: "amount", text: w.text || "\u2014" }));
      })),
      el("div", { class: "cardrow" }, cards.map(cardNode)));
  }));
}

function renderSettlement(round) {
  const box = document.getElementById("settlement");
  const show = round && round.settlements.length && round.state === "complete";
  box.hidden = !show;
  if (!show) return;
  document.getElementById("result").textContent = round.result || "";
  document.getElementById("fees").textContent = round.fees.map((f) => "Fee spot " + f.spot + ": " + f.text).join(" \u00b7 ");
  document.getElementById("settlement-rows").replaceChildren(...round.settlements.map((s, i) =>
    el("tr", { class: "outcome-" + s.outcome, "data-spot": s.spot, "data-wager": s.wager },
      el("td", { text: String(i + 1) }), el("td", { text: String(s.spot) }), el("td", { text: label(s.wager) }),
      el("td", { text: s.stake }), el("td", { text: s.outcome }), el("td", { class: "instruction", text: s.instruction }),
      el("td", { class: "muted", text: s.reason }))));
  document.getElementById("totals").textContent = round.totals_text || "";
}

function select(spot, wager) {
  selected = { spot, wager: wager.name };
  render(view);
  const amount = document.getElementById("amount");
  amount.value = wager.entry;  // the wager as it stands, selected, so typing replaces it
  amount.focus();
  amount.select();
}

async function place(amount) {
  if (!selected) return;
  const answer = await command({ command: "place_wager", spot: selected.spot, wager: selected.wager, amount });
  if (answer.ok) document.getElementById("amount").value = "";
}

document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("[data-command]"))
    button.addEventListener("click", () => command({ command: button.dataset.command }));
  const amount = document.getElementById("amount");
  for (const chip of document.querySelectorAll("[data-chip]"))
    chip.addEventListener("click", () => { amount.value = String((Number(amount.value) || 0) + Number(chip.dataset.chip)); });
  document.getElementById("amount-clear").addEventListener("click", () => { amount.value = ""; });
  document.getElementById("place").addEventListener("click", () => place(amount.value));
  document.getElementById("take-back").addEventListener("click", () => place("0"));
  amount.addEventListener("keydown", (event) => { if (event.key === "Enter") place(amount.value); });
  supervisorPanel(document.getElementById("hold-supervisor"));
  connect(render);
});
