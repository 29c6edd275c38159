package org.jtorch.utils.data;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Index orders, worker seeds and splits against PyTorch 2.13 ({@code golden/data.json}, written by
 * {@code src/test/python/make_golden_data.py}): the same seed must give PyTorch's order epoch after epoch, which checks
 * which draws each epoch makes from the generator and in which order (the workers' base seed first, then the
 * permutations, the discarded one included).
 */
class DataGoldenTest {
    /** Item {@code i} is {@code [i, worker seed, worker id]} (-1, -1 outside a worker), as the script's dataset. */
    private static final class SeedReporting implements Dataset<Tensor> {
        private final int n;

        SeedReporting(int n) {
            this.n = n;
        }

        @Override
        public Tensor get(int index) {
            WorkerInfo info = Data.getWorkerInfo();
            return Torch.tensor(new long[] {index, info == null ? -1 : info.seed(), info == null ? -1 : info.id()});
        }

        @Override
        public int size() {
            return n;
        }
    }

    @TestFactory
    Stream<DynamicTest> pytorchOrders() throws IOException {
        List<Map<String, Object>> cases = cases();
        assertEquals(15, cases.size(), "fixture cases");
        return cases.stream().map(c -> DynamicTest.dynamicTest((String) c.get("id"), () -> check(c)));
    }

    private static void check(Map<String, Object> c) {
        switch ((String) c.get("kind")) {
            case "loader" -> checkLoader(c);
            case "random_sampler" -> {
                var ds = new SeedReporting(integer(c, "n"));
                var s = new RandomSampler(ds, (Boolean) c.get("replacement"), integer(c, "num_samples"), seeded(c));
                assertEquals(c.get("epochs"), List.of(longs(s), longs(s)));
            }
            case "weighted_sampler" -> {
                double[] w = ((List<?>) c.get("weights"))
                        .stream().mapToDouble(x -> ((Number) x).doubleValue()).toArray();
                var s = new WeightedRandomSampler(
                        Torch.tensor(w), integer(c, "num_samples"), (Boolean) c.get("replacement"), seeded(c));
                assertEquals(c.get("epochs"), List.of(longs(s), longs(s)));
            }
            case "subset_random_sampler" -> {
                int[] idx = ((List<?>) c.get("indices"))
                        .stream().mapToInt(x -> ((Number) x).intValue()).toArray();
                var s = new SubsetRandomSampler(idx, seeded(c));
                assertEquals(c.get("epochs"), List.of(longs(s), longs(s)));
            }
            case "batch_sampler" -> {
                var s = new BatchSampler(
                        new RandomSampler(new SeedReporting(integer(c, "n")), false, null, seeded(c)),
                        integer(c, "batch_size"),
                        (Boolean) c.get("drop_last"));
                assertEquals(c.get("epochs"), List.of(batches(s), batches(s)));
            }
            case "random_split" -> checkSplit(c);
            default -> throw new AssertionError("unknown kind " + c.get("kind"));
        }
    }

    private static void checkLoader(Map<String, Object> c) {
        boolean explicit = c.get("generator").equals("explicit");
        Generator g = explicit ? seeded(c) : null;
        if (!explicit) Torch.manualSeed(((Number) c.get("seed")).longValue());
        int workers = integer(c, "num_workers");
        var b = DataLoader.builder(new SeedReporting(integer(c, "n")))
                .batchSize(integer(c, "batch_size"))
                .dropLast((Boolean) c.get("drop_last"))
                .shuffle(true)
                .generator(g)
                .numWorkers(workers);
        if ((Boolean) c.get("persistent_workers")) b.persistentWorkers(true);
        List<Object> epochs = new ArrayList<>();
        List<Object> seeds = new ArrayList<>();
        try (DataLoader<Tensor> loader = b.build()) {
            int epochCount = ((List<?>) c.get("epochs")).size();
            for (int e = 0; e < epochCount; e++) {
                List<Object> batches = new ArrayList<>();
                TreeMap<Long, Long> workerSeeds = new TreeMap<>();
                for (Tensor batch : loader) {
                    long[] v = batch.toLongArray();
                    List<Long> indices = new ArrayList<>();
                    for (int i = 0; i < v.length; i += 3) {
                        indices.add(v[i]);
                        if (v[i + 2] >= 0) workerSeeds.put(v[i + 2], v[i + 1]);
                    }
                    batches.add(indices);
                }
                epochs.add(batches);
                seeds.add(new ArrayList<>(workerSeeds.values()));
            }
        }
        assertEquals(c.get("epochs"), epochs, "batches per epoch");
        if (workers > 0) assertEquals(c.get("worker_seeds"), seeds, "worker seeds per epoch");
    }

    private static void checkSplit(Map<String, Object> c) {
        var ds = new SeedReporting(integer(c, "n"));
        List<?> lengths = (List<?>) c.get("lengths");
        List<Subset<Tensor>> parts = lengths.getFirst() instanceof Long
                ? Data.randomSplit(
                        ds,
                        lengths.stream().mapToInt(x -> ((Number) x).intValue()).toArray(),
                        seeded(c))
                : Data.randomSplit(
                        ds,
                        lengths.stream()
                                .mapToDouble(x -> ((Number) x).doubleValue())
                                .toArray(),
                        seeded(c));
        List<Object> got = new ArrayList<>();
        for (Subset<Tensor> p : parts) {
            List<Long> idx = new ArrayList<>();
            for (int i : p.indices()) idx.add((long) i);
            got.add(idx);
        }
        assertEquals(c.get("splits"), got);
    }

    private static Generator seeded(Map<String, Object> c) {
        return new Generator().manualSeed(((Number) c.get("seed")).longValue());
    }

    private static int integer(Map<String, Object> c, String key) {
        return ((Number) c.get(key)).intValue();
    }

    private static List<Long> longs(Sampler<Integer> s) {
        List<Long> out = new ArrayList<>();
        for (int i : s) out.add((long) i);
        return out;
    }

    private static List<Object> batches(Sampler<List<Integer>> s) {
        List<Object> out = new ArrayList<>();
        for (List<Integer> b : s) out.add(b.stream().map(Integer::longValue).toList());
        return out;
    }

    @SuppressWarnings("unchecked") // the fixture's layout: {"cases": [object, ...]}
    private static List<Map<String, Object>> cases() {
        return (List<Map<String, Object>>) Golden.fixture("data.json").get("cases");
    }
}
