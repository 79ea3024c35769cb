"""`dice-companion demo`: a whole scripted game with no hardware, from camera frames to OLED screens."""
from __future__ import annotations

import json
import sys

from ..games import names as game_names
from ..session.table import Table
from ..ui.screens import Prompt


def register(sub) -> None:
    demo = sub.add_parser("demo", help="play a whole scripted game with no hardware")
    demo.add_argument("--game", default="banx", choices=game_names(), help="which game (default banx)")
    demo.add_argument("--gif", metavar="FILE", help="also write every screen to an animated GIF")
    demo.add_argument("--quiet", action="store_true", help="print only the score sheet and the figures")
    demo.set_defaults(run=run_demo)


def print_screen(prompt: Prompt) -> None:
    """The OLED as text in a frame, the way the emulated screen shows it in a terminal."""
    print("+" + "-" * 21 + "+")
    for line in prompt.text().split("\n"):
        print(f"|{line:<21}|")
    print("+" + "-" * 21 + "+", flush=True)


def score_sheet(table: Table) -> list[str]:
    """The final (or current) scores, winners marked, then each player's tracked detail."""
    state = table.match.state
    outcome = state.outcome()
    scores = outcome.scores if outcome else state.scores()
    winners = outcome.winners if outcome else ()
    lines = [f"{table.match.game.title}: final scores" if outcome else f"{table.match.game.title}: scores so far"]
    lines += [f"  {name:<12}{score:>6}{'  WINNER' if i in winners else ''}"
              for i, (name, score) in enumerate(zip(table.names, scores))]
    detail = state.detail()
    per_player = detail.get("players") if isinstance(detail, dict) else None
    if isinstance(per_player, list) and per_player and isinstance(per_player[0], dict):
        for name, entry in zip(table.names, per_player):
            lines.append(f"  {name}: " + json.dumps(entry, separators=(", ", ": ")))
    return lines


def run_demo(args) -> int:
    from luma.core.device import dummy

    from ..session.demo import demo_script, play_demo

    if args.gif:
        from luma.emulator.device import gifanim
        device = gifanim(width=128, height=64, mode="1", filename=args.gif, duration=0.6, scale=2)
    else:
        device = dummy(width=128, height=64, mode="1")
    table, report = play_demo(demo_script(args.game), device, on_prompt=None if args.quiet else print_screen)
    if args.gif:
        device.write_animation()
    print("\n".join(score_sheet(table)))
    print("\n".join(report.lines()))
    if args.gif:
        print(f"screens written to {args.gif}")
    sys.stdout.flush()
    return 0
