package org.jtorch.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Python with PyTorch 2.13 that interoperability tests run, named by {@code JTORCH_PYTHON}. Without it the tests
 * are skipped, unless {@code JTORCH_REQUIRE_TORCH=1} (CI) makes its absence a failure.
 */
public final class PyTorchPython {
    private PyTorchPython() {}

    /** The interpreter, or a skip (a failure under {@code JTORCH_REQUIRE_TORCH=1}) when there is none. */
    public static Path require() {
        String python = System.getenv("JTORCH_PYTHON");
        boolean required = "1".equals(System.getenv("JTORCH_REQUIRE_TORCH"));
        if (python == null || python.isEmpty() || !Files.isExecutable(Path.of(python))) {
            if (required) fail("JTORCH_REQUIRE_TORCH=1 but JTORCH_PYTHON (" + python + ") is not an interpreter");
            assumeTrue(false, "JTORCH_PYTHON is not set: the PyTorch interoperability checks are skipped");
        }
        return Path.of(python);
    }

    /**
     * Runs {@code script} (relative to the repository root) with {@code args}; returns its output, failing on error.
     */
    public static String run(String script, List<String> args) throws IOException, InterruptedException {
        Path root = repositoryRoot();
        List<String> cmd = new ArrayList<>(
                List.of(require().toString(), root.resolve(script).toString()));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail(script + " timed out");
        }
        String text = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), script + " failed:\n" + text);
        return text;
    }

    /** The repository's root directory, found upwards from the working directory. */
    public static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.exists(dir.resolve("jtorch/src/test/python"))) dir = dir.getParent();
        if (dir == null) throw new IllegalStateException("not inside the repository");
        return dir;
    }
}
