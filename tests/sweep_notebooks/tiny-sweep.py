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
# Seconds to run, no torch. Seed 3 raises, on purpose; one claim holds only at even seeds.

# %% tags=["parameters"]
scale = "ci"
seed = 0

# %%
from repro.claims import Claims, at_least, at_most, is_true

if seed == 3:
    raise RuntimeError("the tiny notebook fails at seed 3, on purpose")
claims = Claims("tiny-sweep", title="Tiny", scale=scale, seed=seed)
claims.check("always", statement="holds at every seed", paper="-", criterion=at_least(1.0),
             measured=1.0 + seed, control=0.0, control_label="zero")
claims.check("even-seeds", statement="holds at even seeds only", paper="-", criterion=is_true(),
             measured=seed % 2 == 0, control=False, control_label="never")
claims.check("never", statement="fails at every seed", paper="-", criterion=at_least(1.0),
             measured=0.5, control=0.0, control_label="zero")
claims.check("control-passes", statement="its control passes too", paper="-", criterion=at_least(1.0),
             measured=2.0, control=3.0, control_label="also above")
claims.check("counter", statement="an identity of our code", paper="-", criterion=is_true(),
             measured=True, kind="implementation")
claims.check("wall", statement="a wall-clock value", paper="-", criterion=at_most(1.0),
             measured=0.01 * (seed + 1), volatile=True)
claims.save()
