"""The pins: pyproject.toml, environment.yml and the lock file agree."""

import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pyproject_pins() -> dict[str, str]:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    pins = {}
    for dep in deps:
        name, _, version = dep.partition("==")
        assert version, f"pyproject dependency {dep!r} is not pinned with =="
        pins[_norm(name)] = version
    return pins


def test_environment_yml_lists_the_same_pins():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pip_section = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict) and "pip" in d)
    env_pins = {}
    for dep in pip_section:
        name, _, version = dep.partition("==")
        env_pins[_norm(name)] = version
    assert env_pins == pyproject_pins()
    assert "python=3.11" in env["dependencies"]


def test_lock_file_agrees_with_pyproject():
    lock = {}
    for line in (ROOT / "requirements-lock.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            lock[_norm(name)] = version
    for name, version in pyproject_pins().items():
        assert lock.get(name) == version, f"{name}: pyproject {version}, lock {lock.get(name)}"


def test_torch_is_the_cpu_release():
    assert pyproject_pins()["torch"] == "2.13.0"
    assert pyproject_pins()["jupyter-book"].startswith("1.")


def test_sources_compile_without_warnings():
    """No invalid escape sequences (a docstring with LaTeX must be raw) or other compile-time warnings."""
    import warnings

    for path in sorted((ROOT / "src").rglob("*.py")) + sorted((ROOT / "notebooks").glob("*.py")):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            compile(path.read_text(), str(path), "exec")


def test_sources_hold_no_control_characters():
    """A LaTeX escape written through a non-raw string (``"\\varphi"``, ``"\\rVert"``) leaves a control
    character in the file (vertical tab, carriage return, form feed) that compiles without a warning but renders
    as a broken formula; only newline and tab may appear."""
    bad = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
    paths = [p for d in ("src", "notebooks", "tests") for p in sorted((ROOT / d).rglob("*.py"))]
    offenders = [f"{p.relative_to(ROOT)}:{n}" for p in paths
                 for n, line in enumerate(p.read_bytes().decode().split("\n"), 1) if bad.search(line)]
    assert not offenders, f"control characters in {offenders}"
