package org.jtorch.nn;

import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.functional.F;
import org.jtorch.nn.init.Init;

/** {@code torch.nn.Embedding}: a lookup table of {@code num_embeddings} rows of size {@code embedding_dim}. */
public final class Embedding extends Module {
    private final long numEmbeddings;
    private final long embeddingDim;
    private final Long paddingIdx;
    private final Double maxNorm;
    private final double normType;

    /** {@code Embedding(num_embeddings, embedding_dim)}. */
    public Embedding(long numEmbeddings, long embeddingDim) {
        this(numEmbeddings, embeddingDim, null);
    }

    /**
     * {@code Embedding(num_embeddings, embedding_dim, padding_idx)}: the padding row (negative counts from the end)
     * starts at zero and receives no gradient; null means none.
     */
    public Embedding(long numEmbeddings, long embeddingDim, Long paddingIdx) {
        this(numEmbeddings, embeddingDim, paddingIdx, null, 2.0);
    }

    /**
     * {@code Embedding(num_embeddings, embedding_dim, padding_idx, max_norm, norm_type)}: with a max_norm (null =
     * none), each forward first rescales, in place, the looked-up rows whose norm_type-norm exceeds it.
     */
    public Embedding(long numEmbeddings, long embeddingDim, Long paddingIdx, Double maxNorm, double normType) {
        if (paddingIdx != null && (paddingIdx >= numEmbeddings || paddingIdx < -numEmbeddings)) {
            throw new IllegalArgumentException("Padding_idx must be within num_embeddings");
        }
        this.numEmbeddings = numEmbeddings;
        this.embeddingDim = embeddingDim;
        this.maxNorm = maxNorm;
        this.normType = normType;
        this.paddingIdx = paddingIdx == null ? null : paddingIdx < 0 ? paddingIdx + numEmbeddings : paddingIdx;
        DType dtype = Torch.getDefaultDtype();
        registerParameter("weight", Torch.empty(new long[] {numEmbeddings, embeddingDim}, dtype, Device.CPU));
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

    /** {@code padding_idx} (non-negative), or null. */
    public Long paddingIdx() {
        return paddingIdx;
    }

    @Override
    public Tensor forward(Tensor input) {
        return F.embedding(input, weight(), paddingIdx, maxNorm, normType);
    }

    @Override
    protected String extraRepr() {
        return numEmbeddings + ", " + embeddingDim + (paddingIdx == null ? "" : ", padding_idx=" + paddingIdx)
                + (maxNorm == null ? "" : ", max_norm=" + PyRepr.of(maxNorm))
                + (normType == 2.0 ? "" : ", norm_type=" + PyRepr.of(normType));
    }
}
