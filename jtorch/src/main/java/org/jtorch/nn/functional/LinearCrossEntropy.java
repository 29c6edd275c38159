package org.jtorch.nn.functional;

import java.util.Arrays;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.Warnings;
import org.jtorch.autograd.Function;
import org.jtorch.autograd.GradMode;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.cpu.LinearCrossEntropyKernel;
import org.jtorch.nn.LinearCrossEntropyOptions;
import org.jtorch.nn.Reduction;
import org.jtorch.storage.TensorImpl;

/**
 * {@code F.linear_cross_entropy} (2.15): the reference path {@code cross_entropy(linear(input, W, b), target)} and,
 * when {@code options} are given and the configuration allows, the batch-chunked path that never materialises the
 * {@code (N, C)} logits (spec nn-optim §2.3–2.5).
 */
final class LinearCrossEntropy {
    private LinearCrossEntropy() {}

    static final String TWICE = "chunked backward called twice; retainGraph = true / double backward are not supported";

    static Tensor apply(Tensor input, Tensor linearWeight, Tensor target, LinearCrossEntropyArgs a) {
        checkCommon(input, linearWeight, target, a);
        LinearCrossEntropyOptions o = a.options();
        if (o == null || input.device() == Device.META || linearWeight.device() == Device.META) {
            return reference(input, linearWeight, target, a);
        }
        String reason = fallbackReason(input, linearWeight, target, a);
        if (reason != null) {
            Warnings.warn("linear_cross_entropy: " + reason
                    + "; falling back to the reference path (linear + cross_entropy)");
            return reference(input, linearWeight, target, a);
        }
        DType dt = input.dtype(), acc = o.resolvedAccDtype(dt);
        boolean half = dt == DType.FLOAT16 || dt == DType.BFLOAT16;
        if (acc != dt && !(half && acc == DType.FLOAT32)) {
            throw new TorchException(
                    "linear_cross_entropy supports float32 acc_dtype with float16/bfloat16 inputs, but got "
                            + "acc_dtype=" + acc + " with input dtype " + dt.toString());
        }
        boolean probs = target.isFloatingPoint();
        long n = input.size(0), f = input.size(1), c = linearWeight.size(0);
        long chunk = o.resolvedChunkSize(n, f, c, probs, dt, input.device());
        if (o.batchChunkSize() == null && "auto".equals(o.chunkingMethod()))
            chunk = Math.max(chunk, cpuChunk(n, c, acc));
        return new Chunked(
                        a.reduction(),
                        a.effectiveIgnoreIndex(),
                        (int) Math.min(chunk, Integer.MAX_VALUE),
                        o.allowRetainGraph())
                .apply(input, linearWeight, a.linearBias(), target, a.weight());
    }

    /** Most logits one chunk may hold under 'auto' chunking, in bytes. */
    private static final long AUTO_CHUNK_BYTES = 64L << 20;

    /**
     * The rows per chunk 'auto' chunking may use on the CPU: as many as keep the chunk's logits within 1/8 of the
     * {@code (N, C)} logits the reference path materialises and within {@link #AUTO_CHUNK_BYTES}, as a power of two.
     * Why more than PyTorch's aspect-ratio heuristic (tuned for GPU kernels, 128 rows at N=4096, F=1024, C=32768):
     * every chunk's GEMMs re-read (and OpenBLAS re-packs) all of W and ∂W, and each packed block of W serves only the
     * chunk's rows, so at 128 rows that forward+backward took ~15% more CPU time than at 512 (measured), which run the
     * GEMMs near full speed. An explicit {@code batch_chunk_size} or chunking method is the caller's memory bound and
     * is kept as given.
     */
    private static long cpuChunk(long n, long c, DType acc) {
        long elem = acc == DType.FLOAT64 ? Double.BYTES : Float.BYTES;
        long rows = Math.min(n / 8, AUTO_CHUNK_BYTES / Math.max(1, c * elem));
        return Long.highestOneBit(Math.max(1, rows));
    }

    /**
     * The normative definition (§2.2): flatten the weight, project, put the class dim after the batch, cross_entropy.
     */
    static Tensor reference(Tensor input, Tensor linearWeight, Tensor target, LinearCrossEntropyArgs a) {
        long[] ws = linearWeight.shape();
        long f = ws[ws.length - 1];
        Tensor bias = a.linearBias() == null ? null : a.linearBias().reshape(-1);
        Tensor logits = F.linear(input, linearWeight.reshape(-1, f), bias);
        long[] lead = Arrays.copyOf(input.shape(), input.dim() - 1);
        long[] shape = new long[lead.length + ws.length - 1];
        System.arraycopy(lead, 0, shape, 0, lead.length);
        System.arraycopy(ws, 0, shape, lead.length, ws.length - 1);
        CrossEntropyOptions ce =
                new CrossEntropyOptions(a.weight(), a.effectiveIgnoreIndex(), a.reduction(), a.labelSmoothing());
        return Losses.crossEntropy(logits.reshape(shape), target, ce);
    }

    /** Shape checks shared by both paths, naming the argument and both shapes. */
    private static void checkCommon(Tensor input, Tensor linearWeight, Tensor target, LinearCrossEntropyArgs a) {
        if (linearWeight.dim() < 2) {
            throw new TorchException(
                    "linear_cross_entropy: linear_weight must be (C, F) or (C, d1, ..., dK, F), but got shape "
                            + Shapes.str(linearWeight.shape()));
        }
        if (input.dim() < 1 || input.size(-1) != linearWeight.size(-1)) {
            throw new TorchException("linear_cross_entropy: input " + Shapes.str(input.shape()) + " and linear_weight "
                    + Shapes.str(linearWeight.shape()) + " disagree on in_features (the last dim)");
        }
        long[] biasShape = Arrays.copyOf(linearWeight.shape(), linearWeight.dim() - 1);
        if (a.linearBias() != null && a.linearBias().numel() != Shapes.numel(biasShape)) {
            throw new TorchException("linear_cross_entropy: linear_bias must have shape linear_weight.shape[:-1] = "
                    + Shapes.str(biasShape) + ", but got "
                    + Shapes.str(a.linearBias().shape()));
        }
        if (target.isFloatingPoint()) {
            long[] logits = new long[input.dim() - 1 + biasShape.length];
            System.arraycopy(input.shape(), 0, logits, 0, input.dim() - 1);
            System.arraycopy(biasShape, 0, logits, input.dim() - 1, biasShape.length);
            if (!Arrays.equals(logits, target.shape())) {
                throw new TorchException("linear_cross_entropy: a probability target must have the logits' shape "
                        + Shapes.str(logits) + ", but got target of shape " + Shapes.str(target.shape()));
            }
        }
    }

    /** Why the chunked path cannot take this call (§2.3), or null when it can. */
    private static String fallbackReason(Tensor input, Tensor linearWeight, Tensor target, LinearCrossEntropyArgs a) {
        if (linearWeight.dim() != 2 || input.dim() != 2) {
            return "the chunked path needs a 2-D input (N, F) and a 2-D linear_weight (C, F), but got input "
                    + Shapes.str(input.shape()) + " and linear_weight " + Shapes.str(linearWeight.shape());
        }
        if (a.linearBias() != null && a.linearBias().dim() != 1) {
            return "the chunked path needs linear_bias of shape (C), but got "
                    + Shapes.str(a.linearBias().shape());
        }
        if (a.labelSmoothing() != 0.0)
            return "the chunked path does not support label_smoothing (got " + a.labelSmoothing() + ")";
        if (!target.isFloatingPoint() && target.dtype() != DType.INT64) {
            // the reference path then takes what cross_entropy takes: uint8 indices, and refuses int32 with its message
            return "the chunked path takes int64 class indices, but got a target of dtype " + target.dtype();
        }
        if (target.isFloatingPoint()) {
            if (target.dtype() != input.dtype()) {
                return "the chunked path needs a probability target of the input's dtype " + input.dtype()
                        + ", but got " + target.dtype();
            }
            if (target.requiresGrad()) return "gradients w.r.t. a probability target exist only on the reference path";
        }
        if (a.weight() != null && a.weight().requiresGrad()) {
            return "gradients w.r.t. the class weight exist only on the reference path";
        }
        DType dt = input.dtype();
        if (dt != DType.FLOAT16 && dt != DType.BFLOAT16 && dt != DType.FLOAT32 && dt != DType.FLOAT64) {
            return "the chunked path supports floating inputs (float16, bfloat16, float32, float64), but got " + dt;
        }
        if (linearWeight.dtype() != dt
                || (a.linearBias() != null && a.linearBias().dtype() != dt)) {
            return "the chunked path needs input, linear_weight and linear_bias of one dtype";
        }
        return null;
    }

    /**
     * The chunked path as one autograd Function. For 'mean'/'sum' the forward also computes the gradients and backward
     * only scales them by the upstream scalar; for 'none' the forward computes per-row losses and backward reruns the
     * chunk loop with the upstream gradient as each row's coefficient. Double backward raises: under create_graph the
     * returned gradients hang off a node whose backward throws.
     */
    private static final class Chunked extends Function {
        private final Reduction reduction;
        private final long ignoreIndex;
        private final int chunk;
        private final boolean allowRetainGraph;

        Chunked(Reduction reduction, long ignoreIndex, int chunk, boolean allowRetainGraph) {
            this.reduction = reduction;
            this.ignoreIndex = ignoreIndex;
            this.chunk = chunk;
            this.allowRetainGraph = allowRetainGraph;
        }

        @Override
        protected Tensor[] forward(Ctx ctx, Object... args) {
            Tensor input = (Tensor) args[0],
                    w = (Tensor) args[1],
                    bias = (Tensor) args[2],
                    target = (Tensor) args[3],
                    weight = (Tensor) args[4];
            checkClassWeight(weight, w.size(0));
            long n = input.size(0);
            long[] targets = target.isFloatingPoint() ? null : classTargets(target, n, w.size(0));
            double[] classWeight = weight == null ? null : weight.toDoubleArray();
            DType dt = input.dtype();
            ctx.saveForBackward(input, w, bias, target, weight);
            if (reduction == Reduction.NONE) {
                var r = LinearCrossEntropyKernel.run(
                        problem(input, w, bias, targets, target, classWeight, null, false, false, false));
                return new Tensor[] {Torch.tensor(r.rowLoss(), dt, n)};
            }
            double denominator =
                    reduction == Reduction.SUM ? 1 : targets == null ? n : validWeight(targets, classWeight);
            boolean any = ctx.needsInputGrad(0) || ctx.needsInputGrad(1) || ctx.needsInputGrad(2);
            double[] scale = null;
            if (any) {
                scale = new double[(int) n];
                Arrays.fill(scale, 1 / denominator);
            }
            var r = LinearCrossEntropyKernel.run(problem(
                    input,
                    w,
                    bias,
                    targets,
                    target,
                    classWeight,
                    scale,
                    ctx.needsInputGrad(0),
                    ctx.needsInputGrad(1),
                    ctx.needsInputGrad(2)));
            double total = 0;
            for (double l : r.rowLoss()) total += l;
            total = denominator == 0 ? Double.NaN : total / denominator;
            ctx.put("grads", new Tensor[] {cast(r.gradX(), dt), cast(r.gradW(), dt), cast(r.gradBias(), dt)});
            return new Tensor[] {Torch.scalarTensor(total, dt)};
        }

        @Override
        protected Tensor[] backward(Ctx ctx, Tensor... grads) {
            Tensor[] out;
            try (GradMode.Scope _ = GradMode.set(false)) {
                out = gradients(ctx, grads[0]);
            }
            if (!GradMode.isEnabled()) return out;
            // create_graph: the gradients depend on input/weight/bias, but this path has no rule for that dependence
            Tensor[] s = ctx.savedTensors();
            for (int i = 0; i < 3; i++)
                if (out[i] != null) out[i] = new NoDoubleBackward().apply(out[i], s[0], s[1], s[2]);
            return out;
        }

        private Tensor[] gradients(Ctx ctx, Tensor g) {
            if (reduction == Reduction.NONE) {
                Tensor[] s = ctx.savedTensors();
                Tensor input = s[0], w = s[1], bias = s[2], target = s[3], weight = s[4];
                long[] targets = target.isFloatingPoint() ? null : classTargets(target, input.size(0), w.size(0));
                var r = LinearCrossEntropyKernel.run(problem(
                        input,
                        w,
                        bias,
                        targets,
                        target,
                        weight == null ? null : weight.toDoubleArray(),
                        g.toDoubleArray(),
                        ctx.needsInputGrad(0),
                        ctx.needsInputGrad(1),
                        ctx.needsInputGrad(2)));
                DType dt = input.dtype();
                return new Tensor[] {cast(r.gradX(), dt), cast(r.gradW(), dt), cast(r.gradBias(), dt), null, null};
            }
            Tensor[] stored = ctx.get("grads");
            if (stored == null) throw new TorchException(TWICE);
            double k = g.item();
            Tensor[] out = new Tensor[5];
            for (int i = 0; i < 3; i++) {
                Tensor t = stored[i];
                if (t == null) continue;
                // Without allow_retain_graph the buffers are consumed in place; with it they stay intact for the next
                // call.
                out[i] = allowRetainGraph ? t.mul(k) : k == 1 ? t : t.mul_(k);
            }
            if (!allowRetainGraph) ctx.put("grads", null);
            return out;
        }

        /** Class indices with ignored rows set to -1, after the bounds check cross_entropy does. */
        private long[] classTargets(Tensor target, long n, long c) {
            if (target.dim() != 1 || target.size(0) != n) {
                throw new IllegalArgumentException("Expected input batch_size (" + n + ") to match target batch_size ("
                        + (target.dim() == 0 ? 1 : target.size(0)) + ").");
            }
            long[] y = target.toLongArray();
            for (int i = 0; i < y.length; i++) {
                if (y[i] == ignoreIndex) y[i] = -1;
                else if (y[i] < 0 || y[i] >= c)
                    throw new IndexOutOfBoundsException("Target " + y[i] + " is out of bounds.");
            }
            return y;
        }

        /** 'mean' divides by the total class weight of the rows that are not ignored. */
        private static double validWeight(long[] targets, double[] classWeight) {
            double d = 0;
            for (long y : targets) if (y >= 0) d += classWeight == null ? 1 : classWeight[(int) y];
            return d;
        }

        /**
         * The kernel's view of the call: dense operands in the compute dtype (float64 stays, everything else float32).
         */
        private LinearCrossEntropyKernel.Problem problem(
                Tensor input,
                Tensor w,
                Tensor bias,
                long[] targets,
                Tensor target,
                double[] classWeight,
                double[] scale,
                boolean needX,
                boolean needW,
                boolean needBias) {
            DType cd = input.dtype() == DType.FLOAT64 ? DType.FLOAT64 : DType.FLOAT32;
            return new LinearCrossEntropyKernel.Problem(
                    dense(input, cd).impl(),
                    dense(w, cd).impl(),
                    bias == null ? null : bias.toDoubleArray(),
                    targets,
                    targets == null ? dense(target, cd).impl() : null,
                    classWeight,
                    scale,
                    chunk,
                    needX,
                    needW,
                    needBias && bias != null);
        }
    }

    /** Passes a gradient through, recording a node whose backward refuses higher-order differentiation. */
    private static final class NoDoubleBackward extends Function {
        @Override
        protected Tensor[] forward(Ctx ctx, Object... args) {
            return new Tensor[] {((Tensor) args[0]).detach()};
        }

        @Override
        protected Tensor[] backward(Ctx ctx, Tensor... grads) {
            throw new TorchException("linear_cross_entropy: double backward through the chunked path is not supported; "
                    + "use the reference path (options=null) for higher-order gradients");
        }
    }

    private static void checkClassWeight(Tensor weight, long c) {
        if (weight != null && (weight.dim() != 1 || weight.numel() != c)) {
            throw new TorchException("weight tensor should be defined either for all " + c
                    + " classes or no classes but got weight tensor of shape: " + Shapes.str(weight.shape()));
        }
    }

    /** A contiguous heap copy in {@code dtype} unless {@code t} already is one. */
    private static Tensor dense(Tensor t, DType dtype) {
        Tensor d = t.to(dtype);
        if (!d.isContiguous()) d = d.contiguous();
        return d.impl().storage().array() == null ? d.clone() : d;
    }

    private static Tensor cast(TensorImpl impl, DType dtype) {
        if (impl == null) return null;
        Tensor t = Tensor.of(impl);
        return t.dtype() == dtype ? t : t.to(dtype);
    }
}
