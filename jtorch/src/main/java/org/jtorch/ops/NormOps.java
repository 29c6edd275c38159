package org.jtorch.ops;

import java.util.Arrays;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.Shapes;

/**
 * {@code native_layer_norm}: layer normalisation as one op (ATen's), returning the output and the per-row mean and
 * reciprocal standard deviation {@code 1/sqrt(var + eps)} (biased variance), shaped {@code input.shape[:axis] + [1]*k}.
 * {@code F.layer_norm} is this op's first output.
 *
 * <p>Why one op: written with elementwise ops, a layer norm made nine passes over the activations forward and about as
 * many temporaries again backward; here the forward is one pass per row after its statistics, and the plain backward is
 * one pass per row plus a column sum for the weight and bias.
 *
 * <p>Backward: in a plain eager backward (no create_graph, no transform or debug mode active) the first-order gradients
 * come from {@link LayerNormKernels#backward}. Otherwise the rule is written with differentiable ops, so gradients of
 * any order, forward-mode (through {@link Jvps#transposedVjp}) and vmap all follow. Unlike PyTorch, whose mean and rstd
 * outputs carry no gradient, gradients reaching mean and rstd are honoured (the higher-order rule needs them: it reads
 * both outputs).
 */
public final class NormOps {
    private NormOps() {}

    /** Args: (input, long[] normalized_shape, weight or null, bias or null, Double eps). */
    public static final OpDef NATIVE_LAYER_NORM = OpDef.structured(
                    "native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, "
                            + "Tensor? bias, float eps) -> (Tensor, Tensor, Tensor)",
                    NormOps::layerNormMeta,
                    (args, outs, spec) -> LayerNormKernels.forward(
                            (Tensor) args[0],
                            (Tensor) args[2],
                            (Tensor) args[3],
                            ((Number) args[4]).doubleValue(),
                            (Integer) spec.plan(),
                            outs[0],
                            outs[1],
                            outs[2]))
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, NormOps::layerNormVjp)
            .outputsWithoutGrad(1, 2) // mean and rstd are saved statistics, not differentiable outputs, as in PyTorch
            .deriveJvp(Jvps::transposedVjp);

    /** {@code torch.native_layer_norm(input, normalized_shape, weight, bias, eps)}: {output, mean, rstd}. */
    public static Tensor[] nativeLayerNorm(
            Tensor input, long[] normalizedShape, Tensor weight, Tensor bias, double eps) {
        return (Tensor[]) Dispatcher.call(NATIVE_LAYER_NORM, input, normalizedShape, weight, bias, eps);
    }

    private static Spec layerNormMeta(Object[] args) {
        Tensor x = (Tensor) args[0], w = (Tensor) args[2], b = (Tensor) args[3];
        long[] normalized = (long[]) args[1];
        int k = normalized.length;
        boolean mixed = checkMixedDtypes(x, w, b);
        // ATen's _check_layer_norm_inputs, in its order and words
        if (k == 0) {
            throw new TorchException("Expected normalized_shape to be at least 1-dimensional, i.e., containing at "
                    + "least one element, but got normalized_shape = []");
        }
        checkParameter("weight", w, normalized);
        checkParameter("bias", b, normalized);
        long[] shape = x.impl().shapeRef();
        if (shape.length < k || !Arrays.equals(Arrays.copyOfRange(shape, shape.length - k, shape.length), normalized)) {
            throw new TorchException(
                    "Given normalized_shape=" + Shapes.str(normalized) + ", expected input with shape [*, "
                            + Shapes.str(normalized).substring(1) + ", but got input of size" + Shapes.str(shape));
        }
        DType d = x.dtype();
        if (d != DType.FLOAT32 && d != DType.FLOAT64 && d != DType.FLOAT16 && d != DType.BFLOAT16) {
            throw new TorchException(
                    "\"LayerNormKernelImpl\" not implemented for '" + x.dtype().cppName() + "'");
        }
        Device device = Devices.common("native_layer_norm", x, w, b);
        long[] stats = shape.clone();
        Arrays.fill(stats, shape.length - k, shape.length, 1L);
        long n = Shapes.numel(normalized);
        if (n > Integer.MAX_VALUE)
            throw new TorchException("native_layer_norm: normalized_shape of " + n + " elements is too large");
        // with float32 parameters the statistics are float32 too (ATen's param_scalar_type)
        DType statistics = mixed ? DType.FLOAT32 : d;
        return new Spec(
                new long[][] {x.shape(), stats, stats.clone()}, new DType[] {d, statistics, statistics}, device, (int)
                        n);
    }

    /**
     * ATen's mixed-dtype check, which runs before the shape checks: parameters of another dtype than the input must be
     * float32 and the input bfloat16 or float16 (the one mixture PyTorch's CPU kernel computes, in float32, rounding
     * the output to the input's dtype once). Returns whether the call is such a mixture. Layer and group norm share it.
     *
     * @param x the input
     * @param w the weight, or null
     * @param b the bias, or null
     * @return whether the parameters' dtype differs from the input's (and the mixture is allowed)
     */
    public static boolean checkMixedDtypes(Tensor x, Tensor w, Tensor b) {
        boolean mixed = (w != null && w.dtype() != x.dtype()) || (b != null && b.dtype() != x.dtype());
        if (!mixed) return false;
        for (Tensor p : new Tensor[] {w, b}) {
            if (p != null && p.dtype() != DType.FLOAT32) {
                throw new TorchException("mixed dtype (CPU): expect parameter to have scalar type of Float");
            }
        }
        if (x.dtype() != DType.BFLOAT16 && x.dtype() != DType.FLOAT16) {
            throw new TorchException("mixed dtype (CPU): all inputs must share same datatype.");
        }
        return true;
    }

    private static void checkParameter(String name, Tensor t, long[] normalized) {
        if (t != null && !Arrays.equals(t.impl().shapeRef(), normalized)) {
            throw new TorchException("Expected " + name + " to be of same shape as normalized_shape, but got " + name
                    + " of shape " + Shapes.str(t.impl().shapeRef()) + " and normalized_shape = "
                    + Shapes.str(normalized));
        }
    }

    private static Tensor[] layerNormVjp(Object[] a, Tensor[] o, Tensor[] g, InputMask mask) {
        Tensor x = (Tensor) a[0], w = (Tensor) a[2], b = (Tensor) a[3];
        long[] normalized = (long[]) a[1];
        int weightIndex = 1, biasIndex = w != null ? 2 : 1; // tensor-input positions (absent optionals are skipped)
        boolean needX = mask.needs(0),
                needW = w != null && mask.needs(weightIndex),
                needB = b != null && mask.needs(biasIndex);
        if (g[0] == null) return Grads.forTensorArgs(a, null, null, null, null); // mean and rstd carry no gradient
        if (plainEager(g[0], x, o[1], o[2], w)) {
            Tensor[] r = LayerNormKernels.backward(
                    g[0], x, o[1], o[2], w, b != null, normalized, (int) Shapes.numel(normalized), needX, needW, needB);
            return Grads.forTensorArgs(a, r[0], null, r[1], r[2]);
        }
        Tensor mean = o[1], rstd = o[2];
        if (DispatchState.current().isGradEnabled() && x.requiresGrad()) {
            // a recorded backward (double backward) must see how mean and rstd depend on x, and the saved outputs are
            // not in the graph: they keep their values (bit for bit the forward's) and gain the dependence through
            // statistics recomputed from x, added as r - r.detach(), which is exactly zero
            long[] rowDims = rowDims(x.dim(), normalized.length);
            Tensor m = x.mean(rowDims, true);
            Tensor r = x.sub(m)
                    .square()
                    .mean(rowDims, true)
                    .add(((Number) a[4]).doubleValue())
                    .rsqrt();
            mean = mean.add(m.sub(m.detach()));
            rstd = rstd.add(r.sub(r.detach()));
        }
        return Grads.forTensorArgs(a, differentiableGrads(x, normalized, w, mean, rstd, g[0], needX, needW, needB));
    }

    /** The trailing {@code k} dims of a rank-{@code rank} input: the normalised ones. */
    private static long[] rowDims(int rank, int k) {
        long[] dims = new long[k];
        for (int i = 0; i < k; i++) dims[i] = rank - k + i;
        return dims;
    }

    /** Whether the fused backward kernel may run: a first-order eager backward of plain CPU heap tensors. */
    private static boolean plainEager(Tensor... ts) {
        if (DispatchState.current().isGradEnabled() || !DispatchState.isPlainEager()) return false;
        for (Tensor t : ts) {
            if (t != null && (t.device() != Device.CPU || t.impl().storage().array() == null || t.isComplex()))
                return false;
        }
        return true;
    }

    /**
     * The gradients {input, normalized_shape (none), weight, bias} in differentiable ops, with {@code xhat = (x -
     * mean)·rstd}:
     *
     * <pre>
     *   dx = rstd·(u - mean(u) - xhat·mean(u·xhat))      u = g·w (or g)
     *   dw = Σ_rows g·xhat,   db = Σ_rows g
     * </pre>
     */
    private static Tensor[] differentiableGrads(
            Tensor x,
            long[] normalized,
            Tensor w,
            Tensor mean,
            Tensor rstd,
            Tensor g,
            boolean needX,
            boolean needW,
            boolean needB) {
        int k = normalized.length, rank = x.dim();
        long[] rowDims = rowDims(rank, k), leadDims = new long[rank - k];
        for (int i = 0; i < rank - k; i++) leadDims[i] = i;
        Tensor xhat = x.sub(mean).mul(rstd);
        Tensor dx = null;
        if (needX) {
            Tensor u = w != null ? g.mul(w) : g;
            dx = u.sub(u.mean(rowDims, true))
                    .sub(xhat.mul(u.mul(xhat).mean(rowDims, true)))
                    .mul(rstd);
        }
        Tensor dw = needW ? sumRows(g.mul(xhat), leadDims) : null;
        Tensor db = needB ? sumRows(g, leadDims) : null;
        return new Tensor[] {dx, null, dw, db};
    }

    /** Sums over the leading (row) dims; with none (input of the normalised shape itself) there is one row. */
    private static Tensor sumRows(Tensor t, long[] leadDims) {
        return leadDims.length == 0 ? t : t.sum(leadDims, false);
    }
}
