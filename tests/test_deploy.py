"""deploy/: what can be checked on a machine without Docker.

- The settings the code reads (bot/config.py, and any os.environ read in bot/, engines/,
  render/) are each documented in deploy/.env.example; compose and the systemd unit pass that
  file through (env_file, EnvironmentFile) and name no variable the code does not read. A
  setting added to the code without them fails here.
- deploy/requirements.txt pins every runtime dependency, within pyproject's ranges.
- deploy/install.sh, the image's install steps, run in a fresh virtualenv: the installed
  `gamehost` (not this checkout) plays a console round and saves a picture, and the systemd
  unit, pointed at it, passes `systemd-analyze verify`.

What is not exercised here: `docker build`, `docker compose up` (no Docker daemon on the
test machine), and systemd actually running the unit (README, "Deploying").
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from pydantic import AliasChoices

from bot.config import Settings

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
ENV_EXAMPLE = DEPLOY / ".env.example"
COMPOSE = DEPLOY / "compose.yaml"
UNIT = DEPLOY / "gamehost@.service"
# Variables of the deployment files that are not gamehost's: compose's PostgreSQL.
NOT_GAMEHOST = {"POSTGRES_PASSWORD", "POSTGRES_USER", "POSTGRES_DB"}


def setting_names() -> dict[str, set[str]]:
    """Each setting of bot/config.py -> the environment variables that set it."""
    found = {}
    for name, field in Settings.model_fields.items():
        alias = field.validation_alias
        if isinstance(alias, AliasChoices):
            found[name] = {str(choice).upper() for choice in alias.choices}
        else:
            found[name] = {f"{Settings.model_config['env_prefix']}{name}".upper()}
    return found


def environ_reads() -> set[str]:
    """Every variable read with os.environ[...], os.environ.get(...) or os.getenv(...) in the code."""
    found = set()
    for package in ("bot", "engines", "render"):
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                key = None
                if isinstance(node, ast.Subscript) and ast.unparse(node.value) == "os.environ":
                    key = node.slice
                elif isinstance(node, ast.Call) and ast.unparse(node.func) in ("os.environ.get", "os.getenv"):
                    key = node.args[0] if node.args else None
                if key is not None:
                    assert isinstance(key, ast.Constant), f"{path}: a variable read by a computed name"
                    found.add(str(key.value))
    return found


def documented(text: str) -> set[str]:
    """The variables an env file names, set or commented out (`NAME=...`, `#NAME=...`)."""
    return set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]*)=", text, flags=re.MULTILINE))


def test_every_setting_is_in_the_env_example_and_nothing_else() -> None:
    names = setting_names()
    example = documented(ENV_EXAMPLE.read_text())
    missing = [name for name, env in names.items() if not env & example]
    assert not missing, f"settings of bot/config.py not in deploy/.env.example: {missing}"
    missing_reads = environ_reads() - example
    assert not missing_reads, f"os.environ reads not in deploy/.env.example: {sorted(missing_reads)}"
    known = set().union(*names.values()) | environ_reads() | NOT_GAMEHOST
    assert example <= known, f"deploy/.env.example names what the code does not read: {sorted(example - known)}"
    # Each is described: a comment right above it (or above the group it belongs to).
    lines = ENV_EXAMPLE.read_text().splitlines()
    for i, line in enumerate(lines):
        if re.match(r"^#?[A-Z][A-Z0-9_]*=", line):
            above = lines[i - 1] if i else ""
            assert above.startswith("#"), f"deploy/.env.example: {line!r} has no description above it"


def test_compose_and_unit_pass_every_setting_through() -> None:
    known = set().union(*setting_names().values()) | NOT_GAMEHOST
    compose = yaml.safe_load(COMPOSE.read_text())
    bot, db = compose["services"]["bot"], compose["services"]["db"]
    environment = bot["environment"]
    assert bot["env_file"] == ".env"  # deploy/.env, a copy of deploy/.env.example: every setting passes through
    assert set(environment) <= known, f"compose sets what the code does not read: {set(environment) - known}"
    assert environment["GAMEHOST_METRICS_PORT"] == "9100" and "9100/readyz" in " ".join(bot["healthcheck"]["test"])
    assert environment["DATABASE_URL"].startswith("postgresql://") and "@db:5432/" in environment["DATABASE_URL"]
    assert bot["depends_on"]["db"]["condition"] == "service_healthy" and "healthcheck" in db
    assert bot["restart"] == db["restart"] == "unless-stopped"
    assert {v.split(":")[0] for v in bot["volumes"] + db["volumes"]} <= set(compose["volumes"])
    assert (DEPLOY / bot["build"]["context"] / bot["build"]["dockerfile"]).resolve() == DEPLOY / "Dockerfile"
    unit = UNIT.read_text()
    assert re.search(r"^EnvironmentFile=/etc/gamehost/%i\.env$", unit, flags=re.MULTILINE)
    named = set(re.findall(r"^Environment=\"?([A-Z][A-Z0-9_]*)=", unit, flags=re.MULTILINE))
    assert named <= known, f"the unit sets what the code does not read: {named - known}"
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    image_env = set(re.findall(r"\b(GAMEHOST_[A-Z_]+|DATABASE_URL|[A-Z]+_TOKEN)=", dockerfile))
    assert image_env <= known, f"the image sets what the code does not read: {image_env - known}"


def test_requirements_pin_every_runtime_dependency_within_its_range() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins = {}
    for line in (DEPLOY / "requirements.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            pins[canonicalize_name(name)] = version
    for text in project["dependencies"]:
        wanted = Requirement(text)
        name = canonicalize_name(wanted.name)
        assert name in pins, f"deploy/requirements.txt has no pin for {wanted.name}: run deploy/lock.py"
        assert wanted.specifier.contains(pins[name], prereleases=True), f"{name}=={pins[name]} is not {wanted}"


def test_the_image_install_steps_give_a_gamehost_that_plays(tmp_path: Path) -> None:
    """deploy/install.sh as the Dockerfile runs it, into a fresh virtualenv. Fast enough for the
    test run: the dependencies are pinned and installed with --no-deps (no resolving), pip's
    cache is kept (the image sets PIP_NO_CACHE_DIR), and no bytecode is compiled."""
    prefix = tmp_path / "gamehost"
    checkout = set(ROOT.iterdir())
    env = {**os.environ, "PYTHON": sys.executable, "PIP_NO_COMPILE": "1", "PIP_NO_INPUT": "1"}
    done = subprocess.run(["sh", str(DEPLOY / "install.sh"), str(prefix), str(ROOT)], env=env, capture_output=True,
                          text=True, timeout=600, cwd=ROOT)  # run from the checkout: it must not count
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"gamehost installed in {prefix}" in done.stdout
    assert set(ROOT.iterdir()) == checkout, "install.sh left files in the checkout"

    # The installed package, not this checkout: run from elsewhere, with nothing of the checkout on the path.
    where = subprocess.run([prefix / "bin" / "python", "-c", "import bot, render; print(bot.__file__, render.__file__)"
                            ], cwd=tmp_path, capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"})
    assert where.returncode == 0 and where.stdout.count(str(prefix)) == 2, where.stdout + where.stderr
    game = subprocess.run(
        [prefix / "bin" / "gamehost", "--ai-workers", "0", "--render-workers", "0", "--name", "小明😀",
         "--images", str(tmp_path / "pictures"), "--db", str(tmp_path / "g.db")],
        input="nim start 2 2\n/as bob\njoin\n", cwd=tmp_path, capture_output=True, text=True, timeout=300,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert game.returncode == 0, game.stdout + game.stderr
    assert "Nim begins: 小明😀 vs bob" in game.stdout, game.stdout
    pictures = list((tmp_path / "pictures").glob("*.png"))
    assert pictures and pictures[0].read_bytes().startswith(b"\x89PNG"), game.stdout

    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed: the unit was not verified")
    unit = tmp_path / "gamehost@main.service"
    unit.write_text(UNIT.read_text().replace("/opt/gamehost/bin/gamehost", str(prefix / "bin" / "gamehost")))
    verified = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True, timeout=120)
    assert verified.returncode == 0 and not verified.stderr.strip(), verified.stdout + verified.stderr
