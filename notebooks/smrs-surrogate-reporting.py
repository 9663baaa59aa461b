# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # SMRS: a reporting standard for surrogate models, applied and checked
#
# *A surrogate model is only as trustworthy as the record of how it was sampled, fitted, evaluated and
# used; we make such a record executable, fill it from two real surrogates, and test what it states.*

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
import copy
import warnings

import matplotlib.pyplot as plt
import numpy as np
from IPython.display import Markdown, display
from myst_nb import glue

from repro.claims import Claims, at_most, between, is_true, less_than, tolerance
from repro.papers import smrs_surrogate_reporting as K
from repro.runtime import progress, setup_notebook

P = setup_notebook(scale, seed, presets={
    # about 10 s on one thread: GP on 200 (Ishigami) and 100 (Robertson) LHS points
    "ci": dict(ish_train=200, ish_test=1000, rob_train=100, rob_test=300, fresh_test=2000, n_base=2**13,
               rob_ref_base=2**9, sobol_tol=0.08, curve_n=(50, 100, 200), curve_reps=2),
    # a few minutes: the brief's 500 points for Ishigami, larger held-out sets and Sobol samples
    "full": dict(ish_train=500, ish_test=5000, rob_train=200, rob_test=2000, fresh_test=10000, n_base=2**15,
                 rob_ref_base=2**13, sobol_tol=0.05, curve_n=(50, 100, 200, 400), curve_reps=5),
})
claims = Claims("smrs-surrogate-reporting",
                title="SMRS: advocating a unified reporting standard for surrogate models in the artificial intelligence era",
                authors="Elizaveta Semenova, Alisa Sheinkman, Timothy James Hitge, Siobhan Mackenzie Hall, Jon Cockayne",
                paper_url="https://arxiv.org/abs/2502.06753", scale=scale, seed=seed)
SEEDS = [int(s) for s in np.random.SeedSequence(seed).generate_state(12)]  # every seed of the run, recorded in the reports
A_ISH, B_ISH = 7.0, 0.1
ACCEPT = {"max_nrmse": 0.2, "coverage_window": [0.85, 1.0], "sobol_tol": P.sobol_tol}  # fixed before the first run
LONG_LS = {"constant": 1.0, "length_scale": [2.0, 2.0, 2.0]}  # a GP whose length scales are fixed far too long

# %% [markdown]
# ## The claim
#
# Surrogates (emulators, metamodels) stand in for expensive simulators in design, calibration and
# sensitivity analysis. The paper is a position paper: it reviews how surrogate studies are reported,
# finds the reporting fragmented (it surveys 17 studies and discusses case studies), and argues for a
# *Surrogate Model Reporting Standard* (SMRS), a light, model-agnostic checklist of what every study
# should record: where the data come from, how the inputs were sampled, which model and assumptions were
# chosen, how it was trained, how it was evaluated, how its uncertainty was quantified, and what
# downstream analysis it fed. The paper reports no numbers. Its claim is an argument (a standard would make
# surrogate studies reproducible and comparable), which no computation can prove.
#
# What a computation *can* do is show the standard working as a piece of software: a schema, a validator,
# a pipeline that emits the report while it builds the surrogate, a replayer that rebuilds the surrogate
# from the report alone, and checks of what a filled report states. That is this page. It tests two
# kinds of statement: that our implementation of the standard behaves as a standard must (complete
# reports validate, incomplete ones do not, a report suffices to reproduce its numbers), and that the
# numbers a real report states are true (held-out error, coverage of its intervals, sensitivity indices
# against known values). The second kind can fail, and the controls below are surrogates for which it
# should.
#
# ## The method
#
# **The standard, as a schema.** We read the paper's sections into eight report sections with typed
# fields (`K.SMRS_SCHEMA`): *provenance* (simulator and its parameters, input distribution, output),
# *sampling* (design, size, seed), *model* (family, assumptions, kernel, fitted hyperparameters), *learning*
# (objective, optimiser, restarts, seed, software versions), *evaluation* (held-out design, size, seed,
# RMSE, normalised RMSE, $Q^2$), *uncertainty* (interval rule, level, its half-width factor $z$, measured
# coverage and width), *downstream* (Sobol indices of the surrogate, their estimator, sample size and seed,
# and a reference), and *acceptance* (the thresholds the study commits to before the run). The field list
# is ours, built from the sections the paper's abstract and its summaries name. The paper's full text (arXiv
# HTML, version 3) is in the stored corpus we search, but our searches returned only its opening (abstract and
# introduction), never its template, so we cannot map our fields to the paper's or say which of its fields our
# report lacks.
#
# **Surrogate.** A Gaussian process with a constant times Matérn-5/2 kernel and one length scale per input
# (scikit-learn, outputs normalised, nugget $10^{-8}$), hyperparameters by maximum marginal likelihood with
# two random restarts. Predictive mean $\mu(u)$ and standard deviation $\sigma(u)$; the 95% interval is
# $\mu\pm1.96\,\sigma$.
#
# **Evaluation.** On an independent held-out sample: $\mathrm{RMSE}$, the normalised
# $\mathrm{nRMSE}=\mathrm{RMSE}/\mathrm{sd}(y)$ and $Q^2=1-\mathrm{nRMSE}^2$; coverage is the share of
# held-out outputs inside the interval.
#
# **Downstream analysis: Sobol indices.** For independent inputs,
# $S_i=\mathrm{Var}(\mathbb E[f\mid x_i])/\mathrm{Var} f$ (first order) and
# $S_{T_i}=\mathbb E[\mathrm{Var}(f\mid x_{\sim i})]/\mathrm{Var} f$ (total). We estimate both *on the
# surrogate's mean* by the pick-freeze scheme on a scrambled Sobol' sequence, $n(d+2)$ evaluations:
# $\hat V_i=\frac1n\sum_j f(B)_j\,(f(A_B^{(i)})_j-f(A)_j)$ (Saltelli 2010) and
# $\hat V_{T_i}=\frac1{2n}\sum_j(f(A)_j-f(A_B^{(i)})_j)^2$ (Jansen 1999).
#
# **Simulators.** (1) The Ishigami function $f(x)=\sin x_1+a\sin^2x_2+b\,x_3^4\sin x_1$, $a=7$, $b=0.1$,
# $x\sim U[-\pi,\pi]^3$, whose indices are known in closed form (`K.ishigami_sobol_indices`):
# $V=\frac{a^2}8+\frac{b\pi^4}5+\frac{b^2\pi^8}{18}+\frac12$, $V_1=\frac12(1+\frac{b\pi^4}5)^2$, $V_2=\frac{a^2}8$,
# $V_3=0$, $V_{13}=\frac{8b^2\pi^8}{225}$, so $S=(0.314, 0.442, 0)$ and $S_T=(0.558, 0.442, 0.244)$. (2) Robertson's
# stiff chemical kinetics ($A\to B$, $2B\to B+C$, $B+C\to A+C$, stiffness ratio about $10^{11}$), the
# brief's second simulator: inputs are the three rate constants, log-uniform over one decade either side
# of Robertson's $(0.04,\ 3\cdot10^7,\ 10^4)$, and the output is the product fraction $y_3$ at $t=40$,
# computed by our batched variable-step BDF2 solver (200 steps; within $5\cdot10^{-4}$ of a tight Radau
# solution, unit-tested). Its Sobol indices have no closed form; the reference is a Monte Carlo of the
# same estimator on the simulator itself.
#
# ## The experiment
#
# For each simulator we write a protocol (the report before the run), run the pipeline, which fills the
# report (`K.run_report`), render the report, and check what it states. Sizes: Ishigami 200 LHS training
# points at ci, 500 at full; Robertson 100 and 200; held-out sets of 1000/5000 (Ishigami) and 300/2000
# (Robertson) iid points; Sobol base samples $n=2^{13}$ (ci) and $2^{15}$ (full) on the surrogate, and
# $2^9$ and $2^{13}$ on the Robertson simulator for its reference. Every seed is derived from the notebook's
# seed and written into the report.
#
# **Comparators.** A *linear model* (least squares with the classical predictive interval), which cannot
# represent either simulator's curvature; the *same GP's $\pm1\sigma$ band reported as a 95% interval*, a
# reporting error the uncertainty section should catch; the *training error reported as if it were
# held-out*; and, in the rendered Ishigami report only, a GP whose length scales are fixed at twice the
# width of the input box. A skeptic's naive surrogates (a quadratic response surface, the input-blind
# constant, and Sobol indices computed on the simulator with the training budget) are measured in
# "What a skeptic would try".
#
# **Roles of the checks.** The paper makes no numerical claim, so none of the checks below is a test of it,
# and none is counted: the page is *illustrated, not tested*. The acceptance thresholds are the ones the
# reports commit to, fixed before the first run: $\mathrm{nRMSE}\le0.2$ ($Q^2\ge0.96$, a common
# fit-for-purpose level; the brief gives none), 95% coverage in $[0.85,1]$ (the brief), Sobol errors at most
# $0.08$ at ci and $0.05$ at full (the brief, which asks this of $S_1$ and $S_2$; we ask it of every
# first-order and every total index). For each simulator, as illustrations of what a filled report states
# (each a property of our Gaussian-process surrogate, not of the standard):
#
# 1. *held-out error* (`*-nrmse`): the surrogate's held-out nRMSE $\le0.2$.
# 2. *coverage* (`*-coverage`): its 95% interval covers a share in $[0.85,1]$ of the held-out outputs.
# 3. *Sobol, first order* (`*-sobol-first`): $\max_i|\hat S_i-S_i^{\rm ref}|\le$ tol, the indices computed on
#    the surrogate; reference analytic (Ishigami) or a Monte Carlo on the simulator (Robertson).
# 4. *Sobol, total* (`*-sobol-total`): the same for $S_{T_i}$.
# 5. *the reported error replicates* (`*-error-replicates`): the ratio of the reported nRMSE to the nRMSE
#    on a fresh, independent held-out sample (2000 points at ci, 10000 at full) lies in $[0.8,1.25]$.
# 6. *the 50% interval* (`*-calibration-50`): it covers a share in $[0.4,0.6]$ (added after the first run).
#
# Two checks of our implementation are listed apart (identities of our own code): the replayer reproduces
# every number of both reports from their JSON text alone to within $10^{-12}$ (the brief's
# $|\Delta|<10^{-12}$), and the validator flags each of three deliberately incomplete reports and nothing in
# the complete ones. Until the claim-model review these twelve illustrations were counted tests; the
# review found that they measure our surrogate, not the paper, and that several are met by a naive one.
#
# **Deviations from the paper**
#
# * The paper proposes a standard in prose; the schema, its field names and types, the validator, the
#   acceptance section and the replayer are ours, built from the sections the brief lists (data
#   provenance, sampling design, model assumptions, learning method, evaluation, uncertainty
#   quantification, downstream analysis). The paper's own template was searched for in its stored full text
#   but not retrieved (only the opening came back), so our fields are not mapped to it.
# * The paper reviews 17 published studies; we apply the standard to two toy studies of our own. Nothing here
#   measures what the paper argues for (adoption, cross-domain transfer, better science).
# * The acceptance threshold on nRMSE (0.2) is our choice; the brief gives none. The Sobol tolerance is
#   applied to all three first-order and all three total indices, where the brief named $S_1$ and $S_2$.
# * Robertson's kinetics are solved by our variable-step BDF2 on a fixed geometric grid of 200 steps (second
#   order, $\approx5\cdot10^{-4}$ from Radau),
#   so that each input is integrated on its own, deterministically and in a vectorised batch; its input
#   ranges (one decade per rate constant) and output ($y_3$ at $t=40$) are our choices. The brief put it at
#   full scale only; it runs at both scales here, smaller at ci.
# * Held-out sets are iid uniform draws, training designs LHS; the brief's LHS-against-iid comparison is a
#   figure (learning curves), not a claim.
# * The report is a Python dict rendered as a table and round-tripped through JSON text; no file
#   `smrs_report.json` is written (the book keeps its outputs in the executed page).
# * Changes after the first run. (i) At full scale the GP's amplitude ended at the upper bound of its
#   search box (1000), so we widened the bounds to $10^6$ (amplitude) and $10^3$ (length scales). This
#   is a fix of the fit; no criterion moved, and ci results did not change. (ii) We added the two checks of the
#   50% interval when the first run showed the coverage check passing intervals that are too wide.
#   (iii) In the claim-model review every check became an illustration or an implementation check, and the
#   skeptic's naive surrogates were added as measurements; no threshold moved. (iv) After the independent
#   review, the degree-4 and degree-6 polynomials, the given-data estimator and a replay that refits the
#   hyperparameters were added as measurements; no check, role or threshold changed.

# %%
S_ISH, V_ISH = K.ishigami_sobol_indices(A_ISH, B_ISH)
ST_ISH = K.ishigami_total_indices(A_ISH, B_ISH)
ish = dict(simulator="ishigami", simulator_params={"a": A_ISH, "b": B_ISH}, n_train=P.ish_train, train_seed=SEEDS[0],
           n_test=P.ish_test, test_seed=SEEDS[1], n_base=P.n_base, sobol_seed=SEEDS[2], reference_kind="analytic",
           reference_first_order=S_ISH, reference_total=ST_ISH, acceptance=ACCEPT, learn_seed=SEEDS[3])
R = {}  # every filled report, by name
R["Ishigami, GP"], gp_ish = K.run_report(K.make_protocol(**ish))
R["Ishigami, linear"], lin_ish = K.run_report(K.make_protocol(**ish, family="linear"))
R["Ishigami, GP +-1 sd as 95%"], _ = K.run_report(K.make_protocol(**ish, z=1.0))
R["Ishigami, GP long length scales"], gp_long = K.run_report(
    K.make_protocol(**ish, learn_hyperparameters=False, hyperparameters=LONG_LS))
print(f"Ishigami: V = {V_ISH:.4f}, S = {np.round(S_ISH, 4)}, S_T = {np.round(ST_ISH, 4)}")

# %% [markdown]
# The Robertson reference indices come from a Monte Carlo on the simulator itself (its own seed), then the
# same four reports.

# %%
S_ROB, ST_ROB, _ = K.sobol_indices(lambda U: K.simulate("robertson", U, {"span": 1.0, "t_end": 40.0, "n_steps": 200}),
                                   3, P.rob_ref_base, SEEDS[4])
rob = dict(simulator="robertson", simulator_params={"span": 1.0, "t_end": 40.0, "n_steps": 200}, n_train=P.rob_train,
           train_seed=SEEDS[5], n_test=P.rob_test, test_seed=SEEDS[6], n_base=P.n_base, sobol_seed=SEEDS[7],
           reference_kind=f"Monte Carlo on the simulator (n = {P.rob_ref_base}, seed {SEEDS[4]})",
           reference_first_order=S_ROB, reference_total=ST_ROB, acceptance=ACCEPT, learn_seed=SEEDS[8])
R["Robertson, GP"], gp_rob = K.run_report(K.make_protocol(**rob))
R["Robertson, linear"], lin_rob = K.run_report(K.make_protocol(**rob, family="linear"))
R["Robertson, GP +-1 sd as 95%"], _ = K.run_report(K.make_protocol(**rob, z=1.0))
print(f"Robertson reference (MC on the simulator): S = {np.round(S_ROB, 3)}, S_T = {np.round(ST_ROB, 3)}")

# %% [markdown]
# ## Results
#
# **What the paper reports, beside ours.** The paper has no numerical results to set beside ours:
#
# | setting | the paper | this page |
# |---|---|---|
# | numbers reported | none (a position paper) | the claims table below |
# | evidence | a review of 17 published surrogate studies, whose reporting it finds fragmented, and case studies | two surrogate studies of our own (Ishigami, Robertson), reported and checked |
# | the standard | sections for data, sampling, model, learning, evaluation, uncertainty, downstream analysis | eight typed sections (`K.SMRS_SCHEMA`), with a validator, an emitting pipeline and a replayer |
#
# ### The reports, as the standard asks
#
# Every cell below is filled by `K.render_report` from the report dicts the pipeline emitted; nothing is
# typed by hand. The last four rows are the report's own acceptance checks. Ishigami first, with the two
# misspecified surrogates and the miscalibrated interval beside the GP:

# %%
display(Markdown(K.render_report({k: R[k] for k in R if k.startswith("Ishigami")})))

# %% [markdown]
# Robertson's kinetics:

# %%
display(Markdown(K.render_report({k: R[k] for k in R if k.startswith("Robertson")})))

# %% [markdown]
# ### Sobol indices: surrogate against reference
#
# The downstream analysis the reports carry. Bars: the reference (analytic for Ishigami, a Monte Carlo on
# the simulator for Robertson), the GP surrogate's indices, and the linear control's.

# %%
fig, axes = plt.subplots(2, 2, figsize=(11, 6.5), sharey=True)
for col, (name, ref_S, ref_T, ref_label) in enumerate(
        [("Ishigami", S_ISH, ST_ISH, "analytic"), ("Robertson", S_ROB, ST_ROB, f"MC on simulator, n={P.rob_ref_base}")]):
    for row, (key, ref) in enumerate([("first_order", ref_S), ("total", ref_T)]):
        ax = axes[row, col]
        xs = np.arange(3)
        bars = [(ref, ref_label, "0.3"), (R[f"{name}, GP"]["downstream"][key], "GP surrogate", "C0"),
                (R[f"{name}, linear"]["downstream"][key], "linear control", "C3")]
        for j, (vals, lab, colr) in enumerate(bars):
            ax.bar(xs + (j - 1) * 0.27, vals, 0.27, label=lab, color=colr)
        ax.set_xticks(xs, ["$x_1$", "$x_2$", "$x_3$"] if name == "Ishigami" else ["$k_1$", "$k_2$", "$k_3$"])
        ax.set_ylabel("first-order index $S_i$" if key == "first_order" else "total index $S_{T_i}$")
        ax.set_title(f"{name}: {'first-order' if key == 'first_order' else 'total'} Sobol indices")
        ax.set_ylim(0, 1.05)
axes[0, 0].legend(loc="upper right", fontsize=8)
axes[0, 1].legend(loc="upper right", fontsize=8)
plt.show()

# %% [markdown]
# ### Does the uncertainty section tell the truth? Coverage at every level
#
# Empirical coverage of the central predictive intervals on the held-out points against their nominal
# level: on the diagonal an interval means what it says. The dashed curve is the same GP with its band
# shrunk to $\pm1\sigma$ at the 95% level (every level's $z$ divided by $1.96$), the miscalibrated control.

# %%
levels = np.linspace(0.05, 0.99, 40)
fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
for ax, (name, models) in zip(axes, [("Ishigami", [(gp_ish, "GP"), (lin_ish, "linear control"), (gp_long, "GP, long length scales")]),
                                      ("Robertson", [(gp_rob, "GP"), (lin_rob, "linear control")])]):
    r = R[f"{name}, GP"]
    Ut = K.design("iid", r["evaluation"]["n_test"], 3, r["evaluation"]["test_seed"])
    yt = K.simulate(r["provenance"]["simulator"], Ut, r["provenance"]["simulator_params"])
    for i, (m, lab) in enumerate(models):
        mu, sd = m.predict(Ut, return_std=True)
        ax.plot(levels, K.coverage_curve(yt, mu, sd, levels), color=f"C{[0, 3, 2][i]}", label=lab)
        if i == 0:
            ax.plot(levels, K.coverage_curve(yt, mu, sd, levels, z_scale=1 / 1.96), "--", color="C0",
                    label="GP, band shrunk to $\\pm1\\sigma$ at 95%")
    ax.plot([0, 1], [0, 1], ":", color="0.4", label="nominal")
    ax.axhspan(0.85, 1.0, xmin=0.93, color="0.85", zorder=0, label="acceptance window at 95%")
    ax.set(xlabel="nominal level of the central interval", ylabel="empirical coverage on held-out points",
           title=f"{name} (n_test = {len(yt)})", xlim=(0, 1), ylim=(0, 1.02))
    ax.legend(fontsize=8, loc="upper left")
plt.show()

# %% [markdown]
# ### The sampling section matters: held-out error against training size
#
# The brief's comparison of sampling designs, on Ishigami: a fresh GP for each training size, LHS against
# iid uniform designs, several independent designs per point (line: median; band: min to max over the
# replicate designs). The dotted line is the acceptance threshold of the reports.

# %%
Ut_c = K.design("iid", P.ish_test, 3, SEEDS[9])
yt_c = K.simulate("ishigami", Ut_c)
curve = {kind: np.zeros((len(P.curve_n), P.curve_reps)) for kind in ("lhs", "iid")}
jobs = [(kind, a, n, r) for kind in curve for a, n in enumerate(P.curve_n) for r in range(P.curve_reps)]
n_warned = 0
for kind, a, n, r in progress(jobs, total=len(jobs), desc="learning curves"):
    Uc = K.design(kind, n, 3, SEEDS[10] + 1000 * r + n)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g = K.fit_gp(Uc, K.simulate("ishigami", Uc), n_restarts=0, seed=SEEDS[11])
    n_warned += bool(caught)
    mu, sd = g.predict(Ut_c, return_std=True)
    curve[kind][a, r] = K.heldout_metrics(yt_c, mu, sd)["nrmse"]
fig, ax = plt.subplots(figsize=(6, 4))
for kind, colr in (("lhs", "C0"), ("iid", "C1")):
    ax.plot(P.curve_n, np.median(curve[kind], 1), "o-", color=colr, label=f"{kind.upper()} design")
    ax.fill_between(P.curve_n, curve[kind].min(1), curve[kind].max(1), color=colr, alpha=0.25)
ax.axhline(ACCEPT["max_nrmse"], ls=":", color="0.3", label="acceptance threshold")
ax.set(xscale="log", yscale="log", xlabel="training points n", ylabel="held-out nRMSE (RMSE / sd of y)",
       title=f"Ishigami GP, {P.curve_reps} designs per point")
ax.set_xticks(P.curve_n, [str(n) for n in P.curve_n])
ax.set_xticks([], minor=True)
ax.set_yticks([0.05, 0.1, 0.2, 0.4, 0.8], ["0.05", "0.1", "0.2", "0.4", "0.8"])
ax.set_yticks([], minor=True)
ax.legend()
plt.show()
print(f"{n_warned} of {len(jobs)} fits ended with an optimiser warning (kept as they are)")

# %% [markdown]
# ### Checking what the reports state
#
# Three more measurements that no report field can supply by itself: the replay from JSON text, the
# validator on incomplete reports, and the reported error against a fresh held-out sample.

# %%
# 1. replay: rebuild each GP report from its JSON text alone and recompute every number
replay = {k: K.metrics_discrepancy(K.build_surrogate_from_report(K.json_roundtrip(R[k]))[1], K.report_metrics(R[k]))
          for k in ("Ishigami, GP", "Robertson, GP")}
# control: the report without its training seed; the replayer has to draw some other design (seed + 1)
no_seed = copy.deepcopy(R["Ishigami, GP"])
no_seed["sampling"]["seed"] += 1
replay_ctrl = K.metrics_discrepancy(K.build_surrogate_from_report(no_seed)[1], K.report_metrics(R["Ishigami, GP"]))
# a skeptic's replay: ignore the stored hyperparameters and re-run the optimiser from the recorded learning seed
replay_refit = {}
for k in ("Ishigami, GP", "Robertson, GP"):
    r_ = K.json_roundtrip(R[k])
    with warnings.catch_warnings(record=True):  # the optimiser's convergence notes, as in the original fit
        warnings.simplefilter("always")
        m_ = K._fit_from_section(r_, *K._train(r_), replay=False)
    replay_refit[k] = K.metrics_discrepancy(K._evaluate(r_, m_), K.report_metrics(R[k]))
print("replay from JSON:", replay, "; refit without the stored hyperparameters:", replay_refit)

# 2. validator: three deliberately incomplete or ill-typed reports, and the complete one
broken = [copy.deepcopy(R["Ishigami, GP"]) for _ in range(3)]
del broken[0]["sampling"]["seed"]                               # no seed for the design
broken[1]["model"]["hyperparameters"] = "fitted by ML"            # hyperparameters not stated
del broken[2]["uncertainty"]                                     # no uncertainty section at all
flags = [K.validate_report(b) for b in broken]
complete_flags = [p for k in R for p in K.validate_report(R[k])]
for b, f in zip(("no seed", "untyped hyperparameters", "no uncertainty section"), flags):
    print(f"{b:>26}: {f}")
print(f"{'complete reports':>26}: {complete_flags}")


# 3. the reported held-out error against a fresh independent sample
FRESH_SEED = {"Ishigami": SEEDS[9] + 1, "Robertson": SEEDS[9] + 2}


def fresh_nrmse(report, model, seed_):
    pv = report["provenance"]
    U = K.design("iid", P.fresh_test, 3, seed_)
    y = K.simulate(pv["simulator"], U, pv["simulator_params"])
    mu, sd = model.predict(U, return_std=True)
    return K.heldout_metrics(y, mu, sd)["nrmse"]


def train_nrmse(report, model):
    U, y = K._train(report)
    mu, sd = model.predict(U, return_std=True)
    return K.heldout_metrics(y, mu, sd)["nrmse"]


def coverage_at(report, model, level, z_scale=1.0):
    ev, pv = report["evaluation"], report["provenance"]
    U = K.design(ev["test_design"], ev["n_test"], 3, ev["test_seed"])
    mu, sd = model.predict(U, return_std=True)
    return float(K.coverage_curve(K.simulate(pv["simulator"], U, pv["simulator_params"]), mu, sd, [level], z_scale)[0])


cov50 = {name: (coverage_at(R[f"{name}, GP"], g, 0.5), coverage_at(R[f"{name}, GP"], g, 0.5, z_scale=2.0))
         for name, g in (("Ishigami", gp_ish), ("Robertson", gp_rob))}
print("coverage of the 50% interval (GP; GP with the interval doubled):",
      {k: tuple(round(v, 3) for v in c) for k, c in cov50.items()})

ratio, ratio_ctrl = {}, {}
for name, model in (("Ishigami", gp_ish), ("Robertson", gp_rob)):
    r = R[f"{name}, GP"]
    fresh = fresh_nrmse(r, model, FRESH_SEED[name])
    ratio[name] = r["evaluation"]["metrics"]["nrmse"] / fresh
    ratio_ctrl[name] = train_nrmse(r, model) / fresh
    print(f"{name}: reported nRMSE {r['evaluation']['metrics']['nrmse']:.4f}, fresh {fresh:.4f}, "
          f"ratio {ratio[name]:.3f}; training-set nRMSE / fresh = {ratio_ctrl[name]:.2e}")

# %% [markdown]
# ### What a skeptic's naive surrogates report
#
# The same measurements, on the same training designs, held-out sets, fresh samples and Sobol recipes, for
# the surrogates a skeptic fits before a Gaussian process (their settings by a fixed rule, no tuning): the
# classical second-order response surface (a full quadratic polynomial by least squares, 10 terms, with the
# classical predictive interval; `K.PolynomialSurrogate`); polynomials of total degree 4 and 6 fitted the same
# way on both simulators (35 and 84 terms, a polynomial-chaos-style least-squares fit; the two degrees the
# independent skeptic named); the input-blind constant (the training mean, with the spread of the training
# outputs as its interval; `K.ConstantSurrogate`); and, for the Sobol indices, no surrogate at all, twice: the
# same pick-freeze estimator run on the simulator with the training budget (the largest base size $n=2^k$ with
# $n(d+2)$ at most the number of training runs), and the given-data estimator of the first-order indices on the
# training points themselves (`K.given_data_first_order`: the correlation ratio over equal-width bins of each
# input, the number of bins by Sturges' rule $\lceil\log_2 n\rceil+1$; no new simulator runs).

# %%
def naive_measures(name, model):
    """Held-out nRMSE, 95% and 50% coverage, Sobol errors and the fresh-sample ratio of one surrogate."""
    r = R[f"{name}, GP"]
    pv, ev, ds = r["provenance"], r["evaluation"], r["downstream"]
    Ut = K.design(ev["test_design"], ev["n_test"], 3, ev["test_seed"])
    yt = K.simulate(pv["simulator"], Ut, pv["simulator_params"])
    mu, sd = model.predict(Ut, return_std=True)
    h = K.heldout_metrics(yt, mu, sd)
    out = {"nrmse": h["nrmse"], "cov95": h["coverage"], "cov50": float(K.coverage_curve(yt, mu, sd, [0.5])[0]),
           "ratio": h["nrmse"] / fresh_nrmse(r, model, FRESH_SEED[name])}
    if not isinstance(model, K.ConstantSurrogate):  # a constant has no Sobol indices
        S, ST, _ = K.sobol_indices(lambda X: K.predict_mean(model, X), 3, ds["n_base"], ds["seed"])
        out["s1"] = float(np.max(np.abs(S - ds["reference_first_order"])))
        out["st"] = float(np.max(np.abs(ST - ds["reference_total"])))
    return out


SK = {}
for name, lin in (("Ishigami", lin_ish), ("Robertson", lin_rob)):
    U_tr, y_tr = K._train(R[f"{name}, GP"])
    SK[name] = {"linear": naive_measures(name, lin),
                "quadratic": naive_measures(name, K.PolynomialSurrogate(2).fit(U_tr, y_tr)),
                "poly4": naive_measures(name, K.PolynomialSurrogate(4).fit(U_tr, y_tr)),
                "poly6": naive_measures(name, K.PolynomialSurrogate(6).fit(U_tr, y_tr)),
                "constant": naive_measures(name, K.ConstantSurrogate().fit(U_tr, y_tr))}
    ds, pv = R[f"{name}, GP"]["downstream"], R[f"{name}, GP"]["provenance"]
    n_bins = K.sturges_bins(len(y_tr))  # Sturges' rule, fixed before looking at the result
    S_g = K.given_data_first_order(U_tr, y_tr, n_bins)  # no surrogate, no new runs: the training points alone
    SK[name]["given"] = {"bins": n_bins, "s1": float(np.max(np.abs(S_g - ds["reference_first_order"])))}
    n_budget = 2 ** int(np.floor(np.log2(len(y_tr) / 5)))  # base size whose n (d + 2) runs fit the training budget
    S_b, ST_b, _ = K.sobol_indices(lambda X: K.simulate(pv["simulator"], X, pv["simulator_params"]), 3, n_budget, ds["seed"])
    SK[name]["budget"] = {"n_base": n_budget, "s1": float(np.max(np.abs(S_b - ds["reference_first_order"]))),
                          "st": float(np.max(np.abs(ST_b - ds["reference_total"])))}
for name, d in SK.items():
    for k, v in d.items():
        print(f"{name:>9} {k:>9}: " + ", ".join(f"{a} {b:.4g}" for a, b in v.items()))

# %% [markdown]
# ### The checks, each with its role
#
# The paper makes no numerical claim, so no check on this page is a test of it. The checks of what the
# reports state are measurements of *our* surrogates (a Gaussian process, chosen by the brief, on two toy
# simulators): their accuracy, calibration and sensitivity indices are properties of Gaussian-process
# emulation, studied long before this paper, not of the reporting standard. They are shown as illustrations,
# with the acceptance thresholds the reports committed to before the first run. The replay and the validator
# are identities of our own code, shown apart as implementation checks.

# %%
GP_TOL = tolerance(rel=0.05, abs=1e-3, why="GP hyperparameters are the end point of L-BFGS-B, which moves in its last digits with the BLAS")
COV_TOL = tolerance(abs=0.01, why="a share of held-out points: one point crossing an interval edge moves it by 1/n_test")
PAPER = "no number: the paper asks that reports state held-out error, UQ and downstream analysis (SMRS sections)"
NOT_PAPER = ("a property of our Gaussian-process surrogate on a toy simulator (GP emulation and Sobol indices "
             "computed on an emulator are prior work), not of the reporting standard, which makes no numerical claim")
for name in ("Ishigami", "Robertson"):
    s = name.lower()
    gp_c = K.acceptance_checks(R[f"{name}, GP"])
    ref = "analytic" if name == "Ishigami" else "a Monte Carlo on the simulator"
    claims.illustrate(f"{s}-nrmse", statement=f"{name}: the GP surrogate's held-out nRMSE meets the report's acceptance level",
                      paper=PAPER, criterion=at_most(ACCEPT["max_nrmse"]), measured=gp_c["held-out nRMSE"][0], tol=GP_TOL,
                      why=NOT_PAPER)
    claims.illustrate(f"{s}-coverage", statement=f"{name}: the GP's 95% predictive interval covers 85-100% of held-out outputs",
                      paper=PAPER + "; the brief: coverage in [0.85, 1]", criterion=between(*ACCEPT["coverage_window"]),
                      measured=gp_c["95% interval coverage"][0], tol=COV_TOL,
                      why=NOT_PAPER + "; a window this wide is met by the linear and constant surrogates' intervals too")
    claims.illustrate(f"{s}-sobol-first", statement=f"{name}: first-order Sobol indices of the surrogate within tol of {ref} (max over inputs)",
                      paper="the brief: surrogate S_1, S_2 within 0.05 of the analytic values (ci 0.08)",
                      criterion=at_most(ACCEPT["sobol_tol"]), measured=gp_c["max. error of S_i vs reference"][0], tol=GP_TOL,
                      why=NOT_PAPER)
    claims.illustrate(f"{s}-sobol-total", statement=f"{name}: total Sobol indices of the surrogate within tol of {ref} (max over inputs)",
                      paper="not in the brief: its Sobol tolerance applied to the total indices",
                      criterion=at_most(ACCEPT["sobol_tol"]), measured=gp_c["max. error of S_Ti vs reference"][0], tol=GP_TOL,
                      why=NOT_PAPER)
    claims.illustrate(f"{s}-error-replicates", statement=f"{name}: the reported held-out nRMSE replicates on a fresh sample (ratio)",
                      paper="no number: a reported held-out error should describe new data", criterion=between(0.8, 1.25),
                      measured=float(ratio[name]), tol=GP_TOL,
                      why="two independent held-out samples of the same surrogate estimate the same error: it holds for "
                          "any surrogate (the linear and quadratic ones too) once the held-out set is large")
    claims.illustrate(f"{s}-calibration-50", statement=f"{name}: the GP's 50% predictive interval covers 40-60% of held-out outputs",
                      paper="no number: an interval reported at a level should cover about that share", criterion=between(0.4, 0.6),
                      measured=cov50[name][0], tol=COV_TOL,
                      why=NOT_PAPER + "; added after the first run, when the 95% window could not tell the GP from its "
                          "own +-1 sd band")
claims.check("replay-exact", statement="Rebuilding both GP reports from their JSON text alone reproduces every number (max |diff|)",
             paper="the brief: |diff| < 1e-12", criterion=less_than(1e-12), measured=float(max(replay.values())),
             kind="implementation", tol=tolerance(abs=1e-12, why="deterministic code on one machine"))
claims.check("validator-flags", statement="The validator flags each of 3 incomplete reports and nothing in the 7 complete ones",
             paper="the brief: >= 1 flag on each of 3 incomplete reports, 0 on the complete one",
             criterion=is_true(), measured=bool(all(flags) and not complete_flags), kind="implementation")
claims.headline("reporting-is-fragmented",
                "Surrogate studies report sampling, model choice, evaluation and downstream analysis in fragmented, "
                "non-standard ways (a review of 17 studies)",
                untestable="a review of published studies; we have no corpus of surrogate papers to read")
claims.headline("a-standard-captures-the-pipeline",
                "A lightweight, implementation-agnostic reporting standard (SMRS) can capture the essential design and "
                "evaluation choices of a surrogate study",
                untestable="a proposal, not a measurable claim; the page builds one reading of it (schema, validator, "
                           "emitting pipeline, replayer) and checks it as software (replay-exact, validator-flags: "
                           "implementation checks, not counted)")
claims.headline("a-standard-improves-science",
                "Adopting the standard would improve reproducibility, reliability and cross-domain transfer of "
                "surrogate modelling",
                untestable="a claim about research communities and their practice over time; two toy studies of ours "
                           "cannot measure adoption or its effects")

# %%
for name in ("Ishigami", "Robertson"):
    s = name.lower()
    gp_c = K.acceptance_checks(R[f"{name}, GP"])
    lin_c = K.acceptance_checks(R[f"{name}, linear"])
    band_c = K.acceptance_checks(R[f"{name}, GP +-1 sd as 95%"])
    q, c, b = SK[name]["quadratic"], SK[name]["constant"], SK[name]["budget"]
    vals = {"n_train": R[f"{name}, GP"]["sampling"]["n_train"], "n_fresh": P.fresh_test,
            "gp_nrmse": gp_c["held-out nRMSE"][0], "gp_q2": R[f"{name}, GP"]["evaluation"]["metrics"]["q2"],
            "lin_nrmse": lin_c["held-out nRMSE"][0], "quad_nrmse": q["nrmse"], "const_nrmse": c["nrmse"],
            "gp_cov": 100 * gp_c["95% interval coverage"][0], "band_cov": 100 * band_c["95% interval coverage"][0],
            "lin_cov": 100 * SK[name]["linear"]["cov95"], "quad_cov": 100 * q["cov95"], "const_cov": 100 * c["cov95"],
            "gp_s1": gp_c["max. error of S_i vs reference"][0], "gp_st": gp_c["max. error of S_Ti vs reference"][0],
            "lin_s1": lin_c["max. error of S_i vs reference"][0], "lin_st": lin_c["max. error of S_Ti vs reference"][0],
            "quad_s1": q["s1"], "quad_st": q["st"], "budget_s1": b["s1"], "budget_st": b["st"], "budget_n": b["n_base"],
            "budget_runs": 5 * b["n_base"],
            "gp_ratio": ratio[name], "train_ratio": ratio_ctrl[name], "lin_ratio": SK[name]["linear"]["ratio"],
            "quad_ratio": q["ratio"], "const_ratio": c["ratio"],
            "gp_cov50": 100 * cov50[name][0], "gp2_cov50": 100 * cov50[name][1], "lin_cov50": 100 * SK[name]["linear"]["cov50"],
            "quad_cov50": 100 * q["cov50"], "const_cov50": 100 * c["cov50"],
            "replay_refit": replay_refit[f"{name}, GP"], "given_s1": SK[name]["given"]["s1"],
            "given_bins": SK[name]["given"]["bins"]}
    for deg in ("poly4", "poly6"):
        vals.update({f"{deg}_{k}": SK[name][deg][k] for k in ("nrmse", "s1", "st")})
    for k, v in vals.items():
        glue(f"{s}_{k}", v, display=False)
long_c = K.acceptance_checks(R["Ishigami, GP long length scales"])
glue("long_nrmse", long_c["held-out nRMSE"][0], display=False)
glue("long_cov", 100 * long_c["95% interval coverage"][0], display=False)
glue("long_s1", long_c["max. error of S_i vs reference"][0], display=False)
glue("long_st", long_c["max. error of S_Ti vs reference"][0], display=False)
glue("long_ls", LONG_LS["length_scale"][0], display=False)
glue("max_nrmse", ACCEPT["max_nrmse"], display=False)
glue("sobol_tol", ACCEPT["sobol_tol"], display=False)
glue("replay_max", float(max(replay.values())), display=False)
glue("replay_ctrl", float(replay_ctrl), display=False)
glue("n_broken", len(broken), display=False)
glue("n_complete", len(R), display=False)
glue("scale", scale, display=False)
glue("seed", seed, display=False)

# %% [markdown]
# ## Claims

# %% tags=["nbval-check-output"]
claims.save()
claims.table()

# %% [markdown]
# ## Verdict
#
# ```{repro-verdict}
# ```
#
# The paper is a position paper: it argues for a reporting standard and makes no numerical claim, so nothing
# on this page confirms or refutes it, and no check is counted. What the page shows is one reading of its
# sections, made into a typed schema, working as software, and what the reports of two small surrogate
# studies state, checked against the truth. Numbers below are from this run ({glue:text}`scale` scale, seed
# {glue:text}`seed`; Ishigami with {glue:text}`ishigami_n_train` training runs, Robertson with
# {glue:text}`robertson_n_train`).
#
# * *The standard as software (implementation checks).* Every one of the {glue:text}`n_complete` complete
#   reports validates; each of the {glue:text}`n_broken` broken ones is flagged with its missing or ill-typed
#   field. Both GP reports rebuilt from their JSON text alone give every number again (largest difference
#   {glue:text}`replay_max:.1e`; the brief asks for less than $10^{-12}$); the same report with another training
#   seed moves the numbers by up to {glue:text}`replay_ctrl:.2f`. Replay is exact because the report stores every
#   seed and deterministic code runs on one machine, not because it stores the fitted hyperparameters: a replay
#   that ignores them and re-runs the optimiser from the recorded learning seed is exact too (largest difference
#   {glue:text}`ishigami_replay_refit:.1e` on Ishigami, {glue:text}`robertson_replay_refit:.1e` on Robertson).
#   Stored hyperparameters would matter for replay on another machine, where the optimiser's end point can move
#   with the BLAS; that is not tested here.
# * *Held-out error* (illustration). The Ishigami GP's held-out nRMSE is {glue:text}`ishigami_gp_nrmse:.3f`
#   against the reports' acceptance level {glue:text}`max_nrmse:.1f` ($Q^2=$ {glue:text}`ishigami_gp_q2:.3f`);
#   the linear model's is {glue:text}`ishigami_lin_nrmse:.2f` and the quadratic response surface's
#   {glue:text}`ishigami_quad_nrmse:.2f`. On Robertson the GP reaches {glue:text}`robertson_gp_nrmse:.3f`, but
#   the quadratic response surface also reaches {glue:text}`robertson_quad_nrmse:.3f` (linear
#   {glue:text}`robertson_lin_nrmse:.2f`): a Gaussian process is not needed for that response. Over the ci
#   sweep's seeds the Ishigami GP meets its own acceptance level at {repro-seeds}`ishigami-nrmse:method:pass`
#   seeds, is within the check's tolerance of it at {repro-seeds}`ishigami-nrmse:method:edge` and misses it at
#   {repro-seeds}`ishigami-nrmse:method:fail`: the report's acceptance is not met reliably at this training size.
# * *Coverage* (illustration). The GP's nominal 95% interval covers {glue:text}`ishigami_gp_cov:.1f` %
#   (Ishigami) and {glue:text}`robertson_gp_cov:.1f` % (Robertson) of held-out outputs, inside the brief's
#   window of 85 to 100 %. So do the linear model's classical interval ({glue:text}`ishigami_lin_cov:.1f` % and
#   {glue:text}`robertson_lin_cov:.1f` %) and the input-blind constant's ({glue:text}`ishigami_const_cov:.1f` %
#   and {glue:text}`robertson_const_cov:.1f` %): a marginal coverage window at a single level does not
#   separate a good surrogate from none. The calibration figure and the 50% interval show the GP's intervals
#   too wide in the bulk: its 50% interval covers {glue:text}`ishigami_gp_cov50:.0f` % and
#   {glue:text}`robertson_gp_cov50:.0f` %, outside 40 to 60 %; over the ci sweep it falls inside that window at
#   {repro-seeds}`ishigami-calibration-50:method:pass` seeds on Ishigami and
#   {repro-seeds}`robertson-calibration-50:method:pass` on Robertson.
# * *Sobol indices of the surrogate* (illustration). On Ishigami the GP's first-order indices are within
#   {glue:text}`ishigami_gp_s1:.3f` of the analytic values and its total indices within
#   {glue:text}`ishigami_gp_st:.3f` (tolerance {glue:text}`sobol_tol:.2f`); the linear model misses by
#   {glue:text}`ishigami_lin_s1:.2f` and {glue:text}`ishigami_lin_st:.2f`. On Robertson every surrogate we tried
#   is close: the GP at {glue:text}`robertson_gp_s1:.3f` and {glue:text}`robertson_gp_st:.3f`, the quadratic at
#   {glue:text}`robertson_quad_s1:.3f` and {glue:text}`robertson_quad_st:.3f`, the linear model at
#   {glue:text}`robertson_lin_s1:.3f` and {glue:text}`robertson_lin_st:.3f`. The response is monotone and nearly
#   additive in the log rate constants.
# * *The reported error replicates* (illustration). The ratio of the reported nRMSE to that on a fresh sample
#   of {glue:text}`ishigami_n_fresh` points is {glue:text}`ishigami_gp_ratio:.2f` (Ishigami) and
#   {glue:text}`robertson_gp_ratio:.2f` (Robertson); the linear model's ratios are
#   {glue:text}`ishigami_lin_ratio:.2f` and {glue:text}`robertson_lin_ratio:.2f`. Two large independent held-out
#   samples agree for any surrogate. Reporting the training error instead would be the mistake the evaluation
#   section guards against: for the interpolating GP it is {glue:text}`ishigami_train_ratio:.1e` and
#   {glue:text}`robertson_train_ratio:.1e` of the true error.
# * *Misspecified surrogates in the report's own checks.* The GP with every length scale fixed at
#   {glue:text}`long_ls:.0f` on Ishigami has nRMSE {glue:text}`long_nrmse:.3f`, at the acceptance level
#   {glue:text}`max_nrmse:.1f`, and Sobol errors {glue:text}`long_s1:.3f` and {glue:text}`long_st:.3f`, within
#   tolerance; its 95% interval covers {glue:text}`long_cov:.0f` % of held-out outputs. The uncertainty
#   section exposes it plainly where the error barely does and the sensitivity analysis does not.
#
# Read together: only the uncertainty section caught flawed surrogates the other checks let through (the
# $\pm1\sigma$ band reported as 95%, and the GP with long length scales). Held-out error and the Sobol indices
# both exposed the linear model on Ishigami; on Robertson only the held-out error did (nRMSE
# {glue:text}`robertson_lin_nrmse:.2f`). The sensitivity analysis caught nothing that the held-out error
# missed. That is a weaker form of the paper's argument for reporting every stage of the pipeline (one stage's
# check is not enough), shown on a toy, with flawed surrogates we chose; it is an illustration of the argument,
# not a measurement of the paper's claim.
#
# ## What a skeptic would try
#
# First reviewed by the helper that converted this page to the claim model (it did not write the page).
# Reviewed by an independent skeptic (2026-12-07); what they tried is above. With the rubric, the page, its
# record and the brief, they ran the notebook's own recipes at the ten ci seeds: polynomial response surfaces
# of degree 1 to 6, the constant, the no-surrogate Sobol estimators and a replay that refits the
# hyperparameters; the ones that matter are measured below by this notebook. They agreed with "illustrated, not
# tested" and asked for three corrections of the prose (replay, the seed spread of the Ishigami GP, and which
# check caught which flawed surrogate), made above. No check here is counted, so the question a skeptic asks
# of each former test is whether the page's surrogate is needed to pass it. The notebook measures each naive surrogate under the former test's own
# criterion, at this seed, on the same data:
#
# * **Held-out error ≤ {glue:text}`max_nrmse:.1f`.** Quadratic response surface: {glue:text}`ishigami_quad_nrmse:.2f`
#   (Ishigami), {glue:text}`robertson_quad_nrmse:.3f` (Robertson); the constant: {glue:text}`ishigami_const_nrmse:.2f`
#   and {glue:text}`robertson_const_nrmse:.2f`; polynomials of degree 4 and 6: {glue:text}`ishigami_poly4_nrmse:.2f`
#   and {glue:text}`ishigami_poly6_nrmse:.2f` (Ishigami), {glue:text}`robertson_poly4_nrmse:.3f` and
#   {glue:text}`robertson_poly6_nrmse:.3f` (Robertson). On Robertson the check does not need a GP; on Ishigami
#   no naive surrogate we tried meets it at this seed.
# * **95% coverage in $[0.85, 1]$.** Linear model: {glue:text}`ishigami_lin_cov:.1f` % and
#   {glue:text}`robertson_lin_cov:.1f` %; quadratic: {glue:text}`ishigami_quad_cov:.1f` % and
#   {glue:text}`robertson_quad_cov:.1f` %; constant: {glue:text}`ishigami_const_cov:.1f` % and
#   {glue:text}`robertson_const_cov:.1f` %. The former control, the GP's own $\pm1\sigma$ band called 95%, covers
#   {glue:text}`ishigami_band_cov:.1f` % and {glue:text}`robertson_band_cov:.1f` %. A surrogate that knows nothing
#   about its inputs passes this window.
# * **Sobol errors ≤ {glue:text}`sobol_tol:.2f`.** No surrogate, the estimator run on the simulator with the
#   training budget ({glue:text}`ishigami_budget_runs` and {glue:text}`robertson_budget_runs` runs):
#   {glue:text}`ishigami_budget_s1:.2f` / {glue:text}`ishigami_budget_st:.2f` (first order / total, Ishigami),
#   {glue:text}`robertson_budget_s1:.2f` / {glue:text}`robertson_budget_st:.2f` (Robertson). Quadratic response
#   surface: {glue:text}`ishigami_quad_s1:.2f` / {glue:text}`ishigami_quad_st:.2f` and
#   {glue:text}`robertson_quad_s1:.3f` / {glue:text}`robertson_quad_st:.3f`. Degree 4:
#   {glue:text}`ishigami_poly4_s1:.3f` / {glue:text}`ishigami_poly4_st:.3f` and {glue:text}`robertson_poly4_s1:.3f` /
#   {glue:text}`robertson_poly4_st:.3f`; degree 6: {glue:text}`ishigami_poly6_s1:.3f` /
#   {glue:text}`ishigami_poly6_st:.3f` and {glue:text}`robertson_poly6_s1:.3f` / {glue:text}`robertson_poly6_st:.3f`.
#   No surrogate and no new runs, the given-data estimator on the training points
#   ({glue:text}`ishigami_given_bins` and {glue:text}`robertson_given_bins` bins), first order only:
#   {glue:text}`ishigami_given_s1:.3f` (Ishigami) and {glue:text}`robertson_given_s1:.3f` (Robertson). On Ishigami
#   the degree-6 polynomial meets both Sobol tolerances at this seed: there the GP is needed for the held-out
#   error, not for the sensitivity indices.
# * **Fresh-sample ratio in $[0.8, 1.25]$.** Linear: {glue:text}`ishigami_lin_ratio:.2f`,
#   {glue:text}`robertson_lin_ratio:.2f`; quadratic: {glue:text}`ishigami_quad_ratio:.2f`,
#   {glue:text}`robertson_quad_ratio:.2f`; constant: {glue:text}`ishigami_const_ratio:.2f`,
#   {glue:text}`robertson_const_ratio:.2f`. Any surrogate's held-out error replicates; the check cannot fail
#   except by a reporting error (the training error: {glue:text}`ishigami_train_ratio:.1e`).
# * **50% coverage in $[0.4, 0.6]$.** Linear: {glue:text}`ishigami_lin_cov50:.0f` % and
#   {glue:text}`robertson_lin_cov50:.0f` %; quadratic: {glue:text}`ishigami_quad_cov50:.0f` % and
#   {glue:text}`robertson_quad_cov50:.0f` %; constant: {glue:text}`ishigami_const_cov50:.0f` % and
#   {glue:text}`robertson_const_cov50:.0f` %; the GP {glue:text}`ishigami_gp_cov50:.0f` % and
#   {glue:text}`robertson_gp_cov50:.0f` %. Intervals built from residuals are calibrated on average by
#   construction; the GP's, built from its kernel, are not.
# * **Replay exact to $10^{-12}$.** A replay that ignores the stored hyperparameters and re-runs the optimiser
#   from the recorded learning seed: largest difference {glue:text}`ishigami_replay_refit:.1e` (Ishigami) and
#   {glue:text}`robertson_replay_refit:.1e` (Robertson). On one machine the seeds and deterministic code suffice;
#   the check cannot separate a complete report from one without its fitted hyperparameters.
#
# What the skeptic concludes: the checks of what a report states measure the surrogate, and several are met by
# a naive one. They were never a test of the paper, whose claim is an argument; counting them would credit
# the paper with the accuracy of a Gaussian process.
#
# ## What the miniature cannot show
#
# * The paper's argument: that adopting a common standard makes surrogate studies more reproducible,
#   comparable and transferable across fields. That is a claim about communities of researchers and
#   would need a study of published work (the paper reviews 17 studies); two toy studies of ours cannot
#   measure it.
# * Whether our schema is the paper's: we built the fields from the section names, not from the paper's
#   template (its stored full text was searched, but the template did not come back), so a reader should not
#   take our field list, types or acceptance section as SMRS itself, nor assume our report has every field
#   the paper asks for.
# * Expensive simulators, noisy or stochastic outputs, high-dimensional inputs, dependent inputs, and
#   surrogates other than GPs (neural operators, polynomial chaos): the settings in which reporting is
#   hardest and in which bit-for-bit replay is out of reach (GPU nondeterminism, simulator versions).
# * Replay across machines: our replay is exact because it runs on the same machine as the original fit, with
#   deterministic code; on this machine even a refit that ignores the stored hyperparameters is exact. Another
#   machine would reproduce the numbers to rounding, not bit for bit, and the optimiser's end point could move;
#   storing the fitted hyperparameters is meant for that case, which this page does not test. The reports store
#   software versions but cannot pin hardware.
# * The acceptance thresholds themselves: 0.2 on nRMSE and the Sobol tolerances are our choices (and the
#   brief's), not values from the paper. Whether a surrogate is fit for purpose depends on the downstream use.
