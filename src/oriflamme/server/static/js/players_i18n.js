// UI strings of players across tables (leaderboards, profiles, "My games" of an account, rated
// tables, taking and leaving a seat) in English and French.
// Same layout as i18n.js (one `key: "text",` per line): tests compare the two tables.

import { getLang } from "./i18n.js";

const STRINGS = {
  en: {
    leaderboard_link: "Leaderboard",
    leaderboard_title: "Leaderboard",
    leaderboard_intro: "Ratings of rated games: players and bot levels, the most certain skill first.",
    pool_2p: "2 players (two families)",
    pool_3_5p: "3 to 5 players",
    pool_label: "Player count",
    col_rank: "#",
    col_player: "Player",
    col_rating: "Rating",
    col_games: "Games",
    col_wins: "Wins",
    bot_entry: "Bot ({level})",
    board_empty: "No rated game finished in this pool yet.",
    page_of: "Page {page} of {pages}",
    previous: "Previous",
    next: "Next",
    profile_title: "Player",
    profile_missing: "No player has this name.",
    reputation: "Reputation",
    reputation_value: "{percent}% of games finished",
    reputation_none: "No finished game yet",
    reputation_badge: "{percent}% finished",
    games_finished: "{finished} finished games, {left} left before the end",
    ratings_title: "Ratings",
    no_rating: "No rated game yet.",
    rating_games: "{games} games, {wins} wins",
    chart_title: "Rating, game after game",
    chart_label: "Rating history of {name} ({pool})",
    by_players_title: "Games by player count",
    n_players: "{n} players",
    played_won: "{played} played, {won} won",
    recent_title: "Recent games",
    no_games: "No finished game yet.",
    replay: "Replay",
    result_rank: "Place {rank}",
    result_won: "Won",
    result_left: "Left the game",
    rated_tag: "Rated",
    my_games_account_note: "Your games, from any browser where you are signed in.",
    my_games_ongoing: "Under way",
    my_games_finished: "Finished",
    my_games_none_ongoing: "No game under way.",
    open_game: "Open",
    your_turn_tag: "Your turn",
    rated_label: "Rated game",
    rated_help: "The result changes the players' ratings: a secret deal, no hints, every human seat a signed-in player",
    min_reputation_label: "Minimum reputation to join (%, empty: anyone)",
    your_seat: "You ({name})",
    sign_in_for_rated: "Sign in to create a rated game or to own your seats.",
    take_seat: "Take this seat",
    take_seat_help: "Make this seat yours: it will be in your games on every browser where you sign in.",
    seat_taken_ok: "This seat is now yours.",
    leave_game: "Leave the game",
    leave_confirm: "Leave this game? A bot plays your seat to the end; you rank last and it counts against your reputation.",
    left_ok: "You left the game: a bot plays your seat.",
    left_tag: "left",
    error_reputation_too_low: "This table asks for a higher reputation than yours.",
    error_already_seated: "You already have a seat at this table.",
    error_signed_out: "Sign in first.",
    error_seat_owned: "This seat already belongs to a player.",
    load_error: "Could not load: {message}",
  },
  fr: {
    leaderboard_link: "Classement",
    leaderboard_title: "Classement",
    leaderboard_intro: "Classement des parties classées : joueurs et niveaux de robots, la force la plus sûre d’abord.",
    pool_2p: "2 joueurs (deux familles)",
    pool_3_5p: "3 à 5 joueurs",
    pool_label: "Nombre de joueurs",
    col_rank: "N°",
    col_player: "Joueur",
    col_rating: "Classement",
    col_games: "Parties",
    col_wins: "Victoires",
    bot_entry: "Robot ({level})",
    board_empty: "Aucune partie classée terminée dans cette catégorie pour l’instant.",
    page_of: "Page {page} sur {pages}",
    previous: "Précédente",
    next: "Suivante",
    profile_title: "Joueur",
    profile_missing: "Aucun joueur ne porte ce nom.",
    reputation: "Réputation",
    reputation_value: "{percent} % des parties menées à leur terme",
    reputation_none: "Aucune partie terminée pour l’instant",
    reputation_badge: "{percent} % finies",
    games_finished: "{finished} parties terminées, {left} quittées avant la fin",
    ratings_title: "Classements",
    no_rating: "Aucune partie classée pour l’instant.",
    rating_games: "{games} parties, {wins} victoires",
    chart_title: "Classement, partie après partie",
    chart_label: "Évolution du classement de {name} ({pool})",
    by_players_title: "Parties par nombre de joueurs",
    n_players: "{n} joueurs",
    played_won: "{played} jouées, {won} gagnées",
    recent_title: "Parties récentes",
    no_games: "Aucune partie terminée pour l’instant.",
    replay: "Revoir",
    result_rank: "{rank}e place",
    result_won: "Gagnée",
    result_left: "Partie quittée",
    rated_tag: "Classée",
    my_games_account_note: "Vos parties, depuis tout navigateur où vous êtes connecté.",
    my_games_ongoing: "En cours",
    my_games_finished: "Terminées",
    my_games_none_ongoing: "Aucune partie en cours.",
    open_game: "Ouvrir",
    your_turn_tag: "À vous",
    rated_label: "Partie classée",
    rated_help: "Le résultat change le classement des joueurs : donne secrète, sans conseils, chaque place humaine à un joueur connecté",
    min_reputation_label: "Réputation minimale pour rejoindre (%, vide : tout le monde)",
    your_seat: "Vous ({name})",
    sign_in_for_rated: "Connectez-vous pour créer une partie classée ou garder vos places.",
    take_seat: "Prendre cette place",
    take_seat_help: "Faites de cette place la vôtre : elle sera dans vos parties sur tout navigateur où vous vous connectez.",
    seat_taken_ok: "Cette place est désormais la vôtre.",
    leave_game: "Quitter la partie",
    leave_confirm: "Quitter cette partie ? Un robot joue votre place jusqu’à la fin ; vous finissez dernier et cela compte contre votre réputation.",
    left_ok: "Vous avez quitté la partie : un robot joue votre place.",
    left_tag: "parti",
    error_reputation_too_low: "Cette table demande une réputation plus haute que la vôtre.",
    error_already_seated: "Vous avez déjà une place à cette table.",
    error_signed_out: "Connectez-vous d’abord.",
    error_seat_owned: "Cette place appartient déjà à un joueur.",
    load_error: "Chargement impossible : {message}",
  },
};

/** The string `key` of these pages in the current language, `{placeholders}` filled in. */
export function pt(key, vars = {}) {
  const table = STRINGS[getLang()] || STRINGS.en;
  const template = table[key] ?? STRINGS.en[key];
  if (template === undefined) return key;
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}

/** A share (0–1) as a whole percentage. */
export function percentOf(share) {
  return Math.round((share || 0) * 100);
}

/** The message of a refusal the server answered (its code's text, else the server's words). */
export function refusalText(error) {
  const key = `error_${error && error.code}`;
  const text = pt(key);
  return text === key ? (error && error.message) || String(error) : text;
}
