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
- Top-K similar-user matching -> :func:`match_users` (``link="similarity"`` of :func:`frjve_predict`)

Comparators of the page's tests, none of them the paper's: :func:`pool_embeddings_predict` (linked copies average
their FedMF embeddings, or only their projection on the preference basis: no inversion, no bridge),
:func:`shrink_shared_predict` (the same update with every partner's copy replaced by zeros: shrinkage, no transfer),
and :func:`tune_ridge` (FedMF's or Local-MF's ridge chosen on a validation split).
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
    """Ridge solves ``min_x sum_j mask_ij (R_ij - x . F_j)^2 + reg |x|^2`` for every row ``i`` (batched).

    A row with no observed entry gets ``x = 0``.
    """
    M = mask.astype(float)
    r = F.shape[1]
    G = (M @ (F[:, :, None] * F[:, None, :]).reshape(len(F), r * r)).reshape(-1, r, r) + reg * np.eye(r)
    rhs = (np.where(mask, R, 0.0)) @ F
    return np.linalg.solve(G, rhs[:, :, None])[:, :, 0]


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


def distill_preferences(B: np.ndarray, V: np.ndarray, R: np.ndarray, mask: np.ndarray, mu: float,
                        reg: float = 0.1, steps: int = 200) -> np.ndarray:
    """Distil every user's rating preference by model inversion (step 2 of the brief), all users at once.

    With the model frozen (item embeddings ``V`` and basis ``B``), optimise only the user-side input ``p`` (L,)
    of each user so the frozen model ``mu + (B p) . v`` reproduces that user's local ratings:
    ``min_p mean_obs (r_uv - mu - (B p) . v)^2 + reg |p|^2``, by ``steps`` of gradient descent from 0 with the
    user's step ``1 / Lipschitz`` (deterministic). ``B`` (rank, L), ``V`` (n_items, rank), ``R``/``mask``
    (n_users, n_items). Returns ``P`` (n_users, L); a user with no observed rating gets ``p = 0``.
    """
    B, V = np.asarray(B, float), np.asarray(V, float)
    R, mask = _as_mask(np.atleast_2d(R), np.atleast_2d(mask))
    check_int(steps, "steps", least=1)
    check_positive(reg, "reg", strict=False)
    if V.shape[0] != R.shape[1] or B.shape[0] != V.shape[1]:
        raise ValueError(f"shapes disagree: B {B.shape}, V {V.shape}, R {R.shape}")
    X = V @ B                                             # (n_items, L): the frozen model's features
    n = mask.sum(1)
    has = n > 0
    nn = np.maximum(n, 1)[:, None]
    L = X.shape[1]
    G = (mask.astype(float) @ (X[:, :, None] * X[:, None, :]).reshape(len(X), L * L)).reshape(-1, L, L)
    G = G / nn[:, :, None]                                                      # X_u^T X_u / n_u
    b = (np.where(mask, R - mu, 0.0) @ X) / nn                                  # X_u^T y_u / n_u
    lip = 2 * (np.linalg.eigvalsh(G)[:, -1] + reg)
    P = np.zeros((R.shape[0], B.shape[1]))
    for _ in range(steps):
        grad = 2 * (np.einsum("ulm,um->ul", G, P) - b + reg * P)
        P = P - grad / lip[:, None]
    P[~has] = 0.0
    return P


def distill_preference(B: np.ndarray, V: np.ndarray, R_u: np.ndarray, mask_u: np.ndarray, mu: float,
                       reg: float = 0.1, steps: int = 200) -> np.ndarray:
    """One user's rating preference ``p_u`` (L,) by model inversion: :func:`distill_preferences` for one row
    ``R_u``/``mask_u`` (n_items,)."""
    return distill_preferences(B, V, np.atleast_2d(R_u), np.atleast_2d(mask_u), mu, reg, steps)[0]


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


def client_preferences(data: dict, V: np.ndarray, mu: Sequence[float], n_levels: int, reg: float = 0.1,
                       steps: int = 200) -> tuple[np.ndarray, list[np.ndarray]]:
    """The server's basis ``B`` (rank, L) and every client's distilled preferences ``[P_k]`` (n_users, L each; 0
    for users the client does not hold): steps 1-2 of FR-JVE-lite, shared by all its variants."""
    R, train, users = data["R"], data["train"], data["users"]
    B = preference_basis(V, n_levels)
    P = []
    for k in range(R.shape[0]):
        Pk = np.zeros((R.shape[1], n_levels))
        mine = np.flatnonzero(users[k])
        Pk[mine] = distill_preferences(B, V, R[k][mine], train[k][mine], mu[k], reg, steps)
        P.append(Pk)
    return B, P


def frjve_predict(data: dict, U: Sequence[np.ndarray], V: np.ndarray, mu: Sequence[float], n_levels: int,
                  k_neighbors: int = 1, bridge: str = "linear", alpha: float = 0.5, min_sim: float = 0.0,
                  reg: float = 0.1, steps: int = 200, bridge_iters: int = 2, link: str = "psi",
                  link_seed: int = 0, prefs: tuple[np.ndarray, list[np.ndarray]] | None = None) -> dict:
    """FR-JVE-lite on top of a FedMF model: distil, bridge, match, ensemble (steps 2-4 of the brief).

    1. Every client distils ``P_k[u]`` (L,) for its users (:func:`client_preferences`, server basis ``B``; pass
       ``prefs=(B, P)`` to reuse them across variants).
    2. For each user, the server collects, from every other client, the ``k_neighbors`` users whose bridged
       preferences are most cosine-similar (``link="similarity"``, no user id used; weight: the cosine where it
       exceeds ``min_sim``, else 0), or as many users drawn at random once (``link="random"``, seeded by
       ``link_seed``; the same cosine weights: the ablation of the similarity matching), or (``link="psi"``) the
       same user where a private set intersection of hashed ids says it is shared, with weight 1.
    3. Global preference ``pbar_u`` = weighted mean of the user's own bridged preference (weight 1) and its
       matches'. Each client fits its bridge ``phi_k`` (local -> global) on ``(P_k, pbar)``, and the inverse
       ``psi_k`` (global -> local); matching and bridges are refitted ``bridge_iters`` times from identity.
    4. Prediction: the user embedding's component in the preference subspace is pulled towards the transferred
       preference, ``u' = U_k[u] + alpha B (psi_k(pbar_u) - P_k[u])``, for users with at least one match.

    Returns dict with ``pred`` (n_clients, n_users, n_items), ``P`` [(n_users, L)] and ``matched`` (n_clients,
    n_users) bool, and ``match_idx`` (n_clients, n_users, n_clients, k_neighbors) (-1 where none).
    """
    if not 0 <= alpha <= 1:
        raise ValueError(f"alpha must lie in [0, 1]; got {alpha}")
    check_int(bridge_iters, "bridge_iters", least=1)
    check_int(k_neighbors, "k_neighbors", least=1)
    if link not in ("psi", "similarity", "random"):
        raise ValueError(f"link must be 'psi', 'similarity' or 'random'; got {link!r}")
    R, users = data["R"], data["users"]
    n_clients, n_users, _ = R.shape
    B, P = prefs if prefs is not None else client_preferences(data, V, mu, n_levels, reg, steps)
    if B.shape[1] != n_levels or len(P) != n_clients:
        raise ValueError(f"prefs do not match n_levels={n_levels} and {n_clients} clients")
    drawn = {}
    if link == "random":
        rng = np.random.default_rng(link_seed)
        for k in range(n_clients):
            nk = int(users[k].sum())
            for j in range(n_clients):
                if j != k:
                    nj = int(users[j].sum())
                    drawn[k, j] = np.stack([rng.choice(nj, min(k_neighbors, nj), replace=False) for _ in range(nk)])
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
                elif link == "random":
                    idx = drawn[k, j]
                    a = G[k][mine] / np.maximum(np.linalg.norm(G[k][mine], axis=1, keepdims=True), 1e-300)
                    c = G[j][cand[idx]]
                    sims = np.einsum("nl,nkl->nk", a, c) / np.maximum(np.linalg.norm(c, axis=2), 1e-300)
                    w = np.where(sims > min_sim, sims, 0.0)
                else:
                    pos = np.searchsorted(cand, mine).clip(0, len(cand) - 1)
                    idx = pos[:, None]
                    w = (cand[pos] == mine).astype(float)[:, None]
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
        Uk = np.array(U[k], dtype=float)
        Uk[ok] += alpha * (psi(pbar[k][ok]) - P[k][ok]) @ B.T
        pred[k] = mu[k] + Uk @ V.T
    return dict(pred=pred, P=P, matched=matched, match_idx=midx)


def _pull_shared(data: dict, U: Sequence[np.ndarray], V: np.ndarray, mu: Sequence[float],
                 basis: np.ndarray | None, alpha: float, transfer: bool) -> np.ndarray:
    """The update of :func:`pool_embeddings_predict` (``transfer=True``) or :func:`shrink_shared_predict`
    (``transfer=False``) on every client's shared users; predictions (n_clients, n_users, n_items)."""
    if not 0 <= alpha <= 1:
        raise ValueError(f"alpha must lie in [0, 1]; got {alpha}")
    users = np.asarray(data["users"], bool)
    Us = np.stack([np.asarray(u, float) for u in U])
    if Us.shape[:2] != users.shape:
        raise ValueError(f"U must hold one (n_users, rank) array per client; got {Us.shape}, users {users.shape}")
    Pi = np.eye(Us.shape[2]) if basis is None else np.asarray(basis, float) @ np.asarray(basis, float).T
    if Pi.shape != (Us.shape[2], Us.shape[2]):
        raise ValueError(f"basis must have {Us.shape[2]} rows; got {np.shape(basis)}")
    held = users.sum(0)
    shared = held >= 2
    if transfer:
        mean = np.einsum("ku,kur->ur", users.astype(float), Us) / np.maximum(held, 1)[:, None]
    pred = np.zeros((len(Us), users.shape[1], np.asarray(V).shape[0]))
    for k in range(len(Us)):
        Uk = Us[k].copy()
        ok = shared & users[k]
        if transfer:
            Uk[ok] += alpha * (mean[ok] - Uk[ok]) @ Pi
        else:  # the partners' copies replaced by zeros: (U_k / n_u - U_k) = -(1 - 1 / n_u) U_k
            Uk[ok] -= alpha * (1 - 1 / held[ok])[:, None] * (Uk[ok] @ Pi)
        pred[k] = mu[k] + Uk @ np.asarray(V, float).T
    return pred


def pool_embeddings_predict(data: dict, U: Sequence[np.ndarray], V: np.ndarray, mu: Sequence[float],
                            basis: np.ndarray | None = None, alpha: float = 0.5) -> np.ndarray:
    """A naive transfer with none of FR-JVE's inversion or bridge: every client pulls a shared user's FedMF
    embedding towards the plain mean of its copies at the clients that hold it,
    ``u' = U_k[u] + alpha (mean_j U_j[u] - U_k[u]) Pi``, with ``Pi = basis basis^T`` (the copies share only their
    projection on ``basis`` (rank, L): as few numbers as FR-JVE's preference) or ``Pi = I`` (``basis=None``: the
    whole embedding, no privacy). Shared users are linked as FR-JVE-lite's ``link="psi"`` links them.

    Returns predictions (n_clients, n_users, n_items).
    """
    return _pull_shared(data, U, V, mu, basis, alpha, transfer=True)


def local_mf_predict(data: dict, rank: int, reg: float, epochs: int, seed: int = 0) -> np.ndarray:
    """Local-MF: every client fits its own MF (:func:`mf_train`, ``epochs`` ALS sweeps) on its own training ratings;
    nothing is federated. Returns predictions (n_clients, n_users, n_items)."""
    R, train = data["R"], data["train"]
    return np.stack([m + U_ @ V_.T for U_, V_, m in
                     (mf_train(R[k], train[k], rank, reg, epochs, seed=seed) for k in range(R.shape[0]))])


def shrink_shared_predict(data: dict, U: Sequence[np.ndarray], V: np.ndarray, mu: Sequence[float],
                          basis: np.ndarray | None = None, alpha: float = 0.5) -> np.ndarray:
    """A no-transfer control of :func:`pool_embeddings_predict`: the same update with every other client's copy of a
    shared user replaced by zeros, so nothing crosses clients and only shrinkage is left:
    ``u' = U_k[u] + alpha (U_k[u] / n_u - U_k[u]) Pi``, with ``n_u`` the number of clients that hold ``u`` and
    ``Pi = basis basis^T`` (``basis`` (rank, L)) or ``Pi = I`` (``basis=None``). With 2 clients and ``alpha = 1/2``
    a shared user's (projected) embedding shrinks by a quarter.

    Returns predictions (n_clients, n_users, n_items).
    """
    return _pull_shared(data, U, V, mu, basis, alpha, transfer=False)


def link_accuracy(match_idx: np.ndarray, overlap: np.ndarray) -> float:
    """How often preference matching finds the right partner: over every client ``k``, every other client ``j`` and
    every shared user ``u`` (``overlap``), the fraction whose best match at ``j`` (``match_idx[k, u, j, 0]``, from
    :func:`frjve_predict`) is ``u`` itself."""
    match_idx = np.asarray(match_idx)
    overlap = np.asarray(overlap, bool)
    if match_idx.ndim != 4 or match_idx.shape[1] != overlap.shape[0] or match_idx.shape[0] != match_idx.shape[2]:
        raise ValueError(f"match_idx must be (n_clients, n_users, n_clients, k); got {match_idx.shape}")
    shared = np.flatnonzero(overlap)
    if shared.size == 0:
        raise ValueError("no shared users")
    hits = [match_idx[k, shared, j, 0] == shared for k in range(match_idx.shape[0])
            for j in range(match_idx.shape[0]) if j != k]
    return float(np.mean(hits))


def tune_ridge(data: dict, rank: int, grid: Sequence[float], rounds: int, seed: int = 0,
               val_frac: float = 0.2, model: str = "fedmf") -> tuple[float, list[float]]:
    """A ridge chosen on a validation split: a ``val_frac`` share of each client's training ratings (drawn from the
    stream ``(seed, 1)``, apart from the data's) is held out, the model is fitted on the rest for every ``reg`` in
    ``grid`` (``model="fedmf"``: :func:`fedmf_train` for ``rounds`` rounds; ``"local"``: :func:`local_mf_predict`
    with ``rounds`` sweeps), and the ridge with the lowest validation RMSE (all users, all clients) is returned with
    every grid value's validation RMSE. Both models see the same split. The test ratings are never seen."""
    if len(grid) == 0:
        raise ValueError("grid must hold at least one ridge value")
    if not 0 < val_frac < 1:
        raise ValueError(f"val_frac must lie in (0, 1); got {val_frac}")
    if model not in ("fedmf", "local"):
        raise ValueError(f"model must be 'fedmf' or 'local'; got {model!r}")
    R, train = data["R"], data["train"]
    val = train & (np.random.default_rng((seed, 1)).random(train.shape) < val_frac)
    fit = dict(data, train=train & ~val)
    errs = []
    for reg in grid:
        if model == "fedmf":
            U, V, mu = fedmf_train(fit, rank, reg, rounds, seed=seed)
            pred = np.stack([mu[k] + U[k] @ V.T for k in range(len(U))])
        else:
            pred = local_mf_predict(fit, rank, reg, rounds, seed=seed)
        errs.append(rmse(pred, R, val))
    return float(grid[int(np.argmin(errs))]), errs


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


RIDGE_GRID = (0.3, 1.0, 3.0, 10.0)  # the validation grid of the tuned baselines: half-decades around reg = 1
LONG_ROUNDS = 3  # the "trained longer" baselines run this many times the page's FedMF rounds


def run_joint_venture(n_users: int, n_items: int, n_clients: int, user_overlap: float, item_share: float,
                      rank: int, density: float, n_levels: int, reg: float, rounds: int, seed: int,
                      scale_spread: float = 0.4, alpha: float = 0.5,
                      ridge_grid: Sequence[float] = RIDGE_GRID) -> dict:
    """One seeded joint venture, every method in the same run.

    On FedMF with the ridge ``reg``: Local-MF, FedMF, centralised MF, the mean rating; FR-JVE-lite with the
    linear bridge, with the identity bridge, with similarity links (no ids; 1, 5 and 10 neighbours) and with random
    links; the naive transfers of :func:`pool_embeddings_predict` (the copies' projection on the basis, and whole
    embeddings) and their no-transfer shrinkage (:func:`shrink_shared_predict`); the ensemble (FedMF + Local-MF) / 2;
    FedMF and Local-MF with their ridges chosen on a validation split (:func:`tune_ridge` over ``ridge_grid``);
    FedMF run for ``LONG_ROUNDS`` times the rounds. On the validation-tuned FedMF (``"tuned: ..."``): FR-JVE-lite,
    its identity bridge, the shared projection, the tuned ensemble and the tuned FedMF run longer. On the longer-run
    FedMF (``"3x rounds: ..."``): FR-JVE-lite, its identity bridge and the shared projection.

    Returns ``{method: {"overlap": rmse, "exclusive": rmse, "all": rmse, "order": pair accuracy}}`` plus
    ``"privacy"`` (attacker's relative error on the FedMF user embeddings from the shared preferences),
    ``"privacy_projection"`` (the same from the shared projection ``B^T u``), ``"privacy_full_rank"`` (from a
    preference of ``L = rank`` numbers) and ``"privacy_full_rank_noridge"`` (the same distilled without a ridge),
    ``"link_accuracy"`` and ``"link_chance"`` (top-1 similarity matching: :func:`link_accuracy`, and one over the
    other client's users), ``"ratings_per_shared_copy"`` (mean training ratings of a shared user at one client),
    ``"reg_tuned"`` and ``"reg_local_tuned"``.
    """
    d = make_jv_ratings(n_users, n_items, n_clients, user_overlap, item_share, rank, density, seed,
                        scale_spread=scale_spread)
    R, train, test, ov = d["R"], d["train"], d["test"], d["overlap"]
    masks = {"overlap": test & ov[None, :, None], "exclusive": test & ~ov[None, :, None], "all": test}
    preds = {}
    extra: dict = {}

    def fedmf(r, n_rounds=rounds):
        U_, V_, mu_ = fedmf_train(d, rank, r, n_rounds, seed=seed)
        return U_, V_, mu_, np.stack([mu_[k] + U_[k] @ V_.T for k in range(n_clients)])

    def transfers(U_, V_, mu_, prefix, variants):
        prefs = client_preferences(d, V_, mu_, n_levels)
        for name, kw in variants:
            out = frjve_predict(d, U_, V_, mu_, n_levels, alpha=alpha, prefs=prefs, **kw)
            preds[prefix + name] = out["pred"]
            extra[prefix + name] = out
        preds[prefix + "shared projection"] = pool_embeddings_predict(d, U_, V_, mu_, prefs[0], alpha)
        return prefs

    preds["Local-MF"] = local_mf_predict(d, rank, reg, rounds, seed=seed)
    U, V, mu, preds["FedMF"] = fedmf(reg)
    preds["Centralised MF"] = centralised_predict(d, rank, reg, rounds, seed=seed)
    sim = "FR-JVE-lite, similarity links"
    B, P = transfers(U, V, mu, "", [("FR-JVE-lite", {}), ("FR-JVE-lite, identity bridge", dict(bridge="identity")),
                                    (sim, dict(link="similarity")),
                                    (sim + ", k=5", dict(link="similarity", k_neighbors=5)),
                                    (sim + ", k=10", dict(link="similarity", k_neighbors=10)),
                                    ("FR-JVE-lite, random links", dict(link="random", link_seed=seed))])
    preds["Shared projection"] = preds.pop("shared projection")
    preds["Shared embeddings"] = pool_embeddings_predict(d, U, V, mu, None, alpha)
    preds["Shrunk shared embeddings"] = shrink_shared_predict(d, U, V, mu, None, alpha)
    preds["Shrunk shared projection"] = shrink_shared_predict(d, U, V, mu, B, alpha)
    preds["FedMF + Local-MF"] = 0.5 * (preds["FedMF"] + preds["Local-MF"])
    preds["Mean rating"] = np.stack([np.full(R.shape[1:], R[k][train[k]].mean()) for k in range(n_clients)])
    long_rounds = LONG_ROUNDS * rounds
    U3, V3, mu3, preds["FedMF, 3x rounds"] = fedmf(reg, long_rounds)
    preds["3x rounds: FedMF"] = preds["FedMF, 3x rounds"]
    transfers(U3, V3, mu3, "3x rounds: ", [("FR-JVE-lite", {}),
                                           ("FR-JVE-lite, identity bridge", dict(bridge="identity"))])
    reg_l, _ = tune_ridge(d, rank, ridge_grid, rounds, seed=seed, model="local")
    preds["Local-MF, tuned ridge"] = preds["Local-MF"] if reg_l == reg else local_mf_predict(d, rank, reg_l, rounds,
                                                                                              seed=seed)
    reg_t, _ = tune_ridge(d, rank, ridge_grid, rounds, seed=seed)
    Ut, Vt, mut, fed_t = (U, V, mu, preds["FedMF"]) if reg_t == reg else fedmf(reg_t)
    preds["FedMF, tuned ridge"] = preds["tuned: FedMF"] = fed_t
    transfers(Ut, Vt, mut, "tuned: ", [("FR-JVE-lite", {}), ("FR-JVE-lite, identity bridge", dict(bridge="identity"))])
    preds["tuned: FedMF + Local-MF"] = 0.5 * (fed_t + (preds["Local-MF"] if reg_t == reg else
                                                       local_mf_predict(d, rank, reg_t, rounds, seed=seed)))
    preds["tuned: FedMF, 3x rounds"] = (preds["FedMF, 3x rounds"] if reg_t == reg else
                                        fedmf(reg_t, long_rounds)[3])
    res: dict = {}
    for name, p in preds.items():
        res[name] = {part: rmse(p, R, m) if m.any() else float("nan") for part, m in masks.items()}
        res[name]["order"] = pair_order_accuracy(p, R, test)
    mine = [d["users"][k] for k in range(n_clients)]
    for key, L, kw in (("privacy", n_levels, None), ("privacy_full_rank", rank, {}),
                       ("privacy_full_rank_noridge", rank, dict(reg=1e-9, steps=5000))):
        BL, PL = (B, P) if kw is None else client_preferences(d, V, mu, L, **kw)
        res[key] = float(np.median([attacker_error(U[k][mine[k]], BL, PL[k][mine[k]]) for k in range(n_clients)]))
    res["privacy_projection"] = float(np.median([attacker_error(U[k][mine[k]], B, U[k][mine[k]] @ B)
                                                 for k in range(n_clients)]))
    res["link_accuracy"] = link_accuracy(extra[sim]["match_idx"], ov) if ov.any() else float("nan")
    res["link_chance"] = float(np.mean([1 / d["users"][j].sum() for j in range(n_clients)]))
    res["ratings_per_shared_copy"] = float(np.mean([train[k][ov & d["users"][k]].sum(1).mean()
                                                    for k in range(n_clients)])) if ov.any() else float("nan")
    res["reg_tuned"] = reg_t
    res["reg_local_tuned"] = reg_l
    return res
