package org.jtorch.examples.gpt;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;

/**
 * Draws the loss curve as a PNG with plain Java2D lines: a title naming the unigram baseline, the loss axis in
 * nats/char, the baseline as a labelled dashed line. Text uses a built-in 5×7 bitmap font, so the plot needs no
 * installed fonts (headless JDKs on bare machines have none).
 */
public final class LossPlot {
    private static final int W = 900, H = 580, LEFT = 90, RIGHT = 30, TOP = 50, BOTTOM = 70, SCALE = 2;
    private static final Color TRAIN = new Color(31, 119, 180), TRAIN_RAW = new Color(31, 119, 180, 90);
    private static final Color VAL = new Color(214, 39, 40),
            BASELINE = new Color(120, 120, 120),
            GRID = new Color(230, 230, 230);

    private LossPlot() {}

    /**
     * Writes the plot of per-step training losses, held-out losses at given steps ({step, loss} pairs) and a horizontal
     * baseline to {@code path}.
     */
    public static void write(Path path, float[] trainLosses, List<double[]> valLosses, double baseline) {
        BufferedImage img = new BufferedImage(W, H, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, W, H);
        int steps = Math.max(1, trainLosses.length);
        double lo = baseline, hi = baseline;
        for (float l : trainLosses) {
            lo = Math.min(lo, l);
            hi = Math.max(hi, l);
        }
        for (double[] v : valLosses) {
            lo = Math.min(lo, v[1]);
            hi = Math.max(hi, v[1]);
        }
        double yTick = niceStep((hi - lo) / 6);
        double yMin = Math.floor(lo / yTick) * yTick, yMax = Math.ceil(hi / yTick) * yTick;
        if (yMax <= yMin) yMax = yMin + yTick;
        Axes axes = new Axes(steps, yMin, yMax);

        g.setStroke(new BasicStroke(1));
        for (double y = yMin; y <= yMax + 1e-9; y += yTick) {
            g.setColor(GRID);
            g.drawLine(LEFT, axes.py(y), W - RIGHT, axes.py(y));
            g.setColor(Color.BLACK);
            String label = format(y, yTick);
            text(g, label, LEFT - 8 - width(label), axes.py(y) - 7);
        }
        double xTick = niceStep(steps / 6.0);
        for (double x = 0; x <= steps + 1e-9; x += xTick) {
            g.setColor(GRID);
            g.drawLine(axes.px(x), TOP, axes.px(x), H - BOTTOM);
            g.setColor(Color.BLACK);
            String label = format(x, xTick);
            text(g, label, axes.px(x) - width(label) / 2, H - BOTTOM + 8);
        }
        g.setColor(Color.BLACK);
        g.drawRect(LEFT, TOP, W - LEFT - RIGHT, H - TOP - BOTTOM);
        text(g, "step", (LEFT + W - RIGHT) / 2 - width("step") / 2, H - 30);
        text(g, "loss (nats/char)", 10, TOP - 24);
        String title = String.format(
                java.util.Locale.ROOT, "training and held-out loss, unigram baseline %.4f nats/char", baseline);
        text(g, title, (W - width(title)) / 2, 8);

        g.setStroke(new BasicStroke(2, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 1, new float[] {8, 6}, 0));
        g.setColor(BASELINE);
        g.drawLine(LEFT, axes.py(baseline), W - RIGHT, axes.py(baseline));
        text(g, String.format(java.util.Locale.ROOT, "baseline %.4f", baseline), LEFT + 8, axes.py(baseline) - 20);

        g.setStroke(new BasicStroke(1));
        g.setColor(TRAIN_RAW);
        polyline(g, axes, trainLosses, false);
        g.setStroke(new BasicStroke(2));
        g.setColor(TRAIN);
        polyline(g, axes, trainLosses, true);

        g.setColor(VAL);
        int px = -1, py = -1;
        for (double[] v : valLosses) {
            int x = axes.px(v[0]), y = axes.py(v[1]);
            g.fillOval(x - 4, y - 4, 9, 9);
            if (px >= 0) g.drawLine(px, py, x, y);
            px = x;
            py = y;
        }

        legend(g);
        g.dispose();
        try {
            ImageIO.write(img, "png", path.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path, e);
        }
    }

    private record Axes(int steps, double yMin, double yMax) {
        int px(double step) {
            return LEFT + (int) Math.round(step / steps * (W - LEFT - RIGHT));
        }

        int py(double loss) {
            return H - BOTTOM - (int) Math.round((loss - yMin) / (yMax - yMin) * (H - TOP - BOTTOM));
        }
    }

    /** The raw per-step losses, or (smoothed) their centred moving average over about 2% of the run. */
    private static void polyline(Graphics2D g, Axes axes, float[] losses, boolean smoothed) {
        int half = smoothed ? Math.max(0, Math.min(25, losses.length / 100)) : 0;
        int px = -1, py = -1;
        for (int i = 0; i < losses.length; i++) {
            int from = Math.max(0, i - half), to = Math.min(losses.length - 1, i + half);
            double sum = 0;
            for (int j = from; j <= to; j++) sum += losses[j];
            int x = axes.px(i + 1), y = axes.py(sum / (to - from + 1));
            if (px >= 0) g.drawLine(px, py, x, y);
            px = x;
            py = y;
        }
    }

    private static void legend(Graphics2D g) {
        int x = W - RIGHT - 250, y = TOP + 14;
        g.setColor(Color.WHITE);
        g.fillRect(x - 10, y - 8, 250, 74);
        g.setColor(Color.GRAY);
        g.drawRect(x - 10, y - 8, 250, 74);
        String[] names = {"train", "held-out", "unigram baseline"};
        Color[] colors = {TRAIN, VAL, BASELINE};
        for (int i = 0; i < 3; i++) {
            g.setColor(colors[i]);
            g.fillRect(x, y + i * 22 + 4, 30, 4);
            g.setColor(Color.BLACK);
            text(g, names[i], x + 42, y + i * 22);
        }
    }

    /** 1, 2 or 5 times a power of ten, near {@code raw}. */
    static double niceStep(double raw) {
        if (!(raw > 0)) return 1;
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        double f = raw / p;
        return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
    }

    private static String format(double v, double step) {
        int decimals = Math.max(0, (int) Math.ceil(-Math.log10(step) - 1e-9));
        return String.format(java.util.Locale.ROOT, "%." + decimals + "f", v);
    }

    // ---- the bitmap font -----------------------------------------------------------------------------

    private static final String CHARS = "0123456789.-abdeghilmnoprstuc/(),";
    // One string per character: 7 rows of 5 columns, row-major, '#' = ink.
    private static final String[] GLYPHS = {
        ".###.#...##..###.#.###..##...#.###.",
        "..#...##....#....#....#....#...###.",
        ".###.#...#....#...#...#...#...#####",
        "#####...#...#.....#.....##...#.###.",
        "...#...##..#.#.#..#.#####...#....#.",
        "######....####.....#....##...#.###.",
        "..##..#...#....####.#...##...#.###.",
        "#####....#...#...#...#....#....#...",
        ".###.#...##...#.###.#...##...#.###.",
        ".###.#...##...#.####....#...#..##..",
        "..........................##...##..",
        "................###................",
        "...........###.....#.#####...#.####",
        "#....#....####.#...##...##...#####.",
        "....#....#.##.##..###...##...#.####",
        "...........###.#...#######.....###.",
        "......#####...##...#.####....#.###.",
        "#....#....#.##.##..##...##...##...#",
        "..#........##....#....#....#...###.",
        ".##....#....#....#....#....#...###.",
        "..........##.#.#.#.##.#.##...##...#",
        "..........#.##.##..##...##...##...#",
        "...........###.#...##...##...#.###.",
        "..........####.#...#####.#....#....",
        "..........#.##.##..##....#....#....",
        "...........#####.....###.....#####.",
        ".#....#...###...#....#....#..#..##.",
        "..........#...##...##...##..##.##.#",
        "...........###.#....#....#...#.###.",
        "....#....#...#...#...#...#....#....",
        "...#...#...#....#....#.....#.....#.",
        ".#.....#.....#....#....#...#...#...",
        ".....................##....#...#...",
    };

    private static int width(String s) {
        return s.length() * 6 * SCALE;
    }

    /** Draws {@code s} with its top-left corner at (x, y); characters outside the font are left blank. */
    private static void text(Graphics2D g, String s, int x, int y) {
        for (int i = 0; i < s.length(); i++) {
            int k = CHARS.indexOf(s.charAt(i));
            if (k < 0) continue;
            String glyph = GLYPHS[k];
            for (int r = 0; r < 7; r++) {
                for (int c = 0; c < 5; c++) {
                    if (glyph.charAt(r * 5 + c) == '#')
                        g.fillRect(x + (i * 6 + c) * SCALE, y + r * SCALE, SCALE, SCALE);
                }
            }
        }
    }
}
