// UI strings of the accounts (the front page's account area and /account) in English and
// French. Same layout as i18n.js (one `key: "text",` per line): tests compare the two tables.

import { getLang } from "./i18n.js";
import { errorText } from "./ui.js";

const STRINGS = {
  en: {
    account_region: "Your account",
    sign_in: "Sign in",
    sign_up: "Create an account",
    sign_out: "Sign out",
    signed_in_as: "Signed in as {name}",
    my_account: "My account",
    name_label: "Name",
    password_label: "Password",
    password_help: "At least 8 characters; common passwords are refused.",
    sign_in_title: "Sign in",
    sign_up_title: "Create an account",
    sign_up_intro: "An account keeps your name and your games on any browser. You never need one to play with an invitation link.",
    switch_to_sign_up: "No account yet? Create one",
    switch_to_sign_in: "Already have an account? Sign in",
    passkey_sign_in: "Sign in with a passkey",
    cancel: "Cancel",
    welcome: "Welcome, {name}.",
    signed_out_note: "You are signed out.",
    account_title: "My account",
    account_intro: "Your name, where you are signed in, your passkeys and your data.",
    account_guest: "Sign in or create an account to see this page.",
    back_home: "Back to the tables",
    member_since: "Member since {date}",
    admin_badge: "Administrator",
    sessions_title: "Where you are signed in",
    session_this: "This browser",
    session_since: "Signed in {date}",
    session_seen: "last seen {date}",
    session_end: "Sign out",
    sign_out_everywhere: "Sign out everywhere",
    sign_out_everywhere_done: "Signed out on every browser.",
    passkeys_title: "Passkeys",
    passkeys_intro: "A passkey signs you in with your device’s lock (fingerprint, face, PIN) instead of your password.",
    passkeys_none: "No passkey yet.",
    passkeys_unsupported: "This browser cannot use passkeys.",
    passkey_add: "Add a passkey",
    passkey_label: "Name of the passkey (e.g. “my laptop”)",
    passkey_added: "Passkey added.",
    passkey_remove: "Remove",
    passkey_used: "last used {date}",
    passkey_never_used: "never used",
    password_title: "Change the password",
    password_current: "Current password",
    password_new: "New password",
    password_change: "Change the password",
    password_changed: "Password changed. Your other sessions were signed out.",
    export_title: "Your data",
    export_intro: "Download everything the server keeps about you: your profile, sessions, passkeys, ratings and finished games (as replay records).",
    export_link: "Download my data (JSON)",
    delete_title: "Delete the account",
    delete_intro: "Your account, sessions and passkeys are deleted. In finished and ongoing games your seat stays, shown as “deleted player”; replays stay valid. This cannot be undone.",
    delete_password: "Your password, to confirm",
    delete_button: "Delete my account",
    delete_confirm: "Delete your account for good?",
    deleted: "Your account was deleted.",
    account_name_taken: "An account already has this name, or one that looks the same.",
    passkey_cancelled: "The passkey was not used.",
  },
  fr: {
    account_region: "Votre compte",
    sign_in: "Se connecter",
    sign_up: "Créer un compte",
    sign_out: "Se déconnecter",
    signed_in_as: "Connecté en tant que {name}",
    my_account: "Mon compte",
    name_label: "Nom",
    password_label: "Mot de passe",
    password_help: "Au moins 8 caractères ; les mots de passe courants sont refusés.",
    sign_in_title: "Connexion",
    sign_up_title: "Créer un compte",
    sign_up_intro: "Un compte garde votre nom et vos parties sur n’importe quel navigateur. Il n’en faut jamais pour jouer avec un lien d’invitation.",
    switch_to_sign_up: "Pas encore de compte ? Créez-en un",
    switch_to_sign_in: "Déjà un compte ? Connectez-vous",
    passkey_sign_in: "Se connecter avec une clé d’accès",
    cancel: "Annuler",
    welcome: "Bienvenue, {name}.",
    signed_out_note: "Vous êtes déconnecté.",
    account_title: "Mon compte",
    account_intro: "Votre nom, où vous êtes connecté, vos clés d’accès et vos données.",
    account_guest: "Connectez-vous ou créez un compte pour voir cette page.",
    back_home: "Retour aux tables",
    member_since: "Membre depuis le {date}",
    admin_badge: "Administrateur",
    sessions_title: "Où vous êtes connecté",
    session_this: "Ce navigateur",
    session_since: "Connecté le {date}",
    session_seen: "vu pour la dernière fois le {date}",
    session_end: "Déconnecter",
    sign_out_everywhere: "Se déconnecter partout",
    sign_out_everywhere_done: "Déconnecté de tous les navigateurs.",
    passkeys_title: "Clés d’accès",
    passkeys_intro: "Une clé d’accès vous connecte avec le verrouillage de votre appareil (empreinte, visage, code) au lieu du mot de passe.",
    passkeys_none: "Aucune clé d’accès pour l’instant.",
    passkeys_unsupported: "Ce navigateur ne sait pas utiliser les clés d’accès.",
    passkey_add: "Ajouter une clé d’accès",
    passkey_label: "Nom de la clé (par ex. « mon portable »)",
    passkey_added: "Clé d’accès ajoutée.",
    passkey_remove: "Retirer",
    passkey_used: "utilisée le {date}",
    passkey_never_used: "jamais utilisée",
    password_title: "Changer le mot de passe",
    password_current: "Mot de passe actuel",
    password_new: "Nouveau mot de passe",
    password_change: "Changer le mot de passe",
    password_changed: "Mot de passe changé. Vos autres sessions ont été déconnectées.",
    export_title: "Vos données",
    export_intro: "Téléchargez tout ce que le serveur garde sur vous : profil, sessions, clés d’accès, classements et parties terminées (en enregistrements de partie).",
    export_link: "Télécharger mes données (JSON)",
    delete_title: "Supprimer le compte",
    delete_intro: "Votre compte, vos sessions et vos clés d’accès sont supprimés. Dans les parties terminées ou en cours, votre place reste, affichée « joueur supprimé » ; les rediffusions restent valables. C’est définitif.",
    delete_password: "Votre mot de passe, pour confirmer",
    delete_button: "Supprimer mon compte",
    delete_confirm: "Supprimer votre compte pour de bon ?",
    deleted: "Votre compte a été supprimé.",
    account_name_taken: "Un compte porte déjà ce nom, ou un nom qui lui ressemble.",
    passkey_cancelled: "La clé d’accès n’a pas été utilisée.",
  },
};

/** The account string `key` in the current language, with its `{placeholders}` filled in. */
export function at(key, vars = {}) {
  const table = STRINGS[getLang()] || STRINGS.en;
  const template = table[key] ?? STRINGS.en[key];
  if (template === undefined) return key;
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
}

/** Fill a page's account strings: data-at (text), data-at-placeholder. */
export function applyAccountI18n(root) {
  for (const node of root.querySelectorAll("[data-at]")) node.textContent = at(node.dataset.at);
  for (const node of root.querySelectorAll("[data-at-placeholder]")) {
    node.setAttribute("placeholder", at(node.dataset.atPlaceholder));
  }
}

/** What to tell people about a failed account request, in their language (the server's codes
 * have their texts in i18n.js, as every code's). */
export function accountError(error) {
  if (error && error.name === "NotAllowedError") return at("passkey_cancelled");
  if (error && error.code === "name_taken") return at("account_name_taken");
  return errorText(error);
}

/** A date as people of this language write it. */
export function when(epochSeconds) {
  return new Date(epochSeconds * 1000).toLocaleString(getLang() === "fr" ? "fr-FR" : "en-GB", {
    dateStyle: "medium", timeStyle: "short",
  });
}
