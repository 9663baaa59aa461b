"""The book's single figure style.

Opaque white backgrounds (legible in dark mode), a colour-blind-safe cycle,
light grids, and inline figures at twice the pixel density (crisp on
high-density screens, still small files). Notebooks get it through
:func:`repro.runtime.setup_notebook`.
"""

from __future__ import annotations

import matplotlib as mpl

#: Okabe--Ito colour-blind-safe palette.
PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000"]

STYLE = {
    "figure.figsize": (6.4, 3.6),
    "figure.dpi": 100,
    "savefig.dpi": 150,
    "figure.facecolor": "white",
    "axes.facecolor": "white",
    "savefig.facecolor": "white",
    "savefig.transparent": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "legend.fontsize": 9,
    "legend.frameon": False,
    "font.size": 10,
    "svg.hashsalt": "repro",
    "figure.constrained_layout.use": True,
}


def use_style() -> None:
    """Apply :data:`STYLE` and ask IPython (if running) for retina PNG figures."""
    mpl.rcParams.update(STYLE)
    mpl.rcParams["axes.prop_cycle"] = mpl.cycler(color=PALETTE)
    try:
        from IPython import get_ipython

        if get_ipython() is not None:
            from matplotlib_inline.backend_inline import set_matplotlib_formats

            set_matplotlib_formats("retina")
    except ImportError:  # pragma: no cover - IPython comes with the kernel
        pass
