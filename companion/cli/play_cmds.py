"""Subcommands that run the table: `demo` (scripted, no hardware), `play` (interactive) and `run` (the service)."""
from __future__ import annotations

import json
import sys

from ..games import names as game_names
from ..session.table import Table
from ..ui.screens import Prompt


def register(sub) -> None:
    demo = sub.add_parser("demo", help="play a whole scripted game with no hardware")
    demo.add_argument("--game", default="banx", choices=game_names(), help="which game (default banx)")
    demo.add_argument("--variant", help="another demo of the game, e.g. --game lowdown --variant light")
    demo.add_argument("--gif", metavar="FILE", help="also write every screen to an animated GIF")
    demo.add_argument("--quiet", action="store_true", help="print only the score sheet and the figures")
    demo.set_defaults(run=run_demo)

    play = sub.add_parser("play", help="play a game at this computer: keyboard as buttons, OLED in the terminal")
    play.add_argument("game", choices=game_names())
    play.add_argument("--config", help="configuration file")
    play.add_argument("--camera", help="'webcam', a webcam number, an image folder or a video file "
                                       "(default: the configuration's camera)")
    play.add_argument("--display", choices=("terminal", "ssd1306", "sh1106", "dummy"), default="terminal")
    play.set_defaults(run=run_play)

    service = sub.add_parser("run", help="the appliance: home screen, camera, buttons and OLED from the config")
    service.add_argument("--config", help="configuration file (default $DICE_COMPANION_CONFIG or "
                                          "/etc/dice-companion/config.toml)")
    service.set_defaults(run=run_service)


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
    script = demo_script(args.game, args.variant)
    table, report = play_demo(script, device, on_prompt=None if args.quiet else print_screen)
    if args.gif:
        device.write_animation()
    print("\n".join(score_sheet(table)))
    print("\n".join(report.lines()))
    if args.gif:
        print(f"screens written to {args.gif}")
    sys.stdout.flush()
    return 0


def camera_override(camera_cfg, camera: str | None):
    """The configuration's camera, or the one named on the command line. A path that names nothing is a typing
    mistake, said at once: the camera the appliance retries with back-off is one that was there and went away."""
    from dataclasses import replace
    from pathlib import Path

    from ..errors import CompanionError

    if camera is None:
        return camera_cfg
    if camera == "webcam" or camera.isdigit():
        return replace(camera_cfg, source="webcam", device=0 if camera == "webcam" else int(camera))
    if not Path(camera).exists():
        raise CompanionError(f"--camera {camera}: no such image folder or video file")
    kind = "folder" if Path(camera).is_dir() else "video"
    return replace(camera_cfg, source=kind, path=camera)


def serve(cfg, *, game: str | None = None, keyboard: bool = False) -> int:
    """Build the appliance from `cfg` and run it until the players quit, the replay ends, or SIGTERM."""
    import signal
    import threading

    from ..service import Notifier
    from ..session.appliance import Appliance
    from ..session.journal import Journal
    from ..ui.buttons import ButtonPanel
    from ..ui.display import Screen, open_display
    from ..ui.keyboard import KeyboardPanel
    from ..vision.profile import Profile
    from ..vision.settle import SettleDetector
    from ..vision.sources import ReconnectingSource, ReplayEnded, open_source

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    profile = Profile.load(cfg.reader.calibration) if cfg.reader.calibration else None
    screen = Screen(open_display(cfg.display), cfg.display.dim_after_s, contrast=cfg.display.contrast)
    if keyboard or cfg.buttons.backend == "keyboard":
        buttons = KeyboardPanel()
    else:
        buttons = ButtonPanel(cfg.buttons.pins, long_press_ms=cfg.buttons.long_press_ms,
                              debounce_ms=cfg.buttons.debounce_ms, repeat_ms=cfg.buttons.repeat_ms)
    source = ReconnectingSource(lambda: open_source(cfg.camera))
    appliance = Appliance(journal=Journal(cfg.table.journal), source=source, buttons=buttons, screen=screen,
                          profile=profile, profile_path=cfg.reader.calibration or None,
                          settle_factory=SettleDetector, notifier=Notifier(),
                          players=cfg.table.players, game_options=cfg.games, game=game)
    try:
        return appliance.run(stop)
    except ReplayEnded as ended:
        print(f"dice-companion: {ended}; the game is saved in {cfg.table.journal}")
        return 0
    finally:
        buttons.close()
        source.close()


def run_play(args) -> int:
    from dataclasses import replace

    from ..config import load

    cfg = load(args.config)
    cfg = replace(cfg, camera=camera_override(cfg.camera, args.camera),
                  display=replace(cfg.display, driver=args.display))
    return serve(cfg, game=args.game, keyboard=True)


def run_service(args) -> int:
    from ..config import load

    return serve(load(args.config))
