package org.jtorch.ops;

import java.util.EnumSet;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.TorchTypeException;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.cpu.Fns;
import org.jtorch.kernels.cpu.PointwiseLoops;
import org.jtorch.ops.Pointwise.Promotion;
import org.jtorch.storage.TensorImpl;

/**
 * Complex numbers as tensors: the real/imaginary views, {@code view_as_real}/{@code view_as_complex}, conjugation, the
 * {@code complex}/{@code polar} constructors and the conjugate transpose.
 *
 * <p>A complex tensor's storage holds interleaved (re, im) pairs in the primitive array of its real dtype (float[] for
 * complex64, double[] for complex128, short[] for complex32/bcomplex32), so element {@code i} has its real part in slot
 * {@code 2i} and its imaginary part in slot {@code 2i + 1}. The views here are therefore pure geometry: offsets and
 * strides doubled, plus one for the imaginary part.
 *
 * <p><b>Conjugation differs from PyTorch in one respect.</b> PyTorch's {@code conj()} is lazy: it returns a view with a
 * conjugate bit and negates only when the view is read or resolved. JTorch has no conjugate bit: {@code conj()} of a
 * complex tensor materialises a new tensor (it does not alias its input, so writes to either do not reach the other),
 * {@code is_conj()} is always false and {@code resolve_conj()} is the identity. Values are the same as PyTorch's in
 * every case; the only observable difference is aliasing. {@code conj()} of a non-complex tensor returns the input
 * itself, as in PyTorch.
 */
public final class ComplexOps {
    private ComplexOps() {}

    // ---- views of the components ------------------------------------------------------------------

    /**
     * {@code real(self)}: a view of the real parts of a complex tensor; a real tensor is returned as is. As in ATen, it
     * is {@code view_as_real(self).select(-1, 0)}, so its gradient comes from those two views (a real gradient g
     * becomes g + 0i).
     */
    public static final OpDef REAL = OpDef.composite("real(Tensor(a) self) -> Tensor(a)", args -> {
        Tensor t = (Tensor) args[0];
        return t.isComplex() ? ShapeOps.select(viewAsReal(t), -1, 0) : t;
    });

    /** {@code imag(self)}: {@code view_as_real(self).select(-1, 1)}; TypeError for non-complex tensors (2.15). */
    public static final OpDef IMAG = OpDef.composite("imag(Tensor(a) self) -> Tensor(a)", args -> {
        Tensor t = (Tensor) args[0];
        if (!t.isComplex())
            throw new TorchTypeException("imag is not implemented for tensors with non-complex dtypes.");
        return ShapeOps.select(viewAsReal(t), -1, 1);
    });

    /** {@code view_as_real(self)}: shape {@code [..., 2]} over the same storage, last stride 1. */
    public static final OpDef VIEW_AS_REAL = OpDef.view("view_as_real(Tensor(a) self) -> Tensor(a)", args -> {
                Tensor t = (Tensor) args[0];
                if (!t.isComplex()) throw new TorchTypeException("view_as_real is only supported for complex tensors");
                int n = t.dim();
                long[] shape = java.util.Arrays.copyOf(t.impl().shapeRef(), n + 1), strides = new long[n + 1];
                shape[n] = 2;
                for (int i = 0; i < n; i++) strides[i] = 2 * t.impl().strideRef()[i];
                strides[n] = 1;
                return Tensor.of(TensorImpl.of(
                        t.impl().storage(),
                        2 * t.storageOffset(),
                        shape,
                        strides,
                        t.dtype().toReal()));
            })
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {viewAsComplex(Grads.pairedForComplexView(g[0]))})
            .deriveJvp(Jvps::linear);

    /**
     * {@code view_as_complex(self)}: the last dim (size 2, stride 1) becomes the (re, im) pair. The other strides and
     * the offset must be even, since a complex element starts at an even slot.
     */
    public static final OpDef VIEW_AS_COMPLEX = OpDef.view("view_as_complex(Tensor(a) self) -> Tensor(a)", args -> {
                Tensor t = (Tensor) args[0];
                DType d = t.dtype();
                if (d != DType.FLOAT32 && d != DType.FLOAT64 && d != DType.FLOAT16) {
                    // 2.15 raises NotImplementedError for dtypes it could define but does not
                    throw new UnsupportedOperationException(
                            "view_as_complex is only supported for half, float and double tensors, "
                                    + "but got a tensor of scalar type: " + d.cppName());
                }
                int n = t.dim();
                if (n == 0) throw new TorchException("Input tensor must have one or more dimensions");
                if (t.impl().shapeRef()[n - 1] != 2)
                    throw new TorchException("Tensor must have a last dimension of size 2");
                if (t.impl().strideRef()[n - 1] != 1)
                    throw new TorchException("Tensor must have a last dimension with stride 1");
                long[] strides = new long[n - 1];
                for (int i = 0; i < n - 1; i++) {
                    if (t.impl().strideRef()[i] % 2 != 0) {
                        throw new TorchException("Tensor must have a stride divisible by 2 for all but last dimension");
                    }
                    strides[i] = t.impl().strideRef()[i] / 2;
                }
                if (t.storageOffset() % 2 != 0)
                    throw new TorchException("Tensor must have a storage_offset divisible by 2");
                return Tensor.of(TensorImpl.of(
                        t.impl().storage(),
                        t.storageOffset() / 2,
                        java.util.Arrays.copyOf(t.impl().shapeRef(), n - 1),
                        strides,
                        d.toComplex()));
            })
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {viewAsReal(g[0])})
            .deriveJvp(Jvps::linear);

    // ---- conjugation --------------------------------------------------------------------------------

    /**
     * The materialising kernel: negates the imaginary parts of a complex tensor into a new tensor; a real tensor of any
     * dtype is copied, as ATen's kernel does.
     */
    public static final OpDef CONJ_PHYSICAL_KERNEL = Pointwise.unary(
                    "_conj_physical(Tensor self) -> Tensor",
                    Promotion.DEFAULT,
                    EnumSet.allOf(DType.Category.class),
                    new Fns.Unary(
                            x -> x,
                            x -> x,
                            x -> x,
                            (re, im, o) -> {
                                o[0] = re;
                                o[1] = -im;
                            },
                            null))
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {conj(g[0])})
            .deriveJvp(Jvps::linear);

    /** {@code conj_physical(self)}: a new conjugated tensor for complex input, the input itself otherwise. */
    public static final OpDef CONJ_PHYSICAL = OpDef.composite("conj_physical(Tensor self) -> Tensor", args -> {
        Tensor t = (Tensor) args[0];
        return t.isComplex() ? CONJ_PHYSICAL_KERNEL.call1(t) : t;
    });

    /** {@code conj(self)}: materialised in JTorch (no conjugate bit), see the class comment. */
    public static final OpDef CONJ =
            OpDef.composite("conj(Tensor(a) self) -> Tensor(a)", args -> CONJ_PHYSICAL.call1(args[0]));

    /** {@code resolve_conj(self)}: the identity, as no JTorch tensor carries a pending conjugation. */
    public static final OpDef RESOLVE_CONJ =
            OpDef.composite("resolve_conj(Tensor(a) self) -> Tensor(a)", args -> args[0]);

    // ---- constructors -------------------------------------------------------------------------------

    private static boolean halfFloatOrDouble(DType d) {
        return d == DType.FLOAT16 || d == DType.FLOAT32 || d == DType.FLOAT64;
    }

    /** PyTorch's {@code complex_check_dtype}; 2.15 raises these as TypeError. */
    private static void checkParts(Tensor a, Tensor b) {
        if (!halfFloatOrDouble(a.dtype()) || !halfFloatOrDouble(b.dtype())) {
            throw new TorchTypeException("Expected both inputs to be Half, Float or Double tensors but got "
                    + a.dtype().cppName() + " and " + b.dtype().cppName());
        }
        if (a.dtype() != b.dtype()) {
            throw new TorchTypeException("Expected object of scalar type "
                    + a.dtype().cppName() + " but got scalar type " + b.dtype().cppName() + " for second argument");
        }
    }

    private static Spec complexMeta(String op, Object[] args) {
        Tensor a = (Tensor) args[0], b = (Tensor) args[1];
        checkParts(a, b);
        Device device = Devices.common(op, a, b);
        return Spec.of(
                Shapes.broadcast(a.impl().shapeRef(), b.impl().shapeRef()),
                a.dtype().toComplex(),
                device,
                null);
    }

    /** Runs a formula of two real operands whose complex-domain form ignores their (zero) imaginary parts. */
    private static void complexKernel(Fns.ComplexBinary f, Object[] args, Tensor out) {
        PointwiseLoops.binary(
                new Fns.Binary(null, null, null, f, null),
                out.dtype(),
                out.impl(),
                ((Tensor) args[0]).impl(),
                ((Tensor) args[1]).impl());
    }

    /**
     * {@code complex(real, imag)}: a new complex tensor; both parts half, float or double of the same dtype, broadcast.
     */
    public static final OpDef COMPLEX = OpDef.structured(
                    "complex(Tensor real, Tensor imag) -> Tensor",
                    args -> complexMeta("complex", args),
                    (args, outs, spec) -> complexKernel(
                            (ar, ai, br, bi, o) -> {
                                o[0] = ar;
                                o[1] = br;
                            },
                            args,
                            outs[0]))
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {real(g[0]), imag(g[0])})
            .deriveJvp(Jvps::linear);

    /**
     * {@code polar(abs, angle)} = {@code abs·cos(angle) + i·abs·sin(angle)}; float or double parts (no half kernel, as
     * on CPU).
     */
    public static final OpDef POLAR = OpDef.structured(
                    "polar(Tensor abs, Tensor angle) -> Tensor",
                    args -> {
                        Spec spec = complexMeta("polar", args);
                        DType d = ((Tensor) args[0]).dtype();
                        if (d == DType.FLOAT16)
                            throw new TorchException("\"polar_cpu\" not implemented for '" + d.cppName() + "'");
                        return spec;
                    },
                    (args, outs, spec) -> complexKernel(
                            (ar, ai, br, bi, o) -> {
                                o[0] = ar * Math.cos(br);
                                o[1] = ar * Math.sin(br);
                            },
                            args,
                            outs[0]))
            .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) -> {
                // ATen's polar_backward: d out/d abs = sgn(out) (e^{i·angle} for abs > 0), d out/d angle = i·out;
                // a real input's gradient is Re(conj(g)·∂out/∂input)
                Tensor gConj = conj(g[0]);
                return new Tensor[] {
                    real(gConj.mul(PointwiseOps.SGN.call1(o[0]))), real(gConj.mul(o[0].mul(Grads.imaginaryUnit(o[0]))))
                };
            })
            .deriveJvp(Jvps::transposedVjp);

    // ---- conjugate transpose ------------------------------------------------------------------------

    /** ATen's {@code _adjoint}: 1-D is refused, 0-d is its own transpose, otherwise {@code mT} then conj. */
    private static Tensor adjointOf(Tensor t, String name) {
        if (t.dim() == 1) {
            throw new TorchException(
                    "tensor." + name + " is only supported on matrices or batches of matrices. Got 1-D tensor.");
        }
        Tensor transposed = t.dim() == 0 ? t : ShapeOps.MT.call1(t);
        return CONJ.call1(transposed);
    }

    /**
     * {@code self.mH}: the conjugate transpose of the last two dims. A view for real tensors; for complex ones a new
     * tensor, since JTorch materialises the conjugation. 0-d tensors are their own adjoint (conjugated).
     */
    public static final OpDef MH =
            OpDef.composite("mH(Tensor(a) self) -> Tensor(a)", args -> adjointOf((Tensor) args[0], "mH"));

    /** {@code adjoint(self)}: the same as {@code mH}. */
    public static final OpDef ADJOINT =
            OpDef.composite("adjoint(Tensor(a) self) -> Tensor(a)", args -> adjointOf((Tensor) args[0], "adjoint()"));

    // ---- predicates ---------------------------------------------------------------------------------

    /** {@code isreal(self)}: true where the imaginary part is zero; all true for non-complex tensors. */
    public static final OpDef ISREAL = OpDef.composite("isreal(Tensor self) -> Tensor", args -> {
        Tensor t = (Tensor) args[0];
        if (!t.isComplex()) return Creation.full(t.impl().shapeRef(), true, DType.BOOL, t.device());
        return PointwiseOps.EQ.call1(IMAG.call1(t), 0L);
    });

    // ---- Java entry points --------------------------------------------------------------------------

    /** {@code torch.real}. */
    public static Tensor real(Tensor t) {
        return REAL.call1(t);
    }

    /** {@code torch.imag}. */
    public static Tensor imag(Tensor t) {
        return IMAG.call1(t);
    }

    /** {@code torch.view_as_real}. */
    public static Tensor viewAsReal(Tensor t) {
        return VIEW_AS_REAL.call1(t);
    }

    /** {@code torch.view_as_complex}. */
    public static Tensor viewAsComplex(Tensor t) {
        return VIEW_AS_COMPLEX.call1(t);
    }

    /** {@code torch.conj}: materialised, see the class comment. */
    public static Tensor conj(Tensor t) {
        return CONJ.call1(t);
    }

    /** {@code torch.conj_physical}. */
    public static Tensor conjPhysical(Tensor t) {
        return CONJ_PHYSICAL.call1(t);
    }

    /** {@code torch.resolve_conj}. */
    public static Tensor resolveConj(Tensor t) {
        return RESOLVE_CONJ.call1(t);
    }

    /** {@code torch.is_conj}: always false, JTorch has no conjugate bit. */
    public static boolean isConj(Tensor t) {
        return false;
    }

    /** {@code torch.complex(real, imag)}. */
    public static Tensor complex(Tensor real, Tensor imag) {
        return COMPLEX.call1(real, imag);
    }

    /** {@code torch.polar(abs, angle)}. */
    public static Tensor polar(Tensor abs, Tensor angle) {
        return POLAR.call1(abs, angle);
    }

    /** {@code Tensor.mH}. */
    public static Tensor mH(Tensor t) {
        return MH.call1(t);
    }

    /** {@code torch.adjoint}. */
    public static Tensor adjoint(Tensor t) {
        return ADJOINT.call1(t);
    }

    /** {@code torch.isreal}. */
    public static Tensor isreal(Tensor t) {
        return ISREAL.call1(t);
    }

    /** {@code torch.is_complex}. */
    public static boolean isComplex(Tensor t) {
        return t.isComplex();
    }
}
