r"""Efficient Knowledge Transfer in Federated Recommendation for Joint Venture Ecosystem (FR-JVE).

Paper map
---------
*Efficient Knowledge Transfer in Federated Recommendation for Joint Venture Ecosystem*, Y. Li, Y. Shan, Y. Liu,
H. Wang, C. Wang, W. Wang, Y. Wang, R. Li, NeurIPS 2025 (spotlight),
https://openreview.net/forum?id=ZWOe1kkufx. No official code is public.
Notebook: ``notebooks/fedrec-joint-venture.py``.

The paper's equations were not available; every kernel below implements the *lite* design of the page's brief
(matrix factorisation, item-embedding FedAvg, distilled low-dimensional rating preferences, a client-side linear
bridge, top-K matching of similar users), and each docstring says which step it stands for.

Notation (paper -> here):

- client (subsidiary) ``k`` -> ``k``; user embedding ``u_u`` -> ``U[u]``; item embedding ``v_v`` -> ``V[v]``
- rating preference of user ``u`` at client ``k`` -> ``P[k][u]`` (``L`` numbers, ``L < rank``)
- bridge function ``phi_k`` -> :func:`fit_bridge` (a linear map ``L x L``)
- Top-K similar-user matching -> :func:`match_users`
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from repro.validate import check_int, check_positive


def _as_mask(R: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    R = np.asarray(R, dtype=float)
    mask = np.asarray(mask, dtype=bool)
    if R.ndim != 2 or R.shape != mask.shape:
        raise ValueError(f"R and mask must be 2-D of one shape; got {R.shape} and {mask.shape}")
    if not np.all(np.isfinite(R[mask])):
        raise ValueError("observed ratings must be finite")
    return R, mask


def make_jv_ratings(n_users: int, n_items: int, n_clients: int, user_overlap: float, item_share: float,
                    rank: int, density: float, seed: int, noise: float = 0.5, scale_spread: float = 0.4,
                    test_frac: float = 0.2) -> dict:
    """A synthetic joint venture: subsidiaries with overlapping users and catalogues (brief, section 3.4).

    Ground truth: ``U* (n_users, rank)``, ``V* (n_items, rank)`` with ``u . v`` of unit variance. Client ``k`` rates
    on its own scale, ``r = clip(round(c_k + s_k (u . v) + noise), 1, 5)``, with ``s_k`` spread evenly over
    ``[1 - scale_spread, 1 + scale_spread]`` and ``c_k = 3``: the subsidiaries' rating cultures differ.
    A fraction ``user_overlap`` of users belongs to every client; the others to one client each. Each client owns
    a random ``item_share`` of the items and observes a ``density`` fraction of its (user, item) pairs; a
    ``test_frac`` of those is held out.

    Returns
    -------
    dict with ``R`` (n_clients, n_users, n_items) ratings (0 where unobserved), ``train``/``test`` boolean masks of
    the same shape, ``users`` (n_clients, n_users) and ``items`` (n_clients, n_items) membership masks,
    ``overlap`` (n_users,) bool, ``scales`` (n_clients,), ``U_true``, ``V_true``.
    """
    for name, v in (("n_users", n_users), ("n_items", n_items), ("n_clients", n_clients), ("rank", rank)):
        check_int(v, name, least=1)
    if n_clients < 2:
        raise ValueError("a joint venture needs at least 2 clients")
    for name, v in (("user_overlap", user_overlap), ("item_share", item_share), ("density", density),
                    ("test_frac", test_frac)):
        if not 0.0 <= v <= 1.0:
            raise ValueError(f"{name} must lie in [0, 1]; got {v}")
    if not 0.0 <= scale_spread < 1.0:
        raise ValueError(f"scale_spread must lie in [0, 1); got {scale_spread}")
    rng = np.random.default_rng(seed)
    U = rng.standard_normal((n_users, rank)) / rank ** 0.25
    V = rng.standard_normal((n_items, rank)) / rank ** 0.25
    n_over = int(round(user_overlap * n_users))
    perm = rng.permutation(n_users)
    overlap = np.zeros(n_users, bool)
    overlap[perm[:n_over]] = True
    users = np.zeros((n_clients, n_users), bool)
    users[:, perm[:n_over]] = True
    for j, u in enumerate(perm[n_over:]):
        users[j % n_clients, u] = True
    items = np.zeros((n_clients, n_items), bool)
    n_own = max(1, int(round(item_share * n_items)))
    for k in range(n_clients):
        items[k, rng.choice(n_items, n_own, replace=False)] = True
    scales = np.linspace(1 - scale_spread, 1 + scale_spread, n_clients)
    R = np.zeros((n_clients, n_users, n_items))
    train = np.zeros_like(R, bool)
    test = np.zeros_like(R, bool)
    score = U @ V.T
    for k in range(n_clients):
        obs = users[k][:, None] & items[k][None, :] & (rng.random((n_users, n_items)) < density)
        r = np.clip(np.round(3.0 + scales[k] * score + noise * rng.standard_normal(score.shape)), 1, 5)
        R[k] = np.where(obs, r, 0.0)
        held = obs & (rng.random(obs.shape) < test_frac)
        train[k], test[k] = obs & ~held, held
    return dict(R=R, train=train, test=test, users=users, items=items, overlap=overlap, scales=scales,
                U_true=U, V_true=V)


def _solve_rows(R: np.ndarray, mask: np.ndarray, F: np.ndarray, reg: float) -> np.ndarray:
    """Ridge solves ``min_x sum_j mask_ij (R_ij - x . F_j)^2 + reg |x|^2`` for every row ``i``."""
    out = np.zeros((R.shape[0], F.shape[1]))
    eye = reg * np.eye(F.shape[1])
    for i in range(R.shape[0]):
        m = mask[i]
        if m.any():
            Fm = F[m]
            out[i] = np.linalg.solve(Fm.T @ Fm + eye, Fm.T @ R[i, m])
    return out


def mf_train(R: np.ndarray, mask: np.ndarray, rank: int, reg: float, epochs: int, lr: float = 1.0,
             item_init: np.ndarray | None = None, seed: int = 0) -> tuple[np.ndarray, np.ndarray, float]:
    """Matrix factorisation ``r_uv ~ mu + U[u] . V[v]`` by alternating ridge least squares (step 1 of the brief).

    Parameters
    ----------
    R, mask : (n_users, n_items) ratings and the boolean mask of the observed ones.
    rank, reg, epochs : embedding size, ridge penalty, ALS sweeps.
    lr : damping of the item update, ``V <- (1 - lr) V + lr V_new`` (1 = plain ALS).
    item_init : (n_items, rank) starting item embeddings (a FedAvg broadcast), else random.

    Returns
    -------
    U (n_users, rank), V (n_items, rank), mu (the mean observed rating).
    """
    R, mask = _as_mask(R, mask)
    check_int(rank, "rank", least=1)
    check_int(epochs, "epochs", least=0)
    check_positive(reg, "reg")
    if not 0 < lr <= 1:
        raise ValueError(f"lr must lie in (0, 1]; got {lr}")
    mu = float(R[mask].mean()) if mask.any() else 0.0
    Rc = np.where(mask, R - mu, 0.0)
    if item_init is None:
        V = np.random.default_rng(seed).standard_normal((R.shape[1], rank)) * 0.1
    else:
        V = np.array(item_init, dtype=float)
        if V.shape != (R.shape[1], rank):
            raise ValueError(f"item_init must have shape {(R.shape[1], rank)}; got {V.shape}")
    U = _solve_rows(Rc, mask, V, reg)
    for _ in range(epochs):
        V = (1 - lr) * V + lr * _solve_rows(Rc.T, mask.T, U, reg)
        U = _solve_rows(Rc, mask, V, reg)
    return U, V, mu


def fedavg_items(list_of_V: Sequence[np.ndarray], weights: Sequence[np.ndarray]) -> np.ndarray:
    """FedAvg of item embeddings, item by item: ``V[v] = sum_k w_kv V_k[v] / sum_k w_kv`` (FedMF's server step).

    Parameters
    ----------
    list_of_V : K arrays (n_items, rank). weights : K arrays (n_items,) >= 0 (e.g. each client's rating counts per
    item); an item no client weights keeps the plain mean.
    """
    if len(list_of_V) == 0 or len(list_of_V) != len(weights):
        raise ValueError("need one weight vector per client and at least one client")
    Vs = np.stack([np.asarray(v, float) for v in list_of_V])
    W = np.stack([np.asarray(w, float) for w in weights])
    if W.shape != Vs.shape[:2]:
        raise ValueError(f"weights must have shape (n_items,) per client; got {W.shape} for {Vs.shape}")
    if np.any(W < 0):
        raise ValueError("weights must be non-negative")
    tot = W.sum(0)
    W = np.where(tot[None, :] > 0, W, 1.0)
    return np.einsum("kv,kvr->vr", W, Vs) / W.sum(0)[:, None]


def fedmf_train(data: dict, rank: int, reg: float, rounds: int, seed: int = 0,
                clients: Sequence[int] | None = None) -> tuple[list, np.ndarray, list]:
    """FedMF: every round each client runs one local ALS sweep from the broadcast items, the server FedAvgs them.

    Returns per-client user embeddings ``[U_k]``, the global item embeddings ``V`` (n_items, rank), per-client
    means ``[mu_k]``. User embeddings and ratings never leave their client.
    """
    check_int(rounds, "rounds", least=1)
    R, train = data["R"], data["train"]
    ks = range(R.shape[0]) if clients is None else clients
    V = np.random.default_rng(seed).standard_normal((R.shape[2], rank)) * 0.1
    for _ in range(rounds):
        outs = [mf_train(R[k], train[k], rank, reg, 1, item_init=V) for k in ks]
        V = fedavg_items([o[1] for o in outs], [train[k].sum(0) for k in ks])
    outs = [mf_train(R[k], train[k], rank, reg, 0, item_init=V) for k in ks]
    return [o[0] for o in outs], V, [o[2] for o in outs]


def preference_basis(V: np.ndarray, n_levels: int) -> np.ndarray:
    """The server's ``(rank, L)`` orthonormal basis of the top-``L`` principal directions of the global items."""
    check_int(n_levels, "n_levels", least=1)
    V = np.asarray(V, float)
    if n_levels > V.shape[1]:
        raise ValueError(f"n_levels {n_levels} exceeds the rank {V.shape[1]}")
    _, _, Wt = np.linalg.svd(V - V.mean(0), full_matrices=False)
    return Wt[:n_levels].T


def distill_preference(B: np.ndarray, V: np.ndarray, R_u: np.ndarray, mask_u: np.ndarray, mu: float,
                       reg: float = 0.1, steps: int = 200) -> np.ndarray:
    """Distil one user's rating preference by model inversion (step 2 of the brief).

    With the model frozen (item embeddings ``V`` and basis ``B``), optimise only the user-side input ``p`` (L,)
    so the frozen model ``mu + (B p) . v`` reproduces the user's local ratings:
    ``min_p mean_obs (r_uv - mu - (B p) . v)^2 + reg |p|^2``, by ``steps`` of gradient descent from 0 with step
    ``1 / Lipschitz`` (deterministic). ``B`` (rank, L), ``V`` (n_items, rank), ``R_u``/``mask_u`` (n_items,).
    """
    B, V = np.asarray(B, float), np.asarray(V, float)
    R_u, mask_u = _as_mask(np.atleast_2d(R_u), np.atleast_2d(mask_u))
    check_int(steps, "steps", least=1)
    if V.shape[0] != R_u.shape[1] or B.shape[0] != V.shape[1]:
        raise ValueError(f"shapes disagree: B {B.shape}, V {V.shape}, R_u {R_u.shape[1:]}")
    p = np.zeros(B.shape[1])
    m = mask_u[0]
    if not m.any():
        return p
    X = V[m] @ B
    y = R_u[0, m] - mu
    n = m.sum()
    lip = 2 * (np.linalg.eigvalsh(X.T @ X / n).max() + reg)
    for _ in range(steps):
        grad = 2 * (X.T @ (X @ p - y) / n + reg * p)
        p = p - grad / lip
    return p


def fit_bridge(P_local: np.ndarray, P_global: np.ndarray, kind: str = "linear") -> Callable[[np.ndarray], np.ndarray]:
    """The client's bridge ``phi_k``: least squares ``M = argmin |P_local M - P_global|`` (step 3 of the brief).

    ``P_local``, ``P_global``: (n, L) matched preferences. ``kind="identity"`` returns the identity (the control).
    Returns ``phi(P) = P M`` for any (m, L) array.
    """
    P_local, P_global = np.asarray(P_local, float), np.asarray(P_global, float)
    if P_local.shape != P_global.shape or P_local.ndim != 2:
        raise ValueError(f"P_local and P_global must be (n, L) of one shape; got {P_local.shape}, {P_global.shape}")
    if kind == "identity":
        return lambda P: np.asarray(P, float)
    if kind != "linear":
        raise ValueError(f"kind must be 'linear' or 'identity'; got {kind!r}")
    M = np.linalg.lstsq(P_local, P_global, rcond=None)[0]
    return lambda P: np.asarray(P, float) @ M


def match_users(P_a: np.ndarray, P_b: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Top-``k`` most cosine-similar rows of ``P_b`` for every row of ``P_a`` (step 4 of the brief).

    Returns ``idx`` (n_a, k) indices into ``P_b``, best first, and their cosines ``sims`` (n_a, k).
    """
    P_a, P_b = np.asarray(P_a, float), np.asarray(P_b, float)
    if P_a.ndim != 2 or P_b.ndim != 2 or P_a.shape[1] != P_b.shape[1]:
        raise ValueError(f"P_a and P_b must be (n, L) with one L; got {P_a.shape}, {P_b.shape}")
    check_int(k, "k", least=1)
    if k > P_b.shape[0]:
        raise ValueError(f"k={k} exceeds the {P_b.shape[0]} candidates")
    na = np.linalg.norm(P_a, axis=1, keepdims=True)
    nb = np.linalg.norm(P_b, axis=1, keepdims=True)
    S = (P_a / np.where(na > 0, na, 1)) @ (P_b / np.where(nb > 0, nb, 1)).T
    idx = np.argsort(-S, axis=1, kind="stable")[:, :k]
    return idx, np.take_along_axis(S, idx, axis=1)


def rmse(pred: np.ndarray, truth: np.ndarray, mask: np.ndarray) -> float:
    """Root-mean-square error over the entries where ``mask`` is true."""
    pred, truth, mask = np.asarray(pred, float), np.asarray(truth, float), np.asarray(mask, bool)
    if not (pred.shape == truth.shape == mask.shape):
        raise ValueError(f"shapes differ: {pred.shape}, {truth.shape}, {mask.shape}")
    if not mask.any():
        raise ValueError("empty mask")
    return float(np.sqrt(np.mean((pred[mask] - truth[mask]) ** 2)))


def frjve_predict(data: dict, U: Sequence[np.ndarray], V: np.ndarray, mu: Sequence[float], n_levels: int,
                  k_neighbors: int = 1, bridge: str = "linear", alpha: float = 0.5, min_sim: float = 0.0,
                  reg: float = 0.1, steps: int = 200, bridge_iters: int = 2, link: str = "psi") -> dict:
    """FR-JVE-lite on top of a FedMF model: distil, bridge, match, ensemble (steps 2-4 of the brief).

    1. Every client distils ``P_k[u]`` (L,) for its users (:func:`distill_preference`, server basis ``B``).
    2. For each user, the server collects, from every other client, the ``k_neighbors`` users whose bridged
       preferences are most cosine-similar (similarity above ``min_sim``; ``link="similarity"``, no user id
       used), or (``link="psi"``) the same user where a private set intersection of hashed ids says it is
       shared, with weight 1.
    3. Global preference ``pbar_u`` = mean of the user's own bridged preference and its matches' (each
       similarity-weighted). Each client fits its bridge ``phi_k`` (local -> global) on ``(P_k, pbar)``, and the
       inverse ``psi_k`` (global -> local); matching and bridges are refitted ``bridge_iters`` times from identity.
    4. Prediction: the user embedding's component in the preference subspace is pulled towards the transferred
       preference, ``u' = U_k[u] + alpha B (psi_k(pbar_u) - P_k[u])``, for users with at least one match.

    Returns dict with ``pred`` (n_clients, n_users, n_items), ``P`` [(n_users, L)] and ``matched`` (n_clients,
    n_users) bool, and ``match_idx`` [(n_users, n_clients, k_neighbors)] (-1 where none).
    """
    if not 0 <= alpha <= 1:
        raise ValueError(f"alpha must lie in [0, 1]; got {alpha}")
    check_int(bridge_iters, "bridge_iters", least=1)
    R, train, users = data["R"], data["train"], data["users"]
    n_clients, n_users, _ = R.shape
    B = preference_basis(V, n_levels)
    P = [np.stack([distill_preference(B, V, R[k, u], train[k, u], mu[k], reg, steps) if users[k, u]
                   else np.zeros(n_levels) for u in range(n_users)]) for k in range(n_clients)]
    phi = [fit_bridge(P[k][:1], P[k][:1], "identity") for k in range(n_clients)]
    for _ in range(bridge_iters):
        G = [phi[k](P[k]) for k in range(n_clients)]  # everyone in the global space
        pbar = [np.zeros((n_users, n_levels)) for _ in range(n_clients)]
        matched = np.zeros((n_clients, n_users), bool)
        midx = -np.ones((n_clients, n_users, n_clients, k_neighbors), int)
        for k in range(n_clients):
            mine = np.flatnonzero(users[k])
            acc, wsum = G[k][mine].copy(), np.ones(len(mine))
            for j in range(n_clients):
                if j == k:
                    continue
                cand = np.flatnonzero(users[j])
                if link == "similarity":
                    idx, sims = match_users(G[k][mine], G[j][cand], min(k_neighbors, len(cand)))
                    w = np.where(sims > min_sim, sims, 0.0)
                elif link == "psi":
                    pos = np.searchsorted(cand, mine).clip(0, len(cand) - 1)
                    idx = pos[:, None]
                    w = (cand[pos] == mine).astype(float)[:, None]
                else:
                    raise ValueError(f"link must be 'psi' or 'similarity'; got {link!r}")
                acc += np.einsum("nk,nkl->nl", w, G[j][cand[idx]])
                wsum += w.sum(1)
                matched[k, mine] |= (w > 0).any(1)
                midx[k, mine, j, :idx.shape[1]] = np.where(w > 0, cand[idx], -1)
            pbar[k][mine] = acc / wsum[:, None]
        if bridge == "identity":
            break
        phi = [fit_bridge(P[k][matched[k]], pbar[k][matched[k]], bridge) if matched[k].sum() > n_levels
               else phi[k] for k in range(n_clients)]
    pred = np.zeros(R.shape)
    for k in range(n_clients):
        ok = matched[k]
        psi = (fit_bridge(pbar[k][ok], P[k][ok], bridge) if bridge != "identity" and ok.sum() > n_levels
               else fit_bridge(P[k][:1], P[k][:1], "identity"))
        Uk = U[k].copy()
        Uk[ok] += alpha * (psi(pbar[k][ok]) - P[k][ok]) @ B.T
        pred[k] = mu[k] + Uk @ V.T
    return dict(pred=pred, P=P, matched=matched, match_idx=midx)


def pair_order_accuracy(pred: np.ndarray, truth: np.ndarray, mask: np.ndarray) -> float:
    """Ranking quality: over each user's held-out items with different true ratings, the fraction of pairs the
    prediction orders correctly (a per-user AUC), pooled over users. Arrays (..., n_users, n_items)."""
    pred, truth, mask = np.asarray(pred, float), np.asarray(truth, float), np.asarray(mask, bool)
    if not (pred.shape == truth.shape == mask.shape):
        raise ValueError(f"shapes differ: {pred.shape}, {truth.shape}, {mask.shape}")
    good = tot = 0
    for p, t, m in zip(pred.reshape(-1, pred.shape[-1]), truth.reshape(-1, pred.shape[-1]),
                       mask.reshape(-1, pred.shape[-1]), strict=True):
        if m.sum() < 2:
            continue
        dt = np.sign(t[m][:, None] - t[m][None, :])
        dp = np.sign(p[m][:, None] - p[m][None, :])
        use = dt > 0
        tot += use.sum()
        good += (dp[use] > 0).sum()
    if tot == 0:
        raise ValueError("no comparable pairs")
    return float(good / tot)


def centralised_predict(data: dict, rank: int, reg: float, epochs: int, seed: int = 0) -> np.ndarray:
    """The oracle: one MF on all clients' training ratings pooled (mean where two clients rate one pair), with
    each client's own mean restored. Returns (n_clients, n_users, n_items)."""
    R, train = data["R"], data["train"]
    cnt = train.sum(0)
    pooled = np.where(cnt > 0, (R * train).sum(0) / np.maximum(cnt, 1), 0.0)
    U, V, mu = mf_train(pooled, cnt > 0, rank, reg, epochs, seed=seed)
    mus = [float(R[k][train[k]].mean()) for k in range(R.shape[0])]
    return np.stack([m + U @ V.T for m in mus])


def attacker_error(U: np.ndarray, B: np.ndarray, P: np.ndarray) -> float:
    """Privacy proxy: an attacker who knows the basis ``B`` (rank, L) rebuilds each user embedding from its shared
    preference by least squares, ``u_hat = argmin |B^T u - p|`` (minimum norm), ``p`` (n, L), ``U`` (n, rank).
    Returns the median relative error ``|u_hat - u| / |u|`` (> 0 when ``L < rank``: an underdetermined system)."""
    U, B, P = np.asarray(U, float), np.asarray(B, float), np.asarray(P, float)
    if U.shape[1] != B.shape[0] or P.shape != (U.shape[0], B.shape[1]):
        raise ValueError(f"shapes disagree: U {U.shape}, B {B.shape}, P {P.shape}")
    U_hat = np.linalg.lstsq(B.T, P.T, rcond=None)[0].T
    nrm = np.linalg.norm(U, axis=1)
    ok = nrm > 0
    return float(np.median(np.linalg.norm(U_hat - U, axis=1)[ok] / nrm[ok]))


def run_joint_venture(n_users: int, n_items: int, n_clients: int, user_overlap: float, item_share: float,
                      rank: int, density: float, n_levels: int, reg: float, rounds: int, seed: int,
                      scale_spread: float = 0.4, alpha: float = 0.5) -> dict:
    """One seeded joint venture, every method in the same run: Local-MF, FedMF, centralised MF, FR-JVE-lite with
    the linear bridge, with the identity bridge, with similarity linking (no ids), and the mean-rating predictor.

    Returns ``{method: {"overlap": rmse, "exclusive": rmse, "all": rmse, "order": pair accuracy}}`` plus
    ``"privacy"`` (attacker's relative error on the FedMF user embeddings from the shared preferences) and
    ``"privacy_full_rank"`` (the same when the preference has ``L = rank`` numbers: the control).
    """
    d = make_jv_ratings(n_users, n_items, n_clients, user_overlap, item_share, rank, density, seed,
                        scale_spread=scale_spread)
    R, test, ov = d["R"], d["test"], d["overlap"]
    masks = {"overlap": test & ov[None, :, None], "exclusive": test & ~ov[None, :, None], "all": test}
    preds = {}
    loc = [mf_train(R[k], d["train"][k], rank, reg, rounds, seed=seed) for k in range(n_clients)]
    preds["Local-MF"] = np.stack([m + U @ V.T for U, V, m in loc])
    U, V, mu = fedmf_train(d, rank, reg, rounds, seed=seed)
    preds["FedMF"] = np.stack([mu[k] + U[k] @ V.T for k in range(n_clients)])
    preds["Centralised MF"] = centralised_predict(d, rank, reg, rounds, seed=seed)
    out = frjve_predict(d, U, V, mu, n_levels, bridge="linear", alpha=alpha)
    preds["FR-JVE-lite"] = out["pred"]
    preds["FR-JVE-lite, identity bridge"] = frjve_predict(d, U, V, mu, n_levels, bridge="identity", alpha=alpha)["pred"]
    preds["FR-JVE-lite, similarity links"] = frjve_predict(d, U, V, mu, n_levels, bridge="linear", alpha=alpha,
                                                           link="similarity")["pred"]
    preds["Mean rating"] = np.stack([np.full(R.shape[1:], R[k][d["train"][k]].mean()) for k in range(n_clients)])
    res: dict = {}
    for name, p in preds.items():
        res[name] = {part: rmse(p, R, m) if m.any() else float("nan") for part, m in masks.items()}
        res[name]["order"] = pair_order_accuracy(p, R, test)
    for key, L in (("privacy", n_levels), ("privacy_full_rank", rank)):
        B = preference_basis(V, L)
        errs = []
        for k in range(n_clients):
            mine = np.flatnonzero(d["users"][k])
            P = (out["P"][k][mine] if L == n_levels else
                 np.stack([distill_preference(B, V, R[k, u], d["train"][k, u], mu[k]) for u in mine]))
            errs.append(attacker_error(U[k][mine], B, P))
        res[key] = float(np.median(errs))
    return res
