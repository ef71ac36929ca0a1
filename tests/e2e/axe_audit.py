"""axe-core in Chromium: the accessibility audit of a page (issue #31, docs/accessibility.md).

axe-core is the npm package pinned in tools/axe/package-lock.json (``npm ci --prefix tools/axe``,
run by scripts/test.sh). Without it the audits are skipped locally with a message saying how to
install it, and fail when ``CI`` is set: CI must run them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Page

AXE = Path(__file__).resolve().parents[2] / "tools" / "axe" / "node_modules" / "axe-core"
#: The impacts that fail an audit (axe's scale: minor, moderate, serious, critical).
BLOCKING = ("serious", "critical")
#: Runs axe on the whole document; returns the blocking violations, each with its nodes.
RUN_AXE_JS = """async (blocking) => {
  const results = await window.axe.run(document, { resultTypes: ["violations"] });
  return results.violations.filter((v) => blocking.includes(v.impact)).map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(" ")}: ${n.failureSummary}`),
  }));
}"""


@cache
def axe_source() -> str:
    """The text of axe.min.js; skips the test locally (fails it in CI) when not installed."""
    script = AXE / "axe.min.js"
    if not script.is_file():
        reason = (
            f"axe-core is not installed ({script.relative_to(AXE.parents[3])} is missing): "
            "run `npm ci --prefix tools/axe` (scripts/test.sh does)"
        )
        if os.environ.get("CI"):
            pytest.fail(f"{reason}; CI must run the accessibility audits", pytrace=False)
        pytest.skip(reason)
    return script.read_text(encoding="utf-8")


@dataclass
class Audit:
    """The blocking violations found so far, by where they were found (reported all at once)."""

    found: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    audited: list[str] = field(default_factory=list)

    def check(self, page: Page, where: str) -> None:
        """Run axe on the page as it is now (the page needs ``bypass_csp``: axe is injected)."""
        if not page.evaluate("() => typeof window.axe === 'object'"):
            page.add_script_tag(content=axe_source())
        violations: list[dict[str, Any]] = page.evaluate(RUN_AXE_JS, list(BLOCKING))
        self.audited.append(where)
        if violations:
            self.found[where] = violations

    def report(self) -> str:
        lines = []
        for where, violations in self.found.items():
            lines.append(f"== {where}")
            for v in violations:
                lines.append(f"  [{v['impact']}] {v['id']}: {v['help']}")
                lines.extend(f"      {node}" for node in v["nodes"])
        return "\n".join(lines)

    def assert_clean(self) -> None:
        assert self.audited, "nothing was audited"
        assert not self.found, "axe found serious or critical violations:\n" + self.report()
