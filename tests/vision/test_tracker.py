"""The die tracker: ids that follow dice between settled readings (Dice Lottery, DL-2)."""
from companion.vision.reader import ReadDie
from companion.vision.tracker import DieTracker


def die(x, y, value, zone="pool", size=40.0):
    return ReadDie(center=(x, y), size=size, value=value, confidence=0.99, zone=zone)


def ids(dice):
    return [(d.id, d.value, d.zone) for d in dice]


def test_first_reading_numbers_dice_in_reading_order():
    tracker = DieTracker()
    seen = tracker.track([die(200, 100, 3), die(100, 100, 5), die(100, 200, 1)])
    assert ids(seen) == [(1, 3, "pool"), (0, 5, "pool"), (2, 1, "pool")]


def test_still_dice_keep_their_ids_and_a_carried_die_keeps_its_id_in_its_new_zone():
    tracker = DieTracker()
    tracker.track([die(100, 100, 5), die(200, 100, 3), die(300, 100, 3)])
    # the 3 at (200, 100) is carried to a player's zone; the others have not moved (a few pixels of jitter)
    seen = tracker.track([die(102, 99, 5), die(301, 101, 3), die(150, 400, 3, zone="seat1")])
    assert ids(seen) == [(0, 5, "pool"), (2, 3, "pool"), (1, 3, "seat1")]


def test_a_die_whose_face_changed_on_the_way_keeps_its_id_so_the_game_can_refuse_it():
    tracker = DieTracker()
    tracker.track([die(100, 100, 5), die(200, 100, 3)])
    seen = tracker.track([die(100, 100, 5), die(150, 400, 6, zone="seat0")])
    assert ids(seen) == [(0, 5, "pool"), (1, 6, "seat0")]


def test_moved_dice_match_their_own_face_before_the_nearest():
    tracker = DieTracker()
    tracker.track([die(100, 100, 2), die(200, 100, 6)])
    seen = tracker.track([die(120, 300, 6, zone="seat0"), die(400, 300, 2, zone="seat1")])
    assert ids(seen) == [(1, 6, "seat0"), (0, 2, "seat1")]


def test_extra_dice_get_new_ids_and_reset_starts_again():
    tracker = DieTracker()
    tracker.track([die(100, 100, 2)])
    assert ids(tracker.track([die(100, 100, 2), die(300, 300, 4)])) == [(0, 2, "pool"), (1, 4, "pool")]
    tracker.reset()
    assert ids(tracker.track([die(300, 300, 4)])) == [(0, 4, "pool")]


def test_dl_22_dice_re_rolled_by_two_players_stay_with_their_owners_when_their_faces_swap():
    tracker = DieTracker()
    first = tracker.track([die(100, 440, 4, "seat0"), die(60, 100, 2, "seat1"), die(300, 200, 5)])
    assert ids(first) == [(2, 4, "seat0"), (0, 2, "seat1"), (1, 5, "pool")]
    # both re-rolled dice land elsewhere in their own zones, Ana's now showing 2 and Ben's 4
    seen = tracker.track([die(200, 440, 2, "seat0"), die(60, 250, 4, "seat1"), die(300, 200, 5)])
    assert ids(seen) == [(2, 2, "seat0"), (0, 4, "seat1"), (1, 5, "pool")]


def test_dl_13_a_die_carried_into_a_zone_keeps_its_id_when_a_die_already_there_is_nudged():
    tracker = DieTracker()
    tracker.track([die(300, 100, 3), die(100, 440, 5, "seat0")])
    # the pool's 3 is carried to Ana's zone, right where her 5 lay; the 5 is pushed along
    seen = tracker.track([die(105, 440, 3, "seat0"), die(170, 440, 5, "seat0")])
    assert ids(seen) == [(0, 3, "seat0"), (1, 5, "seat0")]


def test_a_die_knocked_over_in_place_keeps_its_id():
    tracker = DieTracker()
    tracker.track([die(100, 100, 5), die(200, 100, 3)])
    seen = tracker.track([die(104, 100, 2), die(200, 100, 3)])
    assert ids(seen) == [(0, 2, "pool"), (1, 3, "pool")]
