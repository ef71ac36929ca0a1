"""Write the list of common passwords the server refuses (``server/accounts/common_passwords.txt``).

The list is generated, not copied: the words and patterns below are the ones every published
analysis of leaked passwords finds at the top (number runs, keyboard walks, "password",
"iloveyou", first names, football clubs, "azerty" and "soleil" for French speakers), written
here by hand for this project, then combined with the endings people add to pass length rules
(``1``, ``123``, ``!``, a year). Only entries of at least 8 characters are kept: shorter ones are
refused for their length already. The result is in the public domain, as this script.

Run: ``python tools/common_passwords.py [--check]`` (``--check``: exit 1 if the shipped file
differs from what the script writes; tests/test_accounts_passwords.py runs it).
"""

from __future__ import annotations

import sys
from pathlib import Path

TARGET = (
    Path(__file__).resolve().parent.parent
    / "src" / "oriflamme" / "server" / "accounts" / "common_passwords.txt"
)
MIN_LENGTH = 8


def _words(text: str) -> list[str]:
    return text.split()


WORDS = _words("""
password passw0rd pass motdepasse secret letmein welcome admin administrator root login
qwerty azerty qwertz iloveyou jetaime loveyou love lover sunshine shadow monkey dragon master
football soccer baseball basketball hockey tennis princess princesse superman batman spiderman
starwars pokemon minecraft fortnite roblox michael jennifer jordan thomas nicolas julien
camille marie sophie pierre antoine alexandre charlie daniel jessica ashley amanda andrew
joshua matthew robert william maxime lucas hugo emma chloe manon sarah laura pauline marine
trustno1 whatever freedom flower hello hellohello cookie cheese chocolate banana orange
summer winter autumn spring soleil bonjour doudou chouchou loulou nounours coucou toto titi
marseille paris lyon bordeaux nantes lille toulouse france olympique liverpool arsenal
chelsea barcelona realmadrid juventus manchester united london berlin america canada
computer internet google facebook twitter youtube samsung apple iphone android windows
linux ubuntu oracle mysql database server changeme default guest test tester testing demo
sample example temp temporary access master1 superuser support service office company
business family friends forever together happy lucky money dollar bitcoin crypto gamer
player gaming killer hunter ninja samurai warrior knight king queen prince angel devil
heaven jesus christ blessed faith hope trinity matrix zion neo morpheus oriflamme
cardgame boardgame chess poker blackjack casino diamond silver golden platinum purple
yellow green blue black white red pink rainbow butterfly tiger lion eagle falcon wolf
bear panther jaguar mustang ferrari porsche mercedes corvette harley yamaha honda toyota
peugeot renault citroen nissan mazda volvo music guitar piano rockstar metallica nirvana
beatles eminem drake beyonce rihanna madonna elvis startrek gandalf frodo hobbit
harrypotter hermione voldemort naruto sasuke goku vegeta pikachu mario zelda sonic
dolphin penguin turtle rabbit kitten puppy doggy kitty babygirl babyboy sweetheart honey
sweety cutie pretty beautiful lovely darling angel1 jordan23 michelle nicole daniela
victoria isabelle caroline nathalie sandrine stephanie valerie christine patrick philippe
francois olivier sebastien frederic laurent vincent benjamin guillaume arnaud romain
""")

#: Whole passwords: runs of digits and keys.
RUNS = _words("""
12345678 123456789 1234567890 0123456789 87654321 987654321 9876543210 11111111 00000000
12341234 11223344 12121212 13131313 69696969 88888888 99999999 22222222 55555555 77777777
123123123 147258369 159753456 741852963 qwertyuiop azertyuiop asdfghjkl qsdfghjklm
zxcvbnm1 wxcvbn123 1q2w3e4r 1q2w3e4r5t 1qaz2wsx 2wsx3edc 1qazxsw2 zaq12wsx qazwsxedc
aqwzsxedc q1w2e3r4 a1b2c3d4 abcd1234 abc12345 aaaaaaaa abcdefgh abcdefg1 qweasdzxc
123qweasd qwe123qwe asd123asd 123abc123 password123 passwordpassword motdepasse123
""")

ENDINGS = (
    "", "1", "12", "123", "1234", "12345", "123456", "!", "1!", "123!", "01", "07", "11",
    "13", "69", "99", "00", "007", "2000", "2010", "2020", "2021", "2022", "2023", "2024",
    "2025", "2026", "@123", "#1",
)


def generate() -> list[str]:
    """The list: every run, and every word with every ending, of at least :data:`MIN_LENGTH`
    characters, in lower case (the server compares in lower case: "Password1" is refused as
    "password1"), without repeats, sorted."""
    found = set(RUNS)
    for word in WORDS:
        for ending in ENDINGS:
            found.add(word + ending)
    return sorted(entry for entry in found if len(entry) >= MIN_LENGTH)


def text() -> str:
    return "\n".join(generate()) + "\n"


def main(argv: list[str]) -> int:
    if "--check" in argv:
        return 0 if TARGET.read_text(encoding="utf-8") == text() else 1
    TARGET.write_text(text(), encoding="utf-8")
    print(f"{len(generate())} passwords written to {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
