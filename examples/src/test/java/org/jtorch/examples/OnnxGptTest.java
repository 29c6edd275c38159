package org.jtorch.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.nio.LongBuffer;
import java.nio.file.Path;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.examples.gpt.Gpt;
import org.jtorch.examples.gpt.GptConfig;
import org.jtorch.onnx.Onnx;
import org.jtorch.onnx.OnnxOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TrainGpt's GPT (embeddings, pre-norm blocks with causal attention through scaled_dot_product_attention, GELU MLP,
 * final norm) exported to ONNX with a dynamic batch axis and run in ONNX Runtime for Java at batch sizes 1, 7 and 64:
 * max |onnx - jtorch| ≤ 1e-5 relative to the output's scale, for LayerNorm and RMSNorm models.
 */
class OnnxGptTest {
    @TempDir
    Path dir;

    @Test
    void layerNormGptRunsInOnnxRuntimeAtBatches1And7And64() throws OrtException {
        check("layernorm");
    }

    @Test
    void rmsNormGptRunsInOnnxRuntimeAtBatches1And7And64() throws OrtException {
        check("rmsnorm");
    }

    private void check(String norm) throws OrtException {
        Torch.manualSeed(11);
        Gpt gpt = new Gpt(new GptConfig(40, 32, 2, 4, 32, norm));
        gpt.eval();
        Path path = dir.resolve("gpt-" + norm + ".onnx");
        Onnx.export(
                gpt,
                new Tensor[] {Torch.randint(0, 40, new long[] {2, 12})},
                path,
                OnnxOptions.defaults().withDynamicAxis(0, 0, "batch"));
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        try (OrtSession session = env.createSession(path.toString(), new OrtSession.SessionOptions())) {
            for (long batch : new long[] {1, 7, 64}) {
                Tensor idx = Torch.randint(0, 40, new long[] {batch, 12});
                Tensor expected;
                try (var _ = Torch.noGrad()) {
                    expected = gpt.call(idx);
                }
                try (OnnxTensor in = OnnxTensor.createTensor(env, LongBuffer.wrap(idx.toLongArray()), idx.shape());
                        OrtSession.Result r = session.run(Map.of("input", in))) {
                    OnnxTensor out = (OnnxTensor) r.get(0);
                    assertArrayEquals(expected.shape(), out.getInfo().getShape());
                    float[] got = new float[(int) expected.numel()];
                    out.getFloatBuffer().get(got);
                    float[] want = expected.toFloatArray();
                    double err = 0, scale = 1;
                    for (int i = 0; i < got.length; i++) {
                        err = Math.max(err, Math.abs(got[i] - want[i]));
                        scale = Math.max(scale, Math.abs(want[i]));
                    }
                    assertTrue(err / scale <= 1e-5, norm + " batch " + batch + ": relative error " + err / scale);
                }
            }
        }
    }
}
