"""The second lesson: the Embrasement cards and the two-player game (two families each).

It joins a game already under way, at round 5, so that the last two rounds show every
Embrasement card (the tests check it from the game's log): the learner, Red and Green, plays
the Schemer, Trap, Machination, Prince and Twin, Usurpation and Corruption; the bot, Blue and
Yellow, the Felon, Queen, Cutthroat and Apothecary.
"""

from __future__ import annotations

from .script import Beat, Lesson, Words

W = Words

#: Round 5 of a two-player game: the Queue of rounds 1 to 4, each family's cards where those
#: rounds left them (8 placed per player), one card left in each draw pile.
START = {
    "format": "oriflamme-position",
    "config": {"players": 2, "cards": "embrasement", "variant": "two-families",
               "first_player": 0},
    "round": 5,
    "first_player": 0,
    "influence": [7, 8],
    "scores_by_round": [[2, 1], [3, 4], [5, 5], [7, 8]],
    "queue": [
        ["yellow:felon*"],
        ["red:queen*"],
        ["blue:cutthroat+1"],
        ["green:queen*"],
        ["green:trap+1"],
        ["blue:apothecary*"],
        ["green:machination+1"],
    ],
    "families": {
        "red": {
            "hand": ["prince", "apothecary"],
            "pile": ["corruption"],
            "set_aside": ["trap", "usurpation", "machination"],
            "eliminated": ["felon", "cutthroat"],
            "discarded": ["schemer"],
        },
        "green": {
            "hand": ["schemer", "cutthroat"],
            "pile": ["usurpation"],
            "set_aside": ["felon", "prince", "apothecary"],
            "discarded": ["corruption"],
        },
        "blue": {
            "hand": ["queen", "usurpation"],
            "pile": ["trap"],
            "set_aside": ["felon", "prince", "machination"],
            "eliminated": ["schemer"],
            "discarded": ["corruption"],
        },
        "yellow": {
            "hand": ["schemer", "corruption"],
            "pile": ["cutthroat"],
            "set_aside": ["queen", "trap", "machination"],
            "eliminated": ["apothecary", "prince"],
            "discarded": ["usurpation"],
        },
    },
}

BEATS = (
    Beat(
        title=W("Embrasement, for two", "Embrasement, à deux"),
        text=W(
            "This lesson joins a two-player game at round 5, to show the cards of Oriflamme "
            "Embrasement. You play two families, Red and Green; the bot plays Blue and Yellow."
            "\n\n"
            "Your two families share your Influence: whatever either of them gains is yours.",
            "Cette leçon rejoint une partie à deux joueurs à la manche 5, pour montrer les "
            "cartes d’Oriflamme Embrasement. Vous jouez deux familles, Rouge et Vert ; le robot "
            "joue Bleu et Jaune.\n\n"
            "Vos deux familles partagent votre Influence : ce que l’une ou l’autre gagne est à "
            "vous.",
        ),
        focus=("players",),
    ),
    Beat(
        title=W("Two families each", "Deux familles chacun"),
        text=W(
            "Each round you place two cards, taking turns: you, the bot, you, the bot. A stack "
            "never mixes families: a red card goes only on a red card.\n\n"
            "Your two families even count as opponents to each other for the abilities. Only "
            "a Trap (like an Ambush) ignores them: it strikes back at the other player alone.",
            "À chaque manche vous posez deux cartes, à tour de rôle : vous, le robot, vous, le "
            "robot. Une pile ne mélange jamais les familles : une carte rouge ne va que sur "
            "une carte rouge.\n\n"
            "Vos deux familles sont même adverses l’une de l’autre pour les capacités. Seul un "
            "Guet-apens (comme une Embuscade) les ignore : il ne riposte que contre l’autre "
            "joueur.",
        ),
        focus=("queue", "hand"),
    ),
    Beat(
        title=W("Place your Prince", "Posez votre Prince"),
        text=W(
            "Your hand holds cards of both families. Place your red Prince at the end of the "
            "Queue. When revealed, a Prince brings its Twin into the Queue.",
            "Votre main contient des cartes des deux familles. Posez votre Prince rouge à la "
            "fin de la File. Révélé, un Prince fait entrer son Jumeau dans la File.",
        ),
        expect="place red:prince end",
        stray=W(
            "Start with the red Prince, at the end of the Queue.",
            "Commencez par le Prince rouge, à la fin de la File.",
        ),
    ),
    Beat(
        title=W("Your second card", "Votre deuxième carte"),
        text=W(
            "The bot placed a yellow card at the end. Now place your second card: the green "
            "Schemer, at the front.\n\n"
            "A Schemer gains 2 Influence, unless a stack of two or more cards is next to it: "
            "then it is discarded.",
            "Le robot a posé une carte jaune à la fin. Posez maintenant votre deuxième carte : "
            "l’Intrigante verte, au début.\n\n"
            "Une Intrigante gagne 2 Influence, sauf si une pile de deux cartes ou plus est à "
            "côté d’elle : elle est alors défaussée.",
        ),
        bots=("place yellow:schemer end",),
        expect="place green:schemer front",
        stray=W(
            "Place the green Schemer at the front: no stack stands next to it there.",
            "Posez l’Intrigante verte au début : aucune pile n’est à côté d’elle là-bas.",
        ),
    ),
    Beat(
        title=W("Reveal the Schemer", "Révélez l’Intrigante"),
        text=W(
            "The bot placed its second card, and the Queue resolves from the front. Reveal "
            "your Schemer: no stack is next to it, so it gains 2.",
            "Le robot a posé sa deuxième carte, et la File se résout depuis le début. Révélez "
            "votre Intrigante : aucune pile n’est à côté d’elle, elle gagne donc 2.",
        ),
        bots=("place blue:queen end",),
        expect="reveal green:schemer",
        stray=W(
            "Reveal the Schemer: it will gain 2 Influence.",
            "Révélez l’Intrigante : elle va gagner 2 Influence.",
        ),
    ),
    Beat(
        title=W("The Felon and the Queen", "Le Félon et la Reine"),
        text=W(
            "Yellow's Felon acted: each player loses 1 Influence for each card of their "
            "families next to it. Your Schemer and your red Queen are its neighbours: you lost "
            "2.\n\n"
            "Then your red Queen acted: a Queen gains 2.",
            "Le Félon jaune a agi : chaque joueur perd 1 Influence par carte de ses familles à "
            "côté de lui. Votre Intrigante et votre Reine rouge sont ses voisines : vous avez "
            "perdu 2.\n\n"
            "Puis votre Reine rouge a agi : une Reine gagne 2.",
        ),
        focus=("yellow:felon", "red:queen", "log"),
    ),
    Beat(
        title=W("The Cutthroat", "Le Coupe-jarret"),
        text=W(
            "The bot revealed a blue Cutthroat. It eliminated your red Queen, and with it every "
            "face-up card of the same name of its opponents: your green Queen too!\n\n"
            "A Cutthroat that eliminates a single card gains nothing for it; here it gained 1 "
            "per card. And whoever eliminates an opponent's Queen gains 1 more.",
            "Le robot a révélé un Coupe-jarret bleu. Il a éliminé votre Reine rouge, et avec "
            "elle toutes les cartes face visible du même nom de ses adversaires : votre Reine "
            "verte aussi !\n\n"
            "Un Coupe-jarret qui n’élimine qu’une carte ne gagne rien pour elle ; ici il a "
            "gagné 1 par carte. Et qui élimine la Reine d’un adversaire gagne 1 de plus.",
        ),
        bots=("reveal blue:cutthroat", "target red:queen"),
        focus=("blue:cutthroat", "players"),
    ),
    Beat(
        title=W("Your Trap", "Votre Guet-apens"),
        text=W(
            "Your green Trap, face down, is under the arrow. Leave it face down. If an "
            "opponent's card eliminates it, that card is discarded and you steal 3 Influence "
            "from its player.",
            "Votre Guet-apens vert, face cachée, est sous la flèche. Laissez-le face cachée. "
            "Si une carte adverse l’élimine, cette carte est défaussée et vous volez 3 "
            "Influence à son joueur.",
        ),
        expect="leave green:trap",
        stray=W(
            "A revealed Trap only gains 1. Leave it face down: the blue Apothecary is right "
            "next to it.",
            "Un Guet-apens révélé ne rapporte que 1. Laissez-le face cachée : l’Apothicaire "
            "bleu est juste à côté.",
        ),
    ),
    Beat(
        title=W("The Apothecary falls into the Trap", "L’Apothicaire tombe dans le Guet-apens"),
        text=W(
            "The blue Apothecary eliminates a card next to another blue card. It chose your "
            "face-down Trap, next to the Cutthroat: the Apothecary is discarded, and you steal "
            "3 Influence from the bot.",
            "L’Apothicaire bleu élimine une carte voisine d’une autre carte bleue. Il a choisi "
            "votre Guet-apens face cachée, à côté du Coupe-jarret : l’Apothicaire est défaussé, "
            "et vous volez 3 Influence au robot.",
        ),
        bots=("target green:trap",),
        focus=("players", "log"),
    ),
    Beat(
        title=W("A Machination", "Une Machination"),
        text=W(
            "Your green Machination, face down with 1 token, is under the arrow. Reveal it.\n\n"
            "A Machination is discarded, and makes one of your face-up Characters act. Its "
            "tokens are not simply gained: each one is either gained, or spent to make a "
            "Character act once more.",
            "Votre Machination verte, face cachée avec 1 jeton, est sous la flèche. "
            "Révélez-la.\n\n"
            "Une Machination est défaussée, et fait agir l’un de vos Personnages face visible. "
            "Ses jetons ne sont pas simplement gagnés : chacun est soit gagné, soit dépensé "
            "pour faire agir un Personnage une fois de plus.",
        ),
        expect="reveal green:machination",
        stray=W(
            "Reveal the Machination: left face down, it would only get one more token.",
            "Révélez la Machination : laissée face cachée, elle ne recevrait qu’un jeton de "
            "plus.",
        ),
    ),
    Beat(
        title=W("Make a Character act", "Faites agir un Personnage"),
        text=W(
            "Choose your green Schemer: it acts again and gains 2.",
            "Choisissez votre Intrigante verte : elle agit de nouveau et gagne 2.",
        ),
        expect="target green:schemer",
        stray=W("Choose your green Schemer.", "Choisissez votre Intrigante verte."),
    ),
    Beat(
        title=W("Gain or spend the token", "Gagner ou dépenser le jeton"),
        text=W(
            "The Machination held 1 token. Gain it (1 Influence), or spend it to make a "
            "Character act once more. Spend it: your Schemer will gain 2 again.",
            "La Machination portait 1 jeton. Gagnez-le (1 Influence), ou dépensez-le pour faire "
            "agir un Personnage une fois de plus. Dépensez-le : votre Intrigante regagnera 2.",
        ),
        expect="spend",
        stray=W(
            "Gaining the token gives 1; spending it makes your Schemer gain 2. Spend it.",
            "Gagner le jeton rapporte 1 ; le dépenser fait gagner 2 à votre Intrigante. "
            "Dépensez-le.",
        ),
    ),
    Beat(
        title=W("Once more", "Une fois de plus"),
        text=W("Choose your Schemer again.", "Choisissez de nouveau votre Intrigante."),
        expect="target green:schemer",
        stray=W("Choose your green Schemer.", "Choisissez votre Intrigante verte."),
    ),
    Beat(
        title=W("Reveal your Prince", "Révélez votre Prince"),
        text=W(
            "Reveal your red Prince. It brings your red Twin into the Queue, face up, then "
            "gains 1.",
            "Révélez votre Prince rouge. Il fait entrer votre Jumeau rouge dans la File, face "
            "visible, puis gagne 1.",
        ),
        expect="reveal red:prince",
        stray=W(
            "Reveal the Prince to bring its Twin into play.",
            "Révélez le Prince pour faire entrer son Jumeau en jeu.",
        ),
    ),
    Beat(
        title=W("Place the Twin", "Placez le Jumeau"),
        text=W(
            "Put the Twin at the end of the Queue: it is after the arrow, so it will act this "
            "round (a Twin gains 1).\n\n"
            "Beware: if the Prince or the Twin is eliminated, the other one is discarded with "
            "it.",
            "Placez le Jumeau à la fin de la File : il est après la flèche, il agira donc "
            "cette manche (un Jumeau gagne 1).\n\n"
            "Attention : si le Prince ou le Jumeau est éliminé, l’autre est défaussé avec lui.",
        ),
        expect="twin red:twin end",
        stray=W(
            "Place the Twin at the end: there it acts this round.",
            "Placez le Jumeau à la fin : là, il agit cette manche.",
        ),
    ),
    Beat(
        title=W("Drawing cards", "Piocher"),
        text=W(
            "The yellow Schemer gained 2, the blue Queen 2, and your Twin 1. Round 5 is over."
            "\n\n"
            "In the two-player game, after each resolution each player draws 2 cards from "
            "their pile, while it lasts. You drew a red Corruption and a green Usurpation.",
            "L’Intrigante jaune a gagné 2, la Reine bleue 2, et votre Jumeau 1. La manche 5 "
            "est finie.\n\n"
            "À deux joueurs, après chaque résolution, chacun pioche 2 cartes dans sa pioche, "
            "tant qu’elle dure. Vous avez pioché une Corruption rouge et une Usurpation verte.",
        ),
        bots=("reveal yellow:schemer", "reveal blue:queen"),
        focus=("hand", "players"),
    ),
    Beat(
        title=W("Stack your Usurpation", "Empilez votre Usurpation"),
        text=W(
            "Round 6, the last one; the bot is first and placed a yellow card at the end. "
            "Place your green Usurpation on your green Schemer: from there it is next to "
            "Yellow's Felon. A red card could not go on this green stack.",
            "Manche 6, la dernière ; le robot commence et a posé une carte jaune à la fin. "
            "Posez votre Usurpation verte sur votre Intrigante verte : de là, elle est à côté "
            "du Félon jaune. Une carte rouge ne pourrait pas aller sur cette pile verte.",
        ),
        bots=("place yellow:cutthroat end",),
        expect="place green:usurpation on green:schemer",
        stray=W(
            "Place the green Usurpation on your green Schemer, next to Yellow's Felon.",
            "Posez l’Usurpation verte sur votre Intrigante verte, à côté du Félon jaune.",
        ),
    ),
    Beat(
        title=W("Corruption", "Corruption"),
        text=W(
            "The bot placed a blue card at the front. Place your red Corruption at the front "
            "of the Queue: it will act first.",
            "Le robot a posé une carte bleue au début. Posez votre Corruption rouge au début "
            "de la File : elle agira la première.",
        ),
        bots=("place blue:trap front",),
        expect="place red:corruption front",
        stray=W(
            "Place the red Corruption at the front of the Queue.",
            "Posez la Corruption rouge au début de la File.",
        ),
    ),
    Beat(
        title=W("Reveal the Corruption", "Révélez la Corruption"),
        text=W(
            "Reveal it. A Corruption puts your family's token on a face-up Character: from "
            "then on, that card belongs to your family for everything (its ability, the "
            "Influence it gains, the tie-break).",
            "Révélez-la. Une Corruption pose le jeton de votre famille sur un Personnage face "
            "visible : dès lors, cette carte appartient à votre famille pour tout (sa capacité, "
            "l’Influence qu’elle gagne, le départage).",
        ),
        expect="reveal red:corruption",
        stray=W(
            "Reveal the Corruption: face down, it does nothing.",
            "Révélez la Corruption : face cachée, elle ne fait rien.",
        ),
    ),
    Beat(
        title=W("Take the Queen", "Prenez la Reine"),
        text=W(
            "Put your red token on the blue Queen. It is after the arrow: it will act this "
            "round, for you.",
            "Posez votre jeton rouge sur la Reine bleue. Elle est après la flèche : elle agira "
            "cette manche, pour vous.",
        ),
        expect="target blue:queen",
        stray=W(
            "Choose the blue Queen: it gains 2 each time it acts.",
            "Choisissez la Reine bleue : elle gagne 2 chaque fois qu’elle agit.",
        ),
    ),
    Beat(
        title=W("Reveal the Usurpation", "Révélez l’Usurpation"),
        text=W(
            "The bot left its front card face down. Reveal your Usurpation. It eliminates a "
            "card next to it; if that was an opponent's Character alone in its stack, your "
            "family's card of the same name takes its place, face up, from your set-aside, "
            "discarded or eliminated cards.",
            "Le robot a laissé sa carte du début face cachée. Révélez votre Usurpation. Elle "
            "élimine une carte à côté d’elle ; si c’était un Personnage adverse seul dans sa "
            "pile, la carte du même nom de votre famille prend sa place, face visible, parmi "
            "vos cartes mises de côté, défaussées ou éliminées.",
        ),
        bots=("leave blue:trap",),
        expect="reveal green:usurpation",
        stray=W(
            "Reveal the Usurpation.",
            "Révélez l’Usurpation.",
        ),
    ),
    Beat(
        title=W("Replace the Felon", "Remplacez le Félon"),
        text=W(
            "Eliminate Yellow's Felon: your green Felon, set aside at the start of the game, "
            "takes its place.\n\n"
            "Leave the face-down blue card alone: a face-down card may be a Trap.",
            "Éliminez le Félon jaune : votre Félon vert, mis de côté au début de la partie, "
            "prend sa place.\n\n"
            "Ne touchez pas à la carte bleue face cachée : une carte face cachée peut être un "
            "Guet-apens.",
        ),
        expect="target yellow:felon",
        stray=W(
            "That face-down blue card may be a Trap: eliminating it could cost you 3. Choose "
            "Yellow's Felon.",
            "Cette carte bleue face cachée peut être un Guet-apens : l’éliminer pourrait vous "
            "coûter 3. Choisissez le Félon jaune.",
        ),
    ),
    Beat(
        title=W("Prince and Twin", "Prince et Jumeau"),
        text=W(
            "Your Schemer, uncovered under the arrow, gained 2. Your new Felon made each "
            "player lose 1 per neighbouring card: you and the bot lost 1 each.\n\n"
            "Then the blue Cutthroat eliminated your red Prince, and its Twin was discarded "
            "with it. The yellow Schemer gained 2, and the blue Queen, now yours, gained 2 for "
            "you.",
            "Votre Intrigante, découverte sous la flèche, a gagné 2. Votre nouveau Félon a "
            "fait perdre 1 à chaque joueur par carte voisine : vous et le robot avez perdu 1 "
            "chacun.\n\n"
            "Puis le Coupe-jarret bleu a éliminé votre Prince rouge, et son Jumeau a été "
            "défaussé avec lui. L’Intrigante jaune a gagné 2, et la Reine bleue, désormais à "
            "vous, a gagné 2 pour vous.",
        ),
        bots=("target red:prince",),
        focus=("queue", "log"),
    ),
    Beat(
        title=W("The end of the game", "La fin de la partie"),
        text=W(
            "The yellow Cutthroat eliminated the Queen you had corrupted: a single card, so "
            "nothing for the elimination, but 1 for an opponent's Queen. The Queen goes back "
            "to its owner's eliminated cards.\n\n"
            "The game is over: each player keeps 2 cards in hand. You won, 22 to 17!",
            "Le Coupe-jarret jaune a éliminé la Reine que vous aviez corrompue : une seule "
            "carte, donc rien pour l’élimination, mais 1 pour la Reine d’un adversaire. La "
            "Reine retourne parmi les cartes éliminées de son propriétaire.\n\n"
            "La partie est finie : chacun garde 2 cartes en main. Vous avez gagné, 22 à 17 !",
        ),
        bots=("reveal yellow:cutthroat", "target blue:queen"),
        focus=("players",),
    ),
)

LESSON = Lesson(
    id="embrasement",
    title=W("Embrasement, for two players", "Embrasement, à deux joueurs"),
    summary=W(
        "The last two rounds of a two-player game with two families each: every card of "
        "Oriflamme Embrasement in play. About 10 minutes.",
        "Les deux dernières manches d’une partie à deux joueurs, avec deux familles chacun : "
        "toutes les cartes d’Oriflamme Embrasement en jeu. Environ 10 minutes.",
    ),
    start=START,
    seat=0,
    names=(W("You", "Vous"), W("Blue & yellow", "Bleu et jaune")),
    beats=BEATS,
    real_game={"players": 2, "cards": "embrasement", "variant": "two-families", "bots": "easy",
               "hints": True},
)
