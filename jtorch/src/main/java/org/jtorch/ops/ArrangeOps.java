package org.jtorch.ops;

import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jtorch.DType;
import org.jtorch.DynamicOutputShapeException;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.cpu.Parallel;

/**
 * Ops that spread or rearrange elements: {@code repeat_interleave}, {@code diff}, {@code diag}, {@code diag_embed}, and
 * the {@code torch.nn.functional} ops {@code pad} and {@code one_hot}.
 *
 * <p>{@code diff}, {@code diag} and {@code one_hot} are composites of existing ops, as in ATen, so they inherit every
 * rule of their parts. {@code pad}, {@code diag_embed} and the copy behind {@code repeat_interleave} are structured
 * ops; {@code pad} and {@code repeat_interleave} share one gather kernel that copies raw elements (any dtype, any input
 * strides). The output length of {@code repeat_interleave} with tensor repeats depends on their values: its composites
 * read them on the CPU, as ATen does, and on the meta device require {@code output_size}.
 *
 * <p><b>Gradients.</b> pad's constant mode is undone by the opposite pad; its other modes read edge elements several
 * times, so their gradient is summed by {@link PadBackwardOps}. diag_embed's gradient is the diagonal;
 * repeat_interleave's is an {@code index_add} of the copies back into their slice.
 */
public final class ArrangeOps {
    private ArrangeOps() {}

    private static long lng(Object o) {
        return ((Number) o).longValue();
    }

    // ---- the gather kernel ----------------------------------------------------------------------------

    /**
     * {@code out[j0, j1, ...] = in[map0[j0], map1[j1], ...]}: a null map is the identity and a negative entry selects
     * {@code fill}, one element of out's dtype. Elements move as raw bytes, so every dtype works unchanged; consecutive
     * sources along the last dim move as one block when both sides are unit-stride there.
     */
    private static void gather(Tensor in, Tensor out, long[][] maps, MemorySegment fill) {
        long n = out.numel();
        if (n == 0) return;
        long item = out.dtype().itemSize();
        MemorySegment src = in.impl().storage().segment(),
                dst = out.impl().storage().segment();
        int nd = out.dim();
        if (nd == 0) {
            MemorySegment.copy(src, in.storageOffset() * item, dst, out.storageOffset() * item, item);
            return;
        }
        long[] shape = out.impl().shapeRef(),
                inStrides = in.impl().strideRef(),
                outStrides = out.impl().strideRef();
        long last = shape[nd - 1];
        Row row = new Row(src, inStrides[nd - 1], dst, outStrides[nd - 1], maps[nd - 1], last, fill, item);
        Parallel.forRange(n / last, Math.max(1, Parallel.GRAIN / last), (start, end) -> {
            long[] idx = new long[nd - 1];
            long rem = start;
            for (int d = nd - 2; d >= 0; d--) {
                idx[d] = rem % shape[d];
                rem /= shape[d];
            }
            for (long r = start; r < end; r++) {
                long srcBase = in.storageOffset(), dstBase = out.storageOffset();
                boolean filled = false;
                for (int d = 0; d < nd - 1; d++) {
                    long s = maps[d] == null ? idx[d] : maps[d][(int) idx[d]];
                    if (s < 0) filled = true;
                    else srcBase += s * inStrides[d];
                    dstBase += idx[d] * outStrides[d];
                }
                row.copy(srcBase, dstBase, filled);
                for (int d = nd - 2; d >= 0 && ++idx[d] == shape[d]; d--) idx[d] = 0;
            }
        });
    }

    /** The last-dim loop of {@link #gather}: one output row from one input row (or the fill value). */
    private record Row(
            MemorySegment src,
            long inStride,
            MemorySegment dst,
            long outStride,
            long[] map,
            long length,
            MemorySegment fill,
            long item) {
        void copy(long srcBase, long dstBase, boolean filled) {
            boolean unit = inStride == 1 && outStride == 1;
            for (long j = 0; j < length; ) {
                long s = filled ? -1 : map == null ? j : map[(int) j];
                long k = 1;
                if (s < 0) {
                    MemorySegment.copy(fill, 0, dst, (dstBase + j * outStride) * item, item);
                } else {
                    while (j + k < length && (map == null || map[(int) (j + k)] == s + k)) k++;
                    if (unit) {
                        MemorySegment.copy(src, (srcBase + s) * item, dst, (dstBase + j) * item, k * item);
                    } else {
                        for (long i = 0; i < k; i++) {
                            MemorySegment.copy(
                                    src,
                                    (srcBase + (s + i) * inStride) * item,
                                    dst,
                                    (dstBase + (j + i) * outStride) * item,
                                    item);
                        }
                    }
                }
                j += k;
            }
        }
    }

    // ---- repeat_interleave ----------------------------------------------------------------------------

    /** ATen's message for an index tensor that repeat_interleave cannot read. */
    private static void checkRepeatsDtype(Tensor repeats) {
        DType d = repeats.dtype();
        if (!d.isIntegral(false) || d.isBarebonesUnsigned()) {
            throw new TorchException("\"repeat_interleave_cpu\" not implemented for '" + d.cppName() + "'");
        }
    }

    private static void checkRepeatsAlong(Tensor input, Tensor repeats, int dim) {
        if (repeats.dim() != 1 || repeats.size(0) != input.size(dim)) {
            throw new TorchException("repeats must have the same size as input along dim, but got repeats.size(0) = "
                    + (repeats.dim() == 1 ? repeats.size(0) : repeats.numel()) + " and input.size(" + dim + ") = "
                    + input.size(dim));
        }
    }

    /**
     * ATen's {@code repeat_interleave_common} checks, then the output length: {@code output_size} when given (the
     * kernel checks it against the repeats), else the sum of the repeats, read from the data.
     */
    private static long outputSize(Tensor repeats, Long outputSize) {
        checkRepeatsDtype(repeats);
        if (repeats.dim() != 1) throw new TorchException("repeat_interleave only accept 1D vector as repeat");
        if (repeats.dtype() != DType.INT64 && repeats.dtype() != DType.INT32) {
            throw new TorchException("repeats has to be Long or Int tensor");
        }
        if (repeats.numel() == 0) return 0;
        if (!repeats.impl().hasData()) {
            if (outputSize == null && repeats.impl().isFake())
                throw new DynamicOutputShapeException("aten::repeat_interleave.Tensor");
            if (outputSize == null)
                throw new TorchException("cannot repeat_interleave a meta tensor without output_size");
            return outputSize;
        }
        long sum = 0;
        for (long r : repeats.toLongArray()) {
            if (r < 0) throw new TorchException("repeats can not be negative");
            sum += r;
            if (sum < 0) throw new TorchException("cumulative sum values overflowed. check the repeats tensor values");
        }
        return outputSize != null ? outputSize : sum;
    }

    /**
     * {@code _repeat_interleave_along(self, repeats, dim, output_size)}: slice {@code i} of {@code self} along
     * {@code dim} written {@code repeats[i]} times, in order. The one kernel behind every repeat_interleave form;
     * {@code output_size} must equal the sum of the repeats.
     */
    public static final OpDef REPEAT_INTERLEAVE_ALONG = OpDef.structured(
                    "_repeat_interleave_along(Tensor self, Tensor repeats, int dim, SymInt output_size) -> Tensor",
                    args -> {
                        Tensor self = (Tensor) args[0], repeats = (Tensor) args[1];
                        checkRepeatsDtype(repeats);
                        if (self.dim() == 0) {
                            throw new IndexOutOfBoundsException(
                                    "Dimension specified as " + lng(args[2]) + " but tensor has no dimensions");
                        }
                        int dim = Shapes.wrapDim(lng(args[2]), self.dim());
                        checkRepeatsAlong(self, repeats, dim);
                        long[] shape = self.shape();
                        shape[dim] = lng(args[3]);
                        Shapes.numel(shape);
                        return Spec.of(shape, self.dtype(), Devices.common("repeat_interleave", self, repeats), dim);
                    },
                    (args, outs, spec) -> {
                        Tensor self = (Tensor) args[0];
                        int dim = (Integer) spec.plan();
                        long total = outs[0].size(dim);
                        long[] repeats = ((Tensor) args[1]).toLongArray();
                        long sum = 0;
                        for (long r : repeats) sum += r;
                        if (sum != total) throw new TorchException("allocated size does not match required size");
                        long[] map = new long[Math.toIntExact(total)];
                        for (int i = 0, at = 0; i < repeats.length; i++) {
                            if (repeats[i] < 0) throw new TorchException("repeats can not be negative");
                            for (long k = 0; k < repeats[i]; k++) map[at++] = i;
                        }
                        long[][] maps = new long[self.dim()][];
                        maps[dim] = map;
                        gather(self, outs[0], maps, null);
                    })
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) ->
                    new Tensor[] {repeatInterleaveGrad(g[0], (Tensor) a[0], (Tensor) a[1], lng(a[2]), lng(a[3])), null})
            .deriveJvp(Jvps.linearExcept(1));

    /**
     * The backward of {@link #REPEAT_INTERLEAVE_ALONG}: the gradient of every copy summed back into the slice it came
     * from, {@code index_add} into zeros by the source index of each output slice (the forward's map,
     * {@code repeat_interleave(repeats)}), whose own backward is the {@code index_select} that the forward is.
     */
    private static Tensor repeatInterleaveGrad(Tensor g, Tensor self, Tensor repeats, long dim, long outputSize) {
        Tensor source = REPEAT_INTERLEAVE.call1(repeats, outputSize);
        Tensor zeros = Creation.full(self.impl().shapeRef(), 0L, g.dtype(), g.device());
        return ScatterOps.indexAdd(zeros, (int) dim, source, g);
    }

    /**
     * {@code repeat_interleave(repeats, output_size=None)}: {@code i} repeated {@code repeats[i]} times, in repeats'
     * dtype (int32 or int64).
     */
    public static final OpDef REPEAT_INTERLEAVE = OpDef.composite(
            "repeat_interleave.Tensor(Tensor repeats, *, SymInt? output_size=None) -> Tensor",
            args -> {
                Tensor repeats = (Tensor) args[0];
                long total = outputSize(repeats, (Long) args[1]);
                Tensor indices = Creation.ARANGE.call1(0L, repeats.numel(), 1L, repeats.dtype(), repeats.device());
                return REPEAT_INTERLEAVE_ALONG.call1(indices, repeats, 0L, total);
            },
            OpDef.Flag.NOT_DIFFERENTIABLE);

    /**
     * {@code repeat_interleave(self, repeats, dim=None, output_size=None)} with tensor repeats: a 0-d or one-element
     * repeats applies to every slice; without {@code dim} the input is flattened.
     */
    public static final OpDef REPEAT_INTERLEAVE_SELF_TENSOR = OpDef.composite(
            "repeat_interleave.self_Tensor(Tensor self, Tensor repeats, int? dim=None, *, "
                    + "SymInt? output_size=None) -> Tensor",
            args -> {
                Tensor input = (Tensor) args[0], repeats = (Tensor) args[1];
                if (args[2] == null) input = ShapeOps.flatten(input);
                int dim = Shapes.wrapDim(args[2] == null ? 0 : lng(args[2]), input.dim());
                if (input.dim() == 0) {
                    throw new IndexOutOfBoundsException(
                            "Dimension specified as " + lng(args[2]) + " but tensor has no dimensions");
                }
                if (repeats.dim() == 0 || repeats.dim() == 1 && repeats.size(0) == 1) {
                    repeats = ShapeOps.expand(ShapeOps.reshape(repeats, 1), input.size(dim));
                } else if (repeats.dim() == 1) {
                    checkRepeatsAlong(input, repeats, dim);
                } else {
                    throw new TorchException("repeats must be 0-dim or 1-dim tensor");
                }
                long total = outputSize(repeats, (Long) args[3]);
                return REPEAT_INTERLEAVE_ALONG.call1(input, repeats, (long) dim, total);
            });

    /**
     * {@code repeat_interleave(self, repeats, dim=None, output_size=None)} with an int: each slice {@code repeats}
     * times, as a contiguous copy of an expanded view.
     */
    public static final OpDef REPEAT_INTERLEAVE_SELF_INT = OpDef.composite(
            "repeat_interleave.self_int(Tensor self, SymInt repeats, int? dim=None, *, "
                    + "SymInt? output_size=None) -> Tensor",
            args -> {
                Tensor self = (Tensor) args[0];
                long repeats = lng(args[1]);
                Tensor input = args[2] == null ? ShapeOps.flatten(self) : self;
                int dim = Shapes.wrapDim(args[2] == null ? 0 : lng(args[2]), self.dim());
                if (repeats < 0) throw new TorchException("Repeats must be non-negative");
                input = ShapeOps.unsqueeze(input, dim + 1);
                long[] expanded = input.shape();
                expanded[dim + 1] = repeats;
                if (args[3] != null && lng(args[3]) != repeats * expanded[dim]) {
                    throw new TorchException("repeat_interleave: Invalid output_size, expected "
                            + repeats * expanded[dim] + " but got " + lng(args[3]));
                }
                return ShapeOps.flatten(CopyOps.clone(ShapeOps.expand(input, expanded)), dim, dim + 1);
            });

    // ---- diff -----------------------------------------------------------------------------------------

    private static void checkDiffOperand(Tensor self, Tensor other, long dim) {
        if (other == null) return;
        int d = Shapes.wrapDim(dim, self.dim());
        if (other.dim() != self.dim())
            throw new TorchException("diff expects prepend or append to be the same dimension as input");
        for (int i = 0; i < other.dim(); i++) {
            if (i != d && other.size(i) != self.size(i)) {
                throw new TorchException(
                        "diff expects the shape of tensor to prepend or append to match that of input except along "
                                + "the differencing dimension; input.size(" + i + ") = " + self.size(i)
                                + ", but got tensor.size(" + i + ") = "
                                + other.size(i));
            }
        }
    }

    /**
     * {@code diff(self, n=1, dim=-1, prepend=None, append=None)}: the n-th forward difference along {@code dim}, after
     * joining prepend and append; {@code narrow(1:) - narrow(:-1)}, or logical_xor for bool. {@code n} larger than the
     * dim gives an empty result; {@code n = 0} a copy of self.
     */
    public static final OpDef DIFF = OpDef.composite(
            "diff(Tensor self, int n=1, int dim=-1, Tensor? prepend=None, Tensor? append=None) -> Tensor", args -> {
                Tensor self = (Tensor) args[0], prepend = (Tensor) args[3], append = (Tensor) args[4];
                long n = lng(args[1]), dim = lng(args[2]);
                if (self.dim() < 1) throw new TorchException("diff expects input to be at least one-dimensional");
                if (n < 0) throw new TorchException("order must be non-negative but got " + n);
                checkDiffOperand(self, prepend, dim);
                checkDiffOperand(self, append, dim);
                if (n == 0) return CopyOps.clone(self);
                Tensor result = self;
                if (prepend != null || append != null) {
                    List<Tensor> parts = prepend == null
                            ? List.of(self, append)
                            : append == null ? List.of(prepend, self) : List.of(prepend, self, append);
                    result = JoinOps.cat(parts, (int) dim);
                }
                int d = Shapes.wrapDim(dim, result.dim());
                long size = result.size(d);
                // ATen returns its input itself when nothing is differenced (an empty dim); a copy keeps
                // the result from aliasing the argument.
                if (size == 0) return result == self ? CopyOps.clone(self) : result;
                OpDef op = result.dtype() == DType.BOOL ? PointwiseOps.LOGICAL_XOR : PointwiseOps.SUB;
                for (long i = 0, len = size - 1; i < Math.min(n, size); i++, len--) {
                    result = op.call1(ShapeOps.narrow(result, d, 1, len), ShapeOps.narrow(result, d, 0, len));
                }
                return result;
            });

    // ---- diag / diag_embed ----------------------------------------------------------------------------

    /**
     * {@code diag_embed(self, offset=0, dim1=-2, dim2=-1)}: a tensor whose (dim1, dim2) planes are zero but for the
     * diagonal {@code offset}, which holds self's last dim.
     */
    public static final OpDef DIAG_EMBED = OpDef.structured(
                    "diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor",
                    args -> {
                        Tensor self = (Tensor) args[0];
                        long offset = lng(args[1]);
                        int rank = self.dim() + 1;
                        int d1 = Shapes.wrapDim(lng(args[2]), rank), d2 = Shapes.wrapDim(lng(args[3]), rank);
                        if (d1 == d2)
                            throw new TorchException(
                                    "diagonal dimensions cannot be identical " + lng(args[2]) + ", " + lng(args[3]));
                        long distance = offset == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(offset);
                        if (distance > Long.MAX_VALUE - self.size(-1)) {
                            throw new TorchException("diag_embed(): offset " + offset + " makes the diagonal's side "
                                    + "longer than int64 can hold");
                        }
                        long len = distance + self.size(-1);
                        long[] shape = new long[rank];
                        for (int i = 0, k = 0; i < rank; i++)
                            shape[i] = i == d1 || i == d2 ? len : self.impl().shapeRef()[k++];
                        Shapes.numel(shape);
                        return Spec.of(shape, self.dtype(), self.device(), new int[] {d1, d2});
                    },
                    (args, outs, spec) -> {
                        int[] dims = (int[]) spec.plan();
                        Tensor out = outs[0];
                        zero(out);
                        CopyOps.convert((Tensor) args[0], diagonalOf(out, lng(args[1]), dims[0], dims[1]));
                    })
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) ->
                    new Tensor[] {ShapeOps.diagonal(g[0], lng(a[1]), (int) lng(a[2]), (int) lng(a[3]))})
            .deriveJvp(Jvps::linear);

    /** Sets every element to zero (all-zero bits are zero in every dtype). */
    private static void zero(Tensor out) {
        if (out.numel() == 0) return;
        long item = out.dtype().itemSize();
        if (out.isContiguous()) {
            out.impl()
                    .storage()
                    .segment()
                    .asSlice(out.storageOffset() * item, out.numel() * item)
                    .fill((byte) 0);
        } else {
            Tensor zero = Creation.scalarTensor(Scalar.of(0L), out.dtype());
            CopyOps.convert(
                    Tensor.viewOf(zero, zero.impl().viewOf(0, out.impl().shapeRef(), new long[out.dim()])), out);
        }
    }

    /** The (dim1, dim2) diagonal of {@code t} as a view whose last dim runs along the diagonal, as {@code diagonal}. */
    private static Tensor diagonalOf(Tensor t, long offset, int dim1, int dim2) {
        long[] sz = t.impl().shapeRef(), st = t.impl().strideRef();
        long len = offset >= 0 ? Math.min(sz[dim1], sz[dim2] - offset) : Math.min(sz[dim1] + offset, sz[dim2]);
        long[] shape = new long[t.dim() - 1], strides = new long[t.dim() - 1];
        for (int i = 0, k = 0; i < t.dim(); i++) {
            if (i == dim1 || i == dim2) continue;
            shape[k] = sz[i];
            strides[k++] = st[i];
        }
        shape[shape.length - 1] = Math.max(len, 0);
        strides[strides.length - 1] = st[dim1] + st[dim2];
        long start = t.storageOffset() + (len > 0 ? (offset >= 0 ? offset * st[dim2] : -offset * st[dim1]) : 0);
        return Tensor.viewOf(t, t.impl().viewOf(start, shape, strides));
    }

    /**
     * {@code diag(self, diagonal=0)}: for a vector, the square matrix with it on diagonal {@code diagonal}; for a
     * matrix, a copy of that diagonal.
     */
    public static final OpDef DIAG = OpDef.composite("diag(Tensor self, int diagonal=0) -> Tensor", args -> {
        Tensor self = (Tensor) args[0];
        long offset = lng(args[1]);
        return switch (self.dim()) {
            case 1 -> DIAG_EMBED.call1(self, offset, 0L, 1L);
            case 2 -> CopyOps.clone(ShapeOps.diagonal(self, offset));
            default -> throw new TorchException("diag(): Supports 1D or 2D tensors. Got " + self.dim() + "D");
        };
    });

    // ---- pad ------------------------------------------------------------------------------------------

    /** {@code torch.nn.functional.pad}'s modes. */
    public enum PadMode {
        CONSTANT,
        REFLECT,
        REPLICATE,
        CIRCULAR;

        /** PyTorch's name of the mode ({@code "reflect"}). */
        public String pyName() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The mode PyTorch names {@code name}; an unknown name is PyTorch's NotImplementedError. */
        public static PadMode of(String name) {
            for (PadMode m : values()) if (m.pyName().equals(name)) return m;
            throw new UnsupportedOperationException("Unrecognised padding mode " + name);
        }
    }

    /** What pad's meta rule hands its kernel: the pads per input dim (0 on unpadded dims) and the fill value. */
    record PadPlan(PadMode mode, long[] before, long[] after, Scalar fill) {}

    /** ATen's reflection and replication kernels: AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND2(kBFloat16, kHalf). */
    private static final Set<DType> EDGE_PAD_DTYPES = EnumSet.of(
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

    /**
     * {@code pad(input, pad, mode="constant", value=None)}, {@code torch.nn.functional.pad}: {@code pad} lists (before,
     * after) amounts from the last dim backwards; negative amounts crop. Constant mode pads any number of trailing dims
     * with {@code value}; reflect, replicate and circular pad the last 1, 2 or 3 dims of a tensor with one or two more
     * dims (the batch and channel dims), as in PyTorch.
     */
    public static final OpDef PAD = OpDef.structured(
                    "pad(Tensor self, SymInt[] pad, str mode=\"constant\", float? value=None) -> Tensor",
                    ArrangeOps::padMeta,
                    (args, outs, spec) -> {
                        PadPlan p = (PadPlan) spec.plan();
                        Tensor x = (Tensor) args[0], out = outs[0];
                        long[][] maps = new long[x.dim()][];
                        for (int d = 0; d < x.dim(); d++) {
                            if (p.before()[d] != 0 || p.after()[d] != 0)
                                maps[d] = padMap(p.mode(), x.size(d), p.before()[d], p.after()[d], out.size(d));
                        }
                        MemorySegment fill = p.fill() == null
                                ? null
                                : Creation.scalarTensor(p.fill(), out.dtype())
                                        .impl()
                                        .storage()
                                        .segment();
                        gather(x, out, maps, fill);
                    })
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) ->
                    new Tensor[] {padGrad(g[0], ((Tensor) a[0]).impl().shapeRef(), (long[]) a[1], (PadMode) a[2])})
            // constant padding adds constants (tangent 0 there); the other modes are linear
            .defineJvp((a, o, t) -> new Tensor[] {t[0] == null ? null : ArrangeOps.PAD.call1(t[0], a[1], a[2], null)});

    /**
     * pad's backward. Constant mode reads each input element once, so its gradient is the crop that undoes the pad:
     * constant pad by the negated amounts (ATen's {@code constant_pad_nd_backward}). The other modes read edge elements
     * several times, and {@link PadBackwardOps#PAD_BACKWARD} sums them.
     */
    private static Tensor padGrad(Tensor g, long[] inputShape, long[] pad, PadMode mode) {
        if (mode != PadMode.CONSTANT) return PadBackwardOps.padBackward(g, inputShape, pad, mode);
        long[] undo = new long[pad.length];
        for (int i = 0; i < pad.length; i++) undo[i] = -pad[i];
        return pad(g, undo, PadMode.CONSTANT, null);
    }

    private static Spec padMeta(Object[] args) {
        Tensor x = (Tensor) args[0];
        long[] pad = (long[]) args[1];
        PadMode mode = (PadMode) args[2];
        Double value = (Double) args[3];
        int rank = x.dim();
        if (pad.length % 2 != 0) throw new TorchException("Padding length must be divisible by 2");
        if (pad.length > 2L * rank) {
            throw new TorchException(
                    "Padding length should be less than or equal to two times the input dimension but got "
                            + "padding length "
                            + pad.length + " and input of dimension " + rank);
        }
        int padded = pad.length / 2;
        long[] before = new long[rank], after = new long[rank];
        for (int k = 0; k < padded; k++) {
            before[rank - 1 - k] = pad[2 * k];
            after[rank - 1 - k] = pad[2 * k + 1];
        }
        Scalar fill = null;
        if (mode == PadMode.CONSTANT) {
            checkCrops(x, before, after, rank - padded);
            fill = Scalar.of(value == null ? 0.0 : value);
            ScalarConversion.check(fill, x.dtype());
        } else {
            if (value != null && value != 0) {
                throw new TorchException("Padding mode \"" + mode.pyName() + "\" doesn't take in value argument");
            }
            if (padded < 1 || padded > 3 || rank - padded < 1 || rank - padded > 2) {
                throw new UnsupportedOperationException("Padding size " + 2 * padded + " is not supported for "
                        + rank + "D input tensor.\nSupported combinations for non-constant padding:\n"
                        + "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
                        + "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
                        + "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)");
            }
            if (mode == PadMode.CIRCULAR) {
                checkCircular(x, before, after, rank - padded);
            } else {
                checkEdgePad(x, mode, pad, padded);
            }
        }
        long[] shape = x.shape();
        for (int d = 0; d < rank; d++) shape[d] += before[d] + after[d];
        Shapes.numel(shape);
        return Spec.of(shape, x.dtype(), x.device(), new PadPlan(mode, before, after, fill));
    }

    /**
     * Constant mode crops with {@code narrow} first, as ATen's constant_pad_nd; cropping more than the dim is narrow's
     * error.
     */
    private static void checkCrops(Tensor x, long[] before, long[] after, int firstPadded) {
        for (int d = firstPadded; d < x.dim(); d++) {
            long size = x.size(d);
            if (before[d] < 0) size += before[d];
            if (size < 0) throw new TorchException("narrow(): length must be non-negative.");
            if (after[d] < 0) size += after[d];
            if (size < 0) throw new TorchException("narrow(): length must be non-negative.");
        }
    }

    /**
     * ATen's {@code _pad_circular} checks; a crop that leaves nothing to wrap around is refused too (ATen reads
     * uninitialised memory).
     */
    private static void checkCircular(Tensor x, long[] before, long[] after, int firstPadded) {
        for (int d = firstPadded; d < x.dim(); d++) {
            long size = x.size(d), out = size + before[d] + after[d];
            if (before[d] > size || after[d] > size)
                throw new TorchException("Padding value causes wrapping around more than once.");
            long kept = size - Math.max(-before[d], 0) - Math.max(-after[d], 0);
            if (out < 0 || kept <= 0 && out > 0)
                throw new TorchException("Negative padding value is resulting in an empty dimension");
        }
    }

    /** The meta checks of ATen's reflection_pad{1,2,3}d and replication_pad{1,2,3}d, in their order, then the dtype. */
    private static void checkEdgePad(Tensor x, PadMode mode, long[] pad, int padded) {
        int rank = x.dim();
        boolean batch = rank == padded + 2;
        for (int d = batch ? 1 : 0; d < rank; d++) {
            if (x.size(d) == 0) {
                throw new TorchException("Expected " + (padded + 1) + "D or " + (padded + 2)
                        + "D (batch mode) tensor with possibly 0 batch "
                        + "size and other non-zero dimensions for input, but got: "
                        + Shapes.str(x.impl().shapeRef()));
            }
        }
        long[] in = new long[padded], out = new long[padded]; // W, H, D
        boolean anyPositive = false;
        for (int k = 0; k < padded; k++) {
            int d = rank - 1 - k;
            in[k] = x.size(d);
            out[k] = in[k] + pad[2 * k] + pad[2 * k + 1];
            anyPositive |= out[k] >= 1;
            if (mode == PadMode.REFLECT && (pad[2 * k] >= in[k] || pad[2 * k + 1] >= in[k])) {
                throw new TorchException(
                        "Argument #" + (4 + 2 * k) + ": Padding size should be less than the corresponding input "
                                + "dimension, but got: padding (" + pad[2 * k] + ", " + pad[2 * k + 1]
                                + ") at dimension " + d + " of input "
                                + Shapes.str(x.impl().shapeRef()));
            }
        }
        // ATen refuses only when every padded dim is empty; one empty dim among others fails at allocation.
        if (!anyPositive) throw new TorchException(tooSmall(mode, in, out));
        String name = (mode == PadMode.REFLECT ? "reflection_pad" : "replication_pad") + padded + "d";
        if (!EDGE_PAD_DTYPES.contains(x.dtype())) {
            throw new TorchException(
                    "\"" + name + "\" not implemented for '" + x.dtype().cppName() + "'");
        }
    }

    /** ATen's "input ... is too small" message, with its per-op spacing. */
    private static String tooSmall(PadMode mode, long[] in, long[] out) {
        if (in.length == 1) return "input (W: " + in[0] + ") is too small. Calculated output W: " + out[0];
        if (in.length == 2) {
            return "input (H: " + in[1] + ", W: " + in[0] + (mode == PadMode.REPLICATE ? " " : "")
                    + ") is too small. Calculated output H: " + out[1] + " W: " + out[0];
        }
        return "input (D: " + in[2] + " H: " + in[1] + ", W: " + in[0] + ") is too small. Calculated output D: "
                + out[2] + " H: " + out[1] + " W: " + out[0];
    }

    /**
     * Where each output position of a padded dim reads from ({@code -1}: the fill value). With {@code x = j - before}
     * the position in input coordinates, reflect mirrors x about 0 and n-1, replicate clamps it, and circular wraps the
     * cropped dim, as ATen's kernels do.
     */
    static long[] padMap(PadMode mode, long n, long before, long after, long outSize) {
        long[] map = new long[Math.toIntExact(outSize)];
        long start = Math.max(-before, 0), kept = n - start - Math.max(-after, 0);
        for (int j = 0; j < map.length; j++) {
            long x = j - before;
            map[j] = switch (mode) {
                case CONSTANT -> x >= 0 && x < n ? x : -1;
                case REFLECT -> x < 0 ? -x : x >= n ? 2 * (n - 1) - x : x;
                case REPLICATE -> Math.clamp(x, 0, n - 1);
                case CIRCULAR -> start + Math.floorMod(j - Math.max(before, 0), kept);
            };
        }
        return map;
    }

    // ---- one_hot --------------------------------------------------------------------------------------

    /**
     * {@code one_hot(tensor, num_classes=-1)}, {@code torch.nn.functional.one_hot}: int64 indices to an int64 tensor
     * with a trailing dim of {@code num_classes} (-1: one more than the largest index), written as PyTorch's functional
     * form {@code eq(tensor.unsqueeze(-1), arange(num_classes))}.
     */
    public static final OpDef ONE_HOT = OpDef.composite(
            "one_hot(Tensor self, int num_classes=-1) -> Tensor",
            args -> {
                Tensor self = (Tensor) args[0];
                long classes = lng(args[1]);
                if (self.dtype() != DType.INT64)
                    throw new TorchException("one_hot is only applicable to index tensor of type LongTensor.");
                if (!self.impl().hasData()) {
                    if (classes == -1 && self.impl().isFake()) throw new DynamicOutputShapeException("aten::one_hot");
                    if (classes == -1)
                        throw new TorchException(
                                "one_hot: num_classes is needed for a meta tensor (it depends on the values)");
                } else if (self.numel() == 0) {
                    if (classes <= 0)
                        throw new TorchException("Can not infer total number of classes from empty tensor.");
                } else {
                    if (ReductionOps.min(self).longItem() < 0)
                        throw new TorchException("Class values must be non-negative.");
                    long max = ReductionOps.max(self).longItem();
                    if (classes == -1) classes = max + 1;
                    else if (classes <= max) throw new TorchException("Class values must be smaller than num_classes.");
                }
                Tensor classIndex = Creation.ARANGE.call1(0L, classes, 1L, DType.INT64, self.device());
                Tensor hot = PointwiseOps.EQ.call1(ShapeOps.unsqueeze(self, -1), classIndex);
                return CopyOps.to(hot, DType.INT64);
            },
            OpDef.Flag.NOT_DIFFERENTIABLE);

    // ---- entry points ---------------------------------------------------------------------------------

    /** {@code torch.repeat_interleave(repeats)}: {@code i} repeated {@code repeats[i]} times. */
    public static Tensor repeatInterleave(Tensor repeats) {
        return REPEAT_INTERLEAVE.call1(repeats, null);
    }

    /** {@code torch.repeat_interleave(self, repeats)}: every element of the flattened self {@code repeats} times. */
    public static Tensor repeatInterleave(Tensor self, long repeats) {
        return REPEAT_INTERLEAVE_SELF_INT.call1(self, repeats, null, null);
    }

    /** {@code torch.repeat_interleave(self, repeats, dim)}. */
    public static Tensor repeatInterleave(Tensor self, long repeats, int dim) {
        return REPEAT_INTERLEAVE_SELF_INT.call1(self, repeats, (long) dim, null);
    }

    /**
     * {@code torch.repeat_interleave(self, repeats, dim, output_size=outputSize)}; {@code dim} and {@code outputSize}
     * may be null.
     */
    public static Tensor repeatInterleave(Tensor self, long repeats, Integer dim, Long outputSize) {
        return REPEAT_INTERLEAVE_SELF_INT.call1(self, repeats, dim == null ? null : (long) dim, outputSize);
    }

    /** {@code torch.repeat_interleave(self, repeats)} with a tensor of repeats. */
    public static Tensor repeatInterleave(Tensor self, Tensor repeats) {
        return REPEAT_INTERLEAVE_SELF_TENSOR.call1(self, repeats, null, null);
    }

    /** {@code torch.repeat_interleave(self, repeats, dim)} with a tensor of repeats. */
    public static Tensor repeatInterleave(Tensor self, Tensor repeats, int dim) {
        return REPEAT_INTERLEAVE_SELF_TENSOR.call1(self, repeats, (long) dim, null);
    }

    /**
     * {@code torch.repeat_interleave(self, repeats, dim, output_size=outputSize)}: with {@code outputSize} the repeats
     * are not summed up front (and a meta tensor can be repeated); {@code dim} and {@code outputSize} may be null.
     */
    public static Tensor repeatInterleave(Tensor self, Tensor repeats, Integer dim, Long outputSize) {
        return REPEAT_INTERLEAVE_SELF_TENSOR.call1(self, repeats, dim == null ? null : (long) dim, outputSize);
    }

    /** {@code torch.diff(self)}: first difference along the last dim. */
    public static Tensor diff(Tensor self) {
        return diff(self, 1, -1, null, null);
    }

    /** {@code torch.diff(self, n)}. */
    public static Tensor diff(Tensor self, long n) {
        return diff(self, n, -1, null, null);
    }

    /** {@code torch.diff(self, n, dim)}. */
    public static Tensor diff(Tensor self, long n, int dim) {
        return diff(self, n, dim, null, null);
    }

    /** {@code torch.diff(self, n, dim, prepend, append)}; prepend and append may be null. */
    public static Tensor diff(Tensor self, long n, int dim, Tensor prepend, Tensor append) {
        return DIFF.call1(self, n, (long) dim, prepend, append);
    }

    /** {@code torch.diag(self)}. */
    public static Tensor diag(Tensor self) {
        return diag(self, 0);
    }

    /** {@code torch.diag(self, diagonal)}: above the main diagonal for positive values. */
    public static Tensor diag(Tensor self, long diagonal) {
        return DIAG.call1(self, diagonal);
    }

    /** {@code torch.diag_embed(self)}: the last dim on the diagonal of the last two dims. */
    public static Tensor diagEmbed(Tensor self) {
        return diagEmbed(self, 0, -2, -1);
    }

    /** {@code torch.diag_embed(self, offset)}. */
    public static Tensor diagEmbed(Tensor self, long offset) {
        return diagEmbed(self, offset, -2, -1);
    }

    /** {@code torch.diag_embed(self, offset, dim1, dim2)}. */
    public static Tensor diagEmbed(Tensor self, long offset, int dim1, int dim2) {
        return DIAG_EMBED.call1(self, offset, (long) dim1, (long) dim2);
    }

    /** {@code torch.nn.functional.pad(input, pad)}: zeros around the last {@code pad.length / 2} dims. */
    public static Tensor pad(Tensor input, long[] pad) {
        return pad(input, pad, PadMode.CONSTANT, null);
    }

    /** {@code torch.nn.functional.pad(input, pad, value=value)}: constant padding. */
    public static Tensor pad(Tensor input, long[] pad, double value) {
        return pad(input, pad, PadMode.CONSTANT, value);
    }

    /** {@code torch.nn.functional.pad(input, pad, mode)}. */
    public static Tensor pad(Tensor input, long[] pad, PadMode mode) {
        return pad(input, pad, mode, null);
    }

    /** {@code torch.nn.functional.pad(input, pad, mode)} with PyTorch's mode name ({@code "reflect"}). */
    public static Tensor pad(Tensor input, long[] pad, String mode) {
        return pad(input, pad, PadMode.of(mode), null);
    }

    /** {@code torch.nn.functional.pad(input, pad, mode, value)}; {@code value} may be null (0 for constant mode). */
    public static Tensor pad(Tensor input, long[] pad, PadMode mode, Double value) {
        return PAD.call1(input, pad.clone(), mode, value);
    }

    /** {@code torch.nn.functional.one_hot(tensor)}: as many classes as the largest index plus one. */
    public static Tensor oneHot(Tensor tensor) {
        return oneHot(tensor, -1);
    }

    /** {@code torch.nn.functional.one_hot(tensor, num_classes)}. */
    public static Tensor oneHot(Tensor tensor, long numClasses) {
        return ONE_HOT.call1(tensor, numClasses);
    }
}
