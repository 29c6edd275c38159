package org.jtorch.compile.trace.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Debian's Chromium run headless for one page: it loads the page as a user's browser does and prints the DOM it built.
 * Each run gets its own profile directory and is bounded in time; on a timeout the browser and every process it started
 * are killed.
 *
 * <p>Where no Chromium is installed the browser tests are skipped, unless the environment variable
 * {@code JTORCH_REQUIRE_CHROMIUM} is set (CI's {@code .ci/run} installs Chromium and sets it): then they fail.
 */
final class HeadlessChromium {
    private static final long TIMEOUT_SECONDS = 60;

    private final Path executable;
    private final Path work;

    private HeadlessChromium(Path executable, Path work) {
        this.executable = executable;
        this.work = work;
    }

    /** The installed browser, working in {@code work}; skips or fails the test when there is none. */
    static HeadlessChromium require(Path work) {
        Optional<Path> exe = find();
        if (exe.isEmpty()) {
            String message = "no chromium on the PATH (Debian: apt-get install chromium)";
            if (System.getenv("JTORCH_REQUIRE_CHROMIUM") != null) fail(message);
            Assumptions.abort(message);
        }
        return new HeadlessChromium(exe.get(), work);
    }

    private static Optional<Path> find() {
        String path = System.getenv("PATH");
        if (path == null) return Optional.empty();
        for (String name : List.of("chromium", "chromium-browser")) {
            for (String dir : path.split(File.pathSeparator)) {
                Path candidate = Path.of(dir, name);
                if (Files.isExecutable(candidate)) return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** The DOM of {@code page} after Chromium loaded it, serialized as HTML. */
    String dumpDom(Path page) throws IOException, InterruptedException {
        Path run = Files.createTempDirectory(work, "chromium");
        Path dom = run.resolve("dom.html");
        Process p = new ProcessBuilder(
                        executable.toString(),
                        "--headless",
                        "--disable-gpu",
                        "--no-sandbox",
                        "--disable-dev-shm-usage",
                        "--no-first-run",
                        "--user-data-dir=" + run.resolve("profile"),
                        "--dump-dom",
                        page.toUri().toString())
                .redirectOutput(dom.toFile())
                .redirectError(run.resolve("stderr.txt").toFile())
                .start();
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly().waitFor();
            fail("chromium did not finish within " + TIMEOUT_SECONDS + " s; its stderr:\n"
                    + Files.readString(run.resolve("stderr.txt")));
        }
        assertEquals(0, p.exitValue(), () -> "chromium failed:\n" + read(run.resolve("stderr.txt")));
        return Files.readString(dom, StandardCharsets.UTF_8);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return e.toString();
        }
    }
}
