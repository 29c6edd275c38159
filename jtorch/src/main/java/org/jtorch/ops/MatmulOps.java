package org.jtorch.ops;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.Shapes;

/**
 * Matrix products: {@code mm}, {@code addmm}, {@code bmm}, {@code baddbmm}, {@code mv}, {@code dot}, {@code vdot}
 * (structured ops sharing one kernel, {@link MatmulKernels}), and the composites {@code matmul} and {@code outer},
 * built from those and from view ops exactly as ATen builds them, so that they inherit every rule of their parts.
 *
 * <p>As in PyTorch, the products do not promote: both operands must have the same dtype. Supported dtypes are PyTorch's
 * CPU ones: the integer types but bool and uint16/32/64, float16, bfloat16, float32, float64, complex64 and complex128,
 * plus the float8 formats for {@code mm}/{@code addmm}.
 */
public final class MatmulOps {
    private MatmulOps() {}

    private static final Scalar ONE = Scalar.of(1L);
    private static final Scalar ZERO = Scalar.of(0L);

    /** Dtypes every product kernel computes (ATen's ALL_TYPES_AND_COMPLEX_AND2(BFloat16, Half)). */
    private static final Set<DType> PRODUCT_DTYPES = EnumSet.of(
            DType.UINT8,
            DType.INT8,
            DType.INT16,
            DType.INT32,
            DType.INT64,
            DType.FLOAT16,
            DType.BFLOAT16,
            DType.FLOAT32,
            DType.FLOAT64,
            DType.COMPLEX64,
            DType.COMPLEX128);

    /** {@code addmm_impl_cpu_} also takes the float8 formats but e8m0fnu. */
    private static final Set<DType> MM_DTYPES = union(
            PRODUCT_DTYPES,
            EnumSet.of(DType.FLOAT8_E4M3FN, DType.FLOAT8_E5M2, DType.FLOAT8_E4M3FNUZ, DType.FLOAT8_E5M2FNUZ));

    private static Set<DType> union(Set<DType> a, Set<DType> b) {
        EnumSet<DType> s = EnumSet.copyOf(a);
        s.addAll(b);
        return s;
    }

    // ---- checks shared by the meta rules -----------------------------------------------------------

    private static void requireSupported(String kernel, DType d, Set<DType> supported) {
        if (!supported.contains(d))
            throw new TorchException("\"" + kernel + "\" not implemented for '" + d.cppName() + "'");
    }

    private static void requireMultipliable(Tensor mat1, Tensor mat2) {
        if (mat1.size(1) != mat2.size(0)) {
            throw new TorchException("mat1 and mat2 shapes cannot be multiplied (" + mat1.size(0) + "x" + mat1.size(1)
                    + " and " + mat2.size(0) + "x" + mat2.size(1) + ")");
        }
    }

    /** ATen's {@code expand_size} check on an input that is broadcast to the result: expand's own errors. */
    private static void requireExpandable(Tensor input, long[] shape) {
        ShapeOps.EXPAND.viewFn().apply(new Object[] {input, shape, false});
    }

    /**
     * The dtype as {@code caffe2::TypeMeta} prints it (GCC's names), which some ATen messages use where others print
     * the ScalarType ({@link DType#cppName()}).
     */
    private static String typeMetaName(DType d) {
        return switch (d) {
            case BOOL -> "bool";
            case UINT8 -> "unsigned char";
            case INT8 -> "signed char";
            case INT16 -> "short int";
            case INT32 -> "int";
            case INT64 -> "long int";
            case UINT16 -> "short unsigned int";
            case UINT32 -> "unsigned int";
            case UINT64 -> "long unsigned int";
            case FLOAT32 -> "float";
            case FLOAT64 -> "double";
            case COMPLEX32 -> "c10::complex<c10::Half>";
            case BCOMPLEX32 -> "c10::complex<c10::BFloat16>";
            case COMPLEX64 -> "c10::complex<float>";
            case COMPLEX128 -> "c10::complex<double>";
            default -> "c10::" + d.cppName();
        };
    }

    private static Scalar scalar(Object o) {
        return o == null ? ONE : Scalar.of(o);
    }

    /** A 2-D tensor as a batch of one matrix, [1, r, c]. */
    private static Tensor batchOfOne(Tensor m) {
        return Tensor.viewOf(m, m.impl().viewOf(m.storageOffset(), new long[] {1, m.size(0), m.size(1)}, new long[] {
            0, m.stride(0), m.stride(1)
        }));
    }

    /** A 1-D tensor as a [1, 1, n] row (or, with {@code column}, a [1, n, 1] column) of a batch of one. */
    private static Tensor vectorAsMatrix(Tensor v, boolean column) {
        long n = v.size(0), s = v.stride(0);
        // The stride of a size-1 dim is free; 1 lets the BLAS layout test accept either orientation.
        return column
                ? Tensor.viewOf(v, v.impl().viewOf(v.storageOffset(), new long[] {1, n, 1}, new long[] {0, s, 1}))
                : Tensor.viewOf(v, v.impl().viewOf(v.storageOffset(), new long[] {1, 1, n}, new long[] {0, 1, s}));
    }

    // ---- mm / addmm ---------------------------------------------------------------------------------

    /** {@code mm(self, mat2)}: the matrix product of two 2-D tensors. */
    public static final OpDef MM = OpDef.structured(
                    "mm(Tensor self, Tensor mat2) -> Tensor",
                    args -> {
                        Tensor self = (Tensor) args[0], mat2 = (Tensor) args[1];
                        Device device = Devices.common("mm", self, mat2);
                        if (self.dim() != 2) throw new TorchException("self must be a matrix");
                        if (mat2.dim() != 2) throw new TorchException("mat2 must be a matrix");
                        requireMultipliable(self, mat2);
                        if (self.dtype() != mat2.dtype()) {
                            throw new TorchException("expected m1 and m2 to have the same dtype, but got: "
                                    + typeMetaName(self.dtype()) + " != " + typeMetaName(mat2.dtype()));
                        }
                        requireSupported("addmm_impl_cpu_", self.dtype(), MM_DTYPES);
                        return Spec.of(new long[] {self.size(0), mat2.size(1)}, self.dtype(), device, null);
                    },
                    (args, outs, spec) -> MatmulKernels.run(
                            outs[0],
                            null,
                            batchOfOne((Tensor) args[0]),
                            batchOfOne((Tensor) args[1]),
                            ZERO,
                            ONE,
                            false))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g, mask) -> new Tensor[] {
                mask.needs(0) ? mat1Grad(g[0], (Tensor) a[0], (Tensor) a[1]) : null,
                mask.needs(1) ? mat2Grad(g[0], (Tensor) a[0], (Tensor) a[1]) : null
            })
            .deriveJvp(Jvps::bilinear);

    /**
     * {@code addmm(self, mat1, mat2, beta, alpha)}: {@code beta * self + alpha * mat1 @ mat2}, self broadcast to the
     * result.
     */
    public static final OpDef ADDMM = OpDef.structured(
                    "addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
                    args -> {
                        Tensor self = (Tensor) args[0], mat1 = (Tensor) args[1], mat2 = (Tensor) args[2];
                        Device device = Devices.common("addmm", self, mat1, mat2);
                        if (self.dtype() != mat2.dtype()) {
                            throw new TorchException("self and mat2 must have the same dtype, but got "
                                    + self.dtype().cppName() + " and "
                                    + mat2.dtype().cppName());
                        }
                        if (mat1.dtype() != mat2.dtype()) {
                            throw new TorchException("mat1 and mat2 must have the same dtype, but got "
                                    + mat1.dtype().cppName() + " and "
                                    + mat2.dtype().cppName());
                        }
                        if (mat1.dim() != 2)
                            throw new TorchException("mat1 must be a matrix, got " + mat1.dim() + "-D tensor");
                        if (mat2.dim() != 2)
                            throw new TorchException("mat2 must be a matrix, got " + mat2.dim() + "-D tensor");
                        requireMultipliable(mat1, mat2);
                        long[] shape = {mat1.size(0), mat2.size(1)};
                        requireExpandable(self, shape);
                        requireSupported("addmm_impl_cpu_", mat1.dtype(), MM_DTYPES);
                        return Spec.of(shape, mat1.dtype(), device, null);
                    },
                    (args, outs, spec) -> MatmulKernels.run(
                            outs[0],
                            (Tensor) args[0],
                            batchOfOne((Tensor) args[1]),
                            batchOfOne((Tensor) args[2]),
                            scalar(args[3]),
                            scalar(args[4]),
                            false))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g, mask) -> new Tensor[] {
                mask.needs(0) ? Grads.scaled(g[0], a[3]) : null,
                mask.needs(1) ? Grads.scaled(mat1Grad(g[0], (Tensor) a[1], (Tensor) a[2]), a[4]) : null,
                mask.needs(2) ? Grads.scaled(mat2Grad(g[0], (Tensor) a[1], (Tensor) a[2]), a[4]) : null
            })
            // beta·self_t + alpha·(m1_t m2 + m1 m2_t)
            .defineJvp((a, o, t) -> new Tensor[] {
                Jvps.plus(
                        Jvps.times(t[0], a[3] == null ? 1L : a[3]),
                        Jvps.times(
                                Jvps.plus(
                                        t[1] == null ? null : t[1].mm((Tensor) a[2]),
                                        t[2] == null ? null : ((Tensor) a[1]).mm(t[2])),
                                a[4] == null ? 1L : a[4]))
            });

    /**
     * {@code grad @ mat2ᴴ}, the gradient of mm's first operand. As ATen's {@code mm_mat1_backward}, a column-major mat1
     * (a transposed view, as in {@code x @ w.t()}) gets a column-major gradient, computed as {@code (conj(mat2) @
     * gradᵀ)ᵀ}: then the gradient of the tensor it was transposed from is contiguous, and accumulating it into a leaf
     * needs no transposing copy.
     */
    private static Tensor mat1Grad(Tensor grad, Tensor mat1, Tensor mat2) {
        return isColumnMajor(mat1) ? mat2.conj().mm(grad.t()).t() : grad.mm(mat2.mH());
    }

    /**
     * {@code mat1ᴴ @ grad}, the gradient of mm's second operand, column-major when mat2 is (ATen's
     * {@code mm_mat2_backward}).
     */
    private static Tensor mat2Grad(Tensor grad, Tensor mat1, Tensor mat2) {
        return isColumnMajor(mat2) ? grad.t().mm(mat1.conj()).t() : mat1.mH().mm(grad);
    }

    private static boolean isColumnMajor(Tensor matrix) {
        long[] stride = matrix.impl().strideRef();
        return stride[0] == 1 && stride[1] == matrix.size(0);
    }

    // ---- bmm / baddbmm --------------------------------------------------------------------------------

    /** The checks of ATen's {@code common_checks_baddbmm_bmm}; returns the result shape. */
    private static long[] batchedShape(Tensor batch1, Tensor batch2) {
        if (batch1.dim() != 3) throw new TorchException("batch1 must be a 3D tensor");
        if (batch2.dim() != 3) throw new TorchException("batch2 must be a 3D tensor");
        long bs = batch1.size(0), contraction = batch1.size(2);
        if (batch2.size(0) != bs || batch2.size(1) != contraction) {
            throw new TorchException("Expected size for first two dimensions of batch2 tensor to be: [" + bs + ", "
                    + contraction + "] but got: [" + batch2.size(0) + ", " + batch2.size(1) + "].");
        }
        return new long[] {bs, batch1.size(1), batch2.size(2)};
    }

    /** The kernel reads batch2 as batch1's dtype; ATen's tensor accessor refuses a mismatch with this message. */
    private static void requireSameScalarType(Tensor batch1, Tensor batch2) {
        if (batch1.dtype() != batch2.dtype()) {
            throw new TorchException("expected scalar type " + batch1.dtype().cppName() + " but found "
                    + batch2.dtype().cppName());
        }
    }

    /** {@code bmm(self, mat2)}: batched matrix product of two 3-D tensors with equal batch sizes. */
    public static final OpDef BMM = OpDef.structured(
                    "bmm(Tensor self, Tensor mat2) -> Tensor",
                    args -> {
                        Tensor self = (Tensor) args[0], mat2 = (Tensor) args[1];
                        Device device = Devices.common("bmm", self, mat2);
                        long[] shape = batchedShape(self, mat2);
                        requireSameScalarType(self, mat2);
                        requireSupported("bmm", self.dtype(), PRODUCT_DTYPES);
                        return Spec.of(shape, mat2.dtype(), device, null);
                    },
                    (args, outs, spec) ->
                            MatmulKernels.run(outs[0], null, (Tensor) args[0], (Tensor) args[1], ZERO, ONE, false))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g, mask) -> new Tensor[] {
                mask.needs(0) ? g[0].bmm(((Tensor) a[1]).mH()) : null,
                mask.needs(1) ? ((Tensor) a[0]).mH().bmm(g[0]) : null
            })
            .deriveJvp(Jvps::bilinear);

    /** {@code baddbmm(self, batch1, batch2, beta, alpha)}: {@code beta * self + alpha * bmm(batch1, batch2)}. */
    public static final OpDef BADDBMM = OpDef.structured(
                    "baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
                    args -> {
                        Tensor self = (Tensor) args[0], batch1 = (Tensor) args[1], batch2 = (Tensor) args[2];
                        Device device = Devices.common("baddbmm", self, batch1, batch2);
                        // ATen expands self before checking the batches (and fails on their sizes with an index
                        // error if they are not 3-D); checking the ranks first gives the clearer message.
                        if (batch1.dim() != 3) throw new TorchException("batch1 must be a 3D tensor");
                        if (batch2.dim() != 3) throw new TorchException("batch2 must be a 3D tensor");
                        requireExpandable(self, new long[] {batch1.size(0), batch1.size(1), batch2.size(2)});
                        if (self.dtype() != batch1.dtype()) {
                            throw new TorchException("Input dtypes must be the same, got: input "
                                    + typeMetaName(self.dtype()) + ", batch1: " + typeMetaName(batch1.dtype())
                                    + ", batch2: " + typeMetaName(batch2.dtype()));
                        }
                        long[] shape = batchedShape(batch1, batch2);
                        requireSameScalarType(batch1, batch2);
                        requireSupported("baddbmm", batch1.dtype(), PRODUCT_DTYPES);
                        return Spec.of(shape, batch2.dtype(), device, null);
                    },
                    (args, outs, spec) -> MatmulKernels.run(
                            outs[0],
                            (Tensor) args[0],
                            (Tensor) args[1],
                            (Tensor) args[2],
                            scalar(args[3]),
                            scalar(args[4]),
                            false))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g, mask) -> new Tensor[] {
                mask.needs(0) ? Grads.scaled(g[0], a[3]) : null,
                mask.needs(1) ? Grads.scaled(g[0].bmm(((Tensor) a[2]).mH()), a[4]) : null,
                mask.needs(2) ? Grads.scaled(((Tensor) a[1]).mH().bmm(g[0]), a[4]) : null
            })
            .defineJvp((a, o, t) -> new Tensor[] {
                Jvps.plus(
                        Jvps.times(t[0], a[3] == null ? 1L : a[3]),
                        Jvps.times(
                                Jvps.plus(
                                        t[1] == null ? null : t[1].bmm((Tensor) a[2]),
                                        t[2] == null ? null : ((Tensor) a[1]).bmm(t[2])),
                                a[4] == null ? 1L : a[4]))
            });

    // ---- mv / dot / vdot ------------------------------------------------------------------------------

    /** {@code mv(self, vec)}: matrix-vector product; the result has vec's dtype, which must equal self's. */
    public static final OpDef MV = OpDef.structured(
                    "mv(Tensor self, Tensor vec) -> Tensor",
                    args -> {
                        Tensor self = (Tensor) args[0], vec = (Tensor) args[1];
                        Device device = Devices.common("mv", self, vec);
                        // ATen's mv is addmv with a fresh 1-D result as input, hence the leading "1".
                        if (self.dim() != 2 || vec.dim() != 1) {
                            throw new TorchException(
                                    "vector + matrix @ vector expected, got 1, " + self.dim() + ", " + vec.dim());
                        }
                        if (self.size(1) != vec.size(0)) {
                            throw new TorchException("size mismatch, got input (" + self.size(0) + "), mat ("
                                    + self.size(0) + "x" + self.size(1) + "), vec (" + vec.size(0) + ")");
                        }
                        if (self.dtype() != vec.dtype()) {
                            throw new TorchException("addmv input tensors must have the same dtype, but got "
                                    + vec.dtype().cppName() + ", "
                                    + self.dtype().cppName() + ", and "
                                    + vec.dtype().cppName());
                        }
                        requireSupported("addmv_impl_cpu", vec.dtype(), PRODUCT_DTYPES);
                        return Spec.of(new long[] {self.size(0)}, vec.dtype(), device, null);
                    },
                    (args, outs, spec) -> MatmulKernels.run(
                            outs[0],
                            null,
                            batchOfOne((Tensor) args[0]),
                            vectorAsMatrix((Tensor) args[1], true),
                            ZERO,
                            ONE,
                            false))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g, mask) -> new Tensor[] {
                mask.needs(0) ? MatmulOps.outer(g[0], Grads.conj((Tensor) a[1])) : null,
                mask.needs(1) ? ((Tensor) a[0]).mH().mv(g[0]) : null
            })
            .deriveJvp(Jvps::bilinear);

    /** ATen's {@code dot_check}. */
    private static void checkDot(Tensor self, Tensor other) {
        if (self.dim() != 1 || other.dim() != 1) {
            throw new TorchException(
                    "1D tensors expected, but got " + self.dim() + "D and " + other.dim() + "D tensors");
        }
        if (self.dtype() != other.dtype()) {
            throw new TorchException("dot : expected both vectors to have same dtype, but found "
                    + self.dtype().cppName() + " and " + other.dtype().cppName());
        }
        if (self.numel() != other.numel()) {
            throw new TorchException(
                    "inconsistent tensor size, expected tensor [" + self.numel() + "] and src [" + other.numel()
                            + "] to have the same number of elements, but got " + self.numel() + " and " + other.numel()
                            + " elements respectively");
        }
    }

    private static OpDef.Kernel dotKernel(boolean conjugateSelf) {
        return (args, outs, spec) -> {
            Tensor self = (Tensor) args[0];
            MatmulKernels.run(
                    outs[0],
                    null,
                    vectorAsMatrix(self, false),
                    vectorAsMatrix((Tensor) args[1], true),
                    ZERO,
                    ONE,
                    conjugateSelf && self.isComplex());
        };
    }

    /** {@code dot(self, tensor)}: the inner product of two 1-D tensors, without conjugation. */
    public static final OpDef DOT = OpDef.structured(
                    "dot(Tensor self, Tensor tensor) -> Tensor",
                    args -> {
                        Tensor self = (Tensor) args[0], other = (Tensor) args[1];
                        Device device = Devices.common("dot", self, other);
                        checkDot(self, other);
                        requireSupported("dot", self.dtype(), PRODUCT_DTYPES);
                        return Spec.of(Shapes.SCALAR, self.dtype(), device, null);
                    },
                    dotKernel(false))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {Grads.times(g[0], a[1]), Grads.times(g[0], a[0])})
            .deriveJvp(Jvps::bilinear);

    /** {@code vdot(self, other)}: the inner product conjugating self (as {@code dot} for real dtypes). */
    public static final OpDef VDOT = OpDef.structured(
                    "vdot(Tensor self, Tensor other) -> Tensor",
                    args -> {
                        Tensor self = (Tensor) args[0], other = (Tensor) args[1];
                        Device device = Devices.common("vdot", self, other);
                        checkDot(self, other);
                        if (self.isComplex())
                            requireSupported("vdot", self.dtype(), EnumSet.of(DType.COMPLEX64, DType.COMPLEX128));
                        else requireSupported("dot", self.dtype(), PRODUCT_DTYPES);
                        return Spec.of(Shapes.SCALAR, self.dtype(), device, null);
                    },
                    dotKernel(true))
            // vdot(a, b) = Σ conj(a)·b: self gets conj(g)·other, other gets g·self.
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) ->
                    new Tensor[] {Grads.conj(g[0]).mul((Tensor) a[1]), g[0].mul((Tensor) a[0])})
            .deriveJvp(Jvps::bilinear);

    // ---- outer / matmul (composites) ------------------------------------------------------------------

    private static void check1d(Tensor t, String arg) {
        if (t.dim() != 1)
            throw new TorchException("outer: Expected 1-D argument " + arg + ", but got " + t.dim() + "-D");
    }

    /** {@code outer(self, vec2)}: {@code self.reshape(n, 1) * vec2}, so it promotes dtypes like {@code mul}. */
    public static final OpDef OUTER = OpDef.composite("outer(Tensor self, Tensor vec2) -> Tensor", args -> {
        Tensor self = (Tensor) args[0], vec2 = (Tensor) args[1];
        check1d(self, "self");
        check1d(vec2, "vec2");
        return PointwiseOps.MUL.call1(ShapeOps.reshape(self, self.size(0), 1), vec2);
    });

    /** {@code matmul(self, other)}: the product by rank, with broadcast batch dims (ATen's {@code _matmul_impl}). */
    public static final OpDef MATMUL = OpDef.composite(
            "matmul(Tensor self, Tensor other) -> Tensor", args -> matmulImpl((Tensor) args[0], (Tensor) args[1]));

    private static Tensor matmulImpl(Tensor tensor1, Tensor tensor2) {
        int dim1 = tensor1.dim(), dim2 = tensor2.dim();
        if (dim1 == 0 || dim2 == 0) {
            throw new TorchException(
                    "both arguments to matmul need to be at least 1D, but they are " + dim1 + "D and " + dim2 + "D");
        }
        if (dim1 == 1 && dim2 == 1) return dot(tensor1, tensor2);
        if (dim1 == 2 && dim2 == 1) return mv(tensor1, tensor2);
        if (dim1 == 1 && dim2 == 2) return ShapeOps.squeeze(mm(ShapeOps.unsqueeze(tensor1, 0), tensor2), 0);
        if (dim1 == 2 && dim2 == 2) return mm(tensor1, tensor2);
        if (shouldFold(tensor1, tensor2)) return foldedMatmul(tensor1, tensor2);
        return batchedMatmul(tensor1, tensor2);
    }

    /**
     * ATen's {@code should_fold}: an N-D (N &gt;= 3) by 1-D/2-D product runs as one {@code mm}/{@code mv} on the N-D
     * operand folded into a matrix, when that folding needs no copy (or when the small operand requires grad: then its
     * gradient is not materialised per batch).
     */
    private static boolean shouldFold(Tensor tensor1, Tensor tensor2) {
        boolean tensor1Larger = tensor1.dim() >= tensor2.dim();
        Tensor t1 = tensor1Larger ? tensor1 : ShapeOps.mT(tensor2);
        int dimT1 = t1.dim(), dimT2 = tensor1Larger ? tensor2.dim() : tensor1.dim();
        if (!(dimT1 >= 3 && dimT2 <= 2)) return false;
        if ((tensor1Larger ? tensor2 : tensor1).requiresGrad()) return true;
        // Folding [m, k] @ [B, k, n] would need mm on the transpose, then a copy to transpose it back.
        if (tensor1.dim() == 2) return false;
        if (t1.numel() == 0) return true;
        long[] shape = t1.impl().shapeRef(), strides = t1.impl().strideRef();
        for (int i = 0; i < dimT1 - 2; i++) {
            if (strides[i] != strides[i + 1] * shape[i + 1]) return false;
        }
        return true;
    }

    private static Tensor foldedMatmul(Tensor tensor1, Tensor tensor2) {
        boolean transpose = tensor2.dim() > tensor1.dim();
        Tensor t1 = transpose ? ShapeOps.mT(tensor2) : tensor1;
        Tensor t2 = !transpose ? tensor2 : tensor1.dim() == 2 ? ShapeOps.t(tensor1) : tensor1;
        long[] sizes1 = t1.impl().shapeRef();
        // Not view(-1, k): with k == 0 the -1 would be ambiguous ([3, 5, 0] @ [0, 0]).
        long[] outputShape = Arrays.copyOf(sizes1, sizes1.length - 1);
        long folded = Shapes.numel(outputShape);
        boolean t2IsMatrix = t2.dim() == 2;
        if (t2IsMatrix) outputShape = append(outputShape, t2.size(1));
        Tensor t1Folded = ShapeOps.reshape(t1, folded, sizes1[sizes1.length - 1]);
        if (t2IsMatrix) {
            Tensor output = ShapeOps.view(mm(t1Folded, t2), outputShape);
            return transpose ? CopyOps.contiguous(ShapeOps.mT(output)) : output;
        }
        return ShapeOps.view(mv(t1Folded, t2), outputShape);
    }

    private static Tensor batchedMatmul(Tensor tensor1, Tensor tensor2) {
        int dim1 = tensor1.dim(), dim2 = tensor2.dim();
        long[] s1 = tensor1.impl().shapeRef(), s2 = tensor2.impl().shapeRef();
        long n = dim1 > 1 ? s1[dim1 - 2] : 1, m1 = s1[dim1 - 1];
        long m2 = dim2 > 1 ? s2[dim2 - 2] : s2[0], p = dim2 > 1 ? s2[dim2 - 1] : 1;
        long[] batch1 = Arrays.copyOf(s1, Math.max(dim1 - 2, 0));
        long[] batch2 = Arrays.copyOf(s2, Math.max(dim2 - 2, 0));
        // A broadcast batch of one would make autograd materialise the gradient per batch: multiply the
        // matrix instead, through the folding path.
        if (dim1 == 3 && dim2 == 3 && batch1[0] != batch2[0]) {
            if (batch1[0] == 1 && tensor1.requiresGrad()) return matmulImpl(ShapeOps.squeeze(tensor1, 0), tensor2);
            if (batch2[0] == 1 && tensor2.requiresGrad()) return matmulImpl(tensor1, ShapeOps.squeeze(tensor2, 0));
        }
        long[] batch = Shapes.broadcast(batch1, batch2);
        long product = Shapes.numel(batch);
        Tensor expanded1 = ShapeOps.reshape(ShapeOps.expand(tensor1, append(batch, n, m1)), product, n, m1);
        boolean vectorRhs = dim2 == 1;
        Tensor expanded2 = vectorRhs
                ? ShapeOps.unsqueeze(ShapeOps.reshape(ShapeOps.expand(tensor2, append(batch, m2)), product, m2), 2)
                : ShapeOps.reshape(ShapeOps.expand(tensor2, append(batch, m2, p)), product, m2, p);
        long[] outputShape = batch;
        if (dim1 > 1) outputShape = append(outputShape, n);
        if (dim2 > 1) outputShape = append(outputShape, p);
        Tensor result = bmm(expanded1, expanded2);
        if (vectorRhs) result = ShapeOps.squeeze(result, -1);
        return ShapeOps.view(result, outputShape);
    }

    private static long[] append(long[] a, long... tail) {
        long[] r = Arrays.copyOf(a, a.length + tail.length);
        System.arraycopy(tail, 0, r, a.length, tail.length);
        return r;
    }

    // ---- entry points ---------------------------------------------------------------------------------

    /** {@code torch.mm(self, mat2)}. */
    public static Tensor mm(Tensor self, Tensor mat2) {
        return MM.call1(self, mat2);
    }

    /** {@code torch.addmm(self, mat1, mat2)}. */
    public static Tensor addmm(Tensor self, Tensor mat1, Tensor mat2) {
        return ADDMM.call1(self, mat1, mat2, null, null);
    }

    /**
     * {@code torch.addmm(self, mat1, mat2, beta=beta, alpha=alpha)}; beta and alpha are Java numbers or
     * {@link Scalar}s.
     */
    public static Tensor addmm(Tensor self, Tensor mat1, Tensor mat2, Object beta, Object alpha) {
        return ADDMM.call1(self, mat1, mat2, beta, alpha);
    }

    /** {@code self.addmm_(mat1, mat2, beta=beta, alpha=alpha)}: in place, self must have the result's shape. */
    public static Tensor addmm_(Tensor self, Tensor mat1, Tensor mat2, Object beta, Object alpha) {
        Dispatcher.callOut(ADDMM, new Tensor[] {self}, self, mat1, mat2, beta, alpha);
        return self;
    }

    /** {@code torch.bmm(self, mat2)}. */
    public static Tensor bmm(Tensor self, Tensor mat2) {
        return BMM.call1(self, mat2);
    }

    /** {@code torch.baddbmm(self, batch1, batch2)}. */
    public static Tensor baddbmm(Tensor self, Tensor batch1, Tensor batch2) {
        return BADDBMM.call1(self, batch1, batch2, null, null);
    }

    /** {@code torch.baddbmm(self, batch1, batch2, beta=beta, alpha=alpha)}. */
    public static Tensor baddbmm(Tensor self, Tensor batch1, Tensor batch2, Object beta, Object alpha) {
        return BADDBMM.call1(self, batch1, batch2, beta, alpha);
    }

    /** {@code self.baddbmm_(batch1, batch2, beta=beta, alpha=alpha)}: in place. */
    public static Tensor baddbmm_(Tensor self, Tensor batch1, Tensor batch2, Object beta, Object alpha) {
        Dispatcher.callOut(BADDBMM, new Tensor[] {self}, self, batch1, batch2, beta, alpha);
        return self;
    }

    /** {@code torch.mv(self, vec)}. */
    public static Tensor mv(Tensor self, Tensor vec) {
        return MV.call1(self, vec);
    }

    /** {@code torch.dot(self, tensor)}. */
    public static Tensor dot(Tensor self, Tensor tensor) {
        return DOT.call1(self, tensor);
    }

    /** {@code torch.vdot(self, other)}. */
    public static Tensor vdot(Tensor self, Tensor other) {
        return VDOT.call1(self, other);
    }

    /** {@code torch.outer(self, vec2)}. */
    public static Tensor outer(Tensor self, Tensor vec2) {
        return OUTER.call1(self, vec2);
    }

    /** {@code torch.matmul(self, other)}, the {@code @} operator. */
    public static Tensor matmul(Tensor self, Tensor other) {
        return MATMUL.call1(self, other);
    }
}
