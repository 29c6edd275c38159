package org.jtorch.examples.gpt;

import org.jtorch.DType;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.Embedding;
import org.jtorch.nn.Linear;
import org.jtorch.nn.Module;
import org.jtorch.nn.ModuleDict;
import org.jtorch.nn.ModuleList;
import org.jtorch.nn.functional.F;
import org.jtorch.nn.init.Init;

/**
 * nanoGPT's {@code GPT} in Java: token and position embeddings, {@code nLayer} pre-norm blocks, a final norm and an
 * untied LM head. The state-dict keys are nanoGPT's ({@code transformer.wte.weight},
 * {@code transformer.h.0.attn.c_attn.weight}, ..., {@code lm_head.weight}), so the same file loads into
 * {@code benchmarks/peers/train_gpt.py}'s PyTorch model.
 *
 * <p>{@link #forward} returns the final hidden states, not logits: the loss multiplies them by {@link #lmHeadWeight()}
 * itself, so that a fused linear + cross-entropy can skip the logits.
 */
public final class Gpt extends Module {
    private final GptConfig config;
    private final Embedding wte;
    private final Embedding wpe;
    private final ModuleList h;
    private final Module lnF;
    private final Linear lmHead;

    /** A freshly initialised model, drawing from the default generator (seed it first). */
    public Gpt(GptConfig config) {
        this.config = config;
        ModuleDict transformer = register("transformer", new ModuleDict());
        wte = new Embedding(config.vocabSize(), config.nEmbd());
        wpe = new Embedding(config.blockSize(), config.nEmbd());
        h = new ModuleList();
        for (int i = 0; i < config.nLayer(); i++) h.append(new Block(config));
        lnF = Block.norm(config);
        transformer.put("wte", wte).put("wpe", wpe).put("h", h).put("ln_f", lnF);
        lmHead = register("lm_head", new Linear(config.nEmbd(), config.vocabSize(), false));
        initWeights();
    }

    /** nanoGPT's init: N(0, 0.02) for every matrix, N(0, 0.02/√(2·nLayer)) for the residual projections. */
    private void initWeights() {
        try (var _ = Torch.noGrad()) {
            Init.normal_(wte.weight(), 0, 0.02);
            Init.normal_(wpe.weight(), 0, 0.02);
            double residualStd = 0.02 / Math.sqrt(2.0 * config.nLayer());
            for (Module m : h) {
                Block block = (Block) m;
                Init.normal_(block.attention().getParameter("c_attn.weight"), 0, 0.02);
                Init.normal_(block.attention().outputProjection().weight(), 0, residualStd);
                Init.normal_(block.mlp().getParameter("c_fc.weight"), 0, 0.02);
                Init.normal_(block.mlp().outputProjection().weight(), 0, residualStd);
            }
            Init.normal_(lmHead.weight(), 0, 0.02);
        }
    }

    public GptConfig config() {
        return config;
    }

    /** The LM head's weight [vocab, n_embd]: logits = hidden · weightᵀ. */
    public Tensor lmHeadWeight() {
        return lmHead.weight();
    }

    /** Token ids [B, T] (T ≤ block size) → final hidden states [B, T, n_embd]. */
    @Override
    public Tensor forward(Tensor idx) {
        long t = idx.size(1);
        if (t > config.blockSize()) {
            throw new IllegalArgumentException(
                    "Cannot forward sequence of length " + t + ", block size is only " + config.blockSize());
        }
        Tensor x = wte.call(idx).add(wpe.call(Torch.arange(t)));
        for (Module block : h) x = block.call(x);
        return lnF.call(x);
    }

    /** Logits [B, T, vocab] for token ids [B, T]. */
    public Tensor logits(Tensor idx) {
        return F.linear(call(idx), lmHeadWeight());
    }

    /**
     * nanoGPT's {@code generate}: extends {@code idx} [1, T] by {@code maxNewTokens} tokens, sampling each from
     * softmax(logits / temperature) restricted to the {@code topK} most likely tokens (0 = no restriction).
     */
    public Tensor generate(Tensor idx, int maxNewTokens, double temperature, int topK, Generator generator) {
        if (!(temperature > 0))
            throw new IllegalArgumentException("generate: temperature must be > 0, got " + temperature);
        boolean wasTraining = isTraining();
        eval();
        try (var _ = Torch.noGrad()) {
            for (int i = 0; i < maxNewTokens; i++) {
                long t = idx.size(1);
                Tensor context =
                        t <= config.blockSize() ? idx : idx.narrow(1, t - config.blockSize(), config.blockSize());
                Tensor last = logits(context).select(1, context.size(1) - 1).div(temperature); // [1, vocab]
                if (topK > 0 && topK < config.vocabSize()) {
                    Tensor kth = Torch.topk(last, topK).values().narrow(1, topK - 1, 1);
                    last = last.maskedFill(last.lt(kth), Double.NEGATIVE_INFINITY);
                }
                Tensor next = Torch.multinomial(F.softmax(last, -1), 1, false, generator);
                idx = Torch.cat(java.util.List.of(idx, next.to(DType.INT64)), 1);
            }
        } finally {
            train(wasTraining);
        }
        return idx;
    }
}
