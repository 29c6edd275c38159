package org.jtorch.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jtorch.examples.gpt.ProgressBar;
import org.jtorch.examples.gpt.TrainOptions;
import org.junit.jupiter.api.Test;

/**
 * {@code bin/train-gpt}, the launcher that runs TrainGpt with java directly: a bad command line gives one line on
 * stderr and exit code 2, {@code --help} lists every flag; and the progress output when stdout is not a console.
 */
class TrainGptLauncherTest {
    private static final Path LAUNCHER = Path.of("..", "bin", "train-gpt");

    /** Every flag TrainGpt accepts, with a valid value (null for flags that take none). */
    private static final Map<String, String> FLAGS = Map.ofEntries(
            Map.entry("--layers", "2"),
            Map.entry("--heads", "2"),
            Map.entry("--embd", "32"),
            Map.entry("--block", "16"),
            Map.entry("--norm", "rmsnorm"),
            Map.entry("--steps", "5"),
            Map.entry("--batch", "2"),
            Map.entry("--lr", "1e-3"),
            Map.entry("--warmup", "1"),
            Map.entry("--weight-decay", "0"),
            Map.entry("--grad-clip", "0"),
            Map.entry("--amp", "bf16"),
            Map.entry("--compile", "aot_eager"),
            Map.entry("--optimizer", "muon"),
            Map.entry("--seed", "7"),
            Map.entry("--corpus", "pom.xml"),
            Map.entry("--out", "target/launcher-test"),
            Map.entry("--resume", "pom.xml"),
            Map.entry("--stop-after", "3"),
            Map.entry("--eval-every", "2"),
            Map.entry("--eval-batches", "1"),
            Map.entry("--sample-tokens", "0"),
            Map.entry("--temperature", "0.5"),
            Map.entry("--top-k", "3"),
            Map.entry("--threads", "1"),
            Map.entry("--ddp", "off"),
            Map.entry("--ddp-bucket-mb", "4"),
            Map.entry("--ddp-final-bucket-mb", "0.25"));

    private record Run(int exit, String stdout, String stderr) {}

    private static Run launch(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(LAUNCHER.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES));
        return new Run(p.exitValue(), out, err);
    }

    private static void assertOneLineExit2(String expected, String... args) throws Exception {
        Run r = launch(args);
        assertEquals(2, r.exit(), r.stderr());
        assertEquals("", r.stdout());
        assertEquals(expected + "\n", r.stderr());
    }

    @Test
    void aBadCommandLinePrintsOneLineAndExits2() throws Exception {
        assertTrue(Files.isExecutable(LAUNCHER), "bin/train-gpt is executable");
        assertOneLineExit2("TrainGpt: unknown option --frobnicate (see --help)", "--frobnicate", "1");
        assertOneLineExit2("TrainGpt: --heads 3 must divide --embd 128", "--heads", "3");
        assertOneLineExit2("TrainGpt: --resume missing.pt: no such file", "--resume", "missing.pt");
        assertOneLineExit2("TrainGpt: --layers must be a positive integer, got 0", "--layers", "0");
    }

    @Test
    void helpListsEveryFlagAndEveryListedFlagParses() throws Exception {
        Run r = launch("--help");
        assertEquals(0, r.exit(), r.stderr());
        List<String> listed = r.stdout()
                .lines()
                .map(String::strip)
                .filter(l -> l.startsWith("--"))
                .map(l -> l.split("\\s+")[0])
                .toList();
        assertEquals(
                new java.util.TreeSet<>(FLAGS.keySet()),
                new java.util.TreeSet<>(
                        listed.stream().filter(f -> !f.equals("--help")).toList()));
        for (var e : FLAGS.entrySet()) TrainOptions.parse(new String[] {e.getKey(), e.getValue()});
    }

    @Test
    void redirectedProgressIsPlainLinesWithTheEtaOnlyAfterWarmUp() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        ProgressBar bar = new ProgressBar(out, false, 0, 20, 4, 100);
        for (int step = 0; step < 20; step++) bar.update(step, 2.5);
        bar.finish();
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertFalse(text.contains("\r"), text);
        List<String> lines = text.lines().toList();
        assertEquals(10, lines.size(), text); // every tenth of the run: steps 2, 4, ..., 20
        assertEquals("step 2/20: loss 2.5000", lines.get(0));
        assertEquals("step 4/20: loss 2.5000", lines.get(1), "no speed or ETA during the warm-up steps");
        assertTrue(lines.get(2).startsWith("step 6/20: loss 2.5000 | ")
                && lines.get(2).contains(" tok/s | ETA "));
    }
}
