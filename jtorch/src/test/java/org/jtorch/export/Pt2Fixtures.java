package org.jtorch.export;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URISyntaxException;
import java.nio.file.Path;
import org.jtorch.Tensor;
import org.jtorch.io.Npy;

/**
 * The {@code .pt2} fixtures PyTorch 2.13 wrote ({@code src/test/python/make_pt2_fixtures.py}): the four models'
 * archives and, per batch size, an input and the output PyTorch computed for it.
 */
final class Pt2Fixtures {
    static final Path DIR = dir();
    static final String[] MODELS = {"mlp", "cnn", "encoder", "gpt"};
    static final long[] BATCHES = {3, 5};

    private Pt2Fixtures() {}

    private static Path dir() {
        try {
            return Path.of(Pt2Fixtures.class.getResource("/export/mlp.pt2").toURI())
                    .getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static Path archive(String model) {
        return DIR.resolve(model + ".pt2");
    }

    static Tensor input(String model, long batch) {
        return Npy.load(DIR.resolve(model + "_input_" + batch + ".npy"));
    }

    static Tensor output(String model, long batch) {
        return Npy.load(DIR.resolve(model + "_output_" + batch + ".npy"));
    }

    /**
     * Float32 tolerance relative to the output's scale: each element within {@code 1e-5 · max|expected| + 1e-5} of
     * PyTorch's (two correct float32 computations of the same network differ by rounding, summed over layers).
     */
    static void assertClose(Tensor expected, Tensor actual, String what) {
        assertArrayEquals(expected.shape(), actual.shape(), what + ": shape");
        double[] e = expected.toDoubleArray();
        double[] a = actual.toDoubleArray();
        double scale = 0;
        for (double v : e) scale = Math.max(scale, Math.abs(v));
        double tol = 1e-5 * Math.max(scale, 1) + 1e-5;
        double worst = 0;
        for (int i = 0; i < e.length; i++) worst = Math.max(worst, Math.abs(e[i] - a[i]));
        assertTrue(worst <= tol, what + ": max abs error " + worst + " above " + tol);
    }
}
