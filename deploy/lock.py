"""Print the pinned set of gamehost's runtime dependencies as installed here, for
deploy/requirements.txt (what the image installs, exactly, with no resolving):

    .venv/bin/python deploy/lock.py > deploy/requirements.txt

It walks the requirements of the installed `gamehost` (with the extras it asks for, markers
evaluated for this Python and platform) and pins each distribution at its installed version;
setuptools is added, pinned too, to build gamehost's own wheel without a build environment.
"""

from __future__ import annotations

import sys
from importlib.metadata import PackageNotFoundError, distribution

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

BUILD = {"setuptools": 77}  # what builds gamehost's wheel (pyproject's build-system), at least this major


def closure(root: str) -> dict[str, str]:
    found: dict[str, str] = {}
    todo: list[tuple[str, frozenset[str]]] = [(root, frozenset())]
    seen: set[tuple[str, frozenset[str]]] = set()
    while todo:
        name, extras = todo.pop()
        if (name, extras) in seen:
            continue
        seen.add((name, extras))
        dist = distribution(name)
        if name != root:
            found[canonicalize_name(dist.metadata["Name"])] = dist.version
        for line in dist.requires or []:
            req = Requirement(line)
            environments = [{"extra": e} for e in extras] or [{"extra": ""}]
            if req.marker is not None and not any(req.marker.evaluate(env) for env in environments):
                continue
            todo.append((canonicalize_name(req.name), frozenset(req.extras)))
    return found


def main() -> None:
    pins = closure("gamehost")
    for name, least in BUILD.items():
        try:
            pins[name] = distribution(name).version
        except PackageNotFoundError:
            pins[name] = "0"
        if int(pins[name].split(".")[0]) < least:
            sys.exit(f"lock.py: {name} {pins[name]} here; pip install '{name}>={least}' first (it builds gamehost)")
    print("# gamehost's runtime dependencies, pinned (deploy/lock.py wrote this; install.sh takes it with --no-deps)")
    for name in sorted(pins):
        print(f"{name}=={pins[name]}")


if __name__ == "__main__":
    main()
