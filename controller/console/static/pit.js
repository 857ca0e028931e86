// The pit view: read-only meters, last rounds, devices and faults; supervisor actions confirmed twice.
"use strict";

function rows(table, header, data) {
  table.replaceChildren(el("tr", {}, header.map((h) => el("th", { text: h }))),
    ...data.map((row) => el("tr", {}, row.map((cell) => el("td", { text: String(cell) })))));
}

function render(view) {
  renderHeader(view);
  refreshSupervisor(view);
  const held = view.screens.hold;
  const status = held ? "On hold: " + held + " (" + Object.entries(view.devices).map(([d, s]) => d + " now " + s).join(", ") + ")"
    : view.stopped ? "Game stopped: " + view.stopped + ". Waiting for a player to take the player-dealer position."
    : "";
  document.getElementById("pit-status").textContent = status;
  document.getElementById("pit-status-box").hidden = !status;
  const m = view.meters;
  rows(document.getElementById("meters"), ["rounds", "void", "wagered", "paid", "fees", "house win", "between players"],
    [[m.rounds, m.voided, m.wagered, m.paid, m.fees, m.house_win, m.between_players]]);
  rows(document.getElementById("meters-by-wager"), ["wager", "count", "wagered", "paid", "house win"],
    Object.entries(m.by_wager).map(([name, w]) => [name, w.count, w.wagered, w.paid, w.house_win]));
  rows(document.getElementById("recent"), ["round", "state", "result", "wagered", "paid", "house win"],
    view.recent.map((r) => [r.id, r.state_text, r.describe || "", r.wagered || "", r.paid || "", r.house_win || ""]));
  document.getElementById("devices").replaceChildren(...Object.entries(view.devices).map(([name, status]) =>
    el("li", { class: status === "ok" ? "ok" : "fault", "data-device": name, text: name + ": " + status })));
  const faults = view.faults.slice().reverse();
  document.getElementById("faults").replaceChildren(...(faults.length ? faults.map((f) =>
    el("li", { class: "fault", text: f.at_text + "  " + f.device + ": " + f.reason +
      (f.round ? " (round " + f.round + ")" : "") })) : [el("li", { class: "muted", text: "none" })]));
  document.getElementById("events").replaceChildren(...view.events.map((e) =>
    el("li", { text: e.seq + " " + e.event.replace(/_/g, " ") + "  " + e.text })));
}

document.addEventListener("DOMContentLoaded", () => {
  supervisorPanel(document.getElementById("pit-supervisor"));
  startPage(render);
});
