package org.jtorch.nn.attention;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.internal.Shapes;
import org.jtorch.ops.JoinOps;
import org.jtorch.ops.TernaryOps;

/**
 * {@code torch.nn.attention.varlen.varlen_attn} (2.10): attention over a batch of sequences packed end to end without
 * padding. Sequence {@code i} owns query rows {@code cu_seq_q[i]..cu_seq_q[i+1]} and key/value rows
 * {@code cu_seq_k[i]..cu_seq_k[i+1]}; tokens never attend across sequences.
 *
 * <p>Each sequence is computed on its own slice (views of the packed tensors), so no padded {@code (N, max_len, ...)}
 * batch is ever built; the work and memory per sequence are those of its own {@code H × L_i × S_i} scores. The function
 * is composed of differentiable ops, so backward (and higher orders) follow. Half inputs are computed in float32 and
 * the result cast back, as the CPU math path of SDPA does. With {@code is_causal} and {@code L_i != S_i} the mask is
 * aligned bottom-right, as FlashAttention (which backs this function on CUDA) does: query {@code t} sees keys {@code j
 * <= t + S_i - L_i}; for {@code L_i == S_i} that is the usual lower triangle.
 */
public final class Varlen {
    private Varlen() {}

    /** {@code varlen_attn(query, key, value, cu_seq_q, cu_seq_k, max_q, max_k, is_causal)}: the output (T_q, H, D). */
    public static Tensor varlenAttn(
            Tensor query,
            Tensor key,
            Tensor value,
            Tensor cuSeqQ,
            Tensor cuSeqK,
            long maxQ,
            long maxK,
            boolean isCausal) {
        return varlenAttn(
                        query,
                        key,
                        value,
                        cuSeqQ,
                        cuSeqK,
                        maxQ,
                        maxK,
                        VarlenOptions.defaults().isCausal(isCausal))
                .out();
    }

    /** {@code varlen_attn(query, key, value, cu_seq_q, cu_seq_k, max_q, max_k, is_causal=, return_aux=, scale=)}. */
    public static VarlenResult varlenAttn(
            Tensor query,
            Tensor key,
            Tensor value,
            Tensor cuSeqQ,
            Tensor cuSeqK,
            long maxQ,
            long maxK,
            VarlenOptions options) {
        checkShapes(query, key, value);
        long[] cq = offsets("cu_seq_q", cuSeqQ, query.size(0), maxQ, "max_q");
        long[] ck = offsets("cu_seq_k", cuSeqK, key.size(0), maxK, "max_k");
        if (cq.length != ck.length) {
            throw new TorchException(
                    "varlen_attn: cu_seq_q and cu_seq_k must describe the same number of sequences, but got "
                            + (cq.length - 1) + " and " + (ck.length - 1));
        }
        DType dt = query.dtype();
        boolean half = dt == DType.FLOAT16 || dt == DType.BFLOAT16;
        Tensor q = half ? query.to(DType.FLOAT32) : query, k = half ? key.to(DType.FLOAT32) : key;
        Tensor v = half ? value.to(DType.FLOAT32) : value;
        double scale = options.scale() != null ? options.scale() : 1 / Math.sqrt(query.size(2));
        long h = query.size(1);
        List<Tensor> outs = new ArrayList<>(), lses = new ArrayList<>();
        for (int i = 0; i + 1 < cq.length; i++) {
            long l = cq[i + 1] - cq[i], s = ck[i + 1] - ck[i];
            if (l == 0) continue;
            Tensor qi = q.narrow(0, cq[i], l).transpose(0, 1); // (H, L, D)
            Tensor ki = k.narrow(0, ck[i], s).transpose(0, 1); // (H, S, D)
            Tensor vi = v.narrow(0, ck[i], s).transpose(0, 1); // (H, S, Dv)
            Tensor scores = qi.matmul(ki.mT()).mul(scale); // (H, L, S)
            if (options.isCausal()) {
                Tensor keep = JoinOps.tril(Torch.ones(new long[] {l, s}, DType.BOOL, query.device()), s - l);
                scores = scores.maskedFill(keep.logicalNot(), Double.NEGATIVE_INFINITY);
            }
            Tensor lse = scores.logsumexp(new long[] {-1}, false); // (H, L)
            // exp(scores - lse) is the softmax; a row without any visible key (lse = -inf) gets zero weights, not NaN
            Tensor shift = TernaryOps.where(lse.ne(Double.NEGATIVE_INFINITY), lse, 0.0);
            Tensor weights = scores.sub(shift.unsqueeze(-1)).exp();
            outs.add(weights.matmul(vi).transpose(0, 1)); // (L, H, Dv)
            lses.add(lse);
        }
        Tensor out = outs.isEmpty()
                ? Torch.zeros(new long[] {0, h, value.size(2)}, q.dtype(), query.device())
                : JoinOps.cat(outs, 0);
        if (half) out = out.to(dt);
        Optional<Tensor> lse = Optional.empty();
        if (options.returnLse()) {
            lse = Optional.of(
                    lses.isEmpty() ? Torch.zeros(new long[] {h, 0}, q.dtype(), query.device()) : JoinOps.cat(lses, 1));
        }
        return new VarlenResult(out, lse);
    }

    private static void checkShapes(Tensor q, Tensor k, Tensor v) {
        if (q.dim() != 3 || k.dim() != 3 || v.dim() != 3) {
            throw new TorchException(
                    "varlen_attn: query, key and value must be packed (T, H, D) tensors, but got shapes "
                            + Shapes.str(q.shape()) + ", " + Shapes.str(k.shape()) + ", " + Shapes.str(v.shape()));
        }
        if (k.size(0) != v.size(0) || q.size(1) != k.size(1) || k.size(1) != v.size(1) || q.size(2) != k.size(2)) {
            throw new TorchException(
                    "varlen_attn: expected query (T_q, H, D), key (T_k, H, D) and value (T_k, H, Dv), but got "
                            + Shapes.str(q.shape()) + ", " + Shapes.str(k.shape()) + ", " + Shapes.str(v.shape()));
        }
        if (q.dtype() != k.dtype() || q.dtype() != v.dtype()) {
            throw new TorchException("varlen_attn: query, key and value must have one dtype, but got " + q.dtype()
                    + ", " + k.dtype() + ", " + v.dtype());
        }
        DType dt = q.dtype();
        if (dt != DType.FLOAT16 && dt != DType.BFLOAT16 && dt != DType.FLOAT32 && dt != DType.FLOAT64) {
            throw new TorchException(
                    "varlen_attn: expected a floating dtype (float16, bfloat16, float32, float64), but got " + dt);
        }
    }

    /**
     * The offsets of {@code cu}, checked: 1-D integer, starts at 0, non-decreasing, ends at {@code total}, within
     * {@code max}.
     */
    private static long[] offsets(String name, Tensor cu, long total, long max, String maxName) {
        if (cu.dim() != 1 || cu.size(0) < 1 || (cu.dtype() != DType.INT32 && cu.dtype() != DType.INT64)) {
            throw new TorchException(
                    "varlen_attn: " + name + " must be a 1-D int32 tensor of N+1 offsets, but got shape "
                            + Shapes.str(cu.shape()) + " and dtype " + cu.dtype());
        }
        if (cu.device() == Device.META)
            throw new TorchException("varlen_attn: " + name + " must hold data (not the meta device)");
        long[] c = cu.toLongArray();
        if (c[0] != 0 || c[c.length - 1] != total) {
            throw new TorchException("varlen_attn: " + name + " must start at 0 and end at the packed length " + total
                    + ", but got " + java.util.Arrays.toString(c));
        }
        long longest = 0;
        for (int i = 0; i + 1 < c.length; i++) {
            if (c[i + 1] < c[i])
                throw new TorchException(
                        "varlen_attn: " + name + " must be non-decreasing, but got " + java.util.Arrays.toString(c));
            longest = Math.max(longest, c[i + 1] - c[i]);
        }
        if (max < longest) {
            throw new TorchException("varlen_attn: " + maxName + " (=" + max
                    + ") is smaller than the longest sequence in " + name + " (" + longest + ")");
        }
        return c;
    }
}
