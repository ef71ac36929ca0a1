// A table's page and players' accounts: "Take this seat" for a signed-in visitor of a seat
// nobody owns, "Leave the game" for a player under way, and each account's reputation next to
// its name (docs/server.md, "Seats of accounts", "Reputation").

import { button, el, replaceIfChanged } from "./dom.js";
import { claimSeat, currentAccount, getProfile, leaveGame } from "./players_api.js";
import { percentOf, pt, refusalText } from "./players_i18n.js";
import { toast, toastError } from "./ui.js";

let account;  // undefined: not asked yet; null: a guest
const reputations = new Map();  // name -> reputation (null: none yet), asked once per page

async function ask(rerender) {
  if (account !== undefined) return;
  account = null;
  try {
    account = await currentAccount();
  } catch {
    account = null;
  }
  if (account) rerender();
}

function seatOf(view, seat) {
  return (view.seats || []).find((s) => s.seat === seat) || null;
}

/** Fill `region` with what this seat's player may do about it, and mark reputations. */
export function renderAccountSeat(region, ctx, tableId, token, refresh, rerender) {
  ask(rerender);
  markReputations(ctx.view, rerender);
  const view = ctx.view;
  const mine = ctx.you === null || ctx.you === undefined ? null : seatOf(view, ctx.you);
  const canTake = Boolean(mine && mine.kind === "human" && account && !mine.account);
  const underWay = !view.waiting_for_players && !view.closed && !view.observation.result;
  const canLeave = Boolean(mine && mine.kind === "human" && underWay);
  region.hidden = !canTake && !canLeave;
  // Drawn again only when what it offers changed, not at every view: a button replaced while
  // it is being clicked loses the click.
  replaceIfChanged(region, [
    canTake ? el("span", { className: "muted", text: pt("take_seat_help") }) : null,
    canTake ? button(pt("take_seat"), {
      className: "small primary",
      testid: "take-seat",
      on: { click: () => act(() => claimSeat(tableId, token), pt("seat_taken_ok"), refresh) },
    }) : null,
    canLeave ? button(pt("leave_game"), {
      className: "small link-button",
      testid: "leave-game",
      on: {
        click: () => {
          if (window.confirm(pt("leave_confirm"))) act(() => leaveGame(tableId, token), pt("left_ok"), refresh);
        },
      },
    }) : null,
  ]);
}

async function act(request, done, refresh) {
  try {
    await request();
    toast(done);
  } catch (error) {
    toastError(refusalText(error), error);
  }
  refresh();
}

function markReputations(view, rerender) {
  for (const seat of view.seats || []) {
    const panel = document.querySelector(`[data-testid="player"][data-seat="${seat.seat}"] .player-name-line`);
    if (!panel) continue;
    // A seat its player left is the stand-in's, shown under a bot's name: no profile to ask.
    if (!seat.account || seat.left) continue;
    if (!reputations.has(seat.name)) {
      reputations.set(seat.name, undefined);
      getProfile(seat.name).then((profile) => {
        reputations.set(seat.name, profile.reputation);
        rerender();
      }).catch(() => reputations.set(seat.name, null));
      continue;
    }
    const reputation = reputations.get(seat.name);
    if (reputation === undefined || reputation === null || panel.querySelector(".reputation-badge")) continue;
    panel.append(el("a", {
      className: "reputation-badge",
      testid: "seat-reputation",
      text: pt("reputation_badge", { percent: percentOf(reputation) }),
      title: pt("reputation"),
      attrs: { href: `/players/${encodeURIComponent(seat.name)}`, target: "_blank", rel: "noopener" },
    }));
  }
}
