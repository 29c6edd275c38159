package org.jtorch.func;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.ops.ArrangeOps;
import org.jtorch.ops.BackwardOps;
import org.jtorch.ops.BatchCall;
import org.jtorch.ops.ClampOps;
import org.jtorch.ops.ComplexOps;
import org.jtorch.ops.CopyOps;
import org.jtorch.ops.Creation;
import org.jtorch.ops.IndexingOps;
import org.jtorch.ops.JoinOps;
import org.jtorch.ops.LinalgOps;
import org.jtorch.ops.LinalgSolveOps;
import org.jtorch.ops.MatmulOps;
import org.jtorch.ops.NormOps;
import org.jtorch.ops.OpDef;
import org.jtorch.ops.OpRegistry;
import org.jtorch.ops.PadBackwardOps;
import org.jtorch.ops.PointwiseOps;
import org.jtorch.ops.ReductionOps;
import org.jtorch.ops.ScatterOps;
import org.jtorch.ops.SearchOps;
import org.jtorch.ops.ShapeOps;
import org.jtorch.ops.SortOps;
import org.jtorch.ops.SpectralOps;
import org.jtorch.ops.TernaryOps;
import org.jtorch.ops.UpsampleOps;
import org.jtorch.storage.TensorImpl;

/**
 * The batching rules, by op category (functorch's BatchRules*.cpp), attached to their ops' definitions with
 * {@link OpDef#defineBatchRule} when vmap first runs ({@link #install}). A rule sees the logical call through a
 * {@link BatchCall}, runs physical ops with the batch dimension first and returns wrapped results. A rule may return
 * {@link OpDef.BatchRule#DECLINE} for an argument pattern it does not cover; the op then runs the per-example fallback.
 * Rules of composite ops run before the composite would be expanded (for checks that need the logical view, such as
 * repeat_interleave's batched repeats).
 */
final class BatchRules {
    private BatchRules() {}

    private static final Object DECLINE = OpDef.BatchRule.DECLINE;

    /** {@code name.overload}, as in PyTorch's {@code aten::} names. */
    static String key(OpDef op) {
        return op.schema().operatorName();
    }

    /**
     * The ops that run the per-example fallback for every batched call, by declaration ({@link OpDef#vmapFallsBack}),
     * with the reasons.
     */
    static Map<String, String> fallbackOps() {
        Map<String, String> out = new TreeMap<>();
        for (OpDef op : OpRegistry.all()) {
            if (op.vmapFallbackReason() != null) out.put(key(op), op.vmapFallbackReason());
        }
        return out;
    }

    private static void define(OpDef op, OpDef.BatchRule rule) {
        op.defineBatchRule(rule);
    }

    // ---- registration -------------------------------------------------------------------------------

    /**
     * Attaches every rule to its op. Called once, by the vmap interpreter's class initialisation: the rules are written
     * with {@code func}'s machinery, which the op families below it cannot name.
     */
    static void install() {
        for (OpDef op : OpRegistry.all()) if (op.has(OpDef.Flag.POINTWISE)) define(op, c -> pointwise(c, false));
        for (OpDef op : List.of(
                ClampOps.CLAMP,
                ClampOps.CLAMP_MIN,
                ClampOps.CLAMP_MAX,
                ClampOps.HARDTANH,
                ClampOps.CLAMP_TENSOR,
                ClampOps.CLAMP_MIN_TENSOR,
                ClampOps.CLAMP_MAX_TENSOR,
                TernaryOps.WHERE,
                ComplexOps.COMPLEX,
                ComplexOps.POLAR)) {
            define(op, c -> pointwise(c, false));
        }
        define(TernaryOps.MASKED_FILL, c -> pointwise(c, true));
        define(TernaryOps.MASKED_FILL_TENSOR, BatchRules::maskedFillTensor);
        define(Creation.FILL, c -> pointwise(c, true));
        define(CopyOps.TO_COPY, BatchRules::toCopy);

        // reductions and other ops with dims: (dim argument index, what a null dim means)
        for (OpDef op : List.of(
                ReductionOps.SUM,
                ReductionOps.NANSUM,
                ReductionOps.PROD,
                ReductionOps.MEAN,
                ReductionOps.NANMEAN,
                ReductionOps.AMAX,
                ReductionOps.AMIN,
                ReductionOps.VAR,
                ReductionOps.STD,
                ReductionOps.LOGSUMEXP,
                ReductionOps.ALL,
                ReductionOps.ANY,
                ReductionOps.MAX_DIM,
                ReductionOps.MIN_DIM,
                ReductionOps.CUMSUM,
                ReductionOps.CUMPROD,
                ReductionOps.LOGCUMSUMEXP,
                ReductionOps.SOFTMAX,
                ReductionOps.LOG_SOFTMAX,
                SortOps.CUMMAX,
                SortOps.CUMMIN)) {
            define(op, c -> dims(c, 1, false));
        }
        define(JoinOps.FLIP, c -> {
            c.logicalSpec();
            long[] d = (long[]) c.args()[1];
            int r = ((Tensor) c.args()[0]).dim();
            if (r == 0) return c.wrap(c.call(IndexingOps.ALIAS, c.front(c.args()[0])));
            long[] s = new long[d.length];
            for (int i = 0; i < d.length; i++) s[i] = BatchCall.shift(d[i], r);
            return c.wrap(c.call(JoinOps.FLIP, c.front(c.args()[0]), s));
        });
        for (OpDef op : List.of(SpectralOps.FFT_C2C, SpectralOps.FFT_R2C, SpectralOps.FFT_C2R))
            define(op, BatchRules::spectral);
        for (OpDef op : List.of(ReductionOps.SOFTMAX_BACKWARD_DATA, ReductionOps.LOG_SOFTMAX_BACKWARD_DATA)) {
            define(op, BatchRules::softmaxBackward);
        }
        define(NormOps.NATIVE_LAYER_NORM, BatchRules::layerNorm);
        for (OpDef op : UpsampleOps.kernelOps()) define(op, BatchRules::foldIntoBatch);
        define(ReductionOps.VECTOR_NORM, c -> dims(c, 2, false));
        define(ReductionOps.ARGMAX, c -> dims(c, 1, true));
        define(ReductionOps.ARGMIN, c -> dims(c, 1, true));
        for (OpDef op : List.of(SortOps.SORT, SortOps.ARGSORT, SortOps.TOPK, SortOps.KTHVALUE))
            define(op, c -> dims(c, 2, false));
        define(ReductionOps.MAX_ALL, c -> reduceAll(c, ReductionOps.AMAX));
        define(ReductionOps.MIN_ALL, c -> reduceAll(c, ReductionOps.AMIN));

        // views and shape ops
        define(ShapeOps.VIEW, BatchRules::view);
        define(ShapeOps.PERMUTE, c -> {
            c.logicalSpec();
            long[] d = (long[]) c.args()[1];
            int r = ((Tensor) c.args()[0]).dim();
            long[] p = new long[d.length + 1];
            for (int i = 0; i < d.length; i++) p[i + 1] = BatchCall.shift(d[i], r);
            return c.wrap(c.call(ShapeOps.PERMUTE, c.front(c.args()[0]), p));
        });
        define(
                ShapeOps.TRANSPOSE,
                c -> ((Tensor) c.args()[0]).dim() == 0
                        ? zeroDimIdentity(c, 1, 2)
                        : shifted(c, ((Tensor) c.args()[0]).dim(), 1, 2));
        define(ShapeOps.SELECT, c -> shifted(c, ((Tensor) c.args()[0]).dim(), 1));
        define(ShapeOps.SLICE, c -> shifted(c, ((Tensor) c.args()[0]).dim(), 1));
        define(ShapeOps.DIAGONAL, c -> shifted(c, ((Tensor) c.args()[0]).dim(), 2, 3));
        define(ShapeOps.UNSQUEEZE, c -> shifted(c, ((Tensor) c.args()[0]).dim() + 1, 1));
        define(ShapeOps.SQUEEZE, BatchRules::squeeze);
        define(ShapeOps.EXPAND, c -> {
            c.logicalSpec();
            long[] size = (long[]) c.args()[1];
            return c.wrap(
                    c.call(ShapeOps.EXPAND, c.frontPadded(c.args()[0], size.length), c.withBatch(size), c.args()[2]));
        });
        define(IndexingOps.ALIAS, c -> c.wrap(c.call(IndexingOps.ALIAS, c.front(c.args()[0]))));
        define(ComplexOps.VIEW_AS_REAL, c -> c.wrap(c.call(ComplexOps.VIEW_AS_REAL, c.front(c.args()[0]))));
        define(ComplexOps.VIEW_AS_COMPLEX, BatchRules::viewAsComplex);
        define(
                JoinOps.TRIL,
                c -> c.logicalSpec() == null
                        ? DECLINE
                        : c.wrap(c.call(JoinOps.TRIL, c.front(c.args()[0]), c.args()[1])));
        define(
                JoinOps.TRIU,
                c -> c.logicalSpec() == null
                        ? DECLINE
                        : c.wrap(c.call(JoinOps.TRIU, c.front(c.args()[0]), c.args()[1])));
        define(JoinOps.REPEAT, c -> {
            long[] reps = (long[]) c.args()[1];
            if (reps.length < ((Tensor) c.args()[0]).dim()) return DECLINE; // the meta rule's error, per example
            long[] r = new long[reps.length + 1];
            r[0] = 1;
            System.arraycopy(reps, 0, r, 1, reps.length);
            return c.wrap(c.call(JoinOps.REPEAT, c.frontPadded(c.args()[0], reps.length), r));
        });
        define(JoinOps.ROLL, BatchRules::roll);
        define(JoinOps.CAT, BatchRules::cat);
        define(ArrangeOps.DIAG_EMBED, c -> shifted(c, ((Tensor) c.args()[0]).dim() + 1, 2, 3));
        define(
                ArrangeOps.PAD,
                c -> c.logicalSpec() == null
                        ? DECLINE
                        : c.args()[2] == null || c.args()[2] == ArrangeOps.PadMode.CONSTANT
                                ? c.wrap(c.call(
                                        ArrangeOps.PAD, c.front(c.args()[0]), c.args()[1], c.args()[2], c.args()[3]))
                                : DECLINE);
        define(ArrangeOps.REPEAT_INTERLEAVE_ALONG, BatchRules::repeatInterleaveAlong);
        define(ArrangeOps.REPEAT_INTERLEAVE_SELF_TENSOR, BatchRules::repeatInterleaveSelfTensor);
        define(ArrangeOps.REPEAT_INTERLEAVE, BatchRules::repeatInterleaveTensor);

        // matmul family and linear algebra
        define(MatmulOps.MM, BatchRules::mm);
        define(MatmulOps.BMM, BatchRules::bmm);
        define(MatmulOps.MV, BatchRules::mv);
        define(MatmulOps.DOT, c -> dot(c, false));
        define(MatmulOps.VDOT, c -> dot(c, true));
        define(MatmulOps.ADDMM, c -> addmm(c, MatmulOps.MM));
        define(MatmulOps.BADDBMM, c -> addmm(c, MatmulOps.BMM));
        // linalg ops of one matrix argument batch over its leading dims: the vmapped dim simply becomes one of them
        for (OpDef op : List.of(
                LinalgOps.CHOLESKY,
                LinalgOps.CHOLESKY_EX,
                LinalgOps.INV,
                LinalgOps.INV_EX,
                LinalgOps.DET,
                LinalgOps.SLOGDET,
                LinalgOps.EIGH,
                LinalgOps.EIGVALSH,
                LinalgOps.SVD,
                LinalgOps.SVDVALS,
                LinalgOps.QR,
                LinalgOps.MATRIX_SQRTH,
                LinalgOps.POLAR,
                LinalgOps.PINV,
                LinalgSolveOps.LU_FACTOR,
                LinalgSolveOps.LU_FACTOR_EX,
                LinalgSolveOps.LU,
                LinalgSolveOps.EIG,
                LinalgSolveOps.EIGVALS,
                LinalgSolveOps.MATRIX_EXP,
                LinalgSolveOps.MATRIX_POWER)) {
            define(op, c -> {
                c.logicalSpec();
                Object[] a = c.args().clone();
                a[0] = c.front(a[0]);
                return c.wrap(c.call(c.op(), a));
            });
        }
        define(LinalgOps.SOLVE, BatchRules::solve);
        define(LinalgOps.SOLVE_EX, BatchRules::solve);
        LinalgSolveBatchRules.install();
        DistanceBatchRules.install();
        ConvBatchRules.install();
        StridedBatchRules.install();

        // indexing, gather/scatter, search
        define(ScatterOps.GATHER, c -> gatherLike(c, 0, 2));
        define(ScatterOps.SCATTER, c -> gatherLike(c, 0, 2, 3));
        define(ScatterOps.SCATTER_VALUE, c -> gatherLike(c, 0, 2));
        define(ScatterOps.SCATTER_ADD, c -> gatherLike(c, 0, 2, 3));
        define(ScatterOps.SCATTER_REDUCE, c -> gatherLike(c, 0, 2, 3));
        define(ScatterOps.INDEX_SELECT, BatchRules::indexSelect);
        define(IndexingOps.INDEX_INTEGER, BatchRules::indexInteger);
        define(ScatterOps.INDEX_ADD, c -> indexWrite(c, 3));
        define(ScatterOps.INDEX_COPY, c -> indexWrite(c, 3));
        define(ScatterOps.INDEX_FILL, c -> indexWrite(c, -1));
        define(ScatterOps.INDEX_FILL_TENSOR, c -> c.batched(3) ? DECLINE : indexWrite(c, -1));
        // an identity copy standing for a gradient autograd cannot follow
        define(ScatterOps.SCATTER_REDUCE_PROD_SRC_GRAD, c -> c.wrap(c.call(c.op(), c.front(c.args()[0]))));
        define(SearchOps.SEARCHSORTED, BatchRules::searchsorted);
        define(SearchOps.SEARCHSORTED_SCALAR, BatchRules::searchsortedScalar);

        // backward helpers, so that gradients computed under vmap stay batched
        define(BackwardOps.SELECT_BACKWARD, c -> backwardOfSizes(c, 2));
        define(BackwardOps.SLICE_BACKWARD, c -> backwardOfSizes(c, 2));
        define(BackwardOps.DIAGONAL_BACKWARD, c -> backwardOfSizes(c, 3, 4));
        define(BackwardOps.VALUE_SELECTING_REDUCTION_BACKWARD, BatchRules::valueSelectingBackward);
        define(
                BackwardOps.VALUE_SELECTING_REDUCTION_GATHER,
                c -> ((Tensor) c.args()[0]).dim() == 0 ? DECLINE : gatherLike(c, 0, 2));
        define(
                PadBackwardOps.PAD_BACKWARD,
                c -> c.args()[3] == null
                                || "constant".equals(String.valueOf(c.args()[3]).toLowerCase())
                        ? backwardOfSizes(c)
                        : DECLINE);

        // index_put copies self and writes into the copy: a batched write needs a batched copy
        define(IndexingOps.INDEX_PUT, c -> {
            boolean any = c.batched(2);
            for (Tensor t : (Tensor[]) c.args()[1]) any |= t != null && c.batched(t);
            if (c.batched(0) || !any) return DECLINE;
            Object[] a = c.args().clone();
            a[0] = c.lift(c.frontExpanded(c.args()[0]));
            return c.op().compositeFn().apply(a);
        });

        // data-dependent output shapes: refused (by the per-example path), as PyTorch does
        for (OpDef op : OpRegistry.all()) {
            if (op.has(OpDef.Flag.DYNAMIC_OUTPUT_SHAPE)) {
                define(op, c -> c.batched(0) || c.args().length > 1 && c.batched(1) ? c.perExample() : DECLINE);
            }
        }
    }

    // ---- pointwise ------------------------------------------------------------------------------------

    /**
     * softmax/log_softmax backward: both same-shaped operands batch-first (an unbatched one expanded), the dim shifted.
     */
    private static Object softmaxBackward(BatchCall c) {
        c.logicalSpec();
        Tensor grad = (Tensor) c.args()[0];
        if (c.outs() != null || grad.dim() == 0) return DECLINE; // a 0-d row is the fallback's job
        Tensor g = c.frontExpanded(grad), y = c.frontExpanded(c.args()[1]);
        return c.wrap(c.call(c.op(), g, y, BatchCall.shift((Long) c.args()[2], grad.dim()), c.args()[3]));
    }

    /**
     * Ops over [N, C, spatial...] whose first argument is the only tensor (the upsample ops and their backwards): the
     * vmapped dim folds into N, and a backward's {@code input_size} (argument 2) grows by the same factor.
     */
    private static Object foldIntoBatch(BatchCall c) {
        c.logicalSpec();
        if (c.outs() != null) return DECLINE;
        Tensor x = c.front(c.args()[0]);
        long[] s = x.shape();
        long b = s[0], n = s[1];
        long[] merged = Arrays.copyOfRange(s, 1, s.length);
        merged[0] = b * n;
        Object[] a = c.args().clone();
        a[0] = c.reshape(x, merged);
        if (c.op().name().endsWith("_backward")) {
            long[] inputSize = ((long[]) a[2]).clone();
            inputSize[0] *= b;
            a[2] = inputSize;
        }
        Tensor y = c.call1(c.op(), a);
        long[] split = new long[y.dim() + 1];
        split[0] = b;
        split[1] = n;
        System.arraycopy(y.shape(), 1, split, 2, y.dim() - 1);
        return c.wrap(c.reshape(y, split));
    }

    /**
     * native_layer_norm normalises trailing dims, so a batch dim in front is one more leading dim: the input goes
     * batch-first and the statistics come out batch-first. A batched weight or bias is the fallback's job.
     */
    private static Object layerNorm(BatchCall c) {
        c.logicalSpec();
        if (c.outs() != null || c.batched(2) || c.batched(3)) return DECLINE;
        return c.wrap(c.call(
                c.op(), c.front(c.args()[0]), c.args()[1], c.front(c.args()[2]), c.front(c.args()[3]), c.args()[4]));
    }

    /**
     * Broadcasting ops: batch dims first, each batched operand padded to the largest logical rank so the batch dim
     * lines up; unbatched operands broadcast from the right as they are. {@code selfShaped}: the result has self's
     * shape (masked_fill, fill), so an unbatched self is expanded to the batch.
     */
    static Object pointwise(BatchCall c, boolean selfShaped) {
        c.logicalSpec();
        int rank = 0;
        for (Object a : c.args()) if (a instanceof Tensor t) rank = Math.max(rank, t.dim());
        Object[] a = c.args().clone();
        for (int i = 0; i < a.length; i++) {
            if (a[i] instanceof Tensor t) {
                if (c.batched(t)) a[i] = c.frontPadded(t, rank);
                else if (i == 0 && selfShaped && c.outs() == null) {
                    Tensor e = c.frontExpanded(t);
                    for (int r = t.dim(); r < rank; r++) e = c.unsqueeze(e, 1);
                    a[i] = e;
                } else a[i] = c.front(t);
            }
        }
        if (c.outs() != null) {
            Tensor[] dest = new Tensor[c.outs().length];
            for (int k = 0; k < dest.length; k++) dest[k] = c.frontPadded(c.outs()[k], rank);
            for (int i = 0; i < a.length; i++)
                for (int k = 0; k < dest.length; k++) if (c.args()[i] == c.outs()[k]) a[i] = dest[k];
            c.callOut(c.op(), dest, a);
            return c.outsResult();
        }
        return c.wrap(c.call(c.op(), a));
    }

    /** masked_fill with a tensor value: a batched value goes through where(mask, value, self). */
    private static Object maskedFillTensor(BatchCall c) {
        if (!c.batched(2)) return pointwise(c, true);
        c.logicalSpec();
        Tensor self = (Tensor) c.args()[0];
        Tensor value = c.dispatch1(CopyOps.TO_COPY, c.args()[2], self.dtype(), null);
        Tensor r = c.dispatch1(TernaryOps.WHERE, c.args()[1], value, self);
        if (c.outs() == null) return r;
        Tensor dest = c.front(c.outs()[0]);
        c.callOut(
                CopyOps.TO_COPY,
                new Tensor[] {dest},
                c.frontExpanded(r),
                dest.dtype(),
                dest.impl().shapeRef());
        return c.outsResult();
    }

    /** _to_copy (clone, to, copy_): a target size gets the batch size in front. */
    private static Object toCopy(BatchCall c) {
        long[] size = (long[]) c.args()[2];
        if (size == null) return pointwise(c, false);
        c.logicalSpec();
        Tensor src = c.batched(0) ? c.frontPadded(c.args()[0], size.length) : c.front(c.args()[0]);
        if (c.outs() != null) {
            Tensor dest = c.front(c.outs()[0]);
            c.callOut(
                    CopyOps.TO_COPY,
                    new Tensor[] {dest},
                    src,
                    c.args()[1],
                    dest.impl().shapeRef());
            return c.outsResult();
        }
        return c.wrap(c.call(CopyOps.TO_COPY, src, c.args()[1], c.withBatch(size)));
    }

    // ---- ops with dims --------------------------------------------------------------------------------

    /**
     * An op on self with a dim argument at {@code dimArg} (a Long or a long[] list; null means every dim, or, with
     * {@code nullFlattens}, the flattened tensor as in argmax). A 0-d example is treated as 1-d and the result reshaped
     * to the logical shape from the meta rule.
     */
    static Object dims(BatchCall c, int dimArg, boolean nullFlattens) {
        c.logicalSpec();
        Tensor self = (Tensor) c.args()[0];
        Tensor p = c.front(self);
        int rank = self.dim();
        if (rank == 0) {
            p = c.unsqueeze(p, 1);
            rank = 1;
        }
        Object d = c.args()[dimArg];
        Object nd;
        if (d == null || d instanceof long[] l && l.length == 0) {
            if (d == null && nullFlattens) {
                p = c.reshape(p, c.batch(), -1);
                nd = 1L;
            } else {
                long[] all = new long[rank];
                for (int i = 0; i < rank; i++) all[i] = i + 1;
                nd = all;
            }
        } else if (d instanceof long[] l) {
            long[] s = new long[l.length];
            for (int i = 0; i < l.length; i++) s[i] = BatchCall.shift(l[i], rank);
            nd = s;
        } else nd = BatchCall.shift(((Number) d).longValue(), rank);
        Object[] a = c.args().clone();
        a[0] = p;
        a[dimArg] = nd;
        if (c.outs() != null) return DECLINE;
        return c.wrap(c.call(c.op(), a));
    }

    private static Object reduceAll(BatchCall c, OpDef reduction) {
        c.logicalSpec();
        if (c.outs() != null) return DECLINE;
        Tensor p = c.reshape(c.front(c.args()[0]), c.batch(), -1);
        return c.wrap(c.call(reduction, p, new long[] {1}, false));
    }

    /** A view/shape op on self whose dims at the given argument indices are shifted past the batch dim. */
    private static Object shifted(BatchCall c, int rank, int... dimArgs) {
        c.logicalSpec();
        Object[] a = c.args().clone();
        a[0] = c.front(c.args()[0]);
        for (int i : dimArgs) a[i] = BatchCall.shift(((Number) a[i]).longValue(), rank);
        if (c.outs() != null) return DECLINE;
        return c.wrap(c.call(c.op(), a));
    }

    private static Object view(BatchCall c) {
        Tensor p = c.front(c.args()[0]);
        long[] size = c.withBatch((long[]) c.args()[1]);
        checkViewSize((Tensor) c.args()[0], (long[]) c.args()[1]);
        c.logicalSpec();
        try {
            return c.wrap(c.call(ShapeOps.VIEW, p, size));
        } catch (TorchException e) {
            // The batch dim moved to the front may make a view impossible that each example allows: copy instead.
            return c.wrap(c.call(ShapeOps.RESHAPE, p, size));
        }
    }

    /** view's size check on the logical shape, with PyTorch's message. */
    private static void checkViewSize(Tensor logical, long[] size) {
        long known = 1;
        int infer = -1;
        for (int i = 0; i < size.length; i++) {
            if (size[i] == -1) {
                if (infer >= 0) throw new TorchException("only one dimension can be inferred");
                infer = i;
            } else known *= size[i];
        }
        long n = logical.numel();
        boolean ok = infer >= 0 ? known != 0 && n % known == 0 || known == 0 && n == 0 : known == n;
        if (!ok) throw new TorchException("shape '" + Arrays.toString(size) + "' is invalid for input of size " + n);
    }

    /** transpose/squeeze of a 0-d example: dims -1 and 0 are accepted and nothing moves. */
    private static Object zeroDimIdentity(BatchCall c, int... dimArgs) {
        for (int i : dimArgs) BatchCall.shift(((Number) c.args()[i]).longValue(), 0);
        return c.wrap(c.call(IndexingOps.ALIAS, c.front(c.args()[0])));
    }

    private static Object squeeze(BatchCall c) {
        c.logicalSpec();
        Tensor self = (Tensor) c.args()[0];
        long[] d = (long[]) c.args()[1];
        if (self.dim() == 0) {
            if (d != null) for (long x : d) BatchCall.shift(x, 0);
            return c.wrap(c.call(IndexingOps.ALIAS, c.front(self)));
        }
        long[] s;
        if (d == null) {
            long[] shape = self.impl().shapeRef();
            List<Long> ones = new ArrayList<>();
            for (int i = 0; i < shape.length; i++) if (shape[i] == 1) ones.add((long) i + 1);
            s = ones.stream().mapToLong(Long::longValue).toArray();
        } else {
            s = new long[d.length];
            for (int i = 0; i < d.length; i++) s[i] = BatchCall.shift(d[i], self.dim());
        }
        return c.wrap(c.call(ShapeOps.SQUEEZE, c.front(self), s));
    }

    /** The FFT primitives transform the dims they name: the batch dim goes first and the dims shift past it. */
    private static Object spectral(BatchCall c) {
        c.logicalSpec();
        Object[] a = c.args().clone();
        Tensor x = (Tensor) a[0];
        long[] dims = (long[]) a[1], shifted = new long[dims.length];
        for (int i = 0; i < dims.length; i++) shifted[i] = BatchCall.shift(dims[i], x.dim());
        a[0] = c.front(x);
        a[1] = shifted;
        return c.wrap(c.call(c.op(), a));
    }

    private static Object roll(BatchCall c) {
        c.logicalSpec();
        long[] dims = (long[]) c.args()[2];
        Tensor self = (Tensor) c.args()[0];
        if (dims == null || dims.length == 0) {
            Tensor flat = c.reshape(c.front(self), c.batch(), -1);
            return c.wrap(c.call(JoinOps.ROLL, flat, c.args()[1], new long[] {1}));
        }
        long[] s = new long[dims.length];
        for (int i = 0; i < dims.length; i++) s[i] = BatchCall.shift(dims[i], self.dim());
        return c.wrap(c.call(JoinOps.ROLL, c.front(self), c.args()[1], s));
    }

    private static Object cat(BatchCall c) {
        c.logicalSpec();
        Tensor[] ts = (Tensor[]) c.args()[0];
        int rank = -1;
        for (Tensor t : ts) {
            boolean legacyEmpty = t.dim() == 1 && t.size(0) == 0;
            if (!legacyEmpty) {
                if (rank >= 0 && rank != t.dim()) return DECLINE;
                rank = t.dim();
            }
        }
        if (rank < 0) return DECLINE;
        List<Tensor> parts = new ArrayList<>();
        for (Tensor t : ts) if (!(t.dim() == 1 && t.size(0) == 0 && rank != 1)) parts.add(c.frontExpanded(t));
        return c.wrap(c.call(
                JoinOps.CAT, parts.toArray(Tensor[]::new), BatchCall.shift(((Number) c.args()[1]).longValue(), rank)));
    }

    // ---- repeat_interleave with batched repeats ---------------------------------------------------------

    private static TorchException needsOutputSize() {
        return new TorchException("vmap: repeat_interleave with a batched `repeats` tensor requires `output_size`: the "
                + "length of each example's output is the sum of its repeats, "
                + "which is data-dependent. Pass output_size "
                + "(every example's repeats must sum to it).");
    }

    private static Object repeatInterleaveSelfTensor(BatchCall c) {
        if (!c.batched(1)) return DECLINE; // the composite handles unbatched repeats
        if (c.args()[3] == null) throw needsOutputSize();
        Tensor input = (Tensor) c.args()[0];
        long dim = 0;
        if (c.args()[2] == null) input = c.dispatch1(ShapeOps.FLATTEN, input, 0L, -1L);
        else dim = ((Number) c.args()[2]).longValue();
        Tensor repeats = (Tensor) c.args()[1];
        if (repeats.dim() == 0 || repeats.dim() == 1 && repeats.size(0) == 1) {
            repeats = c.dispatch1(
                    ShapeOps.EXPAND,
                    c.dispatch1(ShapeOps.RESHAPE, repeats, new long[] {1}),
                    new long[] {input.size(Math.toIntExact(dim))},
                    false);
        }
        return c.dispatch(ArrangeOps.REPEAT_INTERLEAVE_ALONG, input, repeats, dim, c.args()[3]);
    }

    private static Object repeatInterleaveTensor(BatchCall c) {
        if (!c.batched(0)) return DECLINE;
        if (c.args()[1] == null) throw needsOutputSize();
        Tensor repeats = (Tensor) c.args()[0];
        Tensor index = org.jtorch.Torch.arange(0, repeats.size(0), 1, repeats.dtype());
        return c.dispatch(ArrangeOps.REPEAT_INTERLEAVE_ALONG, index, repeats, 0L, c.args()[1]);
    }

    /**
     * The example's slice {@code i} repeated {@code repeats[b][i]} times: the source index of output position {@code j}
     * is the number of cumulative repeats {@code <= j} (searchsorted, right side), then one gather.
     */
    private static Object repeatInterleaveAlong(BatchCall c) {
        c.logicalSpec();
        Tensor self = (Tensor) c.args()[0];
        long dim = BatchCall.shift(((Number) c.args()[2]).longValue(), self.dim());
        long total = ((Number) c.args()[3]).longValue();
        if (!c.batched(1)) {
            return c.wrap(c.call(ArrangeOps.REPEAT_INTERLEAVE_ALONG, c.front(self), c.front(c.args()[1]), dim, total));
        }
        Tensor reps = c.frontExpanded(c.args()[1]);
        long[] values = reps.contiguous().toLongArray();
        int n = Math.toIntExact(reps.size(1));
        for (int b = 0; b < c.batch(); b++) {
            long sum = 0;
            for (int i = 0; i < n; i++) {
                long r = values[b * n + i];
                if (r < 0) throw new TorchException("repeats can not be negative");
                sum += r;
            }
            if (sum != total) {
                throw new TorchException(
                        "repeat_interleave: under vmap every example's repeats must sum to output_size=" + total
                                + ", but example " + b + " sums to " + sum);
            }
        }
        Tensor p = c.frontExpanded(self);
        Tensor cums = c.call1(ReductionOps.CUMSUM, reps.to(DType.INT64), 1L, null);
        Tensor positions = c.expand(
                c.unsqueeze(org.jtorch.Torch.arange(0, total, 1, DType.INT64), 0), new long[] {c.batch(), total});
        Tensor source = c.call1(SearchOps.SEARCHSORTED, cums, positions.contiguous(), false, true, null, null);
        long[] view = new long[p.dim()];
        Arrays.fill(view, 1);
        view[0] = c.batch();
        view[(int) dim] = total;
        long[] full = p.shape();
        full[(int) dim] = total;
        Tensor index = c.expand(c.reshape(source, view), full);
        return c.wrap(c.call(ScatterOps.GATHER, p, dim, index, false));
    }

    // ---- matmul family ----------------------------------------------------------------------------------

    private static Object mm(BatchCall c) {
        c.logicalSpec();
        Tensor a = (Tensor) c.args()[0], b = (Tensor) c.args()[1];
        long n = a.size(0), k = a.size(1), m = b.size(1), bs = c.batch();
        if (c.batched(a) && c.batched(b)) return c.wrap(c.call(MatmulOps.BMM, c.front(a), c.front(b)));
        if (c.batched(a)) {
            Tensor r = c.call1(MatmulOps.MM, c.reshape(c.front(a), bs * n, k), c.front(b));
            return c.wrap(c.reshape(r, bs, n, m));
        }
        Tensor bt = c.reshape(c.call1(ShapeOps.PERMUTE, c.front(b), new long[] {1, 0, 2}), k, bs * m);
        Tensor r = c.reshape(c.call1(MatmulOps.MM, c.front(a), bt), n, bs, m);
        return c.wrap(c.call(ShapeOps.PERMUTE, r, new long[] {1, 0, 2}));
    }

    private static Object bmm(BatchCall c) {
        c.logicalSpec();
        Tensor a = (Tensor) c.args()[0], b = (Tensor) c.args()[1];
        long bs = c.batch(), g = a.size(0), n = a.size(1), k = a.size(2), m = b.size(2);
        Tensor pa = c.reshape(c.frontExpanded(a), bs * g, n, k), pb = c.reshape(c.frontExpanded(b), bs * g, k, m);
        return c.wrap(c.reshape(c.call1(MatmulOps.BMM, pa, pb), bs, g, n, m));
    }

    private static Object mv(BatchCall c) {
        c.logicalSpec();
        Tensor a = (Tensor) c.args()[0], v = (Tensor) c.args()[1];
        long n = a.size(0), k = a.size(1), bs = c.batch();
        if (c.batched(a) && c.batched(v)) {
            Tensor r = c.call1(MatmulOps.BMM, c.front(a), c.unsqueeze(c.front(v), 2));
            return c.wrap(c.reshape(r, bs, n));
        }
        if (c.batched(a))
            return c.wrap(c.reshape(c.call1(MatmulOps.MV, c.reshape(c.front(a), bs * n, k), c.front(v)), bs, n));
        Tensor at = c.call1(ShapeOps.TRANSPOSE, c.front(a), 0L, 1L);
        return c.wrap(c.call(MatmulOps.MM, c.front(v), at));
    }

    /** dot/vdot: one batched matrix product of [B,1,k] by [B,k,1]. */
    private static Object dot(BatchCall c, boolean conjugateFirst) {
        c.logicalSpec();
        Tensor a = c.frontExpanded(c.args()[0]), b = c.frontExpanded(c.args()[1]);
        if (conjugateFirst && a.isComplex()) a = c.call1(ComplexOps.CONJ_PHYSICAL_KERNEL, a);
        Tensor r = c.call1(MatmulOps.BMM, c.unsqueeze(a, 1), c.unsqueeze(b, 2));
        return c.wrap(c.reshape(r, c.batch()));
    }

    /** addmm/baddbmm as beta * self + alpha * (product), the product by its own rule (beta = 0 ignores self). */
    private static Object addmm(BatchCall c, OpDef product) {
        c.logicalSpec();
        if (c.outs() != null) return DECLINE;
        Object beta = c.args()[3] == null ? 1L : c.args()[3], alpha = c.args()[4] == null ? 1L : c.args()[4];
        Tensor prod = c.dispatch1(product, c.args()[1], c.args()[2]);
        if (isZero(beta)) return c.dispatch(PointwiseOps.MUL, prod, alpha);
        Tensor scaled = isOne(beta) ? (Tensor) c.args()[0] : c.dispatch1(PointwiseOps.MUL, c.args()[0], beta);
        return c.dispatch(PointwiseOps.ADD, scaled, prod, alpha);
    }

    private static boolean isZero(Object s) {
        return s instanceof Number n
                ? n.doubleValue() == 0
                : s instanceof org.jtorch.Scalar sc && sc.doubleValue() == 0 && sc.imag() == 0;
    }

    private static boolean isOne(Object s) {
        return s instanceof Number n
                ? n.doubleValue() == 1
                : s instanceof org.jtorch.Scalar sc && sc.doubleValue() == 1 && sc.imag() == 0;
    }

    private static Object solve(BatchCall c) {
        c.logicalSpec();
        Tensor a = (Tensor) c.args()[0], b = (Tensor) c.args()[1];
        boolean vector = b.dim() == 1
                || b.dim() == a.dim() - 1
                        && Arrays.equals(
                                b.impl().shapeRef(), Arrays.copyOf(a.impl().shapeRef(), a.dim() - 1));
        if (vector && b.dim() != a.dim() - 1) return DECLINE;
        Tensor pa = c.frontExpanded(a), pb = c.frontExpanded(b);
        if (!vector) {
            for (int r = a.dim(); r < b.dim(); r++) pa = c.unsqueeze(pa, 1);
            for (int r = b.dim(); r < a.dim(); r++) pb = c.unsqueeze(pb, 1);
        }
        Object[] args = c.args().clone();
        args[0] = pa;
        args[1] = pb;
        return c.wrap(c.call(c.op(), args));
    }

    // ---- gather / scatter / index ---------------------------------------------------------------------------

    /** Ops whose tensor arguments all have self's rank and a dim at argument 1: everything batched, dim shifted. */
    private static Object gatherLike(BatchCall c, int... tensorArgs) {
        c.logicalSpec();
        Tensor self = (Tensor) c.args()[0];
        int rank = self.dim();
        Object[] a = c.args().clone();
        for (int i : tensorArgs) {
            Tensor t = c.frontExpanded(c.args()[i]);
            if (rank == 0 && ((Tensor) c.args()[i]).dim() == 0) t = c.unsqueeze(t, 1);
            a[i] = t;
        }
        a[1] = BatchCall.shift(((Number) c.args()[1]).longValue(), rank);
        if (c.outs() != null) {
            if (rank == 0) return DECLINE;
            Tensor dest = c.front(c.outs()[0]);
            for (int i = 0; i < a.length; i++) if (c.args()[i] == c.outs()[0]) a[i] = dest;
            c.callOut(c.op(), new Tensor[] {dest}, a);
            return c.outsResult();
        }
        return c.wrap(c.call(c.op(), a));
    }

    private static Object indexSelect(BatchCall c) {
        c.logicalSpec();
        Tensor self = (Tensor) c.args()[0], index = (Tensor) c.args()[2];
        if (self.dim() == 0 || index.dim() != 1) return DECLINE;
        long dim = BatchCall.shift(((Number) c.args()[1]).longValue(), self.dim());
        if (!c.batched(index)) return c.wrap(c.call(ScatterOps.INDEX_SELECT, c.front(self), dim, index));
        Tensor p = c.frontExpanded(self);
        long[] view = new long[p.dim()];
        Arrays.fill(view, 1);
        view[0] = c.batch();
        view[(int) dim] = index.size(0);
        long[] full = p.shape();
        full[(int) dim] = index.size(0);
        Tensor idx = c.expand(c.reshape(c.front(index).to(DType.INT64), view), full);
        return c.wrap(c.call(ScatterOps.GATHER, p, dim, idx, false));
    }

    /**
     * Advanced indexing by integer tensors (dims strictly increasing). Unbatched indices index the shifted dims of the
     * batched self. Batched indices get an arange over the batch as an extra index on dim 0, which makes the indexed
     * block non-adjacent, so its result dims come first; when each example's block was adjacent at position p > 0, the
     * p leading dims of the example are moved back in front of the block.
     */
    private static Object indexInteger(BatchCall c) {
        c.logicalSpec();
        long[] dims = (long[]) c.args()[1];
        Tensor[] idx = (Tensor[]) c.args()[2];
        int count = dims.length;
        boolean adjacent = count == 0 || dims[count - 1] - dims[0] + 1 == count;
        int rIdx = 0;
        boolean idxBatched = false;
        for (Tensor t : idx) {
            rIdx = Math.max(rIdx, t.dim());
            idxBatched |= c.batched(t);
        }
        if (count == 0) return DECLINE;
        long[] shifted = new long[count];
        for (int i = 0; i < count; i++) shifted[i] = dims[i] + 1;
        if (!idxBatched) {
            Tensor[] plain = new Tensor[count];
            for (int i = 0; i < count; i++) plain[i] = c.front(idx[i]);
            Tensor r = c.call1(IndexingOps.INDEX_INTEGER, c.front(c.args()[0]), shifted, plain);
            return c.wrap(adjacent ? r : c.moveDim(r, rIdx, 0));
        }
        long[] arView = new long[rIdx + 1];
        java.util.Arrays.fill(arView, 1);
        arView[0] = c.batch();
        Tensor ar = c.reshape(org.jtorch.Torch.arange(0, c.batch(), 1, DType.INT64), arView);
        Tensor[] all = new Tensor[count + 1];
        all[0] = ar;
        for (int i = 0; i < count; i++) {
            Tensor t = c.batched(idx[i]) ? c.frontPadded(idx[i], rIdx) : c.front(idx[i]);
            all[i + 1] = t.dtype() == DType.INT64 ? t : c.call1(CopyOps.TO_COPY, t, DType.INT64, null);
        }
        long[] withBatch = new long[count + 1];
        System.arraycopy(shifted, 0, withBatch, 1, count);
        Tensor r = c.call1(
                IndexingOps.INDEX_INTEGER, c.frontExpanded(c.args()[0]), withBatch, all); // [B, idx..., rest...]
        int p = (int) dims[0];
        if (adjacent && p > 0) {
            long[] perm = new long[r.dim()];
            int k = 0;
            perm[k++] = 0;
            for (int d = 0; d < p; d++) perm[k++] = 1 + rIdx + d;
            for (int d = 0; d < rIdx; d++) perm[k++] = 1 + d;
            for (int d = 1 + rIdx + p; d < r.dim(); d++) perm[k++] = d;
            r = c.call1(ShapeOps.PERMUTE, r, perm);
        }
        return c.wrap(r);
    }

    /** index_add/index_copy/index_fill with an unbatched index: self (and the source) batched, dim shifted. */
    private static Object indexWrite(BatchCall c, int sourceArg) {
        c.logicalSpec();
        if (c.batched(2) || ((Tensor) c.args()[0]).dim() == 0) return DECLINE;
        Object[] a = c.args().clone();
        a[0] = c.frontExpanded(c.args()[0]);
        a[1] = BatchCall.shift(((Number) c.args()[1]).longValue(), ((Tensor) c.args()[0]).dim());
        a[2] = c.front(c.args()[2]);
        if (sourceArg >= 0) {
            Tensor src = (Tensor) c.args()[sourceArg];
            if (src.dim() != ((Tensor) c.args()[0]).dim()) return DECLINE;
            a[sourceArg] = c.frontExpanded(src);
        }
        if (c.outs() != null) {
            Tensor dest = c.front(c.outs()[0]);
            a[0] = dest;
            c.callOut(c.op(), new Tensor[] {dest}, a);
            return c.outsResult();
        }
        return c.wrap(c.call(c.op(), a));
    }

    private static Object searchsorted(BatchCall c) {
        c.logicalSpec();
        Tensor sorted = (Tensor) c.args()[0], values = (Tensor) c.args()[1];
        Tensor sorter = (Tensor) c.args()[5];
        Object[] a = c.args().clone();
        if (!c.batched(sorted) && (sorter == null || !c.batched(sorter)) && sorted.dim() == 1) {
            a[0] = c.front(sorted);
            a[1] = c.front(values);
            if (sorter != null) a[5] = c.front(sorter);
            return c.wrap(c.call(c.op(), a));
        }
        a[0] = c.frontExpanded(sorted);
        if (sorter != null) a[5] = c.frontExpanded(sorter);
        Tensor v = c.frontExpanded(values);
        if (sorted.dim() == 1) v = c.reshape(v, c.batch(), -1); // one row of values per example's sequence
        a[1] = v.contiguous();
        return c.wrap(c.call(c.op(), a));
    }

    /**
     * searchsorted of one scalar in each example's sequence: the Tensor overload with one value per example, held in
     * the dtype the scalar overload compares in, so the binary search is the same.
     */
    private static Object searchsortedScalar(BatchCall c) {
        c.logicalSpec();
        Tensor sorted = (Tensor) c.args()[0];
        Tensor s = c.frontExpanded(sorted);
        DType compute = org.jtorch.ops.TypePromotion.resultType(
                Tensor.of(TensorImpl.meta(sorted.impl().shapeRef(), sorted.dtype())), c.args()[1]);
        Tensor values = Creation.full(new long[] {c.batch(), 1}, c.args()[1], compute, s.device());
        Object[] a = c.args().clone();
        a[0] = s;
        a[1] = values;
        if (c.args()[5] != null) a[5] = c.frontExpanded(c.args()[5]);
        return c.wrap(c.call(SearchOps.SEARCHSORTED, a));
    }

    /** Backward helpers taking (grad, input_sizes, ...dims): the sizes get the batch in front, the dims shift. */
    private static Object backwardOfSizes(BatchCall c, int... dimArgs) {
        long[] sizes = (long[]) c.args()[1];
        Object[] a = c.args().clone();
        a[0] = c.frontExpanded(c.args()[0]);
        a[1] = c.withBatch(sizes);
        for (int i : dimArgs) a[i] = BatchCall.shift(((Number) a[i]).longValue(), sizes.length);
        return c.wrap(c.call(c.op(), a));
    }

    private static Object valueSelectingBackward(BatchCall c) {
        long[] sizes = (long[]) c.args()[3];
        if (sizes.length == 0) return DECLINE;
        Object[] a = c.args().clone();
        a[0] = c.frontExpanded(c.args()[0]);
        a[2] = c.frontExpanded(c.args()[2]);
        a[1] = BatchCall.shift(((Number) c.args()[1]).longValue(), sizes.length);
        a[3] = c.withBatch(sizes);
        return c.wrap(c.call(c.op(), a));
    }

    /**
     * view_as_complex of the batch: a batch dim whose stride is odd in real elements (a slice of a wider batched
     * tensor: every example is a valid complex view, the batch of them is not) is copied first; what the examples see
     * is the same, but writes through the result then no longer reach the input.
     */
    private static Object viewAsComplex(BatchCall c) {
        Tensor physical = c.front(c.args()[0]);
        if (c.batched(c.args()[0]) && physical.size(0) > 1 && physical.stride(0) % 2 != 0) {
            physical = physical.contiguous();
        }
        return c.wrap(c.call(ComplexOps.VIEW_AS_COMPLEX, physical));
    }
}
