package org.jtorch.examples;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Generator;
import org.jtorch.MemoryScope;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.amp.Amp;
import org.jtorch.amp.Autocast;
import org.jtorch.compile.CompileOptions;
import org.jtorch.examples.gpt.CharCorpus;
import org.jtorch.examples.gpt.DataParallel;
import org.jtorch.examples.gpt.Gpt;
import org.jtorch.examples.gpt.GptConfig;
import org.jtorch.examples.gpt.LossPlot;
import org.jtorch.examples.gpt.ProgressBar;
import org.jtorch.examples.gpt.TrainOptions;
import org.jtorch.examples.gpt.TrainingCheckpoint;
import org.jtorch.io.Safetensors;
import org.jtorch.io.Serialization;
import org.jtorch.nn.LinearCrossEntropyOptions;
import org.jtorch.nn.Module;
import org.jtorch.nn.Reduction;
import org.jtorch.nn.functional.F;
import org.jtorch.nn.utils.ClipGrad;
import org.jtorch.optim.AdamW;
import org.jtorch.optim.Muon;
import org.jtorch.optim.Optimizer;
import org.jtorch.optim.OptimizerStateDict;
import org.jtorch.optim.ParamGroup;

/**
 * The README's main job: trains a character-level GPT the way nanoGPT does, evaluates it on held-out text, writes a
 * checkpoint (PyTorch {@code .pt} and safetensors), a loss-curve PNG and a generated sample. Run with {@code --help}
 * for the flags.
 */
public final class TrainGpt {
    private final TrainOptions opts;
    private final PrintStream out;
    /** Whether the progress bar redraws one line (a console) or prints plain lines (redirected output). */
    private final boolean console;

    private TrainGpt(TrainOptions opts, PrintStream out, boolean console) {
        this.opts = opts;
        this.out = out;
        this.console = console;
    }

    /**
     * Exits with 2 and one line on stderr for a bad command line (unknown flag, bad value, missing file), with 1 and
     * one line for a failure while running (an unreadable checkpoint, a full disk).
     */
    public static void main(String[] args) {
        TrainOptions opts;
        try {
            opts = TrainOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("TrainGpt: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (opts.help) {
            System.out.print(TrainOptions.USAGE);
            return;
        }
        try {
            new TrainGpt(opts, System.out, ProgressBar.stdoutIsConsole()).run();
        } catch (UncheckedIOException | TorchException e) {
            System.out.flush();
            System.err.println("TrainGpt: " + e.getMessage());
            System.exit(1);
        }
    }

    /** The outcome of a run, for callers that check it (the tests). */
    public record Result(
            float[] trainLosses,
            List<double[]> valLosses,
            double unigramBaseline,
            double finalValLoss,
            double tokensPerSecond,
            String sample) {}

    /** Runs training with {@code opts}, printing to {@code out}. */
    public static Result run(TrainOptions opts, PrintStream out) {
        return new TrainGpt(opts, out, false).run();
    }

    private Result run() {
        Torch.setNumThreads(opts.threads);
        try (DataParallel dp = DataParallel.start(opts)) {
            // Only rank 0 prints; the other ranks train silently.
            TrainGpt self =
                    dp.isLeader() ? this : new TrainGpt(opts, new PrintStream(OutputStream.nullOutputStream()), false);
            return self.train(dp);
        }
    }

    private Result train(DataParallel dp) {
        TrainingCheckpoint resumed = opts.resume == null ? null : TrainingCheckpoint.load(opts.resume);
        if (resumed != null) opts.restoreCurveSettings(resumed.settings());
        CharCorpus corpus =
                resumed == null ? CharCorpus.load(opts.corpus) : CharCorpus.load(opts.corpus, resumed.vocab());
        GptConfig config = resumed != null
                ? resumed.config()
                : new GptConfig(corpus.vocabSize(), opts.block, opts.layers, opts.heads, opts.embd, opts.norm);

        Torch.manualSeed(opts.seed);
        Gpt model = new Gpt(config);
        Generator data = new Generator().manualSeed(opts.seed + 1);
        List<Optimizer> optimizers = optimizers(model);
        int startStep = 0;
        List<Float> trainLosses = new ArrayList<>();
        List<double[]> valLosses = new ArrayList<>();
        if (resumed != null) {
            model.loadStateDict(resumed.model());
            for (int i = 0; i < optimizers.size(); i++) {
                optimizers
                        .get(i)
                        .loadStateDict(OptimizerStateDict.fromPyTorch(
                                resumed.optimizers().get(i)));
            }
            Torch.setRngState(resumed.rngState());
            data.setState(resumed.dataRngState());
            startStep = resumed.step();
            for (float l : resumed.trainLosses()) trainLosses.add(l);
            valLosses.addAll(resumed.valLosses());
        }
        // The model's calls through the compiler (the loss, a Java kernel over the targets, stays eager).
        if (!opts.compile.equals("off")) model.compile(CompileOptions.defaults().backend(opts.compile));
        // Under --ddp, DDP around the model: rank 0's weights everywhere, gradients averaged over the ranks.
        Module replica = dp.wrap(model, opts.ddpBucketMb, opts.ddpFinalBucketMb);
        int endStep = opts.stopAfter > 0 ? Math.min(opts.stopAfter, opts.steps) : opts.steps;
        long params = model.parameters().stream().mapToLong(Tensor::numel).sum();
        double baseline = corpus.unigramBaseline();
        out.printf(
                "TrainGpt: %d layers, %d heads, n_embd %d, block %d, %s, vocab %d — %,d parameters%n",
                config.nLayer(),
                config.nHead(),
                config.nEmbd(),
                config.blockSize(),
                config.norm(),
                config.vocabSize(),
                params);
        out.printf(
                "corpus: %,d training / %,d held-out characters; optimizer %s, lr %.2g, batch %d, "
                        + "%d steps, %d threads, amp %s, compile %s%n",
                corpus.trainTokens().size(0),
                corpus.valTokens().size(0),
                opts.optimizer,
                opts.lr,
                opts.batch,
                opts.steps,
                opts.threads,
                opts.amp,
                opts.compile);
        out.printf("unigram baseline (held-out cross entropy of character frequencies): %.4f nats/char%n", baseline);
        if (resumed != null) out.printf("resumed from %s at step %d%n", opts.resume, startStep);
        if (dp.world() > 1)
            out.printf("ddp: %d ranks, %d sequences per rank per step%n", dp.world(), opts.batch / dp.world());

        List<Tensor> allParameters = model.parameters();
        // Throughput is reported after a short warm-up (JIT compilation, first allocations), as the peer does.
        int warm = Math.min(10, (endStep - startStep) / 5);
        ProgressBar bar =
                new ProgressBar(out, console, startStep, endStep, warm, (long) opts.batch * config.blockSize());
        long warmEnd = System.nanoTime(), evalNanos = 0;
        for (int step = startStep; step < endStep; step++) {
            double lr = opts.learningRate(step);
            for (Optimizer o : optimizers) for (ParamGroup g : o.paramGroups()) g.set("lr", lr);
            Tensor[] xy = dp.shard(CharCorpus.batch(corpus.trainTokens(), opts.batch, config.blockSize(), data));
            Tensor loss;
            // The step's activations and temporaries serve the next step's (MemoryScope): only the gradients (kept
            // by setGrad) and the 0-d loss are read after the backward pass.
            try (MemoryScope _ = MemoryScope.open()) {
                try (var _ = autocast()) {
                    loss = lmLoss(replica.call(xy[0]), model.lmHeadWeight(), xy[1]);
                }
                for (Optimizer o : optimizers) o.zeroGrad();
                loss.backward();
            }
            if (opts.gradClip > 0) ClipGrad.clipGradNorm_(allParameters, opts.gradClip);
            for (Optimizer o : optimizers) o.step();
            if (step >= startStep + warm) dp.recordStep();
            float l = (float) dp.meanOverRanks(loss);
            trainLosses.add(l);
            bar.update(step, l);
            if (step == startStep + warm - 1) warmEnd = System.nanoTime();
            if (dp.isLeader() && ((step + 1) % opts.evalEvery == 0 || step + 1 == opts.steps)) {
                long evalStart = System.nanoTime();
                double v = evaluate(model, corpus.valTokens());
                long evalTime = System.nanoTime() - evalStart;
                if (step >= startStep + warm) evalNanos += evalTime;
                bar.exclude(evalTime);
                valLosses.add(new double[] {step + 1, v});
                bar.println(String.format(
                        "step %d: train loss %.4f, held-out loss %.4f (unigram baseline %.4f)",
                        step + 1, smoothed(trainLosses), v, baseline));
            }
        }
        bar.finish();
        long timedTokens = (long) (endStep - startStep - warm) * opts.batch * config.blockSize();
        double tokensPerSecond = timedTokens / ((System.nanoTime() - warmEnd - evalNanos) / 1e9);
        out.printf(
                "%,.0f tokens/s over steps %d..%d (after %d warm-up steps)%n",
                tokensPerSecond, startStep + warm + 1, endStep, warm);
        for (String line : dp.summary()) out.println(line);

        float[] losses = new float[trainLosses.size()];
        for (int i = 0; i < losses.length; i++) losses[i] = trainLosses.get(i);
        if (!dp.isLeader()) {
            // Rank 0 writes; the others wait until its files are complete, so none of them ends the job early.
            dp.barrier();
            return new Result(losses, valLosses, baseline, Double.NaN, tokensPerSecond, "");
        }
        Path dir = outputDir();
        List<Map<String, Object>> optimizerStates = new ArrayList<>();
        for (Optimizer o : optimizers) optimizerStates.add(o.stateDict().toPyTorch());
        new TrainingCheckpoint(
                        model.stateDict(),
                        optimizerStates,
                        endStep,
                        config,
                        corpus.vocab(),
                        opts.curveSettings(),
                        Torch.getRngState(),
                        data.getState(),
                        losses,
                        valLosses)
                .save(dir.resolve("checkpoint.pt"));
        Serialization.save(model.stateDict(), dir.resolve("model.pt"));
        Map<String, String> metadata = new LinkedHashMap<>();
        config.toMap().forEach((k, v) -> metadata.put(k, String.valueOf(v)));
        metadata.put("vocab", corpus.vocab());
        Safetensors.save(model.stateDict(), metadata, dir.resolve("model.safetensors"));
        LossPlot.write(dir.resolve("loss.png"), losses, valLosses, baseline);
        out.printf("wrote %s/{checkpoint.pt, model.pt, model.safetensors, loss.png}%n", dir);
        dp.barrier();

        // The held-out loss of the model as it is now: the last evaluation only if it was of this step.
        double finalVal = !valLosses.isEmpty() && valLosses.getLast()[0] == endStep
                ? valLosses.getLast()[1]
                : evaluate(model, corpus.valTokens());
        String which = endStep == opts.steps
                ? "final held-out loss"
                : String.format("held-out loss at step %d of %d (--resume continues)", endStep, opts.steps);
        out.printf(
                "%s %.4f nats/char vs unigram baseline %.4f (%.0f%% lower)%n",
                which, finalVal, baseline, 100 * (1 - finalVal / baseline));
        String sample = "";
        if (opts.sampleTokens > 0) {
            Generator sampler = new Generator().manualSeed(opts.seed + 2);
            Tensor prompt = corpus.encode("\n").view(1, 1);
            sample = corpus.decode(model.generate(prompt, opts.sampleTokens, opts.temperature, opts.topK, sampler)
                            .select(0, 0))
                    .substring(1);
            writeString(dir.resolve("sample.txt"), sample);
            out.printf("sample (temperature %.2f, top-k %d):%n%s%n", opts.temperature, opts.topK, sample);
        }
        return new Result(losses, valLosses, baseline, finalVal, tokensPerSecond, sample);
    }

    /**
     * The language-model loss: mean cross entropy of {@code hidden · weightᵀ} against {@code target}, through
     * {@code F.linearCrossEntropy}'s chunked path, which never materialises the [B·T, vocab] logits and hands back the
     * head's gradients from its single pass.
     */
    static Tensor lmLoss(Tensor hidden, Tensor weight, Tensor target) {
        return F.linearCrossEntropy(
                hidden.reshape(-1, hidden.size(-1)),
                weight,
                target.reshape(-1),
                Reduction.MEAN,
                LinearCrossEntropyOptions.defaults());
    }

    /** AdamW for everything, or Muon for the blocks' 2-D weights and AdamW for embeddings, head, norms. */
    private List<Optimizer> optimizers(Gpt model) {
        List<Tensor> matrices = new ArrayList<>(), embeddings = new ArrayList<>(), vectors = new ArrayList<>();
        model.namedParameters().forEach((name, p) -> {
            if (p.dim() < 2) vectors.add(p);
            else if (name.startsWith("transformer.h.")) matrices.add(p);
            else embeddings.add(p);
        });
        AdamW.Options adamw =
                AdamW.Options.defaults().lr(opts.lr).betas(0.9, 0.95).weightDecay(opts.weightDecay);
        // nanoGPT's grouping: weight decay on 2-D weights only, none on norms and biases.
        ParamGroup noDecay = ParamGroup.of(vectors, AdamW.Options.overrides().weightDecay(0.0));
        if (opts.optimizer.equals("muon")) {
            Muon muon = new Muon(
                    matrices,
                    Muon.Options.defaults()
                            .lr(opts.lr)
                            .weightDecay(opts.weightDecay)
                            .adjustLrFn(Muon.AdjustLrFn.MATCH_RMS_ADAMW));
            return List.of(muon, new AdamW(List.of(ParamGroup.of(embeddings), noDecay), adamw));
        }
        List<Tensor> decay = new ArrayList<>(embeddings);
        decay.addAll(matrices);
        return List.of(new AdamW(List.of(ParamGroup.of(decay), noDecay), adamw));
    }

    /**
     * The forward pass's autocast region under {@code --amp bf16} (matrix products and attention in bfloat16, the
     * parameters, residual stream and optimizer state in float32; bfloat16 has float32's range, so no loss scaling), or
     * null, which try-with-resources skips, so that a run without {@code --amp} has no mode on the dispatch path.
     */
    private Autocast autocast() {
        return opts.amp.equals("bf16") ? Amp.autocast(Device.CPU, DType.BFLOAT16) : null;
    }

    /** Mean loss over a fixed set of held-out windows (the same ones at every evaluation). */
    private double evaluate(Gpt model, Tensor split) {
        Generator fixed = new Generator().manualSeed(opts.seed + 3);
        double total = 0;
        model.eval();
        try (var _ = Torch.noGrad()) {
            for (int i = 0; i < opts.evalBatches; i++) {
                Tensor[] xy = CharCorpus.batch(split, opts.batch, model.config().blockSize(), fixed);
                try (var _ = autocast()) {
                    total += lmLoss(model.call(xy[0]), model.lmHeadWeight(), xy[1])
                            .item();
                }
            }
        } finally {
            model.train();
        }
        return total / opts.evalBatches;
    }

    private static double smoothed(List<Float> losses) {
        int n = Math.min(20, losses.size());
        double s = 0;
        for (int i = losses.size() - n; i < losses.size(); i++) s += losses.get(i);
        return s / n;
    }

    private Path outputDir() {
        try {
            return Files.createDirectories(opts.out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create output directory " + opts.out, e);
        }
    }

    private static void writeString(Path path, String s) {
        try {
            Files.writeString(path, s);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path, e);
        }
    }
}
