"""repro.optim: Adam and AdamW give torch.optim's iterates, without importing torch._dynamo."""

import subprocess
import sys

import pytest
import torch

from repro.optim import Adam, AdamW


def _run(opt_cls, torch_cls, steps=25, **kw):
    torch.manual_seed(0)
    a = torch.randn(7, 3, dtype=torch.float64, requires_grad=True)
    b = torch.randn(3, dtype=torch.float64, requires_grad=True)
    a2, b2 = a.detach().clone().requires_grad_(), b.detach().clone().requires_grad_()
    ours, ref = opt_cls([a, b], **kw), torch_cls([a2, b2], **kw)
    x = torch.randn(11, 7, dtype=torch.float64)
    for t in range(steps):
        for (p, q), opt in (((a, b), ours), ((a2, b2), ref)):
            opt.zero_grad()
            loss = ((x @ p + q).sin() ** 2).mean()
            if t % 5 != 3:           # now and then only one parameter has a gradient
                loss = loss + (q ** 2).sum()
            loss.backward()
            if t % 5 == 3:
                q.grad = None
            opt.step()
    return (a, b), (a2, b2)


@pytest.mark.parametrize("kw", [{}, {"lr": 0.05, "betas": (0.8, 0.99)}, {"lr": 0.01, "weight_decay": 0.1}])
def test_adam_matches_torch_optim(kw):
    ours, ref = _run(Adam, torch.optim.Adam, **kw)
    for p, q in zip(ours, ref):
        torch.testing.assert_close(p, q, rtol=0, atol=1e-12)


@pytest.mark.parametrize("kw", [{}, {"lr": 0.02, "weight_decay": 0.3}])
def test_adamw_matches_torch_optim(kw):
    ours, ref = _run(AdamW, torch.optim.AdamW, **kw)
    for p, q in zip(ours, ref):
        torch.testing.assert_close(p, q, rtol=0, atol=1e-12)


def test_adam_and_adamw_differ_when_decay_is_on():
    (a, _), _ = _run(Adam, torch.optim.Adam, weight_decay=0.3, lr=0.02)
    (c, _), _ = _run(AdamW, torch.optim.AdamW, weight_decay=0.3, lr=0.02)
    assert (a - c).abs().max() > 1e-6


def test_first_step_moves_each_coordinate_by_lr_against_the_gradient():
    # bias correction makes the first Adam step lr * sign(g) (up to eps)
    p = torch.tensor([1.0, -2.0, 3.0], dtype=torch.float64, requires_grad=True)
    opt = Adam([p], lr=0.1, eps=0.0)
    (p * torch.tensor([2.0, -0.5, 0.0], dtype=torch.float64)).sum().backward()
    p.grad[2] = 1e-3
    opt.step()
    torch.testing.assert_close(p.detach(), torch.tensor([0.9, -1.9, 2.9], dtype=torch.float64))


def test_no_dynamo_import():
    code = ("import sys, torch\nfrom repro.optim import Adam\np = torch.zeros(2, requires_grad=True)\n"
            "o = Adam([p]); p.grad = torch.ones(2); o.step()\nprint('torch._dynamo' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


@pytest.mark.parametrize("kw", [{"lr": 0.0}, {"betas": (1.0, 0.9)}, {"eps": -1.0}, {"weight_decay": -0.1}])
def test_bad_hyperparameters_are_rejected(kw):
    with pytest.raises(ValueError):
        Adam([torch.zeros(2, requires_grad=True)], **kw)


def test_bad_parameters_are_rejected():
    with pytest.raises(ValueError, match="empty"):
        Adam([])
    with pytest.raises(ValueError, match="leaf"):
        Adam([torch.zeros(2)])
