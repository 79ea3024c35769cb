"""`dice-companion replay` and `export`: the contracts of design.md, through the console script's main()."""
import json

import pytest

from companion.cli import main
from companion.games import Choice, Roll, Setup
from companion.session.demo import demo_script
from companion.session.journal import Journal
from companion.session.script import dump_script

SETUP = Setup("banx", ("Ana", "Ben"), 0, ("red", "blue"))


def write(tmp_path, text, name="game.jsonl"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_replay_json_last_line_is_the_contract_object(tmp_path, capsys):
    path = write(tmp_path, demo_script("banx"))
    assert main(["replay", path, "--json"]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert set(result) == {"game", "players", "over", "scores", "winners", "detail"}
    assert result["game"] == "banx" and result["players"] == ["Ana", "Ben"] and result["over"] is True
    assert len(result["scores"]) == 2 and set(result["winners"]) <= {"Ana", "Ben"}
    best = max(result["scores"])
    assert result["winners"] == [p for p, s in zip(result["players"], result["scores"]) if s == best]
    sheet = result["detail"]["players"][0]["sheet"]
    assert list(sheet)[0] == "Aces" and list(sheet)[-1] == "Chance" and len(sheet) == 13
    assert {"extra_booms", "discs", "shootout"} <= set(result["detail"]["players"][0])
    assert "supply" in result["detail"]


def test_unfinished_game_reports_current_scores_and_no_winner(tmp_path, capsys):
    path = write(tmp_path, dump_script(SETUP, [Roll.of(1, 1, 1, 1, 2), Choice("score"), Choice("aces")]))
    assert main(["replay", path, "--json"]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["over"] is False and result["winners"] == [] and result["scores"] == [4, 0]


def test_refused_event_stops_with_line_number_and_rule_id(tmp_path, capsys):
    text = dump_script(SETUP, [Roll.of(1, 2, 3, 4, 5), Choice("score"), Choice("aces")])
    text = text.replace('{"choice": "aces"}', '# a comment line counts too\n{"choice": "boom"}\n{"choice": "x"}')
    path = write(tmp_path, text)
    assert main(["replay", path]) == 1  # BOOM with no five of a kind is legal (BANX-8); then Ben must roll
    assert capsys.readouterr().err == "line 6: UI-8: waiting for the dice\n"
    bad = write(tmp_path, dump_script(SETUP, [Roll.of(1, 2, 3, 4), Choice("score")]), "bad.jsonl")
    assert main(["replay", bad, "--json"]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert err.startswith("line 2: BANX-") and err.count(":") >= 2


def test_choice_that_is_not_offered_names_ui_6(tmp_path, capsys):
    bad = write(tmp_path, dump_script(SETUP, [Roll.of(1, 2, 3, 4, 6), Choice("cheat")]))
    assert main(["replay", bad]) == 1
    assert capsys.readouterr().err.strip().startswith("line 3: UI-6: ")


@pytest.mark.parametrize("text, message", [
    ("", "no setup line"),
    ("not json\n", "line 1: not JSON"),
    ('{"roll": [1]}\n', "line 1: the first line must be"),
    ('{"setup": {"game": "chess", "players": ["A", "B"]}}\n', "unknown game 'chess'"),
    ('{"setup": {"game": "banx", "players": ["A", "B"], "colours": ["r", "b"]}}\n{"dance": 1}\n', "line 2"),
])
def test_bad_scripts_give_one_line_and_exit_1(tmp_path, capsys, text, message):
    assert main(["replay", write(tmp_path, text)]) == 1
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_missing_file_is_one_line(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nope.jsonl")]) == 1
    assert "nope.jsonl" in capsys.readouterr().err


def test_export_of_a_journaled_game_replays_to_the_same_result(tmp_path, capsys):
    journal = Journal(tmp_path / "j.sqlite")
    game = journal.new_game(SETUP)
    for event in [Roll.of(6, 6, 6, 2, 2), Choice("score"), Choice("fullhouse"), Roll.of(1, 1, 4, 5, 6)]:
        journal.append(game, event)
    journal.close()
    out = tmp_path / "exported.jsonl"
    assert main(["export", "--journal", str(tmp_path / "j.sqlite"), "-o", str(out)]) == 0
    assert main(["replay", str(out), "--json"]) == 0
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["scores"] == [20, 0]
    assert result["detail"]["players"][0]["sheet"]["Full House"] == 20
