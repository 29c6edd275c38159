package org.jtorch.amp;

import java.util.HashMap;
import java.util.Map;

/**
 * ATen's CPU autocast lists ({@code TORCH_LIBRARY_IMPL(aten, AutocastCPU, m)} in {@code autocast_mode.cpp}), by op name
 * without overload: every overload PyTorch lists for a name has the same policy there. Ops not listed run in the dtypes
 * they are given; on the CPU that includes {@code softmax}, {@code log_softmax}, {@code layer_norm} and {@code sum},
 * which the CUDA lists promote to float32.
 *
 * <p>The names are PyTorch's, also for ops that JTorch composes in {@code nn.functional} rather than registers
 * ({@code linear}, {@code conv2d}, {@code scaled_dot_product_attention}, the losses): those entry points cast with the
 * same policy through {@link Autocast#run}, and {@code AutocastListsTest} checks both against this table.
 */
final class CpuAutocastLists {
    private CpuAutocastLists() {}

    private static final Map<String, CastPolicy> POLICIES = new HashMap<>();

    static {
        for (String op : new String[] {
            "conv1d",
            "conv2d",
            "conv3d",
            "bmm",
            "mm",
            "linalg_vecdot",
            "baddbmm",
            "addmm",
            "_addmm_activation",
            "addbmm",
            "linear",
            "_convolution",
            "matmul",
            "conv_tbc",
            "mkldnn_rnn_layer",
            "conv_transpose1d",
            "conv_transpose2d",
            "conv_transpose3d",
            "prelu",
            "scaled_dot_product_attention",
            "_native_multi_head_attention"
        }) {
            POLICIES.put(op, CastPolicy.LOWER_PRECISION_FP);
        }
        for (String op : new String[] {
            "avg_pool3d",
            "binary_cross_entropy",
            "grid_sampler",
            "polar",
            "prod",
            "quantile",
            "nanquantile",
            "stft",
            "cdist",
            "grid_sampler_2d",
            "_grid_sampler_2d_cpu_fallback",
            "grid_sampler_3d",
            "trace",
            "view_as_complex",
            "cholesky",
            "cholesky_inverse",
            "cholesky_solve",
            "inverse",
            "lu_solve",
            "orgqr",
            "ormqr",
            "pinverse",
            "max_pool3d",
            "max_unpool2d",
            "max_unpool3d",
            "adaptive_avg_pool3d",
            "reflection_pad1d",
            "reflection_pad2d",
            "replication_pad1d",
            "replication_pad2d",
            "replication_pad3d",
            "mse_loss",
            "cosine_embedding_loss",
            "nll_loss",
            "nll_loss2d",
            "hinge_embedding_loss",
            "poisson_nll_loss",
            "smooth_l1_loss",
            "cross_entropy_loss",
            "l1_loss",
            "huber_loss",
            "margin_ranking_loss",
            "soft_margin_loss",
            "triplet_margin_loss",
            "multi_margin_loss",
            "ctc_loss",
            "kl_div",
            "multilabel_margin_loss",
            "binary_cross_entropy_with_logits",
            "fft_fft",
            "fft_ifft",
            "fft_fft2",
            "fft_ifft2",
            "fft_fftn",
            "fft_ifftn",
            "fft_rfft",
            "fft_irfft",
            "fft_rfft2",
            "fft_irfft2",
            "fft_rfftn",
            "fft_irfftn",
            "fft_hfft",
            "fft_ihfft",
            "linalg_cond",
            "linalg_matrix_rank",
            "linalg_solve",
            "linalg_cholesky",
            "linalg_svdvals",
            "linalg_eigvals",
            "linalg_eigvalsh",
            "linalg_inv",
            "linalg_householder_product",
            "linalg_tensorinv",
            "linalg_tensorsolve",
            "fake_quantize_per_tensor_affine",
            "geqrf",
            "_lu_with_info",
            "qr",
            "svd",
            "triangular_solve",
            "fractional_max_pool2d",
            "fractional_max_pool3d",
            "adaptive_max_pool3d",
            "multilabel_margin_loss_forward",
            "linalg_qr",
            "linalg_cholesky_ex",
            "linalg_svd",
            "linalg_eig",
            "linalg_eigh",
            "linalg_lstsq",
            "linalg_inv_ex"
        }) {
            POLICIES.put(op, CastPolicy.FP32);
        }
        for (String op : new String[] {"stack", "cat", "index_copy"}) POLICIES.put(op, CastPolicy.PROMOTE);
    }

    /** The policy of the op named {@code name} (without overload), or null when CPU autocast leaves it alone. */
    static CastPolicy of(String name) {
        return POLICIES.get(name);
    }

    /** Every listed name with its policy, for the tests that compare the lists with the entry points. */
    static Map<String, CastPolicy> all() {
        return Map.copyOf(POLICIES);
    }
}
