package org.jtorch.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jtorch.Torch;
import org.junit.jupiter.api.Test;

/**
 * A JVM started without JTorch's two flags fails on the first use of {@code Torch} with one line naming both, thrown
 * from {@code Torch}'s class initialiser (not a {@code NoClassDefFoundError} from inside a kernel). Each case starts a
 * fresh JVM with JTorch on the class path, as a user's program would run.
 */
class JvmRequirementsTest {
    private static final String BOTH_FLAGS =
            "JTorch needs the JVM flags --add-modules=jdk.incubator.vector --enable-native-access=ALL-UNNAMED";

    /** The child program: one tensor through {@code Torch}. */
    public static final class Probe {
        public static void main(String[] args) {
            System.out.println("sum " + Torch.ones(3).sum().item());
        }
    }

    private record Run(int exit, String stdout, String stderr) {}

    private static Run probe(String... flags) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        String modulePath = System.getProperty("jdk.module.path");
        String classPath = modulePath == null
                ? System.getProperty("java.class.path")
                : modulePath + File.pathSeparator + System.getProperty("java.class.path");
        List<String> cmd = new ArrayList<>(List.of(java));
        cmd.addAll(List.of(flags));
        cmd.addAll(List.of("-cp", classPath, Probe.class.getName()));
        Process p = new ProcessBuilder(cmd).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES));
        return new Run(p.exitValue(), out, err);
    }

    /** The line of the child's stack trace that carries JTorch's message. */
    private static String causeLine(Run r) {
        return r.stderr()
                .lines()
                .filter(l -> l.contains("org.jtorch.TorchException: "))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no TorchException in:\n" + r.stderr()));
    }

    @Test
    void withoutEitherFlagTheMessageNamesBoth() throws Exception {
        Run r = probe();
        assertNotEquals(0, r.exit());
        String line = causeLine(r);
        assertTrue(line.contains(BOTH_FLAGS), line);
        assertTrue(
                line.endsWith("this JVM was started without --add-modules=jdk.incubator.vector and "
                        + "--enable-native-access=ALL-UNNAMED (JTorch is on the class path)"),
                line);
        assertTrue(r.stderr().contains("at org.jtorch.Torch.<clinit>"), r.stderr());
        assertTrue(!r.stderr().contains("NoClassDefFoundError: jdk/incubator/vector"), r.stderr());
    }

    @Test
    void withoutNativeAccessTheMessageSaysSo() throws Exception {
        Run r = probe("--add-modules=jdk.incubator.vector");
        assertNotEquals(0, r.exit());
        assertTrue(
                causeLine(r)
                        .endsWith("this JVM was started without --enable-native-access=ALL-UNNAMED "
                                + "(JTorch is on the class path)"),
                r.stderr());
    }

    @Test
    void withBothFlagsTheProgramRuns() throws Exception {
        Run r = probe("--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED");
        assertEquals(0, r.exit(), r.stderr());
        assertEquals("sum 3.0", r.stdout().strip());
    }
}
