# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
# ---

# %% [markdown]
# # A tiny notebook for the sweep's tests (tests/test_sweep.py)
#
# Seconds to run, no torch. Seed 3 raises, on purpose; one test holds only at even seeds.

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
from repro.claims import Claims, Comparator, at_least, at_most, is_true

if seed == 3:
    raise RuntimeError("the tiny notebook fails at seed 3, on purpose")
claims = Claims("tiny-sweep", title="Tiny", scale=scale, seed=seed)
low = 0.0 + 0 * seed


def test(cid, measured, ablation, baseline, criterion=at_least(1.0)):
    claims.test(cid, statement=cid, paper="-", criterion=criterion, measured=measured,
                ablation=Comparator("without it", ablation, ingredient="it"),
                baselines=[Comparator("naive", baseline)])


test("always", 1.5 + seed, low + 0.5, low + 0.25)
test("even-seeds", seed % 2 == 0, False, seed < 0, criterion=is_true())
test("never", low + 0.5, low + 0.25, low + 0.125)
test("baseline-passes", 2.0 + low, low + 0.5, 3.0 + low)
claims.illustrate("classical", statement="a classical result", paper="-", criterion=at_least(1.0),
                  measured=2.0 + low, why="prior work")
claims.check("counter", statement="an identity of our code", paper="-", criterion=is_true(),
             measured=True, kind="implementation")
claims.check("wall", statement="a wall-clock value", paper="-", criterion=at_most(1.0),
             measured=0.01 * (seed + 1), volatile=True)
claims.headline("h", "the tiny claim", tests=["always", "even-seeds"])
claims.save()
