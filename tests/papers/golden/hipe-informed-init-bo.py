"""Generate hipe-informed-init-bo.json by running the installed BoTorch community code (botorch 0.18.1).

Usage: .venv/bin/python tests/papers/golden/hipe-informed-init-bo.py cd0249c60b2a81af0d91b5e7d462ef6f574fceec
(the argument is the commit of meta-pytorch/botorch tag v0.18.1, the installed version; that the installed files
equal the tag's was not verified, so the sha256 of each installed file is stored in the json).
Calls the official classes; copies none of their code. Deterministic: rerunning it reproduces the json.
"""
import hashlib, importlib, json, sys
import numpy as np, torch
from scipy.stats import qmc
import botorch
import botorch.models.fully_bayesian as _fb
_fb._check_jax_available = lambda: None  # JAX is only needed by NUTS, which is not run
_fb.jnp = np  # set_inputs keeps a JAX copy of the data for NUTS only
from botorch.models.fully_bayesian import FullyBayesianSingleTaskGP
from botorch.sampling.normal import SobolQMCNormalSampler
from botorch.acquisition.bayesian_active_learning import qBayesianActiveLearningByDisagreement
import botorch_community.acquisition.bayesian_active_learning as CBAL
from botorch_community.acquisition.bayesian_active_learning import (
    qExpectedPredictiveInformationGain, qConditionalHyperparameterInformationGain,
    qHyperparameterInformedPredictiveExploration)
from gpytorch.kernels import RBFKernel
from pathlib import Path
from repro.papers import hipe_informed_init_bo as K

torch.set_default_dtype(torch.float64)
d, J, q, B, M, noise = 2, 4, 3, 4, 32, 1e-3
L = K.hyper_prior_samples(d, J, 1)
X_star = qmc.Sobol(d, scramble=True, seed=0).random(M)
batches = qmc.Sobol(q * d, scramble=True, seed=1).random(B).reshape(B, q, d)
single = batches[:, :1, :]

# D = {} emulated by one training point far outside the cube (kernel value < 1e-20 for every theta)
far = torch.full((1, d), 100.0)
model = FullyBayesianSingleTaskGP(far, torch.zeros(1, 1))
model.load_mcmc_samples({"mean": torch.zeros(J), "noise": torch.full((J,), noise),
                         "lengthscale": torch.as_tensor(L)[:, None, :]})
rbf = RBFKernel(ard_num_dims=d, batch_shape=torch.Size([J]))
rbf.lengthscale = torch.as_tensor(L)[:, None, :]
model.covar_module = rbf  # our surrogate: RBF, output scale 1 (the official model is Matern-5/2 with scale)
Xs_t = torch.as_tensor(X_star)
Xb = torch.as_tensor(batches)
out = {}
with torch.no_grad():
    out["tsig"] = qExpectedPredictiveInformationGain(model, Xs_t)(Xb).tolist()
    torch.manual_seed(0)
    chig = qConditionalHyperparameterInformationGain(
        model, Xs_t, sampler=SobolQMCNormalSampler(torch.Size([4096]), seed=0))
    out["chig"] = chig(Xb).tolist()
    bald = qBayesianActiveLearningByDisagreement(model, sampler=SobolQMCNormalSampler(torch.Size([8192]), seed=0))
    out["bald"] = bald(Xb).tolist()
    out["bald_single_point"] = bald(torch.as_tensor(single)).tolist()
    hipe = qHyperparameterInformedPredictiveExploration(
        model, Xs_t, bounds=torch.tensor([[0.0] * d, [1.0] * d]),
        sampler=SobolQMCNormalSampler(torch.Size([8192]), seed=0))
    hipe._tuning_factor, hipe._tuning_factor_q = 0.5, q
    out["hipe_beta_0.5"] = hipe(Xb).tolist()
    # the official beta rule itself: _compute_tuning_factor(q) draws its 32 Sobol batches with
    # draw_sobol_samples (recorded here so that our tuned_beta sees the same batches) and takes the max of
    # qConditionalHyperparameterInformationGain with the acquisition's sampler (4096 QMC draws instead of 128)
    drawn = []
    _orig = CBAL.draw_sobol_samples
    CBAL.draw_sobol_samples = lambda *a, **kw: drawn.append(_orig(*a, **kw)) or drawn[-1]
    torch.manual_seed(0)
    rule = qHyperparameterInformedPredictiveExploration(
        model, Xs_t, bounds=torch.tensor([[0.0] * d, [1.0] * d]),
        sampler=SobolQMCNormalSampler(torch.Size([4096]), seed=0))
    rule._compute_tuning_factor(q)
    CBAL.draw_sobol_samples = _orig
    out["beta_rule"] = float(rule._tuning_factor)
    beta_batches = drawn[0].numpy()
    assert beta_batches.shape == (rule.num_beta_tuning_samples, q, d) == (32, q, d)
ours = dict(tsig=K.epig_batch(batches, X_star, L, None, noise).tolist(),
            chig=K.conditional_hyper_information(batches, X_star, L, None, noise).tolist(),
            bald=K.hyper_bald_batch(batches, L, None, noise, n_mc=4096).tolist(),
            beta_rule=K.tuned_beta(beta_batches, X_star, L, None, noise))
print(json.dumps(out, indent=0)); print(json.dumps(ours, indent=0))
FILES = ["botorch_community/acquisition/bayesian_active_learning.py",
         "botorch/acquisition/bayesian_active_learning.py", "botorch/models/fully_bayesian.py"]
golden = {
    "slug": "hipe-informed-init-bo",
    "repository": "https://github.com/meta-pytorch/botorch",
    "commit": sys.argv[1],
    "files": FILES,
    "sha256_installed": {f: hashlib.sha256(Path(importlib.import_module(f[:-3].replace("/", ".")).__file__)
                                          .read_bytes()).hexdigest() for f in FILES},
    "how": {"interpreter": f"/work/main/.venv/bin/python (Python 3.11), botorch {botorch.__version__} "
                           f"and botorch_community as installed from the registry, torch {torch.__version__}, float64",
            "stubs": "JAX not installed: botorch.models.fully_bayesian._check_jax_available replaced by a no-op and its jnp by numpy (used only to keep a copy of the data for NUTS, which is not run); FullyBayesianSingleTaskGP with hyperparameters loaded by load_mcmc_samples (mean 0, noise "
                     "1e-3, our J lengthscale vectors) and its Matern-5/2 covar_module replaced by a batched "
                     "gpytorch RBFKernel (output scale 1), our surrogate; no data is emulated by one training "
                     "point at (100, 100), where every kernel value is below 1e-20",
            "run": "tests/papers/golden/hipe-informed-init-bo.py calls the official classes directly (botorch 0.18.1 as installed; sha256 of the installed files in sha256_installed, not compared with the tag); qExpectedPredictiveInformationGain (TSIG), "
                   "qConditionalHyperparameterInformationGain (4096 QMC samples), the beta rule "
                   "qHyperparameterInformedPredictiveExploration._compute_tuning_factor(q) itself (its own 32 "
                   "draw_sobol_samples batches after torch.manual_seed(0), recorded as inputs.beta_batches; "
                   "sampler 4096 QMC samples), qBayesianActiveLearningByDisagreement (8192 QMC samples), and "
                   "qHyperparameterInformedPredictiveExploration.forward with _tuning_factor fixed at 0.5"},
    "inputs": {"d": d, "J": J, "q": q, "noise_var": noise, "lengthscales": L.tolist(),
               "X_star": X_star.tolist(), "batches": batches.tolist(), "beta": 0.5,
               "beta_batches": beta_batches.tolist()},
    "cases": [
        {"name": "tsig", "function": "epig_batch", "input": "batches, X_star, lengthscales, noise_var",
         "output": out["tsig"], "ours": ours["tsig"], "tol": {"abs": 1e-9, "why": "closed form both sides"}},
        {"name": "conditional-hyper-information", "function": "conditional_hyper_information",
         "input": "batches, X_star, lengthscales, noise_var", "output": out["chig"], "ours": ours["chig"],
         "tol": {"abs": 3e-3, "why": "official: 4096 QMC draws per component; ours: deterministic quadrature"}},
        {"name": "beta-rule", "function": "tuned_beta",
         "input": "beta_batches (the 32 Sobol batches the official _compute_tuning_factor drew), X_star, "
                  "lengthscales, noise_var",
         "output": out["beta_rule"], "ours": ours["beta_rule"],
         "tol": {"abs": 3e-3, "why": "official: max over 32 batches of a 4096-draw QMC estimate; ours: "
                                     "deterministic quadrature; the max adds a small upward selection bias"}},
        {"name": "bald", "function": "hyper_bald_batch", "input": "batches, lengthscales, noise_var, n_mc=4096",
         "output": out["bald"], "ours": ours["bald"],
         "tol": {"abs": 0.01, "why": "MC mixture entropies: official 8192 QMC draws, ours 4096 per component"}},
        {"name": "bald-single-point", "function": "hyper_bald_batch", "input": "batches[:, :1], unit output scale",
         "output": out["bald_single_point"], "ours": K.hyper_bald_batch(single, L, None, noise, n_mc=64).tolist(),
         "tol": {"abs": 1e-9, "why": "exactly 0: with output scale 1 a single point's law does not depend on theta"}},
        {"name": "hipe-forward-beta-0.5", "function": "hipe_score", "input": "batches, X_star, lengthscales, beta=0.5",
         "output": out["hipe_beta_0.5"],
         "ours": K.hipe_score(batches, X_star, L, None, noise, 0.5, n_mc=4096).tolist(),
         "tol": {"abs": 0.006, "why": "TSIG exact, plus 0.5 x the BALD MC error"}},
    ],
}
json.dump(golden, open(Path(__file__).with_suffix(".json"), "w"), indent=1)
