// The service worker of "your turn" pushes (docs/server.md, "Push notifications"), served at
// /push-worker.js so that its scope is the whole site. A push names the table waiting for the
// player and the link of their seat; a click on the notification opens that link (or focuses a
// tab already showing the table).

const TEXTS = {
  en: { title: "Your turn – Oriflamme", body: "A game is waiting for your move (table {table})." },
  fr: { title: "À vous de jouer – Oriflamme", body: "Une partie attend votre coup (table {table})." },
};

function texts() {
  const lang = (self.navigator.language || "en").toLowerCase().startsWith("fr") ? "fr" : "en";
  return TEXTS[lang];
}

function sameSite(url) {
  try {
    const parsed = new URL(url, self.location.origin);
    return parsed.origin === self.location.origin ? parsed.href : null;
  } catch (error) {
    return null;
  }
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = {};
  }
  if (data.type !== "your_turn" || typeof data.table !== "string") return;
  const words = texts();
  event.waitUntil(
    self.registration.showNotification(words.title, {
      body: words.body.replace("{table}", data.table),
      tag: `oriflamme-turn-${data.table}`,
      icon: "/static/favicon.svg",
      data: { url: sameSite(data.url || "/") || "/" },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const path = new URL(url).pathname;
      for (const client of windows) {
        if (new URL(client.url).pathname === path && "focus" in client) return client.focus();
      }
      return self.clients.openWindow(url);
    }),
  );
});

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
