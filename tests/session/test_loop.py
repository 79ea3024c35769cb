"""The session loop: the home screen's setup questions and automatic steps (CL-25's discard steps)."""
from luma.core.device import dummy

from companion.games import Die, Roll, RollRequest, Setup, new_game
from companion.session.home import RESUME, Home
from companion.session.loop import HomeScreen, Session
from companion.session.table import Table
from companion.ui.controls import Press


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_home_asks_game_count_names_colours_and_first_player():
    home = Home(("Ana", "Ben", "Cy"), {"banx": {"open_discs": True}})
    screen = HomeScreen(home)
    assert screen.prompt().header == "HOST  setup" and "Which game?" in screen.prompt().body[0]
    screen.press(Press.OK)                           # BANX is listed first
    assert home.game == "banx"
    screen.press(Press.OK)                           # 2 players
    screen.press(Press.NEXT)
    screen.press(Press.OK)                           # player 1: Ben
    assert "Player 2" in screen.prompt().body[0]
    assert [line.strip("> ").strip() for line in screen.prompt().body[1:]] == ["Ana", "Cy"]
    screen.press(Press.OK)                           # player 2: Ana
    screen.press(Press.OK)                           # Ben: red
    screen.press(Press.OK)                           # Ana: blue (red is taken)
    screen.press(Press.NEXT)
    screen.press(Press.OK)                           # Ana starts
    assert home.result == Setup("banx", ("Ben", "Ana"), 1, ("red", "blue"), {"open_discs": True})


def test_home_offers_resume_first_when_a_game_is_unfinished():
    home = Home(("Ana", "Ben"), unfinished="banx")
    HomeScreen(home).press(Press.OK)
    assert home.result == RESUME


def test_home_falls_back_to_numbered_names():
    home = Home((), game="roll-your-luck")
    screen = HomeScreen(home)
    screen.press(Press.OK)                           # 2 players
    assert screen.prompt().body[1] == "> P1"


def test_cl_25_discard_steps_are_taken_automatically_after_their_delay():
    clock = FakeClock()
    table = Table.new(Setup("countaloupe", ("Ana", "Ben")))
    session = Session(table, dummy(width=128, height=64, mode="1").display, clock=clock)
    assert table.observe(Roll((Die(1), Die(2), Die(4), Die(kind="symbol", face="blank"))))
    pending = table.match.state.expects()
    assert pending.auto_ms == 800 and pending.question == "Discard 1"
    session.tick()
    clock.now = 0.5
    session.tick()
    assert len(table.match.events) == 1              # not yet
    clock.now = 0.81
    session.tick()
    assert len(table.match.events) == 2 and table.match.state.expects().question == "Discard 2"
    table.press(Press.NEXT)                          # an open menu stops the automatic steps
    session.press(Press.MENU)
    clock.now = 5
    session.tick()
    session.tick()
    assert len(table.match.events) == 2


def test_roll_requests_do_not_advance_by_themselves():
    clock = FakeClock()
    table = Table.new(Setup("countaloupe", ("Ana", "Ben")))
    session = Session(table, dummy(width=128, height=64, mode="1").display, clock=clock)
    clock.now = 100
    session.tick()
    assert isinstance(table.match.state.expects(), RollRequest) and table.match.events == []


def test_dl_3_home_asks_dice_lottery_for_its_scorekeeper_and_the_player_left_of_the_dealer_starts():
    home = Home(("Ana", "Ben", "Cy"), game="dice-lottery")
    screen = HomeScreen(home)
    screen.press(Press.NEXT)
    screen.press(Press.OK)                           # 3 players
    for _ in range(3):
        screen.press(Press.OK)                       # Ana, Ben, Cy in seat order
    assert screen.prompt().body[0] == "Scorekeeper?"
    screen.press(Press.PREV)
    screen.press(Press.OK)                           # Cy keeps the score: Ana deals, Ben starts (worked example 1)
    assert home.result.first == 1
    state = new_game(home.result).new_initial_state()
    assert state.dealer == 0
