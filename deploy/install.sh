#!/bin/sh
# Install gamehost the way the container image does (deploy/Dockerfile runs this), into a new
# virtualenv at PREFIX, then check that what was installed works:
#
#   deploy/install.sh PREFIX [SOURCE]      SOURCE: the checkout (default: this script's)
#
# 1. the dependencies exactly as pinned in deploy/requirements.txt (deploy/lock.py writes it),
#    with --no-deps: nothing is resolved at build time, every image gets the same versions;
# 2. gamehost itself, a regular (not editable) install of the packages only (bot, engines,
#    render with its fonts and catalogs), built from a copy so the checkout stays clean;
# 3. checks: `pip check` (the pins satisfy every requirement), the fonts are in the installed
#    package, Pillow lays text out with raqm (its wheels bring harfbuzz but load FriBiDi from
#    the system: Debian's libfribidi0), a line of Chinese and colour emoji draws, and
#    `gamehost --help` runs. Any failure stops the script with a message and a non-zero exit.
#
# PYTHON: the interpreter (default python3), with pip 22.3 or newer. pip is configured by the
# environment as usual (PIP_NO_CACHE_DIR=1 in the image; the test keeps pip's cache and sets
# PIP_NO_COMPILE=1: no bytecode, which only saves the image's first start some time).
set -eu

PREFIX=${1:?usage: deploy/install.sh PREFIX [SOURCE]}
SOURCE=${2:-$(cd "$(dirname "$0")/.." && pwd)}
PYTHON=${PYTHON:-python3}

# The virtualenv has no pip of its own (the image needs none): PYTHON's pip installs into it.
"$PYTHON" -m venv --without-pip "$PREFIX"
pip() { "$PYTHON" -m pip --python "$PREFIX/bin/python" "$@"; }
pip install --quiet --no-deps --requirement "$SOURCE/deploy/requirements.txt"

BUILD=$(mktemp -d)
trap 'rm -rf "$BUILD"' EXIT
cp -R "$SOURCE/pyproject.toml" "$SOURCE/README.md" "$SOURCE/bot" "$SOURCE/engines" "$SOURCE/render" "$BUILD/"
find "$BUILD" -name __pycache__ -prune -exec rm -rf {} +
pip install --quiet --no-deps --no-build-isolation "$BUILD"

pip check
# The checks see only what was installed: isolated mode (no current directory, no PYTHONPATH on
# the path), run from the new virtualenv's directory.
cd "$PREFIX"
"$PREFIX/bin/python" -I - <<'PY'
import sys
from importlib.resources import files

from PIL import Image, features

fonts = files("render") / "fonts"
wanted = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DroidSansFallbackFull.ttf", "NotoColorEmoji.ttf")
missing = [name for name in wanted if not (fonts / name).is_file()]
if missing:
    sys.exit(f"install.sh: fonts missing from the installed package: {', '.join(missing)}")
if not features.check("raqm"):
    sys.exit("install.sh: Pillow cannot lay out text with raqm: install FriBiDi (Debian: apt-get install libfribidi0)")

from render import text  # noqa: E402

image = Image.new("RGB", (400, 80), "white")
text.draw_text(image, (10, 60), "小明 😀 Ann", 40)
colours = {image.getpixel((x, y)) for x in range(image.width) for y in range(image.height)}
if not any(abs(r - g) > 60 or abs(g - b) > 60 for r, g, b in colours):
    sys.exit("install.sh: the colour emoji did not draw in colour")
left = image.crop((10, 0, 90, 80))  # the two Chinese characters
if left.getextrema() == ((255, 255), (255, 255), (255, 255)):
    sys.exit("install.sh: the Chinese characters did not draw")
PY
"$PREFIX/bin/gamehost" --help >/dev/null
echo "install.sh: gamehost installed in $PREFIX"
