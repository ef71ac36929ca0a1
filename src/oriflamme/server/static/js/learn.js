// The guided games (/learn): choose a lesson, then play it step by step on the game's board.
// Each step comes from the server (its text, the move it waits for, the learner's view); a
// different move is explained, not played, unless the learner chooses to play it anyway: the
// game then leaves the lesson, and the bots answer (docs/server.md, "Learning to play").

import { createTable, getCards } from "./api.js";
import { actionKey, button, el, replace } from "./dom.js";
import { setCardInfo } from "./cards.js";
import { queueIds } from "./decision.js";
import { applyI18n, getLang, initialLang, setLang } from "./i18n.js";
import { boardContext, highlight, renderBoard } from "./learn_board.js";
import { exploreLesson, forgetProgress, getLessonStep, getLessons, readProgress, writeProgress } from "./learn_api.js";
import { applyLearnI18n, lt } from "./learn_i18n.js";
import { resetLog } from "./log.js";
import { installKeyboard, roveBoard } from "./keyboard.js";
import { hideCardHelp, installCardHelp } from "./tooltip.js";
import { installLangSwitch, toastError, withRef } from "./ui.js";

const NAME_KEY = "oriflamme.name";
const NAME_MAX = 24;

const $ = (testid) => document.querySelector(`[data-testid="${testid}"]`);

const regions = {
  chooser: $("lesson-chooser"),
  lessonList: $("lesson-list"),
  lesson: $("lesson"),
  board: $("lesson-board"),
  roundInfo: $("round-info"),
  players: $("scores"),
  prompt: $("prompt"),
  choices: $("decision-choices"),
  queue: $("queue"),
  hand: $("hand-cards"),
  handTitle: $("hand-title"),
  options: $("legal-options"),
  log: $("log"),
  coach: $("coach"),
  coachProgress: $("coach-progress"),
  coachTitle: $("coach-title"),
  coachText: $("coach-text"),
  coachAside: $("coach-aside"),
  coachButtons: $("coach-buttons"),
  progressBar: $("lesson-progress"),
};
regions.focusable = {
  players: regions.players,
  queue: $("table"),
  hand: $("hand"),
  log: $("log-panel"),
  status: $("status"),
};

const state = {
  lessons: [],
  lessonId: null,
  step: 0,
  data: null, // the step as the server sent it
  selected: null,
  busy: false,
  stray: null, // {action, label}: the learner's other move, explained
  explore: null, // {moves, view}: off the lesson
  freshIds: new Set(),
  shownKey: null, // the step last shown (to move the focus and scroll only once)
};

// ---------------------------------------------------------------- start

async function start() {
  setLang(initialLang());
  translatePage();
  installCardHelp();
  installKeyboard({ onEscape: () => { if (state.selected !== null) select(null); } });
  installLangSwitch(switchLang);
  window.addEventListener("popstate", route);
  loadCardTexts();
  await route();
}

function translatePage() {
  applyI18n(document);
  applyLearnI18n(document);
  document.title = `${lt("learn_title")} — Oriflamme`;
  for (const link of document.querySelectorAll('a[href^="/rules"]')) link.href = `/rules?lang=${getLang()}`;
}

async function loadCardTexts() {
  try {
    setCardInfo(await getCards(getLang()));
    if (state.data) render();
  } catch {
    // The cards show readable names until the texts arrive.
  }
}

/** Show what the address asks for: a lesson (?lesson=id) or the list of lessons. */
async function route() {
  const wanted = new URLSearchParams(window.location.search).get("lesson");
  if (wanted) await openLesson(wanted);
  else await showChooser();
}

function go(lessonId) {
  const url = lessonId ? `/learn?lesson=${encodeURIComponent(lessonId)}` : "/learn";
  window.history.pushState({}, "", url);
  return route();
}

// ---------------------------------------------------------------- the list of lessons

async function showChooser() {
  state.lessonId = null;
  state.data = null;
  regions.lesson.hidden = true;
  regions.chooser.hidden = false;
  try {
    state.lessons = await getLessons(getLang());
  } catch (error) {
    showLoadError(regions.lessonList, error, showChooser);
    return;
  }
  replace(regions.lessonList, state.lessons.map(lessonCard));
}

function lessonCard(lesson) {
  const progress = readProgress(lesson.id);
  const finished = progress.done && progress.step >= lesson.steps - 1;
  let status = lt("lesson_not_started");
  if (finished) status = lt("lesson_done");
  else if (!progress.fresh) status = lt("lesson_progress", { n: progress.step + 1, total: lesson.steps });
  const actions = [];
  const main = button(progress.fresh || finished ? lt("lesson_start") : lt("lesson_resume"), {
    className: "primary",
    testid: "lesson-open",
    on: {
      click: () => {
        if (finished) forgetProgress(lesson.id);
        go(lesson.id);
      },
    },
  });
  actions.push(main);
  if (!progress.fresh && !finished) {
    actions.push(button(lt("lesson_restart"), {
      testid: "lesson-restart",
      on: {
        click: () => {
          forgetProgress(lesson.id);
          go(lesson.id);
        },
      },
    }));
  }
  const headingId = `lesson-title-${lesson.id}`;
  return el("li", { className: "lesson-card", testid: "lesson-card", dataset: { lesson: lesson.id } }, [
    el("h2", { text: lesson.title, attrs: { id: headingId } }),
    el("p", { className: "lesson-summary", text: lesson.summary }),
    el("p", { className: "lesson-status", testid: "lesson-status", text: status }),
    el("div", { className: "lesson-actions", attrs: { role: "group", "aria-labelledby": headingId } }, actions),
  ]);
}

function showLoadError(root, error, retry) {
  replace(root, [
    el(root.tagName === "UL" ? "li" : "div", { className: "load-error", attrs: { role: "alert" } }, [
      el("p", { text: withRef(lt("load_failed", { message: error.message || error.code }), error) }),
      button(lt("retry"), { on: { click: retry } }),
    ]),
  ]);
}

// ---------------------------------------------------------------- a lesson

async function openLesson(lessonId) {
  regions.chooser.hidden = true;
  regions.lesson.hidden = false;
  state.lessonId = lessonId;
  state.explore = null;
  state.stray = null;
  state.shownKey = null;
  if (!state.lessons.length) {
    try {
      state.lessons = await getLessons(getLang());
    } catch {
      // The lesson itself may still load; only "next lesson" needs the list.
    }
  }
  await showStep(readProgress(lessonId).step);
}

function lessonInfo() {
  return state.lessons.find((lesson) => lesson.id === state.lessonId) || null;
}

/** Load step `step` of the open lesson and show it (the step kept if it is out of range). */
async function showStep(step) {
  state.busy = true;
  if (state.data) render();
  let data;
  try {
    data = await getLessonStep(state.lessonId, step, getLang());
  } catch (error) {
    state.busy = false;
    if (error.code === "unknown_step" && step > 0) {
      await showStep(0);
      return;
    }
    if (error.code === "unknown_lesson") {
      go(null);
      return;
    }
    if (state.data) {
      render();
      toastError(lt("load_failed", { message: error.message || error.code }), error);
    } else {
      showLoadError(regions.coachText, error, () => showStep(step));
    }
    return;
  }
  const before = state.data && !state.explore ? queueIds(state.data.view.observation) : null;
  state.busy = false;
  state.data = data;
  state.step = data.step;
  state.selected = null;
  state.stray = null;
  state.explore = null;
  markFresh(before, data.view);
  writeProgress(state.lessonId, data.step, data.step === data.steps - 1);
  render();
}

function markFresh(before, view) {
  const now = queueIds(view.observation);
  state.freshIds = before ? new Set([...now].filter((id) => !before.has(id))) : new Set();
}

function currentView() {
  return state.explore ? state.explore.view : state.data.view;
}

// ---------------------------------------------------------------- moves

/** A move chosen on the board: the lesson's goes on, another is explained (or explored). */
function send(action) {
  if (state.busy || !state.data) return;
  const view = currentView();
  const entry = (view.legal || []).find((e) => actionKey(e.action) === actionKey(action));
  if (!entry) return;
  hideCardHelp();
  if (state.explore) {
    explore([...state.explore.moves, action]);
    return;
  }
  if (state.data.expect && actionKey(action) === actionKey(state.data.expect)) {
    showStep(state.step + 1);
    return;
  }
  state.stray = { action, label: entry.label };
  state.selected = null;
  render();
  regions.coachAside.querySelector("button")?.focus();
}

function select(cardId) {
  if (state.busy) return;
  state.selected = cardId;
  render();
}

async function explore(moves) {
  state.busy = true;
  render();
  const before = queueIds(currentView().observation);
  try {
    const answer = await exploreLesson(state.lessonId, state.step, moves, getLang());
    state.explore = { moves, view: answer.view };
    state.stray = null;
    state.selected = null;
    markFresh(before, answer.view);
  } catch (error) {
    toastError(error.message || error.code, error);
  }
  state.busy = false;
  render();
}

function backToLesson() {
  state.explore = null;
  state.stray = null;
  state.selected = null;
  state.freshIds = new Set();
  render();
}

async function playRealGame(settings, trigger) {
  trigger.disabled = true;
  trigger.textContent = lt("creating_game");
  const seats = [{ kind: "human", name: playerName() }];
  for (let seat = 1; seat < settings.players; seat += 1) seats.push({ kind: "bot", level: settings.bots });
  try {
    const created = await createTable({
      players: settings.players,
      cards: settings.cards,
      variant: settings.variant || null,
      lang: getLang(),
      seats,
      hints: Boolean(settings.hints),
    });
    try {
      window.localStorage.setItem(`oriflamme.creator.${created.table_id}`, created.creator_token);
    } catch {
      // Without storage the game still works; only the creator's tools are missing.
    }
    window.location.assign(created.seats[0].url);
  } catch (error) {
    trigger.disabled = false;
    trigger.textContent = lt("play_real");
    toastError(error.message || error.code, error);
  }
}

function playerName() {
  try {
    const kept = (window.localStorage.getItem(NAME_KEY) || "").trim();
    if (kept && kept.length <= NAME_MAX) return kept;
  } catch {
    // No storage: the default name.
  }
  return lt("you_name");
}

function switchLang(lang) {
  setLang(lang);
  translatePage();
  resetLog();
  loadCardTexts();
  if (!state.lessonId) {
    showChooser();
  } else if (state.explore) {
    explore(state.explore.moves);
  } else {
    showStep(state.step);
  }
}

// ---------------------------------------------------------------- rendering

function render() {
  if (!state.data) return;
  const view = currentView();
  const ctx = boardContext({
    view,
    selected: state.selected,
    busy: state.busy,
    freshIds: state.freshIds,
    send,
    select,
  }, regions);
  document.body.classList.toggle("busy", state.busy);
  document.body.dataset.step = String(state.step);
  document.body.classList.toggle("exploring", Boolean(state.explore));
  renderBoard(regions, ctx);
  roveBoard(regions);
  renderCoach(view);
  const onLesson = !state.explore && !state.stray;
  const target = highlight(
    regions.board,
    regions,
    ctx,
    onLesson ? state.data.expect : null,
    onLesson ? state.data.focus : null,
  );
  state.freshIds = new Set();
  const key = `${state.lessonId}:${state.step}:${Boolean(state.explore)}`;
  if (key !== state.shownKey) {
    state.shownKey = key;
    regions.coachTitle.focus({ preventScroll: true });
    if (target && !inSight(target)) target.scrollIntoView({ block: "center", inline: "center" });
  } else if (target && state.selected !== null && !inSight(target)) {
    target.scrollIntoView({ block: "center", inline: "center" });
  }
}

function renderCoach(view) {
  const data = state.data;
  const last = data.step === data.steps - 1;
  const info = lessonInfo();
  $("lesson-title").textContent = info ? `${info.title} — ${lt("learn_title")}` : lt("learn_title");
  regions.coachProgress.textContent = lt("lesson_progress", { n: data.step + 1, total: data.steps });
  regions.progressBar.max = data.steps;
  regions.progressBar.value = data.step + 1;
  regions.coach.classList.toggle("is-exploring", Boolean(state.explore));
  if (state.explore) {
    regions.coachTitle.textContent = lt("explore_title");
    replace(regions.coachText, [el("p", { text: view.result ? lt("explore_over") : lt("explore_text") })]);
    replace(regions.coachAside, []);
    replace(regions.coachButtons, [
      button(lt("back_to_lesson"), { className: "primary", testid: "back-to-lesson", on: { click: backToLesson } }),
    ]);
    return;
  }
  regions.coachTitle.textContent = data.title;
  const paragraphs = data.text.map((text) => el("p", { text }));
  if (data.expect && data.expect_label) {
    paragraphs.push(el("p", { className: "coach-move", testid: "coach-move" }, [
      el("strong", { text: lt("your_move", { label: data.expect_label }) }),
      el("span", { className: "coach-how", text: ` ${lt("do_highlighted")}` }),
    ]));
  }
  replace(regions.coachText, paragraphs);
  replace(regions.coachAside, state.stray ? strayBox() : []);
  const buttons = [];
  buttons.push(button(lt("back_step"), {
    testid: "lesson-back",
    on: { click: () => showStep(state.step - 1) },
  }));
  if (data.step === 0) buttons[0].disabled = true;
  if (!data.expect && !last) {
    buttons.push(button(lt("next_step"), {
      className: "primary",
      testid: "lesson-next",
      on: { click: () => showStep(state.step + 1) },
    }));
  }
  if (state.busy) for (const b of buttons) b.disabled = true;
  replace(regions.coachButtons, buttons);
  if (last) regions.coachAside.append(...endBox());
}

function strayBox() {
  const data = state.data;
  return [
    el("div", { className: "stray", testid: "stray", attrs: { role: "alert" } }, [
      el("h3", { text: lt("stray_title") }),
      el("p", { text: lt("stray_you_chose", { label: state.stray.label }) }),
      data.stray ? el("p", { testid: "stray-reason", text: data.stray }) : null,
      el("div", { className: "stray-actions" }, [
        button(lt("stray_retry"), {
          className: "primary",
          testid: "stray-retry",
          on: {
            click: () => {
              state.stray = null;
              render();
            },
          },
        }),
        button(lt("stray_anyway"), {
          testid: "stray-anyway",
          on: { click: () => explore([state.stray.action]) },
        }),
      ]),
      el("p", { className: "stray-help", text: lt("stray_anyway_help") }),
    ]),
  ];
}

function endBox() {
  const data = state.data;
  const lessons = state.lessons;
  const index = lessons.findIndex((lesson) => lesson.id === state.lessonId);
  const next = index >= 0 ? lessons[index + 1] : null;
  const play = button(lt("play_real"), { className: "primary", testid: "play-real-game" });
  play.addEventListener("click", () => playRealGame(data.real_game, play));
  return [
    el("div", { className: "lesson-end", testid: "lesson-end" }, [
      el("h3", { text: lt("end_title") }),
      el("p", { text: lt("end_text") }),
      el("div", { className: "end-links" }, [
        play,
        el("p", { className: "stray-help", text: lt("play_real_help") }),
        next ? button(lt("next_lesson", { title: next.title }), {
          testid: "next-lesson",
          on: { click: () => go(next.id) },
        }) : null,
        el("a", { className: "button-link", text: lt("read_rules"), attrs: { href: `/rules?lang=${getLang()}` } }),
        button(lt("all_lessons"), { testid: "all-lessons", on: { click: () => go(null) } }),
      ]),
    ]),
  ];
}

/** Whether all of `node` is inside the window (below the sticky top bar). */
function inSight(node) {
  const rect = node.getBoundingClientRect();
  const top = document.querySelector(".topbar")?.getBoundingClientRect().bottom || 0;
  return rect.top >= top && rect.bottom <= window.innerHeight && rect.left >= 0 && rect.right <= window.innerWidth;
}

// The leave and restart controls live in the page; they act on the open lesson.
$("leave-lesson").addEventListener("click", () => go(null));
$("restart-lesson").addEventListener("click", () => {
  if (!state.lessonId || !window.confirm(lt("confirm_restart"))) return;
  forgetProgress(state.lessonId);
  showStep(0);
});

start();
