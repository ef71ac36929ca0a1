// The admins' section of the account page: the chat messages readers reported, each with its
// words, its author and the reports' reasons, and what an admin does with it (docs/server.md,
// "Chat"): delete it (it keeps its place without its words), suspend its author's account, or
// dismiss the reports.

import { getChatReports, moderateChat } from "./account_api.js";
import { accountError, when } from "./account_i18n.js";
import { ct, messageWords } from "./chat_i18n.js";
import { button, el, replace } from "./dom.js";
import { toast, toastError } from "./ui.js";

/** The section (filled once the reports are read). */
export function chatAdminSection() {
  const list = el("div", { testid: "chat-reports" });
  const refresh = button(ct("admin_refresh"), { className: "small", testid: "chat-reports-refresh", on: { click: () => fill(list) } });
  fill(list);
  return el("section", { className: "account-section", testid: "chat-admin-section" }, [
    el("h2", { text: ct("admin_reports_title") }),
    el("p", { text: ct("admin_reports_intro") }),
    list,
    refresh,
  ]);
}

async function fill(list) {
  let reports;
  try {
    ({ reports } = await getChatReports());
  } catch (error) {
    toastError(accountError(error), error);
    return;
  }
  if (!reports.length) {
    replace(list, [el("p", { testid: "chat-reports-none", text: ct("admin_reports_none") })]);
    return;
  }
  replace(list, [el("ul", { className: "account-list" }, reports.map((report) => item(report, list)))]);
}

function item(report, list) {
  const { message } = report;
  const author = message.seat === null ? ct("chat_spectator") : message.name;
  const act = (verb, done) => async () => {
    try {
      await moderateChat(report.table_id, message.number, verb);
      toast(ct(done, { name: report.author_account || author }));
    } catch (error) {
      toastError(accountError(error), error);
    }
    await fill(list);
  };
  const suspend = button(ct("admin_suspend"), { className: "small", testid: "chat-report-suspend", on: { click: act("suspend", "admin_suspended") } });
  suspend.disabled = !report.author_account;
  if (!report.author_account) suspend.title = ct("admin_no_account");
  return el("li", { testid: "chat-report", dataset: { table: report.table_id, number: message.number } }, [
    el("p", { className: "detail", text: ct("admin_report_where", {
      table: report.table_id, number: message.number, count: report.reports, date: when(report.first_at),
    }) }),
    el("p", {}, [
      el("strong", { text: report.author_account ? ct("admin_author_account", { name: author, account: report.author_account }) : author }),
      " ",
      el("span", { className: "chat-words", testid: "chat-report-words", text: messageWords(message) }),
    ]),
    report.reasons.length ? el("p", { className: "detail", text: ct("admin_reasons", { reasons: report.reasons.join(" · ") }) }) : null,
    el("div", { className: "account-actions" }, [
      button(ct("admin_delete"), { className: "small primary", testid: "chat-report-delete", on: { click: act("delete", "admin_deleted") } }),
      suspend,
      button(ct("admin_dismiss"), { className: "small", testid: "chat-report-dismiss", on: { click: act("dismiss", "admin_dismissed") } }),
    ]),
  ]);
}
