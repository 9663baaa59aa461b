r"""SIGMA: Structured Inverse-Gamma Model Alignment for test-time adaptation (a CPU analogue).

Paper map
---------
*SIGMA (Structured Inverse-Gamma Model Alignment)*; title and authors not found (OpenReview forum
``pdlepT2alu``, NeurIPS 2025), https://openreview.net/forum?id=pdlepT2alu. No official code was found.
Notebook: ``notebooks/sigma-tta-inverse-gamma.py``.

The paper models the parameters of a test-time-adapted network as a stochastic differential equation and
reports that, when adaptation is stable, the log-variance of the parameter transitions follows an
inverse-gamma law; SIGMA regulates the updates to keep that alignment. The exact statistic and regulation
rule are not public: everything below is our reconstruction (see the notebook's deviations).

Notation (paper -> here):

- parameters of the adapted normalisation layers :math:`\theta_t` -> ``theta`` (flat vector, ``(P,)``),
  the batch-norm scales and shifts of :class:`BNMLP`;
- the SDE :math:`d\theta = -\kappa\theta\,dt + \sigma\,dW`, step :math:`h` -> ``kappa``, ``sigma``, ``h``
  (:func:`em_stationary_variance`, :func:`simulate_em_ou`);
- transition :math:`\Delta\theta_t = \theta_{t+1} - \theta_t` of the base method (the update it proposes)
  -> ``delta``; its running second moment :math:`v_{t,i}` -> :class:`TransitionTracker`;
- the log-variance statistic :math:`s_{t,i} = -\log v_{t,i}` -> :func:`log_variance_statistic`;
- the reference law :math:`\mathrm{IG}(\alpha, \beta)` -> ``(alpha, beta)`` from :func:`fit_inverse_gamma`;
- the regulation: per-parameter learning-rate multipliers
  :math:`m_i = \mathrm{clip}(\exp((s_i - F_{\rm IG}^{-1}(\hat F(s_i)))/2), c_{lo}, c_{hi})`
  -> :func:`ig_quantile_map`, :func:`sigma_multipliers`;
- the base test-time adaptation method: TENT (entropy minimisation over batch-norm affine parameters)
  -> :func:`entropy`, :func:`run_stream`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np
import scipy.ndimage
import scipy.special
import scipy.stats
import torch
from numpy.typing import ArrayLike
from torch import nn

from repro.validate import check_int, check_positive, finite_array

__all__ = [
    "em_stationary_variance", "simulate_em_ou", "load_digit_splits", "corrupt", "make_stream", "BNMLP",
    "train_source_model", "entropy", "RegulatedAdam", "TransitionTracker", "log_variance_statistic",
    "fit_inverse_gamma", "ig_quantile_map", "sigma_multipliers", "ks_inverse_gamma", "ks_normal_fit",
    "StreamResult", "run_stream", "CORRUPTIONS", "METHODS", "SKEPTIC_METHODS",
]

CORRUPTIONS = ("gaussian-noise", "blur", "contrast", "impulse-noise", "pixel-shift")
METHODS = ("source", "bn-batch", "ema-norm", "tent", "tent+sigma", "tent+sigma-mean", "tent+anti-sigma", "tent-lr/10")
#: the skeptic's variants of the regulator (run by :func:`run_stream`, not part of the page's method grid):
#: the same rule against a *normal* reference law, and SIGMA's multipliers randomly permuted over the parameters
SKEPTIC_METHODS = ("tent+sigma-normal", "tent+sigma-perm")


# ----------------------------------------------------------------------------- the SDE view
def em_stationary_variance(kappa: float, sigma: float, h: float) -> float:
    r"""Stationary variance of the Euler--Maruyama chain of the Ornstein--Uhlenbeck SDE.

    The SDE :math:`d\theta = -\kappa\theta\,dt + \sigma\,dW` discretised with step :math:`h` is the AR(1)
    chain :math:`\theta_{n+1} = (1-\kappa h)\theta_n + \sigma\sqrt h\,\xi_n`, :math:`\xi_n\sim\mathcal N(0,1)`.
    Its stationary variance solves :math:`V = (1-\kappa h)^2 V + \sigma^2 h`:

    .. math:: V_h = \frac{\sigma^2 h}{1-(1-\kappa h)^2} = \frac{\sigma^2}{\kappa\,(2-\kappa h)},

    which tends to the SDE's :math:`\sigma^2/(2\kappa)` as :math:`h\to 0` and exists only for
    :math:`0 < \kappa h < 2` (otherwise the chain does not contract).

    Parameters
    ----------
    kappa : float
        Mean-reversion rate, > 0.
    sigma : float
        Diffusion coefficient, >= 0.
    h : float
        Step size, > 0, with ``kappa * h < 2``.

    Returns
    -------
    float
    """
    kappa = check_positive(kappa, "kappa")
    sigma = check_positive(sigma, "sigma", strict=False)
    h = check_positive(h, "h")
    if not kappa * h < 2.0:
        raise ValueError(f"no stationary law: the chain contracts only for kappa*h < 2; got kappa*h = {kappa * h!r}")
    return sigma**2 / (kappa * (2.0 - kappa * h))


def simulate_em_ou(kappa: float, sigma: float, h: float, n_steps: int, n_paths: int,
                   rng: np.random.Generator, theta0: float = 0.0) -> np.ndarray:
    r"""End points of ``n_paths`` independent Euler--Maruyama paths of :math:`d\theta=-\kappa\theta dt+\sigma dW`.

    Parameters
    ----------
    kappa, sigma, h : float
        As in :func:`em_stationary_variance` (``kappa*h`` in (0, 2) is not required here).
    n_steps, n_paths : int
        Steps per path (>= 1) and number of paths (>= 1).
    rng : numpy.random.Generator
    theta0 : float
        Common start.

    Returns
    -------
    ndarray, shape (n_paths,)
        :math:`\theta_{n_{\rm steps}}` of each path.
    """
    kappa = check_positive(kappa, "kappa")
    sigma = check_positive(sigma, "sigma", strict=False)
    h = check_positive(h, "h")
    n_steps, n_paths = check_int(n_steps, "n_steps", least=1), check_int(n_paths, "n_paths", least=1)
    theta = np.full(n_paths, float(theta0))
    a, b = 1.0 - kappa * h, sigma * np.sqrt(h)
    for _ in range(n_steps):
        theta = a * theta + b * rng.standard_normal(n_paths)
    return theta


# ----------------------------------------------------------------------------- data and shifts
def load_digit_splits(rng: np.random.Generator, frac_train: float = 0.5, frac_ref: float = 0.1) -> dict:
    """scikit-learn's 8x8 digits, pixels in [0, 1], split per class into train / reference / test.

    Returns
    -------
    dict with ``X_train (n, 64)``, ``y_train (n,)``, ``X_ref``, ``y_ref`` (clean, i.i.d.: the reference phase),
    ``X_test``, ``y_test`` (the stream before corruption).
    """
    from sklearn.datasets import load_digits

    if not (0 < frac_train and 0 < frac_ref and frac_train + frac_ref < 1):
        raise ValueError("frac_train and frac_ref must be > 0 with frac_train + frac_ref < 1")
    d = load_digits()
    X, y = d.data.astype(np.float32) / 16.0, d.target.astype(np.int64)
    parts: dict[str, list] = {k: [] for k in ("train", "ref", "test")}
    for c in range(10):
        idx = rng.permutation(np.flatnonzero(y == c))
        n_tr, n_ref = int(round(frac_train * len(idx))), int(round(frac_ref * len(idx)))
        parts["train"].append(idx[:n_tr])
        parts["ref"].append(idx[n_tr:n_tr + n_ref])
        parts["test"].append(idx[n_tr + n_ref:])
    out = {}
    for k, v in parts.items():
        idx = rng.permutation(np.concatenate(v))
        out[f"X_{k}"], out[f"y_{k}"] = X[idx], y[idx]
    return out


def corrupt(X: ArrayLike, kind: str, severity: float, rng: np.random.Generator) -> np.ndarray:
    """A synthetic distribution shift of 8x8 images (pixels in [0, 1]), clipped back to [0, 1].

    Parameters
    ----------
    X : array_like, shape (n, 64)
    kind : str
        ``gaussian-noise`` (add N(0, severity^2)), ``blur`` (Gaussian filter of width ``severity`` pixels),
        ``contrast`` (pull each pixel to the image mean by a factor ``1 - severity``, severity in [0, 1)),
        ``impulse-noise`` (a fraction ``severity`` of pixels set to 0 or 1), ``pixel-shift`` (every image moved
        by ``round(severity)`` pixels in a random direction, zero fill).
    severity : float, >= 0
    rng : numpy.random.Generator

    Returns
    -------
    ndarray, shape (n, 64), float32
    """
    X = finite_array(X, "X", ndim=2)
    if X.shape[1] != 64:
        raise ValueError(f"X must have 64 columns (8x8 images); got {X.shape[1]}")
    severity = check_positive(severity, "severity", strict=False)
    imgs = X.reshape(-1, 8, 8)
    if kind == "gaussian-noise":
        out = imgs + severity * rng.standard_normal(imgs.shape)
    elif kind == "blur":
        out = scipy.ndimage.gaussian_filter(imgs, sigma=(0, severity, severity), mode="constant")
    elif kind == "contrast":
        if severity >= 1:
            raise ValueError("contrast severity must be < 1")
        mean = imgs.mean(axis=(1, 2), keepdims=True)
        out = mean + (1.0 - severity) * (imgs - mean)
    elif kind == "impulse-noise":
        if severity > 1:
            raise ValueError("impulse-noise severity is a fraction of pixels, <= 1")
        hit = rng.random(imgs.shape) < severity
        out = np.where(hit, rng.integers(0, 2, imgs.shape).astype(float), imgs)
    elif kind == "pixel-shift":
        k = int(round(severity))
        out = np.zeros_like(imgs)
        dirs = rng.integers(0, 4, len(imgs))
        for d, (dy, dx) in enumerate(((k, 0), (-k, 0), (0, k), (0, -k))):
            sel = dirs == d
            out[sel] = scipy.ndimage.shift(imgs[sel], (0, dy, dx), order=0, mode="constant")
    else:
        raise ValueError(f"unknown corruption {kind!r}; one of {CORRUPTIONS}")
    return np.clip(out, 0.0, 1.0).reshape(-1, 64).astype(np.float32)


def make_stream(y: ArrayLike, order: str, batch: int, rng: np.random.Generator) -> list[np.ndarray]:
    """Split test indices into consecutive batches, i.i.d. or label-sorted (non-i.i.d.).

    Parameters
    ----------
    y : array_like of int, shape (n,)
        Labels of the stream (used only to sort for ``order="sorted"``).
    order : {"iid", "sorted"}
        ``iid``: a random permutation; ``sorted``: classes one after the other, in a random class order, shuffled
        within a class (the label-sorted stream of non-i.i.d. TTA benchmarks).
    batch : int, >= 1
    rng : numpy.random.Generator

    Returns
    -------
    list of ndarray of int
        The index batches; the last one may be shorter.
    """
    y = np.asarray(y)
    if y.ndim != 1 or len(y) == 0:
        raise ValueError("y must be a non-empty 1-d array")
    batch = check_int(batch, "batch", least=1)
    if order == "iid":
        idx = rng.permutation(len(y))
    elif order == "sorted":
        classes = rng.permutation(np.unique(y))
        idx = np.concatenate([rng.permutation(np.flatnonzero(y == c)) for c in classes])
    else:
        raise ValueError(f"order must be 'iid' or 'sorted'; got {order!r}")
    return [idx[i:i + batch] for i in range(0, len(idx), batch)]


# ----------------------------------------------------------------------------- the source model
class BNMLP(nn.Module):
    """64 -> hidden (BatchNorm, ReLU) -> hidden (BatchNorm, ReLU) -> 10, trained on clean digits.

    At test time :meth:`adapt_forward` runs the same network with the batch-norm affine parameters taken from a
    flat vector ``theta`` of shape ``(4 * hidden,)`` (scale 1, shift 1, scale 2, shift 2) and one of three
    normalisation statistics: ``source`` (the training running averages), ``batch`` (the test batch's own) or
    ``ema`` (an exponential moving average of test batches, started at the source statistics).
    """

    def __init__(self, hidden: int = 64, seed: int = 0) -> None:
        super().__init__()
        torch.manual_seed(seed)
        self.hidden = check_int(hidden, "hidden", least=1)
        self.fc1, self.bn1 = nn.Linear(64, hidden), nn.BatchNorm1d(hidden)
        self.fc2, self.bn2 = nn.Linear(hidden, hidden), nn.BatchNorm1d(hidden)
        self.head = nn.Linear(hidden, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Logits ``(n, 10)`` of images ``(n, 64)`` (ordinary batch-norm behaviour for train/eval)."""
        h = torch.relu(self.bn1(self.fc1(x)))
        h = torch.relu(self.bn2(self.fc2(h)))
        return self.head(h)

    def source_theta(self) -> torch.Tensor:
        """The trained batch-norm affine parameters as one flat vector ``(4 * hidden,)``."""
        return torch.cat([self.bn1.weight, self.bn1.bias, self.bn2.weight, self.bn2.bias]).detach().clone()

    def source_stats(self) -> list[list[torch.Tensor]]:
        """``[[mean1, var1], [mean2, var2]]``: the running statistics learnt on the training data."""
        return [[self.bn1.running_mean.clone(), self.bn1.running_var.clone()],
                [self.bn2.running_mean.clone(), self.bn2.running_var.clone()]]

    def adapt_forward(self, x: torch.Tensor, theta: torch.Tensor, norm: str,
                      ema_stats: list | None = None, momentum: float = 0.05) -> torch.Tensor:
        """Logits ``(n, 10)`` with affine parameters ``theta`` and normalisation ``norm`` (see the class).

        ``ema_stats`` (for ``norm="ema"``) is updated in place with the batch statistics before normalising.
        """
        H = self.hidden
        parts = theta.split(H)
        h = x
        for layer, (fc, bn) in enumerate(((self.fc1, self.bn1), (self.fc2, self.bn2))):
            z = fc(h)
            if norm == "source":
                mu, var = bn.running_mean, bn.running_var
            elif norm == "batch":
                mu, var = z.mean(0), z.var(0, unbiased=False)
            elif norm == "ema":
                with torch.no_grad():
                    st = ema_stats[layer]
                    st[0].mul_(1 - momentum).add_(momentum * z.mean(0))
                    st[1].mul_(1 - momentum).add_(momentum * z.var(0, unbiased=True))
                mu, var = ema_stats[layer]
            else:
                raise ValueError(f"norm must be 'source', 'batch' or 'ema'; got {norm!r}")
            h = torch.relu((z - mu) / torch.sqrt(var + bn.eps) * parts[2 * layer] + parts[2 * layer + 1])
        return self.head(h)


def train_source_model(X: ArrayLike, y: ArrayLike, seed: int, steps: int = 300, lr: float = 1e-2,
                       hidden: int = 64, batch: int = 128) -> BNMLP:
    """Train :class:`BNMLP` on clean images with cross-entropy and Adam (minibatches of ``batch``).

    Returns the network in eval mode, its parameters frozen (``requires_grad=False``).
    """
    from repro.optim import Adam

    steps = check_int(steps, "steps", least=1)
    Xt, yt = torch.as_tensor(np.asarray(X, dtype=np.float32)), torch.as_tensor(np.asarray(y, dtype=np.int64))
    model = BNMLP(hidden, seed)
    opt = Adam(model.parameters(), lr=lr)
    g = torch.Generator().manual_seed(seed)
    model.train()
    for _ in range(steps):
        idx = torch.randint(0, len(Xt), (batch,), generator=g)
        loss = nn.functional.cross_entropy(model(Xt[idx]), yt[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    for p in model.parameters():
        p.requires_grad_(False)
    return model


def entropy(logits: torch.Tensor) -> torch.Tensor:
    r"""Mean Shannon entropy (nats) of the softmax predictions, TENT's objective :math:`-\frac1n\sum_i\sum_c p_{ic}\log p_{ic}`.

    Parameters
    ----------
    logits : Tensor, shape (n, C)
    """
    if logits.ndim != 2:
        raise ValueError(f"logits must be (n, C); got shape {tuple(logits.shape)}")
    logp = torch.log_softmax(logits, dim=1)
    return -(logp.exp() * logp).sum(1).mean()


# ----------------------------------------------------------------------------- the optimiser and the regulator
class RegulatedAdam:
    r"""Adam on one flat parameter vector whose proposed step can be scaled per coordinate.

    :meth:`propose` returns the step :math:`\Delta_t = -\eta\,\hat m_t/(\sqrt{\hat v_t}+\epsilon)` that Adam would
    take (same arithmetic as ``torch.optim.Adam``); :meth:`apply` adds ``multipliers * delta`` to the parameters.
    With multipliers identically 1 the iterates are Adam's.

    Parameters
    ----------
    theta : Tensor, shape (P,)
        A leaf tensor with ``requires_grad=True``.
    lr : float
    betas : (float, float)
    eps : float
    """

    def __init__(self, theta: torch.Tensor, lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8) -> None:
        if not (isinstance(theta, torch.Tensor) and theta.ndim == 1 and theta.is_leaf and theta.requires_grad):
            raise ValueError("theta must be a 1-d leaf tensor with requires_grad=True")
        self.theta, self.lr = theta, check_positive(lr, "lr")
        if len(betas) != 2 or not all(0.0 <= b < 1.0 for b in betas):
            raise ValueError(f"betas must be two numbers in [0, 1); got {betas!r}")
        self.betas, self.eps = tuple(float(b) for b in betas), check_positive(eps, "eps", strict=False)
        self.m, self.v, self.t = torch.zeros_like(theta), torch.zeros_like(theta), 0

    @torch.no_grad()
    def propose(self) -> torch.Tensor:
        """Update the moments with ``theta.grad`` and return Adam's step ``(P,)`` (not applied)."""
        if self.theta.grad is None:
            raise ValueError("theta has no gradient: call backward() first")
        g, (b1, b2) = self.theta.grad, self.betas
        self.t += 1
        self.m.lerp_(g, 1 - b1)
        self.v.mul_(b2).addcmul_(g, g, value=1 - b2)
        step_size = self.lr / (1 - b1**self.t)
        denom = (self.v.sqrt() / np.sqrt(1 - b2**self.t)).add_(self.eps)
        return -step_size * self.m / denom

    @torch.no_grad()
    def apply(self, delta: torch.Tensor, multipliers: torch.Tensor | np.ndarray | None = None) -> None:
        """``theta += multipliers * delta`` (``multipliers=None`` means 1) and clear the gradient."""
        if multipliers is not None:
            delta = delta * torch.as_tensor(multipliers, dtype=delta.dtype)
        self.theta.add_(delta)
        self.theta.grad = None


class RegulatedSGD(RegulatedAdam):
    r"""Plain gradient descent on one flat parameter vector, :math:`\Delta_t = -\eta\,g_t`, with the same
    propose/apply interface as :class:`RegulatedAdam` (with multipliers 1 the iterates are ``torch.optim.SGD``'s).
    """

    @torch.no_grad()
    def propose(self) -> torch.Tensor:
        """Return the step ``-lr * theta.grad`` ``(P,)`` (not applied)."""
        if self.theta.grad is None:
            raise ValueError("theta has no gradient: call backward() first")
        self.t += 1
        return -self.lr * self.theta.grad


def _make_opt(theta: torch.Tensor, lr: float, opt: str) -> RegulatedAdam:
    if opt == "adam":
        return RegulatedAdam(theta, lr=lr)
    if opt == "sgd":
        return RegulatedSGD(theta, lr=lr)
    raise ValueError(f"opt must be 'adam' or 'sgd'; got {opt!r}")


@dataclass
class TransitionTracker:
    r"""Running second moment of parameter transitions, :math:`v_{t} = \rho v_{t-1} + (1-\rho)\Delta_t^2`.

    Parameters
    ----------
    v : ndarray, shape (P,)
        The starting value (for example the reference phase's last value), > 0.
    rho : float
        EMA factor in [0, 1).
    """

    v: np.ndarray
    rho: float = 0.9

    def __post_init__(self) -> None:
        self.v = finite_array(self.v, "v", ndim=1).copy()
        if np.any(self.v <= 0):
            raise ValueError("the starting second moments must be > 0")
        if not 0.0 <= self.rho < 1.0:
            raise ValueError(f"rho must be in [0, 1); got {self.rho!r}")

    def update(self, delta: ArrayLike) -> np.ndarray:
        """Fold one transition ``(P,)`` in; returns the new ``v``."""
        delta = finite_array(delta, "delta", ndim=1)
        if delta.shape != self.v.shape:
            raise ValueError(f"delta must have shape {self.v.shape}; got {delta.shape}")
        self.v = self.rho * self.v + (1.0 - self.rho) * delta**2
        return self.v

    def stats(self) -> np.ndarray:
        """The log-variance statistic ``-log v`` of every coordinate ``(P,)``."""
        return log_variance_statistic(self.v)


def log_variance_statistic(v: ArrayLike) -> np.ndarray:
    r"""The statistic :math:`s = -\log v` of transition variances ``v > 0`` (positive where ``v < 1``)."""
    v = finite_array(v, "v")
    if np.any(v <= 0):
        raise ValueError("variances must be > 0")
    return -np.log(v)


def fit_inverse_gamma(samples: ArrayLike) -> tuple[float, float]:
    r"""Maximum-likelihood inverse-gamma :math:`\mathrm{IG}(\alpha,\beta)`, density
    :math:`\frac{\beta^\alpha}{\Gamma(\alpha)}x^{-\alpha-1}e^{-\beta/x}`, location fixed at 0 (scipy's ``invgamma``
    with ``a = alpha`` and ``scale = beta``).

    Parameters
    ----------
    samples : array_like, shape (n,), all > 0, n >= 2, not all equal

    Returns
    -------
    (alpha, beta) : (float, float)
    """
    x = finite_array(samples, "samples", ndim=1)
    if len(x) < 2 or np.any(x <= 0):
        raise ValueError("need at least 2 samples, all > 0")
    if np.ptp(x) == 0:
        raise ValueError("samples are all equal: no inverse-gamma fit")
    a, _, scale = scipy.stats.invgamma.fit(x, floc=0)
    return float(a), float(scale)


def ig_quantile_map(values: ArrayLike, alpha: float, beta: float) -> np.ndarray:
    r"""Quantile-normalise ``values`` onto :math:`\mathrm{IG}(\alpha, \beta)`: :math:`F^{-1}_{\rm IG}(\hat F(x_i))`.

    :math:`\hat F(x_i) = (r_i - 1/2)/n` with :math:`r_i` the (average) rank of :math:`x_i` among the ``n`` values,
    so the output has the reference law's quantiles in the input's order.

    Parameters
    ----------
    values : array_like, shape (n,)
    alpha, beta : float, > 0

    Returns
    -------
    ndarray, shape (n,)
    """
    x = finite_array(values, "values", ndim=1)
    alpha, beta = check_positive(alpha, "alpha"), check_positive(beta, "beta")
    if len(x) == 0:
        raise ValueError("values is empty")
    r = scipy.stats.rankdata(x)
    if np.array_equal(r, np.round(r)):
        # no ties: the targets are the law's n fixed quantiles in the input's order (cached: hot path)
        return _ig_quantiles(alpha, beta, len(x))[r.astype(np.int64) - 1]
    return _ig_ppf(alpha, beta, (r - 0.5) / len(x))


def _ig_ppf(alpha: float, beta: float, u: np.ndarray) -> np.ndarray:
    # IG(alpha, beta) has cdf Q(alpha, beta/x) (the regularised upper incomplete gamma), so its quantile is
    # beta / Q^{-1}(alpha, u): scipy's invgamma.ppf without the frozen-distribution overhead (hot path).
    return beta / scipy.special.gammainccinv(alpha, u)


@functools.lru_cache(maxsize=64)
def _ig_quantiles(alpha: float, beta: float, n: int) -> np.ndarray:
    q = _ig_ppf(alpha, beta, (np.arange(1, n + 1, dtype=float) - 0.5) / n)
    q.flags.writeable = False
    return q


def sigma_multipliers(s: ArrayLike, alpha: float, beta: float, clip: tuple[float, float] = (0.1, 2.0),
                      invert: bool = False, law: str = "inverse-gamma") -> np.ndarray:
    r"""SIGMA-analogue learning-rate multipliers that pull the statistic back onto the reference law.

    With :math:`s_i = -\log v_i` and its target :math:`s^{\rm ref}_i` from :func:`ig_quantile_map`, scaling a
    step by :math:`m` scales its variance by :math:`m^2`, so the variance that matches the target needs

    .. math:: m_i = \mathrm{clip}\big(\sqrt{v^{\rm ref}_i / v_i}\big) = \mathrm{clip}\big(\exp((s_i - s^{\rm ref}_i)/2)\big).

    ``invert=True`` returns the clipped :math:`1/m_i` (the anti-aligned control, which pushes away from the law).
    ``law="normal"`` maps onto the normal law :math:`\mathcal N(\mu, \sigma^2)` with ``alpha = mu`` and
    ``beta = sigma`` instead of :math:`\mathrm{IG}(\alpha,\beta)` (the skeptic's check that the inverse-gamma
    choice matters): :math:`s^{\rm ref}_i = \mu + \sigma\,\Phi^{-1}(\hat F(s_i))`.

    Returns
    -------
    ndarray, shape (n,)
    """
    s = finite_array(s, "s", ndim=1)
    lo, hi = clip
    if not 0 < lo <= 1 <= hi:
        raise ValueError(f"clip must satisfy 0 < lo <= 1 <= hi; got {clip!r}")
    if law == "inverse-gamma":
        target = ig_quantile_map(s, alpha, beta)
    elif law == "normal":
        beta = check_positive(beta, "beta (the normal law's standard deviation)")
        target = alpha + beta * scipy.special.ndtri((scipy.stats.rankdata(s) - 0.5) / len(s))
    else:
        raise ValueError(f"law must be 'inverse-gamma' or 'normal'; got {law!r}")
    log_m = (s - target) / 2.0
    return np.clip(np.exp(-log_m if invert else log_m), lo, hi)


def ks_inverse_gamma(samples: ArrayLike, alpha: float, beta: float) -> float:
    r"""Kolmogorov--Smirnov distance between the samples' empirical law and :math:`\mathrm{IG}(\alpha,\beta)`.

    :math:`D = \max_i \max(i/n - F(x_{(i)}),\ F(x_{(i)}) - (i-1)/n)` with the IG cdf
    :math:`F(x) = Q(\alpha, \beta/x)` (``scipy.special.gammaincc``); the value of scipy's ``kstest``, vectorised
    (it is evaluated at every test step).

    Parameters
    ----------
    samples : array_like, shape (n,), n >= 1
    alpha, beta : float, > 0

    Returns
    -------
    float in [0, 1]
    """
    x = finite_array(samples, "samples", ndim=1)
    alpha, beta = check_positive(alpha, "alpha"), check_positive(beta, "beta")
    if len(x) == 0:
        raise ValueError("samples is empty")
    xs = np.sort(x)
    with np.errstate(divide="ignore"):
        F = np.where(xs > 0, scipy.special.gammaincc(alpha, beta / np.where(xs > 0, xs, 1.0)), 0.0)
    n = len(xs)
    i = np.arange(1, n + 1)
    return float(max(np.max(i / n - F), np.max(F - (i - 1) / n)))


def ks_normal_fit(samples: ArrayLike) -> float:
    r"""Kolmogorov--Smirnov distance between the samples and the normal law fitted to them by maximum likelihood.

    The alternative family for the inverse-gamma fit (:func:`fit_inverse_gamma`, :func:`ks_inverse_gamma`): the
    same measurement, KS to an own fit, with :math:`\mathcal N(\bar x, \hat\sigma^2)` (``scipy.stats.norm.fit``).

    Parameters
    ----------
    samples : array_like, shape (n,), n >= 2, not all equal

    Returns
    -------
    float in [0, 1]
    """
    x = finite_array(samples, "samples", ndim=1)
    if len(x) < 2 or np.ptp(x) == 0:
        raise ValueError("need at least 2 samples, not all equal")
    mu, sd = scipy.stats.norm.fit(x)
    return float(scipy.stats.kstest(x, "norm", args=(mu, sd)).statistic)


# ----------------------------------------------------------------------------- one adaptation run
@dataclass
class StreamResult:
    """What one method did on one stream: online accuracy, and per-batch traces (length = number of batches)."""

    accuracy: float
    correct: np.ndarray
    drift: np.ndarray = field(default_factory=lambda: np.zeros(0))
    ks_ref: np.ndarray = field(default_factory=lambda: np.zeros(0))
    mean_multiplier: np.ndarray = field(default_factory=lambda: np.zeros(0))
    final_stat: np.ndarray = field(default_factory=lambda: np.zeros(0))


def reference_phase(model: BNMLP, X_ref: np.ndarray, n_batches: int, batch: int, lr: float, rho: float,
                    rng: np.random.Generator, norm: str = "ema", opt: str = "adam") -> tuple[float, float, np.ndarray]:
    r"""Run the base method (TENT) on clean, i.i.d. reference batches and fit the inverse-gamma reference law.

    The model is not changed (TENT runs on a copy of the affine parameters).

    Returns
    -------
    alpha, beta : float
        :func:`fit_inverse_gamma` of the statistic :math:`-\log v` at the end of the phase.
    v : ndarray, shape (P,)
        The running second moments at the end (the tracker's start on the test stream).
    """
    theta = model.source_theta().requires_grad_(True)
    opt = _make_opt(theta, lr, opt)
    stats = model.source_stats()
    Xt = torch.as_tensor(X_ref)
    tracker = None
    for _ in range(check_int(n_batches, "n_batches", least=1)):
        idx = torch.as_tensor(rng.choice(len(X_ref), size=batch, replace=False))
        loss = entropy(model.adapt_forward(Xt[idx], theta, norm, stats))
        loss.backward()
        delta = opt.propose()
        d = delta.numpy().astype(float)
        if tracker is None:
            tracker = TransitionTracker(np.maximum(d**2, 1e-30), rho)
        else:
            tracker.update(d)
        opt.apply(delta)
    alpha, beta = fit_inverse_gamma(tracker.stats())
    return alpha, beta, tracker.v.copy()


def run_stream(model: BNMLP, X: np.ndarray, y: np.ndarray, batches: list[np.ndarray], method: str,
               lr: float = 1e-3, ref: tuple[float, float, np.ndarray] | None = None, rho: float = 0.9,
               clip: tuple[float, float] = (0.1, 2.0), norm: str = "ema", opt: str = "adam",
               perm_seed: int = 0) -> StreamResult:
    r"""Online test-time adaptation of ``model`` on one stream; accuracy of the predictions made before each update.

    Methods (:data:`METHODS`): ``source`` (no adaptation, source statistics), ``bn-batch`` (test-batch statistics,
    no parameter update), ``ema-norm`` (``norm`` statistics, no parameter update: TENT's normalisation without its
    entropy steps), ``tent`` (entropy minimisation over the batch-norm affine parameters with Adam, ``norm``
    statistics), ``tent+sigma`` (TENT whose proposed steps are scaled by :func:`sigma_multipliers` against the
    reference law ``ref = (alpha, beta, v0)``), ``tent+sigma-mean`` (every step scaled by the *mean* of those
    multipliers: SIGMA's overall step-size schedule without its per-parameter alignment), ``tent+anti-sigma`` (the
    inverted multipliers), ``tent-lr/10`` (TENT with every step scaled by the lower clip, 0.1: uniform damping,
    Adam at TENT's usual learning rate when ``lr = 1e-2``). The skeptic's variants (:data:`SKEPTIC_METHODS`):
    ``tent+sigma-normal`` (the same rule against the normal law fitted by maximum likelihood to the same reference
    statistic :math:`-\log v_0`, instead of the inverse-gamma law) and ``tent+sigma-perm`` (SIGMA's multipliers
    randomly permuted over the parameters at every step, generator seeded with ``perm_seed``: the same spread of
    multipliers without their alignment).

    Parameters
    ----------
    model : BNMLP
    X : ndarray, shape (n, 64); y : ndarray, shape (n,)
    batches : list of index arrays (from :func:`make_stream`)
    """
    if method not in METHODS + SKEPTIC_METHODS:
        raise ValueError(f"unknown method {method!r}; one of {METHODS + SKEPTIC_METHODS}")
    Xt = torch.as_tensor(X)
    correct = np.zeros(len(y), dtype=bool)
    theta0 = model.source_theta()
    if method in ("source", "bn-batch", "ema-norm"):
        norm_of = {"source": "source", "bn-batch": "batch", "ema-norm": norm}[method]
        stats = model.source_stats()
        with torch.no_grad():
            for idx in batches:
                pred = model.adapt_forward(Xt[idx], theta0, norm_of, stats).argmax(1)
                correct[idx] = pred.numpy() == y[idx]
        return StreamResult(float(correct.mean()), correct)
    regulated = method in ("tent+sigma", "tent+sigma-mean", "tent+anti-sigma") + SKEPTIC_METHODS
    if regulated and ref is None:
        raise ValueError(f"{method} needs the reference law ref=(alpha, beta, v0)")
    law, (a_law, b_law) = "inverse-gamma", (ref[:2] if ref is not None else (None, None))
    if method == "tent+sigma-normal":
        law, (a_law, b_law) = "normal", scipy.stats.norm.fit(log_variance_statistic(ref[2]))
    perm_rng = np.random.default_rng(perm_seed) if method == "tent+sigma-perm" else None
    theta = theta0.clone().requires_grad_(True)
    opt = _make_opt(theta, lr, opt)
    stats = model.source_stats()
    tracker = TransitionTracker(ref[2], rho) if ref is not None else None
    drift, ks, mult = [], [], []
    for idx in batches:
        logits = model.adapt_forward(Xt[idx], theta, norm, stats)
        correct[idx] = logits.detach().argmax(1).numpy() == y[idx]
        entropy(logits).backward()
        delta = opt.propose()
        m = None
        if tracker is not None:
            tracker.update(delta.numpy().astype(float))
            s = tracker.stats()
            ks.append(ks_inverse_gamma(s, ref[0], ref[1]))
            if regulated:
                m = sigma_multipliers(s, a_law, b_law, clip, invert=method == "tent+anti-sigma", law=law)
                if method == "tent+sigma-mean":
                    m = np.full(len(m), float(np.mean(m)))
                elif perm_rng is not None:
                    m = perm_rng.permutation(m)
        if method == "tent-lr/10":
            m = np.full(len(theta), clip[0])
        opt.apply(delta, m)
        mult.append(1.0 if m is None else float(np.mean(m)))
        drift.append(float(torch.linalg.norm(theta.detach() - theta0)))
    final = tracker.stats() if tracker is not None else np.zeros(0)
    return StreamResult(float(correct.mean()), correct, np.array(drift), np.array(ks), np.array(mult), final)
