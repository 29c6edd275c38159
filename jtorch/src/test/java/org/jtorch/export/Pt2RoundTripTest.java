package org.jtorch.export;

import static org.jtorch.testing.Bits.bits;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.autograd.GradMode;
import org.jtorch.io.Npy;
import org.jtorch.nn.Module;
import org.jtorch.testing.PyTorchPython;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * export → save → load in a fresh JVM → run gives bitwise eager's outputs, and one program exported with a dynamic
 * batch dimension serves batch sizes 1, 7 and 64; PyTorch 2.13 runs the same archives with JTorch's outputs.
 */
class Pt2RoundTripTest {
    private static final long[] BATCHES = {1, 7, 64};

    static ExportedProgram exportWithDynamicBatch(Module m, Tensor example) {
        return Export.export(m, ExportOptions.defaults().dynamicDim(0, 0, Dim.of("batch", 1, 1024)), example);
    }

    @Test
    void aSavedProgramRunsInAFreshJvmBitwiseAsInThisJvmAtBatch1And7And64(@TempDir Path dir) throws Exception {
        for (String name : Pt2Models.NAMES) {
            Module m = Pt2Models.model(name);
            ExportedProgram ep = exportWithDynamicBatch(m, Pt2Models.input(name, 3));
            assertEquals(Map.of("s0", new ValueRange(1, 1024)), ep.rangeConstraints(), name);
            Path archive = dir.resolve(name + ".pt2");
            Export.save(ep, archive);
            List<String> args = new ArrayList<>(List.of(archive.toString()));
            List<Tensor> expected = new ArrayList<>();
            for (long batch : BATCHES) {
                Tensor x = Pt2Models.input(name, batch);
                Path in = dir.resolve(name + "_in_" + batch + ".npy");
                Npy.save(x, in);
                args.add(in.toString());
                args.add(dir.resolve(name + "_out_" + batch + ".npy").toString());
                try (var _ = GradMode.set(false)) {
                    // the program in this JVM: eager may take fused kernels (attention) whose rounding differs
                    // from the core-op decomposition the program records, as in PyTorch
                    expected.add(ep.module().call(x));
                    assertTrue(m.call(x).sub(expected.getLast()).abs().max().item() < 1e-4, name + " against eager");
                }
            }
            Pt2Run.inFreshJvm(args);
            for (int i = 0; i < BATCHES.length; i++) {
                Tensor got = Npy.load(dir.resolve(name + "_out_" + BATCHES[i] + ".npy"));
                assertArrayEquals(expected.get(i).shape(), got.shape(), name + " batch " + BATCHES[i]);
                assertArrayEquals(bits(expected.get(i)), bits(got), name + " batch " + BATCHES[i]);
            }
        }
    }

    @Test
    void pyTorchRunsJTorchsArchivesWithJTorchsOutputs(@TempDir Path dir) throws Exception {
        PyTorchPython.require();
        for (String name : Pt2Models.NAMES) {
            Module m = Pt2Models.model(name);
            Path archive = dir.resolve(name + ".pt2");
            Export.save(exportWithDynamicBatch(m, Pt2Models.input(name, 3)), archive);
            List<String> args = new ArrayList<>(List.of(archive.toString()));
            List<Tensor> expected = new ArrayList<>();
            for (long batch : BATCHES) {
                Tensor x = Pt2Models.input(name, batch);
                Path in = dir.resolve(name + "_in_" + batch + ".npy");
                Npy.save(x, in);
                args.add(in.toString());
                args.add(dir.resolve(name + "_py_" + batch + ".npy").toString());
                try (var _ = GradMode.set(false)) {
                    expected.add(m.call(x));
                }
            }
            String log = PyTorchPython.run("jtorch/src/test/python/run_pt2.py", args);
            assertTrue(log.startsWith("2.13"), log);
            for (int i = 0; i < BATCHES.length; i++) {
                Tensor got = Npy.load(dir.resolve(name + "_py_" + BATCHES[i] + ".npy"));
                Pt2Fixtures.assertClose(expected.get(i), got, name + " in PyTorch, batch " + BATCHES[i]);
            }
        }
    }

    @Test
    void theModuleRefusesABatchOutsideTheRangeAndAWrongStaticSize(@TempDir Path dir) {
        Module m = Pt2Models.model("mlp");
        ExportedProgram ep = Export.export(
                m, ExportOptions.defaults().dynamicDim(0, 0, Dim.of("batch", 2, 16)), Pt2Models.input("mlp", 4));
        Path archive = dir.resolve("mlp.pt2");
        Export.save(ep, archive);
        Module loaded = Export.load(archive).module();
        TorchException tooBig = assertThrows(TorchException.class, () -> loaded.call(Pt2Models.input("mlp", 17)));
        assertTrue(tooBig.getMessage().contains("to be <= 16, but got 17"), tooBig.getMessage());
        TorchException wrong = assertThrows(TorchException.class, () -> loaded.call(org.jtorch.Torch.randn(4, 15)));
        assertTrue(
                wrong.getMessage().contains("Expected input at *args[0].shape[1] to be equal to 16, but got 15"),
                wrong.getMessage());
    }
}
