// The account page (/account): who is signed in, where (sessions, "sign out everywhere"), the
// passkeys (add, remove), the password, the data (export) and the account's deletion.

import { button, el, replace } from "./dom.js";
import {
  addPasskey, changePassword, deleteAccount, getAccount, getPasskeys, getSessions,
  passkeysSupported, removePasskey, revokeSession, signOut,
} from "./account_api.js";
import { openAccountDialog } from "./account_bar.js";
import { accountError, applyAccountI18n, at, when } from "./account_i18n.js";
import { chatAdminSection } from "./chat_admin.js";
import { initialLang, setLang } from "./i18n.js";
import { installLangSwitch, toast, toastError } from "./ui.js";

const body = document.querySelector('[data-testid="account-body"]');
let account = null;

function section(title, testid, children, className = "") {
  return el("section", { className: `account-section ${className}`, testid }, [el("h2", { text: title }), ...children]);
}

function failed(error) {
  toastError(accountError(error), error);
}

function passwordInput(testid, label, autocomplete) {
  return el("label", { className: "field" }, [
    el("span", { className: "field-label", text: label }),
    el("input", { testid, attrs: { type: "password", autocomplete, required: true } }),
  ]);
}

async function sessionsSection() {
  const { sessions } = await getSessions();
  const list = el("ul", { className: "account-list", testid: "session-list" }, sessions.map((s) => el("li", {
    testid: "session", dataset: { current: s.current ? "true" : "false" },
  }, [
    el("strong", { text: s.current ? at("session_this") : (s.agent || "?").slice(0, 60) }),
    el("span", { className: "detail", text: `${at("session_since", { date: when(s.created) })}, ${at("session_seen", { date: when(s.seen) })}` }),
    s.current ? null : button(at("session_end"), { className: "small", testid: "session-end", on: { click: async () => {
      try {
        await revokeSession(s.id);
        await render();
      } catch (error) {
        failed(error);
      }
    } } }),
  ])));
  const everywhere = button(at("sign_out_everywhere"), { testid: "sign-out-everywhere", on: { click: async () => {
    try {
      await signOut(true);
      toast(at("sign_out_everywhere_done"));
      await render();
    } catch (error) {
      failed(error);
    }
  } } });
  return section(at("sessions_title"), "sessions-section", [list, everywhere]);
}

async function passkeysSection() {
  if (!passkeysSupported()) {
    return section(at("passkeys_title"), "passkeys-section", [el("p", { text: at("passkeys_unsupported") })]);
  }
  const { passkeys } = await getPasskeys();
  const list = passkeys.length
    ? el("ul", { className: "account-list", testid: "passkey-list" }, passkeys.map((p) => el("li", { testid: "passkey" }, [
      el("strong", { text: p.label }),
      el("span", { className: "detail", text: p.used ? at("passkey_used", { date: when(p.used) }) : at("passkey_never_used") }),
      button(at("passkey_remove"), { className: "small", testid: "passkey-remove", on: { click: async () => {
        try {
          await removePasskey(p.id);
          await render();
        } catch (error) {
          failed(error);
        }
      } } }),
    ])))
    : el("p", { testid: "passkeys-none", text: at("passkeys_none") });
  const label = el("input", { testid: "passkey-label", attrs: { maxlength: "60", placeholder: at("passkey_label") } });
  const add = el("form", { testid: "passkey-form", on: { submit: async (event) => {
    event.preventDefault();
    try {
      await addPasskey(label.value);
      toast(at("passkey_added"));
      await render();
    } catch (error) {
      failed(error);
    }
  } } }, [label, el("button", { text: at("passkey_add"), testid: "passkey-add", attrs: { type: "submit" } })]);
  return section(at("passkeys_title"), "passkeys-section", [el("p", { text: at("passkeys_intro") }), list, add]);
}

function passwordSection() {
  const form = el("form", { testid: "password-form", on: { submit: async (event) => {
    event.preventDefault();
    const [current, next] = form.querySelectorAll("input");
    try {
      await changePassword(current.value, next.value);
      form.reset();
      toast(at("password_changed"));
      await render();
    } catch (error) {
      failed(error);
    }
  } } }, [
    passwordInput("password-current", at("password_current"), "current-password"),
    passwordInput("password-new", at("password_new"), "new-password"),
    el("button", { text: at("password_change"), testid: "password-change", attrs: { type: "submit" } }),
  ]);
  return section(at("password_title"), "password-section", [form, el("p", { className: "field-help", text: at("password_help") })]);
}

function exportSection() {
  return section(at("export_title"), "export-section", [
    el("p", { text: at("export_intro") }),
    el("a", { className: "button-link", testid: "export-link", text: at("export_link"), attrs: {
      href: "/api/account/export", download: "oriflamme-account.json",
    } }),
  ]);
}

function deleteSection() {
  const form = el("form", { testid: "delete-form", on: { submit: async (event) => {
    event.preventDefault();
    if (!window.confirm(at("delete_confirm"))) return;
    try {
      await deleteAccount(form.querySelector("input").value);
      toast(at("deleted"));
      await render();
    } catch (error) {
      failed(error);
    }
  } } }, [
    passwordInput("delete-password", at("delete_password"), "current-password"),
    el("button", { className: "primary", text: at("delete_button"), testid: "delete-account", attrs: { type: "submit" } }),
  ]);
  return section(at("delete_title"), "delete-section", [el("p", { text: at("delete_intro") }), form], "danger-zone");
}

async function render() {
  try {
    account = await getAccount();
  } catch (error) {
    failed(error);
    return;
  }
  if (!account) {
    const signed = () => render();
    replace(body, [
      el("p", { testid: "account-guest", text: at("account_guest") }),
      el("div", { className: "account-actions" }, [
        button(at("sign_in"), { testid: "sign-in", on: { click: () => openAccountDialog("signin", signed) } }),
        button(at("sign_up"), { testid: "sign-up", on: { click: () => openAccountDialog("signup", signed) } }),
      ]),
    ]);
    return;
  }
  const head = el("div", { className: "account-head" }, [
    el("p", {}, [el("strong", { testid: "account-title-name", text: at("signed_in_as", { name: account.name }) })]),
    el("p", { className: "detail", text: at("member_since", { date: when(account.created) }) }),
    account.admin ? el("span", { className: "tag", text: at("admin_badge") }) : null,
    button(at("sign_out"), { testid: "page-sign-out", on: { click: async () => {
      try {
        await signOut();
        toast(at("signed_out_note"));
      } catch (error) {
        failed(error);
      }
      await render();
    } } }),
  ]);
  try {
    replace(body, [
      head,
      await sessionsSection(),
      await passkeysSection(),
      account.has_password ? passwordSection() : null,
      exportSection(),
      account.admin ? chatAdminSection() : null,
      deleteSection(),
    ]);
  } catch (error) {
    failed(error);
  }
}

function applyTexts() {
  applyAccountI18n(document);
  document.title = `Oriflamme — ${at("account_title")}`;
}

setLang(initialLang());
applyTexts();
installLangSwitch((lang) => {
  setLang(lang);
  applyTexts();
  render();
});
render();
