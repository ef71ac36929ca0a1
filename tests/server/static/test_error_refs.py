"""#32: every failed request the web client shows carries its reference ("ref. …", the request
id the server sent), so that a player's report can be found in the server's logs.

Static checks of every module (a new place that shows an error without its reference fails
here), and, with Node.js, the request helpers read the id and ``withRef`` shows it.
"""

from __future__ import annotations

import re
from pathlib import Path

from test_web_client import JS, js_files, module_dir, run_node, source, strip_js_comments

__all__ = ["module_dir"]  # the fixture, shared with test_web_client

#: Calls that show a failed request's error with its reference, and which argument is the error.
REPORTERS = {"toastError": 1, "withRef": 1, "errorRef": 0, "fatal": 1, "showLoadError": 1}
#: What shows text to people in a catch block.
SHOWS = re.compile(r"\b(toast|toastError|fatal|showLoadError|replace)\(|textContent\s*=|\btext:|"
                   r"\.error\s*=")
#: The start of a catch block with its error: `catch (error) {` or `.catch((error) => {`.
FUNCTION = re.compile(r"function \w+\(([^)]*)\)\s*\{")
CATCH = re.compile(r"catch\s*\(\s*(\w+)\s*\)\s*\{|\.catch\(\s*\(?\s*(\w+)\s*\)?\s*=>\s*\{")


def closing(text: str, opening: int) -> int:
    """The index of the bracket that closes the one at ``opening``."""
    pairs = {"{": "}", "(": ")"}
    stack = []
    for i in range(opening, len(text)):
        char = text[i]
        if char in pairs:
            stack.append(pairs[char])
        elif stack and char == stack[-1]:
            stack.pop()
            if not stack:
                return i
    raise AssertionError(f"unbalanced from {text[opening:opening + 80]!r}")


def arguments(text: str, opening: int) -> list[str]:
    """The top-level arguments of the call whose ``(`` is at ``opening``."""
    inner = text[opening + 1:closing(text, opening)]
    parts, depth, current = [], 0, ""
    for char in inner:
        depth += char in "([{"
        depth -= char in ")]}"
        if char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += char
    return [*parts, current.strip()] if current.strip() else parts


def calls(text: str, name: str) -> list[list[str]]:
    """The argument lists of every call of ``name`` in ``text``."""
    return [arguments(text, m.end() - 1) for m in re.finditer(rf"(?<![\w.]){name}\(", text)]


def catch_blocks() -> list[tuple[str, str, str]]:
    """(module, error's name, block's code) of every catch that names its error, and of every
    function taking an ``error`` or ``failure`` (a page's ``failed(error)``…)."""
    blocks = []
    for path in js_files():
        text = strip_js_comments(source(path))
        for match in CATCH.finditer(text):
            start = match.end() - 1
            blocks.append((path.name, match.group(1) or match.group(2),
                           text[start:closing(text, start) + 1]))
        for match in FUNCTION.finditer(text):
            start = match.end() - 1
            body = text[start:closing(text, start) + 1]
            for param in re.findall(r"\w+", match.group(1).split("=")[0]):
                if param in ("error", "failure"):
                    blocks.append((path.name, param, body))
    return blocks


def reports(block: str, error: str) -> bool:
    """Whether ``block`` hands ``error`` to a call that shows its reference."""
    return any(
        len(args) > position and error in re.findall(r"\w+", args[position])
        for name, position in REPORTERS.items()
        for args in calls(block, name)
    )


def test_the_static_checks_see_the_catch_blocks() -> None:
    blocks = catch_blocks()
    assert len(blocks) > 30  # the pattern finds them (a check on nothing would pass)
    assert any(name == "account.js" and "accountError" in block for name, _, block in blocks)
    assert any(name == "account_bar.js" and "replace(error" in block for name, _, block in blocks)


def test_every_catch_that_shows_its_error_shows_its_reference() -> None:
    """A catch block that shows something to people after a failure hands the error to
    toastError, withRef, errorRef or a page's fatal/showLoadError, which show its reference."""
    bare = [
        f"{name}: {block[:160]!r}"
        for name, error, block in catch_blocks()
        if SHOWS.search(block) and not reports(block, error)
    ]
    assert bare == []


def test_every_error_toast_of_a_failure_passes_the_error() -> None:
    """In a catch block, every toastError passes the caught error (its reference); anywhere,
    an error toast is a toastError, never toast(…, "error")."""
    dropped = [
        f"{name}: toastError({', '.join(args)})"
        for name, error, block in catch_blocks()
        for args in calls(block, "toastError")
        if len(args) < 2 or error not in re.findall(r"\w+", args[1])
    ]
    assert dropped == []
    plain = [
        f"{path.name}: toast({', '.join(args)})"
        for path in js_files() if path.name != "ui.js"
        for args in calls(strip_js_comments(source(path)), "toast")
        if len(args) > 1 and "error" in args[1]
    ]
    assert plain == []


def test_the_pages_own_error_helpers_show_the_reference() -> None:
    """fatal (game and replay pages) and showLoadError (lessons) show the error's reference."""
    helpers = 0
    for path in js_files():
        text = strip_js_comments(source(path))
        for match in re.finditer(r"function (fatal|showLoadError)\(([^)]*)\)\s*\{", text):
            helpers += 1
            body = text[match.end() - 1:closing(text, match.end() - 1)]
            error = match.group(2).split(",")[1].split("=")[0].strip()
            assert re.search(rf"\b(errorRef|withRef)\([^;]*\b{error}\b", body), path.name
    assert helpers == 3


def test_every_request_helper_reads_the_request_id() -> None:
    """The modules that call fetch build their errors with answerError (the id of the body, or
    of the X-Request-ID header)."""
    fetching = [path for path in js_files() if re.search(r"(?<![\w.])fetch\(", source(path))]
    assert {path.name for path in fetching} == {"api.js", "account_api.js"}
    for path in fetching:
        text = strip_js_comments(source(path))
        assert "throw answerError(response, data)" in text, path.name
    assert "new ApiError(response.status" not in source(JS / "account_api.js")


REFS = """
import { readFileSync } from "node:fs";
globalThis.document = undefined;
const { answers } = JSON.parse(readFileSync(0, "utf8"));
globalThis.fetch = async (url) => {
  const { body, status, headers } = answers[url];
  return new Response(JSON.stringify(body), { status, headers });
};
const { withRef } = await import("./ui.js");
const { signIn } = await import("./account_api.js");
const { request } = await import("./api.js");
const seen = [];
const asks = [() => signIn("Ann", "wrong"), () => request("GET", "/api/x"),
  () => request("GET", "/api/y")];
for (const ask of asks) {
  try {
    await ask();
    seen.push("answered");
  } catch (error) {
    seen.push(withRef("Refused", error));
  }
}
console.log(JSON.stringify({ seen, plain: withRef("Refused", { code: "network" }) }));
"""


def test_the_request_helpers_keep_the_id_and_with_ref_shows_it(module_dir: Path) -> None:
    """A refused sign-in (account_api) and a refused request (api) carry the request id of the
    answer's body, else of its header; withRef shows it, and nothing without one."""
    refused = {"status": 401, "headers": {"x-request-id": "aaaaaaaaaaaa"},
               "body": {"error": {"code": "bad_credentials", "message": "no",
                                  "request_id": "aaaaaaaaaaaa"}}}
    answers = {
        "/api/account/signin": refused,
        "/api/x": {"status": 404, "headers": {"x-request-id": "bbbbbbbbbbbb"},
                   "body": {"detail": "not json error"}},
        "/api/y": {"status": 500, "headers": {}, "body": {"error": {"code": "internal_error",
                                                                    "request_id": "cccccccccccc"}}},
    }
    out = run_node(module_dir, REFS, {"answers": answers})
    assert out["seen"] == [
        "Refused (ref. aaaaaaaaaaaa)", "Refused (ref. bbbbbbbbbbbb)", "Refused (ref. cccccccccccc)",
    ]
    assert out["plain"] == "Refused"
