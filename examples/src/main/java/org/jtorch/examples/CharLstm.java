package org.jtorch.examples;

import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.examples.gpt.CharCorpus;
import org.jtorch.nn.Embedding;
import org.jtorch.nn.LSTM;
import org.jtorch.nn.Linear;
import org.jtorch.nn.Module;
import org.jtorch.nn.functional.F;
import org.jtorch.nn.utils.ClipGrad;
import org.jtorch.optim.Adam;

/**
 * A character-level LSTM language model on the shipped corpus (the one {@code TrainGpt} reads): embedding, a
 * multi-layer {@code nn.LSTM} with {@code batch_first}, and a linear head over the vocabulary, trained with Adam and
 * gradient clipping on random windows; it then writes text one character at a time, carrying the LSTM state from step
 * to step. Run with {@code -Dexample.main=org.jtorch.examples.CharLstm [-Dexample.args="STEPS HIDDEN LAYERS"]}.
 */
public final class CharLstm {
    private CharLstm() {}

    /** The language model: characters → embeddings → LSTM → logits over the vocabulary. */
    static final class Model extends Module {
        private final Embedding embedding;
        private final LSTM lstm;
        private final Linear head;

        Model(int vocab, int hidden, int layers) {
            embedding = register("embedding", new Embedding(vocab, hidden));
            lstm = register(
                    "lstm",
                    new LSTM(
                            hidden,
                            hidden,
                            LSTM.Options.defaults().numLayers(layers).batchFirst(true)));
            head = register("head", new Linear(hidden, vocab));
        }

        /** Logits [B, T, vocab] for tokens [B, T], starting from {@code state} (null = zeros), and the final state. */
        LSTM.Output step(Tensor tokens, LSTM.State state) {
            LSTM.Output o = lstm.forward(embedding.call(tokens), state);
            return new LSTM.Output(head.call(o.output()), o.hN(), o.cN());
        }

        @Override
        public Tensor forward(Tensor tokens) {
            return step(tokens, null).output();
        }
    }

    /** Held-out cross entropies (nats per character): the unigram baseline's, after the first and the last step. */
    public record Result(double unigramLoss, double firstLoss, double lastLoss, String sample) {}

    public static void main(String[] args) {
        int steps = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int hidden = args.length > 1 ? Integer.parseInt(args[1]) : 256;
        int layers = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        Result r = run(steps, hidden, layers, 32, 128, 400);
        System.out.printf(
                "held-out loss: unigram %.3f, after step 1 %.3f, after step %d %.3f%n",
                r.unigramLoss(), r.firstLoss(), steps, r.lastLoss());
        System.out.println(r.sample());
    }

    /**
     * Trains for {@code steps} on batches of {@code batch} windows of {@code block} characters, measures the held-out
     * loss on 8 fixed windows, and samples {@code sampleLength} characters after the prompt "In the beginning".
     */
    public static Result run(int steps, int hidden, int layers, int batch, int block, int sampleLength) {
        Torch.manualSeed(0);
        CharCorpus corpus = CharCorpus.load(null);
        Model model = new Model(corpus.vocabSize(), hidden, layers);
        Adam optimizer = new Adam(model.parameters(), 3e-3);
        Generator data = new Generator().manualSeed(1);
        Tensor[] held = CharCorpus.batch(corpus.valTokens(), 8, block, new Generator().manualSeed(2));
        double first = Double.NaN, last = Double.NaN;
        for (int step = 0; step < steps; step++) {
            Tensor[] xy = CharCorpus.batch(corpus.trainTokens(), batch, block, data);
            Tensor loss = F.crossEntropy(model.call(xy[0]).flatten(0, 1), xy[1].flatten());
            optimizer.zeroGrad();
            loss.backward();
            ClipGrad.clipGradNorm_(model.parameters(), 1.0);
            optimizer.step();
            if (step == 0 || step == steps - 1) {
                double v = heldOutLoss(model, held);
                if (step == 0) first = v;
                last = v;
            }
        }
        String sample = sample(model, corpus, "In the beginning", sampleLength, new Generator().manualSeed(3));
        return new Result(corpus.unigramBaseline(), first, last, sample);
    }

    private static double heldOutLoss(Model model, Tensor[] held) {
        try (var _ = Torch.noGrad()) {
            return F.crossEntropy(model.call(held[0]).flatten(0, 1), held[1].flatten())
                    .item();
        }
    }

    /** The prompt followed by {@code length} characters drawn one at a time from the model's softmax. */
    static String sample(Model model, CharCorpus corpus, String prompt, int length, Generator generator) {
        try (var _ = Torch.noGrad()) {
            LSTM.Output o = model.step(corpus.encode(prompt).unsqueeze(0), null);
            StringBuilder text = new StringBuilder(prompt);
            for (int i = 0; i < length; i++) {
                Tensor last = o.output().select(1, -1); // [1, vocab]
                Tensor next = Torch.multinomial(F.softmax(last, -1), 1, false, generator); // [1, 1]
                text.append(corpus.decode(next.view(1)));
                o = model.step(next, new LSTM.State(o.hN(), o.cN()));
            }
            return text.toString();
        }
    }
}
