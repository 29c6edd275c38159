package org.jtorch.export;

import static org.jtorch.testing.Bits.bits;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.export.ExportGraphSignature.InputKind;
import org.jtorch.export.ExportGraphSignature.OutputKind;
import org.jtorch.fx.Decompositions;
import org.jtorch.fx.Node;
import org.jtorch.library.CustomOp;
import org.jtorch.library.Library;
import org.jtorch.nn.BatchNorm1d;
import org.jtorch.nn.Linear;
import org.jtorch.nn.Module;
import org.jtorch.nn.ReLU;
import org.jtorch.nn.Sequential;
import org.jtorch.nn.SiLU;
import org.junit.jupiter.api.Test;

/** {@code torch.export.export}: the program's graph, signature and state, and its module against eager. */
class ExportTest {

    @Test
    void anMlpExportsWithPyTorchsSignatureAndRunsBitwise() {
        Torch.manualSeed(0);
        Module mlp = new Sequential(new Linear(4, 8), new ReLU(), new Linear(8, 2));
        Tensor x = Torch.randn(3, 4);
        ExportedProgram ep = Export.export(mlp, x);
        List<ExportGraphSignature.InputSpec> in = ep.graphSignature().inputSpecs();
        assertEquals(
                List.of("p_0_weight", "p_0_bias", "p_2_weight", "p_2_bias", "input"),
                in.stream().map(ExportGraphSignature.InputSpec::name).toList());
        assertEquals(InputKind.PARAMETER, in.get(0).kind());
        assertEquals("0.weight", in.get(0).target());
        assertEquals(InputKind.USER_INPUT, in.get(4).kind());
        assertEquals(
                OutputKind.USER_OUTPUT,
                ep.graphSignature().outputSpecs().getFirst().kind());
        assertEquals(mlp.stateDict().keySet(), ep.stateDict().keySet());
        Module m = ep.module();
        assertEquals(mlp.stateDict().keySet(), m.stateDict().keySet());
        assertArrayEquals(bits(mlp.call(x)), bits(m.call(x)));
        Tensor other = Torch.randn(3, 4);
        assertArrayEquals(bits(mlp.call(other)), bits(m.call(other)));
        assertTrue(ep.toString().contains("p_0_weight: PARAMETER target='0.weight'"), ep.toString());
    }

    @Test
    void batchNormRunningStatisticsAreBufferMutationsThatModuleWritesBack() {
        Torch.manualSeed(1);
        Module eager = new Sequential(new Linear(3, 4), new BatchNorm1d(4));
        Module twin = new Sequential(new Linear(3, 4), new BatchNorm1d(4));
        twin.loadStateDict(eager.stateDict());
        Tensor x = Torch.randn(5, 3);
        ExportedProgram ep = Export.export(twin, x);
        assertEquals(
                List.of("1.running_mean", "1.running_var", "1.num_batches_tracked"),
                ep.graphSignature().buffersToMutate());
        List<ExportGraphSignature.OutputSpec> out = ep.graphSignature().outputSpecs();
        assertEquals(OutputKind.BUFFER_MUTATION, out.get(0).kind());
        assertEquals(OutputKind.USER_OUTPUT, out.getLast().kind());
        Module m = ep.module();
        Tensor expected = eager.call(x);
        assertArrayEquals(bits(expected), bits(m.call(x)));
        for (String buffer : List.of("1.running_mean", "1.running_var", "1.num_batches_tracked")) {
            assertArrayEquals(bits(eager.getBuffer(buffer)), bits(m.getBuffer(buffer)), buffer);
        }
    }

    @Test
    void runDecompositionsLeavesOnlyCoreOps() {
        Torch.manualSeed(2);
        Module net = new Sequential(new Linear(4, 4), new SiLU());
        Tensor x = Torch.randn(2, 4);
        ExportedProgram ep = Export.export(net, x);
        assertTrue(ep.graphModule().graph().nodes().stream()
                .anyMatch(n -> n.target().equals("aten.silu.default")));
        ExportedProgram core = ep.runDecompositions();
        for (Node n : core.graphModule().graph().nodes()) {
            if (n.op().equals("call_function") && !n.target().equals(Node.GETITEM)) {
                assertTrue(Decompositions.isCore(n.target()), n.target());
            }
        }
        assertEquals(ep.graphSignature().inputSpecs(), core.graphSignature().inputSpecs());
        Tensor sigmoidTimesX = net.call(x);
        assertArrayEquals(sigmoidTimesX.toDoubleArray(), core.module().call(x).toDoubleArray(), 1e-6);
    }

    @Test
    void aCustomOpExportsByItsFakeAndRuns() {
        CustomOp twice = Library.customOp("exporttest::twice", "(Tensor x) -> Tensor", a -> ((Tensor) a[0]).mul(2.0))
                .registerFake(a -> Torch.emptyLike((Tensor) a[0]));
        Module m = new Module() {
            @Override
            public Tensor forward(Tensor input) {
                return ((Tensor) twice.call(input)).add(1.0);
            }
        };
        Tensor x = Torch.tensor(new double[] {1, 2, 3});
        ExportedProgram ep = Export.export(m, x);
        assertTrue(
                ep.graphModule().graph().nodes().stream()
                        .anyMatch(n -> n.target().equals("exporttest.twice.default")),
                ep.toString());
        assertArrayEquals(new double[] {3, 5, 7}, ep.module().call(x).toDoubleArray());
    }

    @Test
    void readingDataIntoJavaIsRefusedNamingTheReadAndTheCallSite() {
        Module m = new Module() {
            @Override
            public Tensor forward(Tensor input) {
                return input.sum().item() > 0 ? input : input.neg();
            }
        };
        TorchException e = assertThrows(TorchException.class, () -> Export.export(m, Torch.ones(2)));
        assertTrue(e.getMessage().contains("item"), e.getMessage());
        assertTrue(e.getMessage().contains("ExportTest"), e.getMessage());
    }
}
