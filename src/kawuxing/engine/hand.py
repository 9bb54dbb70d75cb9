"""One hand of 卡五星 from the deal to the settlement (RULES.md R3-R11).

``Hand`` is deterministic: given its tiles (a seed, a wall, or explicit hands and draws) and
the same actions, it produces the same events. It does no I/O, reads no clock and uses no
global RNG. Drive it with :meth:`Hand.legal_actions` and :meth:`Hand.apply`::

    hand = Hand.deal(RuleSet.preset(), dealer=0, seed=7)
    while not hand.ended:
        seat = hand.to_act()[0]
        hand.apply(hand.legal_actions(seat)[0])
"""

from __future__ import annotations

import copy
import random

from ..face_down import PUNG as GROUP_PUNG
from ..face_down import Group, tile_count
from ..melds import MELD_ADDED_KONG, MELD_CONCEALED_KONG, MELD_EXPOSED_KONG, MELD_PUNG, Meld
from ..rules import RuleSet
from ..scoring.cha_jiao import cha_jiao_transfers
from ..scoring.extras import horse_tiles, horse_value
from ..scoring.payments import WinTable, everything_doubled, shang_lou_doubles, win_transfers
from ..scoring import HandValue
from ..tiles import COPIES, NUM_KINDS, counts_of, kinds_for_suits, tile_str, tiles_of
from ..scoring.transfers import (CHA_JIAO_MODES, KONG_ADDED, KONG_CONCEALED, KONG_EXPOSED, Transfer,
                         draw_compensation, kong_transfers)
from . import events as ev
from . import legal
from .actions import (CONCEALED_KONG, DISCARD, KONG, PASS, PIAO, PUNG, WIN, Action,
                      IllegalAction, malformed)
from .state import CLAIM, ENDED, PIAO_PHASE, ROB, TURN, Pending, SeatState


class Hand:
    """A hand in play. Public read-only attributes:

    - ``rules`` (:class:`RuleSet`), ``dealer`` (seat), ``seats`` (3 × :class:`SeatState`),
      ``phase`` (``piao``/``turn``/``claim``/``rob``/``ended``), ``current`` (seat in turn),
      ``pending`` (the discard or kong on the table, or None), ``wall_left`` (tiles).
    - ``deltas``: each seat's score change so far (kong money at once, R6.6), base units.
    - ``transfers``: every :class:`Transfer` of the hand; ``events``: the full event log
      (dicts; use :mod:`kawuxing.engine.views` to filter them for a seat, R13).
    - ``winners``, ``values`` (seat -> :class:`HandValue`), ``next_dealer`` once ended.
    - ``actions``: every accepted action, in order.
    """

    def __init__(self, rules: RuleSet, dealer: int, hands: list[list[int]], draws: list[int],
                 piao: list[int] | None = None, windows: bool = True,
                 dice: tuple[int, int] | None = None, base_factor: int = 1) -> None:
        """Start a hand from explicit tiles: ``hands`` = three lists of 13 kinds (seats 0-2),
        ``draws`` = the order tiles will be drawn, the dealer's 14th first (R3).

        ``piao``: each seat's 漂 if already chosen (R11.1; a match passes the first hand's under
        R11.2 ``piao_mode = first_hand``); with ``rules.piao_choices`` and no ``piao`` the hand
        opens with a piao phase; under ``piao_mode = fixed`` every seat's is ``piao_fixed``
        (R11.2, R11.3: no phase, even with ``piao_choices`` empty). ``windows`` (R13.2): every
        discard, and every added kong when robbing is on, opens a claim window in which both
        other seats answer (``pass`` is the only legal answer of a seat with no option), so that no view
        shows who could claim; ``False`` is the fast path for self-play, where a window opens
        only when some seat holds an option and no view leaves the process. Raises ``ValueError`` for bad tiles: not 13
        a hand, a fifth copy, a kind not in play, a bad dealer or piao.

        上楼 (R17.1), shown to all at the deal in a ``shang_lou`` event: under ``dice_doubles``
        ``dice`` are the two dice (default: rolled by an RNG seeded with the hand's tiles, so
        the same deal rolls the same dice); ``base_factor`` is the hand's base ×1, ×2, ×4 …
        (``after_draw``: :class:`~kawuxing.engine.match.Match` carries it from hand to hand).
        ``ValueError`` for dice that are not two of 1-6 or a factor that is not a power of 2.
        """
        if type(dealer) is not int or dealer not in (0, 1, 2):
            raise ValueError(f"dealer {dealer!r}: must be seat 0, 1 or 2")
        if len(hands) != 3 or any(len(h) != 13 for h in hands):
            raise ValueError("hands: three hands of 13 tiles each (R3.1)")
        in_play = set(kinds_for_suits(rules.suits))
        seen = [0] * NUM_KINDS
        for tile in [t for h in hands for t in h] + list(draws):
            if tile not in in_play:
                raise ValueError(f"{tile_str(tile)} is not in play with suits "
                                 f"{'+'.join(rules.suits)} (R1.1)")
            seen[tile] += 1
            if seen[tile] > COPIES:
                raise ValueError(f"more than four {tile_str(tile)} in hands and draws (R1.1)")
        if not draws:
            raise ValueError("draws: the wall needs at least the dealer's first draw")
        fixed = [rules.piao_fixed] * 3 if rules.piao_mode == "fixed" else None
        if piao is None:
            piao = fixed
        elif len(piao) != 3 or any(type(p) is not int or p < 0 for p in piao):
            raise ValueError("piao: three whole numbers >= 0 (R11.1)")
        elif fixed is not None and list(piao) != fixed:
            raise ValueError(f"piao: every seat's is {rules.piao_fixed} (piao_mode fixed, R11.2)")
        elif fixed is None and rules.piao_choices and any(p not in rules.piao_choices
                                                          for p in piao):
            raise ValueError(f"piao: each must be one of {list(rules.piao_choices)} (R11.1)")
        if dice is None and rules.shang_lou == "dice_doubles":
            dice = roll_dice(hands, draws)
        if dice is not None and (len(dice) != 2 or any(type(d) is not int or not 1 <= d <= 6
                                                       for d in dice)):
            raise ValueError(f"dice {dice!r}: two whole numbers 1-6 (R17.1)")
        if type(base_factor) is not int or base_factor < 1 or base_factor & (base_factor - 1):
            raise ValueError(f"base_factor {base_factor!r}: 1, 2, 4 … (R17.1)")
        self.rules = rules
        self.dealer = dealer
        self.windows = windows
        self.dice = None if dice is None else tuple(dice)  # R17.1 dice_doubles
        self.base_factor = base_factor  # R17.1 after_draw
        self.seats = [SeatState(counts_of(h)) for h in hands]
        self.initial_hands = [list(h) for h in hands]
        self.initial_piao = list(piao) if piao is not None else None
        self._draws = list(draws)
        self._next = 0
        self.phase = TURN
        self.current = dealer
        self.pending: Pending | None = None
        self.chain = 0  # kongs in the current 杠上杠 chain (R6.5)
        self.declare_order: list[int] = []
        self.deltas = [0, 0, 0]
        self.transfers: list[Transfer] = []
        self.events: list[dict] = [ev.deal(dealer, hands, len(draws))]
        if rules.shang_lou != "off":
            self.events.append(ev.shang_lou(rules.shang_lou, self.dice, base_factor))
        self.actions: list[Action] = []
        self._legal: dict[int, list[Action]] = {}  # seat -> legal actions of this state
        self.winners: list[int] = []
        self.values: dict[int, HandValue] = {}
        self.next_dealer: int | None = None
        self.result: str | None = None
        self.won_tile: int | None = None  # a discard or robbed tile won on (in nobody's hand)
        if piao is not None:
            for s, p in zip(self.seats, piao):
                s.piao = p
        elif rules.piao_choices:
            self.phase = PIAO_PHASE
            return
        else:
            for s in self.seats:
                s.piao = 0
        self._draw(dealer)

    @classmethod
    def deal(cls, rules: RuleSet, dealer: int, seed: int | str | None = None,
             wall: list[int] | None = None, piao: list[int] | None = None,
             windows: bool = True, base_factor: int = 1) -> Hand:
        """Shuffle and deal (R3.1): 4-4-4 from the dealer, then 1 each; the rest is the wall.

        ``wall``: the 84 tiles in order (replays, tests, a provably fair deal: e.g.
        :func:`kawuxing.fairness.derive_wall` of a secret seed the caller drew); else shuffled
        by ``random.Random(seed)`` (:func:`new_wall`). The engine reads no OS randomness:
        ``TypeError`` if neither is given; ``ValueError`` for a wall that is not the 84 tiles
        of the rule set. ``base_factor``: R17.1 ``after_draw`` (see :class:`Hand`).
        """
        if wall is None and seed is None:
            raise TypeError("Hand.deal: pass a seed (reproducible shuffle) or the wall (e.g. "
                            "kawuxing.fairness.derive_wall of a secret seed)")
        if wall is None:
            wall = new_wall(rules, seed)  # the 84 tiles by construction: nothing to check
        else:
            wall = list(wall)
            if sorted(wall) != sorted(kinds_for_suits(rules.suits) * COPIES):
                raise ValueError("wall: must be the 84 tiles of the rule set, four of each "
                                 "(R1.1)")
        order = deal_order(dealer)
        hands: list[list[int]] = [[], [], []]
        for seat, tile in zip(order, wall):
            hands[seat].append(tile)
        return cls(rules, dealer, hands, wall[len(order):], piao, windows,
                   base_factor=base_factor)

    # --- reading the state -------------------------------------------------------------
    @property
    def draws(self) -> list[int]:
        """The draw order this hand was dealt with (secret: never sent to a player, R13)."""
        return list(self._draws)

    @property
    def wall_left(self) -> int:
        """Tiles left to draw (R3.2: there is no dead wall)."""
        return len(self._draws) - self._next

    @property
    def ended(self) -> bool:
        """True once the hand is won or drawn."""
        return self.phase == ENDED

    def tiles_accounted(self) -> int:
        """Tiles in hands, melds, the river (not taken), the wall and won from the table: 84."""
        total = self.wall_left + (self.won_tile is not None)
        for s in self.seats:
            total += sum(s.concealed) + sum(m.size for m in s.melds)
            total += s.claimed.count(False)
        return total

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (see :mod:`kawuxing.engine.legal`); a new list
        each call, computed once per state."""
        cached = self._legal.get(seat)
        if cached is None:
            cached = self._legal[seat] = legal.legal_actions(self, seat)
        return list(cached)

    def to_act(self) -> list[int]:
        """Seats that have a decision to make now, in seat order."""
        if self.phase == TURN:
            return [self.current]
        if self.phase in (CLAIM, ROB):
            return [s for s in sorted(self.pending.options) if s not in self.pending.answers]
        if self.phase == PIAO_PHASE:
            return [i for i, s in enumerate(self.seats) if s.piao is None]
        return []

    def idle_seats(self) -> list[int]:
        """Seats answering the tile on the table that hold no option: ``pass`` is their only
        legal action (R13.2); the server passes for them once the window's minimum is over."""
        if self.phase not in (CLAIM, ROB):
            return []
        return [s for s in self.to_act() if not self.pending.options[s]]

    # --- acting --------------------------------------------------------------------------
    def pass_idle(self) -> list[dict]:
        """Pass for every seat of :meth:`idle_seats` (R13.2: a seat with no option is passed
        for automatically); returns the events, e.g. the next draw once the window closes."""
        events: list[dict] = []
        for seat in self.idle_seats():
            if self.phase in (CLAIM, ROB):
                events += self.apply(Action(seat, PASS))
        return events

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalAction` (reason and rule) unless ``action`` is legal now, as
        :meth:`apply` would; changes nothing. ``TypeError`` for a non-Action."""
        if not isinstance(action, Action):
            raise TypeError(f"expected an Action, got {type(action).__name__}")
        if malformed(action) or action not in self.legal_actions(action.seat):
            reason, rule = legal.why_illegal(self, action)
            raise IllegalAction(action, reason, rule)

    def apply(self, action: Action) -> list[dict]:
        """Apply one action; returns the events it caused (full, unfiltered).

        Raises :class:`IllegalAction` naming the rule that refuses it; the state is then
        exactly as before.
        """
        self.check(action)
        seat = action.seat
        self._count_pass(action)
        self._legal = {}
        start = len(self.events)
        self.actions.append(action)
        verb = action.verb
        if verb == PIAO:
            self._piao(seat, action.piao)
        elif self.phase == TURN:
            if verb == WIN:
                self._self_draw_win(seat)
            elif verb == DISCARD:
                self._discard(seat, action.tile, action.declare, action.hidden)
            elif verb == CONCEALED_KONG:
                self._concealed_kong(seat, action.tile)
            else:
                self._start_added_kong(seat, action.tile)
        else:
            self._answer(seat, verb)
        return self.events[start:]

    def clone(self) -> Hand:
        """An independent copy of the hand as it is now: applying actions to one never changes
        the other (the server keeps the copy made before an action to undo it when storing
        the action fails, instead of replaying the record).

        Every container the hand, its seats and the tile on the table change in play (hands,
        melds, discards, answers, deltas, the event and action logs …) is new; what is never
        changed once made is shared: the rules, the draw order, the dealt hands, and the items
        of the logs (events, actions, transfers, melds, hand values). Costs tens of
        microseconds, not a replay of the record."""
        twin = _fresh(self)
        twin.seats = [_fresh(s) for s in self.seats]
        if self.pending is not None:
            twin.pending = _fresh(self.pending)
        return twin

    def replayed(self, count: int) -> Hand:
        """A new hand dealt as this one was (the same tiles, draw order, 漂, dice and base)
        with its first ``count`` accepted actions applied again: this hand as it stood before
        the later ones. What the server puts back when storing an action failed (rare), so
        that it need not copy the hand before every action (:meth:`clone`: a tenth of a
        server's CPU an action, issue 34). Raises ``ValueError`` for a ``count`` outside
        0 … ``len(actions)``."""
        if type(count) is not int or not 0 <= count <= len(self.actions):
            raise ValueError(f"count {count!r}: 0 … {len(self.actions)} actions of this hand")
        twin = Hand(self.rules, self.dealer, self.initial_hands, self._draws, self.initial_piao,
                    self.windows, self.dice, self.base_factor)
        for action in self.actions[:count]:
            twin.apply(action)
        return twin

    def _count_pass(self, action: Action) -> None:
        """R8.18 ``pass_win_doubles``: a declared player who could self-draw now and does
        anything else has passed a win (a passed claim is counted by :meth:`_answer`)."""
        s = self.seats[action.seat]
        if (self.rules.pass_win_doubles and s.declared and self.phase == TURN
                and action.verb != WIN and Action(action.seat, WIN) in
                self.legal_actions(action.seat)):
            s.passed_wins += 1

    def _emit(self, event: dict) -> None:
        """Log one event (made by :mod:`kawuxing.engine.events`)."""
        self.events.append(event)

    def _piao(self, seat: int, value: int) -> None:
        self.seats[seat].piao = value
        self._emit(ev.piao_chosen(seat))
        if all(s.piao is not None for s in self.seats):
            self._emit(ev.piao([s.piao for s in self.seats]))
            self.phase = TURN
            self._draw(self.dealer)

    def _draw(self, seat: int, replacement: bool = False) -> None:
        """Draw the next tile (R4.1); a replacement after a kong keeps the kong chain (R6.5)."""
        tile = self._draws[self._next]
        self._next += 1
        s = self.seats[seat]
        s.add(tile, 1)
        s.drawn = tile
        s.replacement = replacement
        s.missed.clear()  # R7.5: the player's own draw lifts 漏胡
        if not replacement:
            self.chain = 0
            s.kong_turn = False
        self.phase, self.current, self.pending = TURN, seat, None
        self._emit(ev.draw(seat, tile, replacement, self.wall_left))
        if legal.auto_kong_drawn(self, seat) and legal.self_draw_value(self, seat) is None:
            self._concealed_kong(seat, tile, auto=True)  # R8.19 杀马: nothing to decide

    def _discard(self, seat: int, tile: int, declare: bool, hidden: tuple[int, ...]) -> None:
        s = self.seats[seat]
        s.add(tile, -1)
        s.discards.append(tile)
        s.claimed.append(False)
        after_kong = s.kong_turn
        s.drawn = None
        self._emit(ev.discard(seat, tile, after_kong))
        if declare:
            s.declared = True
            s.hidden = legal.face_down_groups(self, s, hidden)
            s.waits = legal.live_waits(s)
            self.declare_order.append(seat)
            self._emit(ev.declare(seat, tiles_of(legal.shown_counts(s)), len(s.hidden),
                                  s.waits, tile_count(s.hidden)))
        last = self.wall_left == 0
        options, values = legal.claim_options(self, seat, tile, False, after_kong, last)
        self._open_window(seat, options)
        self.pending = Pending(seat, tile, False, after_kong, last, options, values)
        if options:
            self.phase = CLAIM
        else:
            self._no_claim()

    def _open_window(self, seat: int, options: dict[int, list[str]]) -> None:
        """R13.2: with ``windows`` both other seats answer every discard (or added kong that
        could be robbed); a seat with no option gets an empty list: ``pass`` only."""
        if self.windows:
            for other in ((seat + 1) % 3, (seat + 2) % 3):
                options.setdefault(other, [])

    def _no_claim(self) -> None:
        """Nobody took the tile on the table: a declared player's shown triplet of it is konged
        (R8.19), else the next player draws, or 荒庄 (R4.4, R5.5)."""
        pending = self.pending
        konger = legal.auto_kong_seat(self)
        if pending.robbing:
            self._finish_added_kong(pending.seat, pending.tile)
        elif konger is not None:
            self._exposed_kong(konger, auto=True)
        elif self.wall_left == 0:
            self._exhaustive_draw()
        else:
            self._draw((pending.seat + 1) % 3)

    def _answer(self, seat: int, verb: str) -> None:
        """Record an answer to the tile on the table; resolve once the outcome is settled (R4.3)."""
        pending = self.pending
        pending.answers[seat] = verb
        if verb != WIN and seat in pending.values:  # R7.5: a win passed
            s = self.seats[seat]
            s.missed.append(legal.compared_multiplier(self, s, pending.values[seat]))
            s.passed_wins += self.rules.pass_win_doubles and s.declared  # R8.18
        win_seats = [s for s in pending.options if WIN in pending.options[s]]
        if any(s not in pending.answers for s in win_seats):
            return
        winners = [s for s in win_seats if pending.answers[s] == WIN]
        if not winners and len(pending.answers) < len(pending.options):
            return
        if winners:
            if len(winners) == 2 and not self.rules.double_win:  # R4.3 截胡: nearest wins
                winners = sorted(winners, key=lambda w: (w - pending.seat) % 3)[:1]
            self._discard_win(winners)
            return
        for claimant, answer in pending.answers.items():
            if answer == PUNG:
                self._pung(claimant)
                return
            if answer == KONG:
                self._exposed_kong(claimant)
                return
        self._no_claim()

    def _take_from_table(self) -> int:
        """Mark the discard on the table as taken (a robbed kong tile was never discarded)."""
        pending = self.pending
        if not pending.robbing:
            self.seats[pending.seat].claimed[-1] = True
        return pending.tile

    def _pung(self, seat: int) -> None:
        """R4.4: take the discard into a pung; discard without drawing."""
        tile = self._take_from_table()
        s = self.seats[seat]
        s.add(tile, -2)
        s.melds.append(Meld(MELD_PUNG, tile))
        s.drawn, s.replacement, s.kong_turn = None, False, False
        self.chain = 0  # R6.5: a pung ends the chain
        self._emit(ev.pung(seat, tile, self.pending.seat))
        self.phase, self.current, self.pending = TURN, seat, None

    def _exposed_kong(self, seat: int, auto: bool = False) -> None:
        """R6.3 直杠: the discarder pays ``direct_kong_pay``; R6.5 chain if after a kong.
        ``auto``: made by the engine under R8.19 (the event says so)."""
        pending = self.pending
        tile = self._take_from_table()
        s = self.seats[seat]
        s.add(tile, -3)
        s.melds.append(Meld(MELD_EXPOSED_KONG, tile))
        self._melds_changed(s, tile)
        self.chain = self.chain + 1 if pending.after_kong else 1
        self._emit(ev.kong(seat, MELD_EXPOSED_KONG, tile, pending.seat, auto))
        self._kong_money(KONG_EXPOSED, seat, [pending.seat], self.rules.direct_kong_pay)
        s.kong_turn = True
        self._draw(seat, replacement=True)

    def _concealed_kong(self, seat: int, tile: int, auto: bool = False) -> None:
        """R6.1 暗杠: each other player pays 2 (× the chain, R6.5). ``auto``: made by the
        engine under R8.19 (the event says so)."""
        s = self.seats[seat]
        s.add(tile, -4)
        s.melds.append(Meld(MELD_CONCEALED_KONG, tile))
        self._melds_changed(s, tile)
        self.chain = self.chain + 1 if s.kong_turn else 1
        self._emit(ev.kong(seat, MELD_CONCEALED_KONG, tile, auto=auto))
        self._kong_money(KONG_CONCEALED, seat, [o for o in range(3) if o != seat])
        s.kong_turn = True
        self._draw(seat, replacement=True)

    def _start_added_kong(self, seat: int, tile: int) -> None:
        """R6.2 补杠, open to robbing (R7.4) before it counts."""
        self._emit(ev.adding_kong(seat, tile))
        s = self.seats[seat]
        s.drawn = None
        options: dict = {}
        values: dict = {}
        if self.rules.robbing_kong:
            options, values = legal.claim_options(self, seat, tile, True, False, False)
            self._open_window(seat, options)
        self.pending = Pending(seat, tile, True, False, False, options, values)
        if options:
            self.phase = ROB
        else:
            self._finish_added_kong(seat, tile)

    def _finish_added_kong(self, seat: int, tile: int) -> None:
        s = self.seats[seat]
        s.add(tile, -1)
        index = next(i for i, m in enumerate(s.melds) if m.kind == MELD_PUNG and m.tile == tile)
        s.melds[index] = Meld(MELD_ADDED_KONG, tile)
        self._melds_changed(s, tile)
        self.chain = self.chain + 1 if s.kong_turn else 1
        self._emit(ev.kong(seat, MELD_ADDED_KONG, tile))
        self._kong_money(KONG_ADDED, seat, [o for o in range(3) if o != seat])
        s.kong_turn = True
        self._draw(seat, replacement=True)

    def _melds_changed(self, s: SeatState, tile: int) -> None:
        """After a kong of ``tile``: a face-down triplet of it is now the kong (R8.6, R8.11),
        and a declared hand's waits are those of the hand as it is now (R8.1, R8.19): a
        ``waits`` event tells everyone when they changed."""
        if Group(GROUP_PUNG, tile) in s.hidden:
            s.hidden = tuple(g for g in s.hidden if g != Group(GROUP_PUNG, tile))
        if s.declared:
            before, s.waits = s.waits, legal.live_waits(s)
            if s.waits != before:
                self._emit(ev.waits(self.seats.index(s), s.waits))

    def _kong_money(self, kind: str, konger: int, payers: list[int],
                    money: int | None = None) -> None:
        """Kong money of ``kind`` (R6.1-R6.3), paid at once (R6.6), doubled along the 杠上杠
        chain this kong is part of (R6.5); ``money`` per payer only for 直杠 (R6.3); × the
        hand's R17.1 base factor, ×2 under R17.2 ``everything`` with 豹子."""
        paid = kong_transfers(kind, konger, payers, self.chain, self.rules.base, money,
                              base_factor=self.base_factor)
        for transfer in everything_doubled(self.rules, self.dice, paid):
            self._pay(transfer)

    def _pay(self, transfer: Transfer) -> None:
        """Book one payment: the transfer list, the running deltas and a ``transfer`` event."""
        self.transfers.append(transfer)
        self.deltas[transfer.payer] -= transfer.amount
        self.deltas[transfer.payee] += transfer.amount
        self._emit(ev.transfer(transfer))

    # --- the end of the hand -------------------------------------------------------------
    def _self_draw_win(self, seat: int) -> None:
        value = legal.self_draw_value(self, seat)
        tile = self.seats[seat].drawn
        self._win([seat], {seat: value}, tile, [o for o in range(3) if o != seat], None)

    def _discard_win(self, winners: list[int]) -> None:
        pending = self.pending
        self._take_from_table()
        if pending.robbing:  # R7.4: the robbed tile leaves the konger's hand; no kong money
            self.seats[pending.seat].add(pending.tile, -1)
        self.won_tile = pending.tile
        values = {w: pending.values[w] for w in winners}
        self._win(winners, values, pending.tile, [pending.seat], pending.seat)

    def _win(self, winners: list[int], values: dict[int, HandValue], tile: int,
             payers: list[int], discarder: int | None) -> None:
        declared = tuple(s.declared for s in self.seats)  # R8.8: the discard won on counts
        piao = tuple(s.piao or 0 for s in self.seats)
        for w in winners:  # the won tile is not added to the hand: one tile, maybe two winners
            value = values[w]
            self._emit(ev.win(w, tile, value.win_by, discarder, value.pattern_names,
                              value.multiplier, value.raw_multiplier, value.bao_hu))
            horses = self._horses(w, tile) if discarder is None else []
            table = WinTable(declared, piao, tuple(horses), self.dice, self.base_factor)
            for t in win_transfers(value, w, payers, table=table):
                self._pay(t)
        self.winners, self.values = winners, values
        # R2.2: the winner deals; after 一炮双响 the discarder
        self._end("win", winners[0] if len(winners) == 1 else discarder)

    def _horses(self, winner: int, tile: int) -> list[int]:
        """R14.1-R14.3 买马 after a self-draw win: the horse tiles taken from the wall (next in
        drawing order, or from the far end last tile first), shown to all in a ``horses``
        event; none with the option off, an empty wall (海底捞月) or, under
        ``declared_self_draw``, an undeclared winner. The tiles stay counted in the wall."""
        rules = self.rules
        if rules.horse_buy == "off" or self.wall_left == 0 or (
                rules.horse_buy == "declared_self_draw" and not self.seats[winner].declared):
            return []
        wall = self._draws[self._next:]
        if rules.horse_from == "far_end":
            wall.reverse()
        tiles = horse_tiles(rules.horse_kind, wall)
        self._emit(ev.horses(winner, tiles, horse_value(rules.horse_kind, tiles, tile)))
        return tiles

    def _exhaustive_draw(self) -> None:
        """R10 荒庄: no hand value; kong money stands; 亮倒 compensation (R10.2) or 查叫
        (R10.3-R10.6); the next dealer per R2.2/R2.3."""
        rules = self.rules
        declarers = [i for i, s in enumerate(self.seats) if s.declared]
        if rules.draw_compensation in CHA_JIAO_MODES:
            doubles = shang_lou_doubles(rules, self.dice)
            paid = cha_jiao_transfers(self.seats, self.declare_order, rules, doubles)
        else:
            paid = draw_compensation(self.declare_order, rules.draw_compensation, rules.base)
        paid = everything_doubled(rules, self.dice, paid)
        for transfer in paid:
            self._pay(transfer)
        nxt = self.dealer
        if rules.draw_dealer == "declarer" and len(declarers) == 1:
            nxt = declarers[0]
        elif rules.draw_dealer == "last_drawer":  # R2.3: who drew the last tile made the last
            nxt = self.pending.seat                # discard (R5.1-R5.3: no kong, no pung)
        elif rules.draw_dealer == "cha_jiao_payer":  # R2.3: who made any compensation payment
            payers = {t.payer for t in paid}
            if len(payers) == 1:
                nxt = payers.pop()
            elif len(payers) == 2:
                nxt = 3 - sum(payers)
        self._end("draw", nxt)

    def _end(self, result: str, next_dealer: int) -> None:
        self.phase, self.pending, self.result, self.next_dealer = ENDED, None, result, next_dealer
        self._emit(ev.hand_end(result, self.winners, self.deltas, next_dealer,
                               [s.concealed_tiles() for s in self.seats],
                               [s.melds for s in self.seats]))


def roll_dice(hands: list[list[int]], draws: list[int]) -> tuple[int, int]:
    """R17.1 ``dice_doubles``: the two dice of a hand, from an RNG seeded with its tiles (the
    dealt hands, each sorted, and the draw order), so the same deal always rolls the same
    dice whether it came from a seed, a wall or a record; the engine reads no OS randomness."""
    text = "/".join(" ".join(map(str, sorted(h))) for h in hands) + "/" + " ".join(map(str, draws))
    rng = random.Random(f"dice/{text}")
    return rng.randint(1, 6), rng.randint(1, 6)


DEAL_ROUNDS = (4, 4, 4, 1)  # R3.1: tiles each seat takes per round, from the dealer round


def deal_order(dealer: int) -> list[int]:
    """The seat that each of the first 39 tiles of the wall goes to (R3.1: 4-4-4 from the
    dealer, then 1 each); the tiles after them are the draws, the dealer's 14th first. What
    :meth:`Hand.deal` deals by, and what builds a wall for given hands (tests)."""
    return [(dealer + i) % 3 for size in DEAL_ROUNDS for i in range(3) for _ in range(size)]


def new_wall(rules: RuleSet, seed: int | str) -> list[int]:
    """The 84 tiles of ``rules`` shuffled by ``random.Random(seed)`` (R3.1; reproducible).
    A secret deal comes from :func:`kawuxing.fairness.derive_wall` instead: the engine reads
    no OS randomness. Raises ``TypeError`` for a ``None`` seed."""
    if seed is None:
        raise TypeError("new_wall: a seed is needed (the engine reads no OS randomness)")
    wall = list(kinds_for_suits(rules.suits)) * COPIES
    wall.sort()
    rng = random.Random(seed)
    rng.shuffle(wall)
    return wall


def _fresh(obj):
    """A shallow copy of ``obj`` whose list and dict attributes are new containers (one level
    deep: their items are shared). ``obj`` is a plain class instance (its attributes in
    ``__dict__``, no ``__slots__``, no ``__copy__``); not ``copy.copy`` of it (whose reduce
    protocol took a tenth of a server's CPU in Room.play, issue 17). The attribute dict is
    copied at once and only its lists and dicts replaced (half the time of a comprehension)."""
    twin = object.__new__(type(obj))
    attrs = obj.__dict__.copy()
    for name, value in attrs.items():  # values replaced, no key added: safe while iterating
        cls = value.__class__
        if cls is list or cls is dict:
            attrs[name] = value.copy()
        elif cls not in _ATOMS and isinstance(value, (list, dict)):  # a subclass
            attrs[name] = copy.copy(value)  # (defaultdict's constructor takes a factory)
    twin.__dict__ = attrs
    return twin


_ATOMS = frozenset({int, bool, str, float, tuple, type(None)})  # never a list or a dict
