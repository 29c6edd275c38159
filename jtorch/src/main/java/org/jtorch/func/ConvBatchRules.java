package org.jtorch.func;

import org.jtorch.Tensor;
import org.jtorch.ops.BatchCall;
import org.jtorch.ops.ConvOps;
import org.jtorch.ops.OpDef;
import org.jtorch.ops.PointwiseOps;

/**
 * Batch rules of the convolution ops (functorch's BatchRulesConvolution.cpp): one convolution per call, never a loop.
 * The vmapped dim folds into a dim the kernel already iterates over:
 *
 * <ul>
 *   <li>a batched input (or grad_output) alone folds into N;
 *   <li>a batched weight alone folds into the output channels of each group, ordered (group, example, channel) so that
 *       the groups stay contiguous; the input gradient of a batched input alone folds the same way;
 *   <li>both batched fold into the channels and multiply the groups by the batch size, so that each example convolves
 *       only its own channels.
 * </ul>
 *
 * A batched bias with an unbatched weight is added after the convolution.
 */
final class ConvBatchRules {
    private ConvBatchRules() {}

    static void install() {
        ConvOps.CONVOLUTION.defineBatchRule(ConvBatchRules::convolution);
        ConvOps.CONVOLUTION_BACKWARD_INPUT.defineBatchRule(ConvBatchRules::backwardInput);
        ConvOps.CONVOLUTION_BACKWARD_WEIGHT.defineBatchRule(ConvBatchRules::backwardWeight);
    }

    // convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups)
    private static Object convolution(BatchCall c) {
        c.logicalSpec();
        if (c.outs() != null) return OpDef.BatchRule.DECLINE;
        Object[] a = c.args().clone();
        boolean inputBatched = c.batched(0), weightBatched = c.batched(1);
        boolean biasBatched = a[2] != null && c.batched(2);
        boolean transposed = (Boolean) a[6];
        long groups = ((Number) a[8]).longValue(), b = c.batch();
        Tensor x = c.front(a[0]), w = c.front(a[1]);
        a[0] = x; // operands a branch leaves as they are still go below this level unwrapped
        a[1] = w;
        Tensor bias = a[2] == null ? null : c.front(a[2]);
        a[2] = biasBatched ? null : bias;
        Tensor y; // [B, N, C_out, spatial...]
        if (inputBatched && weightBatched) {
            a[0] = merge(c, c.moveDim(x, 0, 1), 1);
            a[1] = merge(c, w, 0);
            a[2] = bias == null ? null : biasBatched ? merge(c, bias, 0) : repeat(c, bias, b);
            a[8] = groups * b;
            return c.wrap(c.moveDim(split(c, c.call1(ConvOps.CONVOLUTION, a), 1, b), 1, 0));
        } else if (inputBatched) {
            a[0] = merge(c, x, 0);
            y = split(c, c.call1(ConvOps.CONVOLUTION, a), 0, b);
        } else if (weightBatched) {
            // a transposed weight is [C_in, C_out/groups, k...]: the examples join each group's output channels
            a[1] = transposed ? merge(c, c.moveDim(w, 0, 1), 1) : toGroupMajor(c, w, 1, groups);
            a[2] = bias == null || biasBatched ? null : repeatPerGroup(c, bias, groups, b);
            y = fromGroupMajor(c, c.call1(ConvOps.CONVOLUTION, a), 1, groups, b);
        } else {
            y = c.unsqueeze(c.call1(ConvOps.CONVOLUTION, a), 0); // only the bias is batched
        }
        if (biasBatched) {
            long[] shape = new long[y.dim()];
            java.util.Arrays.fill(shape, 1);
            shape[0] = b;
            shape[2] = bias.size(1);
            y = c.call1(PointwiseOps.ADD, y, c.reshape(bias, shape), 1L);
        }
        return c.wrap(y);
    }

    // convolution_backward_input(grad_output, weight, input_sizes, stride, padding, dilation, groups)
    private static Object backwardInput(BatchCall c) {
        c.logicalSpec();
        if (c.outs() != null) return OpDef.BatchRule.DECLINE;
        Object[] a = c.args().clone();
        long groups = ((Number) a[6]).longValue(), b = c.batch();
        long[] sizes = ((long[]) a[2]).clone();
        Tensor go = c.front(a[0]), w = c.front(a[1]);
        a[0] = go;
        a[1] = w;
        if (!c.batched(1)) {
            a[0] = merge(c, go, 0);
            sizes[0] *= b;
            a[2] = sizes;
            return c.wrap(split(c, c.call1(ConvOps.CONVOLUTION_BACKWARD_INPUT, a), 0, b));
        }
        sizes[1] *= b;
        a[2] = sizes;
        if (c.batched(0)) {
            a[0] = merge(c, c.moveDim(go, 0, 1), 1);
            a[1] = merge(c, w, 0);
            a[6] = groups * b;
            return c.wrap(c.moveDim(split(c, c.call1(ConvOps.CONVOLUTION_BACKWARD_INPUT, a), 1, b), 1, 0));
        }
        // the input gradient is a transposed convolution: the examples join each group's input channels
        a[1] = merge(c, c.moveDim(w, 0, 1), 1);
        return c.wrap(fromGroupMajor(c, c.call1(ConvOps.CONVOLUTION_BACKWARD_INPUT, a), 1, groups, b));
    }

    // convolution_backward_weight(grad_output, input, weight_sizes, stride, padding, dilation, groups)
    private static Object backwardWeight(BatchCall c) {
        c.logicalSpec();
        if (c.outs() != null) return OpDef.BatchRule.DECLINE;
        Object[] a = c.args().clone();
        long groups = ((Number) a[6]).longValue(), b = c.batch();
        long[] sizes = ((long[]) a[2]).clone();
        Tensor go = c.front(a[0]), x = c.front(a[1]);
        a[0] = go;
        a[1] = x;
        if (c.batched(0) && c.batched(1)) {
            a[0] = merge(c, c.moveDim(go, 0, 1), 1);
            a[1] = merge(c, c.moveDim(x, 0, 1), 1);
            sizes[0] *= b;
            a[2] = sizes;
            a[6] = groups * b;
            return c.wrap(split(c, c.call1(ConvOps.CONVOLUTION_BACKWARD_WEIGHT, a), 0, b));
        }
        if (c.batched(0)) {
            a[0] = toGroupMajor(c, go, 2, groups);
            sizes[0] *= b;
            a[2] = sizes;
            return c.wrap(fromGroupMajor(c, c.call1(ConvOps.CONVOLUTION_BACKWARD_WEIGHT, a), 0, groups, b));
        }
        // a batched input alone: each group's input channels hold every example's, and so do the weight's columns
        a[1] = toGroupMajor(c, x, 2, groups);
        sizes[1] *= b;
        a[2] = sizes;
        Tensor r = c.call1(ConvOps.CONVOLUTION_BACKWARD_WEIGHT, a); // [C_out, B * C_in/groups, k...]
        return c.wrap(c.moveDim(split(c, r, 1, b), 1, 0));
    }

    // ---- layouts ---------------------------------------------------------------------------------------

    /** Dims d and d + 1 of {@code t} as one. */
    private static Tensor merge(BatchCall c, Tensor t, int d) {
        long[] s = t.shape(), r = new long[s.length - 1];
        for (int i = 0, j = 0; i < s.length; i++) {
            if (i == d + 1) r[j - 1] *= s[i];
            else r[j++] = s[i];
        }
        return c.reshape(t, r);
    }

    /** Dim d of {@code t} split into {@code [outer, size(d) / outer]}. */
    private static Tensor split(BatchCall c, Tensor t, int d, long outer) {
        long[] s = t.shape(), r = new long[s.length + 1];
        for (int i = 0, j = 0; i < s.length; i++) {
            if (i == d) {
                r[j++] = outer;
                r[j++] = outer == 0 ? 0 : s[i] / outer;
            } else r[j++] = s[i];
        }
        return c.reshape(t, r);
    }

    /**
     * A batch-first {@code t} whose dim {@code channel} holds {@code groups} groups of channels, without its batch dim:
     * that channel dim (now at {@code channel - 1}) holds the groups in turn, each with every example's channels of
     * that group.
     */
    private static Tensor toGroupMajor(BatchCall c, Tensor t, int channel, long groups) {
        Tensor g = split(c, t, channel, groups); // [B, ..., G, K, ...]
        return merge(c, merge(c, c.moveDim(g, 0, channel), channel - 1), channel - 1);
    }

    /** The inverse of {@link #toGroupMajor}: dim {@code channel} of {@code r}, (group, example, channel), unfolded. */
    private static Tensor fromGroupMajor(BatchCall c, Tensor r, int channel, long groups, long b) {
        Tensor g = split(c, split(c, r, channel, groups), channel + 1, b); // [..., G, B, K, ...]
        return merge(c, c.moveDim(g, channel + 1, 0), channel + 1);
    }

    /** An unbatched bias as the batch's: repeated once per example. */
    private static Tensor repeat(BatchCall c, Tensor bias, long b) {
        return merge(c, c.expand(c.unsqueeze(bias, 0), new long[] {b, bias.size(0)}), 0);
    }

    /** An unbatched bias of {@code groups} groups in the (group, example, channel) order of a batched weight. */
    private static Tensor repeatPerGroup(BatchCall c, Tensor bias, long groups, long b) {
        long k = bias.size(0) / groups;
        Tensor g = c.expand(c.reshape(bias, groups, 1, k), new long[] {groups, b, k});
        return c.reshape(g, groups * b * k);
    }
}
