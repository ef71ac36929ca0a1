// The chat's words in English and French: the panel of the game page, the replay's talk, and
// the quick phrases, which each reader sees in their own language (chat.PHRASES on the
// server). Same layout as i18n.js (one `key: "text",` per line): tests compare the two tables.

import { getLang } from "./i18n.js";

const STRINGS = {
  en: {
    chat_title: "Chat",
    chat_tabs: "Chat channels",
    chat_tab_players: "Players",
    chat_tab_spectators: "Spectators",
    chat_unread: "{n} new",
    chat_empty: "No message yet.",
    chat_input_label: "Your message",
    chat_input_placeholder: "Write a message…",
    chat_send: "Send",
    chat_phrases: "Quick phrases",
    chat_phrases_hint: "Each reader sees a quick phrase in their own language.",
    chat_spectator: "Spectator",
    chat_you: "you",
    chat_deleted: "Message removed by a moderator.",
    chat_mute: "Mute",
    chat_mute_title: "Hide {name}’s messages from you (only you)",
    chat_unmute: "Unmute",
    chat_muted_list: "Muted:",
    chat_muted_done: "You no longer see {name}’s messages.",
    chat_unmuted_done: "You see {name}’s messages again.",
    chat_report: "Report",
    chat_report_title: "Report this message to the server’s moderators",
    chat_reported: "Reported: a moderator will look at it.",
    chat_players_only: "Only the seated players write here.",
    chat_spectators_only: "Only the spectators write here.",
    chat_off_note: "The players’ chat is off at this table.",
    chat_counter: "{n} / {max}",
    chat_replay_title: "What the players said",
    chat_replay_none: "Nothing said yet at this step.",
    chat_phrase_hello: "Hello!",
    chat_phrase_good_luck: "Good luck!",
    chat_phrase_have_fun: "Have fun!",
    chat_phrase_your_turn: "Your turn!",
    chat_phrase_thinking: "Thinking…",
    chat_phrase_nice_move: "Nice move!",
    chat_phrase_oops: "Oops!",
    chat_phrase_sorry: "Sorry!",
    chat_phrase_thanks: "Thanks!",
    chat_phrase_well_played: "Well played!",
    chat_phrase_good_game: "Good game!",
    chat_phrase_bye: "Bye!",
  },
  fr: {
    chat_title: "Discussion",
    chat_tabs: "Canaux de discussion",
    chat_tab_players: "Joueurs",
    chat_tab_spectators: "Spectateurs",
    chat_unread: "{n} nouveau(x)",
    chat_empty: "Aucun message pour l’instant.",
    chat_input_label: "Votre message",
    chat_input_placeholder: "Écrivez un message…",
    chat_send: "Envoyer",
    chat_phrases: "Phrases toutes faites",
    chat_phrases_hint: "Chaque lecteur voit une phrase toute faite dans sa propre langue.",
    chat_spectator: "Spectateur",
    chat_you: "vous",
    chat_deleted: "Message supprimé par un modérateur.",
    chat_mute: "Masquer",
    chat_mute_title: "Ne plus voir les messages de {name} (pour vous seul)",
    chat_unmute: "Réafficher",
    chat_muted_list: "Masqués :",
    chat_muted_done: "Vous ne voyez plus les messages de {name}.",
    chat_unmuted_done: "Vous voyez de nouveau les messages de {name}.",
    chat_report: "Signaler",
    chat_report_title: "Signaler ce message aux modérateurs du serveur",
    chat_reported: "Signalé : un modérateur va l’examiner.",
    chat_players_only: "Seuls les joueurs assis écrivent ici.",
    chat_spectators_only: "Seuls les spectateurs écrivent ici.",
    chat_off_note: "La discussion des joueurs est désactivée à cette table.",
    chat_counter: "{n} / {max}",
    chat_replay_title: "Ce que les joueurs ont dit",
    chat_replay_none: "Rien n’a encore été dit à cette étape.",
    chat_phrase_hello: "Bonjour !",
    chat_phrase_good_luck: "Bonne chance !",
    chat_phrase_have_fun: "Amusez-vous bien !",
    chat_phrase_your_turn: "À vous de jouer !",
    chat_phrase_thinking: "Je réfléchis…",
    chat_phrase_nice_move: "Joli coup !",
    chat_phrase_oops: "Oups !",
    chat_phrase_sorry: "Désolé !",
    chat_phrase_thanks: "Merci !",
    chat_phrase_well_played: "Bien joué !",
    chat_phrase_good_game: "Bonne partie !",
    chat_phrase_bye: "Au revoir !",
  },
};

/** The chat string `key` in the current language, with its `{placeholders}` filled in. */
export function ct(key, vars = {}) {
  const table = STRINGS[getLang()] || STRINGS.en;
  const template = table[key] ?? STRINGS.en[key];
  if (template === undefined) return key;
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}

/** What a message says in the reader's language: its words, or its quick phrase translated
 * (an unknown phrase id shows as itself), or the moderator's note for a deleted one. */
export function messageWords(message) {
  if (message.deleted) return ct("chat_deleted");
  if (message.phrase) return ct(`chat_phrase_${message.phrase}`);
  return message.text || "";
}
