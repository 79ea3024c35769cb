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
