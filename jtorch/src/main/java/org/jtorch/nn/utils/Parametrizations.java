package org.jtorch.nn.utils;

import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.nn.Module;
import org.jtorch.nn.functional.F;

/**
 * {@code torch.nn.utils.parametrizations}: weight normalisation and spectral normalisation as parametrizations
 * ({@link Parametrize}), with PyTorch's layouts: {@code parametrizations.weight.original0} (g) and {@code original1}
 * (v) for weight norm; {@code parametrizations.weight.original} and the power-iteration vectors
 * {@code parametrizations.weight.0._u} and {@code _v} for spectral norm.
 */
public final class Parametrizations {
    private Parametrizations() {}

    /** {@code weight_norm(module)}: the weight, over dim 0. */
    public static Module weightNorm(Module module) {
        return weightNorm(module, "weight", 0);
    }

    /**
     * {@code weight_norm(module, name, dim)}: {@code name = g * v / ‖v‖}, the norm taken over every dim but
     * {@code dim}; {@code dim = null} (PyTorch's None, which it turns into -1) normalises the whole tensor at once, as
     * PyTorch does for -1. Registered unsafe, as PyTorch's, since g and v are two tensors of other shapes.
     */
    public static Module weightNorm(Module module, String name, Integer dim) {
        return Parametrize.registerParametrization(module, name, new WeightNorm(dim == null ? -1 : dim), true);
    }

    /** {@code _WeightNorm}: {@code torch._weight_norm(v, g, dim)}, with {@code (g, v) = (norm_except_dim(w), w)}. */
    static final class WeightNorm extends Module implements Parametrize.MultiInput {
        private final int dim;

        WeightNorm(int dim) {
            this.dim = dim;
        }

        @Override
        public Tensor forward(List<Tensor> originals) {
            Tensor g = originals.get(0), v = originals.get(1);
            return v.mul(g.div(normExceptDim(v, dim)));
        }

        @Override
        public List<Tensor> rightInverse(Tensor weight) {
            return List.of(normExceptDim(weight, dim), weight);
        }

        @Override
        protected String name() {
            return "_WeightNorm";
        }
    }

    /**
     * {@code torch.norm_except_dim(v, 2, dim)}: the 2-norm over every dim but {@code dim}, shaped to broadcast against
     * {@code v} (size 1 except at {@code dim}); {@code dim = -1} is the norm of the whole tensor, a 0-dim tensor.
     */
    static Tensor normExceptDim(Tensor v, int dim) {
        if (dim == -1) return Torch.vectorNorm(v, 2.0);
        int nd = v.dim(), d = dim < 0 ? dim + nd : dim;
        if (d < 0 || d >= nd) {
            throw new TorchException("Dimension out of range (expected to be in range of [" + -nd + ", " + (nd - 1)
                    + "], but got " + dim + ")");
        }
        long[] dims = new long[nd - 1];
        for (int i = 0, j = 0; i < nd; i++) if (i != d) dims[j++] = i;
        return Torch.vectorNorm(v, 2.0, dims, true);
    }

    /** {@code spectral_norm(module)}: the weight, one power iteration per training forward, eps 1e-12, dim 0. */
    public static Module spectralNorm(Module module) {
        return spectralNorm(module, "weight", 1, 1e-12, 0);
    }

    /**
     * {@code spectral_norm(module, name, n_power_iterations, eps, dim)}: {@code name = W / σ(W)}, σ the largest
     * singular value of W reshaped to a matrix with {@code dim} first, estimated by power iteration as PyTorch does:
     * {@code u} and {@code v} drawn from N(0, 1) on the default generator and normalised, 15 iterations at
     * registration, then {@code n_power_iterations} in every forward in training mode (updating the buffers {@code _u}
     * and {@code _v} in place), none in evaluation. A 1-D tensor is simply normalised.
     */
    public static Module spectralNorm(Module module, String name, int nPowerIterations, double eps, int dim) {
        Tensor weight;
        try {
            weight = module.getParameter(name);
        } catch (IllegalArgumentException e) {
            weight = module.registeredBuffers().get(name);
        }
        if (weight == null)
            throw new TorchException("Module '" + module + "' has no parameter or buffer with name '" + name + "'");
        return Parametrize.registerParametrization(module, name, new SpectralNorm(weight, nPowerIterations, dim, eps));
    }

    /** {@code _SpectralNorm}. */
    static final class SpectralNorm extends Module implements Parametrize.RightInverse {
        private final int dim;
        private final double eps;
        private final int nPowerIterations;

        @SuppressWarnings("this-escape")
        SpectralNorm(Tensor weight, int nPowerIterations, int dim, double eps) {
            int nd = weight.dim();
            if (dim >= nd || dim < -nd) {
                throw new TorchException("Dimension out of range (expected to be in range of [-" + nd + ", " + (nd - 1)
                        + "] but got " + dim + ")");
            }
            if (nPowerIterations <= 0) {
                throw new TorchException(
                        "Expected n_power_iterations to be positive, but got n_power_iterations=" + nPowerIterations);
            }
            this.dim = dim >= 0 ? dim : dim + nd;
            this.eps = eps;
            this.nPowerIterations = nPowerIterations;
            if (nd > 1) {
                try (var _ = Torch.noGrad()) {
                    Tensor mat = toMatrix(weight);
                    Tensor u = Torch.empty(new long[] {mat.size(0)}, mat.dtype(), mat.device())
                            .normal_(0, 1);
                    Tensor v = Torch.empty(new long[] {mat.size(1)}, mat.dtype(), mat.device())
                            .normal_(0, 1);
                    registerBuffer("_u", F.normalize(u, 2.0, 0, eps));
                    registerBuffer("_v", F.normalize(v, 2.0, 0, eps));
                    powerMethod(mat, 15);
                }
            }
        }

        private Tensor toMatrix(Tensor weight) {
            if (dim != 0) {
                int[] perm = new int[weight.dim()];
                perm[0] = dim;
                for (int i = 0, j = 1; i < perm.length; i++) if (i != dim) perm[j++] = i;
                weight = weight.permute(perm);
            }
            return weight.flatten(1);
        }

        private void powerMethod(Tensor mat, int iterations) {
            try (var _ = Torch.noGrad()) {
                Tensor u = getBuffer("_u"), v = getBuffer("_v");
                for (int i = 0; i < iterations; i++) {
                    u.copy_(F.normalize(Torch.mv(mat, v), 2.0, 0, eps));
                    v.copy_(F.normalize(Torch.mv(mat.mH(), u), 2.0, 0, eps));
                }
            }
        }

        @Override
        public Tensor forward(Tensor weight) {
            if (weight.dim() == 1) return F.normalize(weight, 2.0, 0, eps);
            Tensor mat = toMatrix(weight);
            if (isTraining()) powerMethod(mat, nPowerIterations);
            Tensor u = getBuffer("_u").clone(), v = getBuffer("_v").clone();
            Tensor sigma = Torch.vdot(u, Torch.mv(mat, v));
            return weight.div(sigma);
        }

        @Override
        public Tensor rightInverse(Tensor value) {
            return value;
        }

        @Override
        protected String name() {
            return "_SpectralNorm";
        }
    }
}
