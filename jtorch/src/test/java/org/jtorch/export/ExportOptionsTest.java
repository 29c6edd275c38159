package org.jtorch.export;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.nn.Linear;
import org.jtorch.nn.Module;
import org.jtorch.nn.ReLU;
import org.jtorch.nn.Sequential;
import org.junit.jupiter.api.Test;

/** {@code export}'s options: dynamic dimensions and their ranges, {@code strict}, and how refusals read. */
class ExportOptionsTest {
    private static final ExportOptions DYNAMIC_BATCH =
            ExportOptions.defaults().dynamicDim(0, 0, Dim.of("batch", 1, 1024));

    @Test
    void aDynamicBatchPrintsSymbolicallyWithItsRange() {
        Torch.manualSeed(0);
        Module mlp = new Sequential(new Linear(4, 8), new ReLU(), new Linear(8, 10));
        ExportedProgram ep = Export.export(mlp, DYNAMIC_BATCH, Torch.randn(3, 4));
        assertEquals(Map.of("s0", new ValueRange(1, 1024)), ep.rangeConstraints());
        String printed = ep.toString();
        assertTrue(printed.contains("# s0 = input.size(0)"), printed);
        assertTrue(printed.contains("\"f32[s0, 10]\""), printed);
        assertTrue(printed.contains("Range constraints: {s0: VR[1, 1024]}"), printed);
        Module m = ep.module();
        for (long batch : new long[] {1, 2, 9}) {
            Tensor x = Torch.randn(batch, 4);
            assertArrayEquals(mlp.call(x).toDoubleArray(), m.call(x).toDoubleArray());
        }
        assertEquals("VR[2, int_oo]", new ValueRange(2, Long.MAX_VALUE).toString());
    }

    @Test
    void exampleSizesADynamicDimensionCannotTakeAreRefused() {
        Module mlp = new Sequential(new Linear(4, 2));
        TorchException one =
                assertThrows(TorchException.class, () -> Export.export(mlp, DYNAMIC_BATCH, Torch.randn(1, 4)));
        assertTrue(
                one.getMessage().contains("Constraints violated (batch)")
                        && one.getMessage().contains("at least 2"),
                one.getMessage());
        ExportOptions small = ExportOptions.defaults().dynamicDim(0, 0, Dim.of("batch", 2, 4));
        TorchException outside = assertThrows(TorchException.class, () -> Export.export(mlp, small, Torch.randn(5, 4)));
        assertTrue(outside.getMessage().contains("outside batch's range VR[2, 4]"), outside.getMessage());
        ExportOptions noSuchDim = ExportOptions.defaults().dynamicDim(0, 2, Dim.of("d", 2, 9));
        TorchException rank =
                assertThrows(TorchException.class, () -> Export.export(mlp, noSuchDim, Torch.randn(3, 4)));
        assertTrue(rank.getMessage().contains("the input has 2 dimensions"), rank.getMessage());
    }

    @Test
    void aForwardThatBranchesOnADynamicSizeInJavaIsAConstraintViolation() {
        Module branching = new Module() {
            @Override
            public Tensor forward(Tensor x) {
                return x.size(0) > 4 ? x.mul(2.0) : x.neg();
            }
        };
        TorchException e =
                assertThrows(TorchException.class, () -> Export.export(branching, DYNAMIC_BATCH, Torch.randn(3, 4)));
        assertTrue(e.getMessage().contains("Constraints violated (batch)"), e.getMessage());
        assertTrue(e.getMessage().contains("the graph changes"), e.getMessage());
    }

    @Test
    void strictRefusesAForwardThatDependsOnJavaState() {
        Module counting = new Module() {
            private int calls;

            @Override
            public Tensor forward(Tensor x) {
                return x.add(calls++);
            }
        };
        TorchException e = assertThrows(
                TorchException.class,
                () -> Export.export(counting, ExportOptions.defaults().strict(true), Torch.randn(2)));
        assertTrue(e.getMessage().contains("strict=True") && e.getMessage().contains("Java state"), e.getMessage());
        Export.export(counting, ExportOptions.defaults(), Torch.randn(2)); // non-strict trusts the forward
    }

    @Test
    void aDataDependentBranchIsRefusedWithTheJavaStack() {
        Module m = new Module() {
            @Override
            public Tensor forward(Tensor input) {
                return decide(input);
            }

            private Tensor decide(Tensor input) {
                return input.sum().item() > 0 ? input : input.neg();
            }
        };
        TorchException e = assertThrows(TorchException.class, () -> Export.export(m, DYNAMIC_BATCH, Torch.ones(3)));
        assertTrue(
                e.getMessage().contains("reads a tensor's data into Java")
                        && e.getMessage().contains("item"),
                e.getMessage());
        assertTrue(e.getMessage().contains("Java stack:"), e.getMessage());
        assertTrue(e.getMessage().contains("decide(ExportOptionsTest.java"), e.getMessage());
        assertTrue(e.getMessage().contains("forward(ExportOptionsTest.java"), e.getMessage());
    }
}
