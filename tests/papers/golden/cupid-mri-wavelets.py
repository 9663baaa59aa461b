"""Reference outputs of the official CUPID wavelet code for tests/papers/golden/cupid-mri.json (cases 'wav_*').

Not part of the project and not collected by pytest: it needs pytorch_wavelets, which the project does not
install. Run it in a scratch environment outside the project, from the repository root:

    python3.11 -m venv /tmp/pw && /tmp/pw/bin/pip install torch==2.13.0 pytorch_wavelets==1.3.0 PyWavelets numpy
    /tmp/pw/bin/python tests/papers/golden/cupid-mri-wavelets.py <path to a CUPID git checkout>

It copies the official files at the golden commit (git show) into a temporary folder, imports them, computes
the cases below in float64 on one thread, and merges them into the golden JSON (replacing any 'wav_*' case).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytorch_wavelets
import pywt
import torch

GOLDEN = Path(__file__).with_name("cupid-mri.json")
FILES = ["src/util/sparsity_utils.py", "src/models/compressed_sensing.py", "src/data/mri_ops.py",
         "src/models/resnet.py", "src/models/data_consistency.py", "src/models/unrolled_net.py"]


def cplx(t):
    t = torch.as_tensor(t)
    return {"real": t.real.tolist(), "imag": t.imag.tolist()} if t.is_complex() else t.tolist()


def main(repo: str) -> None:
    g = json.loads(GOLDEN.read_text())
    commit = g["commit"]
    tmp = Path(tempfile.mkdtemp())
    for f in FILES:
        (tmp / f).parent.mkdir(parents=True, exist_ok=True)
        (tmp / f).write_text(subprocess.run(["git", "-C", repo, "show", f"{commit}:{f}"], check=True,
                                            capture_output=True, text=True).stdout)
    sys.path[:0] = [str(tmp / "src"), str(tmp)]
    torch.set_num_threads(1)
    torch.set_default_dtype(torch.float64)
    from pytorch_wavelets import DTCWTForward, DWTForward, DWTInverse
    from util.sparsity_utils import wavelet_loss_function, wavelet_transform_n_lvl
    from src.models.compressed_sensing import compressed_sensing
    from data.mri_ops import EHE, c2r, r2c
    from models.unrolled_net import UnrolledNet

    rng = np.random.default_rng(2024)
    H, W, NC = 32, 32, 4

    def crandn(*s):
        return torch.tensor(rng.standard_normal(s) + 1j * rng.standard_normal(s))

    x = crandn(1, H, W)                       # a network output
    x_m = crandn(1, H, W)                     # CS weights image
    real = torch.tensor(rng.standard_normal((1, 1, 16, 24)))  # a real image for the DTCWT with padding
    coil = crandn(1, NC, H, W)
    coil = coil / coil.abs().pow(2).sum(1, keepdim=True).sqrt()
    x_pi = crandn(1, H, W)
    mask = torch.zeros(H, W)
    mask[:, ::4] = 1
    mask[:, H // 2 - 2:H // 2 + 2] = 1
    pk_mask = np.zeros((2, H, W), dtype=bool)
    pk_mask[0, 4:12, 6:20] = True
    pk_mask[1, 18:28, 10:14] = True
    pk_val = [complex(0.05, 0.0), complex(-0.025, 0.0433)]
    p = torch.tensor(pk_mask * np.array(pk_val)[:, None, None])
    inputs = dict(recipe="numpy default_rng(2024), standard normals drawn in this order: x (1,32,32) complex "
                         "(real then imag), x_m (1,32,32) complex, real (1,1,16,24), coil (1,4,32,32) complex then "
                         "normalised to sum |c|^2 = 1, x_pi (1,32,32) complex; mask: every 4th column + 4 centre "
                         "columns; p: two block perturbations (boolean masks times the listed values)",
                  x=cplx(x), x_m=cplx(x_m), real=real.tolist(), coil=cplx(coil), x_pi=cplx(x_pi),
                  mask=mask.tolist(), p_mask=pk_mask.tolist(), p_val=[[v.real, v.imag] for v in pk_val])
    cases = []

    def case(name, function, call, output, ours, tol):
        cases.append(dict(name=name, function=function, call=call, input="inputs_wavelets (seeded recipe)",
                          output=output, ours=ours, tol=tol))

    # 1. DTCWT (near_sym_b / qshift_b), J = 4 on 32x32 and J = 3 on 16x24 (exercises the padding)
    for nm, img, J in (("wav_dtcwt_32x32_J4", x.real[None], 4), ("wav_dtcwt_16x24_J3", real, 3)):
        yl, yh = DTCWTForward(J=J, biort="near_sym_b", qshift="qshift_b")(img)
        case(nm, "pytorch_wavelets.DTCWTForward", f"DTCWTForward(J={J}, biort='near_sym_b', qshift='qshift_b')(img)",
             dict(yl=yl[0, 0].tolist(), yh=[h[0, 0].tolist() for h in yh]), "K.dtcwt2d(img, J)", "atol 1e-12")
    # 2. the periodized DWT, official 'dwt' layout, and its inverse, bior1.5 and haar, J = 4 on 32x32
    for wave in ("bior1.5", "haar"):
        xfm = DWTForward(J=4, wave=wave, mode="periodization")
        ifm = DWTInverse(wave=wave, mode="periodization")
        coeff = wavelet_transform_n_lvl(x, 4, xfm, "dwt")[0, 0]
        yl, yh = xfm(x.real[None])
        rec = ifm((yl, yh))[0, 0]
        case(f"wav_dwt_{wave}", "wavelet_transform_n_lvl (dwt) + DWTInverse",
             f"wavelet_transform_n_lvl(x, 4, DWTForward(J=4, wave='{wave}', mode='periodization'), 'dwt'); "
             f"DWTInverse(wave='{wave}', mode='periodization')(DWTForward(...)(x.real))",
             dict(coeffs=cplx(coeff), inverse_of_forward_real=rec.tolist()),
             f"K.dwt2d(x, 4, '{wave}'); K.idwt2d(K.dwt2d(x.real, 4, '{wave}'), 4, '{wave}')", "atol 1e-12")
    # 3. the official compressibility loss, both branches
    for wt, wave in (("dctwt", "bior1.5"), ("dwt", "haar"), ("dwt", "bior1.5")):
        val = float(wavelet_loss_function("cpu", x_m, x, 1e-4, 4, wave, wt))
        case(f"wav_loss_{wt}_{wave}", "wavelet_loss_function",
             f"wavelet_loss_function('cpu', x_m, x, eps=1e-4, levels=4, wave='{wave}', wavelet_type='{wt}')", val,
             "K.dtcwt_reweighted_l1(x, x_m, 1e-4, 4)" if wt == "dctwt" else
             ("K.wavelet_reweighted_l1(x, x_m, 1e-4, 4)" if wave == "haar" else "(bior1.5 'dwt' branch: not used)"),
             "rel 1e-10")
    # 4. the official CS module (gives x_m): 10 unrolls of CG(0.1, 10) + soft thresholding of the bior1.5 DWT
    zf = EHE(x_pi, coil, mask)
    cs = compressed_sensing("cpu", levels=4, wave="bior1.5", wavelet_type="dctwt", cs_unrolls=10, cg_mu=0.1,
                            cg_iter_cs=10, tau=0.01)
    x_cs = cs(c2r(zf, 1), coil, mask, x_pi)
    case("wav_compressed_sensing", "compressed_sensing (configs/sparsity_config.yaml)",
         "compressed_sensing('cpu', levels=4, wave='bior1.5', wavelet_type='dctwt', cs_unrolls=10, cg_mu=0.1, "
         "cg_iter_cs=10, tau=0.01)(c2r(EHE(x_pi, coil, mask), 1), coil, mask, x_pi)", cplx(x_cs[0]),
         "K.official_cs(K.EhE(x_pi, coil, mask), x_pi, coil, mask)", "atol 1e-10")
    # 5. the whole CUPID loss of train.py (one slice, lambda 200, K = 2 given perturbations, epoch 0, m = 0),
    #    with a small seeded official network (2 unrolls, ResNet 1 block x 8 channels, DC 15 CG steps, mu 0.05)
    torch.manual_seed(0)
    model = UnrolledNet("cpu", nb_unroll_blocks=2, ResNet=dict(
        nb_res_blocks=1, channels=8, kernel_size=3, stride=1, padding=1, bias=False, scalar=0.1,
        use_checkpointing=False, weights_mean=0.0, weights_std=0.05), DC=dict(CG_Iter=15, mu=0.05))
    rssq = torch.sqrt(torch.sum(coil ** 2, dim=1))
    lam, K = 200.0, 2
    out0 = r2c(model(c2r(zf, 1), coil, mask)[0], 1)
    pif_terms = []
    for k in range(K):
        p_k = p[k:k + 1]
        outk = r2c(model(c2r(zf + EHE(p_k, coil, mask), 1), coil, mask)[0], 1)
        pif_terms.append(float(torch.norm((outk - out0) - (p_k * (abs(rssq) != 0)), p=2)
                               / torch.norm(p_k * (abs(rssq) != 0), p=2)))
    total = lam / K * sum(pif_terms)
    l_comp = float(wavelet_loss_function("cpu", x_cs, out0 * (abs(rssq) != 0), 1e-4, 4, "bior1.5", "dctwt"))
    case("wav_cupid_loss", "train.py loss (PIF + compressibility), lines 44-74",
         "as train.py at epoch 0, m = 0: x_m = cs(...) (case wav_compressed_sensing); total = lambda/K * sum_k "
         "L_pif,k + wavelet_loss_function(x_m, out0 * support, 1e-4, levels=4, 'bior1.5', 'dctwt'); model = "
         "UnrolledNet(2 unrolls, 1 block, 8 channels, bias False, CG 15, mu 0.05) after torch.manual_seed(0), "
         "checkpointing off",
         dict(pif_terms=pif_terms, l_comp=l_comp, total=total + l_comp, out0=cplx(out0[0]),
              state_dict={k: v.tolist() for k, v in model.state_dict().items()}),
         "K.cupid_loss(net with the official state_dict, cg_iters=15, ..., lam=200, level=4, wavelet='dtcwt')",
         "rel 1e-9")
    g["inputs_wavelets"] = inputs
    g["cases"] = [c for c in g["cases"] if not c["name"].startswith("wav_")] + cases
    g["how_wavelets"] = dict(
        interpreter=f"scratch venv outside the project (Python {sys.version.split()[0]})",
        versions=dict(torch=torch.__version__, pytorch_wavelets=pytorch_wavelets.__version__, PyWavelets=pywt.__version__,
                      numpy=np.__version__),
        cpu="torch.set_num_threads(1), torch.set_default_dtype(torch.float64)",
        run="tests/papers/golden/cupid-mri-wavelets.py (official files copied with git show at the golden commit)")
    if "src/util/sparsity_utils.py" not in g["files"]:
        g["files"] += ["src/util/sparsity_utils.py", "src/models/compressed_sensing.py", "src/train.py (loss lines)"]
    GOLDEN.write_text(json.dumps(g, indent=1) + "\n")
    print("wrote", len(cases), "wavelet cases")


if __name__ == "__main__":
    main(sys.argv[1])
