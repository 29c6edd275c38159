package org.jtorch.examples.gpt;

import java.io.PrintStream;

/**
 * Training progress: step, loss, tokens/s and the time left. On a console it is one line redrawn with {@code \r}; when
 * the output is redirected (a log file, a pipe, a CI job) it prints a plain line every tenth of the run instead, so a
 * log holds no carriage returns and no 24 KB line.
 *
 * <p>The speed and the time left are measured from the end of the warm-up steps (JIT compilation, first allocations),
 * and shown only from then on: an estimate taken during warm-up overstates the time left several times over.
 */
public final class ProgressBar {
    private static final int WIDTH = 24;
    private final PrintStream out;
    private final boolean live;
    private final int lastStep;
    private final int warmEnd;
    private final int plainEvery;
    private final long tokensPerStep;
    private long warmEndNanos;
    private int lastLength;

    /**
     * A bar for steps {@code firstStep..lastStep-1} of {@code tokensPerStep} tokens each, the first {@code warmup} of
     * them warm-up; {@code live} redraws one line (for a console), otherwise plain lines are printed.
     */
    public ProgressBar(PrintStream out, boolean live, int firstStep, int lastStep, int warmup, long tokensPerStep) {
        this.out = out;
        this.live = live;
        this.lastStep = lastStep;
        this.warmEnd = firstStep + warmup;
        this.plainEvery = Math.max(1, (lastStep - firstStep) / 10);
        this.tokensPerStep = tokensPerStep;
        this.warmEndNanos = System.nanoTime();
    }

    /** Whether this JVM's standard output is a terminal (not redirected to a file or a pipe). */
    public static boolean stdoutIsConsole() {
        java.io.Console c = System.console();
        return c != null && c.isTerminal();
    }

    /** Reports step {@code step} (0-based), which finished with training loss {@code loss}. */
    public void update(int step, double loss) {
        int done = step + 1;
        long now = System.nanoTime();
        if (done == warmEnd) warmEndNanos = now;
        String speed = "";
        if (done > warmEnd) {
            double perStep = (now - warmEndNanos) / 1e9 / (done - warmEnd);
            speed = String.format(
                    " | %,.0f tok/s | ETA %s", tokensPerStep / perStep, clock(perStep * (lastStep - done)));
        }
        if (live) {
            int filled = (int) ((long) WIDTH * done / lastStep);
            String line = String.format(
                    "step %5d/%d [%s%s] loss %.4f%s",
                    done, lastStep, "#".repeat(filled), ".".repeat(WIDTH - filled), loss, speed);
            // Pad over a longer previous line so no stale characters remain after the carriage return.
            out.print("\r" + line + " ".repeat(Math.max(0, lastLength - line.length())));
            lastLength = line.length();
        } else if (done % plainEvery == 0 || done == lastStep) {
            out.printf("step %d/%d: loss %.4f%s%n", done, lastStep, loss, speed);
        }
        out.flush();
    }

    /**
     * Time spent elsewhere since the last step (an evaluation) that must not count as training time: the speed and the
     * time left are of training steps.
     */
    public void exclude(long nanos) {
        warmEndNanos += nanos;
    }

    /** Prints {@code message} on its own line, keeping a live bar below it. */
    public void println(String message) {
        if (live) {
            out.print("\r" + message + " ".repeat(Math.max(0, lastLength - message.length())) + "\n");
            lastLength = 0;
        } else {
            out.println(message);
        }
        out.flush();
    }

    /** Ends a live bar's line. */
    public void finish() {
        if (live) out.println();
        out.flush();
    }

    /** {@code m:ss} or {@code h:mm:ss}. */
    public static String clock(double seconds) {
        long s = Math.round(seconds);
        return s >= 3600
                ? String.format("%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format("%d:%02d", s / 60, s % 60);
    }
}
