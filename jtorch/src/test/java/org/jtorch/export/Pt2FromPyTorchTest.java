package org.jtorch.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.jtorch.Tensor;
import org.jtorch.autograd.GradMode;
import org.jtorch.nn.Module;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code .pt2} archives PyTorch 2.13 wrote load and run in JTorch with PyTorch's outputs. */
class Pt2FromPyTorchTest {
    @Test
    void theFourModelsRunWithPyTorchsOutputsAtEveryBatchSize() {
        for (String model : Pt2Fixtures.MODELS) {
            ExportedProgram ep = Export.load(Pt2Fixtures.archive(model));
            assertEquals(1, ep.rangeConstraints().size(), model + ": " + ep.rangeConstraints());
            Module m = ep.module();
            for (long batch : Pt2Fixtures.BATCHES) {
                try (var _ = GradMode.set(false)) {
                    Tensor y = m.call(Pt2Fixtures.input(model, batch));
                    Pt2Fixtures.assertClose(Pt2Fixtures.output(model, batch), y, model + " batch " + batch);
                }
            }
        }
    }

    @Test
    void aLoadedProgramSavedAgainByJTorchRunsTheSame(@TempDir Path dir) {
        for (String model : Pt2Fixtures.MODELS) {
            Path again = dir.resolve(model + ".pt2");
            Export.save(Export.load(Pt2Fixtures.archive(model)), again);
            Module m = Export.load(again).module();
            for (long batch : Pt2Fixtures.BATCHES) {
                try (var _ = GradMode.set(false)) {
                    Pt2Fixtures.assertClose(
                            Pt2Fixtures.output(model, batch),
                            m.call(Pt2Fixtures.input(model, batch)),
                            model + " saved again, batch " + batch);
                }
            }
        }
    }

    @Test
    void decomposingALoadedDynamicProgramKeepsItDynamic() {
        ExportedProgram ep = Export.load(Pt2Fixtures.archive("cnn")).runDecompositions();
        assertTrue(
                ep.graphModule().graph().nodes().stream()
                        .noneMatch(n -> n.target().equals("aten.conv2d.default")),
                ep.toString());
        assertEquals(1, ep.rangeConstraints().size());
        for (long batch : Pt2Fixtures.BATCHES) {
            try (var _ = GradMode.set(false)) {
                Pt2Fixtures.assertClose(
                        Pt2Fixtures.output("cnn", batch),
                        ep.module().call(Pt2Fixtures.input("cnn", batch)),
                        "decomposed cnn, batch " + batch);
            }
        }
    }

    @Test
    void theLayoutBeforePyTorch28Loads() {
        ExportedProgram ep = Export.load(Pt2Fixtures.DIR.resolve("mlp_legacy.pt2"));
        for (long batch : Pt2Fixtures.BATCHES) {
            Pt2Fixtures.assertClose(
                    Pt2Fixtures.output("mlp", batch), ep.module().call(Pt2Fixtures.input("mlp", batch)), "legacy");
        }
    }
}
