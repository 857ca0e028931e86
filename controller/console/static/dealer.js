// The dealer console: renders the table loop's view and turns taps into commands.
"use strict";

let view = null;
let selected = null; // { spot, wager } picked for entry
let lastViewMessage = null; // the table's last answer as the view before this one said it
let draft = null; // what the dealer has picked so far for the pending decision: numbers, cards of the named hand
// The round whose settlement the dealer is paying under the game-stopped screen (no player-dealer): the game stops
// the moment the second bank settles, and the screen covered the lines still to pay and collect.
let payingUnderStop = null;

// The spot a card or hand shows on, as the engine says (a pai gow pile once the dice gave it to a seat).
function spotOf(card) { return card.spot === undefined ? null : card.spot; }

function title(name) { const text = label(name); return text.charAt(0).toUpperCase() + text.slice(1); }

// Long wager names as dealers shorten them, where room is short (the spots once dealt, the settlement's columns); the
// full name is the title. While betting the spots show the full name (its amount under it where both do not fit).
const SHORT = { straight_flush_bonus: "SF bonus", tens_or_better: "10s or better", ace_or_face: "ace/face",
                five_card: "5-card", progressive: "prog." };

function shortLabel(name) { return SHORT[name] || label(name); }

// An action as the dealer says it: "no insurance", "even money" (the engine's action names are "no-insurance", ...).
function actionLabel(action) { return label(action).replace(/-/g, " "); }

function label(name) { return name.replace(/^seat(\d+)/, "spot $1").replace(/^stack(\d+)$/, "stack $1").replace(/_/g, " "); }

const STATUS = {
  betting: "Betting is open: tap a wager on a spot, enter the amount, Place. Then No more bets.",
  no_more_bets: "No more bets.",
  dealing: "Dealing.",
  decisions: "Waiting for a player's decision.",
  reveal: "Revealing.",
  settling: "Settling.",
  complete: "Pay and collect spot by spot in the order listed, then open the next round.",
  hold: "On hold.",
  void: "Round void: return every wager.",
};

function render(next) {
  const focused = focusKey(document.activeElement);
  view = next;
  renderHeader(view);
  refreshSupervisor(view);
  const round = view.round;
  const screens = view.screens; // which screens show is the engine's to say (controller/engine/view.py)
  const state = screens.state;
  const dealerMode = view.mode === "dealer";
  document.getElementById("mode").textContent = dealerMode ? "" : "simulated players (watching)";
  renderLimits(view);
  // the table's last answer, shown when it changes: shown again with every view, it covered the answers that came
  // after it on this page (a PIN mistyped at the confirmation read as the refusal before it)
  if (view.message && view.message !== lastViewMessage) showMessage(view.message);
  lastViewMessage = view.message;

  const held = Boolean(screens.hold);
  document.getElementById("hold-screen").hidden = !held;
  if (held) {
    document.getElementById("hold-title").textContent = screens.hold_title;
    document.getElementById("hold-reason").textContent = "Held: " + screens.hold;
    // the devices as they report now, polled while the table waits: a supervisor resumes once they are ready
    document.getElementById("hold-now").textContent = Object.entries(view.devices).map(([name, status]) =>
      name + " now: " + (status === "ok" ? "ready" : status)).join(" \u00b7 ");
    document.getElementById("hold-help").textContent = screens.hold_help;
  }
  // stopped as a round settles: the stop screen offers its settlement, shown uncovered until the dealer has paid it
  const settled = dealerMode && screens.stopped && round && round.state === "complete" ? round.id : null;
  const toPay = settled !== null && payingUnderStop === settled;
  const stopped = screens.stopped && !toPay;
  document.getElementById("stop-screen").hidden = !stopped;
  if (stopped) renderStop(dealerMode, settled);
  const paid = document.getElementById("next-player-dealer");
  paid.hidden = !toPay;
  paid.onclick = toPay ? () => { payingUnderStop = null; render(view); } : null;
  document.getElementById("void-screen").hidden = !screens.void;
  if (screens.void) renderVoid(round, screens);
  // side by side when more than one applies (a round voided while its device is down): none covers another
  const covered = held || stopped || screens.void;
  document.getElementById("screens").hidden = !covered;
  document.getElementById("main").classList.toggle("dimmed", covered);

  document.getElementById("open-round").hidden = !(dealerMode && screens.open_round && !screens.void);
  document.getElementById("no-more-bets").hidden = !(dealerMode && state === "betting");
  let status = STATUS[state] || "Open betting to start a round.";
  if (round && round.card_due && !held) status = "Dealing: the next card goes to " + label(round.card_due) + ".";
  if (view.stopped) status = "The game has stopped: " + view.stopped;
  if (toPay) status = "Pay and collect spot by spot in the order listed; nobody has taken the player-dealer position yet.";
  document.getElementById("status-line").textContent = status;

  const betting = state === "betting" && dealerMode;
  if (!betting) selected = null;
  document.getElementById("entry").hidden = !betting;
  renderEntry(round);
  renderDecision(round, dealerMode);
  // a decision awaited says whose it is in its own box ("Spot 3 to act"), and the top bar "Players deciding": the line
  // "Waiting for a player's decision." above it said it a third time, in the room a seat split to four hands needs
  document.getElementById("status-line").hidden = !document.getElementById("decision").hidden;
  renderPieceEntry(round);
  renderCards(round);
  renderLayout(round);
  renderSettlement(round);
  // a screen that covered the table closed (a hold resumed): the keyboard goes on at the table, not at the page's top
  if (coveredBefore && !covered) focusTable();
  coveredBefore = covered;
  keepFocus(focused);
}

// What the focused control is, so that the same control drawn anew is found again: its id, else its data-* fields.
function focusKey(node) {
  if (!node || node === document.body || !node.closest || !node.closest("#main, #screens")) return null;
  if (node.id) return "#" + CSS.escape(node.id);
  const data = [...node.attributes].filter((a) => a.name.startsWith("data-"))
    .map((a) => "[" + a.name + '="' + CSS.escape(a.value) + '"]');
  return data.length ? node.tagName.toLowerCase() + data.join("") : null;
}

// Every command redraws the controls it touched: the focus fell to the page's body with the button it was on, and
// the next Tab started again from the login bar. It goes back to that control drawn anew, or, where that is gone or
// hidden (No more bets once pressed), to the first control at the table the dealer can use now.
function keepFocus(key) {
  const active = document.activeElement;
  const lost = !active || active === document.body || !active.isConnected || active.offsetParent === null || active.disabled;
  if (!key || !lost) return;
  const usable = (b) => b && !b.disabled && b.offsetParent !== null;
  const again = document.querySelector(key);
  if (usable(again)) { again.focus(); return; }
  const table = covered() ? "#screens" : "#main";
  const next = [...document.querySelectorAll(table + " button, " + table + " input")].find(usable);
  if (next) next.focus();
}

function covered() {
  return !document.getElementById("screens").hidden;
}

let coveredBefore = false;

// The first button at the table the dealer can use now, focused when the focus was on a screen that just closed
// (or nowhere): after a resume, keyboard-only dealing went on from the top of the page.
function focusTable() {
  const active = document.activeElement;
  if (active && active !== document.body && !active.closest("#screens")) return;
  const next = [...document.querySelectorAll("#main button")].find((b) => !b.disabled && b.offsetParent !== null);
  if (next) next.focus();
}

// A player-dealer game stopped for want of a player-dealer: why, and the seats that may take the position.
function renderStop(dealerMode, settled) {
  document.getElementById("stop-reason").textContent = view.stopped;
  document.getElementById("stop-help").hidden = !dealerMode;
  const pay = document.getElementById("stop-pay");
  pay.hidden = settled === null;
  pay.onclick = settled === null ? null : () => { payingUnderStop = settled; render(view); };
  document.getElementById("stop-seats").replaceChildren(...(dealerMode ? view.position_offer : []).map((seat) =>
    el("button", { class: "big primary", "data-take-position": seat, text: "Spot " + seat + " takes it",
                   onclick: () => command({ command: "take_position", spot: seat }) })),
    ...(dealerMode ? [] : [el("p", { class: "help", text: "Waiting for a simulated player to take the position." })]));
}

function renderVoid(round, screens) {
  document.getElementById("void-reason").textContent = round.void_reason || "";
  document.getElementById("void-help").textContent = screens.void_help;
  const list = document.getElementById("void-returns");
  list.replaceChildren(...round.settlements.map((s) =>
    el("li", { text: "Spot " + s.spot + " " + label(s.wager) + ": return " + s.returned })));
  const next = document.getElementById("void-next");
  next.hidden = view.mode !== "dealer";
  next.disabled = !screens.open_round;  // held beside the void: the next round waits for the hold to be cleared
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
  if (!pending) { draft = null; return; }
  const key = [round.id, pending.spot, pending.hand, pending.actions.join()].join("/");
  if (!draft || draft.key !== key) draft = { key, values: [], named: [] };
  document.getElementById("decision-label").textContent = pending.title;  // the engine's: "Spot 3 hand 2 to act"
  const decide = (action, extra) => command({ command: "decide", spot: pending.spot, action, hand: pending.hand, ...extra });
  // A hand to set that is one choice among others (Top 5 Poker's Community Card beside fold and play) opens on its tap
  // and alone: the list of the game's cards under the other actions ran past the bottom of the 1024x600 screen.
  const opens = (action) => pending.setting && action === pending.setting.action && action !== pending.actions[0];
  if (draft.open && pending.setting) {
    const back = el("button", { class: "big", "data-back": "", text: "Back", disabled: !dealerMode,
                                onclick: () => { draft.open = false; draft.named = []; render(view); } });
    document.getElementById("decision-actions").replaceChildren(handSetter(pending.setting, decide, dealerMode, back));
    return;
  }
  const parts = pending.actions.map((action) => {
    const amounts = pending.amounts.filter((a) => a.action === action);
    if (amounts.length) return amountPicker(action, amounts, decide, dealerMode);
    if (pending.values.length && pending.actions.length === 1) return valuePicker(action, pending.values, decide, dealerMode);
    if (opens(action)) return el("button", { class: "big action", "data-action": action, "data-opens": "setter",
      text: actionLabel(action), disabled: !dealerMode, onclick: () => { draft.open = true; render(view); } });
    if (pending.setting && action === pending.setting.action) return handSetter(pending.setting, decide, dealerMode);
    return el("button", { class: "big action", "data-action": action, text: actionLabel(action), disabled: !dealerMode,
                          onclick: () => decide(action, {}) });
  });
  document.getElementById("decision-actions").replaceChildren(...parts);
}

// A raise (or any action carrying an amount): one button per amount the game offers, and any other amount typed in.
function amountPicker(action, amounts, decide, dealerMode) {
  const other = el("input", { id: "decision-amount", inputmode: "decimal", autocomplete: "off", placeholder: "other $",
                              "aria-label": actionLabel(action) + " amount in dollars", size: 6 });
  const send = () => {  // sent empty, the game took its smallest amount: a raise of 2x or 3x called for went in at 1x
    if (!other.value.trim()) { showMessage("enter the " + actionLabel(action) + " amount first, or tap one of the amounts"); return; }
    decide(action, { amount: other.value });
  };
  other.addEventListener("keydown", (event) => { if (event.key === "Enter") send(); });
  return el("div", { class: "picker amounts", "data-picker": action },
    amounts.map((a) => el("button", { class: "big action", "data-action": action, "data-amount": a.entry,
                                      text: actionLabel(action) + " " + a.text, disabled: !dealerMode,
                                      onclick: () => decide(action, { amount: a.entry }) })),
    el("span", { class: "entry-row" }, other,
      el("button", { class: "big", "data-action": action, "data-amount": "other", text: actionLabel(action) + " other amount",
                     disabled: !dealerMode, onclick: send })));
}

// Numbers the action carries (three dice, a pile): one row of buttons per number, then the action.
function valuePicker(action, ranges, decide, dealerMode) {
  const rows = ranges.map(([low, high], i) => el("div", { class: "entry-row", role: "group", "aria-label": label(action) + " " + (i + 1) },
    el("span", { class: "muted", text: ranges.length > 1 ? String(i + 1) : "" }),
    Array.from({ length: high - low + 1 }, (_, k) => low + k).map((n) => el("button", {
      class: "pick" + (draft.values[i] === n ? " selected" : ""), "data-value-index": i, "data-value": n,
      "aria-pressed": draft.values[i] === n ? "true" : "false", text: String(n), disabled: !dealerMode,
      onclick: () => { draft.values[i] = n; render(view); } }))));
  const ready = ranges.every((_, i) => draft.values[i] !== undefined);
  return el("div", { class: "picker", "data-picker": action }, rows,
    el("button", { class: "big action", "data-action": action, text: "Enter " + label(action), disabled: !dealerMode || !ready,
                   onclick: () => decide(action, { values: draft.values.slice(0, ranges.length) }) }));
}

// The hand-setting screen's button, as the dealer says it (Top 5 Poker's "community": seed 001 rule 6).
const SETTER_BUTTON = { set: "Set hand", community: "Use the Community Card" };

// Cards split in two (a pai gow hand set, discards drawn, Top 5 Poker's discard for the Community Card). The hand lies face down, so the page never has its
// cards: the dealer taps, among every card of the game, those the player names (the front hand, the discards);
// the game checks them against the hand and refuses a card not in it, or a foul setting, with its reason.
function handSetter(setting, decide, dealerMode, back = null) {
  const named = draft.named;
  const toggle = (code) => {
    draft.named = named.includes(code) ? named.filter((c) => c !== code) : [...named, code];
    render(view);
  };
  const chosen = el("div", { class: "cardrow", "data-hand": setting.named }, named.length
    ? named.map((code) => { const face = cardFace(code);
        return el("button", { class: "card pickable " + face.colour, "data-card": code, disabled: !dealerMode,
                              title: "take back", onclick: () => toggle(code) }, el("span", { class: "face", text: face.text })); })
    : el("span", { class: "muted", text: "none yet" }));
  const grid = el("div", { class: "choice-grid", role: "group", "aria-label": "cards to name" }, setting.choices.map((code) => {
    const face = cardFace(code);
    return el("button", { class: "pick choice " + face.colour + (named.includes(code) ? " selected" : ""), "data-choice": code,
                          "aria-pressed": named.includes(code) ? "true" : "false", text: face.text, disabled: !dealerMode,
                          onclick: () => toggle(code) });
  }));
  const rest = setting.size - named.length;
  return el("div", { class: "picker setter", "data-picker": "set" },
    el("h3", { text: title(setting.named) + " (" + named.length + " of " + setting.count + "); the other " + rest +
                     " make the " + label(setting.rest) }),
    setting.count > 1 ? chosen : null, grid,  // one card to name: the grid's highlight is the whole choice
    el("div", { class: "entry-row" },
      el("button", { class: "big action primary", "data-action": setting.action,
                     text: SETTER_BUTTON[setting.action] || title(setting.action), disabled: !dealerMode,
                     onclick: () => decide(setting.action, { cards: named }) }), back));
}

// Pieces the dealer keys in (Pai Gow Tiles): every tile of the set (no count of copies left: that would tell which
// tiles lie face down); a typed code works too, and the console never shows what was keyed.
function renderPieceEntry(round) {
  const box = document.getElementById("piece-entry");
  const entry = round && round.entry && view.mode === "dealer" ? round.entry : null;
  box.hidden = !entry;
  if (!entry) return;
  document.getElementById("piece-entry-label").textContent = "Key the tile dealt to " + label(round.card_due);
  document.getElementById("piece-grid").replaceChildren(...entry.map((p) => el("button", {
    class: "piece", "data-piece": p.code, title: p.name,
    onclick: () => command({ command: "enter_piece", code: p.code }) },
    el("span", { class: "face", text: p.code }), el("span", { class: "name", text: p.name }))));
}

// Table limits and any progressive meter, in dollars, always in the top bar.
function renderLimits(view) {
  document.getElementById("limits").textContent = view.limits.map((l) => label(l.wager) + " " + l.text).join(" \u00b7 ");
  const meter = document.getElementById("progressive");
  meter.hidden = !view.progressive;
  meter.textContent = view.progressive ? "Progressive " + view.progressive : "";
}

// A reveal's keys as the dealer says them; a seat's number as the spot it is ("player-dealer: spot 1", not "player
// dealer: 1"), cards as they read ("up card: 6\u2663", not "6C").
const REVEAL_WORDS = { player_dealer: "player-dealer", player_dealer_seat: "player-dealer", action_seat: "action from",
                       dealer_value: "dealer's hand", dealer_hand: "dealer's hand" };
const SEATS = ["player_dealer", "player_dealer_seat", "action_seat"];

function handLabel(round, target) {
  const hand = (round.hands || []).find((h) => h.target === target);
  return hand && hand.label ? cardWords(hand.label) : "";
}

// The dealer's cards, the board, the piles not given out yet: everything not on a spot.
function renderCards(round) {
  const burn = (c) => c.target === "burn" || c.target.startsWith("burn:");
  const cards = round ? round.cards.filter((c) => spotOf(c) === null && !burn(c)) : [];
  const groups = new Map();
  for (const card of cards) {
    if (!groups.has(card.target)) groups.set(card.target, []);
    groups.get(card.target).push(card);
  }
  const nodes = [...groups].map(([target, list]) =>
    el("div", { class: "target", "data-target": target },
      el("h3", { text: label(target) }),
      el("div", { class: "cardrow" }, list.map(cardNode)),
      el("div", { class: "hand-label", text: handLabel(round, target) })));
  const burns = round ? round.cards.filter(burn).length : 0;
  if (burns) nodes.push(el("div", { class: "target burns" }, el("h3", { text: "burn" }), el("span", { class: "muted", text: burns + " face down" })));
  if (round && round.card_due && spotOf({ spot: round.card_due_spot }) === null && round.state !== "hold")
    nodes.push(el("div", { class: "target due" }, el("h3", { text: label(round.card_due) }), el("div", { class: "card empty", text: "next" })));
  document.getElementById("table-cards").replaceChildren(...nodes);
  const shown = (k, v) => (v === true ? "yes" : v === false ? "no" : SEATS.includes(k) ? "spot " + v : cardWords(v));
  const reveal = round && round.reveal ? Object.entries(round.reveal)
    .filter(([, v]) => v !== null && typeof v !== "object")
    .map(([k, v]) => (REVEAL_WORDS[k] || label(k)) + ": " + shown(k, v)).join(" \u00b7 ") : "";
  document.getElementById("reveal").textContent = reveal;
  document.getElementById("reveal").hidden = !reveal;
  document.getElementById("table-cards-box").hidden = !nodes.length;
}

// The spots in the table's arc as the dealer sees it: first base (spot 1) at the dealer's left, the middle
// spots farthest away. Each shows its wagers, its hand with the total or rank read from the face-up cards,
// and once settled WIN, LOSE or PUSH with the amount.
function renderLayout(round) {
  const layout = document.getElementById("layout");
  const spots = round ? round.layout : Array.from({ length: view.spots }, (_, i) => ({ spot: i + 1, wagers: [], role: null, seated: false }));
  const betting = round && round.state === "betting" && view.mode === "dealer";
  const pendingSpot = round && round.state === "decisions" && round.pending ? round.pending.spot : null;
  const count = spots.length;
  layout.style.setProperty("--spots", String(count));
  layout.dataset.game = view.game.id;  // a game's hands read in more lines where they need them (console.css)
  layout.replaceChildren(...spots.map((spot, i) => {
    const cards = round ? round.cards.filter((c) => spotOf(c) === spot.spot) : [];
    // the spot's hands in the order the engine lists them (a split blackjack hand's cards where they lie now)
    const listed = (round ? round.hands || [] : []).map((h) => h.target);
    const targets = [...new Set(cards.map((c) => c.target))].sort((a, b) => listed.indexOf(a) - listed.indexOf(b));
    const decided = round ? round.decisions.filter((d) => d.spot === spot.spot).map((d) => actionLabel(d.action)).slice(-1) : [];
    const result = round && round.results ? round.results[String(spot.spot)] : null;
    const classes = ["spot"];
    if (pendingSpot === spot.spot) classes.push("acting");
    if (spot.role) classes.push("banker");
    if (result) classes.push("result-" + result.result);
    // the arc: the ends of the row sit nearer the dealer (lower on the screen) than the middle
    const lift = Math.sin(Math.PI * (i + 0.5) / count);
    const node = el("section", { class: classes.join(" "), "data-spot": spot.spot, "aria-label": "spot " + spot.spot },
      el("h3", {}, el("span", { class: "spot-number", text: String(spot.spot) }),
        spot.role ? el("span", { class: "badge", text: spot.role }) : null,
        spot.seated ? el("span", { class: "badge", text: "dealt in" }) : null,
        // a collection fee is taken before the cards are dealt (seed 003, California games): shown on its spot from
        // "no more bets" on, not only in the settlement at the end (a drop from the pot is spot 0's: the settlement's)
        (round ? round.fees : []).filter((f) => f.spot === spot.spot).map((f) =>
          el("span", { class: "badge fee", title: f.reason, text: "fee " + f.text })),
        decided.map((action) => el("span", { class: "badge decided", text: action }))),
      betting && !view.game.wagers.length && !spot.seated
        ? el("button", { class: "wager", "data-sit": spot.spot, text: "Deal in",
                         onclick: () => command({ command: "sit", spot: spot.spot }) }) : null,
      el("div", { class: "wagers" }, spot.wagers.map((w) => {
        const isSelected = selected && selected.spot === spot.spot && selected.wager === w.name;
        return el("button", {
          class: "wager" + (isSelected ? " selected" : "") + (w.amount ? " staked" : ""),
          "data-spot": spot.spot, "data-wager": w.name, disabled: !(betting && w.open),
          "aria-pressed": isSelected ? "true" : "false",
          onclick: () => select(spot.spot, w),
        }, el("span", { class: "name", text: betting ? label(w.name) : shortLabel(w.name), title: label(w.name) }),
        el("span", { class: "amount", text: w.text || "\u2014" }));
      })),
      // three hands or more (a seat split again) side by side, as many to a row as fit: one under another, a seat
      // split to four hands made the arc so tall that the next spot's double and surrender fell off a 1024x600 screen
      el("div", { class: "hands" + (targets.length > 2 ? " many" : "") }, targets.map((target) =>
        el("div", { class: "hand", "data-target": target },
          el("div", { class: "cardrow mini" }, cards.filter((c) => c.target === target).map(cardNode)),
          el("div", { class: "hand-label", text: handLabel(round, target), title: handLabel(round, target) })))),
      result ? el("div", { class: "spot-result", "data-result": result.result, text: result.text }) : null);
    node.style.setProperty("--drop", (1 - lift).toFixed(3));  // through the CSSOM: the page's CSP allows no inline style
    return node;
  }));
}

// The settlement as the dealer pays it: a row per spot in the order to pay and collect, a column per wager, each
// line numbered in that order with what to do ("pay $15.00", "collect $5.00"). One row a line needed 22 rows for a
// full No Bust 21 table and scrolled inside the panel at 1024x600; by spot it is at most one row a spot. A spot whose
// lines are not all together in the order (or a wager settled twice on it) takes a row more, so the order stands.
function renderSettlement(round) {
  const box = document.getElementById("settlement");
  const show = Boolean(round && round.settlements.length && round.state === "complete");
  box.hidden = !show;
  document.getElementById("dealer-area").classList.toggle("settled", show);
  if (!show) return;
  document.getElementById("result").textContent = cardWords(round.result || "");
  document.getElementById("fees").textContent = round.fees.map((f) => "Fee spot " + f.spot + ": " + f.text).join(" \u00b7 ");
  const wagers = [...new Set(round.settlements.map((s) => s.wager))];
  const groups = [];
  // a row per spot, in the order its first line comes (a spot's lines out of turn, as Top 5 Poker settles its Ace/Face
  // bets before the rest, join its row: their numbers keep the order); a second line of one wager starts another row
  round.settlements.forEach((s, i) => {
    const row = groups.find((g) => g.spot === s.spot && !g.lines.has(s.wager));
    if (row) row.lines.set(s.wager, [s, i + 1]);
    else groups.push({ spot: s.spot, lines: new Map([[s.wager, [s, i + 1]]]) });
  });
  const head = () => el("thead", {}, el("tr", {},
    el("th", { scope: "col", text: "Spot" }), wagers.map((w) => el("th", { scope: "col", text: shortLabel(w), title: label(w) }))));
  const rows = groups.map((group) =>
    el("tr", { "data-spot": group.spot },
      el("th", { scope: "row", class: "spot-cell" }, el("span", { class: "spot-number", text: String(group.spot) })),
      wagers.map((w) => {
        const line = group.lines.get(w);
        if (!line) return el("td", {});
        const [s, n] = line;
        return el("td", {}, el("span", {
          class: "line outcome-" + s.outcome, "data-spot": s.spot, "data-wager": s.wager, "data-line": n,
          title: s.reason, "aria-label": n + ". spot " + s.spot + " " + label(s.wager) + " " + s.stake + " " + s.outcome + ": " + s.instruction },
        el("span", { class: "n", "data-cell": "number", text: String(n) }),
        // it breaks only after a colon or a comma ("push: | return the wager"), never inside "collect $500.00"; the
        // player-dealer is "P/D" here, as the header names it (the whole instruction is the line's label)
        el("span", { class: "instruction", "data-cell": "instruction" }, shortInstruction(s.instruction).split(/(?<=[:,]) /)
          .flatMap((part, k) => [k ? " " : null, el("span", { class: "unbroken", text: part })]))));
      })));
  settlementRows = rows;
  settlementHead = head;
  document.getElementById("totals").textContent = round.totals_text || "";
  fitSettlement();
  requestAnimationFrame(fitSettlement);  // again once the rest of the page is laid out around it
}

// A settlement instruction as the grid shows it: "player-dealer: takes $500.00" reads "P/D takes $500.00", as the
// settlement's header names the player-dealer; a full table's 20 lines of it did not fit the screen otherwise.
function shortInstruction(text) {
  return text.replace(/^player-dealer: /, "P/D ");
}

// The settlement fitted to the room it has: as it is; in smaller type; then its rows (whole spots, in order) in two
// or three tables side by side, read down the first, then the next.
let settlementRows = [];
let settlementHead = null;
function fitSettlement() {
  const box = document.getElementById("settlement");
  if (box.hidden || !settlementHead) return;
  const tables = document.getElementById("settlement-rows");
  const main = document.getElementById("main");
  // past its own box, or past the table screen (the dealer's area grown taller than the room left under the spots)
  const over = () => Math.max(0, box.scrollHeight - box.clientHeight - 1) + Math.max(0, box.scrollWidth - box.clientWidth - 1) +
    Math.max(0, box.getBoundingClientRect().bottom - Math.min(main.getBoundingClientRect().bottom, innerHeight) - 1);
  const lay = ([tight, parts]) => {
    box.classList.toggle("tight", tight);
    const size = Math.ceil(settlementRows.length / parts);
    tables.replaceChildren(...Array.from({ length: parts }, (_, i) => settlementRows.slice(i * size, (i + 1) * size))
      .filter((part) => part.length).map((part) => el("table", { "aria-label": "settlement by spot, in the order to pay and collect" },
        settlementHead(), el("tbody", {}, part))));
    return over();
  };
  let best = null;
  for (const way of [[false, 1], [true, 1], [false, 2], [true, 2], [true, 3]]) {
    const left = lay(way);
    if (!left) return;
    if (best === null || left < best[0]) best = [left, way];
  }
  lay(best[1]);  // none fits: the one that overflows least
}
window.addEventListener("resize", fitSettlement);

function select(spot, wager) {
  selected = { spot, wager: wager.name };
  render(view);
  const amount = document.getElementById("amount");
  amount.value = wager.entry;  // the wager as it stands, selected, so typing replaces it
  amount.focus();
  amount.select();
}

// A wager placed (or taken back) is no longer selected: the next amount goes where the next tap aims it. Kept
// selected, a tap that did not register (the layout redrawn under the finger as a view arrived) sent the next
// amount to the wager before, changing it without a word.
async function place(amount) {
  if (!selected) return;
  if (!String(amount).trim()) {  // sent, an empty amount was $0.00: the wager taken back without a word
    showMessage("enter an amount for " + label(selected.wager) + " on spot " + selected.spot + " (Take back removes the wager)");
    return;
  }
  const aimed = selected;
  const answer = await command({ command: "place_wager", spot: aimed.spot, wager: aimed.wager, amount });
  if (!answer.ok) return;
  // the field is the next wager's once another is tapped: on a slow network the answer came while the dealer typed
  // that amount, and cleared it
  if (selected === aimed) {
    document.getElementById("amount").value = "";
    selected = null;
    showSelection();
  }
}

// The selection shown without drawing the page again: no button is replaced under a finger pressing the next wager,
// and no message of the view drawn last (a refusal this placement answered) comes back.
function showSelection() {
  renderEntry(view.round);
  for (const button of document.querySelectorAll("#layout button.wager[data-wager]")) {
    const on = Boolean(selected && Number(button.dataset.spot) === selected.spot && button.dataset.wager === selected.wager);
    button.classList.toggle("selected", on);
    button.setAttribute("aria-pressed", on ? "true" : "false");
  }
}

// The amount typed, in whole cents, read as the console reads an amount ("12.50", "$5"); null when it is not one.
function typedCents(text) {
  const match = /^\s*\$?\s*(\d*)(?:\.(\d{0,2}))?\s*$/.exec(text);
  if (!match) return null;
  return Number(match[1] || "0") * 100 + Number((match[2] || "").padEnd(2, "0"));
}

// A chip adds its dollars to the amount typed, counted in cents: added as a float, $1.06 and +5 read
// "6.0600000000000005" (refused as no amount of money), and "$10" and +5 read "5".
function addChip(amount, dollars) {
  const cents = typedCents(amount.value);
  if (cents === null) {
    showMessage("not an amount of money: '" + amount.value + "' (expected e.g. 12.50 or $5): clear it, then add chips");
    return;
  }
  const total = cents + dollars * 100;
  amount.value = String(Math.floor(total / 100)) + (total % 100 ? "." + String(total % 100).padStart(2, "0") : "");
}

document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("[data-command]"))
    button.addEventListener("click", () => command({ command: button.dataset.command }));
  const amount = document.getElementById("amount");
  for (const chip of document.querySelectorAll("[data-chip]"))
    chip.addEventListener("click", () => addChip(amount, Number(chip.dataset.chip)));
  document.getElementById("amount-clear").addEventListener("click", () => { amount.value = ""; });
  document.getElementById("place").addEventListener("click", () => place(amount.value));
  document.getElementById("take-back").addEventListener("click", () => place("0"));
  amount.addEventListener("keydown", (event) => { if (event.key === "Enter") place(amount.value); });
  const piece = document.getElementById("piece-code");
  const keyPiece = () => command({ command: "enter_piece", code: piece.value }).then((a) => { if (a.ok) piece.value = ""; });
  piece.addEventListener("keydown", (event) => { if (event.key === "Enter") keyPiece(); });
  document.getElementById("piece-enter").addEventListener("click", keyPiece);
  supervisorPanel(document.getElementById("hold-supervisor"));
  startPage(render);
});
