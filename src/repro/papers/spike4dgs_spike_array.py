r"""Spike4DGS in miniature: a moving Gaussian scene seen by an array of simulated spike cameras.

Paper map
---------
*Spike4DGS: Towards High-Speed Dynamic Scene Rendering with 4D Gaussian Splatting via a Spike Camera
Array*, NeurIPS 2025 poster (https://openreview.net/forum?id=V5efEA8nIr; authors not retrieved; official
repository github.com/Qinghongye/Spike4DGS, which at commit 1e45b20 holds only a README saying "coming
soon" and a web page, so no official code could be read or run). Notebook:
``notebooks/spike4dgs-spike-array.py``.

Notation (standard spike-camera and 4D Gaussian splatting background -> here):

=====================================================  ==================================================
background                                             here
=====================================================  ==================================================
pixel accumulator :math:`A \leftarrow A + I\,\Delta t`  :func:`integrate_and_fire`, :func:`simulate_spikes`
  fires when :math:`A \ge \theta`, then                  (one step = one :math:`\Delta t`; ``theta``)
  :math:`A \leftarrow A - \theta`
spike stream :math:`S(x, y, n)\in\{0,1\}`              ``spikes[n, ...]`` (uint8)
TFP image :math:`\theta N_w / w`                       :func:`tfp_reconstruct` (``window`` = :math:`w` steps)
Gaussian :math:`k`: mean :math:`\mu_k(t)=\mu_k+v_k t`   :func:`dynamic_means` (``mu0[k]``, ``vel[k]``)
scale :math:`\sigma_k`, opacity/intensity :math:`a_k`   ``sigma[k]``, ``amp[k]`` (isotropic, grey)
orthographic camera :math:`c` (right, up axes)          :func:`camera_axes` -> ``axes[c] = (e_u, e_v)``
rendered view                                          :func:`render_ortho`:
                                                       :math:`R = 1-\exp(-\sum_k a_k G_k)`
image loss :math:`\|R(t_j) - \mathrm{TFP}_j\|`          :func:`image_loss`
spike loss (window-integrated render vs counts)        :func:`spike_consistency_loss`
PSNR                                                   :func:`psnr`
=====================================================  ==================================================

The renderer composites white splats over a black background, :math:`R = 1-\prod_k(1-\alpha_k)` with
:math:`\alpha_k = 1-\exp(-a_k G_k)`, which is order-free because every splat has the same colour; each
projected Gaussian is separable in the two image axes, so a view costs :math:`K(H+W)` exponentials.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from numpy.typing import ArrayLike

from repro.optim import Adam
from repro.validate import check_int, check_positive, finite_array


# --------------------------------------------------------------------------- spike camera
def simulate_spikes(intensity_video: ArrayLike, theta: float, init: ArrayLike | None = None,
                    return_state: bool = False):
    """Integrate-and-fire spike camera with subtractive reset, on a time-varying intensity video.

    At every step ``n`` each pixel adds ``intensity_video[n]`` to its accumulator ``A``; if then
    ``A >= theta`` it emits a spike (1) and ``A <- A - theta``. A pixel fires at most once per step
    (a binary stream), so a pixel brighter than ``theta`` per step saturates and keeps its excess.
    Vectorised over pixels; the loop runs over time steps only. Float64 throughout.

    Parameters
    ----------
    intensity_video : array_like, shape (T, ...)
        Non-negative intensity per step (accumulated charge per :math:`\\Delta t`).
    theta : float
        Firing threshold, > 0.
    init : array_like, shape (...), optional
        Initial accumulator (default 0 everywhere); each entry in ``[0, theta)``.
    return_state : bool
        Also return the final accumulator.

    Returns
    -------
    spikes : np.ndarray of uint8, shape (T, ...)
    state : np.ndarray, shape (...), only if ``return_state``
    """
    video = finite_array(intensity_video, "intensity_video")
    if video.ndim < 1 or video.shape[0] < 1:
        raise ValueError(f"intensity_video must have a leading time axis of length >= 1; got shape {video.shape}")
    if np.any(video < 0):
        raise ValueError("intensity_video must be non-negative")
    theta = check_positive(theta, "theta")
    if init is None:
        acc = np.zeros(video.shape[1:])
    else:
        acc = finite_array(init, "init").copy()
        if acc.shape != video.shape[1:]:
            raise ValueError(f"init must have shape {video.shape[1:]}; got {acc.shape}")
        if np.any(acc < 0) or np.any(acc >= theta):
            raise ValueError("init must lie in [0, theta)")
    spikes = np.zeros(video.shape, dtype=np.uint8)
    for n in range(video.shape[0]):
        acc += video[n]
        fire = acc >= theta
        acc -= theta * fire
        spikes[n] = fire
    return (spikes, acc) if return_state else spikes


def integrate_and_fire(intensity: ArrayLike, theta: float, n_steps: int) -> np.ndarray:
    """0/1 spike trains of pixels with constant intensity (accumulator starts at 0, subtractive reset).

    Each step every pixel adds ``intensity`` to its accumulator and fires when the accumulator reaches
    ``theta`` (``A >= theta``), subtracting ``theta``. In exact arithmetic, for ``0 <= I < theta``,
    the number of spikes after ``n`` steps is ``floor(n * I / theta)`` and the accumulator stays in
    ``[0, theta)``; in general (saturation at one spike per step) the count is
    ``min(n, floor(n * I / theta))``. In floating point the running sum can land just below or just
    above an exact multiple of ``theta``, moving one spike by one step there (never otherwise): with
    dyadic ``I`` and ``theta`` (exactly representable, e.g. 0.25, 0.75) the arithmetic is exact and
    the closed form holds to the spike.

    Parameters
    ----------
    intensity : array_like, any shape
        Constant non-negative intensity per step of each pixel.
    theta : float
        Threshold, > 0.
    n_steps : int
        Number of time steps, >= 1.

    Returns
    -------
    np.ndarray of uint8, shape (n_steps, *intensity.shape)
    """
    n_steps = check_int(n_steps, "n_steps", least=1)
    inten = finite_array(intensity, "intensity")
    video = np.broadcast_to(inten, (n_steps, *inten.shape))
    return simulate_spikes(video, theta)


def spike_counts(spikes: ArrayLike, window: int) -> np.ndarray:
    """Spike counts in consecutive non-overlapping windows of ``window`` steps.

    Parameters
    ----------
    spikes : array_like, shape (T, ...), 0/1; ``T`` a multiple of ``window``
    window : int, >= 1

    Returns
    -------
    np.ndarray of int64, shape (T // window, ...)
    """
    s = np.asarray(spikes)
    window = check_int(window, "window", least=1)
    if s.ndim < 1 or s.shape[0] % window:
        raise ValueError(f"the stream length {s.shape[0] if s.ndim else None} must be a multiple of window={window}")
    if not np.isin(s, (0, 1)).all():
        raise ValueError("spikes must be 0/1")
    return s.reshape(s.shape[0] // window, window, *s.shape[1:]).sum(axis=1, dtype=np.int64)


def tfp_reconstruct(spikes: ArrayLike, window: int, theta: float) -> np.ndarray:
    """Texture from playback (TFP): intensity per step estimated as ``theta * count / window``.

    One image per non-overlapping window. For a constant intensity ``I < theta`` the estimate is within
    ``theta / window`` of ``I`` (the count over ``w`` steps differs from ``w I / theta`` by less than
    one, whatever the accumulator held at the window's start).

    Parameters
    ----------
    spikes : array_like, shape (T, ...); ``T`` a multiple of ``window``
    window : int
    theta : float, > 0

    Returns
    -------
    np.ndarray of float64, shape (T // window, ...)
    """
    theta = check_positive(theta, "theta")
    window = check_int(window, "window", least=1)
    return theta * spike_counts(spikes, window) / window


# --------------------------------------------------------------------------- scene and renderer
@dataclass
class Scene:
    """Isotropic grey Gaussians moving on straight lines: ``mu(t) = mu0 + vel * t`` for t in [0, 1].

    Attributes: ``mu0`` (K, 3), ``vel`` (K, 3), ``sigma`` (K,), ``amp`` (K,), all float64 arrays.
    """

    mu0: np.ndarray
    vel: np.ndarray
    sigma: np.ndarray
    amp: np.ndarray


def make_scene(rng: np.random.Generator, n_gauss: int, n_moving: int, speed: float,
               sigma_range=(0.12, 0.2), amp_range=(0.8, 1.6), box: float = 0.5) -> Scene:
    """A random scene: centres at time 0.5 uniform in ``[-box, box]^3``; ``n_moving`` of them move with
    ``|vel| = speed`` in a uniform random direction (the others stay still).

    Returns a :class:`Scene` whose means at t = 0.5 are the drawn centres.
    """
    n_gauss = check_int(n_gauss, "n_gauss", least=1)
    n_moving = check_int(n_moving, "n_moving", least=0)
    if n_moving > n_gauss:
        raise ValueError(f"n_moving must be <= n_gauss; got {n_moving} > {n_gauss}")
    speed = check_positive(speed, "speed", strict=False)
    centre = rng.uniform(-box, box, size=(n_gauss, 3))
    direction = rng.normal(size=(n_gauss, 3))
    direction /= np.linalg.norm(direction, axis=1, keepdims=True)
    vel = speed * direction * (np.arange(n_gauss) < n_moving)[:, None]
    sigma = rng.uniform(*sigma_range, size=n_gauss)
    amp = rng.uniform(*amp_range, size=n_gauss)
    return Scene(mu0=centre - 0.5 * vel, vel=vel, sigma=sigma, amp=amp)


def freeze(scene: Scene) -> Scene:
    """The same Gaussians held still at their t = 0.5 positions (a scene with no motion)."""
    return Scene(mu0=scene.mu0 + 0.5 * scene.vel, vel=np.zeros_like(scene.vel), sigma=scene.sigma.copy(),
                 amp=scene.amp.copy())


def init_from_points(truth: Scene, rng: np.random.Generator, noise: float = 0.15, sigma0: float = 0.25,
                     amp0: float = 0.7) -> Scene:
    """A coarse initial point cloud: the true centres at t = 0.5 jittered by ``N(0, noise^2)`` per axis,
    zero velocity, common scale ``sigma0`` and amplitude ``amp0`` (our stand-in for the paper's
    multi-view spike-based dense initialisation, which is not reproduced)."""
    noise = check_positive(noise, "noise", strict=False)
    K = len(truth.sigma)
    return Scene(mu0=truth.mu0 + 0.5 * truth.vel + rng.normal(0.0, noise, size=(K, 3)), vel=np.zeros((K, 3)),
                 sigma=np.full(K, check_positive(sigma0, "sigma0")), amp=np.full(K, check_positive(amp0, "amp0")))


def stream_times(n_steps: int) -> np.ndarray:
    """Times in [0, 1] of the ``n_steps`` steps of a spike stream (step midpoints ``(n + 0.5) / n_steps``)."""
    n_steps = check_int(n_steps, "n_steps", least=1)
    return (np.arange(n_steps) + 0.5) / n_steps


def camera_axes(azimuth: ArrayLike, elevation: ArrayLike) -> np.ndarray:
    """Image axes of orthographic cameras looking at the origin from ``(azimuth, elevation)`` (radians).

    The viewing direction is ``d = (cos e cos a, cos e sin a, sin e)``; the image's right axis is
    ``e_u = (-sin a, cos a, 0)`` and its up axis ``e_v = d x e_u`` rotated to
    ``(-sin e cos a, -sin e sin a, cos e)``. A point ``x`` lands at ``(x . e_u, x . e_v)``.

    Returns
    -------
    np.ndarray, shape (V, 2, 3): ``axes[c, 0] = e_u``, ``axes[c, 1] = e_v`` (orthonormal).
    """
    a = np.atleast_1d(finite_array(azimuth, "azimuth"))
    e = np.broadcast_to(np.atleast_1d(finite_array(elevation, "elevation")), a.shape)
    if a.ndim != 1:
        raise ValueError("azimuth must be a scalar or a 1-D array")
    eu = np.stack([-np.sin(a), np.cos(a), np.zeros_like(a)], axis=-1)
    ev = np.stack([-np.sin(e) * np.cos(a), -np.sin(e) * np.sin(a), np.cos(e)], axis=-1)
    return np.stack([eu, ev], axis=1)


def nearest_camera(azimuth: ArrayLike, target_azimuth: float) -> int:
    """Index of the array camera nearest in azimuth to a target (novel) view; ties go to the lower index.

    The fixed rule that picks the single-camera comparator next to the held-out view:
    ``argmin_k |wrap(az_k - az_target)|`` with the angle wrapped to (-pi, pi] and rounded to 1e-9 rad, so
    that two cameras at the same angular distance tie and the first is taken.

    Parameters
    ----------
    azimuth : array_like, shape (V,)
        Azimuths of the array cameras (rad).
    target_azimuth : float
        Azimuth of the target view (rad).

    Returns
    -------
    int
        The camera index.
    """
    az = np.asarray(azimuth, dtype=float)
    if az.ndim != 1 or az.size == 0:
        raise ValueError("azimuth must be a non-empty 1-D array")
    d = np.abs(np.angle(np.exp(1j * (az - float(target_azimuth)))))
    return int(np.argmin(np.round(d, 9)))


def dynamic_means(mu0: torch.Tensor, vel: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
    """Means of linearly moving Gaussians, ``mu(t) = mu0 + vel * t`` (the 4-D Gaussians' deformation,
    here a constant velocity per Gaussian).

    Parameters
    ----------
    mu0, vel : Tensor, shape (..., K, 3)
    t : Tensor, shape (T,)

    Returns
    -------
    Tensor, shape (..., T, K, 3)
    """
    mu0, vel, t = torch.as_tensor(mu0), torch.as_tensor(vel), torch.as_tensor(t)
    if mu0.ndim < 2 or mu0.shape[-1] != 3 or vel.shape != mu0.shape:
        raise ValueError(f"mu0 and vel must both have shape (..., K, 3); got {tuple(mu0.shape)} and {tuple(vel.shape)}")
    if t.ndim != 1:
        raise ValueError(f"t must be 1-D; got shape {tuple(t.shape)}")
    return mu0[..., None, :, :] + t[:, None, None].to(mu0.dtype) * vel[..., None, :, :]


def pixel_centres(n: int, extent: float, dtype=torch.float64) -> torch.Tensor:
    """Centres of ``n`` pixels covering ``[-extent, extent]``, increasing (``(i + 0.5) * 2 extent / n - extent``)."""
    n = check_int(n, "n", least=1)
    extent = check_positive(extent, "extent")
    return (torch.arange(n, dtype=dtype) + 0.5) * (2 * extent / n) - extent


def render_ortho(mu: torch.Tensor, sigma: torch.Tensor, amp: torch.Tensor, axes: torch.Tensor,
                 H: int, W: int, extent: float) -> torch.Tensor:
    """Differentiable orthographic splatting of isotropic Gaussians (white splats over black).

    Gaussian ``k`` projects to a 2-D isotropic Gaussian of the same ``sigma`` centred at
    ``(u_k, v_k) = (mu_k . e_u, mu_k . e_v)``;
    ``R(p) = 1 - exp(-sum_k amp_k exp(-|p - (u_k, v_k)|^2 / (2 sigma_k^2)))``.
    Image rows run from ``v = +extent`` (top) to ``-extent``; columns from ``u = -extent`` to ``+extent``.
    Leading batch dimensions ``...`` (independent scenes) broadcast across all arguments.

    Parameters
    ----------
    mu : Tensor, shape (..., T, K, 3)
        Means at ``T`` time instants.
    sigma, amp : Tensor, shape (..., K)
        Positive scales and non-negative amplitudes.
    axes : Tensor, shape (..., V, 2, 3)
        Camera axes from :func:`camera_axes`.
    H, W : int
    extent : float
        Half-width of the field of view (scene units).

    Returns
    -------
    Tensor, shape (..., T, V, H, W), values in [0, 1).
    """
    H, W = check_int(H, "H", least=1), check_int(W, "W", least=1)
    if mu.ndim < 3 or mu.shape[-1] != 3:
        raise ValueError(f"mu must have shape (..., T, K, 3); got {tuple(mu.shape)}")
    K = mu.shape[-2]
    if sigma.ndim < 1 or amp.ndim < 1 or sigma.shape[-1] != K or amp.shape[-1] != K:
        raise ValueError(f"sigma and amp must have shape (..., {K}); got {tuple(sigma.shape)}, {tuple(amp.shape)}")
    if axes.ndim < 3 or axes.shape[-2:] != (2, 3):
        raise ValueError(f"axes must have shape (..., V, 2, 3); got {tuple(axes.shape)}")
    axes = axes.to(mu.dtype)
    uv = torch.einsum("...tkd,...vad->...tvka", mu, axes)              # (..., T, V, K, 2)
    xs = pixel_centres(W, extent, mu.dtype)
    ys = -pixel_centres(H, extent, mu.dtype)                           # top row first
    inv = (1.0 / (2.0 * sigma ** 2))[..., None, None, :, None]         # (..., 1, 1, K, 1)
    gx = torch.exp(-(xs - uv[..., 0:1]) ** 2 * inv)                    # (..., T, V, K, W)
    gy = torch.exp(-(ys - uv[..., 1:2]) ** 2 * inv) * amp[..., None, None, :, None]
    density = torch.einsum("...tvkh,...tvkw->...tvhw", gy, gx)
    return 1.0 - torch.exp(-density)


def render_scene(scene: Scene, t: ArrayLike, axes: np.ndarray, H: int, W: int, extent: float) -> np.ndarray:
    """Ground-truth views of ``scene`` at times ``t`` (T,) from cameras ``axes`` (V, 2, 3): (T, V, H, W)."""
    t = torch.as_tensor(np.atleast_1d(finite_array(t, "t")))
    mu = dynamic_means(torch.as_tensor(scene.mu0), torch.as_tensor(scene.vel), t)
    with torch.no_grad():
        img = render_ortho(mu, torch.as_tensor(scene.sigma), torch.as_tensor(scene.amp),
                           torch.as_tensor(axes), H, W, extent)
    return img.numpy()


# --------------------------------------------------------------------------- losses and metrics
def image_loss(render: torch.Tensor, frames: torch.Tensor) -> torch.Tensor:
    """Mean squared error between renders and reconstructed frames (same shape)."""
    if render.shape != frames.shape:
        raise ValueError(f"render and frames must have the same shape; got {tuple(render.shape)}, {tuple(frames.shape)}")
    return ((render - frames) ** 2).mean()


def spike_consistency_loss(render_video: torch.Tensor, spike_counts: torch.Tensor, theta: float,
                           window: int) -> torch.Tensor:
    """Spike loss: the render integrated over each window, in units of ``theta``, against the spike count.

    ``render_video`` holds ``m`` renders per window at equally spaced instants inside it (a midpoint
    rule for the integral over the window's ``window`` steps):
    ``L = mean_j ((window / theta) * mean_m R_{j,m} - N_j)^2 * (theta / window)^2``,
    i.e. the mean squared gap between the window-averaged render and ``theta N_j / window`` (intensity
    per step). With ``m = 1`` it reduces to :func:`image_loss` against TFP frames.

    Parameters
    ----------
    render_video : Tensor, shape (J, m, ...)
    spike_counts : Tensor, shape (J, ...)
    theta : float, > 0
    window : int, >= 1
    """
    theta = check_positive(theta, "theta")
    window = check_int(window, "window", least=1)
    if render_video.ndim < 2 or render_video.shape[0] != spike_counts.shape[0] \
            or render_video.shape[2:] != spike_counts.shape[1:]:
        raise ValueError(f"render_video (J, m, ...) and spike_counts (J, ...) disagree: "
                         f"{tuple(render_video.shape)} vs {tuple(spike_counts.shape)}")
    expected = render_video.mean(dim=1) * (window / theta)            # expected count
    return ((expected - spike_counts.to(render_video.dtype)) ** 2).mean() * (theta / window) ** 2


def psnr(a: ArrayLike, b: ArrayLike, data_range: float = 1.0) -> float:
    """Peak signal-to-noise ratio ``10 log10(data_range^2 / MSE)`` in dB (inf for identical images)."""
    a, b = finite_array(a, "a"), finite_array(b, "b")
    if a.shape != b.shape:
        raise ValueError(f"a and b must have the same shape; got {a.shape}, {b.shape}")
    data_range = check_positive(data_range, "data_range")
    mse = float(np.mean((a - b) ** 2))
    return float("inf") if mse == 0 else float(10 * np.log10(data_range ** 2 / mse))


# --------------------------------------------------------------------------- fitting
@dataclass
class FitResult:
    """Fitted scenes (one per variant) and the loss history, ``loss[i, b]`` at iteration ``i``."""

    scenes: list
    loss: np.ndarray


def fit_splats(init: Scene, axes: ArrayLike, counts: ArrayLike, window: int, n_steps: int, theta: float,
               H: int, W: int, extent: float, *, cam_weight: ArrayLike | None = None, dynamic=True,
               lam_img=1.0, lam_spk=1.0, theta_model=None, n_sub: int = 4, iters: int = 150,
               lr: float = 0.02, batch: int | None = None, seed: int = 0, progress=None) -> FitResult:
    """Fit moving Gaussians to the spike streams of calibrated cameras: Adam on image + spike losses.

    Fits ``B`` independent variants at once (a leading batch axis; Adam acts elementwise and the
    variants' losses are summed, so each variant follows its own fit). Per iteration, on ``batch``
    random windows (or all ``J``): the image loss compares the render at each window's centre with the
    TFP frame ``theta N_j / window`` (reconstructed frames); the spike loss compares the render averaged
    over ``n_sub`` instants inside the window with the count (:func:`spike_consistency_loss`), using the
    threshold ``theta_model`` (default ``theta``; another value is a miscalibrated spike model). Losses
    are camera-weighted means (``cam_weight`` 0 drops a camera, e.g. a monocular variant).
    ``dynamic`` False freezes the velocities at 0 (a static 3DGS). Parameters: means at t = 0,
    velocities, log-scales and log-amplitudes, in float32.

    Parameters
    ----------
    init : Scene
        Initial Gaussians: arrays (K, ...) shared by all variants, or (B, K, ...) one per variant
        (``init.vel`` is the initial velocity of the dynamic ones).
    axes : array_like, shape (B, V, 2, 3) or (V, 2, 3)
        Cameras per variant.
    counts : array_like, shape (B, J, V, H, W) or (J, V, H, W)
        Spike counts per window; ``J * window == n_steps``.
    cam_weight : array_like, shape (B, V), optional (default all ones)
    dynamic, lam_img, lam_spk, theta_model : scalar or (B,)
        Per-variant switches and loss weights.

    Returns
    -------
    FitResult with ``B`` scenes.
    """
    axes, counts = np.asarray(axes, dtype=float), np.asarray(counts)
    if axes.ndim == 3:
        axes = axes[None]
    if counts.ndim == 4:
        counts = counts[None]
    B, V = axes.shape[:2]
    window, n_steps = check_int(window, "window", least=1), check_int(n_steps, "n_steps", least=1)
    J = n_steps // window
    if J * window != n_steps or counts.shape != (B, J, V, H, W):
        raise ValueError(f"counts must have shape ({B}, {n_steps // window}, {V}, {H}, {W}) "
                         f"(n_steps a multiple of window); got {counts.shape}")
    theta = check_positive(theta, "theta")
    iters, n_sub = check_int(iters, "iters", least=1), check_int(n_sub, "n_sub", least=1)
    batch = J if batch is None else min(check_int(batch, "batch", least=1), J)

    def per_variant(x, name):
        arr = np.broadcast_to(np.asarray(x, dtype=float), (B,)).copy()
        if not np.all(np.isfinite(arr)) or np.any(arr < 0):
            raise ValueError(f"{name} must be finite and >= 0")
        return arr

    lam_i, lam_s = per_variant(lam_img, "lam_img"), per_variant(lam_spk, "lam_spk")
    th_m = per_variant(theta if theta_model is None else theta_model, "theta_model")
    if np.any(th_m <= 0):
        raise ValueError("theta_model must be > 0")
    dyn = np.broadcast_to(np.asarray(dynamic, dtype=bool), (B,)).copy()
    cw = np.ones((B, V)) if cam_weight is None else np.asarray(cam_weight, dtype=float)
    if cw.shape != (B, V) or np.any(cw < 0) or np.any(cw.sum(axis=1) <= 0):
        raise ValueError(f"cam_weight must have shape ({B}, {V}), be >= 0 and weigh some camera per variant")
    dt = torch.float32

    def tile(x, base_ndim, name):
        x = np.asarray(x, dtype=float)
        if x.ndim == base_ndim + 1 and x.shape[0] != B:
            raise ValueError(f"init.{name} has a batch axis of {x.shape[0]}, not B={B}")
        if x.ndim not in (base_ndim, base_ndim + 1):
            raise ValueError(f"init.{name} must have {base_ndim} or {base_ndim + 1} dimensions; got shape {x.shape}")
        return torch.tensor(np.broadcast_to(x, (B, *x.shape[-base_ndim:])).copy(), dtype=dt)

    mu0 = tile(init.mu0, 2, "mu0").requires_grad_(True)
    vel = tile(init.vel, 2, "vel").mul_(torch.as_tensor(dyn, dtype=dt)[:, None, None]).requires_grad_(True)
    log_s = tile(np.log(init.sigma), 1, "sigma").requires_grad_(True)
    log_a = tile(np.log(init.amp), 1, "amp").requires_grad_(True)
    opt = Adam([mu0, vel, log_s, log_a], lr=lr)
    vmask = torch.as_tensor(dyn, dtype=dt)[:, None, None]
    ax = torch.as_tensor(axes, dtype=dt)
    cnt = torch.as_tensor(counts, dtype=dt)                                     # (B, J, V, H, W)
    frames = theta * cnt / window                                               # TFP, true theta
    camw = torch.as_tensor(cw / cw.sum(axis=1, keepdims=True), dtype=dt)        # (B, V)
    li, ls = torch.as_tensor(lam_i, dtype=dt), torch.as_tensor(lam_s, dtype=dt)
    scale_spk = torch.as_tensor(window / th_m, dtype=dt)                        # expected count per unit render
    centre_t = (torch.arange(J, dtype=dt) + 0.5) * window / n_steps
    sub_off = ((torch.arange(n_sub, dtype=dt) + 0.5) / n_sub - 0.5) * window / n_steps
    gen = torch.Generator().manual_seed(seed)
    history = np.empty((iters, B))
    steps = range(iters) if progress is None else progress(range(iters))
    for it in steps:
        idx = torch.arange(J) if batch == J else torch.randperm(J, generator=gen)[:batch]
        sigma, amp, v = torch.exp(log_s), torch.exp(log_a), vel * vmask
        r = render_ortho(dynamic_means(mu0, v, centre_t[idx]), sigma, amp, ax, H, W, extent)
        img = ((r - frames[:, idx]) ** 2).mean(dim=(1, 3, 4))                   # (B, V)
        ts = (centre_t[idx][:, None] + sub_off[None]).reshape(-1)
        r = render_ortho(dynamic_means(mu0, v, ts), sigma, amp, ax, H, W, extent)
        r = r.reshape(B, len(idx), n_sub, V, H, W).mean(dim=2)                 # window-averaged render
        gap = (r * scale_spk[:, None, None, None, None] - cnt[:, idx]) / scale_spk[:, None, None, None, None]
        spk = (gap ** 2).mean(dim=(1, 3, 4))                                    # (B, V), intensity units
        loss_b = ((li[:, None] * img + ls[:, None] * spk) * camw).sum(dim=1)
        opt.zero_grad()
        loss_b.sum().backward()
        opt.step()
        history[it] = loss_b.detach().numpy()
    scenes = [Scene(mu0=mu0[b].detach().double().numpy(), vel=(vel * vmask)[b].detach().double().numpy(),
                    sigma=torch.exp(log_s[b]).detach().double().numpy(),
                    amp=torch.exp(log_a[b]).detach().double().numpy()) for b in range(B)]
    return FitResult(scenes=scenes, loss=history)


def novel_view_psnr(fitted: Scene, truth: Scene, axes: np.ndarray, t: ArrayLike, H: int, W: int,
                    extent: float) -> np.ndarray:
    """PSNR (dB, data range 1) of the fitted scene's renders against the truth's, per time instant.

    Returns an array of shape (T,) (one value per instant, over all cameras in ``axes``).
    """
    a = render_scene(fitted, t, axes, H, W, extent)
    b = render_scene(truth, t, axes, H, W, extent)
    return np.array([psnr(a[i], b[i]) for i in range(len(a))])


# --------------------------------------------------------------------------- naive baselines (comparators)
def fit_per_window_static(init: Scene, axes: ArrayLike, counts: ArrayLike, window: int, theta: float,
                          H: int, W: int, extent: float, **fit_kw) -> list:
    """Per-frame 3DGS, the naive baseline of a dynamic model: one static fit per spike window.

    Each of the ``J`` windows of ``counts`` is fitted on its own by a static Gaussian model
    (:func:`fit_splats` with ``dynamic=False`` and that window's counts only, the same losses), so the
    scene may change from window to window but no motion model links them. All ``J`` fits run as one
    batch.

    Parameters
    ----------
    init : Scene
        Initial Gaussians (K, ...), shared by every window's fit.
    axes : array_like, shape (V, 2, 3)
    counts : array_like, shape (J, V, H, W)
        Spike counts per window of ``window`` steps.
    **fit_kw
        Passed to :func:`fit_splats` (``lam_spk``, ``iters``, ``seed``, ...; not ``dynamic`` or ``batch``).

    Returns
    -------
    list of ``J`` :class:`Scene`, window ``j``'s static fit (velocities 0).
    """
    counts = np.asarray(counts)
    if counts.ndim != 4:
        raise ValueError(f"counts must have shape (J, V, H, W); got {counts.shape}")
    if "dynamic" in fit_kw or "batch" in fit_kw:
        raise ValueError("fit_per_window_static fixes dynamic=False and uses the one window of each fit")
    J = counts.shape[0]
    axes = np.asarray(axes, dtype=float)
    fit = fit_splats(init, np.repeat(axes[None], J, axis=0), counts[:, None], window, window, theta,
                     H, W, extent, dynamic=False, **fit_kw)
    return fit.scenes


def per_window_psnr(fits: list, truth: Scene, axes: np.ndarray, t: ArrayLike, H: int, W: int,
                    extent: float) -> np.ndarray:
    """Novel-view PSNR of per-window fits: instant ``t`` is rendered by the fit of the window holding it.

    With ``J = len(fits)`` equal windows over [0, 1), instant ``t`` falls in window ``min(floor(t J), J-1)``.
    Returns an array of shape (T,) as :func:`novel_view_psnr`.
    """
    t = np.asarray(t, dtype=float)
    if t.ndim != 1 or np.any(t < 0) or np.any(t > 1) or len(fits) == 0:
        raise ValueError("t must be a 1-D array of instants in [0, 1] and fits non-empty")
    J = len(fits)
    idx = np.minimum((t * J).astype(int), J - 1)
    return np.array([novel_view_psnr(fits[j], truth, axes, [ti], H, W, extent)[0] for ti, j in zip(t, idx)])
