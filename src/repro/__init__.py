"""Shared machinery of the NeurIPS 2025 reproduction book.

The book keeps every algorithm here, in a tested package, and leaves in each
notebook (``notebooks/<slug>.py``) only what a reader should read.

* :mod:`repro.runtime` -- notebook parameters (``scale``, ``seed``), seeding,
  thread pinning, network blocking, progress bars.
* :mod:`repro.claims` -- the machine-checked claims of every page.
* :mod:`repro.plotting` -- the one figure style of the book.
* :mod:`repro.stats` -- small numerical helpers shared by several papers.
* :mod:`repro.optim` -- Adam and AdamW with torch.optim's iterates, without its import cost.
* :mod:`repro.validate` -- argument checks shared by the kernels.
* :mod:`repro.papers` -- one kernel module per paper, named after its slug.
* :mod:`repro.pipeline` -- executing notebooks with papermill (``make book``).
"""

from repro.runtime import SCALES, check_params, seed_everything, setup_notebook

__all__ = ["SCALES", "check_params", "seed_everything", "setup_notebook"]
__version__ = "0.1.0"
