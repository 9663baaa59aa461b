"""Golden cases of tests/papers/golden/hamiltonian-neural-solver.json added at the second reading (issue 33, item 7).

Not collected by pytest. Run from the repository root with the project's interpreter:

    .venv/bin/python tests/papers/golden/hamiltonian-neural-solver.py <path to a hamiltonian_pdes git checkout>

Which parts re-derive the official code, and which are our own:

* ``smooth-diff-order8`` **runs the official code**: ``common/derivatives.py`` at the golden commit is copied with
  ``git show`` into a temporary folder (it imports only torch and math) and ``first_derivative(u, dx, order=8)``
  is called on a seeded periodic array; ``smooth_diff`` must equal it.
* ``bracket-slope-kernel``, ``bracket-slope-kernel-smooth``: **our kernels**, since the official
  ``Hamiltonian_Wrapper`` cannot be built as committed (``self.filer`` is set, ``self.filter`` is read). They
  re-derive the official formula ``poisson_bracket = D_x (dH/du)`` (kdv/advection branch of
  ``Hamiltonian_Wrapper``) with the slope input of our kernel; the expected output is also checked in closed
  form in the unit test (the density -u^3 + (D_c u)^2/2 gives dH/du = -3u^2 + D_c^T D_c u = -3u^2 - D_c D_c u).
* ``kdv-spectral-step``, ``rk4-rollout``, ``ab2-rollout``: **our kernels** only (the official data come from the
  authors' solver on Hugging Face and its AB2 loop lives in the Lightning module): regression values, so that a
  change to the solver or the integrators cannot pass silently.

The cases are merged into the JSON (replacing cases of the same names).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import torch

from repro.papers import hamiltonian_neural_solver as K

GOLDEN = Path(__file__).with_name("hamiltonian-neural-solver.json")


def main(checkout: str) -> None:
    torch.set_num_threads(1)
    torch.set_default_dtype(torch.float64)
    g = json.loads(GOLDEN.read_text())
    cases = []

    u = torch.randn(2, 16, generator=torch.Generator().manual_seed(2))
    with tempfile.TemporaryDirectory() as tmp:
        src = subprocess.run(["git", "-C", checkout, "show", f"{g['commit']}:common/derivatives.py"],
                             check=True, capture_output=True, text=True).stdout
        Path(tmp, "official_derivatives.py").write_text(src)
        sys.path.insert(0, tmp)
        import official_derivatives as off  # noqa: E402
        out = off.first_derivative(u, torch.full((2, 1), 0.5), order=8)
    cases.append(dict(
        name="smooth-diff-order8", function="common.derivatives.first_derivative(u, dx, order=8) (Holoborodko "
        "11-point smooth difference, periodic roll), run from the official file",
        input=dict(recipe="torch.randn(2, 16, generator=torch.Generator().manual_seed(2)) in float64 (values "
                   "stored), dx = 0.5 (as a (2, 1) tensor)", u=u.tolist(), dx=0.5),
        output=out.tolist(), ours="smooth_diff(u, dx)",
        tol=dict(abs=1e-12, why="the same 11-point stencil in float64")))

    L, N = 20.0, 32
    dx = L / N
    x = torch.arange(N) * dx
    u = K.kdv_soliton(x, 1.0, 7.0, L) + K.kdv_soliton(x, 0.5, 15.0, L)
    H = K.IKFHamiltonian(kernel=lambda v, dv: -v**3 + 0.5 * dv**2)
    for name, D in (("bracket-slope-kernel", K.central_diff), ("bracket-slope-kernel-smooth", K.smooth_diff)):
        cases.append(dict(
            name=name, function="ours (re-derives Hamiltonian_Wrapper.poisson_bracket, kdv branch: "
            "D_x dH/du); the official wrapper cannot be built as committed",
            input=dict(recipe="two solitons c = 1 at x0 = 7 and c = 0.5 at x0 = 15, L = 20, N = 32, float64; "
                       "kernel density -u^3 + u_x^2/2 of (u, central-difference slope)", L=L, N=N,
                       solitons=[[1.0, 7.0], [0.5, 15.0]]),
            output=K.hns_rhs(H, u[None], dx, bracket=D)[0].tolist(),
            ours=f"hns_rhs(IKFHamiltonian(kernel=...), u, dx, bracket={D.__name__})",
            tol=dict(abs=1e-10, why="autograd of a closed-form density in float64")))
    cases.append(dict(
        name="kdv-spectral-step", function="ours: kdv_spectral_step (integrating-factor RK4 pseudo-spectral)",
        input=dict(recipe="the same two solitons, dt = 0.01, 10 steps", L=L, N=N, solitons=[[1.0, 7.0], [0.5, 15.0]],
                   dt=0.01, steps=10),
        output=K.kdv_spectral_solve(u, L, 0.1, 0.01)[-1].tolist(), ours="kdv_spectral_solve(u, L, 0.1, 0.01)[-1]",
        tol=dict(abs=1e-10, why="FFT arithmetic in float64")))
    rhs = lambda v: K.hns_rhs(H, v, dx)  # noqa: E731
    for name, integ in (("rk4-rollout", K.rollout), ("ab2-rollout", K.ab2_rollout)):
        cases.append(dict(
            name=name, function=f"ours: {integ.__name__} of the HNS with the exact KdV density (central bracket)",
            input=dict(recipe="the same two solitons, dt = 0.02, 10 steps, every state saved", L=L, N=N,
                       solitons=[[1.0, 7.0], [0.5, 15.0]], dt=0.02, steps=10),
            output=integ(rhs, u[None], 0.02, 10)[-1, 0].tolist(), ours=f"{integ.__name__}(rhs, u, 0.02, 10)[-1]",
            tol=dict(abs=1e-10, why="float64 arithmetic of the same steps")))
    names = {c["name"] for c in cases}
    g["cases"] = [c for c in g["cases"] if c["name"] not in names] + cases
    g["files"] = sorted(set(g["files"]) | {"common/derivatives.py", "modules/models/Hamiltonian.py (read)"})
    g["how"]["second_reading"] = ("tests/papers/golden/hamiltonian-neural-solver.py: smooth-diff-order8 runs the "
                                  "official file; the bracket, solver and integrator cases are our kernels "
                                  "(regression values; see the script's docstring)")
    GOLDEN.write_text(json.dumps(g, indent=1) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
