package org.jtorch.distributed;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Starts {@code mpirun --oversubscribe -np N java … MainClass} on loopback from a test, with a bounded wait, and
 * returns what it printed. Skips the calling test when Open MPI is not installed, unless {@code JTORCH_REQUIRE_MPI} is
 * set (as CI sets it), in which case the missing launcher fails the test.
 */
final class MpiRun {
    private MpiRun() {}

    /** Exit code, combined output, and when the job ended (epoch milliseconds). */
    record Result(int exitCode, String output, long endMillis) {}

    static Result run(int ranks, Duration timeout, Class<?> main, String... args)
            throws IOException, InterruptedException {
        String mpirun = findMpirun();
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new ArrayList<>(List.of(mpirun, "--oversubscribe", "-np", Integer.toString(ranks)));
        if (isRoot()) cmd.add("--allow-run-as-root");
        // Loopback only: the job never leaves this host, whatever interfaces it has.
        cmd.addAll(List.of("--mca", "btl_tcp_if_include", "lo", "--mca", "oob_tcp_if_include", "lo"));
        cmd.addAll(List.of("--bind-to", "none")); // a busy host: let the scheduler place the ranks
        cmd.addAll(List.of(
                java,
                "--add-modules=jdk.incubator.vector",
                "--enable-native-access=ALL-UNNAMED",
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-Xmx512m",
                "-cp",
                classPath(main),
                main.getName()));
        cmd.addAll(List.of(args));
        Path log = Files.createTempFile("jtorch-mpirun", ".log");
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor();
                return new Result(
                        -1, "TIMED OUT after " + timeout + "\n" + Files.readString(log), System.currentTimeMillis());
            }
            return new Result(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8), System.currentTimeMillis());
        } finally {
            Files.deleteIfExists(log);
        }
    }

    private static String findMpirun() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, "mpirun");
            if (Files.isExecutable(candidate)) return candidate.toString();
        }
        boolean required = System.getenv("JTORCH_REQUIRE_MPI") != null;
        if (required) throw new AssertionError("mpirun is not on the PATH (install openmpi-bin libopenmpi-dev)");
        Assumptions.abort("mpirun is not on the PATH; set JTORCH_REQUIRE_MPI=1 to fail instead");
        return null;
    }

    private static boolean isRoot() throws IOException {
        return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
    }

    /** The library, its dependencies and the test classes, for a class-path JVM. */
    private static String classPath(Class<?> main) {
        List<String> parts = new ArrayList<>();
        try {
            parts.add(Path.of(main.getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI())
                    .toString());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        String modulePath = System.getProperty("jdk.module.path");
        if (modulePath != null) parts.add(modulePath);
        parts.add(System.getProperty("java.class.path"));
        return String.join(File.pathSeparator, parts);
    }
}
