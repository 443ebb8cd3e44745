// The page of `arena serve`: draws the state the server sends and posts the person's actions.
"use strict";

const SUITS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
const $ = (id) => document.getElementById(id);
let state = null;
let replayData = null;
let replayHand = 0;
window.arenaLatencies = [];
let sentAt = null;
const MAX_LINKS = 40;
let actionsAtSend = 0;

// "1 hand", "2 hands": every count the page writes beside a noun
const plural = (count, noun) => `${count} ${noun}${Math.abs(count) === 1 ? "" : "s"}`;

function cardEl(text) {
  const span = document.createElement("span");
  if (!text) { span.className = "card back"; span.textContent = "??"; return span; }
  const suit = text[1];
  span.className = "card" + (suit === "d" || suit === "h" ? " red" : "");
  span.textContent = text[0] + SUITS[suit];
  span.dataset.card = text;
  return span;
}

function drawCards(el, cards) {
  el.replaceChildren(...cards.map(cardEl));
}

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
}

async function post(url, body) {
  const response = await fetch(url, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) { showError(data.error || `HTTP ${response.status}`); return null; }
  showError("");
  return data;
}

function seatEl(seat, roleNote) {
  const div = document.createElement("div");
  div.className = "seat" + (seat.you ? " you" : "") + (seat.state === "folded" ? " folded" : "");
  div.dataset.name = seat.name;
  div.dataset.stack = seat.stack;
  const cards = document.createElement("div");
  cards.className = "cards";
  drawCards(cards, seat.cards.length ? seat.cards : (seat.state === "folded" ? [] : ["", ""]));
  div.innerHTML = `<div class="name">${seat.name}</div><div class="role">${seat.role || "&nbsp;"}</div>` +
    `<div>stack <b class="stack">${seat.stack}</b></div><div>bet <span class="bet">${seat.bet}</span></div>`;
  if (roleNote && seat.role) {
    const role = div.querySelector(".role");
    role.title = roleNote;
    role.classList.add("explained");
  }
  div.appendChild(cards);
  return div;
}

function drawTable(table) {
  drawCards($("board"), table.board);
  $("pot").textContent = table.paid ? `${table.pot} (${table.paid} paid)` : table.pot;
  $("seats").replaceChildren(...table.seats.map((seat) => seatEl(seat, table.role_note)));
  $("role-note").textContent = table.role_note ? `(${table.role_note})` : "";
  $("log").replaceChildren(...table.actions.map((a) => {
    const li = document.createElement("li");
    li.textContent = `${a.street}: ${a.text}`;
    return li;
  }));
}

function noteLatency(s) {
  if (sentAt === null || !s.table) return;
  const you = s.table.seats.find((seat) => seat.you);
  const others = s.table.actions.slice(actionsAtSend).filter((a) => !a.text.startsWith(you.name + " "));
  if (others.length) {
    window.arenaLatencies.push(performance.now() - sentAt);
    sentAt = null;
  } else if (s.decision || s.status === "hand_over") {
    sentAt = null;
  }
}

function drawControls(decision) {
  $("controls").hidden = !decision;
  if (!decision) return;
  $("fold").textContent = decision.labels.fold;
  $("call").textContent = decision.labels.call;
  const canRaise = decision.raise_min !== null;
  $("raise-box").hidden = !canRaise;
  if (canRaise) {
    for (const id of ["raise-range", "raise-amount"]) {
      $(id).min = decision.raise_min;
      $(id).max = decision.raise_max;
      $(id).value = decision.raise_min;
    }
    $("all-in").textContent = decision.labels.all_in;
  }
}

function drawResult(last) {
  $("result").hidden = !last;
  if (!last) return;
  $("verdict").textContent = last.verdict;
  const shown = last.table.seats.filter((seat) => seat.cards.length && !seat.you);
  $("showdown").textContent = last.showdown
    ? "showdown: " + shown.map((seat) => `${seat.name} shows ${seat.cards.join(" ")}`).join(", ")
    : "no showdown";
  $("final-stacks").tBodies[0].replaceChildren(...last.table.seats.map((seat) => {
    const tr = document.createElement("tr");
    tr.dataset.name = seat.name;
    tr.dataset.stack = seat.stack;
    tr.innerHTML = `<td>${seat.name}</td><td class="stack">${seat.stack}</td><td>${last.won[seat.name]}</td>`;
    return tr;
  }));
  const coachBox = $("hand-coach");
  coachBox.replaceChildren();
  if (state.coach) {
    for (const number of last.decisions) {
      const button = document.createElement("button");
      button.textContent = `coach at your decision ${number}`;
      button.onclick = () => openCoach(number);
      coachBox.appendChild(button);
    }
  }
  const errors = Object.entries(last.errors || {});
  $("bot-errors").textContent = errors.length
    ? "bot errors (each counted and folded): " + errors.map(([name, n]) => `${name} ${plural(n, "error")}`).join(", ")
    : "";
  $("next").hidden = state.status === "over";
}

function draw(s) {
  state = s;
  noteLatency(s);
  $("status").textContent = s.message + (s.hands ? ` (${s.played} of ${plural(s.hands, "hand")} played)` : "");
  const table = s.status === "hand_over" && s.last ? s.last.table : s.table;
  $("info").textContent = `blinds ${s.small_blind}/${s.big_blind}` + (s.ante ? `, ante ${s.ante}` : "") +
    (table ? ` | ${table.street}` : "");
  if (table) drawTable(table);
  drawControls(s.decision);
  $("coach-button").hidden = !s.coach;
  drawResult(s.status === "hand_over" || s.status === "over" ? s.last : null);
  const total = plural(s.total, "chip");
  $("running").textContent = `${plural(s.played, "hand")} played, you ${s.total >= 0 ? "+" : ""}${total}`;
  const coach = $("coach");
  if (s.decision && !coach.hidden && Number(coach.dataset.decision) !== s.decision.number) {
    coach.hidden = true;
  }
  // the coach left open at a decision the person has since answered: add what was played
  const open = Number(coach.dataset.decision);
  if (!coach.hidden && !coach.dataset.answered && s.status === "hand_over" && s.last &&
      s.last.decisions.includes(open)) {
    coach.dataset.answered = "asked";
    openCoach(open);
  }
}

async function act(action, amount) {
  if (!state || !state.decision) return;
  sentAt = performance.now();
  actionsAtSend = state.table ? state.table.actions.length + 1 : 0;
  const result = await post("/api/action", { decision: state.decision.number, action, amount });
  if (result === null) sentAt = null;
}

async function openCoach(number) {
  const response = await fetch(`/api/coach?decision=${number}`);
  const data = await response.json();
  if (!response.ok) { showError(data.error); return; }
  const box = $("coach");
  box.dataset.decision = number;
  box.dataset.answered = data.answer ? "yes" : "";
  $("coach-name").textContent = `${data.coach} (hand ${data.hand}, ${data.street}, decision ${number})`;
  const rows = data.probabilities || [];
  $("coach-table").tBodies[0].replaceChildren(...rows.map((row) => {
    const tr = document.createElement("tr");
    tr.className = "coach-row";
    tr.dataset.action = row.action;
    tr.dataset.amount = row.amount;
    tr.dataset.probability = row.probability.toFixed(4);
    tr.innerHTML = `<td class="label">${row.label}</td><td>${(100 * row.probability).toFixed(1)}%</td>`;
    return tr;
  }));
  $("coach-why").textContent = data.why ? `why: ${data.why}` : "";
  const answer = data.answer ? `You played ${data.answer_label}.` : "";
  $("coach-equity").textContent = "Your equity: computing... " + answer;
  box.hidden = false;
  const reply = await fetch(`/api/coach/equity?decision=${number}`);
  const read = await reply.json();
  if (!reply.ok) { showError(read.error); return; }
  if (Number(box.dataset.decision) !== number) return;
  const equities = read.equities.map((e) =>
    `${(100 * e.equity).toFixed(1)}% against ${e.name}'s range (${e.read} of its decisions read)`);
  $("coach-equity").textContent = (equities.length ? "Your equity: " + equities.join("; ") + ". " : "") + answer;
}

function connect() {
  const source = new EventSource("/api/events");
  source.addEventListener("state", (event) => draw(JSON.parse(event.data)));
}

// ---- replays -------------------------------------------------------------------------------

async function loadRuns() {
  const response = await fetch("/api/runs");
  const listing = await response.json();
  if (!response.ok) { showError(listing.error); return; }
  const runs = listing.runs;
  $("replay-notices").replaceChildren(...listing.notices.map((text) => {
    const p = document.createElement("p");
    p.className = "notice";
    p.textContent = text;
    return p;
  }));
  $("run-list").replaceChildren(...runs.map((run) => {
    const li = document.createElement("li");
    li.textContent = run.title + ": ";
    if (run.files.length > MAX_LINKS) {  // a ring game writes one file per hand: a list
      const select = document.createElement("select");
      select.className = "replay-select";
      select.replaceChildren(...run.files.map((file) => new Option(file, file)));
      const open = document.createElement("button");
      open.textContent = "replay";
      open.onclick = () => openReplay(run.run, select.value);
      li.append(`${plural(run.files.length, "file")} `, select, " ", open);
      return li;
    }
    for (const file of run.files) {
      const link = document.createElement("a");
      link.href = "#";
      link.textContent = file;
      link.className = "replay-file";
      link.dataset.run = run.run;
      link.dataset.file = file;
      link.onclick = (event) => { event.preventDefault(); openReplay(run.run, file); };
      li.append(link, " ");
    }
    return li;
  }));
}

async function openReplay(run, file) {
  const response = await fetch(`/api/replay?run=${run}&file=${encodeURIComponent(file)}`);
  const data = await response.json();
  if (!response.ok) { showError(data.error); return; }
  replayData = data;
  $("replay").hidden = false;
  $("replay-title").textContent = `${data.title}: ${data.file}`;
  const places = $("places");
  places.hidden = !data.places;
  if (data.places) {
    const sorted = Object.entries(data.places).sort((a, b) => a[1] - b[1]);
    places.tBodies[0].replaceChildren(...sorted.map(([name, place]) => {
      const tr = document.createElement("tr");
      tr.dataset.name = name;
      tr.dataset.place = place;
      tr.innerHTML = `<td>${name}</td><td class="place">${place}</td>`;
      return tr;
    }));
  }
  const names = [...new Set(data.stacks.flatMap((row) => Object.keys(row.stacks)))].sort();
  $("stacks-table").innerHTML = `<tr><th>after hand</th>${names.map((n) => `<th>${n}</th>`).join("")}</tr>` +
    data.stacks.map((row) => `<tr><td>${row.hand}</td>${names.map((n) => `<td>${row.stacks[n] ?? "out"}</td>`).join("")}</tr>`).join("");
  showHand(0);
}

function showHand(index) {
  const hands = replayData.hands;
  replayHand = Math.max(0, Math.min(index, hands.length - 1));
  const hand = hands[replayHand];
  $("hand-label").textContent = `hand ${replayHand + 1} of ${hands.length}`;
  const blinds = [...hand.blinds].filter((b) => b > 0).sort((a, b) => a - b);
  const ante = Math.max(0, ...hand.antes);
  $("replay-info").textContent = `blinds ${blinds.join("/")}` + (ante ? `, ante ${ante}` : "") +
    ` | stacks before the hand: ` + hand.players.map((n) => `${n} ${hand.starting[n]}`).join(", ");
  $("step-range").max = hand.steps.length;
  showStep(hand.steps.length);
}

function showStep(index) {
  const hand = replayData.hands[replayHand];
  const step = Math.max(0, Math.min(index, hand.steps.length));
  $("step-range").value = step;
  const numbers = [...hand.steps.slice(0, step)].reverse().find((s) => s.stacks) || null;
  drawCards($("replay-board"), numbers ? numbers.board : []);
  $("replay-pot").textContent = numbers ? numbers.pot : 0;
  const last = step === hand.steps.length;
  $("replay-seats").replaceChildren(...hand.players.map((name, i) => seatEl({
    name,
    you: false,
    stack: last ? hand.finishing[name] : (numbers ? numbers.stacks[i] : hand.starting[name]),
    bet: numbers ? numbers.bets[i] : 0,
    role: hand.roles[i],
    state: numbers && !numbers.in_hand[i] ? "folded" : "playing",
    cards: numbers ? numbers.holes[i] : [],
  }, hand.role_note)));
  $("replay-log").replaceChildren(...hand.steps.map((s, i) => {
    const li = document.createElement("li");
    li.textContent = s.text;
    if (i === step - 1) li.className = "current";
    return li;
  }));
}

// ---- tabs ------------------------------------------------------------------------------------

function showTab(name) {
  $("table-view").hidden = name !== "table";
  $("replay-view").hidden = name !== "replays";
  $("show-table").classList.toggle("active", name === "table");
  $("show-replays").classList.toggle("active", name === "replays");
  if (name === "replays") loadRuns();
}

async function start() {
  const config = await (await fetch("/api/config")).json();
  $("show-table").hidden = !config.table;
  $("show-replays").hidden = !config.replays;
  $("show-table").onclick = () => showTab("table");
  $("show-replays").onclick = () => showTab("replays");
  $("fold").onclick = () => act("fold", 0);
  $("call").onclick = () => act("call", state.decision.call_to);
  $("raise").onclick = () => act("raise", Number($("raise-amount").value));
  $("all-in").onclick = () => act("raise", state.decision.raise_max);
  $("raise-range").oninput = () => { $("raise-amount").value = $("raise-range").value; };
  $("raise-amount").oninput = () => { $("raise-range").value = $("raise-amount").value; };
  $("coach-button").onclick = () => state.decision && openCoach(state.decision.number);
  $("next").onclick = () => post("/api/next", {});
  $("prev-hand").onclick = () => showHand(replayHand - 1);
  $("next-hand").onclick = () => showHand(replayHand + 1);
  $("prev-step").onclick = () => showStep(Number($("step-range").value) - 1);
  $("next-step").onclick = () => showStep(Number($("step-range").value) + 1);
  $("step-range").oninput = () => showStep(Number($("step-range").value));
  if (config.table) { connect(); showTab("table"); } else { showTab("replays"); }
}

start();
