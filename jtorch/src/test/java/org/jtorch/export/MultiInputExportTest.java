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
import org.jtorch.testing.PyTorchPython;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Programs of several inputs (and outputs), both ways with PyTorch 2.13: JTorch's export of a transformer decoder layer
 * (target, memory) and a two-tower model (token ids, features → logits, score), with one dynamic batch shared by the
 * inputs, runs after save and load in a fresh JVM bitwise as eager and in PyTorch with JTorch's outputs; the same
 * architectures exported by PyTorch run in JTorch with PyTorch's outputs.
 */
class MultiInputExportTest {
    private static final long[] BATCHES = {1, 7, 64};

    /** Saves each tensor as {@code <prefix>_<k>.npy} and returns the comma-separated list of the files. */
    private static String saved(Path dir, String prefix, Tensor[] tensors) {
        List<String> files = new ArrayList<>();
        for (int k = 0; k < tensors.length; k++) {
            Path p = dir.resolve(prefix + "_" + k + ".npy");
            if (tensors[k] != null) Npy.save(tensors[k], p);
            files.add(p.toString());
        }
        return String.join(",", files);
    }

    @Test
    void theSignatureHasEveryInputAndOutputAndOneSharedSymbol() {
        MultiInputModels.Model m = MultiInputModels.model("two_tower");
        ExportedProgram ep = m.exportWithDynamicBatch(MultiInputModels.inputs("two_tower", 3, 1));
        assertEquals(List.of("args_0", "args_1"), ep.graphSignature().userInputs());
        long outputs = ep.graphSignature().outputSpecs().stream()
                .filter(s -> s.kind() == ExportGraphSignature.OutputKind.USER_OUTPUT)
                .count();
        assertEquals(2, outputs);
        assertEquals(Map.of("s0", new ValueRange(1, 1024)), ep.rangeConstraints());
    }

    @Test
    void aSavedProgramOfSeveralInputsRunsInAFreshJvmBitwiseAsInThisJvm(@TempDir Path dir) throws Exception {
        for (String name : MultiInputModels.NAMES) {
            MultiInputModels.Model m = MultiInputModels.model(name);
            Path archive = dir.resolve(name + ".pt2");
            ExportedProgram ep = m.exportWithDynamicBatch(MultiInputModels.inputs(name, 3, 1));
            Export.save(ep, archive);
            List<String> args = new ArrayList<>(List.of(archive.toString()));
            List<Tensor[]> expected = new ArrayList<>();
            for (long batch : BATCHES) {
                Tensor[] x = MultiInputModels.inputs(name, batch, batch);
                // the program in this JVM: eager may take fused kernels (attention) whose rounding differs from the
                // core-op decomposition the program records, as in PyTorch
                Tensor[] y = ep.module().run(x);
                Tensor[] eager = m.eager(x);
                for (int k = 0; k < y.length; k++) {
                    assertTrue(eager[k].sub(y[k]).abs().max().item() < 1e-4, name + " against eager, output " + k);
                }
                expected.add(y);
                args.add(saved(dir, name + "_in_" + batch, x));
                args.add(saved(dir, name + "_out_" + batch, new Tensor[y.length]));
            }
            Pt2Run.inFreshJvm(args);
            for (int i = 0; i < BATCHES.length; i++) {
                for (int k = 0; k < expected.get(i).length; k++) {
                    Tensor got = Npy.load(dir.resolve(name + "_out_" + BATCHES[i] + "_" + k + ".npy"));
                    String what = name + " batch " + BATCHES[i] + " output " + k;
                    assertArrayEquals(expected.get(i)[k].shape(), got.shape(), what);
                    assertArrayEquals(bits(expected.get(i)[k]), bits(got), what);
                }
            }
        }
    }

    @Test
    void pyTorchRunsJTorchsProgramsOfSeveralInputsWithJTorchsOutputs(@TempDir Path dir) throws Exception {
        PyTorchPython.require();
        for (String name : MultiInputModels.NAMES) {
            MultiInputModels.Model m = MultiInputModels.model(name);
            Path archive = dir.resolve(name + ".pt2");
            ExportedProgram ep = m.exportWithDynamicBatch(MultiInputModels.inputs(name, 3, 1));
            Export.save(ep, archive);
            List<String> args = new ArrayList<>(List.of(archive.toString()));
            List<Tensor[]> expected = new ArrayList<>();
            for (long batch : BATCHES) {
                Tensor[] x = MultiInputModels.inputs(name, batch, batch);
                // the program in this JVM: eager may take fused kernels (attention) whose rounding differs from the
                // core-op decomposition the program records, as in PyTorch
                Tensor[] y = ep.module().run(x);
                Tensor[] eager = m.eager(x);
                for (int k = 0; k < y.length; k++) {
                    assertTrue(eager[k].sub(y[k]).abs().max().item() < 1e-4, name + " against eager, output " + k);
                }
                expected.add(y);
                args.add(saved(dir, name + "_in_" + batch, x));
                args.add(saved(dir, name + "_py_" + batch, new Tensor[y.length]));
            }
            String log = PyTorchPython.run("jtorch/src/test/python/run_pt2.py", args);
            assertTrue(log.startsWith("2.13"), log);
            for (int i = 0; i < BATCHES.length; i++) {
                for (int k = 0; k < expected.get(i).length; k++) {
                    Tensor got = Npy.load(dir.resolve(name + "_py_" + BATCHES[i] + "_" + k + ".npy"));
                    Pt2Fixtures.assertClose(
                            expected.get(i)[k], got, name + " in PyTorch, batch " + BATCHES[i] + " output " + k);
                }
            }
        }
    }

    @Test
    void pyTorchsProgramsOfSeveralInputsRunInJTorchWithPyTorchsOutputs() {
        Map<String, Integer> outputs = Map.of("decoder", 1, "two_tower", 2);
        for (String name : MultiInputModels.NAMES) {
            ExportedProgram ep = Export.load(Pt2Fixtures.archive(name));
            assertEquals(2, ep.graphSignature().userInputs().size(), name);
            assertEquals(1, ep.rangeConstraints().size(), name + ": one batch symbol for both inputs");
            ExportedModule module = ep.module();
            for (long batch : Pt2Fixtures.BATCHES) {
                Tensor[] x = new Tensor[2];
                for (int k = 0; k < 2; k++) {
                    x[k] = Npy.load(Pt2Fixtures.DIR.resolve(name + "_input_" + batch + "_" + k + ".npy"));
                }
                Tensor[] y;
                try (var _ = GradMode.set(false)) {
                    y = module.run(x);
                }
                assertEquals(outputs.get(name), y.length, name);
                for (int k = 0; k < y.length; k++) {
                    Tensor want = Npy.load(Pt2Fixtures.DIR.resolve(name + "_output_" + batch + "_" + k + ".npy"));
                    Pt2Fixtures.assertClose(want, y[k], name + " batch " + batch + " output " + k);
                }
            }
        }
    }

    @Test
    void callsThatDoNotFitTheProgramAreRefusedWithWhatWasWrong() {
        MultiInputModels.Model m = MultiInputModels.model("two_tower");
        Tensor[] x = MultiInputModels.inputs("two_tower", 3, 1);
        TorchException oneTensor =
                assertThrows(TorchException.class, () -> Export.export(m.module(), ExportOptions.defaults(), x));
        assertTrue(
                oneTensor.getMessage().contains("export(module, forward, options, inputs...)"), oneTensor.getMessage());
        TorchException past = assertThrows(
                TorchException.class,
                () -> Export.export(
                        m.module(), m.forward(), ExportOptions.defaults().dynamicDim(2, 0, Dim.of("b", 1, 8)), x));
        assertTrue(past.getMessage().contains("the forward takes 2 inputs"), past.getMessage());
        ExportedModule module = m.exportWithDynamicBatch(x).module();
        TorchException tooFew = assertThrows(TorchException.class, () -> module.call(x[0]));
        assertTrue(tooFew.getMessage().contains("too few inputs"), tooFew.getMessage());
        Tensor[] mismatched = {x[0], MultiInputModels.inputs("two_tower", 4, 2)[1]};
        TorchException shared = assertThrows(TorchException.class, () -> module.run(mismatched));
        assertTrue(shared.getMessage().contains("*args[1].shape[0]"), shared.getMessage());
        org.jtorch.nn.Linear lin = new org.jtorch.nn.Linear(3, 2);
        ExportedModule twoOut = Export.export(
                        lin,
                        in -> new Tensor[] {lin.call(in[0]), lin.call(in[0]).sum()},
                        ExportOptions.defaults(),
                        org.jtorch.Torch.randn(2, 3))
                .module();
        TorchException twoOutputs = assertThrows(TorchException.class, () -> twoOut.call(org.jtorch.Torch.randn(2, 3)));
        assertTrue(twoOutputs.getMessage().contains("returns 2 outputs"), twoOutputs.getMessage());
        assertEquals(2, twoOut.run(org.jtorch.Torch.randn(2, 3)).length);
    }
}
