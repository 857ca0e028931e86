"""A blackjack dealer's shift at the console, in Chromium at the table PC's 1024x600: what the screen showed that
would have misled the dealer, each checked here as they met it.

The shoe is the in-process simulator, its order after the shuffle stacked with the cards a walk needs (after the
burn), so each round deals what the dealer saw."""

from __future__ import annotations

from typing import Any

from controller.cards import Card
from drivers.shoe import InProcessShoe
from tests.console.tables import DEALER, SUPERVISOR, log_in, served
from tests.console.test_browser import enter, expect_state, expect_text, settlement_rows, supervise


def stack(shoe: InProcessShoe, codes: str) -> None:
    """Deal ``codes`` first after the next shuffle and its burn: each card swapped in from further down the shuffled
    order, so the shoe still holds exactly its decks."""
    shuffle = shoe.shuffle

    def stacked() -> None:
        shuffle()
        order = shoe._order  # the simulator's own order, stacked for the walk
        for position, code in enumerate(codes.split(), start=1):
            card = Card.parse(code)
            found = order.index(card, position)
            order[position], order[found] = order[found], order[position]
        shoe.shuffle = shuffle  # type: ignore[method-assign]

    shoe.shuffle = stacked  # type: ignore[method-assign]


def hand_shown(page: Any, spot: int, place: str) -> tuple[str, str]:
    """The cards (their codes) and the total the spot shows for one hand (``3.1``)."""
    hand = page.locator(f'#layout section.spot[data-spot="{spot}"] .hand[data-target="{place}"]')
    cards = hand.locator(".card")
    codes = " ".join(str(cards.nth(i).get_attribute("data-card")) for i in range(cards.count()))
    return codes, hand.locator(".hand-label").inner_text()


def decide(page: Any, label: str, action: str) -> None:
    expect_text(page, "#decision-label", f"^{label}$")
    page.click(f'#decision-actions button[data-action="{action}"]')


def take_bets(page: Any, *wagers: tuple[int, str, str]) -> None:
    """Open betting and enter ``(spot, wager, dollars)`` in turn, the last one seen on the layout before returning."""
    page.click("#open-round")
    expect_state(page, "betting")
    for spot, wager, dollars in wagers:
        enter(page, spot, wager, dollars)
    spot, wager, dollars = wagers[-1]
    expect_text(page, f'#layout button.wager[data-spot="{spot}"][data-wager="{wager}"]', rf"\${dollars}\.00")


def test_a_split_pair_shows_each_hand_with_its_own_cards_and_total(table_page: Any) -> None:
    """Pure 21.5, spot 3 splits 8s and splits again: the spot showed "8♥ 8♦ 8♣ 3♦ TB hard 37" and "5♥ hard 5" for the
    hands 8H 3D TB (21), 8C 5H (13) and 8D 4C (12): every card under the hand it was dealt to, not the one it lies in
    once split. Each hand now shows its own cards and total, in the order they are played."""
    page = table_page
    with served("pure-21-5") as console:
        # seats 2 and 3 clockwise from the player-dealer at seat 1; its up card 6S, its down card 9S
        stack(console.loop.table.feed.shoe, "9C 8H 6S 7C 8D 9S 8C 3D TB 5H 4C 2S 9D")
        page.goto(console.url)
        log_in(page)
        take_bets(page, (1, "bank", "500"), (2, "base", "10"), (3, "base", "10"))
        page.click("#no-more-bets")
        decide(page, "Spot 2 to act", "stand")
        decide(page, "Spot 3 to act", "split")
        decide(page, "Spot 3 hand 1 to act", "split")  # 8H and 8C: split again
        decide(page, "Spot 3 hand 1 to act", "hit")  # 8H 3D: 11, must hit; TB makes 21, which stands
        expect_text(page, "#decision-label", "^Spot 3 hand 2 to act$")  # 8C 5H: 13
        assert hand_shown(page, 3, "3.0") == ("8H 3D TB", "hard 21")
        assert hand_shown(page, 3, "3.1") == ("8C 5H", "hard 13")
        assert hand_shown(page, 3, "3.2") == ("8D", "hard 8")
        places = page.locator('#layout section.spot[data-spot="3"] .hand')
        assert [places.nth(i).get_attribute("data-target") for i in range(places.count())] == ["3.0", "3.1", "3.2"]
        decide(page, "Spot 3 hand 2 to act", "stand")
        decide(page, "Spot 3 hand 3 to act", "stand")  # 8D 4C
        expect_state(page, "complete")
        assert hand_shown(page, 3, "3.2") == ("8D 4C", "hard 12")
        reasons = [console.loop.round.settlements[i].reason for i in range(4)] if console.loop.round else []
        assert any(r.startswith("hand 2 8C 5H (hard 13)") for r in reasons), reasons


def test_split_aces_with_a_bonus_card_read_21_on_the_spot_as_they_are_paid(table_page: Any) -> None:
    """Pure 21.5, spot 2 splits aces and draws a Bonus card to one: the spot read "Pure 21.5 Blackjack" beside a hand
    paid as 21 (a split hand is no Pure 21.5 Blackjack, seed 003 Pure 21.5 Object of the game: "on the initial two
    cards dealt")."""
    page = table_page
    with served("pure-21-5") as console:
        stack(console.loop.table.feed.shoe, "AS 7H AD 9S KB 4C 8C 9D")
        page.goto(console.url)
        log_in(page)
        take_bets(page, (1, "bank", "500"), (2, "base", "10"))
        page.click("#no-more-bets")
        decide(page, "Spot 2 to act", "split")
        expect_state(page, "complete")
        assert hand_shown(page, 2, "2.0") == ("AS KB", "soft 21")
        assert hand_shown(page, 2, "2.1") == ("AD 4C", "soft 15")


def test_every_action_of_a_pure_21_5_hand_is_on_the_1024x600_screen(table_page: Any) -> None:
    """Spot 2 with its Bonus and Buster Bets and insurance under the player-dealer's ace, then 8-8: hit, stand, double
    (and double for less), split and surrender. SURRENDER stood below the bottom of the table's screen, reached only by
    scrolling inside the panel, and "double other amount" at its edge (docs/console.md: nothing to scroll)."""
    page = table_page
    with served("pure-21-5") as console:
        stack(console.loop.table.feed.shoe, "8H AH 8D 6S")
        page.goto(console.url)
        log_in(page)
        take_bets(page, (1, "bank", "500"), (2, "base", "10"), (2, "bonus", "5"), (2, "buster", "5"))
        page.click("#no-more-bets")
        expect_text(page, "#decision-label", "^Spot 2 to act$")
        page.click('#decision-actions button[data-action="insurance"][data-amount="5.00"]')
        page.locator('#decision-actions button[data-action="surrender"]').wait_for()
        height = page.viewport_size["height"]
        controls = page.locator("#decision-actions button, #decision-actions input")
        names = [f"{controls.nth(i).get_attribute('data-action')} {controls.nth(i).inner_text()}".strip()
                 for i in range(controls.count())]
        assert {"hit HIT", "stand STAND", "split SPLIT", "surrender SURRENDER"} <= set(names), names
        for i in range(controls.count()):
            box = controls.nth(i).bounding_box()
            assert box is not None and box["y"] + box["height"] <= height, (names[i], box)
        panel = page.locator("#dealer-area .panel")
        assert panel.evaluate("(p) => p.scrollHeight <= p.clientHeight + 1"), "the panel scrolls"


def test_the_pit_views_events_show_the_bank_in_dollars_and_name_split_hands_as_the_payouts_do(table_page: Any) -> None:
    """No Bust, spot 2 splits 8s: the pit view's event list read "settlement summary ... bank $200.00 action 6000
    net 2000 ... returned to player dealer 22000" (cents beside dollars) and "decision spot 2 action stand hand 1" for
    the hand its payout calls "hand 2 8D 5H"."""
    page = table_page
    with served("no-bust-21") as console:
        stack(console.loop.table.feed.shoe, "8H 7C 8D 3D TC 5H 9D 2S")
        page.goto(console.url)
        log_in(page)
        take_bets(page, (1, "bank", "200"), (2, "base", "20"))
        page.click("#no-more-bets")
        decide(page, "Spot 2 to act", "split")
        decide(page, "Spot 2 hand 1 to act", "hit")  # 8H 3D: 11; TC makes 21
        decide(page, "Spot 2 hand 2 to act", "stand")  # 8D 5H: 13
        expect_state(page, "complete")
        page.goto(console.url + "/pit")
        expect_text(page, "#events", "settlement summary")
        events = page.inner_text("#events")
        summary = next(line for line in events.splitlines() if "settlement summary" in line)
        assert "bank $200.00" in summary and " action $40.00" in summary, summary
        assert " net $" in summary or " net -$" in summary, summary
        assert "returned to player dealer $" in summary, summary
        stand = next(line for line in events.splitlines() if "decision" in line and "action stand" in line)
        assert stand.endswith("hand 2"), stand
        settled = next(line for line in events.splitlines() if "8D 5H" in line)
        assert "hand 2 8D 5H" in settled, settled


def test_a_loss_the_short_bank_covers_in_part_says_what_goes_back_to_the_player(table_page: Any) -> None:
    """No Bust, a $50 bank: spot 2's $40 win (first from the action button) leaves $10 of it, and spot 3 loses its $20.
    The line read "P/D takes $10.00", the whole of a loss's line elsewhere: the dealer could take the $20 wager; a
    house line in the same case reads "collect $10.00, return $10.00". It now says what goes back (seed 003 No Bust
    round of play 17: the player-dealer "can only win or lose as much as they have placed on the table")."""
    page = table_page
    with served("no-bust-21") as console:
        # spot 2 TH 9H (19), spot 3 9C 8C (17); the player-dealer 7S, then 8D (the button on seat 2), 3S: 18
        stack(console.loop.table.feed.shoe, "TH 9C 7S 9H 8C 8D 3S")
        page.goto(console.url)
        log_in(page)
        take_bets(page, (1, "bank", "50"), (2, "base", "40"), (3, "base", "20"))
        page.click("#no-more-bets")
        decide(page, "Spot 2 to act", "stand")
        decide(page, "Spot 3 to act", "stand")
        expect_state(page, "complete")
        lines = settlement_rows(page)
        assert lines[:2] == [("2", "base", "P/D pays $40.00"), ("3", "base", "P/D takes $10.00, return $10.00")], lines
        expect_text(page, '#layout section.spot[data-spot="3"] .spot-result', r"LOSE \$10\.00")


def test_the_player_dealers_collection_fee_is_shown_at_its_spot_before_the_cards_are_dealt(table_page: Any) -> None:
    """Seed 003 No Bust round of play 6: the casino dealer collects the fees "prior to the start of the game". The page
    named the player-dealer's fee only in the settlement, after the round; it is now on the player-dealer's spot from
    "no more bets" on (the fee the engine took, `Round.fees`)."""
    page = table_page
    with served("no-bust-21") as console:
        stack(console.loop.table.feed.shoe, "TH 9C 7S 9H 8C 8D 3S")
        page.goto(console.url)
        log_in(page)
        take_bets(page, (1, "bank", "100"), (2, "base", "40"), (3, "base", "20"))
        assert page.locator('#layout section.spot[data-spot="1"] .badge.fee').count() == 0
        page.click("#no-more-bets")
        expect_text(page, "#decision-label", "^Spot 2 to act$")
        assert console.loop.round is not None
        [fee] = console.loop.round.fees
        assert fee.spot == 1 and fee.amount > 0
        dollars = f"${fee.amount // 100}.{fee.amount % 100:02d}"
        expect_text(page, '#layout section.spot[data-spot="1"] .badge.fee', rf"^fee \{dollars}$")
        assert page.locator('#layout section.spot[data-spot="2"] .badge.fee').count() == 0


def test_insurance_choices_read_in_the_dealers_words(table_page: Any) -> None:
    """Under the player-dealer's ace the buttons and the spot's badge read "NO-INSURANCE" and "EVEN-MONEY", the
    engine's action names; they read "no insurance" and "even money"."""
    page = table_page
    with served("pure-21-5") as console:
        stack(console.loop.table.feed.shoe, "AS 9C AH KB 7D 6S")
        page.goto(console.url)
        log_in(page)
        take_bets(page, (1, "bank", "500"), (2, "base", "10"), (3, "base", "10"))
        page.click("#no-more-bets")
        expect_text(page, "#decision-label", "^Spot 2 to act$")
        buttons = page.locator("#decision-actions button")
        texts = [buttons.nth(i).text_content() for i in range(buttons.count())]
        assert "no insurance" in texts and "even money" in texts, texts
        page.click('#decision-actions button[data-action="even-money"]')
        expect_text(page, "#decision-label", "^Spot 3 to act$")
        expect_text(page, '#layout section.spot[data-spot="2"] .badge.decided', "^even money$")


def test_a_second_screen_opening_betting_at_the_same_moment_is_told_so_in_words(chromium: Any) -> None:
    """Two screens at the table, both tapping Open betting at once: the one whose tap came second read "round
    NB-01-TEST-000001 is still betting" (with a hand awaited, "is still decisions"): the engine's state names. It reads
    that the round is in play, what it waits for, and what to do."""
    pages = [chromium.new_context(viewport={"width": 1024, "height": 600}).new_page() for _ in range(2)]
    with served("no-bust-21") as console:
        for page in pages:
            page.set_default_timeout(30000)
            page.goto(console.url)
            log_in(page)
            page.locator("#open-round").wait_for()
        for page in pages:  # both taps before either page hears of the round the other opened
            page.evaluate("document.getElementById('open-round').click()")
        for page in pages:
            expect_state(page, "betting")
        page_said = [p.inner_text("#message") if p.locator("#message").is_visible() else "" for p in pages]
        said = [m for m in page_said if "round" in m]  # the table's last answer: on every screen
        assert said, page_said
        for message in said:
            assert message.endswith("is in play (betting is open): settle it, or a supervisor voids it, before the "
                                    "next round opens"), said
    for page in pages:
        page.context.close()


def test_a_round_voided_mid_hand_shows_returns_on_the_spots_not_pushes(chromium: Any) -> None:
    """A misdeal: the supervisor voids the round from the pit view while spot 2 is to act. Behind the void screen every
    spot read "PUSH", as if its hand had been played to a tie; each now reads what goes back to it."""
    dealer = chromium.new_context(viewport={"width": 1024, "height": 600}).new_page()
    pit = chromium.new_context(viewport={"width": 1024, "height": 600}).new_page()
    with served("no-bust-21") as console:
        stack(console.loop.table.feed.shoe, "8H 9C 7C 8D 7H")
        for page, who in ((dealer, DEALER), (pit, SUPERVISOR)):
            page.set_default_timeout(30000)
            page.goto(console.url + ("/pit" if page is pit else "/"))
            log_in(page, who)
        take_bets(dealer, (1, "bank", "200"), (2, "base", "20"), (3, "base", "10"))
        dealer.click("#no-more-bets")
        expect_text(dealer, "#decision-label", "^Spot 2 to act$")
        supervise(pit, "pit-supervisor", "void", "misdeal: a card to the wrong spot", again=SUPERVISOR[1])
        expect_state(dealer, "void")
        results = {spot: dealer.locator(f'#layout section.spot[data-spot="{spot}"] .spot-result').inner_text()
                   for spot in (1, 2, 3)}
        assert results == {1: "RETURN $200.00", 2: "RETURN $20.00", 3: "RETURN $10.00"}, results
    for page in (dealer, pit):
        page.context.close()


def test_the_supervisors_placed_card_list_names_blackjack_places_in_words(chromium: Any) -> None:
    """The pit view's "Placed card it replaces" listed "1. 2.0: 8H" and asked "Replace 8H (2.0) with 9H ...?": the
    engine's place code for spot 2's first hand. It names the spot, as the dealer's screen does."""
    dealer = chromium.new_context(viewport={"width": 1024, "height": 600}).new_page()
    pit = chromium.new_context(viewport={"width": 1024, "height": 600}).new_page()
    with served("no-bust-21") as console:
        stack(console.loop.table.feed.shoe, "8H 7C 8D")
        for page, who in ((dealer, DEALER), (pit, SUPERVISOR)):
            page.set_default_timeout(30000)
            page.goto(console.url + ("/pit" if page is pit else "/"))
            log_in(page, who)
        take_bets(dealer, (1, "bank", "200"), (2, "base", "20"))
        dealer.click("#no-more-bets")
        expect_text(dealer, "#decision-label", "^Spot 2 to act$")
        options = pit.locator("#pit-supervisor-which option")
        expect_text(pit, "#pit-supervisor-which", "8H")
        texts = [options.nth(i).inner_text() for i in range(options.count())]
        assert texts[1:] == ["1. burn: face down", "2. spot 2: 8H", "3. player-dealer: 7C", "4. spot 2: 8D"], texts
        pit.select_option("#pit-supervisor-which", "1")
        pit.fill("#pit-supervisor-card", "9H")
        supervise(pit, "pit-supervisor", "correct_placed", "the camera saw a 9")
        expect_text(pit, "#pit-supervisor .question", r"^Replace 8H \(spot 2\) with 9H")
    for page in (dealer, pit):
        page.context.close()
