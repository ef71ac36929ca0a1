"""Checks of the static web client that need no browser.

Files referenced by the pages exist, modules import only existing relative files and names,
no HTML is built from strings, no external resource is loaded, the EN and FR string tables match,
and (with Node.js) every module parses, the card data of the client matches the engine and the
pure decision logic handles the legal actions of real games. (What the pages do with their
elements is tested in a real browser: tests/e2e.) Without Node.js those tests are
skipped, unless CI is set: then they fail (``.ci/run`` installs Node.js).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from oriflamme.api import Game, new_game
from oriflamme.rules.cards import BASE_SET, EMBRASEMENT_SET, CardType
from oriflamme.rules.texts import FAMILY_COLOURS

STATIC = Path(__file__).resolve().parents[3] / "src" / "oriflamme" / "server" / "static"
JS = STATIC / "js"
PAGES = (
    "index.html", "game.html", "replay.html", "learn.html", "rules-en.html", "rules-fr.html",
    "leaderboard.html", "player.html", "account.html",
)
ENTRY_MODULES = (
    "main.js", "lobby.js", "replay.js", "learn.js", "rules.js", "leaderboard.js", "profile.js",
    "account.js",
)
NODE = shutil.which("node")


def js_files() -> list[Path]:
    return sorted(JS.glob("*.js"))


def source(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def strip_js_comments(text: str) -> str:
    """The code without // and /* */ comments (good enough for this client's style)."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"(?m)^\s*//.*$", "", text)


# ---------------------------------------------------------------------------- HTML pages
class _PageParser(HTMLParser):
    """Collects references, scripts and attributes of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.references: list[str] = []
        self.scripts: list[dict[str, str | None]] = []
        self.attributes: list[tuple[str, str, str | None]] = []
        self.testids: set[str] = set()
        self.ids: set[str] = set()
        self._in_script = False
        self.inline_script_text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name, value in attrs:
            self.attributes.append((tag, name, value))
            if name == "data-testid" and value:
                self.testids.add(value)
            if name == "id" and value:
                self.ids.add(value)
        if tag == "script":
            self.scripts.append(values)
            self._in_script = True
        for name in ("src", "href"):
            value = values.get(name)
            if value and tag in ("script", "link", "img", "a", "source"):
                self.references.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.inline_script_text += data


def parse_page(name: str) -> _PageParser:
    parser = _PageParser()
    parser.feed(source(STATIC / name))
    return parser


@pytest.mark.parametrize("page", PAGES)
def test_every_file_a_page_references_exists(page: str) -> None:
    parser = parse_page(page)
    local = [ref for ref in parser.references if ref.startswith("/static/")]
    assert local, "a page loads its styles and scripts from /static/"
    for ref in local:
        assert (STATIC / ref.removeprefix("/static/")).is_file(), f"{page}: missing {ref}"
    for ref in parser.references:
        if ref.startswith("#"):  # a place in the page itself
            assert ref[1:] in parser.ids, f"{page}: nothing has the id of {ref}"
        else:
            assert ref.startswith("/"), f"{page}: {ref} is not a local path"


@pytest.mark.parametrize("page", PAGES)
def test_pages_have_no_inline_script_handler_or_style(page: str) -> None:
    parser = parse_page(page)
    assert parser.scripts, "the page loads its module"
    for script in parser.scripts:
        assert script.get("src"), "scripts are files (a CSP can forbid inline scripts)"
        assert script.get("type") == "module"
    assert parser.inline_script_text.strip() == ""
    for tag, name, value in parser.attributes:
        assert not name.startswith("on"), f"inline event handler {name} on <{tag}>"
        assert name != "style", f"inline style on <{tag}>"
        assert not (value or "").strip().lower().startswith("javascript:")


# ---------------------------------------------------------------------------- JS modules
IMPORT_RE = re.compile(
    r"""(?:import|export)\s*(?:\{(?P<names>[^}]*)\}|[\w*\s,]*)\s*from\s*["'](?P<spec>[^"']+)["']""",
    re.S,
)
DYNAMIC_IMPORT_RE = re.compile(r"""import\(\s*["']([^"']+)["']\s*\)""")
EXPORT_RE = re.compile(r"export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+(\w+)")


def imports_of(path: Path) -> Iterator[tuple[str, list[str]]]:
    """(module specifier, imported names) of every static import or re-export of a file."""
    code = strip_js_comments(source(path))
    for match in IMPORT_RE.finditer(code):
        names = [
            part.split(" as ")[0].strip()
            for part in (match.group("names") or "").split(",")
            if part.strip()
        ]
        yield match.group("spec"), names
    for spec in DYNAMIC_IMPORT_RE.findall(code):
        yield spec, []


def exports_of(path: Path) -> set[str]:
    return set(EXPORT_RE.findall(strip_js_comments(source(path))))


def test_modules_import_only_existing_relative_files_and_names() -> None:
    checked = 0
    for path in js_files():
        for spec, names in imports_of(path):
            assert spec.startswith("./") and spec.endswith(".js"), f"{path.name}: import {spec}"
            target = JS / spec.removeprefix("./")
            assert target.is_file(), f"{path.name}: {spec} does not exist"
            missing = set(names) - exports_of(target)
            assert not missing, f"{path.name}: {spec} does not export {sorted(missing)}"
            checked += 1
    assert checked > 20


def test_every_module_is_reachable_from_a_page() -> None:
    reachable: set[str] = set()
    todo = list(ENTRY_MODULES)
    while todo:
        name = todo.pop()
        if name in reachable:
            continue
        reachable.add(name)
        todo.extend(spec.removeprefix("./") for spec, _ in imports_of(JS / name))
    assert {p.name for p in js_files()} == reachable


def test_every_export_is_imported() -> None:
    imported = {name for path in js_files() for _, names in imports_of(path) for name in names}
    imported |= {"ranking", "niceStep"}  # imported by the Node.js tests below
    unused = {f"{path.name}:{name}" for path in js_files() for name in exports_of(path) - imported}
    assert sorted(unused) == []


def test_page_modules_are_the_entry_modules() -> None:
    loaded = {
        str(script["src"]).removeprefix("/static/js/")
        for page in PAGES
        for script in parse_page(page).scripts
    }
    assert loaded == set(ENTRY_MODULES)


# Ways to turn a string into HTML or code; the client builds every node with createElement and
# sets text with textContent, so none may appear.
FORBIDDEN_JS = (
    "innerHTML",
    "outerHTML",
    "insertAdjacentHTML",
    "document.write",
    "eval(",
    "new Function",
    "createContextualFragment",
    "DOMParser",
    'setAttribute("style"',
    'setAttribute("on',
    "srcdoc",
)


@pytest.mark.parametrize("path", js_files(), ids=lambda p: p.name)
def test_modules_never_parse_html_or_code_from_strings(path: Path) -> None:
    code = strip_js_comments(source(path))
    for sink in FORBIDDEN_JS:
        assert sink not in code, f"{path.name} uses {sink}"
    assert not re.search(r"\.on[a-z]+\s*=", code), f"{path.name} assigns an on* handler"


SVG_NAMESPACE = "http://www.w3.org/2000/svg"


def client_files() -> list[Path]:
    return sorted(p for p in STATIC.rglob("*") if p.is_file())


def test_no_external_resources() -> None:
    files = client_files()
    assert {p.suffix for p in files} >= {".html", ".css", ".js"}
    for path in files:
        text = source(path).replace(SVG_NAMESPACE, "")
        assert not re.search(r"https?://|//cdn|@import", text), f"{path.name} loads from outside"
        if path.suffix == ".css":
            for url in re.findall(r"url\(([^)]*)\)", text):
                assert not url.strip("'\" ").startswith(("http", "//")), url


# ---------------------------------------------------------------------------- strings
def i18n_tables(name: str = "i18n.js") -> dict[str, dict[str, str]]:
    """The EN and FR tables of i18n.js (or of another module with that layout: the review
    strings, review_i18n.js), read from its one-entry-per-line layout."""
    text = source(JS / name)
    tables: dict[str, dict[str, str]] = {}
    for lang in ("en", "fr"):
        block = re.search(rf"\n  {lang}: \{{\n(.*?)\n  \}},", text, re.S)
        assert block, f"no {lang} table"
        entries: dict[str, str] = {}
        for line in block.group(1).splitlines():
            if line.strip().startswith("//") or not line.strip():
                continue
            match = re.fullmatch(r'    (\w+): "((?:[^"\\]|\\.)*)",', line)
            assert match, f"{lang}: unexpected line {line!r}"
            assert match.group(1) not in entries, f"{lang}: {match.group(1)} twice"
            entries[match.group(1)] = match.group(2)
        tables[lang] = entries
    return tables


def check_string_table(
    name: str,
    call: str,
    at_least: int,
    page: str | None = None,
    built: set[str] | frozenset[str] = frozenset(),
) -> None:
    """The module ``name`` (laid out as i18n.js) has the same keys in English and French, with
    the same placeholders, none empty, at least ``at_least`` of them; and its keys are exactly
    those the pages use: in calls ``call("key")`` of any module, in ``data-<call>`` attributes
    of the static page ``page``, and ``built`` (keys the code builds at run time)."""
    tables = i18n_tables(name)
    english, french = tables["en"], tables["fr"]
    assert set(english) == set(french) and len(english) > at_least
    for key, text in english.items():
        assert text.strip() and french[key].strip(), key
        placeholders = set(re.findall(r"\{(\w+)\}", text))
        assert placeholders == set(re.findall(r"\{(\w+)\}", french[key])), key
    used = set(built)
    for path in js_files():
        used.update(re.findall(rf"""\b{call}\(\s*"(\w+)\"""", strip_js_comments(source(path))))
    if page is not None:
        used.update(re.findall(rf'data-{call}(?:-[a-z-]+)?="(\w+)"', source(STATIC / page)))
    assert sorted(used - set(english)) == [] and sorted(set(english) - used) == []


def test_english_and_french_have_the_same_keys_and_placeholders() -> None:
    tables = i18n_tables()
    english, french = tables["en"], tables["fr"]
    assert len(english) > 100
    assert set(english) == set(french)
    for key, text in english.items():
        assert text.strip() and french[key].strip(), key
        placeholders = set(re.findall(r"\{(\w+)\}", text))
        assert placeholders == set(re.findall(r"\{(\w+)\}", french[key])), key


def test_review_strings_are_complete_in_both_languages_and_all_used() -> None:
    check_string_table("review_i18n.js", "rt", 30)


def used_string_keys() -> set[str]:
    keys: set[str] = set()
    for path in js_files():
        keys.update(re.findall(r"""\bt\(\s*"(\w+)\"""", strip_js_comments(source(path))))
    for page in PAGES:
        for _, name, value in parse_page(page).attributes:
            if name.startswith("data-i18n") and value:
                keys.add(value)
    return keys


def test_every_string_the_client_uses_exists() -> None:
    english = i18n_tables()["en"]
    used = used_string_keys()
    # Keys built at run time: colours, bot levels (docs/server.md), game phases (docs/api.md).
    used |= {f"colour_{colour}" for colour in FAMILY_COLOURS}
    levels = ("easy", "medium", "hard", "expert", "random")
    used |= {f"level_{level}" for level in levels} | {f"level_note_{level}" for level in levels}
    used |= {f"phase_{phase}" for phase in ("placement", "resolution", "over")}
    assert len(used) > 100
    assert sorted(used - set(english)) == []


def test_no_unused_strings() -> None:
    english = set(i18n_tables()["en"])
    used = used_string_keys()
    dynamic = re.compile(r"(colour|level|phase|error)_\w+")
    unused = sorted(key for key in english - used if not dynamic.fullmatch(key))
    assert unused == []


# ---------------------------------------------------------------------------- with Node.js
def require_node() -> str:
    """The Node.js executable; skips the test without it, except in CI, where it fails."""
    if NODE is None:
        reason = "Node.js is not installed"
        if os.environ.get("CI"):
            pytest.fail(
                f"{reason}: CI must run the web client's unit tests "
                "(apt-get install -y --no-install-recommends nodejs)",
                pytrace=False,
            )
        pytest.skip(reason)
    return NODE


@pytest.fixture(scope="module")
def module_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of js/ marked as ES modules, so that any Node.js version loads it as such (the
    tests that use it need Node.js: see :func:`require_node`)."""
    require_node()
    target = tmp_path_factory.mktemp("client") / "js"
    shutil.copytree(JS, target)
    (target / "package.json").write_text('{"type": "module"}', encoding="utf-8")
    return target


def run_node(module_dir: Path, script: str, payload: Any) -> Any:
    done = subprocess.run(
        [require_node(), "--input-type=module", "-e", script],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=module_dir,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("path", js_files(), ids=lambda p: p.name)
def test_module_parses(module_dir: Path, path: Path) -> None:
    done = subprocess.run(
        [require_node(), "--check", str(module_dir / path.name)],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, done.stderr


ANALYSE = """
import { readFileSync } from "node:fs";
import { analyseLegal, effectiveSelection } from "./decision.js";
const cases = JSON.parse(readFileSync(0, "utf8"));
const out = cases.map(({ legal, selected }) => {
  const a = analyseLegal(legal);
  const placements = {};
  for (const [card, dests] of a.placements) placements[card] = [...dests.keys()].sort();
  return {
    placements,
    twin: a.twin,
    reveal: a.reveal,
    targets: [...a.targets.keys()].sort((x, y) => x - y),
    gaps: [...a.gaps.keys()].sort((x, y) => x - y),
    movingCard: a.movingCard,
    players: [...a.players.keys()].sort(),
    tokens: a.tokens,
    labels: a.labels.size,
    selection: effectiveSelection(a, selected),
  };
});
console.log(JSON.stringify(out));
"""


def legal_entries(game: Game) -> list[dict[str, Any]]:
    """The view's `legal` list (docs/server.md) for the deciding player."""
    viewer = game.current_player
    return [
        {"action": a.to_json(), "label": game.label(a, viewer=viewer)} for a in game.legal_actions()
    ]


def position_game(queue: list[list[str]], pending: list[dict[str, Any]], **extra: Any) -> Game:
    cards = [
        "spy",
        "royal_decree",
        "machination",
        "prince",
        "shapeshifter",
        "corruption",
        "usurpation",
        "soldier",
        "archer",
        "trap",
    ]
    return Game.from_position(
        {
            "config": {"players": 3, "cards": cards},
            "round": 2,
            "phase": "resolution",
            "placed": 3,
            "queue": queue,
            "pending": pending,
            "families": {
                c: {"hand": ["trap", "usurpation", "corruption"], "rest": "set_aside"}
                for c in ("red", "blue", "green")
            },
            **extra,
        }
    )


def test_decision_logic_on_real_legal_actions(module_dir: Path) -> None:
    opening = new_game(players=3, seed=7)
    quick = new_game(players=3, seed=7)
    for action in ("place 4 end", "place 17 front", "place 29 end"):
        quick.apply(action)
    archer = Game.from_replay(quick.replay())
    archer.apply("reveal 17")
    # The Royal Decree example of docs/formats.md: green moves red's Queen to gap 0, 3 or 4.
    decree = position_game(
        [
            ["blue:lord*"],
            ["red:queen*@green"],
            ["green:spy", "green:royal_decree*"],
            ["red:soldier+1"],
        ],
        [
            {"frame": "discard", "card": "green:royal_decree", "family": "green"},
            {
                "frame": "gap",
                "card": "green:royal_decree",
                "family": "green",
                "target": "red:queen",
            },
        ],
        cursor=2,
        resolving="green:royal_decree",
        config={
            "players": 3,
            "cards": [
                "archer",
                "soldier",
                "spy",
                "heir",
                "royal_decree",
                "lord",
                "prince",
                "queen",
                "corruption",
                "ambush",
            ],
        },
        families={
            "red": {"hand": ["archer"], "rest": "set_aside"},
            "blue": {"hand": ["archer"], "rest": "set_aside"},
            "green": {"hand": ["archer"], "rest": "set_aside"},
        },
    )
    spy = position_game([["red:soldier*"], ["blue:spy*"], ["green:archer*"]], [], cursor=1)
    machination = position_game(
        [["blue:spy*"], ["red:machination*"], ["red:soldier*"]],
        [
            {"frame": "discard", "card": "red:machination", "family": "red"},
            {"frame": "tokens", "card": "red:machination", "family": "red", "tokens": 2},
        ],
        cursor=1,
        resolving="red:machination",
    )
    # R-PRINCE-1: the Twin goes where a normal placement may, but not on a Prince.
    twin = position_game([["red:prince"], ["red:soldier*"]], [], cursor=0)
    twin.apply(f"reveal {twin.card('red:prince')}")

    games = [opening, quick, archer, decree, spy, machination, twin]
    assert [g.decision().kind.slug for g in games] == [  # type: ignore[union-attr]
        "place",
        "reveal",
        "eliminate",
        "move_to",
        "steal",
        "token",
        "place_twin",
    ]
    cases: list[dict[str, Any]] = [{"legal": legal_entries(g), "selected": None} for g in games]
    # A selected hand card stays selected while it can be placed; an unknown one is dropped.
    cases.append({"legal": legal_entries(opening), "selected": 5})
    cases.append({"legal": legal_entries(opening), "selected": 99})
    results = run_node(module_dir, ANALYSE, cases)
    place, reveal, target, move, steal, token, place_twin, kept, dropped = results

    assert place["placements"] == {str(card): ["end"] for card in range(3, 10)}
    assert place["selection"] is None and place["labels"] == 7
    assert kept["selection"] == 5 and dropped["selection"] is None
    assert reveal["reveal"] == {
        "card": 17,
        "reveal": {"kind": "reveal", "card": 17},
        "leave": {"kind": "leave", "card": 17},
    }
    assert target["targets"] == [17, 29] and not target["placements"]
    assert move["gaps"] == [0, 3, 4] and move["movingCard"] == decree.card("red:queen")
    assert steal["players"] == [0, 2]
    assert token["tokens"] == {"gain": {"kind": "gain"}, "spend": {"kind": "spend"}}
    twin_id = twin.card("red:twin")
    soldier_id = twin.card("red:soldier")
    assert place_twin["twin"] == twin_id and place_twin["selection"] == twin_id
    assert place_twin["placements"] == {str(twin_id): sorted(["front", "end", f"on:{soldier_id}"])}


RANK = """
import { readFileSync } from "node:fs";
import { ranking } from "./endscreen.js";
import { niceStep } from "./chart.js";
const { result, maxima } = JSON.parse(readFileSync(0, "utf8"));
const order = ranking(result).map((r) => r.seat);
console.log(JSON.stringify({ order, steps: maxima.map(niceStep) }));
"""


def test_final_ranking_breaks_ties_by_queue_cards(module_dir: Path) -> None:
    # R-END-1: most Influence wins, a tie is broken by the cards controlled in the Queue.
    result = {"scores": [7, 9, 9, 2], "queue_cards": [5, 1, 3, 0], "winners": [2]}
    out = run_node(module_dir, RANK, {"result": result, "maxima": [3, 9, 14, 40, 130]})
    assert out["order"] == [2, 1, 0, 3]
    assert out["steps"] == [1, 2, 5, 10, 50]


CARDS = """
import { readFileSync } from "node:fs";
import { BASE_SET, EMBRASEMENT_SET, FAMILY_COLOURS, kindName } from "./cards.js";
const slugs = JSON.parse(readFileSync(0, "utf8"));
console.log(JSON.stringify({
  colours: FAMILY_COLOURS, base: BASE_SET, embrasement: EMBRASEMENT_SET, kinds: slugs.map(kindName),
}));
"""


def test_card_data_matches_the_engine(module_dir: Path) -> None:
    """The client's colours and card sets are the engine's, and it calls each card type an
    Intrigue or a Character as the engine does. (Its glyphs and blazons: tests/e2e.)"""
    out = run_node(module_dir, CARDS, [t.slug for t in CardType])
    assert out["colours"] == list(FAMILY_COLOURS)
    assert out["base"] == [t.slug for t in BASE_SET]
    assert out["embrasement"] == [t.slug for t in EMBRASEMENT_SET]
    assert out["kinds"] == ["Intrigue" if t.is_intrigue else "Character" for t in CardType]
