package org.jtorch.export;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jtorch.Tensor;
import org.jtorch.autograd.GradMode;
import org.jtorch.io.Npy;

/**
 * Loads a {@code .pt2} archive and runs its module on {@code .npy} inputs, saving each output as {@code .npy}: run in a
 * JVM of its own ({@link #inFreshJvm}), it shows that a saved program needs nothing of the process that exported it.
 */
public final class Pt2Run {
    private Pt2Run() {}

    /**
     * {@code Pt2Run ARCHIVE IN_1 OUT_1 [IN_2 OUT_2 ...]}; a program of several inputs or outputs takes them as
     * comma-separated lists ({@code X.npy,Y.npy}).
     */
    public static void main(String[] args) {
        ExportedModule m = Export.load(Path.of(args[0])).module();
        try (var _ = GradMode.set(false)) {
            for (int i = 1; i + 1 < args.length; i += 2) {
                String[] ins = args[i].split(","), outs = args[i + 1].split(",");
                Tensor[] inputs = new Tensor[ins.length];
                for (int k = 0; k < ins.length; k++) inputs[k] = Npy.load(Path.of(ins[k]));
                Tensor[] results = m.run(inputs);
                if (results.length != outs.length) {
                    throw new IllegalArgumentException(results.length + " outputs, " + outs.length + " files");
                }
                for (int k = 0; k < outs.length; k++) Npy.save(results[k], Path.of(outs[k]));
            }
        }
    }

    /** Runs {@link #main} in a new JVM with this one's class path; fails with its output when it fails. */
    static void inFreshJvm(List<String> args) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        String libraryPath = System.getProperty("jdk.module.path");
        String classPath = libraryPath == null
                ? System.getProperty("java.class.path")
                : libraryPath + File.pathSeparator + System.getProperty("java.class.path");
        List<String> cmd = new ArrayList<>(List.of(
                java,
                "--enable-native-access=ALL-UNNAMED",
                "--add-modules=jdk.incubator.vector",
                "-cp",
                classPath,
                Pt2Run.class.getName()));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the fresh JVM timed out");
        }
        if (p.exitValue() != 0) {
            throw new AssertionError("the fresh JVM failed:\n" + new String(out, StandardCharsets.UTF_8));
        }
    }
}
