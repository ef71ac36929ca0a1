// The guided games' HTTP API (docs/server.md, "Learning to play") and where the browser keeps
// each lesson's progress.

import { request } from "./api.js";

const enc = encodeURIComponent;
const PROGRESS_KEY = "oriflamme.learn.";

export function getLessons(lang) {
  return request("GET", `/api/lessons?lang=${enc(lang)}`);
}

export function getLessonStep(lessonId, step, lang) {
  return request("GET", `/api/lessons/${enc(lessonId)}/steps/${enc(step)}?lang=${enc(lang)}`);
}

/** Play the learner's `moves` from `step`, off the lesson: the bots answer each. */
export function exploreLesson(lessonId, step, moves, lang) {
  return request("POST", `/api/lessons/${enc(lessonId)}/steps/${enc(step)}/explore`, { moves, lang });
}

/** A lesson's progress in this browser: {step, done} (step 0, not done, if none is kept). */
export function readProgress(lessonId) {
  try {
    const kept = JSON.parse(window.localStorage.getItem(PROGRESS_KEY + lessonId) || "null");
    if (kept && Number.isInteger(kept.step) && kept.step >= 0) return { step: kept.step, done: Boolean(kept.done) };
  } catch {
    // No storage, or something else wrote there: start from the beginning.
  }
  return { step: 0, done: false, fresh: true };
}

export function writeProgress(lessonId, step, done) {
  try {
    const before = readProgress(lessonId);
    window.localStorage.setItem(PROGRESS_KEY + lessonId, JSON.stringify({ step, done: done || before.done }));
  } catch {
    // Private browsing: the progress lasts as long as the page.
  }
}

export function forgetProgress(lessonId) {
  try {
    window.localStorage.removeItem(PROGRESS_KEY + lessonId);
  } catch {
    // Nothing kept.
  }
}
