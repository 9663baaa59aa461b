"""Tests of repro.textenc: the frozen MiniLM text tower, its offline load and the committed-embedding cache."""

import numpy as np
import pytest

from repro import textenc

pytestmark = pytest.mark.xdist_group("minilm")  # one worker loads the model once


def test_live_embeddings_are_unit_norm_384d_float32():
    emb = textenc.encode_live(["a photo of the digit 3", "a photo of a dog"])
    assert emb.shape == (2, textenc.DIM) and emb.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(emb, axis=1), 1.0, atol=1e-5)


def test_paraphrases_are_closer_than_unrelated_sentences():
    a, b, c = textenc.encode_live(["a small cat sleeping on a sofa", "a kitten napping on a couch",
                                   "interest rates rose in the bond market"])
    assert a @ b > a @ c + 0.3


def test_cache_round_trip_matches_the_live_model(tmp_path):
    texts = ["a photo of the digit 0", "a photo of the digit 1", "a sketch of the digit 1"]
    path = textenc.write_embedding_cache(texts, tmp_path / "p.npz")
    stored = textenc.read_embedding_cache(path)
    assert list(stored) == texts
    got = textenc.embed_texts(texts[::-1], cache=path)
    np.testing.assert_array_equal(got, np.stack([stored[t] for t in texts[::-1]]))
    assert textenc.check_embedding_cache(path) < 1e-5
    np.testing.assert_allclose(textenc.embed_texts(texts, cache=path, live=True), got[::-1], atol=1e-5)


def test_missing_text_names_the_fix(tmp_path):
    path = textenc.write_embedding_cache(["one prompt"], tmp_path / "p.npz")
    with pytest.raises(KeyError, match="python -m repro.textenc write"):
        textenc.embed_texts(["one prompt", "another prompt"], cache=path)


@pytest.mark.parametrize("texts, err", [([], ValueError), ("a string", TypeError), (["ok", ""], ValueError),
                                        (["ok", 3], ValueError)])
def test_bad_texts(texts, err):
    with pytest.raises(err):
        textenc.embed_texts(texts)


def test_duplicates_refused(tmp_path):
    with pytest.raises(ValueError, match="duplicates"):
        textenc.write_embedding_cache(["a", "a"], tmp_path / "p.npz")
