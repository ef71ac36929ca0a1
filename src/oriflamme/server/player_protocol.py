"""The request and response models of players across tables: leaderboards, profiles, an
account's games, taking and leaving a seat (routes in :mod:`.player_routes`)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from .protocol import Token


class TokenRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    token: Token = Field(description="the seat's token (its link's)")


class LeaderboardEntry(BaseModel):
    rank: int = Field(description="place on the leaderboard (1 = best)")
    name: str = Field(description="the account's name, or the bot's level")
    rating: int = Field(description="the displayed rating (docs/server.md, Ratings)")
    games: int
    wins: int
    bot: bool = Field(description="the entry of a bot level")


class Leaderboard(BaseModel):
    pool: str = Field(description='"2p" (two players, two families) or "3-5p"')
    entries: list[LeaderboardEntry]
    total: int = Field(description="entries in all (with at least min_games games)")
    page: int
    per_page: int
    min_games: int = Field(description="games a player needs to appear")


class RatingPointOut(BaseModel):
    rating: int
    at: float = Field(description="when the game ended (epoch seconds)")
    table_id: str
    game: int


class PoolRating(BaseModel):
    rating: int
    games: int
    wins: int
    mu: float = Field(description="the model's skill estimate")
    sigma: float = Field(description="its uncertainty")
    history: list[RatingPointOut] = Field(description="the rating after each game, oldest first")


class PlayedWon(BaseModel):
    played: int
    won: int


class GameOut(BaseModel):
    table_id: str
    game: int
    seat: int
    players: list[str] = Field(description="each seat's name, in seat order")
    cards: str
    rated: bool
    finished: bool
    your_turn: bool = Field(False, description="an ongoing game that waits for you")
    at: float = Field(description="finished: when it ended; ongoing: when its turn began")
    url: str | None = Field(
        None, description="ongoing: your seat's link (opens it in any browser you sign in from)"
    )
    replay_url: str | None = Field(None, description="finished: the game's replay")
    rank: int | None = Field(None, description="finished: your place (1 = best)")
    won: bool = False
    left: bool = Field(False, description="finished: you left it before the end")


class Profile(BaseModel):
    name: str = Field(description="the account's name, or the bot's level")
    bot: bool = Field(False, description="the profile of a bot level (its rated games only)")
    ratings: dict[str, PoolRating] = Field(description="per pool played")
    reputation: float | None = Field(
        description="the share of finished games finished without leaving (null: none yet, or"
        " a bot level, which never leaves)"
    )
    finished: int = Field(description="games finished (left ones included)")
    left: int = Field(description="games left before the end")
    by_players: dict[str, PlayedWon] = Field(description="games played and won by player count")
    recent: list[GameOut] = Field(description="the last finished games, most recent first")


class GamesPage(BaseModel):
    games: list[GameOut]
    total: int
    page: int
    per_page: int


class ClaimResponse(BaseModel):
    table_id: str
    seat: int
    name: str
    url: str = Field(description="the seat's link for your account")
