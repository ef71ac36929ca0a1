// UI strings in English and French. Game text (prompts, labels, log, card texts) comes from the
// server in the chosen language; these are the words of the interface around it.
// Format kept simple on purpose (one `key: "text",` per line): tests compare the two tables.

const LANGS = ["en", "fr"];
const STORAGE_KEY = "oriflamme.lang";

const STRINGS = {
  en: {
    // page chrome
    tagline: "A game of intrigue for the crown, played in the browser.",
    spectator: "Spectator",
    show_results: "Results",
    reconnecting: "Connection lost — reconnecting…",
    players_region: "Players",
    queue_region: "The Queue",
    options_title: "Your options",
    log_title: "Game log",
    hints_label: "Learning table",
    hints_help: "Players may ask for hints",
    fatal_title: "This game cannot be opened",
    back_to_lobby: "Back to the lobby",
    bad_link: "The link is incomplete: it needs a table and a seat or spectator token.",
    // status
    your_turn: "Your turn",
    deciding: "Deciding…",
    waiting_for: "Waiting for {name}…",
    bot_thinking: "{name} is thinking…",
    game_n: "Game {n}",
    round_of: "Round {n} / 6",
    round_n: "Round {n}",
    phase_placement: "Placement",
    phase_resolution: "Resolution",
    phase_over: "Game over",
    // queue
    queue_empty: "The Queue is empty.",
    queue_front: "Front",
    queue_end: "End",
    resolution_order: "Resolution order",
    place_front: "Place at the front",
    place_end: "Place at the end",
    choose_card_first: "Choose a card from your hand first",
    cursor_title: "The stack being resolved",
    stack_count: "{count} cards in this stack",
    reveal: "Reveal",
    leave: "Leave",
    gain: "Gain",
    spend: "Spend",
    // cards
    kind_character: "Character",
    kind_intrigue: "Intrigue",
    face_down_card: "Face-down card",
    you_know_card: "Your face-down card: only you know what it is",
    tokens_title: "{count} Influence on this card",
    corrupted_by: "Corruption token of {colour}",
    tip_face_down_yours: "Face down: the other players do not know this card.",
    tip_face_down_hidden: "A face-down card: you cannot know what it is until it is revealed.",
    // hand
    hand_title: "Your hand ({count})",
    hand_title_spectator: "Hands",
    hand_empty: "No card in hand.",
    spectating_hand: "You are watching: the hands stay hidden.",
    set_aside_yours: "Set aside (hidden):",
    hint_choose_card: "Choose a card from your hand, then where to place it.",
    hint_choose_place: "Now choose where to place {card}: an end of the Queue or one of your stacks.",
    cancel: "Cancel",
    reserve: "Reserve",
    // players
    you: "You",
    bot: "Bot",
    bot_level: "Bot · {level}",
    online: "Connected",
    offline: "Not connected",
    first_player: "First player of this round",
    first_player_short: "1st",
    influence: "Influence",
    hand_count: "hand {count}",
    set_aside_count: "set aside {count}",
    pile_count: "pile {count}",
    discarded: "Discarded",
    eliminated: "Eliminated",
    choose_player: "Choose",
    hand_to_bot: "Hand this seat to a bot",
    confirm_hand_to_bot: "Hand {name}'s seat to a bot? Their link will then only watch.",
    handed_to_bot: "{name}'s seat is now played by a bot.",
    player_n: "Player {n}",
    player: "Player",
    // options
    options_hint: "Click on the table, or choose here:",
    options_none: "Nothing to decide right now.",
    options_spectator: "You are watching this game.",
    // end of game
    game_over: "Game over",
    you_won: "You won!",
    winner_is: "Winner: {names}",
    winners_shared: "Shared victory: {names}",
    tie_break: "Cards in the Queue",
    tie_break_title: "Tie-break: cards each player controls in the Queue, covered ones included",
    tie_break_note: "Most Influence wins; a tie is broken by the cards each player controls in the Queue.",
    chart_title: "Influence round by round",
    chart_start: "start",
    chart_round_axis: "round",
    play_again: "Play again",
    see_table: "See the table",
    // colours and bot levels
    colour_red: "Red",
    colour_blue: "Blue",
    colour_green: "Green",
    colour_yellow: "Yellow",
    colour_purple: "Purple",
    level_easy: "easy",
    level_medium: "medium",
    level_hard: "hard",
    level_expert: "expert",
    level_random: "random",
    level_note_easy: "A beginner: sensible moves, one in three at random",
    level_note_medium: "Greedy: the best move for the round at hand",
    level_note_hard: "Searches ahead, up to a second and a half a move",
    level_note_expert: "Searches deeper and judges positions better, up to 2 seconds a move",
    level_note_random: "Plays any allowed move at random",
    // errors
    error_generic: "Something went wrong.",
    error_network: "The server cannot be reached.",
    error_not_your_turn: "It is not your turn.",
    error_illegal_action: "That move is not allowed now.",
    error_malformed_action: "That move could not be understood.",
    error_unknown_table: "This table does not exist (any more).",
    error_bad_token: "This link is not valid for this table.",
    error_game_over: "The game is over.",
    error_stale: "The game moved on: here is the latest position.",
    error_too_many_requests: "Too many requests: slow down a little.",
    // lobby
    lobby_title: "Start a game",
    lobby_intro: "Set up a table, then send each player their invitation link.",
    players_label: "Players",
    cards_label: "Cards",
    cards_base: "Oriflamme (base game)",
    cards_embrasement: "Embrasement",
    cards_custom: "Custom: pick 10",
    custom_counter: "{n} / 10 chosen",
    variant_label: "Two-player variant",
    variant_two_families: "Two families each (official)",
    variant_standard: "One family each",
    edition_label: "Edition",
    edition_revised: "Revised",
    edition_first: "First edition",
    first_player_label: "First player",
    first_random: "Random",
    lang_label: "Language of the table",
    lang_en: "English",
    lang_fr: "Français",
    seats_label: "Seats",
    seat_n: "Seat {n}",
    kind_label: "Played by",
    seat_human: "A person",
    seat_bot: "A bot",
    name_label: "Name",
    level_label: "Level",
    create_button: "Create the game",
    creating: "Creating…",
    created_title: "Your table is ready",
    created_intro: "Send each person their own link: it is their seat, keep it private.",
    invite_link: "Invitation link",
    copy: "Copy",
    copied: "Link copied",
    copy_failed: "Copy failed: select the link and copy it by hand.",
    open_link: "Open",
    played_by_bot: "Played by the server",
    spectator_link: "Spectator link (anyone can watch)",
    open_my_seat: "Take my seat",
    watch_game: "Watch the game",
    new_game: "Set up another game",
    error_name: "Names must be 1 to 24 characters.",
    saved_label: "Continue a saved game (optional)",
    saved_hint: "A save, position or replay file (JSON) of this program: the game goes on from there, with its own cards and players.",
    saved_clear: "Forget it",
    saved_position: "Saved game: {players} players, round {round}. Choose who plays each seat.",
    saved_replay: "Replay: {players} players, {actions} moves played. Choose who plays each seat.",
    error_save_file: "This file is not a save, position or replay of Oriflamme.",
    error_custom_count: "Choose exactly 10 card types.",
    error_no_human: "At least one seat must be played by a person.",
  },
  fr: {
    // page chrome
    tagline: "Un jeu d’intrigues pour la couronne, à jouer dans le navigateur.",
    spectator: "Spectateur",
    show_results: "Résultats",
    reconnecting: "Connexion perdue — reconnexion…",
    players_region: "Joueurs",
    queue_region: "La File",
    options_title: "Vos choix",
    log_title: "Journal de la partie",
    hints_label: "Table d’apprentissage",
    hints_help: "Les joueurs peuvent demander conseil",
    fatal_title: "Impossible d’ouvrir cette partie",
    back_to_lobby: "Retour à l’accueil",
    bad_link: "Le lien est incomplet : il faut une table et un jeton de place ou de spectateur.",
    // status
    your_turn: "À vous de jouer",
    deciding: "Réfléchit…",
    waiting_for: "En attente de {name}…",
    bot_thinking: "{name} réfléchit…",
    game_n: "Partie {n}",
    round_of: "Manche {n} / 6",
    round_n: "Manche {n}",
    phase_placement: "Placement",
    phase_resolution: "Résolution",
    phase_over: "Partie terminée",
    // queue
    queue_empty: "La File est vide.",
    queue_front: "Début",
    queue_end: "Fin",
    resolution_order: "Ordre de résolution",
    place_front: "Placer au début",
    place_end: "Placer à la fin",
    choose_card_first: "Choisissez d’abord une carte de votre main",
    cursor_title: "La pile en cours de résolution",
    stack_count: "{count} cartes dans cette pile",
    reveal: "Révéler",
    leave: "Laisser",
    gain: "Gagner",
    spend: "Dépenser",
    // cards
    kind_character: "Personnage",
    kind_intrigue: "Intrigue",
    face_down_card: "Carte face cachée",
    you_know_card: "Votre carte face cachée : vous seul savez ce que c’est",
    tokens_title: "{count} Influence sur cette carte",
    corrupted_by: "Jeton Corruption de {colour}",
    tip_face_down_yours: "Face cachée : les autres joueurs ne connaissent pas cette carte.",
    tip_face_down_hidden: "Une carte face cachée : impossible de savoir ce que c’est avant qu’elle soit révélée.",
    // hand
    hand_title: "Votre main ({count})",
    hand_title_spectator: "Mains",
    hand_empty: "Aucune carte en main.",
    spectating_hand: "Vous regardez la partie : les mains restent cachées.",
    set_aside_yours: "Mises de côté (cachées) :",
    hint_choose_card: "Choisissez une carte de votre main, puis où la placer.",
    hint_choose_place: "Choisissez maintenant où placer {card} : un bout de la File ou l’une de vos piles.",
    cancel: "Annuler",
    reserve: "Réserve",
    // players
    you: "Vous",
    bot: "Robot",
    bot_level: "Robot · {level}",
    online: "Connecté",
    offline: "Non connecté",
    first_player: "Premier joueur de cette manche",
    first_player_short: "1er",
    influence: "Influence",
    hand_count: "main {count}",
    set_aside_count: "de côté {count}",
    pile_count: "pioche {count}",
    discarded: "Défaussées",
    eliminated: "Éliminées",
    choose_player: "Choisir",
    hand_to_bot: "Confier cette place à un robot",
    confirm_hand_to_bot: "Confier la place de {name} à un robot ? Son lien ne servira plus qu’à regarder.",
    handed_to_bot: "La place de {name} est maintenant jouée par un robot.",
    player_n: "Joueur {n}",
    player: "Joueur",
    // options
    options_hint: "Cliquez sur la table, ou choisissez ici :",
    options_none: "Rien à décider pour l’instant.",
    options_spectator: "Vous regardez cette partie.",
    // end of game
    game_over: "Partie terminée",
    you_won: "Vous avez gagné !",
    winner_is: "Vainqueur : {names}",
    winners_shared: "Victoire partagée : {names}",
    tie_break: "Cartes dans la File",
    tie_break_title: "Départage : cartes que chaque joueur contrôle dans la File, recouvertes comprises",
    tie_break_note: "La plus grande Influence l’emporte ; une égalité se départage par les cartes contrôlées dans la File.",
    chart_title: "L’Influence manche par manche",
    chart_start: "début",
    chart_round_axis: "manche",
    play_again: "Rejouer",
    see_table: "Voir la table",
    // colours and bot levels
    colour_red: "Rouge",
    colour_blue: "Bleu",
    colour_green: "Vert",
    colour_yellow: "Jaune",
    colour_purple: "Violet",
    level_easy: "facile",
    level_medium: "moyen",
    level_hard: "difficile",
    level_expert: "expert",
    level_random: "hasard",
    level_note_easy: "Débutant : des coups sensés, un sur trois au hasard",
    level_note_medium: "Gourmand : le meilleur coup pour la manche en cours",
    level_note_hard: "Calcule à l’avance, jusqu’à une seconde et demie par coup",
    level_note_expert: "Calcule plus loin et juge mieux les positions, jusqu’à 2 secondes par coup",
    level_note_random: "Joue n’importe quel coup permis, au hasard",
    // errors
    error_generic: "Une erreur s’est produite.",
    error_network: "Le serveur est injoignable.",
    error_not_your_turn: "Ce n’est pas votre tour.",
    error_illegal_action: "Ce coup n’est pas permis maintenant.",
    error_malformed_action: "Ce coup n’a pas été compris.",
    error_unknown_table: "Cette table n’existe pas (ou plus).",
    error_bad_token: "Ce lien n’est pas valable pour cette table.",
    error_game_over: "La partie est terminée.",
    error_stale: "La partie a avancé : voici la position actuelle.",
    error_too_many_requests: "Trop de requêtes : ralentissez un peu.",
    // lobby
    lobby_title: "Lancer une partie",
    lobby_intro: "Préparez la table, puis envoyez à chaque joueur son lien d’invitation.",
    players_label: "Joueurs",
    cards_label: "Cartes",
    cards_base: "Oriflamme (jeu de base)",
    cards_embrasement: "Embrasement",
    cards_custom: "Au choix : 10 cartes",
    custom_counter: "{n} / 10 choisies",
    variant_label: "Variante à deux joueurs",
    variant_two_families: "Deux familles chacun (officielle)",
    variant_standard: "Une famille chacun",
    edition_label: "Édition",
    edition_revised: "Révisée",
    edition_first: "Première édition",
    first_player_label: "Premier joueur",
    first_random: "Au hasard",
    lang_label: "Langue de la table",
    lang_en: "English",
    lang_fr: "Français",
    seats_label: "Places",
    seat_n: "Place {n}",
    kind_label: "Jouée par",
    seat_human: "Une personne",
    seat_bot: "Un robot",
    name_label: "Nom",
    level_label: "Niveau",
    create_button: "Créer la partie",
    creating: "Création…",
    created_title: "Votre table est prête",
    created_intro: "Envoyez à chacun son propre lien : c’est sa place, qu’il le garde pour lui.",
    invite_link: "Lien d’invitation",
    copy: "Copier",
    copied: "Lien copié",
    copy_failed: "La copie a échoué : sélectionnez le lien et copiez-le à la main.",
    open_link: "Ouvrir",
    played_by_bot: "Jouée par le serveur",
    spectator_link: "Lien spectateur (tout le monde peut regarder)",
    open_my_seat: "Prendre ma place",
    watch_game: "Regarder la partie",
    new_game: "Préparer une autre partie",
    error_name: "Les noms font de 1 à 24 caractères.",
    saved_label: "Reprendre une partie sauvegardée (facultatif)",
    saved_hint: "Un fichier de sauvegarde, de position ou de rejeu (JSON) de ce programme : la partie reprend de là, avec ses propres cartes et joueurs.",
    saved_clear: "L’oublier",
    saved_position: "Partie sauvegardée : {players} joueurs, manche {round}. Choisissez qui joue chaque place.",
    saved_replay: "Rejeu : {players} joueurs, {actions} coups joués. Choisissez qui joue chaque place.",
    error_save_file: "Ce fichier n’est pas une sauvegarde, une position ou un rejeu d’Oriflamme.",
    error_custom_count: "Choisissez exactement 10 types de cartes.",
    error_no_human: "Au moins une place doit être jouée par une personne.",
  },
};

let current = "en";

/** The UI language now in use. */
export function getLang() {
  return current;
}

/** Use `lang` from now on and remember it in localStorage. */
export function setLang(lang) {
  current = LANGS.includes(lang) ? lang : "en";
  try {
    window.localStorage.setItem(STORAGE_KEY, current);
  } catch {
    // Private browsing: the choice lasts for this page only.
  }
  if (typeof document !== "undefined") document.documentElement.lang = current;
}

/** The remembered language, else the browser's, else `fallback`. */
export function initialLang(fallback = "en") {
  try {
    const stored = window.localStorage.getItem(STORAGE_KEY);
    if (LANGS.includes(stored)) return stored;
  } catch {
    // No storage: use the browser's language.
  }
  const browser = (typeof navigator !== "undefined" && navigator.language) || "";
  if (browser.toLowerCase().startsWith("fr")) return "fr";
  return LANGS.includes(fallback) ? fallback : "en";
}

/** The UI string `key` with its `{placeholders}` filled in; the key itself if unknown. */
export function t(key, vars = {}) {
  const table = STRINGS[current] || STRINGS.en;
  const template = table[key] ?? STRINGS.en[key];
  if (template === undefined) return key;
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}

/** Fill the static strings of a page: data-i18n (text), data-i18n-placeholder/-title/-aria-label. */
export function applyI18n(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  const attributes = [
    ["i18nPlaceholder", "placeholder"],
    ["i18nTitle", "title"],
    ["i18nAriaLabel", "aria-label"],
  ];
  for (const [key, attribute] of attributes) {
    const selector = `[data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}]`;
    for (const node of root.querySelectorAll(selector)) node.setAttribute(attribute, t(node.dataset[key]));
  }
}
