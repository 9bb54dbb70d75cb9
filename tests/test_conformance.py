"""The case runner reads CASES.md as written (kawuxing.conformance): when ``win`` answers the
table and when it is a self-draw (R7.5, R13.2), and a hand case's ``paid`` under 包胡 with
``bao_hu_cap: total`` (R8.4, R8.10)."""

from kawuxing.conformance import run_case

# seat 1 waits on 5p only (卡五星); seat 0 deals, draws 7z and discards 5z, which nobody may claim
SELF_DRAW_AFTER_WINDOW = {
    "id": "win-is-a-self-draw", "dealer": 0,
    "hands": ["5z 6z 111s 222s 678p 11p", "46p 234p 123s 789s 99p", "3s 44s 55s 66s 88s 123p 6z"],
    "draws": "7z 5p 9s"}


def test_win_without_a_win_option_on_the_discard_is_the_seats_self_draw():
    # R13.2 lists seat 1 in the window on 5z; it holds no win option there, so its `win` is
    # its self-draw once the window closes and it has drawn 5p: 卡五星 ×2 from both (R7.2)
    out = run_case({**SELF_DRAW_AFTER_WINDOW, "actions": [[0, "discard", "5z"], [1, "win"]]})
    assert out == {"id": "win-is-a-self-draw", "end": "win", "rejected": None,
                   "deltas": [-2, 4, -2], "next_dealer": 1, "winners": [1],
                   "patterns": {"1": ["卡五星"]}, "multiplier": {"1": 2}}


def test_win_by_a_seat_whose_turn_it_is_not_is_refused_and_changes_nothing():
    # seat 2 holds no win option on 5z and seat 1 draws next: its `win` is refused (R4.1)
    out = run_case({**SELF_DRAW_AFTER_WINDOW, "actions": [[0, "discard", "5z"], [2, "win"]]})
    assert (out["end"], out["rejected"], out["deltas"]) == ("open", 1, [0, 0, 0])


def test_win_with_a_win_option_answers_the_discard():
    # seat 2 discards 5p, on which seat 1 holds a win option: its `win` is on the discard,
    # 卡五星 ×2 paid by seat 2 alone (R7.2)
    case = {**SELF_DRAW_AFTER_WINDOW, "id": "on-discard",
            "hands": ["5z 6z 111s 222s 678p 11p", "46p 234p 123s 789s 99p",
                      "3s 44s 55s 66s 88s 123p 5p"],
            "draws": "7z 9s 9p",
            "actions": [[0, "discard", "5z"], [1, "discard", "9s"], [2, "discard", "5p"],
                        [1, "win"]]}
    out = run_case(case)
    assert (out["end"], out["winners"], out["deltas"]) == ("win", [1], [0, 2, -2])


def test_bao_hu_total_cap_puts_one_cap_on_both_shares():
    # 清一色 ×4 × 卡五星 ×2 × 亮倒 ×2 = ×16 after the cap of 8 per share; the declared winner is
    # paid both shares by the discarder (R8.4): per share 8 + 8 = 16, or one cap on 16 + 16 = 8
    hand = {"id": "bao", "concealed": "111p 234p 46p 789p 99p", "win_tile": "5p",
            "win_by": "discard", "declared": True}
    per_share = run_case({**hand, "rules": {"preset": "xiangyang"}})
    total = run_case({**hand, "rules": {"preset": "xiangyang", "bao_hu_cap": "total"}})
    uncapped = run_case({**hand, "rules": {"bao_hu_cap": "total"}})
    assert (per_share["multiplier"], per_share["paid"]) == (8, 16)
    assert (total["multiplier"], total["paid"]) == (8, 8)
    assert (uncapped["multiplier"], uncapped["paid"]) == (16, 32)
