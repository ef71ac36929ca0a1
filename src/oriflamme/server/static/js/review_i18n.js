// UI strings of the review features (replay page, analysis, hints) in English and French.
// Same layout as i18n.js (one `key: "text",` per line): tests compare the two tables.

import { getLang } from "./i18n.js";

const STRINGS = {
  en: {
    replay_title: "Replay",
    replay_game: "Replay of game {n}",
    view_label: "View",
    view_all: "Everything (every card shown)",
    view_seat: "As {name} saw it",
    first_step: "First",
    previous_step: "Previous",
    next_step: "Next",
    last_step: "Last",
    step_of: "Step {n} / {total}",
    step_slider: "Step of the game",
    keys_help: "Arrow keys: step by step; Home / End: start and end.",
    start_of_game: "Start of the game",
    played_by: "{name} played",
    analysis_title: "Analysis",
    analysis_intro: "A strong player (the hard bot) judges each decision of each human from what that player knew at that moment.",
    analyse: "Analyse",
    analysis_queued: "Waiting for its turn…",
    analysis_running: "Analysing… {percent}%",
    analysis_failed: "The analysis failed. Try again.",
    analysis_none_human: "No human played this game: nothing to analyse.",
    win_chart_title: "Chance to win, decision by decision",
    win_axis: "Step",
    costly_title: "Costliest moves",
    costly_none: "No move cost anything: well played!",
    costly_move: "Step {step} (round {round}) — {name}: {played}",
    costly_detail: "The bot preferred: {best} — chance kept {kept}%, instead of {got}%",
    verdict_costly: "Costly move",
    verdict_good: "Decision analysed",
    verdict_played: "Played: {label} ({percent}%)",
    verdict_best: "Preferred: {label} ({percent}%)",
    replay_and_analyse: "Replay and analyse",
    chart_click_hint: "Click a round to see it in the replay.",
    not_over_yet: "This game is not over yet: it can be replayed at its end.",
    load_failed: "The replay cannot be loaded: {message}",
    hint_button: "What would a strong player do?",
    hint_thinking: "Thinking…",
    hint_result: "A strong player would: {label} (chance to win {percent}%)",
    hint_failed: "No hint now: {message}",
    learning_table: "Learning table: hints are on",
    share_replay: "Share this replay",
    share_replay_title: "Copy a link that shows this finished game to anyone, and nothing else",
    replay_link_copied: "Replay link copied: it shows this game, not your seat.",
  },
  fr: {
    replay_title: "Rejouer",
    replay_game: "Partie {n} rejouée",
    view_label: "Vue",
    view_all: "Tout (toutes les cartes visibles)",
    view_seat: "Comme {name} l’a vue",
    first_step: "Début",
    previous_step: "Précédent",
    next_step: "Suivant",
    last_step: "Fin",
    step_of: "Étape {n} / {total}",
    step_slider: "Étape de la partie",
    keys_help: "Flèches : pas à pas ; Début / Fin : début et fin.",
    start_of_game: "Début de la partie",
    played_by: "{name} a joué",
    analysis_title: "Analyse",
    analysis_intro: "Un joueur fort (le bot difficile) juge chaque décision de chaque humain d’après ce que ce joueur savait à ce moment.",
    analyse: "Analyser",
    analysis_queued: "En attente de son tour…",
    analysis_running: "Analyse en cours… {percent} %",
    analysis_failed: "L’analyse a échoué. Réessayez.",
    analysis_none_human: "Aucun humain n’a joué cette partie : rien à analyser.",
    win_chart_title: "Chances de victoire, décision par décision",
    win_axis: "Étape",
    costly_title: "Coups les plus coûteux",
    costly_none: "Aucun coup n’a rien coûté : bien joué !",
    costly_move: "Étape {step} (manche {round}) — {name} : {played}",
    costly_detail: "Le bot préférait : {best} — chances gardées {kept} %, au lieu de {got} %",
    verdict_costly: "Coup coûteux",
    verdict_good: "Décision analysée",
    verdict_played: "Joué : {label} ({percent} %)",
    verdict_best: "Préféré : {label} ({percent} %)",
    replay_and_analyse: "Rejouer et analyser",
    chart_click_hint: "Cliquez sur une manche pour la revoir.",
    not_over_yet: "Cette partie n’est pas finie : elle pourra être rejouée à la fin.",
    load_failed: "Impossible de charger la partie : {message}",
    hint_button: "Que ferait un joueur fort ?",
    hint_thinking: "Réflexion…",
    hint_result: "Un joueur fort jouerait : {label} (chances de victoire {percent} %)",
    hint_failed: "Pas de conseil pour l’instant : {message}",
    learning_table: "Table d’apprentissage : conseils activés",
    share_replay: "Partager ce rejeu",
    share_replay_title: "Copier un lien qui montre cette partie terminée à n’importe qui, et rien d’autre",
    replay_link_copied: "Lien du rejeu copié : il montre cette partie, pas votre place.",
  },
};

/** The review string `key` in the current language, with its `{placeholders}` filled in. */
export function rt(key, vars = {}) {
  const table = STRINGS[getLang()] || STRINGS.en;
  const template = table[key] ?? STRINGS.en[key];
  if (template === undefined) return key;
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}

/** A chance (0–1) as a whole percentage. */
export function percent(chance) {
  return Math.round((chance || 0) * 100);
}
