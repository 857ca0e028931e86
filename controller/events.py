"""Everything that happens at the table, as typed records: the schema of the journal, the log and the floor.

Each event is a frozen ``msgspec.Struct`` named for what happened
(``WagerSettled``), tagged in its records by its ``event`` name
(``"wager_settled"``, also ``WagerSettled.EVENT``). Writers construct records;
readers (the journal, recovery and replay, the recall, the console, the
floor) match on their types. ``docs/events.md`` is generated from this module
(``python -m controller.events``), and a test fails when they differ.

A record's stored form is one flat JSON object: ``event``, the envelope
(``table``, ``round``, ``seq``, ``timestamp``; ``game`` on a round's own
events), then the event's fields in the order declared here. ``to_record`` and
``from_record`` convert both ways without loss: ``from_record(to_record(e)) ==
e``. A field written ``UNSET`` is left out of the record (and reads back
``UNSET``); the three events whose content is the game's own (``Revealed``,
``SettlementSummarized``, ``PositionPassed``) keep it in ``details``, written
flat beside the other fields, as every table before this schema wrote them.
Journals written before the typed events therefore read as they are.

``SCHEMA_VERSION`` counts incompatible changes (a field renamed, removed or
retyped; a new required field). Adding an event, or a field that may be
``UNSET``, keeps the version: readers ignore fields they do not know.

Why msgspec: its tagged unions decode a record to the right class in one
step and check every field's type while doing it (what a reader on the floor
needs from a record that crossed a network), ``UNSET`` says "absent" without
a sentinel of our own, and encoding is fast enough for the journal's write
path; frozen structs give the same guarantees as frozen dataclasses.
"""

from __future__ import annotations

import ast
import inspect
import json
import sys
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, ClassVar, TypeVar, Union, get_type_hints

import msgspec
from msgspec import UNSET, UnsetType

from controller.odds import Outcome
from controller.settlement import Settlement

SCHEMA_VERSION = 1
"""Incompatible changes to the records so far (see the module doc)."""

__all__ = ["UNSET", "SCHEMA_VERSION", "Event", "RoundEvent", "EVENTS", "UnknownEvent", "to_record", "from_record",
           "stamped", "staked_after", "markdown", "json_schema"]


class UnknownEvent(ValueError):
    """A record this schema cannot read: an event it does not name, or a field of the wrong type."""


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="event"):
    """The envelope every record carries; the event log fills it in when it writes the record."""

    EVENT: ClassVar[str] = ""
    OPEN: ClassVar[bool] = False
    """Whether the event carries the game's own fields in ``details`` (written flat in the record)."""

    table: str = ""
    """The table id (``[table] id`` in the config)."""
    round: str | None = None
    """The round the event belongs to; ``None`` for the table's own (a shuffle between rounds, a camera going off)."""
    seq: int = 0
    """The table's sequence number: one more for every record, never reused, in the journal and the log alike."""
    timestamp: str = ""
    """When the event was written: UTC, ISO 8601, ``Z``."""


class RoundEvent(Event, frozen=True, kw_only=True):
    """An event of a round's own engine (``controller.engine.round``): it carries the game."""

    game: str = ""
    """The game id (``top-card``, ...)."""


# -- the round --------------------------------------------------------------------------------------------------------

class RoundStarted(RoundEvent, frozen=True, kw_only=True, tag="round_started"):
    """A round opened: its spots, odd-cent rule, the game's options and the table roles it starts with."""

    spots: int
    """Spots on the layout."""
    rounding: str
    """The table's rule for odd cents (``player``, ``house``)."""
    options: dict[str, Any]
    """The game's options as configured (pay tables, limits of the game's own)."""
    roles: dict[str, Any]
    """Who plays which role this round (the player-dealer, the bank button) and the game's carried state (a meter)."""
    rules: int | UnsetType = UNSET
    """The revision of the game's rules the round is settled by (``Game.rules_version``), written from the second on:
    a round journaled before a revision is replayed by the rules it was played under."""


class StateChanged(RoundEvent, frozen=True, kw_only=True, tag="state_changed"):
    """The round's state machine moved (``betting``, ``dealing``, ..., ``complete``, ``void``, ``hold``)."""

    state: str
    """The state the round is in now."""


class WagerRefusal(RoundEvent, frozen=True, kw_only=True, tag="wager_refused"):
    """A wager was refused (a limit, a spot that takes no such wager, betting closed); nothing changed."""

    spot: int
    wager: str
    amount: int | float | str | bool | None
    """The amount asked, in cents, as it was asked (not always a whole number: that may be why it was refused);
    ``None`` when the table as a whole was refused."""
    reason: str
    """Why, in the dealer's words."""


class WagerPlaced(RoundEvent, frozen=True, kw_only=True, tag="wager_placed"):
    """A wager went on the layout, or a decision added to one (a raise, a double: ``by`` is ``decision``)."""

    spot: int
    wager: str
    amount: int
    """Cents: the wager's amount, or what the decision added to it."""
    previous: int
    """Cents on that wager before."""
    by: str | UnsetType = UNSET
    """``decision`` when a decision placed it; absent for a wager the player put down."""


class WagerChanged(RoundEvent, frozen=True, kw_only=True, tag="wager_changed"):
    """A wager already on the layout was changed during betting (to 0: taken back)."""

    spot: int
    wager: str
    amount: int
    """Cents: the wager's new amount."""
    previous: int
    """Cents before."""


def staked_after(event: WagerPlaced | WagerChanged) -> int:
    """The wager's amount once ``event`` applies: a decision adds to it, a wager put down sets it."""
    return event.previous + event.amount if isinstance(event, WagerPlaced) and event.by == "decision" else event.amount


class PlayerSeated(RoundEvent, frozen=True, kw_only=True, tag="player_seated"):
    """A spot was dealt in without a wager on the layout (card-room poker, whose stakes come from decisions)."""

    spot: int


class BettingClosed(RoundEvent, frozen=True, kw_only=True, tag="no_more_bets"):
    """The dealer called "no more bets"."""

    wagers: int
    """How many wagers are on the layout."""
    total: int
    """Their sum, in cents."""


class FeeCollected(RoundEvent, frozen=True, kw_only=True, tag="fee_collected"):
    """The house collected a fee (a California collection fee before the deal, a poker drop from the pot)."""

    spot: int
    amount: int
    """Cents."""
    reason: str
    """Which fee, as the card room posts it."""
    from_pot: bool | UnsetType = UNSET
    """``True`` when taken from the pot at settlement; absent for a fee collected before the deal."""


class CardFaulted(RoundEvent, frozen=True, kw_only=True, tag="card_fault"):
    """A card (or tile) arrived that the round cannot take: none was due, or the game refused it. The round holds."""

    card: str
    """The card's code (``AS``) or the tile's (``6-6``)."""
    source: str
    """Where it came from: ``shoe``, ``shuffler``, ``dealer``, ``supervisor``, ``camera``."""
    reason: str


class CardBurned(RoundEvent, frozen=True, kw_only=True, tag="card_burned"):
    """A card went to the discards unseen by the game (a burn after a shuffle)."""

    card: str
    source: str


class CardDealt(RoundEvent, frozen=True, kw_only=True, tag="card_dealt"):
    """A card (or tile) was placed where the game wanted it."""

    card: str
    target: str
    """Where it went, in the game's words (``home``, ``dealer``, ``seat3``, ``board``, ...)."""
    source: str


class CardCorrected(RoundEvent, frozen=True, kw_only=True, tag="card_corrected"):
    """The supervisor replaced a card already placed (it was misread); the round stays where it was."""

    index: int
    """The card's place in the round's cards, from 0."""
    target: str
    card: str
    """The card that is really there."""
    previous: str
    """The card that was recorded."""
    reason: str


class Revealed(RoundEvent, frozen=True, kw_only=True, tag="reveal"):
    """The game turned its cards up: ``details`` holds what it shows (hands, rankings), in the game's words."""

    OPEN: ClassVar[bool] = True
    details: dict[str, Any] = {}
    """The game's reveal (``Game.reveal``), written flat in the record."""


class DecisionTaken(RoundEvent, frozen=True, kw_only=True, tag="decision"):
    """A player (or the player-dealer) decided: fold, raise, hit, set a hand, throw dice."""

    spot: int
    action: str
    amount: int | None
    """Cents, for an action that stakes an amount."""
    cards: list[str]
    """Cards (or tiles) the decision names: a discard, the cards of a hand being set."""
    hand: int
    """Which of the spot's hands (after a split), from 0."""
    values: list[int]
    """Numbers the decision carries (the three dice the player-dealer threw)."""


class DecisionRefusal(RoundEvent, frozen=True, kw_only=True, tag="decision_refused"):
    """A decision the rules do not allow now; nothing changed."""

    spot: int
    action: str
    amount: int | None
    cards: list[str]
    hand: int
    values: list[int]
    reason: str


class IrregularityReported(RoundEvent, frozen=True, kw_only=True, tag="irregularity"):
    """The dealer reported an irregularity the game's rules remedy (a boxed or exposed card, a pile miscounted)."""

    kind: str
    """``boxed``, ``exposed``, ``count``, ``premature``."""
    card: str | None
    target: str | None
    count: int | None


class IrregularityRefusal(RoundEvent, frozen=True, kw_only=True, tag="irregularity_refused"):
    """A reported irregularity the game cannot take now; nothing changed."""

    kind: str
    card: str | None
    target: str | None
    count: int | None
    reason: str


class WagerSettled(RoundEvent, frozen=True, kw_only=True, tag="wager_settled"):
    """One wager settled by the pay table (or returned when the round is void), in the order the rules settle."""

    spot: int
    wager: str
    stake: int
    """Cents the player put down."""
    outcome: Outcome
    payout: str
    """The pay table's words (``3 to 2``, ``push``)."""
    returned: int
    """Cents going back to the player: the stake with any winnings (0 for a loss)."""
    exact_returned: Fraction
    """What the odds owe exactly, before the table's rule for odd cents (written ``p/q``)."""
    house_win: int
    """``stake - returned``: negative when the house pays."""
    reason: str
    """The rule that decided it."""
    banker: str
    """Who takes the other side: ``house``, or ``player-dealer``."""
    rounded: bool
    """Whether odd cents were rounded."""


    @classmethod
    def of(cls, settlement: Settlement) -> WagerSettled:
        """The record of a settled wager."""
        return cls(spot=settlement.spot, wager=settlement.wager, stake=settlement.stake, outcome=settlement.outcome,
                   payout=settlement.payout, returned=settlement.returned, exact_returned=settlement.exact_returned,
                   house_win=settlement.house_win, reason=settlement.reason, banker=settlement.banker,
                   rounded=settlement.rounded)


class SettlementSummarized(RoundEvent, frozen=True, kw_only=True, tag="settlement_summary"):
    """After the wagers: what the game adds (the player-dealer's bank and net, the pots), in ``details``."""

    OPEN: ClassVar[bool] = True
    details: dict[str, Any] = {}
    """The game's summary (``Game.settlement_summary``), written flat in the record."""


class RoundCompleted(RoundEvent, frozen=True, kw_only=True, tag="round_complete"):
    """Every wager is settled: the round's totals, in cents."""

    wagered: int
    """Staked against the house."""
    paid: int
    """Returned by the house (stakes with winnings)."""
    fees: int
    house_win: int
    """``wagered - paid + fees``."""
    between_players: int
    """Staked between players and a player-dealer (the house banks none of it)."""


class RoundVoided(RoundEvent, frozen=True, kw_only=True, tag="round_voided"):
    """The round is void (a misdeal, the supervisor, a restart the rules void): every wager went back."""

    reason: str
    wagered: int
    paid: int
    fees: int
    house_win: int
    between_players: int | UnsetType = UNSET
    """Absent when recovery voided a round it could not rebuild."""


class HoldReasonAdded(RoundEvent, frozen=True, kw_only=True, tag="hold_reason_added"):
    """A round already on hold was given another reason to stay there."""

    reason: str


class RoundHeld(RoundEvent, frozen=True, kw_only=True, tag="round_held"):
    """The round stopped for the dealer or a supervisor (a device fault, a card the camera doubts, ...)."""

    reason: str
    held_from: str | None
    """The state it will go back to."""


class RoundResumed(RoundEvent, frozen=True, kw_only=True, tag="round_resumed"):
    """A held round went on."""

    by: str
    """``dealer``, ``supervisor``, ``device recovered``, ``irregularity``."""
    reason: str | None
    """Why it had been held."""


class PositionPassed(RoundEvent, frozen=True, kw_only=True, tag="position_passed"):
    """After a round, the player-dealer position or the bank button moved, or the game stopped: ``details``."""

    OPEN: ClassVar[bool] = True
    details: dict[str, Any] = {}
    """The game's facts (``Game.pass_position``: ``player_dealer``, ``button``, ``stopped``), written flat."""


class PositionTaken(RoundEvent, frozen=True, kw_only=True, tag="position_taken"):
    """A stopped player-dealer game goes on: a seat took the position it was offered (``details``)."""

    OPEN: ClassVar[bool] = True
    details: dict[str, Any] = {}
    """The game's facts (``Game.take_position``: ``player_dealer``, ``bank_button``), written flat."""


class JackpotClaimed(RoundEvent, frozen=True, kw_only=True, tag="jackpot_claimed"):
    """A spot's hand claims a linked progressive (``docs/floor.md``): the floor verifies it against the cards dealt
    and answers with the award, once."""

    jackpot: str
    """The linked jackpot's name."""
    spot: int
    target: str
    cards: list[str]
    """The hand that claims it."""
    length: int
    """The straight flush's length (High Card Flush's Progressive)."""
    share: str
    """The share of the meter the pay table gives it (``1``: all of it)."""


class JackpotAwarded(RoundEvent, frozen=True, kw_only=True, tag="jackpot_awarded"):
    """The floor answered a jackpot claim (``controller.engine.jackpot``): an input, so a round re-enacted from the
    journal is given the same award. A refused claim keeps the round held for a supervisor."""

    spot: int
    jackpot: str | None
    verified: bool
    """Whether the floor found the claimed cards among the cards it saw the table deal."""
    amount: str | None
    """The award in cents, exact (``p/q``); ``None`` when refused."""
    meter_before: str | None
    """The linked meter before and after the award, in cents, exact."""
    meter_after: str | None
    reason: str | None
    """Why the floor refused it."""
    stream_seq: int | None
    """The floor stream's sequence number of the claim."""


class RoundRecovered(Event, frozen=True, kw_only=True, tag="round_recovered"):
    """On restart, a round the journal held open was rebuilt from it: what happens to it now."""

    action: str
    """``resumed``, ``held``, ``completed`` or ``voided``."""
    state: str
    cards: int | None
    """Cards out when it stopped (``None`` when it could not be rebuilt)."""
    message: str
    """What the dealer is told."""


class TableServed(Event, frozen=True, kw_only=True, tag="table_served"):
    """``tablectl serve`` dealt from this journal to players for the first time (not ``--simulated-players``): it is a
    live table's journal from now on; ``tablectl run`` refuses it, and ``tablectl journal restore`` keeps it so, even
    from a backup taken before."""


class ClockSteppedBack(Event, frozen=True, kw_only=True, tag="clock_stepped_back"):
    """The table's clock gave a time earlier than the last record's (set back by hand, a wrong time server, a flat
    clock battery): the records from here on are stamped by the clock as it now is, so their times go back; their
    order is the sequence number's, which never goes back. Journaled just before the record that found it."""

    previous: str
    """The last record's timestamp before the step (UTC, ISO 8601)."""
    previous_seq: int
    """That record's sequence number."""
    seconds: float
    """How far back the clock went, in seconds."""
    message: str
    """What the operator is told."""


class TableStateNotRestored(Event, frozen=True, kw_only=True, tag="table_state_not_restored"):
    """On restart, the game's carried state (roles, a meter) could not be put back from the journal."""

    reason: str


# -- devices ----------------------------------------------------------------------------------------------------------

class ShoeShuffled(Event, frozen=True, kw_only=True, tag="shoe_shuffled"):
    """The dealing shoe was shuffled (before the first round, after the cut card)."""

    shuffle: int
    """How many shuffles this session."""
    burn: int
    """Cards to burn before the next deal."""
    cards: int | UnsetType | None = UNSET
    """Cards the shoe says it holds (``None``: it does not say; absent in journals before protocol 1.1)."""


class CutCardReached(Event, frozen=True, kw_only=True, tag="cut_card_reached"):
    """The shoe reached its cut card: the shoe is shuffled after this round."""

    count: int
    """Cards drawn from the shoe."""


class ShoeEmpty(Event, frozen=True, kw_only=True, tag="shoe_empty"):
    """The shoe has no card left."""

    count: int


class ShoeCardBurned(Event, frozen=True, kw_only=True, tag="shoe_card_burned"):
    """The shoe burned a card by itself (its own procedure, not the round's)."""

    card: str
    """The card's code, ``--`` when the shoe could not read it."""
    count: int | UnsetType = UNSET
    """Cards drawn from the shoe (absent since protocol 1.1: the card's own record counts it)."""


class ShoeFaulted(Event, frozen=True, kw_only=True, tag="shoe_fault"):
    """The shoe reported a fault (``jam``, ``door-open``, ``link-lost``, ...)."""

    code: str
    message: str


class ShoeRecovered(Event, frozen=True, kw_only=True, tag="shoe_recovered"):
    """The shoe reported a fault cleared."""

    code: str
    message: str


class DeviceWarning(Event, frozen=True, kw_only=True, tag="device_warning"):
    """A device (or the table about it) warns of something that stops nothing: a cut card far from its place, a
    shoe that reports no cut card, a warning of the device's own (``docs/protocol.md`` 10)."""

    device: str
    """``shoe`` or ``shuffler``."""
    code: str
    message: str


class CardUnreadable(Event, frozen=True, kw_only=True, tag="card_unreadable"):
    """A card came out of the device that it could not read: the round holds for the supervisor to enter it."""

    device: str
    count: int | UnsetType = UNSET
    """The shoe's card count at that card (a shoe)."""
    why: str | UnsetType = UNSET
    """What the shoe said of it, when it said anything."""
    left_in_stack: int | UnsetType = UNSET
    """Cards of the stack still to deal (a shuffler)."""


class CardUnplaced(Event, frozen=True, kw_only=True, tag="card_unplaced"):
    """A card the device let out that no round took (the table closed with it out): on the table, for the
    supervisor (``docs/protocol.md`` 5.7)."""

    device: str
    how: str
    """How it came: ``drawn``, ``burned``, ``unreadable`` or ``stack``."""
    count: int | UnsetType = UNSET
    """The shoe's card count at that card (a shoe)."""
    card: str | UnsetType = UNSET
    """The card's code, ``--`` if unreadable (a shoe)."""
    cards: list[str] | UnsetType = UNSET
    """The cards left of the last stack (a shuffler)."""
    message: str
    """What the supervisor is told."""


class PiecesWashed(Event, frozen=True, kw_only=True, tag="pieces_washed"):
    """The dealer washed the tiles for a new round (Pai Gow Tiles)."""

    count: int


class ShufflerShuffled(Event, frozen=True, kw_only=True, tag="shuffler_shuffled"):
    """The shuffler shuffled a deck for the round."""

    count: int
    """Cards in the shuffled deck."""


class ShufflerFaulted(Event, frozen=True, kw_only=True, tag="shuffler_fault"):
    """The shuffler reported a fault."""

    code: str
    message: str


class ShufflerRecovered(Event, frozen=True, kw_only=True, tag="shuffler_recovered"):
    """The shuffler reported a fault cleared."""

    code: str
    message: str


class StackDispensed(Event, frozen=True, kw_only=True, tag="stack_dispensed"):
    """The shuffler gave a stack of cards (Three Card Poker's stacks of three)."""

    cards: list[str]
    """The cards' codes, ``--`` for one it could not read."""


class StackUnknown(Event, frozen=True, kw_only=True, tag="stack_unknown"):
    """The shuffler dispensed a stack without saying which cards (its answer lost): the round holds."""

    cards: list[str]
    """The cards it did name (``--`` for the others)."""
    asked: int
    """Cards asked for."""
    message: str


class DeviceFaultReported(Event, frozen=True, kw_only=True, tag="device_fault"):
    """A device fault the console shows (a shoe that stops answering, a fault between rounds)."""

    device: str
    reason: str


class PieceRefusal(Event, frozen=True, kw_only=True, tag="piece_refused"):
    """A piece the dealer keyed in was refused (the set holds no such tile, or no copy of it is left)."""

    code: str
    target: str
    reason: str


# -- shuffle assurance ------------------------------------------------------------------------------------------------

class ShuffleTested(Event, frozen=True, kw_only=True, tag="shuffle_tested"):
    """A shoe (or a shuffler's deck) ended: its order and every randomness test's result (``docs/shuffle.md``)."""

    device: str
    """The device, as ``TABLE/shoe`` or ``TABLE/shuffler``."""
    shoe: int
    """The device's shoe (or deck) number."""
    cards: int
    """Cards dealt from it."""
    order: list[str]
    """The cards in the order dealt (``--`` for one the device could not read)."""
    results: list[dict[str, Any]]
    """Each test: ``test``, ``statistic``, ``expected``, ``p``, ``score``, ``hold_limit``, ``warn_limit``, ``level``,
    ``card``, ``detail``."""
    rounds: list[str] | UnsetType = UNSET
    """The rounds its cards were dealt to, in the order dealt (absent in journals written before it was recorded:
    ``tablectl shuffle report`` then finds them from the journal's cards between the shoe's shuffle and its end)."""


class ShuffleAlarm(Event, frozen=True, kw_only=True, tag="shuffle_alarm"):
    """A randomness test passed its limit: a hold (the round holds) or a warning to the pit."""

    device: str
    test: str
    level: str
    """``hold`` or ``warn``."""
    shoe: int
    card: int | None
    """After how many cards of the shoe it fired (``None``: at the end of the shoe)."""
    score: float
    limit: float
    reason: str


class DeckReconciled(Event, frozen=True, kw_only=True, tag="deck_reconciled"):
    """A shoe's (or deck's) cards counted against its composition: after the shuffle (the device's count) and at
    its end (every card seen)."""

    device: str
    shoe: int
    at: str
    """``shuffle`` or ``end of shoe``."""
    size: int
    """Cards the composition holds."""
    seen: int
    counted: int | None
    """The device's own count, when it gives one."""
    unreadable: int
    missing: list[str]
    extra: list[list[Any]]
    """Cards seen more often than the composition holds, each ``[card, times]``."""
    foreign: list[str]
    """Cards of no deck of this composition."""
    camera_only: list[str]
    """Cards the camera saw that the device did not read."""
    held: bool
    """Whether the next round holds for it."""
    problems: list[str]
    camera_disagreed: list[str] | UnsetType = UNSET
    """At the end of a shoe: each camera discrepancy during it, in words."""


# -- the camera -------------------------------------------------------------------------------------------------------

class CameraConfirmed(Event, frozen=True, kw_only=True, tag="camera_confirms"):
    """The camera saw the cards out so far where the shoe said, as a card landed."""

    cards: int
    """Cards it saw."""


class CameraAgreed(Event, frozen=True, kw_only=True, tag="camera_agrees"):
    """Before settling, the camera saw every card where the shoe said."""

    cards: int


class CameraDisagreed(Event, frozen=True, kw_only=True, tag="camera_discrepancy"):
    """The camera and the shoe disagree about a card: the round holds."""

    kind: str
    """``missing``, ``unexpected``, ``different``, ``unreadable``, ..."""
    zone: str | None
    dealt: str | None
    """The card the shoe dealt there."""
    seen: str | None
    """The card the camera read there."""


class CameraFailed(Event, frozen=True, kw_only=True, tag="camera_failed"):
    """The camera could not look (no frame); the round holds."""

    reason: str


class CameraLost(Event, frozen=True, kw_only=True, tag="camera_lost"):
    """A live camera stopped giving frames."""

    device: str
    at: str
    """When, UTC ISO 8601."""


class CameraBack(Event, frozen=True, kw_only=True, tag="camera_back"):
    """A live camera gives frames again."""

    device: str
    at: str


class CameraOff(Event, frozen=True, kw_only=True, tag="camera_off"):
    """The table plays without its camera (no artwork, no camera device)."""

    reason: str


class CameraScaleLow(Event, frozen=True, kw_only=True, tag="camera_scale_low"):
    """The camera's calibration gives too few pixels per millimetre for reliable reads."""

    px_per_mm: float
    reason: str


# -- the supervisor ---------------------------------------------------------------------------------------------------

class SupervisorActed(Event, frozen=True, kw_only=True, tag="supervisor_action"):
    """A supervisor resumed or voided a round, entered a card, corrected a placed card, or cleared a table fault."""

    action: str
    """``resume``, ``void``, ``correct_card``, ``correct_placed_card``."""
    reason: str
    by: str
    """The supervisor's name (``records.staff``)."""
    index: int | UnsetType = UNSET
    """The corrected card's place, for ``correct_placed_card``."""
    card: str | UnsetType = UNSET
    """The card entered."""
    previous: str | UnsetType = UNSET
    """The card it replaced, for ``correct_placed_card``."""


class SupervisorGranted(Event, frozen=True, kw_only=True, tag="supervisor_granted"):
    """A supervisor's name and PIN (or card) were accepted for an action on the dealer's page, or at the terminal
    (``tablectl hold``)."""

    name: str
    step: str
    """Which step of the action (asking, confirming; ``command line`` at the terminal)."""
    action: str
    client: str | UnsetType = UNSET
    """The address the request came from (absent on the command line: ``tablectl hold``)."""


class SupervisorRefusal(Event, frozen=True, kw_only=True, tag="supervisor_refused"):
    """A supervisor's action was refused: a wrong PIN, an unknown name, too many tries; or by the table (step
    ``table``): a hold resumed (the table's, or a held round's, then with its ``round``) while a device that blocks
    what comes next (the next round, the round's next card) is still down, or a held round resumed that may only be
    voided (a shuffler's deck lost to a restart with cards of it dealt)."""

    name: str
    step: str
    """``ask``, ``confirm`` (the PIN, at the console), ``command line``, or ``table`` (the table refused the action)."""
    action: str
    client: str | UnsetType = UNSET
    reason: str


# -- the console's staff and requests -------------------------------------------------------------------------------

class LoginGranted(Event, frozen=True, kw_only=True, tag="login_granted"):
    """A dealer or supervisor logged in to a page."""

    name: str
    page: str
    """``dealer`` or ``pit``."""
    client: str
    role: str


class LoginRefused(Event, frozen=True, kw_only=True, tag="login_refused"):
    """A login was refused: a wrong PIN, an unknown name, too many tries."""

    name: str
    page: str
    client: str
    reason: str


class LoggedOut(Event, frozen=True, kw_only=True, tag="logout"):
    """A dealer or supervisor logged out, or their session ended without them (``ended`` says how)."""

    name: str
    client: str
    ended: str | UnsetType = UNSET
    """How a session ended that its holder did not log out of: ``idle`` (unused for 12 hours), ``replaced`` (the
    console's oldest unused session, making room for a login), ``console stopped``, ``table restarted`` (lost with
    a run that stopped without a record: journaled as the next ``serve`` starts); absent: they logged out."""


class RequestsRefused(Event, frozen=True, kw_only=True, tag="requests_refused"):
    """Requests the console's guard refused since the last such record (a foreign host, a missing token, ...)."""

    counts: dict[str, int | str]
    """How many of each kind ("path: reason"); a kind whose words look like a secret's name ("no CSRF token") has
    its count redacted as every such key is (``controller.engine.redact``), so ``total`` is the sum to read."""
    total: int


# -- the schema as data -----------------------------------------------------------------------------------------------

def _subclasses(cls: type[Event]) -> list[type[Event]]:
    return [c for sub in cls.__subclasses__() for c in (sub, *_subclasses(sub))]


EVENTS: dict[str, type[Event]] = {}
"""Every event class by its ``event`` name, in the order declared (a module's names keep their order: reading each
class's source line instead cost every process 0.7 s of parsing)."""
_declared = set(_subclasses(Event))
for _cls in [c for c in list(globals().values()) if isinstance(c, type) and c in _declared]:
    if _cls is not RoundEvent:
        _cls.EVENT = str(_cls.__struct_config__.tag)
        EVENTS[_cls.EVENT] = _cls

E = TypeVar("E", bound=Event)


def _enc(value: Any) -> Any:
    """Values msgspec has no JSON type for: a numpy number as the number it is (the shuffle tests' scores), a
    fraction as ``p/q``, anything else (a path in options) as its text, as the log always wrote them."""
    if isinstance(value, float):
        return float(value)
    item = getattr(value, "item", None)  # a numpy scalar
    if callable(item) and not isinstance(value, Fraction):
        return item()
    return str(value)


def _dec(kind: type, value: Any) -> Any:
    if kind is Fraction and isinstance(value, str | int):
        return Fraction(value)
    raise NotImplementedError(f"no reading for {kind.__name__}")


def to_record(event: Event) -> dict[str, Any]:
    """The event as its stored form: one flat JSON-able dict, ``event`` first."""
    record: dict[str, Any] = msgspec.to_builtins(event, enc_hook=_enc)
    if event.OPEN:
        record.update(record.pop("details"))
    return record


def from_record(record: Mapping[str, Any]) -> Event:
    """The typed event a stored record holds; ``UnknownEvent`` names what does not fit the schema."""
    name = record.get("event")
    cls = EVENTS.get(name) if isinstance(name, str) else None
    if cls is None:
        raise UnknownEvent(f"record {record.get('seq')}: no event {name!r} in schema version {SCHEMA_VERSION}")
    data = dict(record)
    if cls.OPEN:
        known = set(cls.__struct_fields__) | {"event"}
        data = {k: v for k, v in record.items() if k in known} | {"details": {k: v for k, v in record.items() if k not in known}}
    try:
        event: Event = msgspec.convert(data, type=cls, dec_hook=_dec)
    except msgspec.ValidationError as exc:
        raise UnknownEvent(f"record {record.get('seq')} ({name}): {exc}") from None
    return event


def stamped(event: E, **envelope: Any) -> E:
    """``event`` with envelope fields filled in (``table``, ``round``, ``seq``, ``timestamp``, ``game``)."""
    return msgspec.structs.replace(event, **envelope)


def json_schema() -> dict[str, Any]:
    """The JSON Schema of every record (``msgspec.json.schema``), with the schema version: for other systems."""
    union: Any = Union.__getitem__(tuple(EVENTS.values()))  # every event, built from the registry
    schema: dict[str, Any] = msgspec.json.schema(union, schema_hook=_schema_hook)
    schema["x-tablectl-schema-version"] = SCHEMA_VERSION
    return schema


def _schema_hook(kind: type) -> dict[str, Any]:
    if kind is Fraction:
        return {"type": "string", "pattern": r"^-?\d+(/\d+)?$"}
    raise NotImplementedError


# -- docs/events.md -----------------------------------------------------------------------------------------------------

def _field_docs(cls: type) -> dict[str, str]:
    """The docstrings written under each field in ``cls``'s source."""
    node = ast.parse(inspect.getsource(cls)).body[0]
    docs: dict[str, str] = {}
    assert isinstance(node, ast.ClassDef)
    for stmt, following in zip(node.body, node.body[1:]):
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and isinstance(following, ast.Expr) \
                and isinstance(following.value, ast.Constant) and isinstance(following.value.value, str):
            docs[stmt.target.id] = _md(following.value.value)
    return docs


def _type_name(hint: Any) -> str:
    text = str(hint) if not isinstance(hint, type) else hint.__name__
    for prefix in ("typing.", "msgspec._core.", "fractions.", "controller.odds."):
        text = text.replace(prefix, "")
    return text.replace("UnsetType", "UNSET").replace("NoneType", "None").replace("|", "\\|")


def _md(text: str) -> str:
    """A docstring as one Markdown line (reST's double back-quotes as single ones)."""
    return " ".join(text.split()).replace("``", "`")


def markdown() -> str:
    """``docs/events.md``: every event, when it happens, and its fields."""
    lines = [
        "# Events",
        "",
        "<!-- generated by `python -m controller.events > docs/events.md`; tests/test_events.py checks it -->",
        "",
        f"Schema version {SCHEMA_VERSION}. Everything that happens at a table is one of these records, journaled",
        "first (`controller/records/journal.py`), then written to the JSON event log and shown on the console.",
        "Each record is one flat JSON object: `event` (the name below), the envelope, then the event's fields in",
        "the order listed. A field marked `UNSET` may be absent. Defined in `controller/events.py`, whose module",
        "doc says how versions change; `controller.events.json_schema()` gives the same as JSON Schema.",
        "",
        "## Envelope",
        "",
        "| field | type | meaning |",
        "|---|---|---|",
    ]
    envelope = _field_docs(Event) | _field_docs(RoundEvent)
    hints = get_type_hints(RoundEvent)
    lines += [f"| `{name}` | `{_type_name(hints[name])}` | {envelope.get(name, '')} |" for name in RoundEvent.__struct_fields__]
    lines += ["", "`game` is on a round's own events only (those marked *round* below).", ""]
    for name, cls in EVENTS.items():
        kind = "round" if issubclass(cls, RoundEvent) else "table"
        lines += [f"## `{name}` ({kind})", "", f"`{cls.__name__}`: {_md(cls.__doc__ or '')}", ""]
        own = [f for f in cls.__struct_fields__ if f not in RoundEvent.__struct_fields__]
        if own:
            docs, hints = _field_docs(cls), get_type_hints(cls)
            lines += ["| field | type | meaning |", "|---|---|---|"]
            lines += [f"| `{f}` | `{_type_name(hints[f])}` | {docs.get(f, '')} |" for f in own]
            lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.stdout.write((json.dumps(json_schema(), indent=2) if sys.argv[1:] == ["--json-schema"] else markdown()) + "\n")
