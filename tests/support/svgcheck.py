"""What the SVG tests (tests/cli/heatmap_svg.py, timeline_svg.py) share: a log of
checks, and a render of an SVG in headless Chromium (Debian's) that must print no
console message and must not be blank (pngread.ink)."""
import subprocess

from pngread import ink

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SVG = "{http://www.w3.org/2000/svg}"
problems = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        problems.append(what)


def render(chromium, svg, d, name, width, height, min_ink):
    """Screenshots `svg` at width x height into d/name.png and checks the render."""
    shot = f"{d}/{name}.png"
    r = subprocess.run([chromium, *FLAGS, f"--user-data-dir={d}/profile-{name}",
                        "--enable-logging=stderr", "--v=0", f"--window-size={width},{height}",
                        f"--screenshot={shot}", "file://" + svg],
                       capture_output=True, text=True, timeout=120)
    console = [l for l in r.stderr.splitlines() if "CONSOLE" in l]
    check(not console, f"{name}: no console message ({console[:1]})")
    share, colours = ink(shot)
    check(share > min_ink and colours > 20,
          f"{name}: the render is not blank ({share:.1%} of pixels inked, {colours} colours)")


def finish():
    """The exit status: 1 when a check failed, after listing the failures."""
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0
