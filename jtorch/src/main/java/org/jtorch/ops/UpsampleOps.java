package org.jtorch.ops;

import java.util.EnumSet;
import java.util.Set;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.Shapes;

/**
 * The upsampling ops behind {@code F.interpolate}, named as ATen's: {@code upsample_nearest{1,2,3}d},
 * {@code _upsample_nearest_exact{1,2,3}d}, {@code upsample_linear1d}, {@code upsample_bilinear2d},
 * {@code upsample_bicubic2d}, {@code upsample_trilinear3d}, each with its {@code _backward}, and the {@code .vec}
 * overloads that take either an output size or scale factors. Every forward is linear in its input and its backward is
 * the adjoint, so the two are each other's gradients (any order) and the forward-mode rule applies the op to the
 * tangent. Kernels: {@link ResampleKernels}, one {@link ResampleAxis} table per spatial dim.
 *
 * <p>Argument layouts, in schema order: forward {@code (self, output_size, [align_corners,] scales…)}, backward
 * {@code (grad_output, output_size, input_size, [align_corners,] scales…)}, one optional scale per spatial dim.
 */
public final class UpsampleOps {
    private UpsampleOps() {}

    /** Floating dtypes the CPU kernels compute (half types in float32). */
    private static final Set<DType> DTYPES = EnumSet.of(DType.FLOAT16, DType.BFLOAT16, DType.FLOAT32, DType.FLOAT64);

    /** One upsample op family: its ATen name, mode and number of spatial dims. */
    enum Kind {
        NEAREST1D("upsample_nearest1d", ResampleAxis.Mode.NEAREST, 1),
        NEAREST2D("upsample_nearest2d", ResampleAxis.Mode.NEAREST, 2),
        NEAREST3D("upsample_nearest3d", ResampleAxis.Mode.NEAREST, 3),
        NEAREST_EXACT1D("_upsample_nearest_exact1d", ResampleAxis.Mode.NEAREST_EXACT, 1),
        NEAREST_EXACT2D("_upsample_nearest_exact2d", ResampleAxis.Mode.NEAREST_EXACT, 2),
        NEAREST_EXACT3D("_upsample_nearest_exact3d", ResampleAxis.Mode.NEAREST_EXACT, 3),
        LINEAR1D("upsample_linear1d", ResampleAxis.Mode.LINEAR, 1),
        BILINEAR2D("upsample_bilinear2d", ResampleAxis.Mode.LINEAR, 2),
        TRILINEAR3D("upsample_trilinear3d", ResampleAxis.Mode.LINEAR, 3),
        BICUBIC2D("upsample_bicubic2d", ResampleAxis.Mode.CUBIC, 2);

        final String aten;
        final ResampleAxis.Mode mode;
        final int spatial;

        Kind(String aten, ResampleAxis.Mode mode, int spatial) {
            this.aten = aten;
            this.mode = mode;
            this.spatial = spatial;
        }

        /** Whether the op takes {@code align_corners} (the interpolating modes). */
        boolean aligns() {
            return mode == ResampleAxis.Mode.LINEAR || mode == ResampleAxis.Mode.CUBIC;
        }

        /** The scale arguments' names: {@code scales}, or {@code scales_h, scales_w}, or d, h, w. */
        private String scaleParams() {
            return switch (spatial) {
                case 1 -> "float? scales=None";
                case 2 -> "float? scales_h=None, float? scales_w=None";
                default -> "float? scales_d=None, float? scales_h=None, float? scales_w=None";
            };
        }

        private String alignParam() {
            return aligns() ? "bool align_corners, " : "";
        }

        String forwardSchema() {
            return aten + "(Tensor self, SymInt[" + spatial + "] output_size, " + alignParam() + scaleParams()
                    + ") -> Tensor";
        }

        String backwardSchema() {
            return aten + "_backward(Tensor grad_output, SymInt[" + spatial + "] output_size, SymInt[" + (spatial + 2)
                    + "] input_size, " + alignParam() + scaleParams() + ") -> Tensor";
        }

        String vecSchema() {
            return aten + ".vec(Tensor input, SymInt[]? output_size, " + alignParam()
                    + "float[]? scale_factors) -> Tensor";
        }
    }

    /** What a kernel needs: the planes (N·C) and the table of each spatial dim. */
    record Plan(long planes, ResampleAxis[] axes) {}

    // ---- argument access -------------------------------------------------------------------------------

    private static boolean alignCorners(Kind k, Object[] a, int at) {
        return k.aligns() && (Boolean) a[at];
    }

    /** The scale arguments starting at {@code at} (after align_corners where the op has it). */
    private static Double[] scales(Kind k, Object[] a, int at) {
        int first = at + (k.aligns() ? 1 : 0);
        Double[] s = new Double[k.spatial];
        for (int i = 0; i < k.spatial; i++) {
            Object v = a[first + i];
            s[i] = v == null ? null : ((Number) v).doubleValue();
        }
        return s;
    }

    // ---- checks and plans --------------------------------------------------------------------------------

    /** The size labels ATen's messages use for the spatial dims. */
    private static String[] labels(int spatial) {
        return switch (spatial) {
            case 1 -> new String[] {"W"};
            case 2 -> new String[] {"H", "W"};
            default -> new String[] {"D", "H", "W"};
        };
    }

    /** ATen's {@code upsample_Nd_common_check}: sizes of the right lengths, all positive. */
    private static void commonCheck(Kind k, long[] inputSize, long[] outputSize) {
        if (outputSize.length != k.spatial) {
            throw new TorchException(
                    "It is expected output_size equals to " + k.spatial + ", but got size " + outputSize.length);
        }
        if (inputSize.length != k.spatial + 2) {
            throw new TorchException(
                    "It is expected input_size equals to " + (k.spatial + 2) + ", but got size " + inputSize.length);
        }
        boolean positive = true;
        StringBuilder in = new StringBuilder(), out = new StringBuilder();
        String[] l = labels(k.spatial);
        for (int i = 0; i < k.spatial; i++) {
            positive &= inputSize[i + 2] > 0 && outputSize[i] > 0;
            String sep = i == 0 ? "" : ", ";
            in.append(sep).append(l[i]).append(": ").append(inputSize[i + 2]);
            out.append(sep).append(l[i]).append(": ").append(outputSize[i]);
        }
        if (!positive) {
            throw new TorchException("Input and output sizes should be greater than 0, but got input (" + in + ")"
                    + (k.spatial == 1 ? " and " : " ") + "output (" + out + ")");
        }
    }

    private static Plan plan(Kind k, long[] inputSize, long[] outputSize, boolean align, Double[] s, DType dtype) {
        boolean single = dtype != DType.FLOAT64;
        ResampleAxis[] axes = new ResampleAxis[k.spatial];
        for (int i = 0; i < k.spatial; i++) {
            axes[i] = ResampleAxis.of(
                    k.mode, Math.toIntExact(inputSize[i + 2]), Math.toIntExact(outputSize[i]), align, s[i], single);
        }
        return new Plan(inputSize[0] * inputSize[1], axes);
    }

    /**
     * The forward kernels take the floating types, and uint8 in the nearest modes (which only copy values); the
     * backward kernels the floating types. ATen's messages name its kernels.
     */
    private static void requireSupported(Kind k, DType d, boolean backward) {
        boolean nearest = k.mode == ResampleAxis.Mode.NEAREST || k.mode == ResampleAxis.Mode.NEAREST_EXACT;
        if (DTYPES.contains(d) || (!backward && nearest && d == DType.UINT8)) return;
        String kernel =
                switch (k) {
                    case NEAREST2D, NEAREST_EXACT2D -> "upsample_nearest2d_channels_last";
                    case BILINEAR2D -> "upsample_bilinear2d_channels_last";
                    default ->
                        "compute_indices_weights_"
                                + (nearest ? "nearest" : k.mode == ResampleAxis.Mode.CUBIC ? "cubic" : "linear");
                };
        throw new TorchException(
                "\"" + (backward ? k.aten + "_backward" : kernel) + "\" not implemented for '" + d.cppName() + "'");
    }

    private static long[] outputShape(long[] inputSize, long[] outputSize) {
        long[] shape = new long[outputSize.length + 2];
        shape[0] = inputSize[0];
        shape[1] = inputSize[1];
        System.arraycopy(outputSize, 0, shape, 2, outputSize.length);
        return shape;
    }

    // ---- the factories ------------------------------------------------------------------------------------

    private static OpDef forward(Kind k) {
        return OpDef.structured(
                        k.forwardSchema(),
                        a -> {
                            Tensor x = (Tensor) a[0];
                            long[] in = x.impl().shapeRef(), outSize = (long[]) a[1];
                            commonCheck(k, in, outSize);
                            long rest = 1;
                            for (int i = 1; i < in.length; i++) rest *= in[i];
                            if (rest == 0) {
                                throw new TorchException("Non-empty " + (k.spatial + 2)
                                        + "D data tensor expected but got a tensor with sizes " + Shapes.str(in));
                            }
                            requireSupported(k, x.dtype(), false);
                            Plan p = plan(k, in, outSize, alignCorners(k, a, 2), scales(k, a, 2), x.dtype());
                            return Spec.of(outputShape(in, outSize), x.dtype(), x.device(), p);
                        },
                        (a, outs, spec) -> {
                            Plan p = (Plan) spec.plan();
                            ResampleKernels.forward((Tensor) a[0], outs[0], p.planes(), p.axes());
                        })
                .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> {
                    Tensor x = (Tensor) a[0];
                    Object[] b = new Object[a.length + 1];
                    b[0] = g[0];
                    b[1] = a[1];
                    b[2] = x.shape();
                    System.arraycopy(a, 2, b, 3, a.length - 2);
                    return new Tensor[] {backwardOp(k).call1(b)};
                })
                .deriveJvp(Jvps::linear);
    }

    private static OpDef backward(Kind k) {
        return OpDef.structured(
                        k.backwardSchema(),
                        a -> {
                            Tensor go = (Tensor) a[0];
                            long[] outSize = (long[]) a[1], in = ((long[]) a[2]).clone();
                            commonCheck(k, in, outSize);
                            long[] expected = outputShape(in, outSize),
                                    got = go.impl().shapeRef();
                            if (got.length != expected.length) {
                                throw new TorchException("Expected grad_output to be a tensor of dimension "
                                        + expected.length + " but got: dimension " + got.length);
                            }
                            for (int i = 0; i < got.length; i++) {
                                if (got[i] != expected[i]) {
                                    throw new TorchException("Expected grad_output to have the same shape as output;"
                                            + " output.size(" + i + ") = " + expected[i] + " but got grad_output.size("
                                            + i + ") = " + got[i]);
                                }
                            }
                            requireSupported(k, go.dtype(), true);
                            Plan p = plan(k, in, outSize, alignCorners(k, a, 3), scales(k, a, 3), go.dtype());
                            return Spec.of(in, go.dtype(), go.device(), p);
                        },
                        (a, outs, spec) -> {
                            Plan p = (Plan) spec.plan();
                            ResampleKernels.backward((Tensor) a[0], outs[0], p.planes(), p.axes());
                        })
                .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> {
                    Object[] f = new Object[a.length - 1];
                    f[0] = g[0];
                    f[1] = a[1];
                    System.arraycopy(a, 3, f, 2, a.length - 3);
                    return new Tensor[] {forwardOp(k).call1(f)};
                })
                .deriveJvp(Jvps::linear);
    }

    /**
     * The {@code .vec} overload: exactly one of an output size and per-dim scale factors; with scale factors the output
     * size is {@code trunc(in · scale)} and the scales reach the kernel (which then steps by 1/scale).
     */
    private static OpDef vec(Kind k) {
        return OpDef.composite(k.vecSchema(), a -> {
            Tensor x = (Tensor) a[0];
            long[] size = (long[]) a[1];
            double[] factors = (double[]) a[k.aligns() ? 3 : 2];
            if ((size == null) == (factors == null)) {
                throw new TorchException("Must specify exactly one of output_size and scale_factors");
            }
            long[] outSize = size;
            if (factors != null) {
                if (factors.length != k.spatial || x.dim() != k.spatial + 2) {
                    throw new TorchException("It is expected scale_factors to have " + k.spatial
                            + " elements for a " + (k.spatial + 2) + "D input, but got " + factors.length
                            + " for an input of size " + Shapes.str(x.impl().shapeRef()));
                }
                outSize = new long[k.spatial];
                for (int i = 0; i < k.spatial; i++) outSize[i] = (long) (x.size(i + 2) * factors[i]);
            }
            Object[] f = new Object[2 + (k.aligns() ? 1 : 0) + k.spatial];
            f[0] = x;
            f[1] = outSize;
            if (k.aligns()) f[2] = a[2];
            for (int i = 0; i < k.spatial; i++) f[f.length - k.spatial + i] = factors == null ? null : factors[i];
            return forwardOp(k).call1(f);
        });
    }

    // ---- the ops --------------------------------------------------------------------------------------------

    /** {@code upsample_nearest1d(self, output_size, scales)}: input position {@code floor(o·in/out)}. */
    public static final OpDef UPSAMPLE_NEAREST1D = forward(Kind.NEAREST1D);
    /** {@code upsample_nearest2d(self, output_size, scales_h, scales_w)}. */
    public static final OpDef UPSAMPLE_NEAREST2D = forward(Kind.NEAREST2D);
    /** {@code upsample_nearest3d(self, output_size, scales_d, scales_h, scales_w)}. */
    public static final OpDef UPSAMPLE_NEAREST3D = forward(Kind.NEAREST3D);
    /** {@code _upsample_nearest_exact1d(self, output_size, scales)}: input position {@code floor((o + ½)·in/out)}. */
    public static final OpDef UPSAMPLE_NEAREST_EXACT1D = forward(Kind.NEAREST_EXACT1D);
    /** {@code _upsample_nearest_exact2d(self, output_size, scales_h, scales_w)}. */
    public static final OpDef UPSAMPLE_NEAREST_EXACT2D = forward(Kind.NEAREST_EXACT2D);
    /** {@code _upsample_nearest_exact3d(self, output_size, scales_d, scales_h, scales_w)}. */
    public static final OpDef UPSAMPLE_NEAREST_EXACT3D = forward(Kind.NEAREST_EXACT3D);
    /** {@code upsample_linear1d(self, output_size, align_corners, scales)}. */
    public static final OpDef UPSAMPLE_LINEAR1D = forward(Kind.LINEAR1D);
    /** {@code upsample_bilinear2d(self, output_size, align_corners, scales_h, scales_w)}. */
    public static final OpDef UPSAMPLE_BILINEAR2D = forward(Kind.BILINEAR2D);
    /** {@code upsample_trilinear3d(self, output_size, align_corners, scales_d, scales_h, scales_w)}. */
    public static final OpDef UPSAMPLE_TRILINEAR3D = forward(Kind.TRILINEAR3D);
    /** {@code upsample_bicubic2d(self, output_size, align_corners, scales_h, scales_w)}: Keys' cubic, a = −0.75. */
    public static final OpDef UPSAMPLE_BICUBIC2D = forward(Kind.BICUBIC2D);

    /** {@code upsample_nearest1d_backward(grad_output, output_size, input_size, scales)}. */
    public static final OpDef UPSAMPLE_NEAREST1D_BACKWARD = backward(Kind.NEAREST1D);
    /** {@code upsample_nearest2d_backward(grad_output, output_size, input_size, scales_h, scales_w)}. */
    public static final OpDef UPSAMPLE_NEAREST2D_BACKWARD = backward(Kind.NEAREST2D);
    /** {@code upsample_nearest3d_backward(grad_output, output_size, input_size, scales_d, scales_h, scales_w)}. */
    public static final OpDef UPSAMPLE_NEAREST3D_BACKWARD = backward(Kind.NEAREST3D);
    /** {@code _upsample_nearest_exact1d_backward(grad_output, output_size, input_size, scales)}. */
    public static final OpDef UPSAMPLE_NEAREST_EXACT1D_BACKWARD = backward(Kind.NEAREST_EXACT1D);
    /** {@code _upsample_nearest_exact2d_backward(grad_output, output_size, input_size, scales_h, scales_w)}. */
    public static final OpDef UPSAMPLE_NEAREST_EXACT2D_BACKWARD = backward(Kind.NEAREST_EXACT2D);
    /** {@code _upsample_nearest_exact3d_backward(grad_output, output_size, input_size, scales_d, …)}. */
    public static final OpDef UPSAMPLE_NEAREST_EXACT3D_BACKWARD = backward(Kind.NEAREST_EXACT3D);
    /** {@code upsample_linear1d_backward(grad_output, output_size, input_size, align_corners, scales)}. */
    public static final OpDef UPSAMPLE_LINEAR1D_BACKWARD = backward(Kind.LINEAR1D);
    /** {@code upsample_bilinear2d_backward(grad_output, output_size, input_size, align_corners, scales_h, …)}. */
    public static final OpDef UPSAMPLE_BILINEAR2D_BACKWARD = backward(Kind.BILINEAR2D);
    /** {@code upsample_trilinear3d_backward(grad_output, output_size, input_size, align_corners, scales_d, …)}. */
    public static final OpDef UPSAMPLE_TRILINEAR3D_BACKWARD = backward(Kind.TRILINEAR3D);
    /** {@code upsample_bicubic2d_backward(grad_output, output_size, input_size, align_corners, scales_h, …)}. */
    public static final OpDef UPSAMPLE_BICUBIC2D_BACKWARD = backward(Kind.BICUBIC2D);

    /** {@code upsample_nearest1d.vec(input, output_size, scale_factors)}. */
    public static final OpDef UPSAMPLE_NEAREST1D_VEC = vec(Kind.NEAREST1D);
    /** {@code upsample_nearest2d.vec(input, output_size, scale_factors)}. */
    public static final OpDef UPSAMPLE_NEAREST2D_VEC = vec(Kind.NEAREST2D);
    /** {@code upsample_nearest3d.vec(input, output_size, scale_factors)}. */
    public static final OpDef UPSAMPLE_NEAREST3D_VEC = vec(Kind.NEAREST3D);
    /** {@code _upsample_nearest_exact1d.vec(input, output_size, scale_factors)}. */
    public static final OpDef UPSAMPLE_NEAREST_EXACT1D_VEC = vec(Kind.NEAREST_EXACT1D);
    /** {@code _upsample_nearest_exact2d.vec(input, output_size, scale_factors)}. */
    public static final OpDef UPSAMPLE_NEAREST_EXACT2D_VEC = vec(Kind.NEAREST_EXACT2D);
    /** {@code _upsample_nearest_exact3d.vec(input, output_size, scale_factors)}. */
    public static final OpDef UPSAMPLE_NEAREST_EXACT3D_VEC = vec(Kind.NEAREST_EXACT3D);
    /** {@code upsample_linear1d.vec(input, output_size, align_corners, scale_factors)}. */
    public static final OpDef UPSAMPLE_LINEAR1D_VEC = vec(Kind.LINEAR1D);
    /** {@code upsample_bilinear2d.vec(input, output_size, align_corners, scale_factors)}. */
    public static final OpDef UPSAMPLE_BILINEAR2D_VEC = vec(Kind.BILINEAR2D);
    /** {@code upsample_trilinear3d.vec(input, output_size, align_corners, scale_factors)}. */
    public static final OpDef UPSAMPLE_TRILINEAR3D_VEC = vec(Kind.TRILINEAR3D);
    /** {@code upsample_bicubic2d.vec(input, output_size, align_corners, scale_factors)}. */
    public static final OpDef UPSAMPLE_BICUBIC2D_VEC = vec(Kind.BICUBIC2D);

    /** The forward op of a family (the backward's gradient). */
    static OpDef forwardOp(Kind k) {
        return switch (k) {
            case NEAREST1D -> UPSAMPLE_NEAREST1D;
            case NEAREST2D -> UPSAMPLE_NEAREST2D;
            case NEAREST3D -> UPSAMPLE_NEAREST3D;
            case NEAREST_EXACT1D -> UPSAMPLE_NEAREST_EXACT1D;
            case NEAREST_EXACT2D -> UPSAMPLE_NEAREST_EXACT2D;
            case NEAREST_EXACT3D -> UPSAMPLE_NEAREST_EXACT3D;
            case LINEAR1D -> UPSAMPLE_LINEAR1D;
            case BILINEAR2D -> UPSAMPLE_BILINEAR2D;
            case TRILINEAR3D -> UPSAMPLE_TRILINEAR3D;
            case BICUBIC2D -> UPSAMPLE_BICUBIC2D;
        };
    }

    /** The backward op of a family (the forward's gradient). */
    static OpDef backwardOp(Kind k) {
        return switch (k) {
            case NEAREST1D -> UPSAMPLE_NEAREST1D_BACKWARD;
            case NEAREST2D -> UPSAMPLE_NEAREST2D_BACKWARD;
            case NEAREST3D -> UPSAMPLE_NEAREST3D_BACKWARD;
            case NEAREST_EXACT1D -> UPSAMPLE_NEAREST_EXACT1D_BACKWARD;
            case NEAREST_EXACT2D -> UPSAMPLE_NEAREST_EXACT2D_BACKWARD;
            case NEAREST_EXACT3D -> UPSAMPLE_NEAREST_EXACT3D_BACKWARD;
            case LINEAR1D -> UPSAMPLE_LINEAR1D_BACKWARD;
            case BILINEAR2D -> UPSAMPLE_BILINEAR2D_BACKWARD;
            case TRILINEAR3D -> UPSAMPLE_TRILINEAR3D_BACKWARD;
            case BICUBIC2D -> UPSAMPLE_BICUBIC2D_BACKWARD;
        };
    }

    /** Every forward and backward op (not the composite {@code .vec} overloads), for the batch rules. */
    public static java.util.List<OpDef> kernelOps() {
        java.util.List<OpDef> ops = new java.util.ArrayList<>();
        for (Kind k : Kind.values()) {
            ops.add(forwardOp(k));
            ops.add(backwardOp(k));
        }
        return ops;
    }

    // ---- entry point ----------------------------------------------------------------------------------------

    /**
     * The {@code .vec} op of {@code mode} ("nearest", "nearest-exact", "linear", "bilinear", "trilinear", "bicubic")
     * for a {@code spatial}-dim input: exactly one of {@code outputSize} and {@code scaleFactors} is non-null.
     * {@code F.interpolate} picks the mode and checks the ranks first.
     */
    public static Tensor upsample(
            String mode, int spatial, Tensor input, long[] outputSize, boolean alignCorners, double[] scaleFactors) {
        Kind k = kind(mode, spatial);
        OpDef op =
                switch (k) {
                    case NEAREST1D -> UPSAMPLE_NEAREST1D_VEC;
                    case NEAREST2D -> UPSAMPLE_NEAREST2D_VEC;
                    case NEAREST3D -> UPSAMPLE_NEAREST3D_VEC;
                    case NEAREST_EXACT1D -> UPSAMPLE_NEAREST_EXACT1D_VEC;
                    case NEAREST_EXACT2D -> UPSAMPLE_NEAREST_EXACT2D_VEC;
                    case NEAREST_EXACT3D -> UPSAMPLE_NEAREST_EXACT3D_VEC;
                    case LINEAR1D -> UPSAMPLE_LINEAR1D_VEC;
                    case BILINEAR2D -> UPSAMPLE_BILINEAR2D_VEC;
                    case TRILINEAR3D -> UPSAMPLE_TRILINEAR3D_VEC;
                    case BICUBIC2D -> UPSAMPLE_BICUBIC2D_VEC;
                };
        long[] size = outputSize == null ? null : outputSize.clone();
        double[] factors = scaleFactors == null ? null : scaleFactors.clone();
        return k.aligns() ? op.call1(input, size, alignCorners, factors) : op.call1(input, size, factors);
    }

    private static Kind kind(String mode, int spatial) {
        for (Kind k : Kind.values()) {
            if (k.spatial == spatial && modeName(k).equals(mode)) return k;
        }
        throw new TorchException("no upsample op for mode '" + mode + "' with " + spatial + " spatial dims");
    }

    private static String modeName(Kind k) {
        return switch (k.mode) {
            case NEAREST -> "nearest";
            case NEAREST_EXACT -> "nearest-exact";
            case CUBIC -> "bicubic";
            case LINEAR -> k.spatial == 1 ? "linear" : k.spatial == 2 ? "bilinear" : "trilinear";
        };
    }
}
