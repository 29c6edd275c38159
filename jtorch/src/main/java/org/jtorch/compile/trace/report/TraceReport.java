package org.jtorch.compile.trace.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code jtorch-trace [-o OUT] DIR}: JTorch's tlparse. Reads the structured trace files in {@code DIR} (or one trace
 * file) and writes a static HTML report to {@code OUT} (default {@code DIR/tl_out}): {@code index.html} with the stack
 * trie, the compiles and the graph-break, recompile and failure summaries; one directory per compile with its page and
 * raw payload files; {@code chromium_events.json} (the timeline, for Perfetto) and {@code raw.log}. With several trace
 * files (the ranks of a distributed job) each gets its own report in {@code rank_<r>/} and {@code index.html} lists
 * them.
 */
public final class TraceReport {
    static final String CHROMIUM_EVENTS = "chromium_events.json";
    static final String RAW_LOG = "raw.log";
    private static final Pattern TRACE_FILE = Pattern.compile("dedicated_log_torch_trace_(?:rank_(\\d+)_)?.*\\.log");
    private static final String USAGE = "usage: jtorch-trace [-o OUT] DIR|FILE";

    private TraceReport() {}

    /** Runs the command line; exits with 0 when the report was written, 1 when it could not be, 2 on bad usage. */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        Path input = null, output = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-h", "--help" -> {
                    out.println(USAGE);
                    return 0;
                }
                case "-o", "--out" -> {
                    if (++i == args.length) return usage(err, "-o needs a directory");
                    output = Path.of(args[i]);
                }
                default -> {
                    if (args[i].startsWith("-") || input != null) return usage(err, "unexpected argument " + args[i]);
                    input = Path.of(args[i]);
                }
            }
        }
        if (input == null) return usage(err, "no trace directory given");
        try {
            Path index = write(input, output);
            out.println("jtorch-trace: wrote " + index);
            return 0;
        } catch (IOException | IllegalArgumentException e) {
            err.println("jtorch-trace: " + e.getMessage());
            return 1;
        }
    }

    private static int usage(PrintStream err, String problem) {
        err.println("jtorch-trace: " + problem);
        err.println(USAGE);
        return 2;
    }

    /**
     * Writes the report of {@code input} (a trace directory or one trace file) to {@code output}, or to {@code tl_out}
     * beside the input when null; returns the report's {@code index.html}.
     */
    public static Path write(Path input, Path output) throws IOException {
        List<Path> files = traceFiles(input);
        Path out = output != null ? output : (Files.isDirectory(input) ? input : parent(input)).resolve("tl_out");
        Files.createDirectories(out);
        if (files.size() == 1) {
            writeOne(files.getFirst(), out);
            return out.resolve("index.html");
        }
        List<RankPage.Entry> entries = new ArrayList<>();
        Set<String> used = new HashSet<>();
        for (Path file : files) {
            String dir = unitName(file);
            for (int k = 2; !used.add(dir); k++) dir = unitName(file) + "_" + k;
            TraceModel model = writeOne(file, out.resolve(dir));
            entries.add(new RankPage.Entry(dir, file.getFileName().toString(), model));
        }
        Path index = out.resolve("index.html");
        Files.writeString(index, RankPage.html(entries), StandardCharsets.UTF_8);
        return index;
    }

    /** The trace files: {@code input} itself, or the {@code dedicated_log_torch_trace_*.log} files in it, by name. */
    private static List<Path> traceFiles(Path input) throws IOException {
        if (Files.isRegularFile(input)) return List.of(input);
        if (!Files.isDirectory(input)) throw new IllegalArgumentException(input + ": no such file or directory");
        try (Stream<Path> s = Files.list(input)) {
            List<Path> files = s.filter(
                            p -> TRACE_FILE.matcher(p.getFileName().toString()).matches() && Files.isRegularFile(p))
                    .sorted()
                    .toList();
            if (files.isEmpty()) {
                throw new IllegalArgumentException(input + " holds no trace file (dedicated_log_torch_trace_*.log)");
            }
            return files;
        }
    }

    /** {@code rank_<r>} for a rank's file, else the file's name without {@code .log}. */
    private static String unitName(Path file) {
        String name = file.getFileName().toString();
        Matcher m = TRACE_FILE.matcher(name);
        if (m.matches() && m.group(1) != null) return "rank_" + m.group(1);
        return name.endsWith(".log") ? name.substring(0, name.length() - 4) : name;
    }

    private static TraceModel writeOne(Path file, Path out) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        // Malformed UTF-8 (a file cut off inside a character) becomes U+FFFD rather than an error.
        TraceModel model = TraceModel.of(TraceParser.parse(new String(bytes, StandardCharsets.UTF_8)));
        Files.createDirectories(out);
        Files.write(out.resolve(RAW_LOG), bytes);
        Files.writeString(out.resolve(CHROMIUM_EVENTS), chromiumEvents(model), StandardCharsets.UTF_8);
        for (CompileEntry c : model.compiles.values()) {
            Path dir = out.resolve(c.directory());
            Files.createDirectories(dir);
            for (Artifact a : c.artifacts)
                Files.writeString(dir.resolve(a.fileName()), a.payload(), StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("index.html"), CompilePage.html(c), StandardCharsets.UTF_8);
        }
        String source = file.getFileName().toString();
        Files.writeString(out.resolve("index.html"), IndexPage.html(model, source), StandardCharsets.UTF_8);
        return model;
    }

    /** The events as a JSON array, the form Perfetto and chrome://tracing open. */
    private static String chromiumEvents(TraceModel model) {
        return model.chromiumEvents.isEmpty() ? "[]\n" : "[\n" + String.join(",\n", model.chromiumEvents) + "\n]\n";
    }

    private static Path parent(Path file) {
        Path p = file.toAbsolutePath().getParent();
        return p != null ? p : Path.of(".");
    }
}
