package org.jtorch.onnx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.nio.file.Path;
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
        OrtEnvironment env = OrtEnvironment.getEnvironment();
        double worst = 0;
        try (OrtSession session = env.createSession(path.toString(), new OrtSession.SessionOptions())) {
            String inputName = session.getInputNames().iterator().next();
            for (Tensor input : inputs) {
                Tensor expected;
                try (var _ = Torch.noGrad()) {
                    expected = module.call(input);
                }
                try (OnnxTensor in = toOrt(env, input);
                        OrtSession.Result result = session.run(Map.of(inputName, in))) {
                    OnnxTensor out = (OnnxTensor) result.get(0);
                    assertArrayEquals(expected.shape(), out.getInfo().getShape(), "output shape");
                    float[] got = new float[(int) expected.numel()];
                    out.getFloatBuffer().get(got);
                    float[] want = expected.contiguous().toFloatArray();
                    double err = 0, scale = 1;
                    for (int i = 0; i < got.length; i++) {
                        err = Math.max(err, Math.abs(got[i] - want[i]));
                        scale = Math.max(scale, Math.abs(want[i]));
                        assertTrue(Float.isFinite(got[i]), "ONNX Runtime's output is finite");
                    }
                    worst = Math.max(worst, err / scale);
                }
            }
        }
        return worst;
    }

    static OnnxTensor toOrt(OrtEnvironment env, Tensor t) throws OrtException {
        Tensor c = t.contiguous();
        if (c.dtype() == DType.INT64) return OnnxTensor.createTensor(env, LongBuffer.wrap(c.toLongArray()), c.shape());
        return OnnxTensor.createTensor(env, FloatBuffer.wrap(c.toFloatArray()), c.shape());
    }
}
