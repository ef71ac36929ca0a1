// The settings of this browser on the game page (docs/server.md, "The page's settings"): a
// sound and a system notification when it becomes your turn while the tab is hidden, and
// "confirm my moves" (on by default on phones). Kept in localStorage, shown in a small menu
// of the top bar.

import { button, el } from "./dom.js";
import { t } from "./i18n.js";
import { unlockSound, playChime } from "./sound.js";

const STORAGE_KEY = "oriflamme.settings";

/** A phone (or tablet): touch is its main pointer, where misplaced taps happen. A narrow
 * desktop window, still used with a mouse, is not one. */
function onPhone() {
  return Boolean(window.matchMedia && window.matchMedia("(pointer: coarse)").matches);
}

function defaults() {
  return { sound: false, notify: false, confirm: onPhone() };
}

function stored() {
  try {
    const found = JSON.parse(window.localStorage.getItem(STORAGE_KEY) || "{}");
    return found && typeof found === "object" ? found : {};
  } catch {
    return {};
  }
}

/** The setting `name` ("sound", "notify", "confirm"): the stored choice, else its default. */
export function getSetting(name) {
  const value = stored()[name];
  return typeof value === "boolean" ? value : defaults()[name];
}

function setSetting(name, value) {
  try {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify({ ...stored(), [name]: value }));
  } catch {
    // Private browsing: the choice lasts for this page only.
  }
}

function notificationsState() {
  if (!("Notification" in window)) return "unsupported";
  return Notification.permission; // "default", "granted" or "denied"
}

function checkbox(name, key, text, onChange) {
  const input = el("input", { testid: `setting-${name}`, attrs: { type: "checkbox", id: `setting-${name}` } });
  input.checked = getSetting(name) && (name !== "notify" || notificationsState() === "granted");
  input.addEventListener("change", () => onChange(input));
  const label = el("label", { attrs: { for: `setting-${name}` } }, [
    el("span", { text, dataset: { i18n: key } }),
  ]);
  return el("div", { className: "setting" }, [input, label]);
}

/** Ask for notifications on the player's click; keep the box ticked only if allowed. */
function toggleNotify(input, note) {
  note.hidden = true;
  if (!input.checked) {
    setSetting("notify", false);
    return;
  }
  const refuse = (key) => {
    input.checked = false;
    setSetting("notify", false);
    note.textContent = key === "denied" ? t("settings_notify_denied") : t("settings_notify_unsupported");
    note.hidden = false;
  };
  const state = notificationsState();
  if (state === "unsupported" || state === "denied") {
    refuse(state);
    return;
  }
  if (state === "granted") {
    setSetting("notify", true);
    return;
  }
  Notification.requestPermission().then((answer) => {
    if (answer === "granted") setSetting("notify", true);
    else refuse(answer === "denied" ? "denied" : "unsupported");
  });
}

/** Add the settings button and its menu to `bar` (the top bar's right side). */
export function installSettings(bar) {
  if (!bar) return;
  const note = el("p", { className: "setting-note", testid: "setting-note", attrs: { role: "status" } });
  note.hidden = true;
  const menu = el("div", {
    className: "settings-menu",
    testid: "settings-menu",
    attrs: { id: "settings-menu", role: "group", "aria-labelledby": "settings-title" },
  }, [
    el("p", { className: "settings-title", text: t("settings_title"), dataset: { i18n: "settings_title" }, attrs: { id: "settings-title" } }),
    checkbox("sound", "settings_sound", t("settings_sound"), (input) => {
      setSetting("sound", input.checked);
      if (input.checked && unlockSound()) playChime(); // a sample, and audio allowed from now on
    }),
    checkbox("notify", "settings_notify", t("settings_notify"), (input) => toggleNotify(input, note)),
    note,
    checkbox("confirm", "settings_confirm", t("settings_confirm"), (input) => setSetting("confirm", input.checked)),
  ]);
  menu.hidden = true;
  const opener = button(t("settings_button"), {
    className: "small settings-button",
    testid: "settings-button",
    dataset: { i18n: "settings_button" },
    attrs: { "aria-expanded": "false", "aria-controls": "settings-menu" },
  });
  const close = (refocus) => {
    menu.hidden = true;
    opener.setAttribute("aria-expanded", "false");
    if (refocus) opener.focus();
  };
  opener.addEventListener("click", () => {
    const open = menu.hidden;
    menu.hidden = !open;
    opener.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) menu.querySelector("input").focus();
  });
  menu.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      event.stopPropagation();
      close(true);
    }
  });
  document.addEventListener("click", (event) => {
    if (!menu.hidden && !menu.contains(event.target) && event.target !== opener) close(false);
  });
  const wrapper = el("div", { className: "settings" }, [opener, menu]);
  bar.prepend(wrapper);
}
