package org.jtorch.ops;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.Shapes;
import org.jtorch.storage.TensorImpl;

/**
 * Shape ops that copy: {@code cat}, {@code stack}, {@code tril}, {@code triu}, {@code flip}, {@code roll},
 * {@code repeat}. Each meta rule owns the checks and the output geometry; each kernel reads the input through a view
 * that already has the geometry the output needs and copies it with {@link CopyOps#convert} (bulk
 * {@link MemorySegment#copy} for unit-stride runs, element copies otherwise).
 */
public final class JoinOps {
    private JoinOps() {}

    private static Tensor self(Object[] args) {
        return (Tensor) args[0];
    }

    private static long lng(Object o) {
        return ((Number) o).longValue();
    }

    // ---- cat / stack ------------------------------------------------------------------------------

    /**
     * PyTorch skips 1-d empty tensors in cat (legacy: they were once the only empty tensors); other empty shapes must
     * match.
     */
    static boolean skipInCat(Tensor t) {
        return t.dim() == 1 && t.numel() == 0;
    }

    /** {@code cat(tensors, dim)}: joins along an existing dim; the result dtype is promoted over all inputs. */
    public static final OpDef CAT = OpDef.structured(
                    "cat(Tensor[] tensors, int dim=0) -> Tensor",
                    args -> {
                        Tensor[] ts = (Tensor[]) args[0];
                        if (ts.length == 0)
                            throw new TorchException("torch.cat(): expected a non-empty list of Tensors");
                        for (int i = 0; i < ts.length; i++) {
                            if (ts[i].dim() == 0)
                                throw new TorchException(
                                        "zero-dimensional tensor (at position " + i + ") cannot be concatenated");
                        }
                        DType dtype = TypePromotion.resultType((Object[]) ts);
                        Device device = Devices.common("cat", (Object[]) ts);
                        int valid = 0;
                        while (valid < ts.length && skipInCat(ts[valid])) valid++;
                        if (valid == ts.length) return Spec.of(new long[] {0}, dtype, device, 0);
                        Tensor first = ts[valid];
                        int d = Shapes.wrapDim(lng(args[1]), first.dim());
                        long[] shape = first.shape();
                        long sizeAtDim = 0;
                        for (int i = 0; i < ts.length; i++) {
                            Tensor t = ts[i];
                            if (skipInCat(t)) continue;
                            if (t.dim() != first.dim()) {
                                throw new TorchException("Tensors must have same number of dimensions: got "
                                        + first.dim() + " and " + t.dim());
                            }
                            for (int k = 0; k < shape.length; k++) {
                                if (k != d && t.impl().shapeRef()[k] != shape[k]) {
                                    throw new TorchException("Sizes of tensors must match except in dimension " + d
                                            + ". Expected size " + shape[k] + " but got size "
                                            + t.impl().shapeRef()[k] + " for tensor number " + i + " in the list.");
                                }
                            }
                            sizeAtDim += t.impl().shapeRef()[d];
                        }
                        shape[d] = sizeAtDim;
                        return Spec.of(shape, dtype, device, d);
                    },
                    (args, outs, spec) -> catKernel((Tensor[]) args[0], outs[0], (Integer) spec.plan()))
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> ReduceGrads.cat(g[0], (Tensor[]) a[0], lng(a[1])))
            .deriveJvp(Jvps::linear);

    /**
     * Copies each input into its slab of {@code out}: one bulk copy per outer row when the input is contiguous and of
     * out's dtype.
     */
    private static void catKernel(Tensor[] ts, Tensor out, int d) {
        if (out.numel() == 0) return;
        long[] shape = out.impl().shapeRef();
        long outer = Shapes.numel(Arrays.copyOfRange(shape, 0, d));
        long inner = Shapes.numel(Arrays.copyOfRange(shape, d + 1, shape.length));
        long outRow = shape[d] * inner;
        long item = out.dtype().itemSize();
        MemorySegment dst = out.impl().storage().segment();
        long at = 0;
        for (Tensor t : ts) {
            if (skipInCat(t)) continue;
            long size = t.impl().shapeRef()[d], rows = size * inner;
            if (rows > 0) {
                if (t.dtype() == out.dtype() && t.isContiguous()) {
                    MemorySegment src = t.impl().storage().segment();
                    for (long o = 0; o < outer; o++) {
                        MemorySegment.copy(
                                src,
                                (t.storageOffset() + o * rows) * item,
                                dst,
                                (o * outRow + at * inner) * item,
                                rows * item);
                    }
                } else {
                    TensorImpl slot = out.impl()
                            .viewOf(
                                    out.storageOffset() + at * inner,
                                    t.impl().shapeRef(),
                                    out.impl().strideRef());
                    CopyOps.convert(t, Tensor.viewOf(out, slot));
                }
            }
            at += size;
        }
    }

    /** {@code stack(tensors, dim)}: joins equal-shaped tensors along a new dim. */
    public static final OpDef STACK = OpDef.composite("stack(Tensor[] tensors, int dim=0) -> Tensor", args -> {
        Tensor[] ts = (Tensor[]) args[0];
        if (ts.length == 0) throw new TorchException("stack expects a non-empty TensorList");
        int d = Shapes.wrapDim(lng(args[1]), ts[0].dim() + 1);
        Tensor[] unsqueezed = new Tensor[ts.length];
        for (int i = 0; i < ts.length; i++) {
            if (!Arrays.equals(ts[i].impl().shapeRef(), ts[0].impl().shapeRef())) {
                throw new TorchException("stack expects each tensor to be equal size, but got "
                        + Shapes.str(ts[0].impl().shapeRef()) + " at entry 0 and "
                        + Shapes.str(ts[i].impl().shapeRef()) + " at entry " + i);
            }
            unsqueezed[i] = ShapeOps.UNSQUEEZE.call1(ts[i], (long) d);
        }
        return CAT.call1(unsqueezed, (long) d);
    });

    // ---- tril / triu ------------------------------------------------------------------------------

    private static OpDef triangle(String name, boolean lower) {
        return OpDef.structured(
                        name + "(Tensor self, int diagonal=0) -> Tensor",
                        args -> {
                            Tensor t = self(args);
                            if (t.dim() < 2)
                                throw new TorchException(name + ": input tensor must have at least 2 dimensions");
                            return Spec.of(t.impl().shapeRef(), t.dtype(), t.device(), null);
                        },
                        (args, outs, spec) -> triangleKernel(self(args), outs[0], lng(args[1]), lower))
                .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {(lower ? TRIL : TRIU).call1(g[0], a[1])});
    }

    /** Copies the input, then zeroes each row's range outside the triangle (all-zero bits are 0 in every dtype). */
    private static void triangleKernel(Tensor src, Tensor out, long k, boolean lower) {
        if (out.numel() == 0) return;
        CopyOps.convert(src, out);
        long rows = out.size(-2), cols = out.size(-1), item = out.dtype().itemSize();
        long matrices = out.numel() / (rows * cols);
        long diag = Math.clamp(k, -rows - 1, cols + 1); // further diagonals change nothing; clamping avoids overflow
        MemorySegment seg = out.impl().storage().segment();
        for (long m = 0; m < matrices; m++) {
            for (long i = 0; i < rows; i++) {
                long lo = lower ? Math.clamp(i + diag + 1, 0, cols) : 0;
                long hi = lower ? cols : Math.clamp(i + diag, 0, cols);
                if (hi <= lo) continue;
                long base = out.storageOffset() + (m * rows + i) * cols;
                seg.asSlice((base + lo) * item, (hi - lo) * item).fill((byte) 0);
            }
        }
    }

    /** {@code tril(self, diagonal)}: keeps elements on and below the diagonal of the last two dims. */
    public static final OpDef TRIL = triangle("tril", true).deriveJvp(Jvps::linear);

    /** {@code triu(self, diagonal)}: keeps elements on and above the diagonal of the last two dims. */
    public static final OpDef TRIU = triangle("triu", false).deriveJvp(Jvps::linear);

    // ---- flip / roll / repeat ---------------------------------------------------------------------

    /** {@code flip(self, dims)}: reverses the order of elements along {@code dims}. */
    public static final OpDef FLIP = OpDef.structured(
                    "flip(Tensor self, int[] dims) -> Tensor",
                    args -> {
                        Tensor t = self(args);
                        boolean[] flipped = new boolean[Math.max(t.dim(), 1)];
                        for (long d : (long[]) args[1]) {
                            int w = Shapes.wrapDim(d, t.dim());
                            if (flipped[w])
                                throw new TorchException("dim " + w + " appears multiple times in the list of dims");
                            flipped[w] = true;
                        }
                        return Spec.of(t.impl().shapeRef(), t.dtype(), t.device(), flipped);
                    },
                    (args, outs, spec) -> flipKernel(self(args), outs[0], (boolean[]) spec.plan()))
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {JoinOps.FLIP.call1(g[0], a[1])})
            .deriveJvp(Jvps::linear);

    /**
     * Reads the input through a kernel-local view with negated strides on the flipped dims (starting at their last
     * element), so the copy itself is the ordinary strided copy. The view never escapes.
     */
    private static void flipKernel(Tensor src, Tensor out, boolean[] flipped) {
        if (out.numel() == 0) return;
        long offset = src.storageOffset();
        long[] strides = src.stride();
        for (int d = 0; d < src.dim(); d++) {
            if (!flipped[d]) continue;
            offset += (src.impl().shapeRef()[d] - 1) * strides[d];
            strides[d] = -strides[d];
        }
        CopyOps.convert(Tensor.viewOf(src, src.impl().viewOf(offset, src.impl().shapeRef(), strides)), out);
    }

    /** Plan of roll: the shift per dim, normalised to [0, size), or {@code flat} for the dims-less form. */
    private record RollPlan(long[] shifts, boolean flat) {}

    /**
     * {@code roll(self, shifts, dims)}: circular shift along each dim; with no dims, a single shift rolls the flattened
     * tensor and restores the shape.
     */
    public static final OpDef ROLL = OpDef.structured(
                    "roll(Tensor self, SymInt[1] shifts, int[1] dims=[]) -> Tensor",
                    args -> {
                        Tensor t = self(args);
                        long[] shifts = (long[]) args[1], dims = (long[]) args[2];
                        if (shifts.length == 0) throw new TorchException("`shifts` required");
                        if (dims.length == 0 && shifts.length == 1) {
                            long n = t.numel();
                            return Spec.of(
                                    t.impl().shapeRef(),
                                    t.dtype(),
                                    t.device(),
                                    new RollPlan(new long[] {n == 0 ? 0 : Math.floorMod(shifts[0], n)}, true));
                        }
                        if (shifts.length != dims.length) {
                            throw new TorchException("shifts and dimensions must align. shifts: " + shifts.length
                                    + ", dims:" + dims.length);
                        }
                        long[] perDim = new long[t.dim()];
                        // An empty tensor is cloned before its dims are looked at, as PyTorch does.
                        if (t.numel() > 0) {
                            for (int i = 0; i < dims.length; i++) {
                                int d = Shapes.wrapDim(dims[i], t.dim());
                                if (t.dim() == 0)
                                    throw new IndexOutOfBoundsException(
                                            "Dimension specified as " + d + " but tensor has no dimensions");
                                long size = t.impl().shapeRef()[d];
                                perDim[d] = Math.floorMod(perDim[d] + Math.floorMod(shifts[i], size), size);
                            }
                        }
                        return Spec.of(t.impl().shapeRef(), t.dtype(), t.device(), new RollPlan(perDim, false));
                    },
                    (args, outs, spec) -> rollKernel(self(args), outs[0], (RollPlan) spec.plan()))
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) ->
                    new Tensor[] {JoinOps.ROLL.call1(g[0], rollBack(self(a), (long[]) a[1], (long[]) a[2]), a[2])})
            .deriveJvp(Jvps::linear);

    /** The shifts that roll back, reduced modulo the rolled size first (so that no negation overflows). */
    private static long[] rollBack(Tensor t, long[] shifts, long[] dims) {
        long[] r = new long[shifts.length];
        for (int i = 0; i < r.length; i++) {
            long size = dims.length == 0
                    ? t.numel()
                    : t.dim() == 0 ? 1 : t.impl().shapeRef()[Shapes.wrapDim(dims[i], t.dim())];
            r[i] = size == 0 ? 0 : -Math.floorMod(shifts[i], size);
        }
        return r;
    }

    private static void rollKernel(Tensor src, Tensor out, RollPlan plan) {
        long n = out.numel();
        if (n == 0) return;
        if (plan.flat()) {
            Tensor s = src;
            if (!s.isContiguous()) {
                s = Tensor.of(TensorImpl.empty(src.impl().shapeRef(), src.dtype()));
                CopyOps.convert(src, s);
            }
            long[] flat = {n}, unit = {1};
            rollBlocks(
                    Tensor.viewOf(s, s.impl().viewOf(s.storageOffset(), flat, unit)),
                    Tensor.viewOf(out, out.impl().viewOf(out.storageOffset(), flat, unit)),
                    plan.shifts());
        } else {
            rollBlocks(src, out, plan.shifts());
        }
    }

    /**
     * With shift s on a dim of size n, out[s:n] = in[0:n-s] and out[0:s] = in[n-s:n]. Over k shifted dims that is 2^k
     * rectangular blocks, each one strided copy.
     */
    private static void rollBlocks(Tensor src, Tensor out, long[] shifts) {
        int rank = src.dim();
        int[] rolled = new int[rank];
        int k = 0;
        for (int d = 0; d < rank; d++) if (shifts[d] != 0) rolled[k++] = d;
        for (int mask = 0; mask < 1 << k; mask++) {
            long srcOff = src.storageOffset(), dstOff = out.storageOffset();
            long[] shape = src.shape();
            for (int j = 0; j < k; j++) {
                int d = rolled[j];
                long size = shape[d], s = shifts[d];
                boolean wrapped = (mask >> j & 1) == 1; // the tail of the input that moves to the front
                shape[d] = wrapped ? s : size - s;
                srcOff += (wrapped ? size - s : 0) * src.impl().strideRef()[d];
                dstOff += (wrapped ? 0 : s) * out.impl().strideRef()[d];
            }
            CopyOps.convert(
                    Tensor.viewOf(
                            src, src.impl().viewOf(srcOff, shape, src.impl().strideRef())),
                    Tensor.viewOf(
                            out, out.impl().viewOf(dstOff, shape, out.impl().strideRef())));
        }
    }

    /**
     * {@code repeat(self, repeats)}: tiles the tensor {@code repeats[i]} times along each dim (new leading dims
     * allowed).
     */
    public static final OpDef REPEAT = OpDef.structured(
                    "repeat(Tensor self, SymInt[] repeats) -> Tensor",
                    args -> {
                        Tensor t = self(args);
                        long[] repeats = (long[]) args[1];
                        if (repeats.length < t.dim()) {
                            throw new TorchException(
                                    "Number of dimensions of repeat dims can not be smaller than number "
                                            + "of dimensions of tensor");
                        }
                        long[] target = padded(t, repeats.length);
                        for (int i = 0; i < target.length; i++) target[i] = repeatedSize(target[i], repeats[i], i);
                        Shapes.numel(target);
                        return Spec.of(target, t.dtype(), t.device(), null);
                    },
                    (args, outs, spec) -> repeatKernel(self(args), outs[0], ((long[]) args[1]).length))
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) ->
                    new Tensor[] {ReduceGrads.repeat(g[0], self(a).shape(), (long[]) a[1])})
            .deriveJvp(Jvps::linear);

    /** {@code size · repeats} of dim {@code d}, refused when it overflows int64. */
    private static long repeatedSize(long size, long repeats, int d) {
        try {
            return Math.multiplyExact(size, repeats);
        } catch (ArithmeticException overflow) {
            throw new TorchException("repeat(): dimension " + d + " of size " + size + " repeated " + repeats
                    + " times overflows int64");
        }
    }

    /** The tensor's sizes with leading 1s up to {@code rank}. */
    private static long[] padded(Tensor t, int rank) {
        long[] p = new long[rank];
        Arrays.fill(p, 1);
        System.arraycopy(t.impl().shapeRef(), 0, p, rank - t.dim(), t.dim());
        return p;
    }

    /**
     * Views the output as (r0, p0, r1, p1, ...), where p are the padded input sizes and r the repeats, and copies the
     * input into it with stride 0 along every r dim: one strided copy for the whole tile.
     */
    private static void repeatKernel(Tensor src, Tensor out, int rank) {
        if (out.numel() == 0) return;
        long[] p = padded(src, rank);
        long[] shape = new long[2 * rank], outStrides = new long[2 * rank], srcStrides = new long[2 * rank];
        for (int i = 0; i < rank; i++) {
            int sd = i - (rank - src.dim());
            shape[2 * i] = out.impl().shapeRef()[i] / p[i];
            shape[2 * i + 1] = p[i];
            outStrides[2 * i] = p[i] * out.impl().strideRef()[i];
            outStrides[2 * i + 1] = out.impl().strideRef()[i];
            srcStrides[2 * i + 1] = sd >= 0 ? src.impl().strideRef()[sd] : 0;
        }
        CopyOps.convert(
                Tensor.viewOf(src, src.impl().viewOf(src.storageOffset(), shape, srcStrides)),
                Tensor.viewOf(out, out.impl().viewOf(out.storageOffset(), shape, outStrides)));
    }

    // ---- entry points (Torch and Tensor delegate here) ----------------------------------------------

    private static long[] longs(int[] a) {
        long[] r = new long[a.length];
        for (int i = 0; i < a.length; i++) r[i] = a[i];
        return r;
    }

    /** {@code torch.cat(tensors)}. */
    public static Tensor cat(List<Tensor> tensors) {
        return cat(tensors, 0);
    }

    /** {@code torch.cat(tensors, dim)}. */
    public static Tensor cat(List<Tensor> tensors, int dim) {
        return CAT.call1(tensors.toArray(Tensor[]::new), (long) dim);
    }

    /** {@code torch.stack(tensors)}. */
    public static Tensor stack(List<Tensor> tensors) {
        return stack(tensors, 0);
    }

    /** {@code torch.stack(tensors, dim)}. */
    public static Tensor stack(List<Tensor> tensors, int dim) {
        return STACK.call1(tensors.toArray(Tensor[]::new), (long) dim);
    }

    /** {@code torch.tril(self)}. */
    public static Tensor tril(Tensor self) {
        return tril(self, 0);
    }

    /** {@code torch.tril(self, diagonal)}. */
    public static Tensor tril(Tensor self, long diagonal) {
        return TRIL.call1(self, diagonal);
    }

    /** {@code torch.triu(self)}. */
    public static Tensor triu(Tensor self) {
        return triu(self, 0);
    }

    /** {@code torch.triu(self, diagonal)}. */
    public static Tensor triu(Tensor self, long diagonal) {
        return TRIU.call1(self, diagonal);
    }

    /** {@code torch.flip(self, dims)}. */
    public static Tensor flip(Tensor self, int... dims) {
        return FLIP.call1(self, longs(dims));
    }

    /** {@code torch.roll(self, shifts)}: rolls the flattened tensor. */
    public static Tensor roll(Tensor self, long shifts) {
        return ROLL.call1(self, new long[] {shifts}, new long[0]);
    }

    /** {@code torch.roll(self, shifts, dims)}. */
    public static Tensor roll(Tensor self, long shifts, int dim) {
        return ROLL.call1(self, new long[] {shifts}, new long[] {dim});
    }

    /** {@code torch.roll(self, shifts, dims)} over several dims. */
    public static Tensor roll(Tensor self, long[] shifts, int[] dims) {
        return ROLL.call1(self, shifts.clone(), longs(dims));
    }

    /** {@code self.repeat(*repeats)}. */
    public static Tensor repeat(Tensor self, long... repeats) {
        return REPEAT.call1(self, repeats.clone());
    }
}
