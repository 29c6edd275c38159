package org.jtorch.ops;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.jtorch.CdistComputeMode;
import org.jtorch.DType;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.cpu.ElementIO;
import org.jtorch.kernels.cpu.Parallel;
import org.jtorch.storage.Storage;

/**
 * Pairwise p-norm distances: {@code cdist} (a composite choosing, as ATen does, between the direct
 * {@code _cdist_forward} and the matrix-product {@code _euclidean_dist}) and {@code pdist} ({@code _pdist_forward}),
 * for p = 0 (count of differing components), 1, 2, ∞ and any other p ≥ 0.
 *
 * <p>The backward rules are differentiable tensor code over the component differences, so second-order gradients
 * (PyTorch 2.14) come from differentiating them again. They follow the subgradient conventions of
 * spec/autograd-rules.md §1: the gradient is 0 where the distance is 0 (never NaN), 0 where a component difference is 0
 * for p &lt; 1, and every tied maximal component gets the full gradient for p = ∞. Denominators are replaced by 1
 * before dividing where the result is masked anyway, so that the masked entries stay finite at every order (a masked
 * NaN would still poison the next derivative).
 */
public final class DistanceOps {
    private DistanceOps() {}

    /** ATen's compute_mode codes: 0 = mm if P or R &gt; 25, 1 = always mm, 2 = never mm. */
    private static final long MM_IF_NECESSARY = 0, MM_ALWAYS = 1;

    /** Both points sets above this size make the default mode use the matrix product (ATen's threshold). */
    private static final long MM_THRESHOLD = 25;

    // ---- checks -----------------------------------------------------------------------------------

    private static boolean floating(DType d) {
        return d == DType.FLOAT32 || d == DType.FLOAT64;
    }

    private static boolean halfPrecision(DType d) {
        return d == DType.FLOAT16 || d == DType.BFLOAT16;
    }

    /**
     * Whether a p-norm distance goes through {@code _euclidean_dist} (ATen's cdist_impl, for {@code cdist} and
     * {@code _cdist_forward} alike): p = 2 with mode 1, or mode 0 and more than 25 rows on either side.
     */
    private static boolean matrixProductRoute(double p, Object mode, long rows1, long rows2) {
        long m = mode == null ? MM_IF_NECESSARY : (Long) mode;
        return p == 2 && (m == MM_ALWAYS || m == MM_IF_NECESSARY && (rows1 > MM_THRESHOLD || rows2 > MM_THRESHOLD));
    }

    private static double p(Object o) {
        return ((Number) o).doubleValue();
    }

    /**
     * {@code cdist}'s checks in ATen's order; returns the output shape {@code (B*, P, R)}. {@code halfKernel}: whether
     * float16 and bfloat16 have a kernel here (the matrix-product route, or a result with nothing to compute).
     */
    private static long[] cdistShape(String op, Tensor x1, Tensor x2, double p, boolean halfKernel) {
        if (x1.dim() < 2)
            throw new TorchException("cdist only supports at least 2D tensors, X1 got: " + x1.dim() + "D");
        if (x2.dim() < 2)
            throw new TorchException("cdist only supports at least 2D tensors, X2 got: " + x2.dim() + "D");
        long c1 = x1.size(-1), c2 = x2.size(-1);
        if (c1 != c2)
            throw new TorchException("X1 and X2 must have the same number of columns. X1: " + c1 + " X2: " + c2);
        if (!x1.dtype().isFloatingPoint()) {
            throw new TorchException("cdist only supports floating-point dtypes, X1 got: "
                    + x1.dtype().cppName());
        }
        if (!x2.dtype().isFloatingPoint()) {
            throw new TorchException("cdist only supports floating-point dtypes, X2 got: "
                    + x2.dtype().cppName());
        }
        if (!(p >= 0)) throw new TorchException("cdist only supports non-negative p values");
        if (x1.device() != x2.device()) {
            throw new TorchException(
                    "X1 and X2 must have the same device type. X1: " + x1.device() + " X2: " + x2.device());
        }
        if (!floating(x1.dtype()) && !(halfKernel && halfPrecision(x1.dtype())))
            throw new TorchException(
                    "\"" + op + "\" not implemented for '" + x1.dtype().cppName() + "'");
        if (x1.dtype() != x2.dtype()) {
            throw new TorchException("expected scalar type " + x1.dtype().cppName() + " but found "
                    + x2.dtype().cppName());
        }
        long[] batch = Shapes.broadcast(batchShape(x1), batchShape(x2));
        long[] out = Arrays.copyOf(batch, batch.length + 2);
        out[batch.length] = x1.size(-2);
        out[batch.length + 1] = x2.size(-2);
        return out;
    }

    private static long[] batchShape(Tensor t) {
        return Arrays.copyOf(t.impl().shapeRef(), t.dim() - 2);
    }

    private static void checkMode(Object mode) {
        long m = mode == null ? MM_IF_NECESSARY : (Long) mode;
        if (m < 0 || m > 2) throw new TorchException("possible modes: 0, 1, 2, but was: " + m);
    }

    // ---- ops --------------------------------------------------------------------------------------

    /**
     * {@code cdist(x1, x2, p, compute_mode)}: the p-norm distance between each row of {@code x1} (B*, P, M) and each
     * row of {@code x2} (B*, R, M), batch dims broadcast; (B*, P, R). For p = 2 it takes the matrix-product path when
     * the mode asks for it, exactly where ATen does.
     */
    public static final OpDef CDIST =
            OpDef.composite("cdist(Tensor x1, Tensor x2, float p=2, int? compute_mode=None) -> Tensor", args -> {
                Tensor x1 = (Tensor) args[0], x2 = (Tensor) args[1];
                double p = p(args[2]);
                cdistShape("cdist", x1, x2, p, true);
                checkMode(args[3]);
                boolean mm =
                        x1.numel() > 0 && x2.numel() > 0 && matrixProductRoute(p, args[3], x1.size(-2), x2.size(-2));
                // qualified: the two ops are defined below
                return mm
                        ? DistanceOps.EUCLIDEAN_DIST.call1(x1, x2)
                        : DistanceOps.CDIST_FORWARD.call1(x1, x2, p, args[3]);
            });

    /**
     * {@code _cdist_forward(x1, x2, p, compute_mode)}: the direct computation, component by component, or, where ATen's
     * cdist_impl takes it (p = 2 and the mode asks for it), {@code _euclidean_dist}'s matrix-product formulation. Only
     * the latter has float16/bfloat16 kernels (PyTorch's direct kernel has none), and an empty result or zero columns
     * need none.
     */
    public static final OpDef CDIST_FORWARD = OpDef.structured(
                    "_cdist_forward(Tensor x1, Tensor x2, float p, int? compute_mode) -> Tensor",
                    args -> {
                        Tensor x1 = (Tensor) args[0], x2 = (Tensor) args[1];
                        double p = p(args[2]);
                        boolean nothingToCompute = x1.numel() == 0 || x2.numel() == 0;
                        boolean mm = x1.dim() >= 2
                                && x2.dim() >= 2
                                && matrixProductRoute(p, args[3], x1.size(-2), x2.size(-2));
                        long[] shape = cdistShape("cdist", x1, x2, p, mm || nothingToCompute);
                        checkMode(args[3]);
                        return Spec.of(shape, x1.dtype(), x1.device(), mm);
                    },
                    (args, outs, spec) -> {
                        Tensor x1 = (Tensor) args[0], x2 = (Tensor) args[1];
                        if ((Boolean) spec.plan()) euclideanKernel(x1, x2, outs[0]);
                        else cdistKernel(x1, x2, p(args[2]), outs[0]);
                    })
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g, mask) -> {
                Tensor x1 = (Tensor) a[0], x2 = (Tensor) a[1];
                // (B*, P, R, M): component differences of every pair; the distance broadcasts over M.
                Tensor diff = x1.unsqueeze(-2).sub(x2.unsqueeze(-3));
                Tensor weighted = weighted(g[0].unsqueeze(-1), diff, o[0].unsqueeze(-1), p(a[2]));
                if (weighted == null) return new Tensor[] {null, null};
                return new Tensor[] {
                    mask.needs(0) ? weighted.sum(-2) : null,
                    mask.needs(1) ? weighted.sum(-3).neg() : null
                };
            })
            .deriveJvp(Jvps::transposedVjp);

    /**
     * {@code _euclidean_dist(x1, x2)}: {@code sqrt(max(|x1_i|² - 2 x1_i·x2_j + |x2_j|², 0))}, the cross term by a
     * matrix product; batch dims broadcast. Its backward is ATen's {@code _euclidean_dist_backward}.
     */
    public static final OpDef EUCLIDEAN_DIST = OpDef.structured(
                    "_euclidean_dist(Tensor x1, Tensor x2) -> Tensor",
                    args -> {
                        Tensor x1 = (Tensor) args[0], x2 = (Tensor) args[1];
                        long[] shape = cdistShape("cdist", x1, x2, 2, true);
                        return Spec.of(shape, x1.dtype(), x1.device(), null);
                    },
                    (args, outs, spec) -> euclideanKernel((Tensor) args[0], (Tensor) args[1], outs[0]))
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g, mask) -> {
                Tensor x1 = (Tensor) a[0], x2 = (Tensor) a[1], dist = o[0];
                Tensor zero = dist.eq(0L);
                Tensor ratio = Grads.zeroWhere(zero, g[0].div(TernaryOps.where(zero, 1L, dist)));
                return new Tensor[] {
                    mask.needs(0) ? x1.mul(ratio.sum(-1, true)).sub(ratio.matmul(x2)) : null,
                    mask.needs(1)
                            ? x2.mul(ratio.sum(-2).unsqueeze(-1)).sub(ratio.mT().matmul(x1))
                            : null
                };
            })
            .deriveJvp(Jvps::transposedVjp);

    /** {@code _pdist_forward(self, p)}: the distances of all row pairs i &lt; j of an (N, M) matrix, row-major. */
    public static final OpDef PDIST_FORWARD = OpDef.structured(
                    "_pdist_forward(Tensor self, float p=2) -> Tensor",
                    args -> {
                        Tensor x = (Tensor) args[0];
                        if (x.dim() != 2)
                            throw new TorchException("pdist only supports 2D tensors, got: " + x.dim() + "D");
                        if (!x.dtype().isFloatingPoint())
                            throw new TorchException("pdist only supports floating-point dtypes");
                        if (!(p(args[1]) >= 0)) throw new TorchException("pdist only supports non-negative p values");
                        if (!floating(x.dtype()))
                            throw new TorchException("\"pdist\" not implemented for '"
                                    + x.dtype().cppName() + "'");
                        long n = x.size(0);
                        return Spec.of(new long[] {n <= 1 ? 0 : n * (n - 1) / 2}, x.dtype(), x.device(), null);
                    },
                    (args, outs, spec) -> pdistKernel((Tensor) args[0], p(args[1]), outs[0]))
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) -> {
                Tensor x = (Tensor) a[0];
                Tensor[] pairs = pairIndices(x.size(0));
                Tensor diff = x.indexSelect(0, pairs[0]).sub(x.indexSelect(0, pairs[1]));
                Tensor weighted = weighted(g[0].unsqueeze(-1), diff, o[0].unsqueeze(-1), p(a[1]));
                if (weighted == null) return new Tensor[] {null};
                // +φ to row i, −φ to row j of every pair (i, j)
                Tensor zeros = Creation.full(x.shape(), 0L, weighted.dtype(), x.device());
                return new Tensor[] {zeros.indexAdd(0, pairs[0], weighted).indexAdd(0, pairs[1], weighted.neg())};
            })
            .deriveJvp(Jvps::transposedVjp);

    /** The rows i and j (int64) of the pairs i &lt; j in pdist's order. */
    private static Tensor[] pairIndices(long n) {
        long count = n <= 1 ? 0 : n * (n - 1) / 2;
        long[] is = new long[Math.toIntExact(count)], js = new long[is.length];
        int k = 0;
        for (long i = 0; i < n; i++) {
            for (long j = i + 1; j < n; j++, k++) {
                is[k] = i;
                js[k] = j;
            }
        }
        return new Tensor[] {
            Creation.fromStorage(Storage.wrap(is), new long[] {is.length}, DType.INT64),
            Creation.fromStorage(Storage.wrap(js), new long[] {js.length}, DType.INT64)
        };
    }

    /**
     * {@code g · φ(d)}: the gradient of each distance with respect to the component differences d, times the incoming
     * gradient; null when it is zero everywhere (p = 0). {@code dist} broadcasts against d.
     */
    private static Tensor weighted(Tensor g, Tensor diff, Tensor dist, double p) {
        if (p == 0) return null;
        Tensor phi;
        if (p == 1) {
            phi = diff.sign();
        } else if (p == Double.POSITIVE_INFINITY) {
            // every component attaining the maximum gets the full gradient (no splitting among ties)
            phi = diff.sign().mul(diff.abs().eq(dist).to(diff.dtype()));
        } else {
            Tensor zeroDist = dist.eq(0L);
            Tensor safeDist = TernaryOps.where(zeroDist, 1L, dist);
            if (p == 2) {
                phi = diff.div(safeDist);
            } else {
                // |d|^(p-1) / dist^(p-1), signed; at d = 0 the value is 0 (forced for p < 1, where it is
                // infinite), and |d| is replaced by 1 there so no derivative of the masked branch is NaN.
                Tensor zeroDiff = diff.eq(0L);
                Tensor safeAbs = TernaryOps.where(zeroDiff, 1L, diff.abs());
                phi = Grads.zeroWhere(
                        zeroDiff, diff.sign().mul(safeAbs.pow(p - 1)).div(safeDist.pow(p - 1)));
            }
            phi = Grads.zeroWhere(zeroDist, phi);
        }
        return g.mul(phi);
    }

    // ---- kernels ----------------------------------------------------------------------------------

    /** Reads {@code t} broadcast to {@code shape} into a row-major double array. */
    static double[] read(Tensor t, long[] shape) {
        long[] strides = Shapes.broadcastStrides(t.impl().shapeRef(), t.impl().strideRef(), shape);
        double[] out = new double[Math.toIntExact(Shapes.numel(shape))];
        ElementIO io = ElementIO.of(t.dtype());
        MemorySegment seg = t.impl().storage().segment();
        long[] idx = new long[shape.length];
        long off = t.storageOffset();
        for (int k = 0; k < out.length; k++) {
            out[k] = io.getDouble(seg, off);
            for (int d = shape.length - 1; d >= 0; d--) {
                if (++idx[d] < shape[d]) {
                    off += strides[d];
                    break;
                }
                off -= strides[d] * (shape[d] - 1);
                idx[d] = 0;
            }
        }
        return out;
    }

    static long[] withRows(long[] batch, long rows, long cols) {
        long[] s = Arrays.copyOf(batch, batch.length + 2);
        s[batch.length] = rows;
        s[batch.length + 1] = cols;
        return s;
    }

    /** The p-norm of the difference of rows {@code a[ai..ai+m)} and {@code b[bi..bi+m)}. */
    private static double distance(double[] a, int ai, double[] b, int bi, int m, double p) {
        double acc = 0;
        if (p == 0) {
            for (int k = 0; k < m; k++) if (a[ai + k] - b[bi + k] != 0) acc++;
            return acc;
        }
        if (p == 1) {
            for (int k = 0; k < m; k++) acc += Math.abs(a[ai + k] - b[bi + k]);
            return acc;
        }
        if (p == 2) {
            for (int k = 0; k < m; k++) {
                double d = a[ai + k] - b[bi + k];
                acc += d * d;
            }
            return Math.sqrt(acc);
        }
        if (p == Double.POSITIVE_INFINITY) {
            for (int k = 0; k < m; k++) acc = Math.max(acc, Math.abs(a[ai + k] - b[bi + k]));
            return acc;
        }
        for (int k = 0; k < m; k++) acc += Math.pow(Math.abs(a[ai + k] - b[bi + k]), p);
        return Math.pow(acc, 1 / p);
    }

    private static void cdistKernel(Tensor x1, Tensor x2, double p, Tensor out) {
        if (out.numel() == 0) return;
        long[] shape = out.impl().shapeRef();
        long[] batch = Arrays.copyOf(shape, shape.length - 2);
        int rows1 = Math.toIntExact(shape[shape.length - 2]), rows2 = Math.toIntExact(shape[shape.length - 1]);
        int m = Math.toIntExact(x1.size(-1));
        double[] a = read(x1, withRows(batch, rows1, m)), b = read(x2, withRows(batch, rows2, m));
        ElementIO io = ElementIO.of(out.dtype());
        MemorySegment seg = out.impl().storage().segment();
        long base = out.storageOffset();
        long rows = Shapes.numel(batch) * rows1;
        Parallel.forRange(rows, Math.max(1, Parallel.GRAIN / Math.max(1L, (long) rows2 * m)), (s, e) -> {
            for (long row = s; row < e; row++) {
                long bi = row / rows1;
                int ai = Math.toIntExact(row * m);
                for (int j = 0; j < rows2; j++) {
                    int bj = Math.toIntExact((bi * rows2 + j) * m);
                    io.setDouble(seg, base + row * rows2 + j, distance(a, ai, b, bj, m, p));
                }
            }
        });
    }

    /** The matrix-product formulation, as ATen's {@code _euclidean_dist}: the cross term by GEMM in the dtype. */
    private static void euclideanKernel(Tensor x1, Tensor x2, Tensor out) {
        if (out.numel() == 0) return;
        if (halfPrecision(out.dtype())) {
            HalfPrecisionEuclidean.run(x1, x2, out);
            return;
        }
        long[] shape = out.impl().shapeRef();
        long[] batch = Arrays.copyOf(shape, shape.length - 2);
        int rows1 = Math.toIntExact(shape[shape.length - 2]), rows2 = Math.toIntExact(shape[shape.length - 1]);
        int m = Math.toIntExact(x1.size(-1));
        long[] s1 = Shapes.broadcastStrides(x1.impl().shapeRef(), x1.impl().strideRef(), withRows(batch, rows1, m));
        long[] s2 = Shapes.broadcastStrides(x2.impl().shapeRef(), x2.impl().strideRef(), withRows(batch, rows2, m));
        double[] a = read(x1, withRows(batch, rows1, m)), b = read(x2, withRows(batch, rows2, m));
        long batches = Shapes.numel(batch);
        int nb = batch.length;
        long[] idx = new long[nb];
        for (long bi = 0; bi < batches; bi++) {
            long off1 = x1.storageOffset(), off2 = x2.storageOffset(), rem = bi;
            for (int d = nb - 1; d >= 0; d--) {
                idx[d] = rem % batch[d];
                rem /= batch[d];
                off1 += idx[d] * s1[d];
                off2 += idx[d] * s2[d];
            }
            Tensor a2 = Tensor.viewOf(
                    x1, x1.impl().viewOf(off1, new long[] {1, rows1, m}, new long[] {0, s1[nb], s1[nb + 1]}));
            Tensor b2t = Tensor.viewOf(
                    x2, x2.impl().viewOf(off2, new long[] {1, m, rows2}, new long[] {0, s2[nb + 1], s2[nb]}));
            Tensor c = Tensor.viewOf(
                    out,
                    out.impl().viewOf(out.storageOffset() + bi * rows1 * rows2, new long[] {rows1, rows2}, new long[] {
                        rows2, 1
                    }));
            MatmulKernels.run(c, null, a2, b2t, Scalar.of(0L), Scalar.of(1L), false);
        }
        ElementIO io = ElementIO.of(out.dtype());
        MemorySegment seg = out.impl().storage().segment();
        long base = out.storageOffset();
        for (long bi = 0; bi < batches; bi++) {
            for (int i = 0; i < rows1; i++) {
                double n1 = squaredNorm(a, Math.toIntExact((bi * rows1 + i) * m), m);
                for (int j = 0; j < rows2; j++) {
                    double n2 = squaredNorm(b, Math.toIntExact((bi * rows2 + j) * m), m);
                    long at = base + (bi * rows1 + i) * rows2 + j;
                    double cross = io.getDouble(seg, at);
                    io.setDouble(seg, at, Math.sqrt(Math.max(n1 - 2 * cross + n2, 0)));
                }
            }
        }
    }

    private static double squaredNorm(double[] a, int from, int m) {
        double acc = 0;
        for (int k = 0; k < m; k++) acc += a[from + k] * a[from + k];
        return acc;
    }

    private static void pdistKernel(Tensor x, double p, Tensor out) {
        if (out.numel() == 0) return;
        int n = Math.toIntExact(x.size(0)), m = Math.toIntExact(x.size(1));
        double[] a = read(x, x.impl().shapeRef());
        ElementIO io = ElementIO.of(out.dtype());
        MemorySegment seg = out.impl().storage().segment();
        long base = out.storageOffset();
        Parallel.forRange(n, Math.max(1, Parallel.GRAIN / Math.max(1L, (long) n * m)), (s, e) -> {
            for (long i = s; i < e; i++) {
                long k = i * n - i * (i + 1) / 2; // index of the pair (i, i + 1)
                for (long j = i + 1; j < n; j++, k++) {
                    io.setDouble(seg, base + k, distance(a, Math.toIntExact(i * m), a, Math.toIntExact(j * m), m, p));
                }
            }
        });
    }

    // ---- entry points -----------------------------------------------------------------------------

    /** {@code torch.cdist(x1, x2)}: Euclidean distances, matrix-product path when P or R &gt; 25. */
    public static Tensor cdist(Tensor x1, Tensor x2) {
        return cdist(x1, x2, 2.0);
    }

    /** {@code torch.cdist(x1, x2, p)}; p = {@link Double#POSITIVE_INFINITY} is the max norm. */
    public static Tensor cdist(Tensor x1, Tensor x2, double p) {
        return cdist(x1, x2, p, CdistComputeMode.USE_MM_FOR_EUCLID_DIST_IF_NECESSARY);
    }

    /** {@code torch.cdist(x1, x2, p, compute_mode)}. */
    public static Tensor cdist(Tensor x1, Tensor x2, double p, CdistComputeMode computeMode) {
        Long mode =
                switch (computeMode) {
                    case USE_MM_FOR_EUCLID_DIST_IF_NECESSARY -> null;
                    case USE_MM_FOR_EUCLID_DIST -> 1L;
                    case DONOT_USE_MM_FOR_EUCLID_DIST -> 2L;
                };
        return CDIST.call1(x1, x2, p, mode);
    }

    /** {@code torch.cdist(x1, x2, p, compute_mode)} with PyTorch's compute_mode string. */
    public static Tensor cdist(Tensor x1, Tensor x2, double p, String computeMode) {
        return cdist(x1, x2, p, CdistComputeMode.of(computeMode));
    }

    /** {@code torch.pdist(x)}: Euclidean distances of all row pairs i &lt; j. */
    public static Tensor pdist(Tensor x) {
        return pdist(x, 2.0);
    }

    /** {@code torch.pdist(x, p)}. */
    public static Tensor pdist(Tensor x, double p) {
        // ATen runs _pdist_forward on x.contiguous(); the kernel reads any layout, so no copy is needed here.
        return PDIST_FORWARD.call1(x, p);
    }
}
