"""Adam and AdamW without ``torch.optim``'s start-up cost, for the pages that train small models.

Constructing ``torch.optim.Adam`` imports ``torch._dynamo``: about 1.7–2.2 s of CPU on these machines,
a fifth of a page's 10 s budget at ``ci`` scale, spent before the first step. The update itself lives in
torch's functional ``torch.optim.adam.adam``, which imports nothing more; :class:`Adam` and :class:`AdamW`
keep the per-parameter state and call it on the single-tensor path that ``torch.optim.Adam`` takes on the
CPU, so their iterates are the same floats (``tests/test_optim.py`` compares them step by step).

Kingma and Ba (2015), Algorithm 1, with ``t`` the step count and ``g`` the gradient::

    m <- beta1 m + (1 - beta1) g          v <- beta2 v + (1 - beta2) g^2
    theta <- theta - lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)

Adam adds ``weight_decay * theta`` to ``g`` (an L2 penalty); AdamW (Loshchilov and Hutter, 2019) instead
multiplies ``theta`` by ``1 - lr * weight_decay`` before the step (decoupled decay).

Not supported (use ``torch.optim`` where a page needs them): parameter groups, learning-rate schedulers,
``amsgrad``, ``maximize``, state dicts. Used by the training loops of the kernel modules in
``repro.papers`` that import it.
"""

from __future__ import annotations

from collections.abc import Iterable

import torch
from torch.optim.adam import adam as _functional_adam


class Adam:
    """Adam on a fixed list of tensors; same iterates as ``torch.optim.Adam`` (single-tensor path).

    Parameters
    ----------
    params : iterable of Tensor
        Leaf tensors with ``requires_grad``; a parameter whose ``.grad`` is None at a step is skipped,
        as ``torch.optim`` does.
    lr : float
        Step size, > 0.
    betas : (float, float)
        Decay rates of the first and second moment estimates, each in [0, 1).
    eps : float
        Added to the denominator, >= 0.
    weight_decay : float
        L2 penalty coefficient (Adam) or decoupled decay rate (:class:`AdamW`), >= 0.
    """

    decoupled: bool = False

    def __init__(self, params: Iterable[torch.Tensor], lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0.0) -> None:
        self.params = list(params)
        if not self.params:
            raise ValueError("optimizer got an empty parameter list")
        if not all(isinstance(p, torch.Tensor) and p.is_leaf and p.requires_grad for p in self.params):
            raise ValueError("every parameter must be a leaf tensor with requires_grad=True")
        if not lr > 0:
            raise ValueError(f"lr must be > 0; got {lr!r}")
        if len(betas) != 2 or not all(0.0 <= b < 1.0 for b in betas):
            raise ValueError(f"betas must be two numbers in [0, 1); got {betas!r}")
        if not eps >= 0 or not weight_decay >= 0:
            raise ValueError(f"eps and weight_decay must be >= 0; got eps={eps!r}, weight_decay={weight_decay!r}")
        self.lr, self.betas, self.eps, self.weight_decay = float(lr), tuple(betas), float(eps), float(weight_decay)
        self.state: dict[int, dict[str, torch.Tensor]] = {}

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Forget the gradients (set them to None, or to zero with ``set_to_none=False``)."""
        for p in self.params:
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    p.grad.zero_()

    @torch.no_grad()
    def step(self) -> None:
        """One update of every parameter that has a gradient."""
        live = [p for p in self.params if p.grad is not None]
        if not live:
            return
        for p in live:
            if id(p) not in self.state:
                self.state[id(p)] = {"step": torch.tensor(0.0), "exp_avg": torch.zeros_like(p),
                                     "exp_avg_sq": torch.zeros_like(p)}
        st = [self.state[id(p)] for p in live]
        _functional_adam(live, [p.grad for p in live], [s["exp_avg"] for s in st], [s["exp_avg_sq"] for s in st],
                         [], [s["step"] for s in st], foreach=False, decoupled_weight_decay=self.decoupled,
                         has_complex=any(torch.is_complex(p) for p in live), amsgrad=False,
                         beta1=self.betas[0], beta2=self.betas[1], lr=self.lr, weight_decay=self.weight_decay,
                         eps=self.eps, maximize=False)


class AdamW(Adam):
    """AdamW: Adam with decoupled weight decay; same iterates as ``torch.optim.AdamW`` (default decay 0.01)."""

    decoupled = True

    def __init__(self, params: Iterable[torch.Tensor], lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 1e-2) -> None:
        super().__init__(params, lr=lr, betas=betas, eps=eps, weight_decay=weight_decay)
