package org.jtorch.utils.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.jtorch.DType;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.TorchTypeException;
import org.junit.jupiter.api.Test;

class DataLoaderTest {
    /** Item i is the int64 scalar i, after a pseudo-random pause so that workers finish out of order. */
    private static final class Slow implements Dataset<Tensor> {
        final int n;
        final AtomicInteger reads = new AtomicInteger();

        Slow(int n) {
            this.n = n;
        }

        @Override
        public Tensor get(int index) {
            reads.incrementAndGet();
            try {
                Thread.sleep((index * 7) % 5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Torch.tensor(new long[] {index}).squeeze();
        }

        @Override
        public int size() {
            return n;
        }
    }

    private static Set<Thread> workerThreads() {
        Set<Thread> out = new java.util.HashSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet())
            if (t.getName().startsWith("DataLoader-") && t.isAlive()) out.add(t);
        return out;
    }

    @Test
    void workersKeepTheSamplersOrder() {
        for (int workers : new int[] {0, 1, 3}) {
            try (var loader = DataLoader.builder(new Slow(50))
                    .batchSize(4)
                    .numWorkers(workers)
                    .build()) {
                List<Long> seen = new ArrayList<>();
                List<Long> sizes = new ArrayList<>();
                for (Tensor b : loader) {
                    for (long v : b.toLongArray()) seen.add(v);
                    sizes.add(b.size(0));
                }
                assertEquals(LongList.range(50), seen, "workers=" + workers);
                assertEquals(13, sizes.size());
                assertEquals(2L, sizes.getLast(), "the last, partial batch");
                assertEquals(13, loader.size());
            }
        }
    }

    @Test
    void shuffledOrderIsTheSameWithAndWithoutWorkers() {
        List<List<Long>> orders = new ArrayList<>();
        for (int workers : new int[] {0, 2}) {
            try (var loader = DataLoader.builder(new Slow(30))
                    .batchSize(5)
                    .shuffle(true)
                    .generator(new Generator().manualSeed(11))
                    .numWorkers(workers)
                    .build()) {
                List<Long> seen = new ArrayList<>();
                for (int epoch = 0; epoch < 2; epoch++)
                    for (Tensor b : loader) for (long v : b.toLongArray()) seen.add(v);
                orders.add(seen);
            }
        }
        assertEquals(orders.get(0), orders.get(1));
        List<Long> firstEpoch = new ArrayList<>(orders.get(0).subList(0, 30));
        assertFalse(firstEpoch.equals(LongList.range(30)), "shuffled");
        Collections.sort(firstEpoch);
        assertEquals(LongList.range(30), firstEpoch, "a permutation");
    }

    @Test
    void workerExceptionReachesTheCallerWithTheWorkersStack() {
        Dataset<Tensor> failing = new Dataset<>() {
            @Override
            public Tensor get(int index) {
                if (index == 13) throw new IllegalStateException("bad record 13");
                return Torch.tensor(new long[] {index}).squeeze();
            }

            @Override
            public int size() {
                return 40;
            }
        };
        try (var loader = DataLoader.builder(failing).batchSize(2).numWorkers(2).build()) {
            List<Long> before = new ArrayList<>();
            TorchException e = assertThrows(TorchException.class, () -> {
                for (Tensor b : loader) for (long v : b.toLongArray()) before.add(v);
            });
            assertEquals(LongList.range(12), before, "the batches before the failing one arrive, in order");
            IllegalStateException cause = assertInstanceOf(IllegalStateException.class, e.getCause());
            assertEquals("bad record 13", cause.getMessage());
            assertTrue(e.getMessage().startsWith("Caught IllegalStateException in DataLoader worker "), e.getMessage());
            StackTraceElement top = cause.getStackTrace()[0];
            assertTrue(top.getMethodName().equals("get"), "the worker's stack: " + top);
            assertTrue(
                    List.of(cause.getStackTrace()).stream()
                            .anyMatch(f -> f.getClassName().endsWith("WorkerThreads")),
                    "raised on the worker thread");
            assertTrue(e.getMessage().contains("bad record 13"));
        }
    }

    @Test
    void closeStopsEveryWorkerThread() throws Exception {
        Set<Thread> before = workerThreads();
        var loader =
                DataLoader.builder(new Slow(100)).batchSize(2).numWorkers(3).build();
        Iterator<Tensor> it = loader.iterator();
        it.next(); // leave the loop early: the workers are running and prefetching
        Set<Thread> running = workerThreads();
        running.removeAll(before);
        assertEquals(3, running.size(), "three workers started");
        loader.close();
        for (Thread t : running) assertFalse(t.isAlive(), t.getName() + " still alive after close");
        assertThrows(IllegalStateException.class, loader::iterator);
    }

    @Test
    void persistentWorkersStayBetweenEpochsAndStopOnClose() {
        Set<Thread> before = workerThreads();
        Set<Thread> running;
        try (var loader = DataLoader.builder(new Slow(10))
                .batchSize(3)
                .numWorkers(2)
                .persistentWorkers(true)
                .build()) {
            for (Tensor b : loader) assertTrue(b.numel() > 0);
            running = workerThreads();
            running.removeAll(before);
            assertEquals(2, running.size());
            List<Long> seen = new ArrayList<>();
            for (Tensor b : loader) for (long v : b.toLongArray()) seen.add(v);
            assertEquals(LongList.range(10), seen);
            Set<Thread> again = workerThreads();
            again.removeAll(before);
            assertEquals(running, again, "the same threads serve the second epoch");
        }
        for (Thread t : running) assertFalse(t.isAlive());
    }

    @Test
    void nonPersistentWorkersEndWithTheEpoch() {
        Set<Thread> before = workerThreads();
        try (var loader =
                DataLoader.builder(new Slow(10)).batchSize(3).numWorkers(2).build()) {
            Set<Thread> seen = ConcurrentHashMap.newKeySet();
            for (Tensor b : loader) {
                assertTrue(b.numel() > 0);
                seen.addAll(workerThreads());
            }
            seen.removeAll(before);
            assertEquals(2, seen.size());
            for (Thread t : seen) assertFalse(t.isAlive(), "stopped at the end of the epoch");
        }
    }

    @Test
    void prefetchIsBounded() throws Exception {
        Slow ds = new Slow(200);
        try (var loader = DataLoader.builder(ds)
                .batchSize(1)
                .numWorkers(2)
                .prefetchFactor(3)
                .build()) {
            Iterator<Tensor> it = loader.iterator();
            it.next();
            // After one batch is taken, at most prefetch_factor * num_workers batches are in flight (+ the one taken).
            long deadline = System.nanoTime() + 2_000_000_000L;
            while (ds.reads.get() < 7 && System.nanoTime() < deadline) Thread.sleep(5);
            Thread.sleep(100);
            assertEquals(7, ds.reads.get());
        }
    }

    @Test
    void workersAreSeededAndInitialised() {
        Map<Integer, Long> initSeeds = new ConcurrentHashMap<>();
        Dataset<Tensor> draws = new Dataset<>() {
            @Override
            public Tensor get(int index) {
                WorkerInfo info = Data.getWorkerInfo();
                // A random op without a generator draws from the worker's generator, seeded base_seed + id.
                Tensor r = Torch.randint(0, 1 << 30, new long[] {1});
                return Torch.tensor(new long[] {info.id(), info.seed(), r.toLongArray()[0]});
            }

            @Override
            public int size() {
                return 2;
            }
        };
        try (var loader = DataLoader.builder(draws)
                .numWorkers(2)
                .generator(new Generator().manualSeed(5))
                .workerInitFn(id -> initSeeds.put(id, Data.getWorkerInfo().seed()))
                .build()) {
            List<long[]> rows = new ArrayList<>();
            for (Tensor b : loader) rows.add(b.toLongArray());
            long base =
                    RandomSampler.drawSeed(new Generator().manualSeed(5)); // checked against PyTorch by DataGoldenTest
            for (long[] row : rows) {
                int id = (int) row[0];
                assertEquals(base + id, row[1], "seed = base_seed + worker id");
                assertEquals(base + id, initSeeds.get(id), "workerInitFn sees the worker's info");
                long expected = Torch.randint(0, 1 << 30, new long[] {1}, new Generator().manualSeed(base + id))
                        .toLongArray()[0];
                assertEquals(expected, row[2], "drawn from a generator seeded base_seed + id");
            }
            assertEquals(2, rows.size());
        }
        assertNull(Data.getWorkerInfo(), "no worker info outside a worker");
    }

    @Test
    void workerInitFailureReachesTheCaller() {
        try (var loader = DataLoader.builder(new Slow(4))
                .numWorkers(1)
                .workerInitFn(id -> {
                    throw new IllegalArgumentException("no init for " + id);
                })
                .build()) {
            TorchException e =
                    assertThrows(TorchException.class, () -> loader.iterator().next());
            assertEquals("no init for 0", e.getCause().getMessage());
        }
    }

    /** An iterable dataset that shards 0..n-1 across workers by id, as PyTorch's documentation shows. */
    private static final class Range implements IterableDataset<Tensor> {
        final int n;

        Range(int n) {
            this.n = n;
        }

        @Override
        public Iterator<Tensor> iterator() {
            WorkerInfo info = Data.getWorkerInfo();
            int start = info == null ? 0 : info.id();
            int step = info == null ? 1 : info.numWorkers();
            return IntStream.iterate(start, i -> i < n, i -> i + step)
                    .mapToObj(i -> Torch.tensor(new long[] {i}).squeeze())
                    .iterator();
        }
    }

    @Test
    void iterableDatasetsBatchPerWorkerRoundRobin() {
        // PyTorch 2.13 with the same sharding gives [[0, 2, 4], [1, 3, 5], [6, 8], [7, 9]] for two workers.
        try (var loader =
                DataLoader.builder(new Range(10)).batchSize(3).numWorkers(2).build()) {
            List<List<Long>> batches = new ArrayList<>();
            for (Tensor b : loader) batches.add(LongList.of(b.toLongArray()));
            assertEquals(List.of(List.of(0L, 2L, 4L), List.of(1L, 3L, 5L), List.of(6L, 8L), List.of(7L, 9L)), batches);
        }
        try (var loader =
                DataLoader.builder(new Range(10)).batchSize(3).dropLast(true).build()) {
            List<List<Long>> batches = new ArrayList<>();
            for (Tensor b : loader) batches.add(LongList.of(b.toLongArray()));
            assertEquals(List.of(List.of(0L, 1L, 2L), List.of(3L, 4L, 5L), List.of(6L, 7L, 8L)), batches);
        }
    }

    @Test
    void tensorDatasetBatchesAreListsOfStackedTensors() {
        Tensor x = Torch.arange(12).view(6, 2).to(DType.FLOAT32);
        Tensor y = Torch.arange(6);
        try (var loader =
                DataLoader.builder(new TensorDataset(x, y)).batchSize(4).build()) {
            Iterator<List<Tensor>> it = loader.iterator();
            List<Tensor> first = it.next();
            assertArrayEquals(new long[] {4, 2}, first.get(0).shape());
            assertArrayEquals(
                    new double[] {0, 1, 2, 3, 4, 5, 6, 7}, first.get(0).toDoubleArray());
            assertEquals(DType.FLOAT32, first.get(0).dtype());
            assertArrayEquals(new long[] {0, 1, 2, 3}, first.get(1).toLongArray());
            assertArrayEquals(new long[] {4, 5}, it.next().get(1).toLongArray());
            assertFalse(it.hasNext());
        }
    }

    @Test
    void optionsAreCheckedAsPyTorchChecksThem() {
        var ds = new Slow(4);
        assertEquals(
                "num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> DataLoader.builder(ds).numWorkers(-1).build())
                        .getMessage());
        assertEquals(
                "persistent_workers option needs num_workers > 0",
                assertThrows(IllegalArgumentException.class, () -> DataLoader.builder(ds)
                                .persistentWorkers(true)
                                .build())
                        .getMessage());
        assertEquals(
                "sampler option is mutually exclusive with shuffle",
                assertThrows(IllegalArgumentException.class, () -> DataLoader.builder(ds)
                                .shuffle(true)
                                .sampler(new SequentialSampler(ds))
                                .build())
                        .getMessage());
        assertEquals(
                "batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and drop_last",
                assertThrows(IllegalArgumentException.class, () -> DataLoader.builder(ds)
                                .batchSize(2)
                                .batchSampler(new BatchSampler(new SequentialSampler(ds), 2, false))
                                .build())
                        .getMessage());
        assertEquals(
                "batch_size should be a positive integer value, but got batch_size=0",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> DataLoader.builder(ds).batchSize(0).build())
                        .getMessage());
        assertEquals(
                "DataLoader with IterableDataset: expected unspecified shuffle option, but got shuffle=True",
                assertThrows(IllegalArgumentException.class, () -> DataLoader.builder(new Range(3))
                                .shuffle(true)
                                .build())
                        .getMessage());
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> DataLoader.builder(ds).prefetchFactor(2).build())
                .getMessage()
                .startsWith("prefetch_factor option could only be specified in multiprocessing."));
    }

    @Test
    void batchSamplerAndCustomCollate() {
        var ds = new Slow(7);
        try (var loader = DataLoader.builder(ds)
                .batchSampler(new BatchSampler(new SequentialSampler(ds), 3, true))
                .collateFn(items -> items.size())
                .build()) {
            List<Integer> sizes = new ArrayList<>();
            for (int s : loader) sizes.add(s);
            assertEquals(List.of(3, 3), sizes);
        }
    }

    @Test
    void numbersNeedAnExplicitCollate() {
        Dataset<Integer> ints = new Dataset<>() {
            @Override
            public Integer get(int index) {
                return index * 10;
            }

            @Override
            public int size() {
                return 3;
            }
        };
        try (var loader = DataLoader.builder(ints).batchSize(3).build()) {
            assertThrows(TorchTypeException.class, () -> loader.iterator().next());
        }
        try (var loader = DataLoader.builder(ints)
                .batchSize(3)
                .collateFn(Data::defaultCollate)
                .build()) {
            Tensor t = (Tensor) loader.iterator().next();
            assertEquals(DType.INT64, t.dtype());
            assertArrayEquals(new long[] {0, 10, 20}, t.toLongArray());
        }
    }

    @Test
    void generatorIsUsedForTheBaseSeedFirst() {
        // PyTorch draws the workers' base seed from the generator before the permutation, even without workers:
        // after one epoch of 10 items the generator is three draws further (seed, randperm, discarded randperm).
        Generator g = new Generator().manualSeed(0);
        try (var loader = DataLoader.builder(new Slow(10))
                .batchSize(10)
                .shuffle(true)
                .generator(g)
                .build()) {
            long[] got = loader.iterator().next().toLongArray();
            Generator ref = new Generator().manualSeed(0);
            RandomSampler.drawSeed(ref);
            assertArrayEquals(Torch.randperm(10, ref).toLongArray(), got);
        }
    }

    /** Small helpers for lists of longs. */
    private static final class LongList {
        static List<Long> range(int n) {
            List<Long> out = new ArrayList<>();
            for (long i = 0; i < n; i++) out.add(i);
            return out;
        }

        static List<Long> of(long[] values) {
            List<Long> out = new ArrayList<>();
            for (long v : values) out.add(v);
            return out;
        }
    }
}
