package org.jtorch.onnx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.Module;

/**
 * Runs an exported model in ONNX Runtime for Java, the independent reference, and compares its output with the module's
 * own: max |onnx - jtorch| ≤ 1e-5 relative to the output's scale (max |jtorch|, at least 1).
 */
final class OnnxRuntimeCheck {
    static final double TOLERANCE = 1e-5;

    private OnnxRuntimeCheck() {}

    /** The largest error of the model at {@code path} over the inputs, each checked against {@code module}. */
    static double maxRelativeError(Path path, Module module, Tensor... inputs) throws OrtException {
        double worst = 0;
        for (Tensor input : inputs) {
            Tensor expected;
            try (var _ = Torch.noGrad()) {
                expected = module.call(input);
            }
            worst = Math.max(worst, maxRelativeError(path, new Tensor[] {input}, new Tensor[] {expected}));
        }
        return worst;
    }

    /**
     * The largest error of the model at {@code path} run on {@code inputs} (one per model input, in order) against
     * {@code expected} (one per model output, in order): models of several inputs and outputs.
     */
    static double maxRelativeError(Path path, Tensor[] inputs, Tensor[] expected) throws OrtException {
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        try (OrtSession session = env.createSession(path.toString(), new OrtSession.SessionOptions())) {
            List<String> names = List.copyOf(session.getInputNames());
            assertEquals(inputs.length, names.size(), "the model's inputs");
            Map<String, OnnxTensor> feed = new LinkedHashMap<>();
            try {
                for (int i = 0; i < inputs.length; i++) feed.put(names.get(i), toOrt(env, inputs[i]));
                try (OrtSession.Result result = session.run(feed)) {
                    assertEquals(expected.length, result.size(), "the model's outputs");
                    double worst = 0;
                    for (int k = 0; k < expected.length; k++) {
                        OnnxTensor out = (OnnxTensor) result.get(k);
                        assertArrayEquals(expected[k].shape(), out.getInfo().getShape(), "output " + k + " shape");
                        float[] got = new float[(int) expected[k].numel()];
                        out.getFloatBuffer().get(got);
                        float[] want = expected[k].contiguous().toFloatArray();
                        double err = 0, scale = 1;
                        for (int i = 0; i < got.length; i++) {
                            err = Math.max(err, Math.abs(got[i] - want[i]));
                            scale = Math.max(scale, Math.abs(want[i]));
                            assertTrue(Float.isFinite(got[i]), "ONNX Runtime's output is finite");
                        }
                        worst = Math.max(worst, err / scale);
                    }
                    return worst;
                }
            } finally {
                for (OnnxTensor t : feed.values()) t.close();
            }
        }
    }

    static OnnxTensor toOrt(OrtEnvironment env, Tensor t) throws OrtException {
        Tensor c = t.contiguous();
        if (c.dtype() == DType.INT64) return OnnxTensor.createTensor(env, LongBuffer.wrap(c.toLongArray()), c.shape());
        return OnnxTensor.createTensor(env, FloatBuffer.wrap(c.toFloatArray()), c.shape());
    }
}
