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
import org.jtorch.nn.Linear;
import org.jtorch.nn.ReLU;
import org.jtorch.nn.Sequential;
import org.jtorch.nn.functional.F;
import org.jtorch.optim.AdamW;
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
