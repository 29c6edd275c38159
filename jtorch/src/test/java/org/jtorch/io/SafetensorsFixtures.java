package org.jtorch.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.testing.Json;
import org.junit.jupiter.api.Assumptions;

/**
 * The fixtures of {@code src/test/python/make_golden_io.py} (files written by numpy and by a writer that follows the
 * safetensors reference layout, plus {@code golden_io.json} describing them), value comparison against them, and the
 * reverse check that runs numpy on files JTorch wrote.
 */
final class SafetensorsFixtures {
    static final Path DIR = resourceDir("/io/golden_io.json");
    private static final Path PYTHON = Path.of("/usr/bin/python3");
    private static Map<String, Object> golden;

    private SafetensorsFixtures() {}

    static Path resourceDir(String marker) {
        try {
            var url = SafetensorsFixtures.class.getResource(marker);
            return url == null ? null : Path.of(url.toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static Path file(String name) {
        return DIR.resolve(name);
    }

    @SuppressWarnings("unchecked")
    static synchronized Map<String, Object> golden() {
        if (golden == null) {
            try {
                golden = (Map<String, Object>) Json.parse(Files.readString(file("golden_io.json")));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return golden;
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> section(String name) {
        return (List<Map<String, Object>>) golden().get(name);
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> tensors(Map<String, Object> fixture) {
        return (List<Map<String, Object>>) fixture.get("tensors");
    }

    /** Asserts dtype, shape and every value (exactly; NaN equals NaN, -0.0 differs from 0.0). */
    static void assertTensor(Map<String, Object> expected, Tensor actual, String what) {
        assertEquals(DType.valueOf((String) expected.get("dtype")), actual.dtype(), what + " dtype");
        assertArrayEquals(longs(expected.get("shape")), actual.shape(), what + " shape");
        List<?> values = (List<?>) expected.get("values");
        if (actual.dtype().isFloatingPoint() || actual.dtype().isComplex()) {
            double[] got = actual.toDoubleArray();
            assertEquals(values.size(), got.length, what + " element count");
            for (int i = 0; i < got.length; i++) {
                double want = toDouble(values.get(i));
                if (Double.compare(want, got[i]) != 0)
                    fail(what + " value " + i + ": expected " + want + " but was " + got[i]);
            }
        } else {
            assertArrayEquals(longs(values), actual.toLongArray(), what + " values");
        }
    }

    static double toDouble(Object v) {
        return switch (v) {
            case Number n -> n.doubleValue();
            case String s when s.equals("nan") -> Double.NaN;
            case String s when s.equals("inf") -> Double.POSITIVE_INFINITY;
            case String s when s.equals("-inf") -> Double.NEGATIVE_INFINITY;
            default -> throw new IllegalArgumentException("not a number: " + v);
        };
    }

    static long[] longs(Object list) {
        return ((List<?>) list)
                .stream().mapToLong(v -> ((Number) v).longValue()).toArray();
    }

    /**
     * Runs numpy ({@code read_jtorch_io.py}) on the files; skips the test when /usr/bin/python3 with numpy is absent.
     */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> readWithNumpy(Path... files) throws IOException, InterruptedException {
        Assumptions.assumeTrue(Files.isExecutable(PYTHON), "/usr/bin/python3 is absent");
        Assumptions.assumeTrue(run(List.of(PYTHON.toString(), "-c", "import numpy")).exit == 0, "numpy is absent");
        // Surefire runs in the module directory.
        Path script = Path.of("src/test/python/read_jtorch_io.py").toAbsolutePath();
        List<String> cmd = new ArrayList<>(List.of(PYTHON.toString(), script.toString()));
        for (Path f : files) cmd.add(f.toString());
        Result r = run(cmd);
        if (r.exit != 0) fail("numpy could not read JTorch's files:\n" + r.err);
        List<Map<String, Object>> out = new ArrayList<>();
        for (String line : r.out.split("\n")) if (!line.isBlank()) out.add((Map<String, Object>) Json.parse(line));
        return out;
    }

    private record Result(int exit, String out, String err) {}

    private static Result run(List<String> cmd) throws IOException, InterruptedException {
        Path err = Files.createTempFile("numpy", ".err");
        try {
            Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail("python timed out: " + cmd);
            }
            return new Result(p.exitValue(), out, Files.readString(err));
        } finally {
            Files.deleteIfExists(err);
        }
    }
}
