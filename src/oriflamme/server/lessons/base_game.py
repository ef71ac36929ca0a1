"""The first lesson: a whole game of the base set, three players, the learner as Red.

Every base card acts at least once (the tests check it from the game's log): the learner plays
the Heir, Soldier, Ambush, Conspiracy, Royal Decree and Lord; Blue and Green show the Lord,
Spy, Archer, Shapeshifter, Assassination and an Ambush of their own.
"""

from __future__ import annotations

from .script import Beat, Lesson, Words

W = Words

START = {
    "format": "oriflamme-position",
    "config": {"players": 3, "cards": "base", "first_player": 0},
    "families": {
        "red": {
            "hand": ["heir", "soldier", "ambush", "conspiracy", "lord", "royal_decree",
                     "shapeshifter"],
            "rest": "set_aside",
        },
        "blue": {
            "hand": ["lord", "archer", "assassination", "spy", "heir", "soldier", "conspiracy"],
            "rest": "set_aside",
        },
        "green": {
            "hand": ["spy", "shapeshifter", "royal_decree", "ambush", "archer", "lord", "heir"],
            "rest": "set_aside",
        },
    },
}

BEATS = (
    # -- round 1 ------------------------------------------------------------------------------
    Beat(
        title=W("Welcome to Oriflamme", "Bienvenue dans Oriflamme"),
        text=W(
            "The king is dead, and the great families fight for the crown. You play Red, "
            "against two bots: Blue and Green.\n\n"
            "The game lasts 6 rounds. Whoever has the most Influence at the end wins. "
            "Everyone starts with 1 Influence.",
            "Le roi est mort, et les grandes familles se disputent la couronne. Vous jouez "
            "Rouge, contre deux robots : Bleu et Vert.\n\n"
            "La partie dure 6 manches. Qui a le plus d’Influence à la fin gagne. Chacun "
            "commence avec 1 Influence.",
        ),
        focus=("players",),
    ),
    Beat(
        title=W("Your hand", "Votre main"),
        text=W(
            "These 7 cards belong to your family. Each card has an ability, written on it: "
            "point at a card (or press and hold it on a phone) to read it.\n\n"
            "Three more of your cards were set aside at random: nobody will play them. Each "
            "round you place one card, so after 6 rounds one card stays in your hand.",
            "Ces 7 cartes sont celles de votre famille. Chaque carte a une capacité, écrite "
            "dessus : survolez une carte (ou appuyez longuement dessus sur un téléphone) pour "
            "la lire.\n\n"
            "Trois autres de vos cartes ont été mises de côté au hasard : personne ne les "
            "jouera. Vous posez une carte par manche : après 6 manches, il vous en restera une.",
        ),
        focus=("hand",),
    ),
    Beat(
        title=W("The Queue", "La File"),
        text=W(
            "In the middle of the table is the Queue: a row of cards that everyone adds to. "
            "Each round has two phases. First everyone places one card in the Queue. Then the "
            "Queue resolves: its cards act one after the other, from the front to the end.",
            "Au centre de la table se trouve la File : une rangée de cartes que chacun "
            "complète. Chaque manche a deux phases. D’abord chacun pose une carte dans la File. "
            "Puis la File se résout : ses cartes agissent l’une après l’autre, du début à la "
            "fin.",
        ),
        focus=("queue",),
    ),
    Beat(
        title=W("Place your first card", "Posez votre première carte"),
        text=W(
            "You are the first player of this round, and the Queue is empty. Click your Heir, "
            "then the highlighted place in the Queue.\n\n"
            "Cards are placed face down: the others will not know what it is until you reveal "
            "it.",
            "Vous êtes le premier joueur de cette manche, et la File est vide. Cliquez sur "
            "votre Héritier, puis sur l’emplacement mis en évidence dans la File.\n\n"
            "Les cartes se posent face cachée : les autres ne sauront pas ce que c’est tant "
            "que vous ne l’aurez pas révélée.",
        ),
        expect="place red:heir end",
        stray=W(
            "Start with the Heir: its ability is simple, it gains 2 Influence. Click the Heir "
            "first.",
            "Commencez par l’Héritier : sa capacité est simple, il gagne 2 Influence. Cliquez "
            "d’abord sur l’Héritier.",
        ),
    ),
    Beat(
        title=W("The others place their cards", "Les autres posent leurs cartes"),
        text=W(
            "Blue placed a card at the front of the Queue, Green one at the end. A card goes "
            "at either end of the Queue, never between two cards.\n\n"
            "Their cards are face down: you cannot see them. The back only shows the family.",
            "Bleu a posé une carte au début de la File, Vert une à la fin. Une carte se pose à "
            "l’un des deux bouts de la File, jamais entre deux cartes.\n\n"
            "Leurs cartes sont face cachée : vous ne les voyez pas. Le dos ne montre que la "
            "famille.",
        ),
        bots=("place blue:lord front", "place green:spy end"),
        focus=("queue",),
    ),
    Beat(
        title=W("Resolution: from the front to the end", "Résolution : du début à la fin"),
        text=W(
            "Everyone has placed a card: the Queue resolves, starting at the front. The arrow "
            "above the Queue marks the card being resolved.\n\n"
            "The owner of a face-down card chooses: reveal it, or leave it face down and put 1 "
            "Influence token on it. Blue left its card face down: it now holds 1 token. "
            "Whoever reveals a card later takes the tokens on it.",
            "Tout le monde a posé : la File se résout, en commençant par le début. La flèche "
            "au-dessus de la File montre la carte en cours de résolution.\n\n"
            "Le propriétaire d’une carte face cachée choisit : la révéler, ou la laisser face "
            "cachée et poser 1 jeton d’Influence dessus. Bleu a laissé sa carte face cachée : "
            "elle porte maintenant 1 jeton. Qui révèle une carte plus tard prend les jetons "
            "posés dessus.",
        ),
        bots=("leave blue:lord",),
        focus=("queue", "blue:lord"),
    ),
    Beat(
        title=W("Reveal your Heir", "Révélez votre Héritier"),
        text=W(
            "The arrow is on your Heir. Reveal it: its ability applies at once. The Heir gains "
            "2 Influence, unless another Heir is already face up in the Queue.",
            "La flèche est sur votre Héritier. Révélez-le : sa capacité s’applique aussitôt. "
            "L’Héritier gagne 2 Influence, sauf si un autre Héritier est déjà face visible "
            "dans la File.",
        ),
        expect="reveal red:heir",
        stray=W(
            "Left face down, your Heir would get a token but would not act this round. Reveal "
            "it to see an ability at work.",
            "Laissé face cachée, votre Héritier recevrait un jeton mais n’agirait pas cette "
            "manche. Révélez-le pour voir une capacité à l’œuvre.",
        ),
    ),
    Beat(
        title=W("Green's Spy", "L’Espion de Vert"),
        text=W(
            "Your Heir gained 2. Then Green revealed its card: a Spy. A Spy steals 1 Influence "
            "from a player who has a card next to it. Only your Heir was next to it, so Green "
            "took 1 from you.",
            "Votre Héritier a gagné 2. Puis Vert a révélé sa carte : un Espion. Un Espion vole "
            "1 Influence à un joueur qui a une carte à côté de lui. Seul votre Héritier était "
            "à côté : Vert vous a pris 1.",
        ),
        bots=("reveal green:spy", "player 0"),
        focus=("players", "green:spy"),
    ),
    Beat(
        title=W("The end of a round", "La fin d’une manche"),
        text=W(
            "Every card has resolved: round 1 is over. The cards stay in the Queue. A face-up "
            "card acts again each round when the arrow reaches it: your Heir will gain 2 "
            "again, and Green's Spy will steal again.\n\n"
            "The first player changes each round: now it is Blue.",
            "Toutes les cartes ont été résolues : la manche 1 est finie. Les cartes restent "
            "dans la File. Une carte face visible agit de nouveau à chaque manche quand la "
            "flèche l’atteint : votre Héritier regagnera 2, et l’Espion de Vert volera encore."
            "\n\n"
            "Le premier joueur change à chaque manche : c’est maintenant Bleu.",
        ),
        focus=("queue",),
    ),
    # -- round 2 ------------------------------------------------------------------------------
    Beat(
        title=W("Stack a card on your own", "Posez une carte sur la vôtre"),
        text=W(
            "Blue placed a card at the end, Green one at the front. From round 2 on, you may "
            "also place a card on top of one of your own cards in the Queue.\n\n"
            "Place your Soldier on your Heir. Only the top card of a stack is in play: your "
            "Heir is covered, it will not act, but it is safe. And your Soldier stands right "
            "next to Green's Spy.",
            "Bleu a posé une carte à la fin, Vert une au début. À partir de la manche 2, vous "
            "pouvez aussi poser une carte sur l’une de vos cartes de la File.\n\n"
            "Posez votre Soldat sur votre Héritier. Seule la carte du dessus d’une pile est en "
            "jeu : votre Héritier est recouvert, il n’agira pas, mais il est protégé. Et votre "
            "Soldat se trouve juste à côté de l’Espion de Vert.",
        ),
        bots=("place blue:archer end", "place green:royal_decree front"),
        expect="place red:soldier on red:heir",
        stray=W(
            "Put the Soldier on your Heir: from there it can reach Green's Spy. At either end "
            "of the Queue it would be too far.",
            "Posez le Soldat sur votre Héritier : de là, il atteint l’Espion de Vert. À un "
            "bout de la File, il serait trop loin.",
        ),
    ),
    Beat(
        title=W("Tokens and the Lord", "Les jetons et le Seigneur"),
        text=W(
            "Green left its front card face down: 1 token on it. Blue revealed its card, a "
            "Lord: Blue first took the token left on it in round 1, then the Lord gained 1 "
            "Influence, plus 1 for each card of Blue's family next to it (none here).",
            "Vert a laissé sa carte du début face cachée : 1 jeton dessus. Bleu a révélé sa "
            "carte, un Seigneur : Bleu a d’abord pris le jeton posé dessus à la manche 1, puis "
            "le Seigneur a gagné 1 Influence, plus 1 par carte de la famille de Bleu à côté de "
            "lui (aucune ici).",
        ),
        bots=("leave green:royal_decree", "reveal blue:lord"),
        focus=("blue:lord",),
    ),
    Beat(
        title=W("Reveal your Soldier", "Révélez votre Soldat"),
        text=W(
            "The arrow is on your stack. Only its top card counts: your Soldier. Reveal it.",
            "La flèche est sur votre pile. Seule sa carte du dessus compte : votre Soldat. "
            "Révélez-le.",
        ),
        expect="reveal red:soldier",
        stray=W(
            "Reveal the Soldier: it will eliminate a card next to it.",
            "Révélez le Soldat : il va éliminer une carte à côté de lui.",
        ),
    ),
    Beat(
        title=W("Eliminate a card", "Éliminez une carte"),
        text=W(
            "A Soldier must eliminate a card next to it: Blue's Lord or Green's Spy. Eliminate "
            "the Spy, which stole from you. Each elimination gives you 1 Influence.",
            "Un Soldat doit éliminer une carte à côté de lui : le Seigneur de Bleu ou l’Espion "
            "de Vert. Éliminez l’Espion, qui vous a volé. Chaque élimination vous rapporte 1 "
            "Influence.",
        ),
        expect="target green:spy",
        stray=W(
            "The Lord would be a fair target too, but the Spy would steal from you every round. "
            "Eliminate the Spy.",
            "Le Seigneur serait aussi une bonne cible, mais l’Espion vous volerait à chaque "
            "manche. Éliminez l’Espion.",
        ),
    ),
    Beat(
        title=W("Blue's Archer", "L’Archer de Bleu"),
        text=W(
            "Blue revealed an Archer. An Archer eliminates the first or the last card of the "
            "Queue. Blue chose Green's face-down card: a Royal Decree. A card eliminated face "
            "down never acts, and its tokens are lost.\n\n"
            "Round 2 is over.",
            "Bleu a révélé un Archer. Un Archer élimine la première ou la dernière carte de la "
            "File. Bleu a choisi la carte face cachée de Vert : un Décret royal. Une carte "
            "éliminée face cachée n’agit jamais, et ses jetons sont perdus.\n\n"
            "La manche 2 est finie.",
        ),
        bots=("reveal blue:archer", "target green:royal_decree"),
        focus=("blue:archer", "players"),
    ),
    # -- round 3 ------------------------------------------------------------------------------
    Beat(
        title=W("Set a trap", "Tendez un piège"),
        text=W(
            "Round 3: Green is first and placed a card at the end. Your turn: place your Ambush "
            "at the front of the Queue.\n\n"
            "An Ambush is a trap. If an opponent's card eliminates it, that card is discarded "
            "and you gain 4 Influence.",
            "Manche 3 : Vert commence et a posé une carte à la fin. À vous : posez votre "
            "Embuscade au début de la File.\n\n"
            "Une Embuscade est un piège. Si une carte adverse l’élimine, cette carte est "
            "défaussée et vous gagnez 4 Influence.",
        ),
        bots=("place green:shapeshifter end",),
        expect="place red:ambush front",
        stray=W(
            "Put the Ambush at the front: Blue's Archer strikes the first or the last card of "
            "the Queue, so that is where it may bite.",
            "Posez l’Embuscade au début : l’Archer de Bleu frappe la première ou la dernière "
            "carte de la File, c’est donc là qu’elle peut mordre.",
        ),
    ),
    Beat(
        title=W("Leave it face down", "Laissez-la face cachée"),
        text=W(
            "Blue placed its card at the end, and the Queue resolves. Your Ambush is under the "
            "arrow. Leave it face down: revealed, an Ambush only gains 1 Influence. Face down, "
            "it waits for an attacker.",
            "Bleu a posé sa carte à la fin, et la File se résout. Votre Embuscade est sous la "
            "flèche. Laissez-la face cachée : révélée, une Embuscade ne rapporte que 1 "
            "Influence. Face cachée, elle attend un attaquant.",
        ),
        bots=("place blue:assassination end",),
        expect="leave red:ambush",
        stray=W(
            "Revealing the Ambush would give you 1 Influence, and the trap would be gone. "
            "Leave it face down.",
            "Révéler l’Embuscade vous donnerait 1 Influence, et le piège disparaîtrait. "
            "Laissez-la face cachée.",
        ),
    ),
    Beat(
        title=W("Your Soldier acts again", "Votre Soldat agit de nouveau"),
        text=W(
            "Blue's Lord gained 1 again. Now your Soldier, face up, must act again: it always "
            "eliminates a card next to it. Eliminate Blue's Lord, and spare Blue's Archer.",
            "Le Seigneur de Bleu a regagné 1. Votre Soldat, face visible, doit agir de "
            "nouveau : il élimine toujours une carte à côté de lui. Éliminez le Seigneur de "
            "Bleu, et épargnez l’Archer de Bleu.",
        ),
        expect="target blue:lord",
        stray=W(
            "Keep the Archer in play: it must eliminate the first or the last card of the "
            "Queue, and the first one is your Ambush. Eliminate the Lord.",
            "Gardez l’Archer en jeu : il doit éliminer la première ou la dernière carte de la "
            "File, et la première est votre Embuscade. Éliminez le Seigneur.",
        ),
    ),
    Beat(
        title=W("Caught in the Ambush!", "Pris dans l’Embuscade !"),
        text=W(
            "Blue's Archer chose your face-down card, and it was your Ambush. Blue gains 1 for "
            "the elimination, but its Archer is discarded, and you gain 4.\n\n"
            "This is the risk of attacking a face-down card: it may be an Ambush.",
            "L’Archer de Bleu a choisi votre carte face cachée, et c’était votre Embuscade. "
            "Bleu gagne 1 pour l’élimination, mais son Archer est défaussé, et vous gagnez 4."
            "\n\n"
            "C’est le risque quand on attaque une carte face cachée : ce peut être une "
            "Embuscade.",
        ),
        bots=("target red:ambush",),
        focus=("players", "log"),
    ),
    Beat(
        title=W("Green's Shapeshifter", "Le Changeforme de Vert"),
        text=W(
            "Green revealed a Shapeshifter. It copies the ability of a face-up Character next "
            "to it: your Soldier. As a Soldier, it eliminated... your Soldier.\n\n"
            "But your stack protected your Heir: it is uncovered and back in play. It came "
            "back before the arrow, so it will act next round, not this one.",
            "Vert a révélé un Changeforme. Il copie la capacité d’un Personnage face visible à "
            "côté de lui : votre Soldat. En Soldat, il a éliminé... votre Soldat.\n\n"
            "Mais votre pile a protégé votre Héritier : il est découvert et de retour en jeu. "
            "Il est revenu avant la flèche : il agira à la prochaine manche, pas à celle-ci.",
        ),
        bots=("reveal green:shapeshifter", "target red:soldier", "target red:soldier"),
        focus=("green:shapeshifter", "red:heir"),
    ),
    Beat(
        title=W("Blue's Assassination", "L’Assassinat de Bleu"),
        text=W(
            "Blue revealed an Assassination: it eliminates any card of the Queue. Blue chose "
            "Green's Shapeshifter.\n\n"
            "The Assassination is an Intrigue: Intrigues are discarded once they have acted. "
            "Characters, like your Heir, stay in the Queue.",
            "Bleu a révélé un Assassinat : il élimine n’importe quelle carte de la File. Bleu "
            "a choisi le Changeforme de Vert.\n\n"
            "L’Assassinat est une Intrigue : les Intrigues sont défaussées après avoir agi. "
            "Les Personnages, comme votre Héritier, restent dans la File.",
        ),
        bots=("reveal blue:assassination", "target green:shapeshifter"),
        focus=("queue", "players"),
    ),
    # -- round 4 ------------------------------------------------------------------------------
    Beat(
        title=W("A Conspiracy", "Un Complot"),
        text=W(
            "Round 4, and you are first. Place your Conspiracy at the end of the Queue.\n\n"
            "When revealed, a Conspiracy gains twice the tokens on it. So you will leave it "
            "face down for a while, to collect tokens.",
            "Manche 4, et vous commencez. Posez votre Complot à la fin de la File.\n\n"
            "Révélé, un Complot rapporte le double des jetons posés dessus. Vous allez donc le "
            "laisser face cachée un moment, pour amasser des jetons.",
        ),
        expect="place red:conspiracy end",
        stray=W(
            "For this lesson, put the Conspiracy at the end of the Queue.",
            "Pour cette leçon, posez le Complot à la fin de la File.",
        ),
    ),
    Beat(
        title=W("A Spy next to your Heir", "Un Espion à côté de votre Héritier"),
        text=W(
            "Blue and Green placed their cards. Blue revealed a Spy next to your Heir and stole "
            "1 from you. Then your Heir acted: face up, it gains 2 every round.",
            "Bleu et Vert ont posé leurs cartes. Bleu a révélé un Espion à côté de votre "
            "Héritier et vous a volé 1. Puis votre Héritier a agi : face visible, il gagne 2 à "
            "chaque manche.",
        ),
        bots=("place blue:spy front", "place green:ambush end", "reveal blue:spy", "player 0"),
        focus=("blue:spy", "red:heir"),
    ),
    Beat(
        title=W("Collect tokens", "Amassez des jetons"),
        text=W(
            "Your Conspiracy is under the arrow. Leave it face down: it gets 1 token. Revealed "
            "later with 2 tokens, it will give you 2 + 2 = 4 Influence.",
            "Votre Complot est sous la flèche. Laissez-le face cachée : il reçoit 1 jeton. "
            "Révélé plus tard avec 2 jetons, il vous rapportera 2 + 2 = 4 Influence.",
        ),
        expect="leave red:conspiracy",
        stray=W(
            "Revealed now, the Conspiracy would give nothing: it holds no token yet. Leave it "
            "face down.",
            "Révélé maintenant, le Complot ne rapporterait rien : il n’a encore aucun jeton. "
            "Laissez-le face cachée.",
        ),
    ),
    # -- round 5 ------------------------------------------------------------------------------
    Beat(
        title=W("A Royal Decree", "Un Décret royal"),
        text=W(
            "Green left its card face down, and round 5 began: Blue and Green placed theirs. "
            "Blue's Spy, next to your Heir, will steal from you again.\n\n"
            "Place your Royal Decree at the front of the Queue: it will act first, and move "
            "the Spy away.",
            "Vert a laissé sa carte face cachée, et la manche 5 a commencé : Bleu et Vert ont "
            "posé les leurs. L’Espion de Bleu, à côté de votre Héritier, va encore vous voler."
            "\n\n"
            "Posez votre Décret royal au début de la File : il agira le premier, et éloignera "
            "l’Espion.",
        ),
        bots=("leave green:ambush", "place blue:soldier end", "place green:lord front"),
        expect="place red:royal_decree front",
        stray=W(
            "Put the Royal Decree at the front: it must act before the Spy does.",
            "Posez le Décret royal au début : il doit agir avant l’Espion.",
        ),
    ),
    Beat(
        title=W("Reveal the Royal Decree", "Révélez le Décret royal"),
        text=W(
            "Reveal it. A Royal Decree moves one card to another place of the Queue: between "
            "two stacks or at an end, never onto a card. Then it is discarded.",
            "Révélez-le. Un Décret royal déplace une carte ailleurs dans la File : entre deux "
            "piles ou à un bout, jamais sur une carte. Puis il est défaussé.",
        ),
        expect="reveal red:royal_decree",
        stray=W(
            "Reveal the Royal Decree: left face down, it would do nothing this round.",
            "Révélez le Décret royal : laissé face cachée, il ne ferait rien cette manche.",
        ),
    ),
    Beat(
        title=W("Choose the card to move", "Choisissez la carte à déplacer"),
        text=W("Choose Blue's Spy.", "Choisissez l’Espion de Bleu."),
        expect="target blue:spy",
        stray=W(
            "This lesson moves Blue's Spy: choose it.",
            "Cette leçon déplace l’Espion de Bleu : choisissez-le.",
        ),
    ),
    Beat(
        title=W("Choose where", "Choisissez où"),
        text=W(
            "Move the Spy to the very front, before the arrow. A card moved before the arrow "
            "does not act this round; a card moved after it acts when the arrow gets there, "
            "even a second time.\n\n"
            "There, the Spy is no longer next to your Heir.",
            "Déplacez l’Espion tout au début, avant la flèche. Une carte déplacée avant la "
            "flèche n’agit pas cette manche ; une carte déplacée après elle agit quand la "
            "flèche l’atteint, même une seconde fois.\n\n"
            "Là, l’Espion n’est plus à côté de votre Héritier.",
        ),
        expect="move blue:spy gap 0",
        stray=W(
            "Move it to the front of the Queue: before the arrow, it will not act this round.",
            "Déplacez-le au début de la File : avant la flèche, il n’agira pas cette manche.",
        ),
    ),
    Beat(
        title=W("Patience", "Patience"),
        text=W(
            "Green revealed a Lord: it gained 1 (no green card next to it). Your Heir gained 2."
            "\n\n"
            "Your Conspiracy is under the arrow again. Leave it face down once more, for a "
            "second token.",
            "Vert a révélé un Seigneur : il a gagné 1 (aucune carte verte à côté). Votre "
            "Héritier a gagné 2.\n\n"
            "Votre Complot est de nouveau sous la flèche. Laissez-le encore face cachée, pour "
            "un deuxième jeton.",
        ),
        bots=("reveal green:lord",),
        expect="leave red:conspiracy",
        stray=W(
            "With 1 token it would give 2. Wait one more round: with 2 tokens it gives 4.",
            "Avec 1 jeton, il rapporterait 2. Attendez une manche de plus : avec 2 jetons, il "
            "rapporte 4.",
        ),
    ),
    Beat(
        title=W("Blue falls into Green's Ambush", "Bleu tombe dans l’Embuscade de Vert"),
        text=W(
            "Green left its end card face down again. Blue revealed a Soldier and eliminated "
            "that card: it was Green's Ambush! Blue gains 1, its Soldier is discarded, and "
            "Green gains 4.\n\n"
            "A face-down card that collects tokens round after round is often a trap.",
            "Vert a encore laissé sa carte de fin face cachée. Bleu a révélé un Soldat et a "
            "éliminé cette carte : c’était l’Embuscade de Vert ! Bleu gagne 1, son Soldat est "
            "défaussé, et Vert gagne 4.\n\n"
            "Une carte face cachée qui amasse des jetons manche après manche est souvent un "
            "piège.",
        ),
        bots=("leave green:ambush", "reveal blue:soldier", "target green:ambush"),
        focus=("players", "log"),
    ),
    # -- round 6 ------------------------------------------------------------------------------
    Beat(
        title=W("The last round: a Lord", "La dernière manche : un Seigneur"),
        text=W(
            "Round 6, the last one. Green placed a card at the front. Place your Lord at the "
            "end, next to your Conspiracy.\n\n"
            "A Lord gains 1 Influence, plus 1 for each card of your family next to it.",
            "Manche 6, la dernière. Vert a posé une carte au début. Posez votre Seigneur à la "
            "fin, à côté de votre Complot.\n\n"
            "Un Seigneur gagne 1 Influence, plus 1 par carte de votre famille à côté de lui.",
        ),
        bots=("place green:archer front",),
        expect="place red:lord end",
        stray=W(
            "At the end, the Lord stands next to one of your cards: it will gain more. Place it "
            "at the end.",
            "À la fin, le Seigneur est à côté de l’une de vos cartes : il gagnera plus. "
            "Posez-le à la fin.",
        ),
    ),
    Beat(
        title=W("The last resolution", "La dernière résolution"),
        text=W(
            "Blue placed a card at the end. Green revealed an Archer and eliminated it: a "
            "face-down Heir. Blue's Spy, now far from your cards, stole from Green. Green's "
            "Lord gained 1, and your Heir 2.",
            "Bleu a posé une carte à la fin. Vert a révélé un Archer et l’a éliminée : un "
            "Héritier face cachée. L’Espion de Bleu, désormais loin de vos cartes, a volé Vert. "
            "Le Seigneur de Vert a gagné 1, et votre Héritier 2.",
        ),
        bots=("place blue:heir end", "reveal green:archer", "target blue:heir", "player 2"),
        focus=("queue", "log"),
    ),
    Beat(
        title=W("Reveal the Conspiracy", "Révélez le Complot"),
        text=W(
            "Now reveal your Conspiracy: you take its 2 tokens, and it gains twice that: 4 "
            "Influence in all. Then it is discarded.",
            "Révélez maintenant votre Complot : vous prenez ses 2 jetons, et il rapporte le "
            "double : 4 Influence en tout. Puis il est défaussé.",
        ),
        expect="reveal red:conspiracy",
        stray=W(
            "This is the last round: a card still face down at the end gains nothing. Reveal "
            "it.",
            "C’est la dernière manche : une carte encore face cachée à la fin ne rapporte "
            "rien. Révélez-le.",
        ),
    ),
    Beat(
        title=W("Reveal the Lord", "Révélez le Seigneur"),
        text=W(
            "Reveal your Lord. Your Conspiracy is gone, so your Heir is now its neighbour: "
            "1 + 1 = 2 Influence.",
            "Révélez votre Seigneur. Votre Complot est parti, votre Héritier est donc "
            "maintenant son voisin : 1 + 1 = 2 Influence.",
        ),
        expect="reveal red:lord",
        stray=W(
            "Reveal it: the game ends after this round, and tokens left on cards count for "
            "nothing.",
            "Révélez-le : la partie se termine après cette manche, et les jetons restés sur "
            "les cartes ne comptent pas.",
        ),
    ),
    Beat(
        title=W("The end of the game", "La fin de la partie"),
        text=W(
            "After the 6th round the game is over. Your last card, the Shapeshifter, stays in "
            "your hand: it is never played. Tokens left on cards are lost.\n\n"
            "The most Influence wins; in a tie, whoever has the most cards in the Queue. You "
            "won, with 19 Influence. Well played!",
            "Après la 6e manche, la partie est finie. Votre dernière carte, le Changeforme, "
            "reste dans votre main : elle n’est jamais jouée. Les jetons restés sur les cartes "
            "sont perdus.\n\n"
            "Qui a le plus d’Influence gagne ; en cas d’égalité, celui qui a le plus de cartes "
            "dans la File. Vous avez gagné, avec 19 Influence. Bien joué !",
        ),
        focus=("players",),
    ),
)

LESSON = Lesson(
    id="base",
    title=W("Your first game", "Votre première partie"),
    summary=W(
        "A whole game of Oriflamme against two bots: placing cards, the Queue, tokens, and "
        "every card of the base game. About 15 minutes.",
        "Une partie complète d’Oriflamme contre deux robots : poser ses cartes, la File, les "
        "jetons, et toutes les cartes du jeu de base. Environ 15 minutes.",
    ),
    start=START,
    seat=0,
    names=(W("You", "Vous"), W("Blue", "Bleu"), W("Green", "Vert")),
    beats=BEATS,
    real_game={"players": 3, "cards": "base", "bots": "easy", "hints": True},
)
