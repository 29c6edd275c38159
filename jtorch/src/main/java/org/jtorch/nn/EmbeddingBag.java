package org.jtorch.nn;

import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.functional.F;
import org.jtorch.nn.init.Init;

/**
 * {@code torch.nn.EmbeddingBag}: sums, means or maxima of bags of embeddings, without materialising the looked-up rows
 * per bag.
 */
public final class EmbeddingBag extends Module {
    private final long numEmbeddings;
    private final long embeddingDim;
    private final String mode;
    private final boolean includeLastOffset;
    private final Long paddingIdx;

    /** {@code EmbeddingBag(num_embeddings, embedding_dim)}: mode "mean". */
    public EmbeddingBag(long numEmbeddings, long embeddingDim) {
        this(numEmbeddings, embeddingDim, "mean", false, null);
    }

    /** {@code EmbeddingBag(num_embeddings, embedding_dim, mode=, include_last_offset=, padding_idx=)}. */
    public EmbeddingBag(
            long numEmbeddings, long embeddingDim, String mode, boolean includeLastOffset, Long paddingIdx) {
        if (!"sum".equals(mode) && !"mean".equals(mode) && !"max".equals(mode)) {
            throw new IllegalArgumentException("mode has to be one of sum, mean or max");
        }
        if (paddingIdx != null && (paddingIdx >= numEmbeddings || paddingIdx < -numEmbeddings)) {
            throw new IllegalArgumentException("padding_idx must be within num_embeddings");
        }
        this.numEmbeddings = numEmbeddings;
        this.embeddingDim = embeddingDim;
        this.mode = mode;
        this.includeLastOffset = includeLastOffset;
        this.paddingIdx = paddingIdx == null ? null : paddingIdx < 0 ? paddingIdx + numEmbeddings : paddingIdx;
        registerParameter(
                "weight", Torch.empty(new long[] {numEmbeddings, embeddingDim}, Torch.getDefaultDtype(), Device.CPU));
        resetParameters();
    }

    /** {@code reset_parameters()}: N(0, 1), then the padding row zeroed. */
    public void resetParameters() {
        Init.normal_(weight(), 0, 1);
        if (paddingIdx != null) Init.zeros_(weight().select(0, paddingIdx));
    }

    /** {@code weight}. */
    public Tensor weight() {
        return getParameter("weight");
    }

    /** {@code forward(input)}: a 2-d input is a batch of equal-length bags. */
    @Override
    public Tensor forward(Tensor input) {
        return forward(input, null, null);
    }

    /** {@code forward(input, offsets, per_sample_weights)}; per-sample weights only in mode "sum". */
    public Tensor forward(Tensor input, Tensor offsets, Tensor perSampleWeights) {
        return F.embeddingBag(input, weight(), offsets, mode, perSampleWeights, includeLastOffset, paddingIdx);
    }

    @Override
    protected String extraRepr() {
        return numEmbeddings + ", " + embeddingDim + ", mode='" + mode + "'"
                + (paddingIdx == null ? "" : ", padding_idx=" + paddingIdx);
    }
}
