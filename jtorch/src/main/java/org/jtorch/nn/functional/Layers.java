package org.jtorch.nn.functional;

import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.internal.Shapes;
import org.jtorch.ops.ScatterOps;

/**
 * {@code F.bilinear}, {@code F.embedding}'s max_norm renormalisation and {@code F.embedding_bag}, from differentiable
 * ops.
 */
final class Layers {
    private Layers() {}

    /**
     * ATen's {@code bilinear} checks, then {@code y[b, o] = Σ_ij x1[b, i] W[o, i, j] x2[b, j] + bias[o]} as one GEMM
     * and a reduction.
     */
    static Tensor bilinear(Tensor input1, Tensor input2, Tensor weight, Tensor bias) {
        int r = input1.dim();
        if (r != input2.dim()) {
            throw new TorchException("bilinear(): input dimensions do not match: got " + r + " and " + input2.dim());
        }
        for (int i = 0; i < r - 1; i++) {
            if (input1.size(i) != input2.size(i)) {
                throw new TorchException("bilinear(): input batch dimensions do not match: got " + input1.size(i)
                        + " and " + input2.size(i));
            }
        }
        if (weight.dim() != 3)
            throw new TorchException(
                    "bilinear(): weight must be 3-D, but got weight of size " + Shapes.str(weight.shape()));
        if (input1.size(r - 1) != weight.size(1)) {
            throw new TorchException("bilinear(): input1 size does not match weight size: got " + input1.size(r - 1)
                    + " but expected " + weight.size(1));
        }
        if (input2.size(r - 1) != weight.size(2)) {
            throw new TorchException("bilinear(): input2 size does not match weight size: got " + input2.size(r - 1)
                    + " but expected " + weight.size(2));
        }
        if (bias != null && bias.size(0) != weight.size(0)) {
            throw new TorchException("bilinear(): bias size does not match weight size: got " + bias.size(0)
                    + " but expected " + weight.size(0));
        }
        long out = weight.size(0), in1 = weight.size(1), in2 = weight.size(2);
        long[] batch = java.util.Arrays.copyOf(input1.shape(), r - 1);
        long b = Shapes.numel(batch);
        Tensor x1 = input1.reshape(b, in1), x2 = input2.reshape(b, in2);
        // [b, in1] @ [in1, out·in2] → [b, out, in2], then contracted with x2 over in2
        Tensor w = weight.permute(1, 0, 2).reshape(in1, out * in2);
        Tensor y = x1.matmul(w).reshape(b, out, in2).mul(x2.unsqueeze(1)).sum(2);
        if (bias != null) y = y.add(bias);
        long[] shape = java.util.Arrays.copyOf(batch, r);
        shape[r - 1] = out;
        return y.reshape(shape);
    }

    /**
     * {@code embedding_renorm_}: rows of {@code weight} looked up by {@code input} whose p-norm exceeds maxNorm are
     * scaled to it.
     */
    static void embeddingRenorm_(Tensor weight, Tensor input, double maxNorm, double normType) {
        if (input.device() == Device.META || input.numel() == 0) return;
        try (var _ = Torch.noGrad()) {
            Tensor rows = Torch.unique(input.reshape(-1));
            Tensor picked = ScatterOps.indexSelect(weight, 0, rows);
            Tensor norms = Torch.vectorNorm(picked, normType, new long[] {1}, true);
            Tensor scale = org.jtorch.ops.TernaryOps.where(
                    norms.gt(maxNorm), norms.add(1e-7).reciprocal().mul(maxNorm), 1.0);
            weight.indexPut_(new Tensor[] {rows}, picked.mul(scale));
        }
    }

    static Tensor embeddingBag(
            Tensor input,
            Tensor weight,
            Tensor offsets,
            String mode,
            Tensor perSampleWeights,
            boolean includeLastOffset,
            Long paddingIdx) {
        if (!"sum".equals(mode) && !"mean".equals(mode) && !"max".equals(mode)) {
            throw new IllegalArgumentException("mode has to be one of sum, mean or max");
        }
        if (weight.dim() != 2)
            throw new TorchException(
                    "embedding_bag: weight has to be a 2D Tensor, but got Tensor of dimension " + weight.dim());
        if (perSampleWeights != null && !java.util.Arrays.equals(perSampleWeights.shape(), input.shape())) {
            throw new IllegalArgumentException(
                    "embedding_bag: If per_sample_weights (torch.Size(" + Shapes.str(perSampleWeights.shape())
                            + ")) is not None, then it must have the same shape as the input (torch.Size("
                            + Shapes.str(input.shape()) + "))");
        }
        if (input.dtype() != DType.INT64 && input.dtype() != DType.INT32) {
            throw new TorchException("embedding_bag: expected input of dtype Long or Int, but got "
                    + input.dtype().cppName());
        }
        long[] starts;
        long m = input.numel();
        if (input.dim() == 2) {
            if (offsets != null) {
                throw new IllegalArgumentException(
                        "if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                                + "fixed length sequences. However, found offsets of type <class 'torch.Tensor'>");
            }
            long bags = input.size(0), len = input.size(1);
            starts = new long[(int) bags];
            for (int i = 0; i < bags; i++) starts[i] = i * len;
            includeLastOffset = false;
        } else if (input.dim() == 1) {
            if (offsets == null) throw new IllegalArgumentException("offsets has to be a 1D Tensor but got None");
            if (offsets.dim() != 1) throw new IllegalArgumentException("offsets has to be a 1D Tensor");
            starts = offsets.toLongArray();
            if (starts.length > 0 && starts[0] != 0) {
                throw new TorchException(
                        "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start "
                                + "from position 0. "
                                + "However, got " + starts[0]);
            }
            if (starts.length > 0 && starts[starts.length - 1] > m) {
                throw new TorchException("offsets[-1] can not be greater than input's length (" + m
                        + "), but got offsets[-1] of " + starts[starts.length - 1]);
            }
        } else {
            throw new IllegalArgumentException(
                    "input has to be 1D or 2D Tensor, but got Tensor of dimension " + input.dim());
        }
        if (perSampleWeights != null && !"sum".equals(mode)) {
            throw new UnsupportedOperationException(
                    "embedding_bag: per_sample_weights was not None. per_sample_weights is only supported "
                            + "for mode='sum' (got mode='" + mode + "'). Please open a feature request on GitHub.");
        }
        int bags = includeLastOffset ? Math.max(0, starts.length - 1) : starts.length;
        long[] idx = input.reshape(-1).toLongArray();
        long n = weight.size(0);
        long pad = paddingIdx == null ? Long.MIN_VALUE : paddingIdx < 0 ? paddingIdx + n : paddingIdx;
        // which input positions take part, and the bag of each
        long[] keptPos = new long[idx.length], bagOf = new long[idx.length];
        double[] counts = new double[bags];
        int kept = 0;
        for (int b = 0; b < bags; b++) {
            long end = b + 1 < starts.length ? starts[b + 1] : m;
            for (long j = starts[b]; j < Math.min(end, m); j++) {
                long v = idx[(int) j];
                if (v < 0 || v >= n) {
                    throw new IndexOutOfBoundsException(
                            "embedding_bag: index " + v + " is out of bounds for an embedding of " + n + " rows");
                }
                if (v == pad) continue;
                keptPos[kept] = j;
                bagOf[kept++] = b;
                counts[b]++;
            }
        }
        long d = weight.size(1);
        Tensor positions = Torch.tensor(java.util.Arrays.copyOf(keptPos, kept));
        Tensor bagIds = Torch.tensor(java.util.Arrays.copyOf(bagOf, kept));
        Tensor rows = ScatterOps.indexSelect(
                weight, 0, ScatterOps.indexSelect(input.reshape(-1).to(DType.INT64), 0, positions));
        if (perSampleWeights != null) {
            rows = rows.mul(ScatterOps.indexSelect(perSampleWeights.reshape(-1), 0, positions)
                    .unsqueeze(1));
        }
        Tensor zeros = Torch.zeros(new long[] {bags, d}, weight.dtype(), weight.device());
        if ("max".equals(mode)) {
            return zeros.scatterReduce(0, bagIds.unsqueeze(1).expand(kept, d), rows, "amax", false);
        }
        Tensor sum = ScatterOps.indexAdd(zeros, 0, bagIds, rows);
        if ("sum".equals(mode)) return sum;
        for (int b = 0; b < bags; b++) counts[b] = Math.max(1, counts[b]);
        return sum.div(Torch.tensor(counts).to(weight.dtype()).unsqueeze(1));
    }
}
