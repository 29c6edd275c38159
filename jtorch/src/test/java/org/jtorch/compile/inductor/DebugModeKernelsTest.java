package org.jtorch.compile.inductor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.compile.Compile;
import org.jtorch.compile.CompileOptions;
import org.jtorch.compile.inductor.codegen.KernelCompiler;
import org.jtorch.debug.DebugMode;
import org.jtorch.debug.DebugRecord;
import org.jtorch.debug.HashFn;
import org.jtorch.debug.TensorHash;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A compiled graph under DebugMode: each generated kernel's launch is a {@code [java]} line whose output hash is the
 * one DebugMode gives the eager op computing the same values (the independent reference: eager code, whose ops the
 * kernel computes bit for bit here), and extern calls are logged as ops between the kernels.
 */
class DebugModeKernelsTest {
    @BeforeEach
    void reset() {
        Compile.reset();
        // a kernel class is named after the first kernel of its structure: start from none loaded
        KernelCompiler.clearCache();
    }

    private static List<DebugRecord> kernels(DebugMode dm) {
        return dm.records().stream().filter(r -> r.op().startsWith("[java] ")).toList();
    }

    @Test
    void aPointwiseChainsKernelHashesItsOutputAsEagerDoes() {
        Torch.manualSeed(21);
        Tensor x = Torch.randn(8, 8);
        // multiplications and additions round the same in a fused loop as op by op
        Function<Tensor, Tensor> f = t -> t.mul(2).add(1).relu();
        Function<Tensor, Tensor> compiled = Torch.compile(f, CompileOptions.defaults());
        compiled.apply(x); // compiled outside the modes: only the run is logged
        TensorHash eagerHash;
        try (DebugMode dm = DebugMode.open(true)) {
            f.apply(x);
            List<DebugRecord> ops = dm.records();
            assertEquals("aten::relu", ops.getLast().op());
            eagerHash = ops.getLast().outputs().getFirst().hash();
        }
        try (DebugMode dm = DebugMode.open(true)) {
            compiled.apply(x);
            List<DebugRecord> launches = kernels(dm);
            assertEquals(1, launches.size(), dm.log());
            DebugRecord k = launches.getFirst();
            assertTrue(k.op().startsWith("[java] K_relu_"), k.op());
            assertEquals("in_ptr0=t: f32[8, 8], out_ptr0=t: f32[8, 8]", k.args());
            assertNotNull(eagerHash);
            assertEquals(eagerHash, k.outputs().getFirst().hash());
            assertEquals(TensorHash.of(x, HashFn.BITS), k.inputs().getFirst().hash());
            assertTrue(dm.log().contains("post-kernel hashes: {out_ptr0: " + eagerHash + "}"), dm.log());
        }
    }

    @Test
    void externCallsAppearAsOpsBetweenTheKernels() {
        Torch.manualSeed(22);
        Tensor x = Torch.randn(4, 6), w = Torch.randn(6, 5);
        Function<Tensor, Tensor> compiled =
                Torch.compile((Function<Tensor, Tensor>) t -> t.mul(2).mm(w).relu(), CompileOptions.defaults());
        compiled.apply(x);
        try (DebugMode dm = DebugMode.open(false)) {
            compiled.apply(x);
            List<String> seen = dm.records().stream()
                    .map(DebugRecord::op)
                    .filter(op -> op.startsWith("[java] ") || op.equals("aten::mm"))
                    .map(op -> op.startsWith("[java] ") ? op.substring(0, op.indexOf('_') + 1) : op)
                    .toList();
            assertEquals(List.of("[java] K_", "aten::mm", "[java] K_"), seen, dm.log());
            assertTrue(dm.log().contains("[java] K_mul_"), dm.log());
            assertTrue(dm.log().contains("[java] K_relu_"), dm.log());
        }
    }
}
