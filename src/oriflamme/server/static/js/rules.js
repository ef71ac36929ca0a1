// The rules page (/rules?lang=en|fr, one static page per language): the card gallery drawn as
// the game draws cards, with each card's texts from the server (GET /api/cards) and links to
// the clarifications about it; the language choice and printing.

import { getCards } from "./api.js";
import { el, replace } from "./dom.js";
import { cardElement, cardName, infoFor, kindName, setCardInfo } from "./cards.js";
import { initialLang, setLang } from "./i18n.js";

const pageLang = document.documentElement.lang === "fr" ? "fr" : "en";

/** Open the page in the reader's language (unless the address chose one); true if leaving. */
function followPreference() {
  const asked = new URLSearchParams(window.location.search).get("lang");
  if (asked !== pageLang) {
    const wanted = initialLang(pageLang);
    if (!asked && wanted !== pageLang) {
      window.location.replace(`/rules?lang=${wanted}${window.location.hash}`);
      return true;
    }
  }
  setLang(pageLang);
  return false;
}

function installLanguageLinks() {
  for (const link of document.querySelectorAll("[data-testid=lang-switch] a[data-lang]")) {
    link.addEventListener("click", () => {
      setLang(link.dataset.lang);
      link.href = `/rules?lang=${link.dataset.lang}${window.location.hash}`;
    });
  }
}

function clarificationsOf(slug) {
  return [...document.querySelectorAll(".clarification[data-cards]")]
    .filter((item) => item.dataset.cards.split(" ").includes(slug));
}

function cardEntry(entry, family, label) {
  const slug = entry.dataset.card;
  const info = infoFor(slug);
  const name = cardName(slug);
  const headingId = `card-${slug}-name`;
  const links = clarificationsOf(slug).map((item) => el("li", {}, [
    el("a", { text: item.querySelector(".clarification-title").textContent, attrs: { href: `#${item.id}` } }),
  ]));
  entry.setAttribute("aria-labelledby", headingId);
  replace(entry, [
    el("div", { className: "card-figure", attrs: { "aria-hidden": "true" } }, [
      cardElement({ id: -1, family, type: slug, face_up: true }, { size: "hand", testid: "gallery-card", label: name }),
    ]),
    el("div", { className: "card-about" }, [
      el("h4", { attrs: { id: headingId } }, [
        el("span", { className: "card-title", text: name }),
        el("span", { className: "card-kind-tag", text: info && info.kind ? info.kind : kindName(slug) }),
      ]),
      el("p", { className: "card-ability", testid: "card-ability", text: info ? info.text : "" }),
      info && info.notes ? el("p", { className: "card-notes", text: info.notes }) : null,
      links.length ? el("div", { className: "card-clarifications" }, [
        el("span", { className: "clarifications-label", text: label }),
        el("ul", {}, links),
      ]) : null,
    ]),
  ]);
}

/** Under each clarification, links back to the cards it is about. */
function linkClarificationsToCards() {
  for (const item of document.querySelectorAll(".clarification[data-cards]")) {
    item.querySelector(".clarification-cards")?.remove();
    const cards = item.dataset.cards.split(" ").map((slug) => el("a", { text: cardName(slug), attrs: { href: `#card-${slug}` } }));
    const parts = [];
    cards.forEach((link, index) => {
      if (index) parts.push(" · ");
      parts.push(link);
    });
    item.append(el("span", { className: "clarification-cards" }, [" → ", ...parts]));
  }
}

async function drawGallery() {
  try {
    setCardInfo(await getCards(pageLang));
  } catch {
    // The cards keep their readable names; their texts need the server.
  }
  for (const group of document.querySelectorAll(".gallery-group")) {
    const family = Number(group.dataset.family) || 0;
    const gallery = group.querySelector(".gallery");
    for (const entry of group.querySelectorAll(".card-entry[data-card]")) {
      cardEntry(entry, family, gallery.dataset.clarificationsLabel);
    }
  }
  linkClarificationsToCards();
  document.body.classList.add("gallery-ready");
  // The entries were empty when the browser looked for the address's #card-…: look again.
  const target = window.location.hash ? document.getElementById(window.location.hash.slice(1)) : null;
  if (target) target.scrollIntoView();
}

if (!followPreference()) {
  installLanguageLinks();
  document.querySelector("[data-testid=print-rules]").addEventListener("click", () => window.print());
  drawGallery();
}
