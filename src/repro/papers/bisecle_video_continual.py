r"""Bisecle (Tan et al., NeurIPS 2025): binding and separation for continual video question answering, in miniature.

Paper map
---------
*Bisecle: Binding and Separation in Continual Learning for Video Language Understanding*, Yue Tan, Xiaoqian Hu,
Hao Xue, Celso M. de Melo, Flora D. Salim, NeurIPS 2025, https://arxiv.org/abs/2507.00469 (official code:
github.com/cruiseresearchgroup/Bisecle, read at commit 99396f5). Notebook: ``notebooks/bisecle-video-continual.py``.

The paper fine-tunes a frozen LLaMA-Adapter video-QA model on a stream of question types (NExT-QA's eight types,
one task each). The miniature keeps the shape: frozen "video features" ``x`` (our synthetic frames stand in for
CLIP features), a *trainable* adapter (visual projection, temporal embedding, gated prompt rows), and a *frozen*
backbone (a random two-layer ReLU network standing in for the LLM) whose text tokens are frozen projections of
MiniLM sentence embeddings (:mod:`repro.textenc`) of the questions and answers.

Notation (paper / official code -> here):

- video tokens ``visual_proj(video) + temporal_emb`` -> ``x @ Wv.T + Tm`` (:func:`forward_features`);
- prompts ``adapter_query.weight`` (rows :math:`P_l`) -> ``P``; their zero-initialised gate ``gate1`` (used
  as ``tanh(gate1)``) -> ``gate``;
- question-type embeddings ``qtype_embeddings`` :math:`E_\tau` -> ``E`` (one row per task);
- ``q_repr`` = mean of the input token embeddings :math:`\bar q` -> ``q_repr`` (video tokens and question token);
- answer loss ``vqa_loss`` :math:`\mathcal L_A = -\log P(A\mid V,Q)` -> :func:`answer_logits`;
- question loss ``vaq_loss`` :math:`\mathcal L_Q = -\log P(Q\mid V,A)` -> :func:`question_logits`;
- video loss ``qav_loss`` :math:`\mathcal L_V` (each video position scored against the projected frames of the
  same video, label = its own frame, logits divided by ``tau``) -> :func:`video_logits`;
- contrastive prompt loss ``compute_tqcp_loss`` :math:`\mathcal L_P` -> :func:`tqcp_loss`, weighted by
  ``tqcp_weight`` (0.1);
- total loss ``vqa + vaq + qav + tqcp_weight * tqcp`` (``engine.train_one_epoch``) -> :func:`multi_directional_losses`.

Accuracy matrices follow :mod:`repro.continual` (``A[i, j]``: after task ``i``, on task ``j``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from repro.optim import AdamW
from repro.validate import check_int, check_positive

COLOURS = ("red", "green", "blue", "yellow")
SHAPES = ("cube", "sphere", "cone", "cylinder")
DIRECTIONS = ("left", "right", "up", "down")
SIZES = ("tiny", "small", "large", "huge")
TASKS = ("colour", "shape", "direction", "size")
N_CLASSES = 4
CACHE = Path(__file__).with_suffix(".minilm.npz")

# Loss weights of each method: (w_Q, w_V, w_P, shuffled question targets); "l2p" has its own prompt path.
METHODS: dict[str, tuple[float, float, float, float]] = {
    "adapter": (0.0, 0.0, 0.0, 0.0),       # LLaMA-Adapter-style sequential fine-tuning: L_A only
    "lq-only": (1.0, 0.0, 0.0, 0.0),       # ablations (paper Table 2): L_A plus one or two auxiliary losses
    "lv-only": (0.0, 1.0, 0.0, 0.0),
    "lp-only": (0.0, 0.0, 1.0, 0.0),
    "lq+lv": (1.0, 1.0, 0.0, 0.0),
    "lv+lp": (0.0, 1.0, 1.0, 0.0),
    "lq+lp": (1.0, 0.0, 1.0, 0.0),
    "bisecle": (1.0, 1.0, 1.0, 0.0),       # all three
    "lq-shuffled": (1.0, 0.0, 0.0, 1.0),   # null model: L_Q towards a fixed random relabelling of the questions
}


# ---------------------------------------------------------------- texts and the synthetic video-QA stream -----

def question_texts() -> list[str]:
    """The 40 question texts, task by task (colour, shape, direction, size).

    Each question names attributes *other* than the one asked about ("What colour is the cube?"), as real
    VideoQA questions name the objects they ask about; that is what question prediction can bind.
    """
    return ([f"What colour is the {s}?" for s in SHAPES] + [f"What shape is the {c} object?" for c in COLOURS]
            + [f"Which way does the {c} {s} move?" for c in COLOURS for s in SHAPES]
            + [f"How big is the {c} {s}?" for c in COLOURS for s in SHAPES])


def answer_texts() -> list[str]:
    """The 16 answer texts: 4 per task, in task order (answer ``4 * task + class``)."""
    return list(COLOURS + SHAPES + DIRECTIONS + SIZES)


def question_index(task: np.ndarray, attrs: np.ndarray) -> np.ndarray:
    """Index into :func:`question_texts` of each sample's question.

    Parameters
    ----------
    task : ndarray of int, shape (n,)
        0 colour, 1 shape, 2 direction, 3 size.
    attrs : ndarray of int, shape (n, 4)
        (colour, shape, direction, size) classes in 0..3.
    """
    task = np.asarray(task)
    attrs = np.asarray(attrs)
    if attrs.ndim != 2 or attrs.shape[1] != 4 or len(task) != len(attrs):
        raise ValueError("attrs must have shape (n, 4) and task shape (n,)")
    if task.size and (task.min() < 0 or task.max() > 3 or attrs.min() < 0 or attrs.max() > 3):
        raise ValueError("task and attributes must lie in 0..3")
    c, s = attrs[:, 0], attrs[:, 1]
    return np.select([task == 0, task == 1, task == 2], [s, 4 + c, 8 + 4 * c + s], 24 + 4 * c + s)


def text_embeddings(live: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """MiniLM embeddings of the questions (40, 384) and answers (16, 384), from the committed cache unless ``live``."""
    from repro.textenc import embed_texts

    q, a = question_texts(), answer_texts()
    e = embed_texts(q + a, cache=CACHE, live=live)
    return e[: len(q)], e[len(q):]


@dataclass(frozen=True)
class World:
    """The fixed "renderer" of the synthetic videos: attribute patterns in the frozen feature space.

    ``colour``, ``shape``, ``size``: (4, d) patterns of the static attributes; ``motion``: (d, 2) the image plane's
    direction in feature space; ``speed`` the displacement per frame; ``noise`` the per-frame feature noise.
    """

    colour: np.ndarray
    shape: np.ndarray
    size: np.ndarray
    motion: np.ndarray
    speed: float
    noise: float


def make_world(rng: np.random.Generator, dim: int = 32, speed: float = 0.25, noise: float = 0.35) -> World:
    """Random attribute patterns, each of unit expected norm (entries N(0, 1/dim))."""
    dim = check_int(dim, "dim", least=4)
    check_positive(speed, "speed")
    check_positive(noise, "noise", strict=False)
    g = lambda *s: rng.standard_normal(s) / np.sqrt(dim)  # noqa: E731
    return World(g(4, dim), g(4, dim), g(4, dim), g(dim, 2) * np.sqrt(dim / 2), float(speed), float(noise))


_DIR_VEC = np.array([[-1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, -1.0]])


def synth_video_qa(world: World, n_per_task: int, rng: np.random.Generator, n_frames: int = 8) -> dict:
    """A synthetic video-QA set: ``n_per_task`` questions of each of the four tasks.

    Frame ``t`` of a video with attributes (colour c, shape s, direction d, size z) is
    ``colour[c] + shape[s] + size[z] + speed * (t - (T-1)/2) * motion @ dir[d] + noise * eps_t``:
    colour, shape and size are static, direction is only visible in how frames change.

    Returns
    -------
    dict with ``x`` (n, T, d) float32 frames, ``attrs`` (n, 4), ``task`` (n,), ``q`` (n,) question index,
    ``a`` (n,) answer index into :func:`answer_texts` (``4 * task + attrs[task]``), ``label`` (n,) = ``attrs[task]``.
    """
    n = check_int(n_per_task, "n_per_task", least=1)
    T = check_int(n_frames, "n_frames", least=2)
    task = np.repeat(np.arange(4), n)
    attrs = rng.integers(0, 4, size=(4 * n, 4))
    t = np.arange(T) - (T - 1) / 2
    static = world.colour[attrs[:, 0]] + world.shape[attrs[:, 1]] + world.size[attrs[:, 3]]
    step = (_DIR_VEC[attrs[:, 2]] @ world.motion.T) * world.speed  # (n, d)
    x = static[:, None, :] + t[None, :, None] * step[:, None, :]
    x = x + world.noise * rng.standard_normal(x.shape)
    label = attrs[np.arange(4 * n), task]
    return dict(x=x.astype(np.float32), attrs=attrs, task=task, q=question_index(task, attrs),
                a=4 * task + label, label=label)


# ---------------------------------------------------------------- the two-tower model (batched over models) ---

@dataclass(frozen=True)
class Config:
    """Sizes and defaults. Official defaults where the code has them: ``neg_temp`` 0.1, ``tqcp_weight`` 0.1,
    AdamW betas (0.9, 0.95), weight decay 0.14, adapter length 10 prompt rows; the rest is ours."""

    dim: int = 32            # width of the frozen backbone (LLaMA: 4096)
    hidden: int = 128        # hidden units of the frozen ReLU backbone
    n_prompts: int = 10      # prompt rows (official adapter_len 10, per layer)
    tau_answer: float = 0.1  # temperature of answer and question logits (the LLM's softmax over its vocabulary)
    tau_video: float = 1.0   # official tau = 100 at width 4096; ours at width 32
    neg_temp: float = 0.1
    tqcp_weight: float = 0.1
    lr: float = 0.01
    weight_decay: float = 0.14
    batch: int = 32
    steps: int = 80          # per task
    pull_weight: float = 0.1  # L2P's key-query pull coefficient
    q_tokens: int = 1        # how many tokens the question counts for in q_repr (official: the text is ~92%)


def init_models(n_models: int, x_dim: int, text_dim: int, cfg: Config, gen: torch.Generator) -> tuple[dict, dict]:
    """Trainable adapters and frozen backbones of ``n_models`` independent models (leading axis).

    Returns
    -------
    (train, frozen): dicts of tensors. ``train``: ``Wv`` (G, D, dx), ``Tm`` (G, T, D) with T = 8 frames,
    ``P`` (G, L, D), ``gate`` (G, 1) zero (the official zero-initialised gate), ``E`` (G, 4, D), ``keys``
    (G, L, D) (L2P only). ``frozen``: ``Wq``, ``Wa`` (G, D, text_dim), ``W1`` (G, H, D), ``b1`` (G, H), ``W2`` (G, D, H).
    """
    G = check_int(n_models, "n_models", least=1)
    D, H, L = cfg.dim, cfg.hidden, cfg.n_prompts
    r = lambda *s, scale: torch.randn(*s, generator=gen) * scale  # noqa: E731
    train = dict(Wv=r(G, D, x_dim, scale=1 / np.sqrt(D)), Tm=r(G, 8, D, scale=0.02),
                 P=r(G, L, D, scale=1.0), gate=torch.zeros(G, 1), E=r(G, 4, D, scale=1.0),
                 keys=r(G, L, D, scale=1 / np.sqrt(D)))
    frozen = dict(Wq=r(G, D, text_dim, scale=1 / np.sqrt(D)), Wa=r(G, D, text_dim, scale=1 / np.sqrt(D)),
                  W1=r(G, H, D, scale=np.sqrt(2 / D)), b1=r(G, H, scale=0.1), W2=r(G, D, H, scale=1 / np.sqrt(H)))
    return train, frozen


def backbone(x: torch.Tensor, frozen: dict) -> torch.Tensor:
    """The frozen stand-in for the LLM: ``W2 relu(W1 x + b1)``, per model. x: (G, ..., D) -> (G, ..., D)."""
    G = x.shape[0]
    flat = x.reshape(G, -1, x.shape[-1])
    h = torch.relu(torch.baddbmm(frozen["b1"][:, None, :], flat, frozen["W1"].transpose(1, 2)))
    return torch.bmm(h, frozen["W2"].transpose(1, 2)).reshape(x.shape)


def prompt_attention(q_repr: torch.Tensor, prompts: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    r"""Query-weighted prompt, as in the official ``compute_tqcp_loss``: :math:`\alpha = \mathrm{softmax}(P\bar q)`,
    :math:`p = \sum_l \alpha_l P_l`.

    Parameters
    ----------
    q_repr : Tensor, shape (G, B, D)
    prompts : Tensor, shape (G, L, D)

    Returns
    -------
    alpha (G, B, L), weighted (G, B, D)
    """
    if q_repr.ndim != 3 or prompts.ndim != 3 or q_repr.shape[0] != prompts.shape[0] or q_repr.shape[2] != prompts.shape[2]:
        raise ValueError(f"q_repr (G, B, D) and prompts (G, L, D) must agree; got {tuple(q_repr.shape)}, {tuple(prompts.shape)}")
    alpha = torch.softmax(torch.bmm(q_repr, prompts.transpose(1, 2)), dim=-1)
    return alpha, torch.bmm(alpha, prompts)


def tqcp_loss(q_repr: torch.Tensor, prompts: torch.Tensor, pos_type: torch.Tensor, neg_types: torch.Tensor,
              neg_temp: float = 0.1, type_weight: torch.Tensor | None = None) -> torch.Tensor:
    r"""Contrastive prompt loss :math:`\mathcal L_P` of the official ``compute_tqcp_loss``, batched over models.

    The query-weighted prompt :math:`p_b` (:func:`prompt_attention`) of sample ``b`` is scored against every
    positive type embedding of the batch and every negative one, logits divided by ``neg_temp``; the target of
    sample ``b`` is column ``b`` (its own positive):

    .. math:: \mathcal L_P = \frac1B\sum_b w_b \Big(-\log \frac{e^{p_b\cdot e^+_b/\kappa}}
              {\sum_{b'} e^{p_b\cdot e^+_{b'}/\kappa} + \sum_{b',n} e^{p_b\cdot e^-_{b'n}/\kappa}}\Big).

    (Within a one-task batch all positives are the same vector, so the loss is at least :math:`\log B`; the
    gradient pulls the weighted prompt towards the task's type embedding and away from earlier tasks'.)

    Parameters
    ----------
    q_repr : Tensor, shape (G, B, D)
    prompts : Tensor, shape (G, L, D)
    pos_type : Tensor, shape (G, B, D)
        Type embedding of each sample's task.
    neg_types : Tensor, shape (G, B, N, D)
        Type embeddings of the other tasks seen so far (N may be 0).
    neg_temp : float
        Temperature :math:`\kappa` (official 0.1).
    type_weight : Tensor, shape (G, B) or (B,), optional
        Per-sample weights (the official loader passes 1 / (number of training questions of the type)).

    Returns
    -------
    Tensor, shape (G,): the loss of each model.
    """
    check_positive(neg_temp, "neg_temp")
    G, B, D = q_repr.shape
    if pos_type.shape != (G, B, D) or neg_types.ndim != 4 or neg_types.shape[:2] != (G, B) or neg_types.shape[3] != D:
        raise ValueError("pos_type must be (G, B, D) and neg_types (G, B, N, D) matching q_repr (G, B, D)")
    _, weighted = prompt_attention(q_repr, prompts)
    all_types = torch.cat([pos_type, neg_types.reshape(G, -1, D)], dim=1)  # (G, B(1+N), D)
    logits = torch.bmm(weighted, all_types.transpose(1, 2)) / neg_temp
    labels = torch.arange(B).expand(G, B)
    per = F.cross_entropy(logits.reshape(G * B, -1), labels.reshape(-1), reduction="none").reshape(G, B)
    if type_weight is not None:
        per = per * type_weight
    return per.mean(dim=1)


def forward_features(x: torch.Tensor, q_tok: torch.Tensor, train: dict, q_tokens: int = 1) -> dict:
    """Video tokens, pooled video, the official ``q_repr`` and the gated query-weighted prompt.

    Parameters
    ----------
    x : Tensor, shape (G, B, T, dx) frozen frame features
    q_tok : Tensor, shape (G, B, D) frozen question tokens
    q_tokens : int
        Weight of the question token in ``q_repr`` (it counts as that many tokens). The official ``q_repr``
        averages a 128-token sequence of which 10 are video features, so text dominates it.

    Returns
    -------
    dict: ``content`` (G, B, T, D) = x Wv^T (the official ``_video_feature``), ``tokens`` = content + Tm,
    ``video`` (G, B, D) the frozen temporal pooling of the tokens (mean plus a linear ramp over frames),
    ``q_repr`` (G, B, D) = (sum of video tokens + q_tokens * question token) / (T + q_tokens), ``alpha`` (G, B, L), ``prompt`` (G, B, D)
    = tanh(gate) * weighted prompt.
    """
    q_tokens = check_int(q_tokens, "q_tokens", least=1)
    G, B, T, dx = x.shape
    content = torch.bmm(x.reshape(G, B * T, dx), train["Wv"].transpose(1, 2)).reshape(G, B, T, -1)
    tokens = content + train["Tm"][:, None, :T, :]
    ramp = torch.linspace(-1.0, 1.0, T, dtype=x.dtype)
    pool = (1.0 / T + ramp / T)[None, None, :, None]
    video = (tokens * pool).sum(dim=2)
    q_repr = (tokens.sum(dim=2) + q_tokens * q_tok) / (T + q_tokens)
    alpha, weighted = prompt_attention(q_repr, train["P"])
    return dict(content=content, tokens=tokens, video=video, q_repr=q_repr, alpha=alpha,
                prompt=torch.tanh(train["gate"])[:, :, None] * weighted)


def answer_logits(feat: dict, q_tok: torch.Tensor, options: torch.Tensor, frozen: dict, tau: float) -> torch.Tensor:
    r"""Scores of the answer options, :math:`P(A\mid V,Q)` up to normalisation (the ``vqa`` direction).

    ``h = backbone(video + q_tok + prompt)``; option ``o`` scores ``h . a_o / tau``.
    options: (G, B, K, D) answer tokens -> (G, B, K) logits.
    """
    h = backbone(feat["video"] + q_tok + feat["prompt"], frozen)
    return torch.einsum("gbd,gbkd->gbk", h, options) / tau


def question_logits(feat: dict, a_tok: torch.Tensor, q_table: torch.Tensor, frozen: dict, tau: float) -> torch.Tensor:
    r"""Scores of every question text given video and answer, :math:`P(Q\mid V,A)` (the ``vaq`` direction).

    q_table: (G, NQ, D) all question tokens -> (G, B, NQ) logits.
    """
    h = backbone(feat["video"] + a_tok + feat["prompt"], frozen)
    return torch.bmm(h, q_table.transpose(1, 2)) / tau


def video_logits(feat: dict, q_tok: torch.Tensor, a_tok: torch.Tensor, frozen: dict, tau: float) -> torch.Tensor:
    r"""Scores of the frames of the same video at each video position (the ``qav`` direction, :math:`\mathcal L_V`).

    Position ``t`` sees the question, the answer and the previous video token (token ``t-1``; nothing for
    ``t = 0``); its output is scored against the projected content of all ``T`` frames of the same video (the
    official scores against ``_video_feature``, without the temporal embedding); the label is ``t``.
    Returns (G, B, T, T).
    """
    tokens = feat["tokens"]
    prev = torch.cat([torch.zeros_like(tokens[:, :, :1]), tokens[:, :, :-1]], dim=2)
    ctx = (q_tok + a_tok + feat["prompt"])[:, :, None, :]
    out = backbone(ctx + prev, frozen)
    return torch.einsum("gbtd,gbsd->gbts", out, feat["content"]) / tau


def multi_directional_losses(feat: dict, q_tok: torch.Tensor, a_tok: torch.Tensor, options: torch.Tensor,
                             label: torch.Tensor, q_idx: torch.Tensor, q_table: torch.Tensor, frozen: dict,
                             cfg: Config) -> dict:
    """The three supervision directions, per model.

    Returns
    -------
    dict of Tensors of shape (G,): ``answer`` (L_A), ``question`` (L_Q), ``video`` (L_V), each a mean
    cross-entropy over the batch (and over video positions for L_V).
    """
    G, B = label.shape
    la = F.cross_entropy(answer_logits(feat, q_tok, options, frozen, cfg.tau_answer).reshape(G * B, -1),
                         label.reshape(-1), reduction="none").reshape(G, B).mean(1)
    lq = F.cross_entropy(question_logits(feat, a_tok, q_table, frozen, cfg.tau_answer).reshape(G * B, -1),
                         q_idx.reshape(-1), reduction="none").reshape(G, B).mean(1)
    vl = video_logits(feat, q_tok, a_tok, frozen, cfg.tau_video)
    T = vl.shape[-1]
    lv = F.cross_entropy(vl.reshape(-1, T), torch.arange(T).repeat(G * B), reduction="none").reshape(G, -1).mean(1)
    return dict(answer=la, question=lq, video=lv)


def l2p_prompt(q_tok: torch.Tensor, train: dict) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """L2P-style selection (Wang et al., 2022): the key closest in cosine to the frozen query picks one prompt.

    Returns the gated prompt (G, B, D), the chosen index (G, B) and the pull loss ``1 - cos(q, key)`` (G,).
    """
    cos = F.normalize(q_tok, dim=-1) @ F.normalize(train["keys"], dim=-1).transpose(1, 2)  # (G, B, L)
    idx = cos.argmax(dim=-1)
    chosen = torch.gather(train["P"], 1, idx[..., None].expand(-1, -1, train["P"].shape[-1]))
    pull = (1 - torch.gather(cos, 2, idx[..., None]).squeeze(-1)).mean(1)
    return torch.tanh(train["gate"])[:, :, None] * chosen, idx, pull


def prompt_selection_accuracy(q_repr: torch.Tensor, prompts: torch.Tensor, type_emb: torch.Tensor,
                              task: torch.Tensor, n_seen: int) -> torch.Tensor:
    """Share of samples whose query-weighted prompt is closest (dot product, as in L_P) to its own task's type
    embedding among the ``n_seen`` tasks seen: test-time separation without a task id.

    q_repr (G, B, D), prompts (G, L, D), type_emb (G, n_types, D), task (B,) or (G, B) -> (G,).
    """
    n_seen = check_int(n_seen, "n_seen", least=1)
    _, weighted = prompt_attention(q_repr, prompts)
    pred = torch.bmm(weighted, type_emb[:, :n_seen].transpose(1, 2)).argmax(-1)
    return (pred == task).float().mean(1)


# ---------------------------------------------------------------- the continual stream -----------------------

@dataclass
class Stream:
    """Per-seed train and test sets, stacked: ``x`` (S, n, T, dx) and (S, n) integer arrays."""

    train: dict
    test: dict
    q_emb: np.ndarray
    a_emb: np.ndarray


def make_stream(seeds: list[int], n_train: int, n_test: int, q_emb: np.ndarray, a_emb: np.ndarray,
                n_frames: int = 8, x_dim: int = 32) -> Stream:
    """One world and one train/test draw per seed (new data per seed), stacked along a leading seed axis."""
    tr, te = [], []
    for s in seeds:
        rng = np.random.default_rng([int(s), 17])
        w = make_world(rng, x_dim)
        tr.append(synth_video_qa(w, n_train, rng, n_frames))
        te.append(synth_video_qa(w, n_test, rng, n_frames))
    stack = lambda ds: {k: np.stack([d[k] for d in ds]) for k in ds[0]}  # noqa: E731
    return Stream(stack(tr), stack(te), np.asarray(q_emb, np.float32), np.asarray(a_emb, np.float32))


def _gather(data: dict, idx: np.ndarray, n_rep: int) -> dict:
    """Rows ``idx`` (S, B) of each seed's arrays, repeated ``n_rep`` times along the model axis (G = n_rep * S)."""
    out = {}
    for k, v in data.items():
        sel = np.take_along_axis(v, idx.reshape(idx.shape + (1,) * (v.ndim - 2)), axis=1)
        out[k] = torch.from_numpy(np.ascontiguousarray(np.tile(sel, (n_rep,) + (1,) * (sel.ndim - 1))))
    return out


def _tokens(batch: dict, qt: torch.Tensor, at: torch.Tensor) -> tuple[torch.Tensor, ...]:
    G = qt.shape[0]
    gi = torch.arange(G)[:, None]
    q_tok = qt[gi, batch["q"]]
    a_tok = at[gi, batch["a"]]
    opt_idx = 4 * batch["task"][..., None] + torch.arange(4)
    options = at[gi[..., None], opt_idx]
    return q_tok, a_tok, options


def evaluate(stream: Stream, train: dict, frozen: dict, qt: torch.Tensor, at: torch.Tensor, n_rep: int,
             l2p: bool, cfg: Config, n_seen: int) -> tuple[np.ndarray, np.ndarray]:
    """Accuracy of every model on each task's test set, (G, 4), and prompt-selection accuracy over the seen
    tasks' test questions, (G,). Multiple choice among the 4 answers of the question's task (as NExT-QA's
    five options); the prompt is chosen from the input alone (no task id)."""
    te = stream.test
    S, n = te["task"].shape
    with torch.no_grad():
        b = _gather(te, np.tile(np.arange(n), (S, 1)), n_rep)
        q_tok, a_tok, options = _tokens(b, qt, at)
        feat = forward_features(b["x"], q_tok, train, cfg.q_tokens)
        if l2p:
            feat["prompt"] = l2p_prompt(q_tok, train)[0]
        pred = answer_logits(feat, q_tok, options, frozen, cfg.tau_answer).argmax(-1)
        correct = (pred == b["label"]).float()
        acc = torch.stack([correct[:, b["task"][0] == k].mean(1) for k in range(4)], dim=1)
        seen = b["task"][0] < n_seen
        sel = prompt_selection_accuracy(feat["q_repr"][:, seen], train["P"], train["E"], b["task"][:, seen], n_seen)
    return acc.numpy().astype(float), sel.numpy().astype(float)


def continual_train(stream: Stream, methods: list[str], cfg: Config = Config(), init_seed: int = 0,
                    joint: bool = False, type_weight: float | None = None) -> dict:
    """Train every method of ``methods`` on the task stream, one model per (method, seed), all batched.

    Methods are names of :data:`METHODS` or ``"l2p"`` (not mixable with the others in one call). Tasks come in
    the order colour, shape, direction, size; each task trains ``cfg.steps`` AdamW steps (one optimiser for the
    whole stream, as the official trainer) on mini-batches of that task only; after each task every model is
    tested on every task. ``joint=True`` instead trains once on all tasks mixed, for ``4 * cfg.steps`` steps
    (the multitask upper bound). ``type_weight`` multiplies L_P per sample (the official loader's
    1 / n_type; None = 1).

    Returns
    -------
    dict: ``acc`` (M, S, 4, 4) accuracy matrices (NaN above the diagonal; one row for ``joint``), ``selection``
    (M, S, 4) prompt-selection accuracy after each task, ``gate`` (M, S) final tanh(gate).
    """
    l2p = methods == ["l2p"]
    if not l2p and any(m not in METHODS for m in methods):
        raise ValueError(f"unknown method in {methods}; choose from {sorted(METHODS)} or ['l2p'] alone")
    M = len(methods)
    S, n_train = stream.train["task"].shape
    G = M * S
    gen = torch.Generator().manual_seed(int(init_seed))
    # one backbone draw per seed, shared by all methods of that seed (the same frozen "LLM" for every method)
    tr0, fr0 = init_models(S, stream.train["x"].shape[-1], stream.q_emb.shape[1], cfg, gen)
    train = {k: v.repeat((M,) + (1,) * (v.ndim - 1)).clone().requires_grad_(True) for k, v in tr0.items()}
    frozen = {k: v.repeat((M,) + (1,) * (v.ndim - 1)) for k, v in fr0.items()}
    qt = torch.einsum("gdk,nk->gnd", frozen["Wq"], torch.from_numpy(stream.q_emb))
    at = torch.einsum("gdk,nk->gnd", frozen["Wa"], torch.from_numpy(stream.a_emb))
    w = torch.tensor([METHODS[m] for m in methods] if not l2p else [(0.0, 0.0, 0.0, 0.0)], dtype=torch.float32)
    wq, wv, wp, shuf = (w[:, i].repeat_interleave(S) for i in range(4))
    relabel = torch.from_numpy(np.random.default_rng([int(init_seed), 7]).permutation(len(stream.q_emb)))
    opt = AdamW(list(train.values()), lr=cfg.lr, betas=(0.9, 0.95), weight_decay=cfg.weight_decay)
    rng = np.random.default_rng([int(init_seed), 99])
    stages = [np.arange(4)] if joint else [np.array([k]) for k in range(4)]
    acc = np.full((M, S, len(stages), 4), np.nan)
    sel = np.full((M, S, len(stages)), np.nan)
    task_all = stream.train["task"][0]
    for i, tasks in enumerate(stages):
        pool = np.flatnonzero(np.isin(task_all, tasks))
        n_steps = cfg.steps * len(tasks)
        for _ in range(n_steps):
            idx = pool[rng.integers(0, len(pool), size=(S, cfg.batch))]
            b = _gather(stream.train, idx, M)
            q_tok, a_tok, options = _tokens(b, qt, at)
            feat = forward_features(b["x"], q_tok, train, cfg.q_tokens)
            if l2p:
                feat["prompt"], _, pull = l2p_prompt(q_tok, train)
            q_target = torch.where(shuf[:, None] > 0, relabel[b["q"]], b["q"])
            losses = multi_directional_losses(feat, q_tok, a_tok, options, b["label"], q_target, qt, frozen, cfg)
            loss = losses["answer"] + wq * losses["question"] + wv * losses["video"]
            if l2p:
                loss = loss + cfg.pull_weight * pull
            elif float(wp.max()) > 0:
                task = b["task"]
                n_neg = int(tasks.max())  # tasks seen before the current one (joint: all other tasks)
                gi = torch.arange(G)[:, None]
                pos = train["E"][gi, task]
                if joint:
                    neg_ids = (task[..., None] + torch.arange(1, 4)) % 4
                else:
                    neg_ids = torch.arange(n_neg).expand(G, cfg.batch, n_neg)
                neg = train["E"][gi[..., None], neg_ids] if neg_ids.shape[-1] else train["E"].new_zeros(G, cfg.batch, 0, cfg.dim)
                tw = None if type_weight is None else torch.full((G, cfg.batch), float(type_weight))
                loss = loss + wp * cfg.tqcp_weight * tqcp_loss(feat["q_repr"], train["P"], pos, neg, cfg.neg_temp, tw)
            opt.zero_grad()
            loss.sum().backward()
            opt.step()
        a, s = evaluate(stream, train, frozen, qt, at, M, l2p, cfg, int(tasks.max()) + 1)
        acc[:, :, i, :] = a.reshape(M, S, 4)
        sel[:, :, i] = s.reshape(M, S)
    if not joint:
        acc = np.where(np.tril(np.ones((4, 4), dtype=bool)), acc, np.nan)
    return dict(acc=acc, selection=sel, gate=np.tanh(train["gate"].detach().numpy()).reshape(M, S))


def with_steps(cfg: Config, steps: int) -> Config:
    """``cfg`` with another number of steps per task."""
    return replace(cfg, steps=check_int(steps, "steps", least=1))
