package org.jtorch.compile.trace;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jtorch.testing.Json;

/**
 * A trace file read the way tlparse reads it, written apart from the library's reader: each record line must match
 * tlparse's glog pattern and hold a JSON object (parsed by the tests' own JSON reader); the tab-prefixed lines after
 * it, joined with newlines, are its payload.
 */
public final class TraceLines {
    /** tlparse's pattern ({@code src/lib.rs}), with the JSON object after it. */
    public static final Pattern GLOG = Pattern.compile("(?<level>[VIWEC])(?<month>\\d{2})(?<day>\\d{2}) "
            + "(?<hour>\\d{2}):(?<minute>\\d{2}):(?<second>\\d{2}).(?<micros>\\d{6}) "
            + "(?<thread>\\d+)(?<pathname>[^:]+):(?<line>\\d+)\\] (?<json>.+)");

    /** One record: its prefix's source path, its JSON, and its payload (null without tab lines). */
    public record Line(String pathname, Map<String, Object> json, String payload) {
        /** The one key that is not context. */
        public String event() {
            List<String> keys = new ArrayList<>(json.keySet());
            keys.removeAll(List.of("rank", "frame_id", "frame_compile_id", "attempt", "has_payload"));
            assertTrue(keys.size() == 1, "one event key in " + json);
            return keys.getFirst();
        }
    }

    private TraceLines() {}

    @SuppressWarnings("unchecked")
    public static List<Line> read(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        assertTrue(text.isEmpty() || text.endsWith("\n"), "every record ends with a newline");
        List<Line> out = new ArrayList<>();
        String[] lines = text.split("\n");
        for (int i = 0; i < lines.length; ) {
            Matcher m = GLOG.matcher(lines[i]);
            assertTrue(m.matches(), "line " + (i + 1) + " has tlparse's glog prefix: " + lines[i]);
            Map<String, Object> json = (Map<String, Object>) Json.parse(m.group("json"));
            i++;
            List<String> payload = new ArrayList<>();
            while (i < lines.length && lines[i].startsWith("\t")) payload.add(lines[i++].substring(1));
            out.add(new Line(m.group("pathname").strip(), json, payload.isEmpty() ? null : String.join("\n", payload)));
        }
        return out;
    }

    /** Starts a trace into {@code dir} as a process outside a distributed job, whatever the environment says. */
    public static TraceFile start(Path dir) {
        return StructuredTrace.start(dir, null);
    }

    /** The only trace file in {@code dir}. */
    public static Path only(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            List<Path> all = files.toList();
            assertTrue(all.size() == 1, "one trace file in " + dir + ": " + all);
            return all.getFirst();
        }
    }
}
