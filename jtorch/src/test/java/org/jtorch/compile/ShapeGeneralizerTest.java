package org.jtorch.compile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.fx.GraphModule;
import org.jtorch.fx.SymInt;
import org.jtorch.fx.TensorMeta;
import org.junit.jupiter.api.Test;

/** The symbols {@link ShapeGeneralizer} recovers from traces at moved sizes, checked against closed forms. */
class ShapeGeneralizerTest {
    /** Traces {@code fn} on one contiguous float32 input of {@code shape}, its sizes given by the symbol values. */
    private static ShapeGeneralizer.Sampler sampler(Function<Tensor[], Tensor[]> fn, long[] shape, int[] symbolOf) {
        return values -> {
            long[] s = shape.clone();
            for (int d = 0; d < s.length; d++) if (symbolOf[d] >= 0) s[d] = values[symbolOf[d]];
            long[] stride = new long[s.length];
            for (int d = s.length - 1, acc = 1; d >= 0; d--) {
                stride[d] = acc;
                acc *= (int) s[d];
            }
            TensorMeta meta = new TensorMeta(s, stride, DType.FLOAT32, Device.CPU, false);
            return Capture.inFakeMode(fake -> {
                Capture.Result r = Capture.run(fn, List.of(meta), fake, Map.of());
                return new ShapeGeneralizer.Lowered(List.of(r.graph()), r.lifted());
            });
        };
    }

    @Test
    void productsAndOffsetsOfSizesBecomePolynomials() {
        Function<Tensor[], Tensor[]> fn = in -> {
            Tensor x = in[0];
            long b = x.size(0), t = x.size(1);
            return new Tensor[] {
                x.reshape(b * t * 2).slice(0, 1L, b * t * 2 - 1, 1).add(1.0)
            };
        };
        ShapeGeneralizer.Outcome o = ShapeGeneralizer.generalize(
                new long[] {4, 5}, List.of(2L), sampler(fn, new long[] {4, 5, 2}, new int[] {0, 1, -1}));
        assertEquals(List.of(0, 1), o.symbolic());
        GraphModule gm = o.lowered().graphs().getFirst();
        String printed = gm.printReadable();
        assertTrue(printed.contains("# s0 = arg0_1.size(0)"), printed);
        assertTrue(printed.contains("# s1 = arg0_1.size(1)"), printed);
        assertTrue(printed.contains("[2*s0*s1]"), printed);
        assertTrue(printed.contains("2*s0*s1 - 1"), printed);
        assertTrue(printed.contains("\"f32[2*s0*s1 - 2]\""), printed);
        // the graph runs at sizes it was never traced at, with eager's result
        Tensor x = Torch.randn(7, 3, 2);
        assertArrayEquals(fn.apply(new Tensor[] {x})[0].toFloatArray(), gm.call(x)[0].toFloatArray());
    }

    @Test
    void aSizeTheJavaCodeBranchesOnIsSpecialized() {
        Function<Tensor[], Tensor[]> fn = in -> new Tensor[] {in[0].size(1) > 4 ? in[0].sum(1) : in[0].mean(1)};
        ShapeGeneralizer.Outcome o = ShapeGeneralizer.generalize(
                new long[] {3, 5}, List.of(), sampler(fn, new long[] {3, 5}, new int[] {0, 1}));
        assertEquals(List.of(0), o.symbolic());
        assertTrue(o.note().contains("s1 specialized to 5"), o.note());
    }

    @Test
    void symIntEvaluatesAndPrintsAsSympyDoes() {
        SymInt p = SymInt.of(Map.of(0b11L, 1L, 0b01L, 2L, 0L, -1L));
        assertEquals("s0*s1 + 2*s0 - 1", p.toString());
        assertEquals(6 * 7 + 12 - 1, p.eval(new long[] {6, 7}));
        assertEquals("s1*s2 + 2*s1 - 1", p.renumbered(new int[] {1, 2}).toString());
    }
}
