// UI strings of the guided games (/learn) in English and French; the lessons' own texts come
// from the server. Same layout as i18n.js (one `key: "text",` per line): tests compare the
// two tables.

import { getLang } from "./i18n.js";

const STRINGS = {
  en: {
    learn_title: "Learn to play",
    learn_heading: "Learn to play Oriflamme",
    learn_intro: "Play a real game, guided step by step: each step says what to do and why, and shows where to click. Your progress stays in this browser: leave when you like, and resume later.",
    lessons_region: "Lessons",
    rules_link: "Rules",
    read_rules: "Read the rules",
    play_link: "Play",
    lesson_start: "Start",
    lesson_resume: "Resume",
    lesson_restart: "Start again",
    lesson_progress: "Step {n} of {total}",
    lesson_not_started: "Not started yet",
    lesson_done: "Finished",
    coach_region: "The lesson",
    coach_text_region: "The lesson's text",
    back_step: "Back",
    next_step: "Next",
    leave_lesson: "Leave the lesson",
    confirm_restart: "Start this lesson again from the beginning?",
    your_move: "Your move: {label}",
    do_highlighted: "Click the highlighted place on the board, or choose it in the list of your options.",
    stray_title: "Not this move",
    stray_you_chose: "You chose: {label}.",
    stray_retry: "Play the lesson’s move",
    stray_anyway: "Play my move anyway",
    stray_anyway_help: "Your move then takes the game off the lesson: the bots answer your moves, and you can come back to the lesson at any time.",
    explore_title: "Off the lesson",
    explore_text: "You are playing your own moves, and the bots answer them. Come back to the lesson whenever you like.",
    explore_over: "This game is over. Go back to the lesson to carry on where you left it.",
    back_to_lesson: "Back to the lesson",
    end_title: "Lesson complete",
    end_text: "You know how to play now. Ready for a real game?",
    play_real: "Play a real game against bots",
    play_real_help: "Easy bots, and hints on: during the game you can ask what a strong player would do.",
    next_lesson: "Next lesson: {title}",
    all_lessons: "All the lessons",
    you_name: "You",
    creating_game: "Creating the game…",
    load_failed: "The lesson could not be loaded ({message}). Check your connection and try again.",
    retry: "Try again",
  },
  fr: {
    learn_title: "Apprendre à jouer",
    learn_heading: "Apprendre à jouer à Oriflamme",
    learn_intro: "Jouez une vraie partie, guidée pas à pas : chaque étape dit quoi faire et pourquoi, et montre où cliquer. Votre progression reste dans ce navigateur : partez quand vous voulez, et reprenez plus tard.",
    lessons_region: "Leçons",
    rules_link: "Règles",
    read_rules: "Lire les règles",
    play_link: "Jouer",
    lesson_start: "Commencer",
    lesson_resume: "Reprendre",
    lesson_restart: "Recommencer",
    lesson_progress: "Étape {n} sur {total}",
    lesson_not_started: "Pas encore commencée",
    lesson_done: "Terminée",
    coach_region: "La leçon",
    coach_text_region: "Le texte de la leçon",
    back_step: "Retour",
    next_step: "Suivant",
    leave_lesson: "Quitter la leçon",
    confirm_restart: "Recommencer cette leçon depuis le début ?",
    your_move: "À vous : {label}",
    do_highlighted: "Cliquez sur l’endroit mis en évidence sur la table, ou choisissez-le dans la liste de vos choix.",
    stray_title: "Pas ce coup-ci",
    stray_you_chose: "Vous avez choisi : {label}.",
    stray_retry: "Jouer le coup de la leçon",
    stray_anyway: "Jouer mon coup quand même",
    stray_anyway_help: "Votre coup fait alors sortir la partie de la leçon : les robots répondent à vos coups, et vous pouvez revenir à la leçon à tout moment.",
    explore_title: "Hors de la leçon",
    explore_text: "Vous jouez vos propres coups, et les robots y répondent. Revenez à la leçon quand vous voulez.",
    explore_over: "Cette partie est finie. Revenez à la leçon pour continuer là où vous l’aviez laissée.",
    back_to_lesson: "Revenir à la leçon",
    end_title: "Leçon terminée",
    end_text: "Vous savez jouer maintenant. Prêt pour une vraie partie ?",
    play_real: "Jouer une vraie partie contre des robots",
    play_real_help: "Des robots faciles, et les conseils activés : pendant la partie, vous pouvez demander ce que ferait un joueur fort.",
    next_lesson: "Leçon suivante : {title}",
    all_lessons: "Toutes les leçons",
    you_name: "Vous",
    creating_game: "Création de la partie…",
    load_failed: "Impossible de charger la leçon ({message}). Vérifiez votre connexion et réessayez.",
    retry: "Réessayer",
  },
};

/** The learning string `key` in the current language, with its `{placeholders}` filled in. */
export function lt(key, vars = {}) {
  const table = STRINGS[getLang()] || STRINGS.en;
  const template = table[key] ?? STRINGS.en[key];
  if (template === undefined) return key;
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}

/** Fill a page's learning strings: data-lt (text), data-lt-aria-label, data-lt-title. */
export function applyLearnI18n(root) {
  for (const node of root.querySelectorAll("[data-lt]")) node.textContent = lt(node.dataset.lt);
  for (const node of root.querySelectorAll("[data-lt-aria-label]")) {
    node.setAttribute("aria-label", lt(node.dataset.ltAriaLabel));
  }
  for (const node of root.querySelectorAll("[data-lt-title]")) node.setAttribute("title", lt(node.dataset.ltTitle));
}
