// Sharing a replay: its link (with a read-only replay token, never a seat's) copied to the
// clipboard, or selected for copying by hand where the clipboard is out of reach.

import { t } from "./i18n.js";
import { rt } from "./review_i18n.js";
import { toast } from "./ui.js";

/** Copy the absolute form of `url` (a path of this server); say so in a toast. */
export async function copyLink(url) {
  const link = new URL(url, window.location.origin).href;
  try {
    await navigator.clipboard.writeText(link);
    toast(rt("replay_link_copied"));
  } catch {
    window.prompt(t("copy_failed"), link);
  }
}
