"""Unit tests of :mod:`repro.papers.spike4dgs_spike_array`, the kernels of ``notebooks/spike4dgs-spike-array.py``."""

import inspect
import json
from pathlib import Path

import numpy as np
import pytest
import torch

from repro.papers import spike4dgs_spike_array as K


def kernels():
    """The module's public functions and classes."""
    return [f for name, f in vars(K).items() if (inspect.isfunction(f) or inspect.isclass(f))
            and f.__module__ == K.__name__ and not name.startswith("_")]


def test_the_module_has_documented_kernels():
    assert kernels(), "src/repro/papers/spike4dgs_spike_array.py has no kernels yet"
    for f in kernels():
        assert (f.__doc__ or "").strip(), f"{f.__name__}: no docstring (shapes, the equation it implements)"


# ---- integrate_and_fire: closed forms -----------------------------------------------------------------
def test_integrate_and_fire_shape_dtype_and_binary():
    s = K.integrate_and_fire(np.full((2, 3), 0.4), 1.0, 7)
    assert s.shape == (7, 2, 3) and s.dtype == np.uint8 and set(np.unique(s)) <= {0, 1}
    assert K.integrate_and_fire(0.3, 1.0, 5).shape == (5,)


def test_count_is_floor_of_n_i_over_theta_exactly_for_dyadic_values():
    # dyadic intensities and threshold: every partial sum is exact, so the closed form holds to the spike
    theta = 0.75
    inten = np.arange(0, 64) / 64.0 * theta        # 3k/256: 0 .. 63/64 theta, all exact
    n = 100
    s = K.integrate_and_fire(inten, theta, n)
    cum = np.cumsum(s, axis=0)
    steps = np.arange(1, n + 1)[:, None]
    expected = np.floor(steps * inten[None] / theta)
    np.testing.assert_array_equal(cum, expected)


def test_count_is_floor_within_one_for_random_values_and_mostly_exact():
    rng = np.random.default_rng(0)
    theta = 1.3
    inten = rng.uniform(0, theta, size=500)
    n = 200
    cum = np.cumsum(K.integrate_and_fire(inten, theta, n), axis=0)
    expected = np.floor(np.arange(1, n + 1)[:, None] * inten[None] / theta)
    assert np.abs(cum - expected).max() <= 1
    assert np.mean(cum == expected) > 0.999      # only at (near-)exact multiples can rounding move a spike


def test_accumulator_stays_in_zero_theta_and_equals_n_i_minus_theta_count():
    rng = np.random.default_rng(1)
    theta = 2.0
    inten = rng.uniform(0, theta, size=(4, 6))
    for n in (1, 5, 50):
        s, acc = K.simulate_spikes(np.broadcast_to(inten, (n, 4, 6)), theta, return_state=True)
        assert np.all(acc >= 0) and np.all(acc < theta)
        np.testing.assert_allclose(acc, n * inten - theta * s.sum(axis=0), atol=1e-12)


def test_saturation_fires_every_step_and_count_is_min_n_floor():
    s = K.integrate_and_fire(np.array([2.5, 1.0, 0.0]), 1.0, 10)
    np.testing.assert_array_equal(s.sum(axis=0), [10, 10, 0])   # min(n, floor(n I / theta))


def test_first_spike_time_brute_force():
    # brute force, one pixel at a time in pure Python, against the vectorised simulator
    rng = np.random.default_rng(2)
    video = rng.uniform(0, 1.5, size=(30, 3, 2))
    theta = 1.1
    ref = np.zeros_like(video, dtype=np.uint8)
    for i in range(3):
        for j in range(2):
            a = 0.0
            for n in range(30):
                a += video[n, i, j]
                if a >= theta:
                    ref[n, i, j] = 1
                    a -= theta
    np.testing.assert_array_equal(K.simulate_spikes(video, theta), ref)


def test_simulator_bad_input():
    with pytest.raises(ValueError, match="non-negative"):
        K.integrate_and_fire(np.array([-0.1]), 1.0, 3)
    with pytest.raises(ValueError, match="theta"):
        K.integrate_and_fire(np.array([0.1]), 0.0, 3)
    with pytest.raises(ValueError, match="n_steps"):
        K.integrate_and_fire(np.array([0.1]), 1.0, 0)
    with pytest.raises(ValueError, match="finite"):
        K.integrate_and_fire(np.array([np.nan]), 1.0, 3)
    with pytest.raises(ValueError, match="init"):
        K.simulate_spikes(np.ones((3, 2)) * 0.1, 1.0, init=np.array([0.0, 1.0]))
    with pytest.raises(ValueError, match="init must have shape"):
        K.simulate_spikes(np.ones((3, 2)) * 0.1, 1.0, init=np.zeros(3))


# ---- TFP -----------------------------------------------------------------------------------------------
def test_tfp_recovers_constant_intensity_within_theta_over_window():
    rng = np.random.default_rng(3)
    theta = 2.0
    inten = rng.uniform(0, theta, size=(5, 5))
    init = rng.uniform(0, theta, size=(5, 5))
    for w in (4, 16, 64):
        spikes = K.simulate_spikes(np.broadcast_to(inten, (4 * w, 5, 5)), theta, init=init)
        est = K.tfp_reconstruct(spikes, w, theta)
        assert est.shape == (4, 5, 5)
        assert np.all(np.abs(est - inten) < theta / w + 1e-12)


def test_spike_counts_and_tfp_bad_input():
    with pytest.raises(ValueError, match="multiple"):
        K.spike_counts(np.zeros((10, 2)), 3)
    with pytest.raises(ValueError, match="0/1"):
        K.spike_counts(np.full((4, 2), 2), 2)
    with pytest.raises(ValueError, match="window"):
        K.tfp_reconstruct(np.zeros((4, 2)), 0, 1.0)


# ---- renderer --------------------------------------------------------------------------------------------
def test_camera_axes_orthonormal_and_front_view():
    ax = K.camera_axes(np.linspace(0, 3, 5), np.linspace(-0.5, 0.5, 5))
    assert ax.shape == (5, 2, 3)
    for a in ax:
        np.testing.assert_allclose(a @ a.T, np.eye(2), atol=1e-12)
    np.testing.assert_allclose(K.camera_axes(0.0, 0.0)[0], [[0, 1, 0], [0, 0, 1]], atol=1e-15)


def test_single_gaussian_at_origin_peaks_at_centre_with_closed_form_height():
    mu = torch.zeros(1, 1, 3, dtype=torch.float64)
    sigma = torch.tensor([0.3], dtype=torch.float64)
    amp = torch.tensor([0.8], dtype=torch.float64)
    ax = torch.as_tensor(K.camera_axes([0.0, 1.0], [0.0, 0.4]))
    img = K.render_ortho(mu, sigma, amp, ax, 9, 9, 1.0)
    assert img.shape == (1, 2, 9, 9)
    for v in range(2):
        assert np.unravel_index(int(torch.argmax(img[0, v])), (9, 9)) == (4, 4)
        assert float(img[0, v, 4, 4]) == pytest.approx(1 - np.exp(-0.8), rel=1e-14)
    # one pixel to the right: offset 2/9 along u
    assert float(img[0, 0, 4, 5]) == pytest.approx(1 - np.exp(-0.8 * np.exp(-(2 / 9) ** 2 / (2 * 0.09))), rel=1e-12)


def test_render_orientation_and_brute_force():
    # a Gaussian at +y appears right of centre in the front camera (azimuth 0), at +z above centre
    rng = np.random.default_rng(4)
    mu = torch.as_tensor(rng.uniform(-0.5, 0.5, size=(2, 3, 3)))
    sigma = torch.as_tensor(rng.uniform(0.1, 0.3, size=3))
    amp = torch.as_tensor(rng.uniform(0.5, 1.5, size=3))
    axes = K.camera_axes([0.3, 1.2], [0.1, -0.2])
    img = K.render_ortho(mu, sigma, amp, torch.as_tensor(axes), 6, 7, 1.0).numpy()
    xs = (np.arange(7) + 0.5) * 2 / 7 - 1
    ys = -((np.arange(6) + 0.5) * 2 / 6 - 1)
    ref = np.zeros((2, 2, 6, 7))
    for t in range(2):
        for v in range(2):
            for i in range(6):
                for j in range(7):
                    d = 0.0
                    for k in range(3):
                        u = float(mu[t, k] @ torch.as_tensor(axes[v, 0]))
                        w = float(mu[t, k] @ torch.as_tensor(axes[v, 1]))
                        d += float(amp[k]) * np.exp(-((xs[j] - u) ** 2 + (ys[i] - w) ** 2) / (2 * float(sigma[k]) ** 2))
                    ref[t, v, i, j] = 1 - np.exp(-d)
    np.testing.assert_allclose(img, ref, rtol=1e-12, atol=1e-14)
    right = K.render_ortho(torch.tensor([[[0.0, 0.5, 0.0]]], dtype=torch.float64), torch.tensor([0.1], dtype=torch.float64),
                           torch.tensor([1.0], dtype=torch.float64), torch.as_tensor(K.camera_axes(0.0, 0.0)), 8, 8, 1.0)
    i, j = np.unravel_index(int(torch.argmax(right)), (8, 8))
    assert j >= 5 and i in (3, 4)


def test_render_batch_dims_broadcast():
    rng = np.random.default_rng(5)
    mu = torch.as_tensor(rng.normal(size=(3, 2, 4, 3)) * 0.3)
    sigma = torch.as_tensor(rng.uniform(0.1, 0.3, size=(3, 4)))
    amp = torch.as_tensor(rng.uniform(0.5, 1.5, size=(3, 4)))
    axes = torch.as_tensor(np.stack([K.camera_axes([0.1, 0.7], 0.2)] * 3))
    out = K.render_ortho(mu, sigma, amp, axes, 5, 5, 1.0)
    assert out.shape == (3, 2, 2, 5, 5)
    for b in range(3):
        np.testing.assert_allclose(out[b], K.render_ortho(mu[b], sigma[b], amp[b], axes[b], 5, 5, 1.0), rtol=1e-13)


def test_render_gradcheck_three_gaussians_six_by_six():
    rng = np.random.default_rng(6)
    mu0 = torch.as_tensor(rng.uniform(-0.4, 0.4, size=(3, 3))).requires_grad_(True)
    vel = torch.as_tensor(rng.normal(size=(3, 3)) * 0.3).requires_grad_(True)
    sigma = torch.as_tensor(rng.uniform(0.2, 0.4, size=3)).requires_grad_(True)
    amp = torch.as_tensor(rng.uniform(0.5, 1.0, size=3)).requires_grad_(True)
    axes = torch.as_tensor(K.camera_axes([0.0, 0.9], [0.2, 0.0]))
    t = torch.tensor([0.1, 0.6], dtype=torch.float64)

    def f(mu0, vel, sigma, amp):
        return K.render_ortho(K.dynamic_means(mu0, vel, t), sigma, amp, axes, 6, 6, 1.0)

    assert torch.autograd.gradcheck(f, (mu0, vel, sigma, amp))


def test_dynamic_means_and_bad_input():
    mu0 = torch.zeros(2, 3, dtype=torch.float64)
    vel = torch.tensor([[1.0, 0, 0], [0, 2.0, 0]], dtype=torch.float64)
    m = K.dynamic_means(mu0, vel, torch.tensor([0.0, 0.5], dtype=torch.float64))
    assert m.shape == (2, 2, 3)
    np.testing.assert_allclose(m[1], [[0.5, 0, 0], [0, 1.0, 0]])
    with pytest.raises(ValueError, match="shape"):
        K.dynamic_means(mu0, vel[:1], torch.zeros(2))
    with pytest.raises(ValueError, match="1-D"):
        K.dynamic_means(mu0, vel, torch.zeros(2, 2))
    with pytest.raises(ValueError, match="mu must"):
        K.render_ortho(torch.zeros(2, 3), torch.ones(2), torch.ones(2), torch.zeros(1, 2, 3), 4, 4, 1.0)
    with pytest.raises(ValueError, match="sigma and amp"):
        K.render_ortho(torch.zeros(1, 2, 3), torch.ones(3), torch.ones(2), torch.zeros(1, 2, 3), 4, 4, 1.0)
    with pytest.raises(ValueError, match="axes"):
        K.render_ortho(torch.zeros(1, 2, 3), torch.ones(2), torch.ones(2), torch.zeros(1, 3, 3), 4, 4, 1.0)


# ---- losses and metrics ------------------------------------------------------------------------------------
def test_spike_loss_reduces_to_image_loss_with_one_subsample_and_is_zero_at_consistency():
    rng = np.random.default_rng(7)
    r = torch.as_tensor(rng.uniform(0, 1, size=(4, 1, 2, 3, 3)))
    counts = torch.as_tensor(rng.integers(0, 5, size=(4, 2, 3, 3)))
    theta, w = 1.5, 8
    frames = theta * counts / w
    assert float(K.spike_consistency_loss(r, counts, theta, w)) == pytest.approx(float(K.image_loss(r[:, 0], frames)), rel=1e-12)
    # a render whose window average is exactly theta * N / w has zero loss
    r2 = torch.stack([frames * 0.5, frames * 1.5], dim=1)
    assert float(K.spike_consistency_loss(r2, counts, theta, w)) < 1e-28
    with pytest.raises(ValueError, match="disagree"):
        K.spike_consistency_loss(r, counts[:3], theta, w)
    with pytest.raises(ValueError, match="same shape"):
        K.image_loss(r[:, 0], frames[:2])


def test_psnr_against_skimage_and_identical_is_inf():
    from skimage.metrics import peak_signal_noise_ratio

    rng = np.random.default_rng(8)
    a, b = rng.uniform(size=(8, 8)), rng.uniform(size=(8, 8))
    assert K.psnr(a, b) == pytest.approx(peak_signal_noise_ratio(a, b, data_range=1.0), rel=1e-12)
    assert K.psnr(a, a) == float("inf")
    with pytest.raises(ValueError, match="same shape"):
        K.psnr(a, b[:4])


# ---- fitting ------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def tiny_problem():
    rng = np.random.default_rng(9)
    truth = K.make_scene(rng, 2, 1, speed=0.8)
    axes = K.camera_axes(np.arange(3) * np.pi / 3, 0.25)
    n_steps, window, H = 48, 8, 10
    t = (np.arange(n_steps) + 0.5) / n_steps
    vid = K.render_scene(truth, t, axes, H, H, 1.2)
    theta = 3 * vid.max()
    counts = K.spike_counts(K.simulate_spikes(vid, theta), window)
    init = K.Scene(mu0=truth.mu0 + 0.5 * truth.vel + rng.normal(0, 0.1, (2, 3)), vel=np.zeros((2, 3)),
                   sigma=np.full(2, 0.25), amp=np.full(2, 0.7))
    return dict(truth=truth, axes=axes, counts=counts, n_steps=n_steps, window=window, H=H, theta=theta, init=init)


def test_fit_reduces_loss_and_batched_variants_match_separate_fits(tiny_problem):
    p = tiny_problem
    args = (p["init"], p["axes"], p["counts"], p["window"], p["n_steps"], p["theta"], p["H"], p["H"], 1.2)
    one = K.fit_splats(*args, iters=40, lam_spk=0.0)
    assert one.loss[-1] < 0.5 * one.loss[0]
    both = K.fit_splats(p["init"], np.stack([p["axes"]] * 2), np.stack([p["counts"]] * 2), *args[3:],
                        iters=40, lam_spk=[1.0, 0.0], dynamic=[True, False])
    np.testing.assert_allclose(both.scenes[1].mu0, K.fit_splats(*args, iters=40, lam_spk=0.0, dynamic=False).scenes[0].mu0,
                               rtol=1e-4, atol=1e-5)
    assert np.all(both.scenes[1].vel == 0)                       # static variant keeps zero velocity
    nv = K.camera_axes([1.0], [0.0])
    te = np.array([0.25, 0.75])
    p_fit = K.novel_view_psnr(one.scenes[0], p["truth"], nv, te, p["H"], p["H"], 1.2)
    p_init = K.novel_view_psnr(p["init"], p["truth"], nv, te, p["H"], p["H"], 1.2)
    assert p_fit.shape == (2,) and p_fit.mean() > p_init.mean()


def test_fit_bad_input(tiny_problem):
    p = tiny_problem
    with pytest.raises(ValueError, match="counts must have shape"):
        K.fit_splats(p["init"], p["axes"], p["counts"][:-1], p["window"], p["n_steps"], p["theta"], p["H"], p["H"], 1.2)
    with pytest.raises(ValueError, match="cam_weight"):
        K.fit_splats(p["init"], p["axes"], p["counts"], p["window"], p["n_steps"], p["theta"], p["H"], p["H"], 1.2,
                     cam_weight=np.zeros((1, 3)))
    with pytest.raises(ValueError, match="theta_model"):
        K.fit_splats(p["init"], p["axes"], p["counts"], p["window"], p["n_steps"], p["theta"], p["H"], p["H"], 1.2,
                     theta_model=0.0)


def test_per_window_static_matches_separate_static_fits_and_routes_instants(tiny_problem):
    p = tiny_problem
    fits = K.fit_per_window_static(p["init"], p["axes"], p["counts"], p["window"], p["theta"], p["H"], p["H"], 1.2,
                                   iters=20)
    J = p["counts"].shape[0]
    assert len(fits) == J and all(np.all(f.vel == 0) for f in fits)
    one = K.fit_splats(p["init"], p["axes"], p["counts"][2:3], p["window"], p["window"], p["theta"], p["H"], p["H"],
                       1.2, iters=20, dynamic=False).scenes[0]
    np.testing.assert_allclose(fits[2].mu0, one.mu0, rtol=1e-4, atol=1e-5)
    nv = K.camera_axes([1.0], [0.0])
    te = np.array([0.0, 0.3, 0.99, 1.0])
    got = K.per_window_psnr(fits, p["truth"], nv, te, p["H"], p["H"], 1.2)
    for ti, g in zip(te, got):                                   # instant t uses window min(floor(t J), J - 1)
        j = min(int(ti * J), J - 1)
        assert g == K.novel_view_psnr(fits[j], p["truth"], nv, [ti], p["H"], p["H"], 1.2)[0]
    with pytest.raises(ValueError, match="counts must have shape"):
        K.fit_per_window_static(p["init"], p["axes"], p["counts"][0], p["window"], p["theta"], p["H"], p["H"], 1.2)
    with pytest.raises(ValueError, match="dynamic=False"):
        K.fit_per_window_static(p["init"], p["axes"], p["counts"], p["window"], p["theta"], p["H"], p["H"], 1.2,
                                dynamic=True)
    with pytest.raises(ValueError, match="instants"):
        K.per_window_psnr(fits, p["truth"], nv, [1.5], p["H"], p["H"], 1.2)


def test_make_scene_moving_count_and_bad_input():
    s = K.make_scene(np.random.default_rng(0), 5, 2, speed=1.0)
    speeds = np.linalg.norm(s.vel, axis=1)
    np.testing.assert_allclose(speeds, [1, 1, 0, 0, 0], atol=1e-12)
    with pytest.raises(ValueError, match="n_moving"):
        K.make_scene(np.random.default_rng(0), 2, 3, speed=1.0)


# ---- golden tests against the reference spike-camera code ------------------------------------------------------
# The paper's repository (Qinghongye/Spike4DGS @ 1e45b20) holds no code. tests/papers/golden/spike4dgs-spike-array.json
# holds the outputs of SpikeCV's simulator (video_to_spike, subtractive reset) and TFP, run once outside the project.
GOLDEN = json.loads((Path(__file__).parent / "golden" / "spike4dgs-spike-array.json").read_text())
CASES = {c["name"]: c for c in GOLDEN["cases"]}


def test_golden_file_names_the_commits():
    assert GOLDEN["slug"] == "spike4dgs-spike-array"
    assert GOLDEN["commit"].startswith("e8298e10")
    assert GOLDEN["paper_repository"]["commit"].startswith("1e45b20")


def test_golden_video_to_spike_with_random_initial_accumulator():
    c = CASES["video_to_spike_random_init"]
    video = np.array(c["input"]["video_uint8"], dtype=np.uint8)
    # the recipe regenerates the stored input
    np.testing.assert_array_equal(video, np.random.default_rng(20251203).integers(0, 256, size=(40, 4, 5)))
    init = np.random.RandomState(0).random_sample((4, 5)) * 2.0
    np.testing.assert_array_equal(init, np.array(c["input"]["init"]))
    ours = K.simulate_spikes(video / 255.0, 2.0, init=init)
    np.testing.assert_array_equal(ours, np.array(c["output"]["spikes"]))


def test_golden_integrate_and_fire_constant_frame():
    c = CASES["video_to_spike_constant_zero_init"]
    frame = np.array(c["input"]["frame_uint8"], dtype=np.uint8)
    ours = K.integrate_and_fire(frame / 255.0, 2.0, 40)
    np.testing.assert_array_equal(ours, np.array(c["output"]["spikes"]))


def test_golden_tfp_frames():
    c = CASES["tfp_spikes2frame_h3"]
    spikes = np.array(CASES["video_to_spike_random_init"]["output"]["spikes"])
    ours = np.floor(255 * K.tfp_reconstruct(spikes[:35], 7, 2.0) / 2.0 + 1e-9)
    np.testing.assert_array_equal(ours, np.array(c["output"]["images_uint8"]))


def test_freeze_init_and_stream_times():
    truth = K.make_scene(np.random.default_rng(1), 3, 2, speed=1.0)
    still = K.freeze(truth)
    assert np.all(still.vel == 0)
    np.testing.assert_allclose(still.mu0, truth.mu0 + 0.5 * truth.vel)
    init = K.init_from_points(truth, np.random.default_rng(2), noise=0.0)
    np.testing.assert_allclose(init.mu0, still.mu0)
    assert np.all(init.sigma == 0.25) and np.all(init.vel == 0)
    np.testing.assert_allclose(K.stream_times(4), [0.125, 0.375, 0.625, 0.875])
    with pytest.raises(ValueError, match="n_steps"):
        K.stream_times(0)


def test_nearest_camera_rule():
    az = np.arange(4) * np.pi / 4
    assert K.nearest_camera(az, np.pi / 8 + np.pi / 2) == 2          # tie between cameras 2 and 3: lower index
    assert K.nearest_camera(az, 0.7) == 1
    assert K.nearest_camera(az, 2 * np.pi - 0.1) == 0                 # wraps around
    with pytest.raises(ValueError):
        K.nearest_camera([], 0.0)
