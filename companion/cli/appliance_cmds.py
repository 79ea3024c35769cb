"""`config` (the configuration in use, or the documented default file) and `doctor` (check the hardware)."""
from __future__ import annotations

import argparse
from dataclasses import fields, is_dataclass

from .. import config as configuration
from .. import doctor


def register(sub) -> None:
    config = sub.add_parser("config", help="check and show the configuration, or print the default file",
                            description="Load the configuration (--config FILE, else $DICE_COMPANION_CONFIG, else "
                                        "/etc/dice-companion/config.toml, else built-in defaults), check every "
                                        "key and show the values in use.")
    config.add_argument("--config", metavar="FILE", help="the TOML file to check")
    config.add_argument("--default", action="store_true", help="print the documented default file and exit")
    config.set_defaults(run=run_config)

    check = sub.add_parser("doctor", help="check the camera, OLED, buttons, permissions, disk and service",
                           description="Check each part of the appliance; prints OK, FAIL with a fix, or SKIP, and "
                                       "exits 1 when a check fails.")
    check.add_argument("--config", metavar="FILE", help="the configuration to check against")
    check.add_argument("--press-timeout", type=float, default=10, metavar="SECONDS",
                       help="how long to wait for each button press (default 10; 0 skips the presses)")
    check.set_defaults(run=run_doctor)


def run_config(args: argparse.Namespace) -> int:
    if args.default:
        print(configuration.default_text(), end="")
        return 0
    cfg = configuration.load(args.config)
    print(f"# {cfg.source}: every key checked")
    for line in _flatten(cfg):
        print(line)
    return 0


def _flatten(value, prefix: str = ""):
    """`section.key = value` lines for a Config."""
    if is_dataclass(value):
        for f in fields(value):
            if prefix or f.name != "source":   # Config.source is the header line
                yield from _flatten(getattr(value, f.name), f"{prefix}{f.name}.")
    elif isinstance(value, dict) and value:
        for key, item in value.items():
            yield from _flatten(item, f"{prefix}{key}.")
    else:
        yield f"{prefix.rstrip('.')} = {value!r}"


def run_doctor(args: argparse.Namespace) -> int:
    try:
        cfg = configuration.load(args.config)
        print(doctor.format_result(doctor.ok("config", cfg.source)))
        failed = 0
    except configuration.ConfigError as error:
        print(doctor.format_result(doctor.fail("config", str(error), "mend the key named; "
                                                                     "`dice-companion config --default` documents them")))
        print("      checking the rest with the built-in defaults")
        cfg = configuration.defaults()
        failed = 1
    results = doctor.run(cfg, press_timeout=args.press_timeout)
    failed += sum(result.status == "FAIL" for result in results)
    print(f"{failed} check{'s' if failed != 1 else ''} failed" if failed else "all checks passed")
    return 1 if failed else 0
