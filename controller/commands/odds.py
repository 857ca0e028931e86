"""``tablectl odds GAME --hole "AS KS" --hole "QH QD" [--board "2C 7D 9H"]``: exact all-in equities.

Every completion of the board is dealt once (see ``controller.rules.poker.equity``);
the high and low shares and the pot equity of each player print as percentages
and exact fractions, or as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from controller.cards import UnknownCard, parse_cards
from controller.commands.progress import progress
from controller.rules.poker.equity import GAMES, Equities, boards_to_deal, equities


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("odds", help="exact all-in equities for hold'em and Omaha hi-lo")
    parser.add_argument("game", choices=GAMES, help="holdem or omaha-hi-lo")
    parser.add_argument("--hole", action="append", required=True, metavar="CARDS",
                        help='one player\'s hole cards, e.g. "AS KS"; give it once per player')
    parser.add_argument("--board", default="", metavar="CARDS", help="the board so far: 0, 3 or 4 cards (5 to settle)")
    parser.add_argument("--dead", default="", metavar="CARDS", help="cards known to be out of play (burns, folded hands)")
    parser.add_argument("--joker", action="store_true", help="Omaha hi-lo with the joker (53 cards)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    try:
        holes = [parse_cards(h.replace(",", " ").split()) for h in args.hole]
        board = parse_cards(args.board.replace(",", " ").split())
        dead = parse_cards(args.dead.replace(",", " ").split())
        with progress(f"odds {args.game}", boards_to_deal(holes, board, dead=dead, joker=args.joker), unit="board") as advance:
            result = equities(args.game, holes, board, dead=dead, joker=args.joker, advance=advance)
    except (UnknownCard, ValueError) as exc:
        print(f"tablectl odds: {exc}", file=sys.stderr)
        return 2
    seconds = time.perf_counter() - started
    print(json.dumps(as_json(result, seconds), indent=2) if args.json else "\n".join(table(result, seconds)))
    return 0


def as_json(result: Equities, seconds: float) -> dict[str, Any]:
    return {
        "game": result.game,
        "joker": result.joker,
        "board": [c.code for c in result.board],
        "boards": result.boards,
        "low_boards": result.low_boards,
        "seconds": round(seconds, 3),
        "players": [
            {"hole": [c.code for c in p.hole], "high": str(p.high), "low": str(p.low), "equity": str(p.equity),
             "equity_percent": round(float(p.equity) * 100, 4)}
            for p in result.players
        ],
    }


def table(result: Equities, seconds: float) -> list[str]:
    name = result.game + (" with joker" if result.joker else "")
    board = " ".join(map(str, result.board)) or "(none)"
    lines = [f"{name}  board {board}  {result.boards:,} boards dealt exactly"
             + (f", a low on {result.low_boards:,}" if result.game == "omaha-hi-lo" else "") + f"  ({seconds:.2f}s)"]
    for p in result.players:
        hole = " ".join(map(str, p.hole))
        low = f"  low {float(p.low) * 100:7.3f}%" if result.game == "omaha-hi-lo" else ""
        lines.append(f"  {hole:<12} high {float(p.high) * 100:7.3f}%{low}  equity {float(p.equity) * 100:7.3f}%  ({p.equity})")
    return lines
