"""``python -m tools.hil [--emulate] [--picosim] [--port DEV] SCENARIO...``.

Runs each scenario on each target, replays every returned match log, and compares
the traces with the scenario's ``.expected`` file (if any) and with each other.
Exit status: 0 all traces agree, 1 a difference (the first differing event is
printed), 2 a tool error (one line on stderr: a bad argument or scenario, an
``.expected`` file that is not a trace, a target that could not run, a log that
does not replay, an output that cannot be written), 130 interrupted.
"""

import sys
from pathlib import Path

from tools import cli
from tools.hil import compare, scenario as scenarios, targets


def parse_args(argv):
    p = cli.Parser("tools.hil", prog="python -m tools.hil",
                   description="Run key scenarios on the emulators or a board "
                               "and compare the match logs.",
                   epilog="Exit status: 0 all traces agree, 1 a difference (the first"
                          " differing event is printed), 2 a tool error (one line on"
                          " stderr), 130 interrupted.")
    p.add_argument("scenarios", nargs="+", metavar="SCENARIO",
                   help="scenario files (the tools/emulate --script format)")
    p.add_argument("--emulate", action="store_true", help="the Blinka desktop emulator")
    p.add_argument("--picosim", action="store_true",
                   help="the real CircuitPython UF2 in the emulated Pico")
    p.add_argument("--port", metavar="DEV", help="a board's data port, e.g. /dev/ttyACM1")
    p.add_argument("--tolerance", type=cli.whole(0, 1000, "ms"), default=10, metavar="MS",
                   help="times may differ by this much (default 10 ms)")
    p.add_argument("--write-expected", action="store_true",
                   help="write each scenario's .expected from the first target's run")
    p.add_argument("--workdir", default="build/hil", help="logs go here (default build/hil)")
    args = p.parse_args(argv)
    if not (args.emulate or args.picosim or args.port):
        args.emulate = True
    return args


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    workdir = Path(args.workdir)
    try:
        cli.output_folder("--workdir", workdir)
        workdir.mkdir(parents=True, exist_ok=True)
    except cli.OutputError as err:
        return cli.fail("tools.hil", err)
    except OSError as err:
        return cli.fail("tools.hil", "cannot write into --workdir %s: %s" % (workdir, cli.why(err)))
    chosen = []
    if args.emulate:
        chosen.append(("emulate", lambda s: targets.run_emulate(s, workdir)))
    if args.picosim:
        chosen.append(("picosim", lambda s: targets.run_picosim(s, workdir)))
    if args.port:
        chosen.append((args.port, lambda s: targets.run_port(s, args.port, workdir)))
    failed = 0
    try:
        loaded = [scenarios.load(path) for path in args.scenarios]
        for sc in loaded:
            traces = []
            for name, runner in chosen:
                data = runner(sc)
                (workdir / ("%s.%s.log" % (sc.name, name.replace("/", "_")))).write_bytes(data)
                trace = compare.normalize(data)
                presses = sum(1 for e in trace if e.get("ev") == "press")
                matches = len(compare.split_matches(data.decode("utf-8", "replace")))
                print("%s on %s: %d matches, %d events, %d presses"
                      % (sc.name, name, matches, len(trace), presses))
                if not trace:
                    print("  FAIL: no match log came back")
                    failed += 1
                traces.append((name, trace))
            if args.write_expected and traces:
                compare.write_expected(sc.expected_path, traces[0][1])
                print("  wrote %s" % sc.expected_path)
            elif Path(sc.expected_path).is_file():
                expected = compare.read_expected(sc.expected_path)
                for name, trace in traces:
                    failed += report(sc.name, "expected", expected, name, trace, args.tolerance)
            for name, trace in traces[1:]:
                failed += report(sc.name, traces[0][0], traces[0][1], name, trace,
                                 args.tolerance)
    except (scenarios.ScenarioError, targets.TargetError, compare.LogError,
            compare.ExpectedError) as err:
        return cli.fail("tools.hil", err)
    except OSError as err:
        name = getattr(err, "filename", None)
        return cli.fail("tools.hil", "%s: %s" % (name, cli.why(err)) if name else cli.why(err))
    except KeyboardInterrupt:
        return 130
    print("hil: %s" % ("all traces agree" if not failed else "%d difference(s)" % failed))
    return 1 if failed else 0


def report(scenario, name_a, a, name_b, b, tolerance):
    """Print whether traces agree; return 0 or 1."""
    diff = compare.first_difference(a, b, tolerance)
    if diff is None:
        print("  %s: %s == %s (%d events)" % (scenario, name_a, name_b, len(a)))
        return 0
    index, x, y = diff
    print("  %s: %s != %s at event %d:\n    %s: %s\n    %s: %s"
          % (scenario, name_a, name_b, index, name_a, compare.describe(x), name_b,
             compare.describe(y)))
    return 1


if __name__ == "__main__":
    sys.exit(main())
