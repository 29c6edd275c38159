package org.jtorch.utils.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchTypeException;
import org.jtorch.Warnings;
import org.junit.jupiter.api.Test;

class DatasetsAndCollateTest {
    private record Range(int from, int to) implements Dataset<Integer> {
        @Override
        public Integer get(int index) {
            return from + index;
        }

        @Override
        public int size() {
            return to - from;
        }
    }

    /** A sample with tensor components: collates into a Sample of stacked tensors. */
    public record Sample(Tensor x, Object label) {}

    /** A sample whose label cannot hold a tensor. */
    public record Rigid(Tensor x, int label) {}

    @Test
    void concatDatasetIndexesAcrossParts() {
        var c = new ConcatDataset<Integer>(List.of(new Range(0, 3), new Range(100, 100), new Range(10, 12)));
        assertEquals(5, c.size());
        assertArrayEquals(new int[] {3, 3, 5}, c.cumulativeSizes());
        assertEquals(List.of(0, 1, 2, 10, 11), List.of(c.get(0), c.get(1), c.get(2), c.get(3), c.get(4)));
        assertEquals(11, c.get(-1));
        assertThrows(IndexOutOfBoundsException.class, () -> c.get(5));
        assertThrows(IllegalArgumentException.class, () -> c.get(-6));
    }

    @Test
    void subsetAndSplitsCoverTheDatasetOnce() {
        var parts = Data.randomSplit(new Range(0, 10), new int[] {3, 7}, new Generator().manualSeed(1));
        assertEquals(3, parts.get(0).size());
        boolean[] seen = new boolean[10];
        for (var p : parts) for (int i = 0; i < p.size(); i++) seen[p.get(i)] = true;
        for (boolean b : seen) assertTrue(b);
        assertEquals(
                "Sum of input lengths does not equal the length of the input dataset!",
                assertThrows(IllegalArgumentException.class, () -> Data.randomSplit(new Range(0, 10), new int[] {3}))
                        .getMessage());
        try (var w = Warnings.catchWarnings()) {
            var split = Data.randomSplit(new Range(0, 2), new double[] {0.5, 0.5, 0.0});
            assertEquals(0, split.get(2).size());
            assertEquals(
                    "Length of split at index 2 is 0. This might result in an empty dataset.",
                    w.records().getFirst().message());
        }
    }

    @Test
    void defaultCollateFollowsTheStructure() {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("x", Torch.tensor(new float[] {1, 2}));
        a.put("n", 3);
        a.put("w", 0.5);
        a.put("ok", true);
        a.put("name", "a");
        a.put("pair", List.of(1, Torch.tensor(new double[] {7})));
        Map<String, Object> b = new LinkedHashMap<>(a);
        b.put("x", Torch.tensor(new float[] {3, 4}));
        b.put("n", 4);
        b.put("w", 1.5);
        b.put("ok", false);
        b.put("name", "b");
        b.put("pair", List.of(2, Torch.tensor(new double[] {8})));
        var out = assertInstanceOf(Map.class, Data.defaultCollate(List.of(a, b)));
        Tensor x = (Tensor) out.get("x");
        assertArrayEquals(new long[] {2, 2}, x.shape());
        assertArrayEquals(new double[] {1, 2, 3, 4}, x.toDoubleArray());
        Tensor n = (Tensor) out.get("n");
        assertEquals(DType.INT64, n.dtype());
        assertArrayEquals(new long[] {3, 4}, n.toLongArray());
        assertEquals(DType.FLOAT64, ((Tensor) out.get("w")).dtype());
        assertEquals(DType.BOOL, ((Tensor) out.get("ok")).dtype());
        assertEquals(List.of("a", "b"), out.get("name"));
        List<?> pair = (List<?>) out.get("pair");
        assertArrayEquals(new long[] {1, 2}, ((Tensor) pair.get(0)).toLongArray());
        assertArrayEquals(new long[] {2, 1}, ((Tensor) pair.get(1)).shape());
    }

    @Test
    void recordsCollateIntoTheirOwnType() {
        var s = (Sample) Data.defaultCollate(
                List.of(new Sample(Torch.tensor(new float[] {1}), 5L), new Sample(Torch.tensor(new float[] {2}), 6L)));
        assertArrayEquals(new long[] {2, 1}, s.x().shape());
        assertArrayEquals(new long[] {5, 6}, ((Tensor) s.label()).toLongArray());
        var e = assertThrows(
                TorchTypeException.class,
                () -> Data.defaultCollate(List.of(
                        new Rigid(Torch.tensor(new float[] {1}), 1), new Rigid(Torch.tensor(new float[] {2}), 2))));
        assertTrue(e.getMessage().contains("component 'label' of record Rigid is declared int"), e.getMessage());
        assertEquals(
                "each element in list of batch should be of equal size",
                assertThrows(TorchTypeException.class, () -> Data.defaultCollate(List.of(List.of(1), List.of(1, 2))))
                        .getMessage());
    }

    @Test
    void samplersCheckTheirArguments() {
        assertEquals(
                "num_samples should be a positive integer value, but got num_samples=0",
                assertThrows(IllegalArgumentException.class, () -> new RandomSampler(new Range(0, 0)))
                        .getMessage());
        assertEquals(
                "weights should be a 1d sequence but given weights have shape (2, 2)",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> new WeightedRandomSampler(Torch.ones(2, 2), 3, true, null))
                        .getMessage());
        var s = new BatchSampler(new SequentialSampler(new Range(0, 7)), 3, false);
        assertEquals(3, s.size());
        assertEquals(2, new BatchSampler(new SequentialSampler(new Range(0, 7)), 3, true).size());
        assertEquals(List.of(List.of(0, 1, 2), List.of(3, 4, 5), List.of(6)), toList(s));
    }

    private static <T> List<T> toList(Iterable<T> it) {
        List<T> out = new java.util.ArrayList<>();
        it.forEach(out::add);
        return out;
    }
}
