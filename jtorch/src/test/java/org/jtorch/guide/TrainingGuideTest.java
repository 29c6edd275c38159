package org.jtorch.guide;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.amp.Amp;
import org.jtorch.amp.GradScaler;
import org.jtorch.nn.BatchNorm1d;
import org.jtorch.nn.Linear;
import org.jtorch.nn.ReLU;
import org.jtorch.nn.Sequential;
import org.jtorch.nn.functional.F;
import org.jtorch.nn.utils.Parametrizations;
import org.jtorch.nn.utils.Parametrize;
import org.jtorch.nn.utils.prune.L1Unstructured;
import org.jtorch.nn.utils.prune.Prune;
import org.jtorch.optim.AdamW;
import org.jtorch.optim.SGD;
import org.jtorch.optim.swa.AveragedModel;
import org.jtorch.optim.swa.SWALR;
import org.jtorch.optim.swa.SwaUtils;
import org.jtorch.utils.data.Data;
import org.jtorch.utils.data.DataLoader;
import org.jtorch.utils.data.Subset;
import org.jtorch.utils.data.TensorDataset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The snippets of {@code docs/guide/training.md}, compiled and run: each lies between {@code // [snippet NAME]} and
 * {@code // [end]} below, and {@link #theGuideShowsExactlyTheseSnippets} checks that every Java block of the guide,
 * marked {@code <!-- snippet NAME -->}, is the same code, so the guide cannot drift from what runs.
 */
class TrainingGuideTest {
    private static final Path GUIDE = Path.of("../docs/guide/training.md");
    private static final Path SOURCE = Path.of("src/test/java/org/jtorch/guide/TrainingGuideTest.java");

    /** 256 points of y = 3 x0 - 2 x1 + 1 plus noise: the guide's data set. */
    private static TensorDataset regression() {
        Torch.manualSeed(0);
        Tensor x = Torch.randn(256, 2);
        Tensor y = x.matmul(Torch.tensor(new float[] {3, -2}))
                .add(1.0)
                .add(Torch.randn(256).mul(0.01));
        return new TensorDataset(x, y.unsqueeze(1));
    }

    @Test
    void dataLoading() {
        TensorDataset dataset = regression();
        // [snippet data]
        List<Subset<List<Tensor>>> parts =
                Data.randomSplit(dataset, new double[] {0.8, 0.2}, new Generator().manualSeed(42));
        Subset<List<Tensor>> train = parts.get(0), heldOut = parts.get(1);
        try (DataLoader<List<Tensor>> loader = DataLoader.builder(train)
                .batchSize(32)
                .shuffle(true)
                .dropLast(true) // 205 items: 6 batches of 32, the last 13 items are dropped
                .generator(new Generator().manualSeed(0)) // the same order as PyTorch with this seed
                .numWorkers(2) // worker threads; each gets the seed base_seed + id
                .build()) {
            for (int epoch = 0; epoch < 2; epoch++) {
                for (List<Tensor> batch : loader) {
                    Tensor x = batch.get(0), y = batch.get(1); // [32, 2] and [32, 1]: stacked by the default collate
                    assertEquals(32, x.size(0));
                }
            }
        }
        // [end]
        assertEquals(205, train.size());
        assertEquals(51, heldOut.size());
    }

    @Test
    void trainingLoopWithAccumulationAndCheckpoint(@TempDir Path dir) {
        TensorDataset dataset = regression();
        Path checkpointFile = dir.resolve("checkpoint.pt");
        // [snippet loop]
        Sequential model = new Sequential(new Linear(2, 32), new ReLU(), new Linear(32, 1));
        AdamW optimizer = new AdamW(model.parameters(), AdamW.Options.defaults().lr(1e-2));
        int accumulation = 2; // gradients of 2 batches of 32 make one step, as one batch of 64 would
        double firstLoss = Double.NaN, lastLoss = Double.NaN;
        try (var loader =
                DataLoader.builder(dataset).batchSize(32).shuffle(true).build()) {
            for (int epoch = 0; epoch < 30; epoch++) {
                int i = 0;
                for (List<Tensor> batch : loader) {
                    Tensor loss = F.mseLoss(model.call(batch.get(0)), batch.get(1));
                    loss.div(accumulation).backward(); // gradients add up in .grad()
                    if (++i % accumulation == 0) {
                        optimizer.step();
                        optimizer.zeroGrad();
                    }
                    if (Double.isNaN(firstLoss)) firstLoss = loss.item();
                    lastLoss = loss.item();
                }
            }
        }
        Map<String, Object> checkpoint = new LinkedHashMap<>();
        checkpoint.put("model", model.stateDict());
        checkpoint.put("optimizer", optimizer.stateDict());
        Torch.save(checkpoint, checkpointFile); // python: torch.load("checkpoint.pt") reads it
        // [end]
        assertTrue(lastLoss < 0.05 * firstLoss, firstLoss + " -> " + lastLoss);

        // [snippet resume]
        Map<?, ?> saved = (Map<?, ?>) Torch.load(checkpointFile); // weights-only, as torch.load by default
        Sequential restored = new Sequential(new Linear(2, 32), new ReLU(), new Linear(32, 1));
        AdamW restoredOptimizer =
                new AdamW(restored.parameters(), AdamW.Options.defaults().lr(1e-2));
        @SuppressWarnings("unchecked")
        Map<String, Tensor> weights = (Map<String, Tensor>) saved.get("model");
        restored.loadStateDict(weights);
        restoredOptimizer.loadStateDict((Map<?, ?>) saved.get("optimizer"));
        // [end]
        for (var e : model.stateDict().entrySet())
            assertArrayEquals(
                    e.getValue().toDoubleArray(),
                    restored.stateDict().get(e.getKey()).toDoubleArray());
        assertEquals(
                optimizer.stateDict().state().keySet(),
                restoredOptimizer.stateDict().state().keySet());

        Path weightsFile = dir.resolve("model.pt");
        // [snippet weights]
        Torch.save(model.stateDict(), weightsFile); // torch.save(model.state_dict(), "model.pt")
        Sequential fresh = new Sequential(new Linear(2, 32), new ReLU(), new Linear(32, 1));
        fresh.loadStateDict(weightsFile); // model.load_state_dict(torch.load("model.pt"))
        Map<String, Tensor> stateDict = Torch.loadStateDict(weightsFile); // typed: names to tensors
        // [end]
        assertEquals(model.stateDict().keySet(), stateDict.keySet());
        assertArrayEquals(
                model.getParameter("2.bias").toDoubleArray(),
                fresh.getParameter("2.bias").toDoubleArray());
    }

    @Test
    void convertingAfterTheOptimizerIsBuilt() {
        TensorDataset dataset = regression();
        List<Tensor> batch = dataset.get(0);
        // [snippet identity]
        Sequential model = new Sequential(new Linear(2, 8), new ReLU(), new Linear(8, 1));
        Tensor weight = model.getParameter("0.weight");
        AdamW optimizer = new AdamW(model.parameters(), AdamW.Options.defaults());
        model.to(DType.FLOAT64); // same Parameter objects, new data: the optimizer still updates the model
        F.mseLoss(
                        model.call(batch.get(0).to(DType.FLOAT64).unsqueeze(0)),
                        batch.get(1).to(DType.FLOAT64).unsqueeze(0))
                .backward();
        optimizer.step();
        // [end]
        assertSame(weight, model.getParameter("0.weight"));
        assertEquals(DType.FLOAT64, weight.dtype());
        assertEquals(DType.FLOAT64, ((Tensor) optimizer.state(weight).get("exp_avg")).dtype());
    }

    private static Sequential mlp() {
        return new Sequential(new Linear(2, 16), new BatchNorm1d(16), new ReLU(), new Linear(16, 1));
    }

    @Test
    void averagingWeights() {
        TensorDataset dataset = regression();
        // [snippet swa]
        Sequential model = mlp();
        SGD optimizer = new SGD(model.parameters(), SGD.Options.defaults().lr(0.05));
        AveragedModel swaModel = new AveragedModel(model, mlp()); // mlp(): a new module to hold the average
        AveragedModel emaModel = new AveragedModel(
                model,
                mlp(),
                AveragedModel.Options.defaults()
                        .multiAvgFn(SwaUtils.getEmaMultiAvgFn(0.99))
                        .useBuffers(true)); // batch-norm statistics are averaged too
        SWALR swaScheduler = new SWALR(optimizer, 0.01, 2, "cos"); // anneals lr to 0.01 over 2 epochs
        try (var loader =
                DataLoader.builder(dataset).batchSize(32).shuffle(true).build()) {
            for (int epoch = 0; epoch < 10; epoch++) {
                for (List<Tensor> batch : loader) {
                    optimizer.zeroGrad();
                    F.mseLoss(model.call(batch.get(0)), batch.get(1)).backward();
                    optimizer.step();
                    emaModel.updateParameters(model); // EMA: every step
                }
                if (epoch >= 5) { // SWA: the average of the last epochs' weights
                    swaModel.updateParameters(model);
                    swaScheduler.step();
                }
            }
            SwaUtils.updateBn(loader, swaModel); // one pass to recompute batch-norm statistics
        }
        swaModel.eval();
        Tensor prediction = swaModel.call(dataset.get(0).get(0).unsqueeze(0));
        // [end]
        assertEquals(5, (long) swaModel.nAveraged().item());
        assertEquals(80, (long) emaModel.nAveraged().item());
        assertArrayEquals(new long[] {1, 1}, prediction.shape());
        assertEquals(0.01, optimizer.paramGroups().get(0).lr(), 1e-12);
        assertEquals("n_averaged", swaModel.stateDict().keySet().iterator().next());
    }

    @Test
    void parametrizationsAndPruning() {
        // [snippet parametrize]
        Linear layer = new Linear(8, 4);
        Parametrizations.weightNorm(layer); // weight = g * v / ||v||, g and v trained
        List<String> keys = new ArrayList<>(layer.stateDict().keySet());
        // [bias, parametrizations.weight.original0, parametrizations.weight.original1], as PyTorch names them
        Tensor weight = layer.weight(); // computed from g and v on each read
        try (var _ = Parametrize.cached()) { // computed once in the scope: for weights read several times
            layer.call(Torch.randn(3, 8));
        }
        Parametrize.removeParametrizations(layer, "weight"); // a plain parameter again, with the current value

        Linear critic = new Linear(8, 1);
        Parametrizations.spectralNorm(critic); // weight / sigma_max(weight), power iteration while training
        // [end]
        assertEquals(List.of("bias", "parametrizations.weight.original0", "parametrizations.weight.original1"), keys);
        assertArrayEquals(weight.toDoubleArray(), layer.weight().toDoubleArray(), 1e-6);
        assertEquals(
                List.of(
                        "bias",
                        "parametrizations.weight.original",
                        "parametrizations.weight.0._u",
                        "parametrizations.weight.0._v"),
                new ArrayList<>(critic.stateDict().keySet()));

        Linear a = new Linear(8, 4), b = new Linear(4, 2);
        // [snippet prune]
        Prune.l1Unstructured(a, "weight", 0.5); // the half of the weights smallest in absolute value
        // a's state dict: bias, weight_orig, weight_mask; a.weight() is weight_orig * weight_mask
        Prune.lnStructured(b, "weight", 1L, 2, 0); // one whole row (output unit), by its L2 norm
        Prune.globalUnstructured( // 30% of both weights together, against one threshold
                List.of(new Prune.Target(a, "weight"), new Prune.Target(b, "weight")), () -> new L1Unstructured(0.3));
        Prune.remove(a, "weight"); // permanent: weight is a plain parameter holding the zeros
        // [end]
        assertEquals(List.of("bias", "weight"), new ArrayList<>(a.stateDict().keySet()));
        assertEquals(
                List.of("bias", "weight_orig", "weight_mask"),
                new ArrayList<>(b.stateDict().keySet()));
        long zeros = 0;
        for (double w : a.weight().toDoubleArray()) if (w == 0) zeros++;
        assertTrue(zeros >= 16, zeros + " pruned of 32");
    }

    @Test
    void mixedPrecisionWithAutocast() {
        TensorDataset dataset = regression();
        Tensor x = dataset.get(0).get(0).unsqueeze(0), y = dataset.get(0).get(1).unsqueeze(0);
        Sequential model = new Sequential(new Linear(2, 32), new ReLU(), new Linear(32, 1));
        AdamW optimizer = new AdamW(model.parameters(), AdamW.Options.defaults());
        // [snippet autocast]
        Tensor prediction, loss;
        try (var _ = Amp.autocast(Device.CPU, DType.BFLOAT16)) {
            prediction = model.call(x); // Linear runs in bfloat16: prediction is bfloat16
            loss = F.mseLoss(prediction, y); // losses run in float32: loss is float32
            try (var _ = Amp.autocast(Device.CPU, false)) {
                Tensor exact = model.call(x); // float32 again inside
            }
        }
        loss.backward(); // outside the region; the parameters' gradients are float32, like the parameters
        optimizer.step();
        // [end]
        assertEquals(DType.BFLOAT16, prediction.dtype());
        assertEquals(DType.FLOAT32, loss.dtype());
        assertEquals(DType.FLOAT32, model.getParameter("0.weight").grad().dtype());
    }

    @Test
    void lossScalingWithGradScaler() {
        TensorDataset dataset = regression();
        Tensor x = dataset.get(0).get(0).unsqueeze(0), y = dataset.get(0).get(1).unsqueeze(0);
        Sequential model = new Sequential(new Linear(2, 32), new ReLU(), new Linear(32, 1));
        AdamW optimizer = new AdamW(model.parameters(), AdamW.Options.defaults());
        // [snippet scaler]
        GradScaler scaler = new GradScaler(); // scale 65536, doubled every 2000 good steps, halved after an inf
        Tensor loss;
        try (var _ = Amp.autocast(Device.CPU, DType.FLOAT16)) {
            loss = F.mseLoss(model.call(x), y);
        }
        optimizer.zeroGrad();
        scaler.scale(loss).backward(); // gradients of loss × scale: small float16 gradients do not flush to zero
        scaler.unscale_(optimizer); // divide them back, e.g. before ClipGrad.clipGradNorm_
        scaler.step(optimizer); // skipped if a gradient is inf or NaN
        scaler.update(); // grow or back off the scale
        // [end]
        assertEquals(65536.0, scaler.getScale());
    }

    @Test
    void theGuideShowsExactlyTheseSnippets() throws IOException {
        Map<String, String> code = new LinkedHashMap<>();
        Matcher m = Pattern.compile("(?s)\\n([ \\t]*)// \\[snippet (\\w+)]\\n(.*?)\\n[ \\t]*// \\[end]")
                .matcher(Files.readString(SOURCE));
        while (m.find()) code.put(m.group(2), dedent(m.group(3), m.group(1).length()));
        Map<String, String> shown = new LinkedHashMap<>();
        Matcher g = Pattern.compile("(?s)<!-- snippet (\\w+) -->\\s*```java\\n(.*?)\\n```")
                .matcher(Files.readString(GUIDE));
        while (g.find()) shown.put(g.group(1), g.group(2));
        assertEquals(code.keySet(), shown.keySet(), "the guide shows every snippet, in order, and no other");
        for (String name : code.keySet()) assertEquals(code.get(name), shown.get(name), "snippet " + name);
        long javaBlocks = Pattern.compile("```java")
                .matcher(Files.readString(GUIDE))
                .results()
                .count();
        assertEquals(code.size(), javaBlocks, "every Java block of the guide is a compiled snippet");
    }

    private static String dedent(String block, int indent) {
        List<String> out = new ArrayList<>();
        for (String line : block.split("\n", -1))
            out.add(line.length() >= indent ? line.substring(indent) : line.strip());
        return String.join("\n", out);
    }
}
