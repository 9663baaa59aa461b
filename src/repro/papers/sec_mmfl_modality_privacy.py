r"""Sec-MMFL: modality-aware protection against gradient inversion in multimodal federated learning.

Paper map
---------
*Sec-MMFL* (title not found; OpenReview id ``UlpAIz6o5u``), authors not found, NeurIPS 2025,
https://openreview.net/forum?id=UlpAIz6o5u. No official code was found.
Notebook: ``notebooks/sec-mmfl-modality-privacy.py``.

Notation (paper -> here):

- modality :math:`m \in \{A, B\}` -> ``m`` (A: 8x8 digit image, 64 dims; B: synthetic "caption", 24 dims)
- :math:`X_m` (a client's input of modality m) -> ``x[m]`` of shape ``(n, d_m)``
- :math:`G_m` (the shared gradient of modality m's encoder) -> ``grads[m] = (gW, gb)``
- :math:`I(X; Y)`, :math:`I(X; Y \mid Z)` (Gaussian log-det estimates) -> :func:`gaussian_mi`, :func:`gaussian_cmi`
- leakage :math:`\ell_m = I(X_m; \hat X_m \mid \hat X_{-m})` -> ``leak[m]``, with :math:`\hat X_m` the attacker's
  inversion of :math:`G_m`
- per-modality noise variance :math:`\sigma_m^2` -> :func:`allocate_noise`; total noise energy
  :math:`\sum_m n_m \sigma_m^2` over the :math:`n_m` perturbed gradient entries -> :func:`noise_energy`,
  :func:`match_noise_energy`
- gradient inversion attack -> :func:`fc_analytic_inversion`; attack success -> :func:`psnr`
"""

from __future__ import annotations

import numpy as np

from repro.validate import check_int, check_positive, finite_array

__all__ = [
    "gaussian_mi", "gaussian_cmi", "allocate_noise", "noise_energy", "match_noise_energy", "fc_analytic_inversion", "psnr",
    "make_two_modal_digits", "init_late_fusion", "late_fusion_grads", "predict", "fedsgd_train",
]


def _as_2d(x: np.ndarray, name: str) -> np.ndarray:
    arr = finite_array(x, name)
    if arr.ndim == 1:
        arr = arr[:, None]
    if arr.ndim != 2:
        raise ValueError(f"{name} must have shape (n,) or (n, d); got {arr.shape}")
    return arr


def _logdet_cov(z: np.ndarray, ridge: float) -> float:
    c = np.atleast_2d(np.cov(z, rowvar=False))
    c = c + ridge * np.eye(c.shape[0])
    sign, val = np.linalg.slogdet(c)
    if sign <= 0:
        raise ValueError("covariance is not positive definite; increase ridge")
    return float(val)


def gaussian_mi(x: np.ndarray, y: np.ndarray, ridge: float = 1e-6) -> float:
    r"""Mutual information of (approximately) jointly Gaussian samples, in nats.

    .. math:: I(X; Y) = \tfrac12 \log \frac{\det \Sigma_X \det \Sigma_Y}{\det \Sigma_{XY}}

    with :math:`\Sigma_{XY}` the covariance of the stacked vector :math:`(X, Y)`. In one dimension with
    correlation :math:`\rho` this is :math:`-\tfrac12 \log(1 - \rho^2)`.

    Parameters
    ----------
    x : array, shape (n,) or (n, dx)
    y : array, shape (n,) or (n, dy)
    ridge : float
        Added to each covariance's diagonal (numerical safety); 0 allowed.

    Returns
    -------
    float
        The estimate in nats (clipped at 0 from below).
    """
    x, y = _as_2d(x, "x"), _as_2d(y, "y")
    ridge = check_positive(ridge, "ridge", strict=False)
    if x.shape[0] != y.shape[0]:
        raise ValueError(f"x and y need the same number of samples; got {x.shape[0]} and {y.shape[0]}")
    if x.shape[0] < 2:
        raise ValueError("need at least 2 samples")
    mi = 0.5 * (_logdet_cov(x, ridge) + _logdet_cov(y, ridge) - _logdet_cov(np.hstack([x, y]), ridge))
    return max(mi, 0.0)


def gaussian_cmi(x: np.ndarray, y: np.ndarray, z: np.ndarray, ridge: float = 1e-6) -> float:
    r"""Conditional mutual information :math:`I(X; Y \mid Z)` of jointly Gaussian samples, in nats.

    .. math:: I(X; Y \mid Z) = \tfrac12 \log \frac{\det \Sigma_{XZ} \det \Sigma_{YZ}}{\det \Sigma_Z \det \Sigma_{XYZ}}
              = I(X; (Y, Z)) - I(X; Z).

    Parameters
    ----------
    x, y, z : arrays, shapes (n, dx), (n, dy), (n, dz) (1-D allowed)
    ridge : float

    Returns
    -------
    float
        The estimate in nats (clipped at 0 from below).
    """
    x, y, z = _as_2d(x, "x"), _as_2d(y, "y"), _as_2d(z, "z")
    ridge = check_positive(ridge, "ridge", strict=False)
    if not x.shape[0] == y.shape[0] == z.shape[0]:
        raise ValueError("x, y and z need the same number of samples")
    if x.shape[0] < 2:
        raise ValueError("need at least 2 samples")
    ld = lambda *a: _logdet_cov(np.hstack(a), ridge)  # noqa: E731
    cmi = 0.5 * (ld(x, z) + ld(y, z) - ld(z) - ld(x, y, z))
    return max(cmi, 0.0)


def allocate_noise(leakages: np.ndarray, total_var: float, rule: str = "proportional") -> np.ndarray:
    r"""Split a total noise budget over modalities (brief 14.3).

    ``"proportional"``: :math:`\sigma_m^2 = V \ell_m / \sum_j \ell_j` (Sec-MMFL-lite: the leakier modality gets
    more noise); ``"uniform"``: :math:`V / M` each; ``"inverse"``: :math:`\propto 1/\ell_m` (a deliberately wrong
    rule, used as a control).

    Parameters
    ----------
    leakages : array, shape (M,)
        Non-negative leakage estimates, at least one positive.
    total_var : float
        The budget :math:`V > 0`; the returned shares sum to it.
    rule : {"proportional", "uniform", "inverse"}

    Returns
    -------
    array, shape (M,)
    """
    lk = finite_array(leakages, "leakages", ndim=1)
    total_var = check_positive(total_var, "total_var")
    if lk.size == 0 or np.any(lk < 0) or not np.any(lk > 0):
        raise ValueError("leakages must be non-negative with at least one positive entry")
    if rule == "uniform":
        w = np.ones_like(lk)
    elif rule == "proportional":
        w = lk
    elif rule == "inverse":
        if np.any(lk == 0):
            raise ValueError("rule 'inverse' needs strictly positive leakages")
        w = 1.0 / lk
    else:
        raise ValueError(f"rule must be 'proportional', 'uniform' or 'inverse'; got {rule!r}")
    return total_var * w / w.sum()


def noise_energy(var: np.ndarray, n_entries: np.ndarray) -> float:
    r"""Total noise energy :math:`E = \sum_m n_m \sigma_m^2` of per-entry Gaussian noise (brief 14.4, "total noise
    power").

    Parameters
    ----------
    var : array, shape (M,)
        Per-entry noise variances :math:`\sigma_m^2 \ge 0` of the M modalities.
    n_entries : array, shape (M,)
        Number of perturbed gradient entries :math:`n_m > 0` of each modality (its encoder's weights and biases).

    Returns
    -------
    float
        The expected squared norm of the injected noise vector.
    """
    v = finite_array(var, "var", ndim=1)
    n = finite_array(n_entries, "n_entries", ndim=1)
    if v.shape != n.shape:
        raise ValueError(f"var and n_entries need the same shape; got {v.shape} and {n.shape}")
    if np.any(v < 0) or np.any(n <= 0):
        raise ValueError("var must be non-negative and n_entries positive")
    return float(v @ n)


def match_noise_energy(var: np.ndarray, n_entries: np.ndarray, energy: float) -> np.ndarray:
    r"""Rescale per-modality variances to a given total noise energy, keeping their ratios.

    .. math:: \sigma_m^2 \leftarrow \sigma_m^2 \, E / \sum_j n_j \sigma_j^2

    so that :func:`noise_energy` of the result is :math:`E`. Used to compare allocations at equal total noise
    energy, where :func:`allocate_noise` fixes the sum of the per-entry variances instead.

    Parameters
    ----------
    var : array, shape (M,)
        Per-entry variances, not all zero.
    n_entries : array, shape (M,)
    energy : float
        The target :math:`E > 0`.

    Returns
    -------
    array, shape (M,)
    """
    e0 = noise_energy(var, n_entries)
    energy = check_positive(energy, "energy")
    if e0 <= 0:
        raise ValueError("var must have at least one positive entry")
    return np.asarray(var, dtype=float) * (energy / e0)


def fc_analytic_inversion(grad_w: np.ndarray, grad_b: np.ndarray, clip: tuple[float, float] | None = None) -> np.ndarray:
    r"""Invert a fully connected layer's gradient at batch size 1.

    For :math:`h = W x + b`, :math:`\partial L/\partial W = \delta x^\top` and :math:`\partial L/\partial b = \delta`,
    so every row with :math:`\delta_i \ne 0` holds a scaled copy of :math:`x`. We use the least-squares estimate
    over all rows, :math:`\hat x = \sum_i g_{b,i}\, g_{W,i} / \sum_i g_{b,i}^2`, which is exact without noise and
    down-weights rows dominated by noise when the gradients are perturbed.

    Parameters
    ----------
    grad_w : array, shape (n, h, d) or (h, d)
        Per-example weight gradients (n examples, h units, d inputs).
    grad_b : array, shape (n, h) or (h,)
    clip : (lo, hi), optional
        The attacker's knowledge of the data range; the estimate is clipped to it.

    Returns
    -------
    array, shape (n, d) or (d,)
        Zeros where every :math:`g_{b,i}` is 0.
    """
    gw = finite_array(grad_w, "grad_w")
    gb = finite_array(grad_b, "grad_b")
    single = gw.ndim == 2
    if single:
        gw, gb = gw[None], gb[None]
    if gw.ndim != 3 or gb.ndim != 2 or gw.shape[:2] != gb.shape:
        raise ValueError(f"grad_w (n, h, d) and grad_b (n, h) disagree: {gw.shape} vs {gb.shape}")
    num = np.einsum("nh,nhd->nd", gb, gw)
    den = np.einsum("nh,nh->n", gb, gb)
    safe = np.where(den > 0, den, 1.0)
    xhat = np.where(den[:, None] > 0, num / safe[:, None], 0.0)
    if clip is not None:
        xhat = np.clip(xhat, clip[0], clip[1])
    return xhat[0] if single else xhat


def psnr(x: np.ndarray, x_hat: np.ndarray, data_range: float = 1.0, cap: float = 100.0) -> float:
    r"""Peak signal-to-noise ratio :math:`10 \log_{10}(R^2 / \mathrm{MSE})` in dB, MSE over all entries.

    Parameters
    ----------
    x, x_hat : arrays of the same shape
    data_range : float
        :math:`R`, the data's range.
    cap : float
        Upper limit in dB (an exact reconstruction gives MSE at machine precision, whose PSNR is noise).

    Returns
    -------
    float
    """
    x = finite_array(x, "x")
    x_hat = finite_array(x_hat, "x_hat")
    if x.shape != x_hat.shape:
        raise ValueError(f"x and x_hat shapes differ: {x.shape} vs {x_hat.shape}")
    data_range = check_positive(data_range, "data_range")
    mse = float(np.mean((x - x_hat) ** 2))
    if mse == 0.0:
        return float(cap)
    return float(min(cap, 10.0 * np.log10(data_range**2 / mse)))


def make_two_modal_digits(seed: int, d_b: int = 24, mix: float = 1.0, noise: float = 0.3):
    r"""Two correlated modalities from scikit-learn's digits (offline).

    A: the 8x8 image scaled to [0, 1] (64 dims). B: a synthetic caption,
    :math:`B = \mathrm{sigmoid}(E_y + \mathrm{mix}\,(A - \bar A) R + \mathrm{noise}\,\varepsilon)` in (0, 1),
    with a random class embedding :math:`E` (10 x d_b), a random projection :math:`R` (64 x d_b, entries
    :math:`N(0, 1/4)`) and Gaussian :math:`\varepsilon`, so B carries the label and part of the image.

    Returns
    -------
    a : array (1797, 64), b : array (1797, d_b), y : int array (1797,)
    """
    from sklearn.datasets import load_digits

    seed = check_int(seed, "seed", least=0)
    d_b = check_int(d_b, "d_b", least=1)
    rng = np.random.default_rng(seed + 1000)
    X, y = load_digits(return_X_y=True)
    a = X / 16.0
    emb = rng.normal(size=(10, d_b))
    proj = rng.normal(scale=0.5, size=(a.shape[1], d_b))
    raw = emb[y] + mix * (a - a.mean(0)) @ proj + noise * rng.normal(size=(a.shape[0], d_b))
    b = 1.0 / (1.0 + np.exp(-raw))
    return a, b, y.astype(int)


def init_late_fusion(d_a: int, d_b: int, hidden_a: int, hidden_b: int, n_classes: int,
                     rng: np.random.Generator) -> dict:
    """He-initialised late-fusion MLP: ``h_m = relu(W_m x_m + b_m)`` per modality (``hidden_m`` units),
    ``logits = V [h_A; h_B] + c``. Shapes: ``WA`` (hidden_a, d_a), ``WB`` (hidden_b, d_b), ``V`` (k, ha + hb)."""
    ha = check_int(hidden_a, "hidden_a", least=1)
    hb = check_int(hidden_b, "hidden_b", least=1)
    k = check_int(n_classes, "n_classes", least=2)
    return {
        "WA": rng.normal(scale=np.sqrt(2 / d_a), size=(ha, d_a)), "bA": np.zeros(ha),
        "WB": rng.normal(scale=np.sqrt(2 / d_b), size=(hb, d_b)), "bB": np.zeros(hb),
        "V": rng.normal(scale=np.sqrt(1 / (ha + hb)), size=(k, ha + hb)), "c": np.zeros(k),
    }


def _forward(p: dict, a: np.ndarray, b: np.ndarray):
    za, zb = a @ p["WA"].T + p["bA"], b @ p["WB"].T + p["bB"]
    ha, hb = np.maximum(za, 0), np.maximum(zb, 0)
    hcat = np.hstack([ha, hb])
    logits = hcat @ p["V"].T + p["c"]
    return za, zb, hcat, logits


def predict(p: dict, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Class predictions of the late-fusion MLP, shape (n,)."""
    return _forward(p, a, b)[3].argmax(1)


def late_fusion_grads(p: dict, a: np.ndarray, b: np.ndarray, y: np.ndarray) -> dict:
    r"""Per-example gradients of the cross-entropy of the late-fusion MLP (what a client shares at batch 1).

    Returns
    -------
    dict with ``WA`` (n, h, d_a), ``bA`` (n, h), ``WB`` (n, h, d_b), ``bB`` (n, h), ``V`` (n, k, 2h), ``c`` (n, k).
    """
    za, zb, hcat, logits = _forward(p, a, b)
    z = logits - logits.max(1, keepdims=True)
    prob = np.exp(z)
    prob /= prob.sum(1, keepdims=True)
    dlog = prob.copy()
    dlog[np.arange(len(y)), y] -= 1.0
    dh = dlog @ p["V"]
    h = p["bA"].size  # units of modality A's encoder
    da = dh[:, :h] * (za > 0)
    db = dh[:, h:] * (zb > 0)
    return {
        "WA": np.einsum("nh,nd->nhd", da, a), "bA": da,
        "WB": np.einsum("nh,nd->nhd", db, b), "bB": db,
        "V": np.einsum("nk,nj->nkj", dlog, hcat), "c": dlog,
    }


def fedsgd_train(p: dict, a: np.ndarray, b: np.ndarray, y: np.ndarray, sigma_a: float, sigma_b: float,
                 rounds: int, n_clients: int, lr: float, rng: np.random.Generator) -> dict:
    r"""FedSGD at batch size 1 per client: each round every client shares one example's gradient, with Gaussian
    noise of std ``sigma_a`` on modality A's encoder gradients and ``sigma_b`` on B's (the head is not perturbed);
    the server averages the clients' gradients and takes a plain SGD step. Clients own disjoint shards.

    Returns
    -------
    dict
        The trained parameters (a new dict; ``p`` is not modified).
    """
    rounds = check_int(rounds, "rounds", least=0)
    n_clients = check_int(n_clients, "n_clients", least=1)
    sigma_a = check_positive(sigma_a, "sigma_a", strict=False)
    sigma_b = check_positive(sigma_b, "sigma_b", strict=False)
    lr = check_positive(lr, "lr")
    p = {k: v.copy() for k, v in p.items()}
    shards = np.array_split(rng.permutation(len(y)), n_clients)
    sig = {"WA": sigma_a, "bA": sigma_a, "WB": sigma_b, "bB": sigma_b, "V": 0.0, "c": 0.0}
    for _ in range(rounds):
        idx = np.array([rng.choice(s) for s in shards])
        g = late_fusion_grads(p, a[idx], b[idx], y[idx])
        for k in p:
            gk = g[k]
            if sig[k] > 0:
                gk = gk + sig[k] * rng.normal(size=gk.shape)
            p[k] -= lr * gk.mean(0)
    return p
