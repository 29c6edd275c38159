package org.jtorch.examples.gpt;

import java.io.PrintStream;

/** A one-line live progress bar redrawn with {@code \r}: step, loss, tokens/s and the time left. */
public final class ProgressBar {
    private static final int WIDTH = 24;
    private final PrintStream out;
    private final int firstStep;
    private final int lastStep;
    private final long tokensPerStep;
    private final long startNanos = System.nanoTime();
    private int lastLength;

    /** A bar for steps {@code firstStep..lastStep-1} of {@code tokensPerStep} tokens each. */
    public ProgressBar(PrintStream out, int firstStep, int lastStep, long tokensPerStep) {
        this.out = out;
        this.firstStep = firstStep;
        this.lastStep = lastStep;
        this.tokensPerStep = tokensPerStep;
    }

    /** Redraws the line after step {@code step} (0-based) finished with training loss {@code loss}. */
    public void update(int step, double loss) {
        int done = step + 1;
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        double perStep = seconds / (done - firstStep);
        int filled = (int) ((long) WIDTH * done / lastStep);
        String line = String.format(
                "step %5d/%d [%s%s] loss %.4f | %,.0f tok/s | ETA %s",
                done,
                lastStep,
                "#".repeat(filled),
                ".".repeat(WIDTH - filled),
                loss,
                tokensPerStep / perStep,
                clock(perStep * (lastStep - done)));
        // Pad over a longer previous line so no stale characters remain after the carriage return.
        int pad = Math.max(0, lastLength - line.length());
        out.print("\r" + line + " ".repeat(pad));
        out.flush();
        lastLength = line.length();
    }

    /** Prints {@code message} on its own line, keeping the bar below it. */
    public void println(String message) {
        out.print("\r" + message + " ".repeat(Math.max(0, lastLength - message.length())) + "\n");
        lastLength = 0;
        out.flush();
    }

    /** Ends the bar's line. */
    public void finish() {
        out.println();
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
