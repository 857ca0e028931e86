"""``tablectl rounds [--last N] [--since TIME] [--until TIME]`` and ``tablectl round ID``: recall past rounds from the journal.

A round is shown with its wagers, each card with where it went and where it
came from (shoe, shuffler, camera, dealer), what the overhead camera said of
them (looks that agreed with the shoe, discrepancies, failures), the
decisions, holds, the settlement of every wager and the round's totals, as
text or ``--json``.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import itertools
import json
import re
import sys
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from controller.commands.options import config_argument
from controller.engine.config import load_config
from controller.engine.log import span
from controller.engine.session import journal_path, record_paths
from controller.errors import TableError
from controller.events import CameraLost, ClockSteppedBack, LoggedOut, LoginGranted, to_record
from controller.money import MoneyError, format_cents, parse_money
from controller.records.anchor import anchor_path
from controller.records.journal import Journal, journal_table
from controller.records.meters import percent
from controller.records.recall import recall, staff_at


def register(subparsers: Any) -> None:
    listing = subparsers.add_parser("rounds", help="list the last rounds in the journal, or a period's with its totals")
    listing.add_argument("--last", type=_positive, default=None,
                         help="how many rounds (default: 10; with --since or --until, every round of the period)")
    listing.add_argument("--since", type=_moment, default=None, metavar="TIME",
                         help='rounds that ended at or after TIME ("2026-11-29 06:00", this machine\'s time unless an '
                              'offset is given), with the period\'s totals: a shift\'s drop, win and hold')
    listing.add_argument("--until", type=_moment, default=None, metavar="TIME", help="... and before TIME")
    listing.add_argument("--spot", type=_spot, default=None, metavar="N",
                         help="only the rounds spot N played, each with what the spot staked, got back and paid in fees, "
                              "and with --since or --until the spot's totals over the period")
    listing.add_argument("--staked", type=_amount, default=None, metavar="AMOUNT",
                         help="only the rounds where a spot (the --spot) staked at least AMOUNT dollars in all (500, $12.50)")
    listing.add_argument("--shoe", type=_shoe, default=None, metavar="N",
                         help="every round dealt from shoe N (numbered as `tablectl shuffle report` numbers them), with "
                              "the shoe's totals: what surveillance reads of a flagged shoe")
    journal_options(listing)
    listing.set_defaults(func=list_rounds)
    one = subparsers.add_parser("round", help="show one round from the journal: wagers, cards, decisions, payouts")
    one.add_argument("id", help="round id, as `tablectl rounds` lists it (its number alone will do: 42 or 000042)")
    one.add_argument("--signed", default=None, metavar="FILE",
                     help="also write the round's lines of the signed event log to FILE, as the table signed them: "
                          "evidence checked with `tablectl audit verify --excerpt FILE --public-key TABLE.pub`")
    one.add_argument("--log", default=None, metavar="FILE",
                     help="with --signed: the event log (default: the config's [log] events and its rotated files)")
    journal_options(one)
    one.set_defaults(func=show_round)


def _spot(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a spot's number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a spot's number (1 or more), not {value}")
    return value


def _shoe(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a shoe number from 1, as `tablectl shuffle report` lists them, not {text!r}")
    return int(text)


def _amount(text: str) -> int:
    try:
        return parse_money(text)
    except MoneyError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number of rounds, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return min(value, 2**62)  # more than any journal holds: all of them (SQLite counts in 64 bits)


def _moment(text: str) -> dt.datetime:
    """A time on the command line: ISO 8601 (a date, or a date and time), this machine's time zone unless it names one."""
    try:
        moment = dt.datetime.fromisoformat(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f'not a time: {text!r} (expected e.g. "2026-11-29 06:00" or '
                                         '"2026-11-29T06:00-05:00")') from None
    return moment if moment.tzinfo is not None else moment.astimezone()


def journal_options(parser: argparse.ArgumentParser) -> None:
    config_argument(parser)
    parser.add_argument("--journal", default=None, help="journal file (default: the config's [journal] path)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def open_journal(args: argparse.Namespace, table_id: str | None = None) -> Journal:
    """The journal named by ``--journal`` or the config, opened for reading: checked whole, never written, never created;
    ``table_id``: another table's than the config's (``tablectl shuffle report --table ID``). A journal named without a
    config is read as its own table's (a journal copied off a table to be read elsewhere)."""
    config = load_config(args.config)
    path = Path(args.journal) if args.journal else journal_path(config)
    copy = bool(args.journal) and args.config is None
    if table_id is None and copy:
        with contextlib.suppress(ValueError):  # not a journal: opening it says so
            table_id = journal_table(path)
    anchored = not (copy and path.is_file() and not anchor_path(path).exists())
    if not anchored:
        # A copy handed to a reader (`journal backup`'s, say) travels without the table's anchor: its records are
        # checked whole all the same (each row, the hash chain); only whether records were lost after its last is not.
        print(f"tablectl: {path} is read without its anchor ({anchor_path(path).name} is not beside it): every record "
              "is checked against the journal's hash chain, but whether the table wrote records after its last "
              "cannot be told from this copy", file=sys.stderr)
    return Journal(path, table_id=table_id or config.table_id, readonly=True, anchored=anchored)


def _camera_lines(camera: dict[str, Any] | None) -> list[str]:
    if camera is None:
        return []
    settled = camera["cards_before_settling"]
    lines = [f"  camera   {camera['looks_agreed']} looks agreed with the shoe"
             + (f", the last before settling with {settled} cards seen" if settled is not None else "")]
    lines += [f"  camera   {d['kind']} in {d['zone']}: dealt {d['dealt'] or '-'}, seen {d['seen'] or '-'}" for d in camera["discrepancies"]]
    lines += [f"  camera   failed: {reason}" for reason in camera["failures"]]
    lines += [f"  camera   {o['device']} {'lost' if o['event'] == CameraLost.EVENT else 'back'} at {o['at']}" for o in camera["outages"]]
    return lines


def when(timestamp: str | None) -> str:
    """A journal timestamp (UTC, ISO 8601) as this machine's local time, to the second, with its offset from UTC
    (``2026-11-29 15:50:42-05:00``: one word, so the columns of ``tablectl rounds`` stay where they were)."""
    if not timestamp:
        return "-"
    return dt.datetime.fromisoformat(timestamp).astimezone().isoformat(sep=" ", timespec="seconds")


def _at(item: dict[str, Any]) -> str:
    """When a record was written, and its sequence number: its place among the round's other records."""
    return f" at {when(item['at'])}, seq {item['seq']}" if item.get("at") else ""


def _asked(amount: object) -> str:
    """A refused wager's amount as it was asked (cents, not always a whole number)."""
    return format_cents(amount) if isinstance(amount, int) and not isinstance(amount, bool) else repr(amount)


def _place(target: str, split: set[str]) -> str:
    """Where a card went, as the console names it: ``seat3`` spot 3, a blackjack hand ``3.0`` spot 3 (``3.1``, its
    split hand: spot 3 hand 2), ``stack2`` stack 2."""
    seat, dot, hand = target.partition(".")
    if dot and seat.isdigit() and hand.isdigit():
        return f"spot {seat}" + (f" hand {int(hand) + 1}" if seat in split else "")
    return re.sub(r"^(seat|stack)(\d+)$", lambda m: ("spot " if m[1] == "seat" else "stack ") + m[2], target).replace("_", " ")


def _text(summary: dict[str, Any]) -> list[str]:
    ended = f", ended {when(summary['ended'])}" if summary.get("ended") else ""
    lines = [f"round {summary['id']}  {summary['game']}  {summary['state']}  started {when(summary.get('started'))}{ended}"]
    lines += [f"  recovery: {m}" for m in summary["recovery"]]
    lines += [f"  staff    {s['name']}" + (f" ({s['role']}, {s['page']} page)" if s.get("role") else "")
              + f" {s['what']}, at {when(s['at'])} from {s['client']}" for s in summary.get("staff", [])]
    lines += [f"  wager    spot {w['spot']} {w['wager']:<10} {format_cents(w['amount']):>10} " + _at(w)
              + (f" by {w['by']}" if w.get("by") else "")
              + "".join(f"; +{format_cents(a['amount'])} by {a['by']}{_at(a)}" for a in w.get("added", []))
              for w in summary["wagers"]]
    if summary.get("betting_closed"):
        lines.append(f"  closed   no more bets{_at(summary['betting_closed'])}")
    lines += [f"  refused  spot {w['spot']} {w['wager']:<10} {_asked(w['amount']):>10} {_at(w)}: {w['reason']}"
              for w in summary.get("refused", [])]
    split = {t.partition(".")[0] for t in (c["target"] for c in summary["cards"]) if t.partition(".")[2] not in ("", "0")}
    lines += [f"  card     {c['card']} -> {_place(c['target'], split):<13} from {c['source']}, seq {c['seq']}"
              + (f" (corrected from {c['corrected_from']}: {c['correction']})" if c.get("corrected_from") else "")
              for c in summary["cards"]]
    lines += [f"  decision spot {d['spot']}" + (f" hand {d['hand'] + 1}" if str(d["spot"]) in split else "")  # of a split spot
              + f" {d['action']}" + (f" {format_cents(d['amount'])}" if d["amount"] else "")
              + "".join(f" {item}" for item in [*d["cards"], *d.get("values", [])])  # a hand set, the dice thrown
              for d in summary["decisions"]]
    lines += _camera_lines(summary["camera"])
    lines += [f"  fault    {f['card']} from {f['source']}: {f['reason']}" for f in summary["faults"]]
    lines += [f"  hold     {h}" for h in summary["holds"]]
    lines += [f"  resumed  by {r['by']} at {when(r['at'])}" for r in summary.get("resumed", [])]
    lines += [_supervisor_line(a) for a in summary.get("supervisor", [])]
    lines += [f"  fee      spot {f['spot']} {format_cents(f['amount']):>10}  {f['reason']}" for f in summary.get("fees", [])]
    lines += [f"  paid     spot {s['spot']} {s['wager']:<10} stake {format_cents(s['stake']):>10}  {s['outcome']:<5} "
              f"{s['payout']:<14} returned {format_cents(s['returned']):>10}" + (f"  ({s['reason']})" if s.get("reason") else "")
              for s in summary["settlements"]]
    if summary.get("void_reason"):
        lines.append(f"  void     {summary['void_reason']}")
    if summary["totals"]:
        t = summary["totals"]
        fees = f"  fees {format_cents(t['fees'])}" if t["fees"] else ""
        between = f"  between players {format_cents(t['between_players'])}" if t.get("between_players") else ""
        lines.append(f"  totals   wagered {format_cents(t['wagered'])}  paid {format_cents(t['paid'])}{fees}"
                     f"  house win {format_cents(t['house_win'])}{between}")
    return lines


def _supervisor_line(acted: dict[str, Any]) -> str:
    """A supervisor's action on the round: who, what, when and why."""
    what = {"resume": "resumed", "void": "voided", "correct_card": "entered a card",
            "correct_placed_card": "corrected a card"}.get(acted["action"], acted["action"])
    card = acted.get("card")
    if card is not None:
        what += f": {acted['previous']} -> {card}" if acted.get("previous") else f", entered {card}"
    return f"  supervisor {acted['by']} {what} at {when(acted['at'])} ({acted['reason']})"


def list_rounds(args: argparse.Namespace) -> int:
    period = args.since is not None or args.until is not None
    if args.since is not None and args.until is not None and args.until <= args.since:
        print(f"tablectl: --until {when(args.until.isoformat())} is not after --since {when(args.since.isoformat())}",
              file=sys.stderr)
        return 2
    chosen = Choice(args.spot, args.staked)
    shoe_note: str | None = None
    try:
        with open_journal(args) as journal:
            if args.shoe is not None:
                ids, shoe_note = shoe_rounds(journal, args.shoe)
                summaries = [s for s in (recall(journal.round_records(i)) for i in ids) if chosen(s) and in_period(s, args)]
                summaries = summaries[-args.last:] if args.last else summaries
                period = True
            elif period:
                summaries = [s for s in (recall(journal.round_records(row.id))
                                         for row in journal.ended_between(args.since, args.until)) if chosen(s)]
                summaries = summaries[-args.last:] if args.last else summaries
            else:
                summaries = chosen.last(journal, args.last or 10)
            steps = clock_steps(journal, summaries, args.since, args.until, period=period)
    except TableError as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        return getattr(exc, "exit_code", 2)
    period_sums = period_totals(summaries) if period else None
    by_game = period_by_game(summaries) if period else None
    spot_sums = spot_totals(summaries, args.spot) if args.spot is not None else None
    if args.json:
        print(json.dumps(summaries if period_sums is None else {
            **({"shoe": args.shoe} if args.shoe is not None else {}),
            "since": args.since.isoformat() if args.since else None, "until": args.until.isoformat() if args.until else None,
            "rounds": summaries, "totals": period_sums, "by_game": by_game, **({"spot": spot_sums} if spot_sums else {}),
            **({"clock_steps": [to_record(step) for step in steps]} if steps else {})}, indent=2))
        return 0
    if not summaries:
        print(f"no round {chosen.words()}" + (" ended in that period" if period else " in the journal") if chosen.filters
              else "no round ended in that period" if period else "no round has been played at this table yet")
    for s in summaries:
        totals = s["totals"]
        cards = " ".join(c["card"] for c in s["cards"] if c["target"] != "burn")
        money = unsettled(sum(w["amount"] for w in s["wagers"])) if totals is None else (
            f"wagered {format_cents(totals['wagered']):>10}  paid {format_cents(totals['paid']):>10}  "
            f"house {format_cents(totals['house_win']):>10}")
        if totals is not None and totals.get("between_players"):  # as `tablectl run` lines it: the house banks none of it
            money = f"between players {format_cents(totals['between_players']):>10}  fees {format_cents(totals['fees']):>8}"
        if args.spot is not None:
            money = spot_line(spot_totals([s], args.spot), settled=totals is not None)
        print(f"{when(s.get('started'))}  {s['id']}  {s['state']:<8} {cards:<24} {money}")
    if period_sums is not None:
        shown = chosen.words() if chosen.filters else None
        for line in by_game_lines(by_game or {}):  # above the period's line, which stays the report's last
            print(line)
        print(shoe_line(period_sums, args.shoe, shown) if args.shoe is not None
              else period_line(period_sums, args.since, args.until, shown))
        if spot_sums is not None:
            print(f"over the {'shoe' if args.shoe is not None else 'period'}, {spot_sums['rounds']} rounds: "
                  f"{spot_line(spot_sums)}")
        if shoe_note:
            print(shoe_note)
    for step in steps:
        print(clock_note(step, period))
    return 0


def shoe_rounds(journal: Journal, number: int) -> tuple[list[str], str | None]:
    """The rounds dealt from shoe ``number`` of the table's shoe or shuffler, in order, and a note when that number
    names more than one shoe (a journal whose numbering restarted: the rounds of each are listed)."""
    from controller.engine.shuffle import report
    from controller.events import CardBurned, CardDealt, DeckReconciled, ShuffleAlarm, ShuffleTested

    shoes = report.shoes(journal.records_of(ShuffleTested, ShuffleAlarm, DeckReconciled, CardDealt, CardBurned))
    found = [s for s in shoes if s.shoe == number]
    if not found:
        known = ", ".join(str(s.shoe) for s in shoes[-5:]) or "none has ended yet"
        raise TableError(f"no shoe {number} in the journal (the last shoes: {known}; a shoe is listed once it has "
                         "ended, with its shuffle tests)")
    ids = list(dict.fromkeys(r for s in found for r in s.rounds))
    note = (f"note: {len(found)} shoes are numbered {number} in this journal (its numbering restarted): the rounds "
            "of each are listed") if len(found) > 1 else None
    return ids, note


def in_period(summary: dict[str, Any], args: argparse.Namespace) -> bool:
    """Whether a round ended within ``--since`` / ``--until`` (each when given)."""
    if args.since is None and args.until is None:
        return True
    ended = summary.get("ended")
    if not ended:
        return False
    moment = dt.datetime.fromisoformat(str(ended))
    return (args.since is None or moment >= args.since) and (args.until is None or moment < args.until)


def shoe_line(totals: dict[str, int], number: int, shown: str | None = None) -> str:
    """A shoe's totals in one line, as a period's: its drop, paid, fees, house win and hold."""
    line = period_line(totals, None, None)
    return f"shoe {number}{f', rounds {shown} only' if shown else ''}:" + line.partition(":")[2]


def clock_steps(journal: Journal, summaries: list[dict[str, Any]], since: dt.datetime | None, until: dt.datetime | None,
                *, period: bool) -> list[ClockSteppedBack]:
    """The steps back of the table's clock that bear on what is shown: for a period, those whose repeated times
    ([the time it went back to, the time before]) meet it; else those among or after the rounds listed."""
    steps = [e for e in journal.records_of(ClockSteppedBack) if isinstance(e, ClockSteppedBack)]
    if period:
        return [e for e in steps if (since is None or since < dt.datetime.fromisoformat(e.previous))
                and (until is None or dt.datetime.fromisoformat(e.timestamp) < until)]
    first = min((c["seq"] for s in summaries for c in s.get("cards", []) if c.get("seq")), default=None)
    return [e for e in steps if summaries and (first is None or e.seq > first)]


def clock_note(step: ClockSteppedBack, period: bool) -> str:
    """What a report says of a step back of the table's clock."""
    note = (f"note: the table's clock stepped back {span(step.seconds)} at seq {step.seq} (from {when(step.previous)} "
            f"to {when(step.timestamp)}): records after it carry the earlier times; their order is the journal's "
            "(seq), which never goes back")
    if period:
        note += ("; rounds ended after the step may be counted in this period by their earlier times, or left out of "
                 "the one they were played in")
    return note


@dataclass(frozen=True)
class Choice:
    """Which rounds ``tablectl rounds`` lists: those a spot played, those where a spot staked at least an amount."""

    spot: int | None
    staked: int | None

    @property
    def filters(self) -> bool:
        return self.spot is not None or self.staked is not None

    def __call__(self, summary: dict[str, Any]) -> bool:
        stakes: dict[int, int] = {}
        for w in summary["wagers"]:
            stakes[w["spot"]] = stakes.get(w["spot"], 0) + w["amount"]
        if self.spot is not None:
            stakes = {self.spot: stakes[self.spot]} if self.spot in stakes else {}
            if not stakes:
                return False
        return self.staked is None or any(amount >= self.staked for amount in stakes.values())

    def last(self, journal: Journal, count: int) -> list[dict[str, Any]]:
        """The last ``count`` rounds chosen, in the order they started (read back from the newest until found)."""
        if not self.filters:
            return [recall(journal.round_records(row.id)) for row in journal.rounds(count)]
        found: list[dict[str, Any]] = []
        for row in reversed(journal.rounds()):
            summary = recall(journal.round_records(row.id))
            if self(summary):
                found.append(summary)
                if len(found) == count:
                    break
        return found[::-1]

    def words(self) -> str:
        at = f" at spot {self.spot}" if self.spot is not None else ""
        return (f"with {format_cents(self.staked)} or more staked{at}" if self.staked is not None
                else f"played at spot {self.spot}")


def spot_totals(summaries: list[dict[str, Any]], spot: int) -> dict[str, int]:
    """What one spot staked, got back and paid in fees over ``summaries``, and what it won or lost (the player's net)."""
    out = {"spot": spot, "rounds": 0, "staked": 0, "returned": 0, "fees": 0, "net": 0}
    for s in summaries:
        out["rounds"] += 1
        out["staked"] += sum(w["amount"] for w in s["wagers"] if w["spot"] == spot)
        out["returned"] += sum(x["returned"] for x in s["settlements"] if x["spot"] == spot)
        out["fees"] += sum(f["amount"] for f in s.get("fees", []) if f["spot"] == spot)
    out["net"] = out["returned"] - out["staked"] - out["fees"]
    return out


def spot_line(sums: dict[str, int], settled: bool = True) -> str:
    if not settled:
        return f"spot {sums['spot']} " + unsettled(sums["staked"])
    fees = f"  fees {format_cents(sums['fees'])}" if sums["fees"] else ""
    net = ("won " if sums["net"] > 0 else "lost " if sums["net"] < 0 else "even ") + format_cents(abs(sums["net"]))
    return (f"spot {sums['spot']} staked {format_cents(sums['staked']):>10}  returned "
            f"{format_cents(sums['returned']):>10}{fees}  {net}")


def period_totals(summaries: list[dict[str, Any]]) -> dict[str, int]:
    """What a period's rounds add up to, as the table's meters add them (each round once it ended)."""
    out = {"rounds": 0, "voided": 0, "wagered": 0, "paid": 0, "fees": 0, "house_win": 0, "between_players": 0}
    for s in summaries:
        t = s["totals"] or {}
        out["rounds"] += 1
        out["voided"] += s.get("void_reason") is not None or s["state"] == "void"
        for key in ("wagered", "paid", "fees", "house_win", "between_players"):
            out[key] += int(t.get(key) or 0)
    return out


def period_by_game(summaries: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """A period's totals by game and, within each, by wager: the drop (wagered), paid and house win of the wagers
    the house banks, and the action between players of those it does not (a player-dealer's, a pot's)."""
    games: dict[str, dict[str, Any]] = {}
    for s in summaries:
        t = s["totals"] or {}
        game = games.setdefault(s["game"], {**dict.fromkeys(
            ("rounds", "voided", "wagered", "paid", "fees", "house_win", "between_players"), 0), "wagers": {},
            "options": []})
        if not game["options"] or game["options"][-1]["options"] != s.get("options"):
            game["options"].append({"from": s["id"], "options": s.get("options")})  # a pay table changed mid-period
        game["rounds"] += 1
        game["voided"] += s.get("void_reason") is not None or s["state"] == "void"
        for key in ("wagered", "paid", "fees", "house_win", "between_players"):
            game[key] += int(t.get(key) or 0)
        for x in s["settlements"]:
            wager = game["wagers"].setdefault(x["wager"], dict.fromkeys(
                ("count", "wagered", "paid", "house_win", "between_players"), 0))
            wager["count"] += 1
            if x.get("banker", "house") == "house":
                wager["wagered"] += x["stake"]
                wager["paid"] += x["returned"]
                wager["house_win"] += x["stake"] - x["returned"]
            else:
                wager["between_players"] += x["stake"]
    return games


def by_game_lines(games: dict[str, dict[str, Any]]) -> list[str]:
    """The period's totals by game and wager, as ``tablectl meters`` lines its wagers: a game's line, then a line
    per wager with its drop, win and hold (or the action between players the house banks none of)."""
    lines = []
    for name, g in games.items():
        hold = percent(Fraction(g["house_win"], g["wagered"]) if g["wagered"] else None)
        line = (f"  {name}: {g['rounds']} rounds ({g['voided']} voided)  wagered {format_cents(g['wagered'])}  paid "
                f"{format_cents(g['paid'])}  fees {format_cents(g['fees'])}  house win {format_cents(g['house_win'])}  "
                f"hold {hold}")
        lines.append(line + (f"  between players {format_cents(g['between_players'])}" if g["between_players"] else ""))
        for before, after in itertools.pairwise(g["options"]):
            was, now = before["options"] or {}, after["options"] or {}
            changed = ", ".join(f"{key} {now.get(key)!r} (was {was.get(key)!r})" for key in sorted({*was, *now})
                                if was.get(key) != now.get(key))
            lines.append(f"    note: the game's options changed from round {after['from']}: {changed}; the figures "
                         "below add up rounds dealt under both")
        for wager, w in g["wagers"].items():
            text = f"    {wager:<20}{w['count']:>5} wagers"
            if w["wagered"] or not w["between_players"]:
                hold = percent(Fraction(w["house_win"], w["wagered"]) if w["wagered"] else None)
                text += (f"  wagered {format_cents(w['wagered']):>12}  paid {format_cents(w['paid']):>12}  house win "
                         f"{format_cents(w['house_win']):>12}  hold {hold}")
            if w["between_players"]:
                text += f"  between players {format_cents(w['between_players']):>12}"
            lines.append(text)
    return lines


def period_line(totals: dict[str, int], since: dt.datetime | None, until: dt.datetime | None, shown: str | None = None) -> str:
    """The period's totals in one line: its drop, paid, fees, house win and hold, and the action between players
    (``shown``: the rounds listed are only those, and the totals theirs)."""
    span = (f"from {when(since.isoformat()) if since else 'the first round'} "
            f"to {when(until.isoformat()) if until else 'now'}") + (f", rounds {shown} only" if shown else "")
    hold = percent(Fraction(totals["house_win"], totals["wagered"]) if totals["wagered"] else None)
    line = (f"period {span}: {totals['rounds']} rounds ended ({totals['voided']} voided)  wagered "
            f"{format_cents(totals['wagered'])}  paid {format_cents(totals['paid'])}  fees {format_cents(totals['fees'])}  "
            f"house win {format_cents(totals['house_win'])}  hold {hold}")
    if totals["between_players"]:
        line += f"  between players {format_cents(totals['between_players'])}"
    return line


def unsettled(staked: int) -> str:
    """The money column of a round not settled yet: what lies on the layout, none of it won or lost."""
    return f"staked {format_cents(staked):>10}  not settled"


def show_round(args: argparse.Namespace) -> int:
    try:
        with open_journal(args) as journal:
            found = [journal.round(args.id)] if journal.round(args.id) is not None else journal.rounds_named(args.id)
            if not found:
                recent = ", ".join(row.id for row in journal.rounds(3)) or "none yet"
                raise TableError(f"no round {args.id!r} in {journal.path} (the last rounds are: {recent})")
            if len(found) > 1:
                named = ", ".join(row.id for row in found[-5:] if row is not None)
                raise TableError(f"{len(found)} rounds end in {args.id!r} (the last: {named}): give the whole id")
            assert found[0] is not None
            records = journal.round_records(found[0].id)
            summary = recall(records)
            summary["staff"] = staff_at(journal.records_of(LoginGranted, LoggedOut), found[0].started_seq,
                                        found[0].ended_seq)
            signed = (write_signed(args, found[0].id, found[0].started_seq, max(r.seq for r in records))
                      if args.signed else None)
    except TableError as exc:
        print(f"tablectl: {exc}", file=sys.stderr)
        return getattr(exc, "exit_code", 2)
    print(json.dumps(summary, indent=2) if args.json else "\n".join(_text(summary)))
    if signed:
        print(signed, file=sys.stderr)
    return 0


def write_signed(args: argparse.Namespace, round_id: str, first_seq: int, last_seq: int) -> str:
    """Write the round's run of the signed event log to ``--signed``; what to tell the reader (stderr)."""
    from controller.records import excerpt
    from controller.records.audit import trail_files
    from controller.records.keys import public_path

    config = load_config(args.config)
    paths = record_paths(config, journal=Path(args.journal) if args.journal else None)
    files = [Path(args.log)] if args.log else trail_files(paths.log)
    if not files or not all(f.is_file() for f in files):
        raise TableError(f"no event log at {args.log or paths.log}: give the table's log with --log FILE")
    lines = excerpt.cut(files, first_seq, last_seq)
    if not lines:
        raise TableError(f"the event log {', '.join(map(str, files))} holds no line of round {round_id} "
                         f"(seq {first_seq} to {last_seq}): give the log it was written to with --log FILE")
    out = Path(args.signed)
    try:
        out.write_bytes(b"".join(line + b"\n" for line in lines))
    except OSError as exc:
        raise TableError(f"cannot write {out}: {exc.strerror or exc}") from None
    key = public_path(paths.key)
    return (f"tablectl: wrote the {len(lines)} signed lines of round {round_id} to {out}; check them with: "
            f"tablectl audit verify --excerpt {out} --public-key {key}")
