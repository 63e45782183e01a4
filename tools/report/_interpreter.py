"""Make sure this process runs under a Python that has matplotlib, pandas and numpy.

`starnuma report` execs `python3`, which on some hosts (pyenv shims, virtual environments) is not the
Debian interpreter that apt's python3-matplotlib, python3-pandas and python3-numpy belong to. Rather
than fail there, the same command line is run again under /usr/bin/python3 when the modules are
missing here; if that does not help either, one line says what to install.
"""
import importlib.util
import os
import sys

SYSTEM_PYTHON = "/usr/bin/python3"
NEEDED = ("matplotlib", "pandas", "numpy")
_GUARD = "STARNUMA_REPORT_REEXEC"  # set once re-executed, so a second miss cannot loop


def ensure(needed=NEEDED, who: str = "starnuma report") -> None:
    missing = [m for m in needed if importlib.util.find_spec(m) is None]
    if not missing:
        return
    here = os.path.realpath(sys.executable or "")
    if _GUARD not in os.environ and here != os.path.realpath(SYSTEM_PYTHON) and os.access(SYSTEM_PYTHON, os.X_OK):
        os.environ[_GUARD] = "1"
        sys.stdout.flush()
        sys.stderr.flush()
        os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON, *sys.orig_argv[1:]])
    sys.exit(f"{who}: Python modules missing: {', '.join(missing)} "
             f"(Debian: apt-get install {' '.join('python3-' + m for m in missing)})")
