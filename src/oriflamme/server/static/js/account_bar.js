// The account area of the front page's top bar: "Sign in" / "Create an account" for a guest
// (a dialog with the form, and a passkey button), the signed-in name (a link to /account) and
// "Sign out" for a player. An account is never needed to play.

import { button, el, replace, replaceIfChanged } from "./dom.js";
import { getAccount, passkeysSupported, signIn, signInWithPasskey, signOut, signUp } from "./account_api.js";
import { accountError, at } from "./account_i18n.js";
import { toast, toastError, withRef } from "./ui.js";

let account = null;
let area = null;
let onChange = () => {};

/** The account form in a dialog: `mode` is "signin" or "signup". */
export function openAccountDialog(mode, done) {
  const dialog = el("dialog", { className: "account-dialog sheet", testid: "account-dialog" });
  const error = el("p", { className: "account-error", testid: "account-error", attrs: { role: "alert" } });
  const name = el("input", { testid: "account-name", attrs: {
    name: "name", autocomplete: "username", maxlength: "24", required: true,
  } });
  const password = el("input", { testid: "account-password", attrs: {
    name: "password", type: "password", required: true,
    autocomplete: mode === "signup" ? "new-password" : "current-password",
  } });
  const submit = el("button", { className: "primary", testid: "account-submit",
    text: mode === "signup" ? at("sign_up") : at("sign_in"), attrs: { type: "submit" } });
  const close = () => { dialog.close(); dialog.remove(); };
  const finish = (signed) => { close(); done(signed); };
  const form = el("form", { className: "account-form", attrs: { method: "dialog", novalidate: true }, on: {
    submit: async (event) => {
      event.preventDefault();
      submit.disabled = true;
      replace(error, []);
      try {
        const act = mode === "signup" ? signUp : signIn;
        finish(await act(name.value, password.value));
      } catch (failure) {
        replace(error, [withRef(accountError(failure), failure)]);
      } finally {
        submit.disabled = false;
      }
    },
  } }, [
    el("h2", { text: mode === "signup" ? at("sign_up_title") : at("sign_in_title") }),
    mode === "signup" ? el("p", { className: "intro", text: at("sign_up_intro") }) : null,
    el("label", { className: "field" }, [el("span", { className: "field-label", text: at("name_label") }), name]),
    el("label", { className: "field" }, [
      el("span", { className: "field-label", text: at("password_label") }), password,
      mode === "signup" ? el("span", { className: "field-help", text: at("password_help") }) : null,
    ]),
    error,
    el("div", { className: "account-actions" }, [
      submit,
      button(at("cancel"), { testid: "account-cancel", on: { click: close } }),
    ]),
  ]);
  const passkey = mode === "signin" && passkeysSupported()
    ? button(at("passkey_sign_in"), { testid: "passkey-sign-in", on: { click: async () => {
      replace(error, []);
      try {
        finish(await signInWithPasskey());
      } catch (failure) {
        replace(error, [withRef(accountError(failure), failure)]);
      }
    } } })
    : null;
  const other = button(mode === "signup" ? at("switch_to_sign_in") : at("switch_to_sign_up"), {
    className: "link-button", testid: "account-switch",
    on: { click: () => { close(); openAccountDialog(mode === "signup" ? "signin" : "signup", done); } },
  });
  dialog.append(form, el("div", { className: "account-more" }, [passkey, other]));
  dialog.addEventListener("cancel", close);
  document.body.append(dialog);
  dialog.showModal();
  name.focus();
  return dialog;
}

function render() {
  if (!area) return;
  // The guest's buttons, drawn at once, stay the same nodes when the server then says "a
  // guest": a click pressed meanwhile is not lost.
  replaceIfChanged(area, account ? accountParts(account) : guestParts());
  area.setAttribute("aria-label", at("account_region"));
  area.dataset.signedIn = account ? "true" : "false";
}

function accountParts(signed) {
  return [
    el("a", { className: "account-name", testid: "account-link", attrs: { href: "/account" },
      title: at("my_account"), text: signed.name }),
    button(at("sign_out"), { className: "small", testid: "sign-out", on: { click: async () => {
      try {
        await signOut();
        toast(at("signed_out_note"));
      } catch (failure) {
        toastError(accountError(failure), failure);
      }
      set(null);
    } } }),
  ];
}

function guestParts() {
  return [
    button(at("sign_in"), { className: "small", testid: "sign-in",
      on: { click: () => openAccountDialog("signin", signedIn) } }),
    button(at("sign_up"), { className: "small", testid: "sign-up",
      on: { click: () => openAccountDialog("signup", signedIn) } }),
  ];
}

function signedIn(found) {
  set(found);
  toast(at("welcome", { name: found.name }));
}

function set(found) {
  account = found;
  render();
  onChange(account);
}

/** Put the account area in the top bar; `changed(account)` is told of every sign-in or out. */
export async function installAccountBar(changed = () => {}) {
  const right = document.querySelector(".topbar-right");
  if (!right) return;
  onChange = changed;
  area = el("div", { className: "account-area", testid: "account-area", attrs: { role: "group" } });
  right.prepend(area);
  render();
  try {
    set(await getAccount());
  } catch {
    // The server cannot say now: the page works for a guest.
  }
  area.dataset.answered = "true";  // the server said who is here (for tests and debugging)
}

/** Show the bar's texts in the current language. */
export function renderAccountBar() {
  render();
}
