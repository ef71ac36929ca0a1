"""Bot tournaments: seat rotation, parallel play, statistics, ratings and reports.

>>> settings = Settings(bots=("random",), players=3, games=2, seed=1)
>>> records = play(plan(settings))
>>> summary = summarise(settings, records)
>>> summary["games"], summary["bots"][0]["seats"]
(2, 6)

See docs/tournaments.md.
"""

from .backends import BACKENDS, BackendError, play
from .report import build_results, compact_json, milliseconds, write_report
from .schedule import GameJob, Plan, Settings, SettingsError, lineups, plan
from .stats import summarise, wilson_interval
from .worker import GameFailed, GameRecord

__all__ = [
    "BACKENDS",
    "BackendError",
    "GameFailed",
    "GameJob",
    "GameRecord",
    "Plan",
    "Settings",
    "SettingsError",
    "build_results",
    "compact_json",
    "lineups",
    "milliseconds",
    "plan",
    "play",
    "summarise",
    "wilson_interval",
    "write_report",
]
