package org.jtorch.compile.trace.report;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jtorch.compile.trace.CompileId;

/**
 * Reads a trace file's text into records, as tlparse reads it: a line with a glog prefix and a JSON object opens a
 * record, the tab-prefixed lines after it are its payload when it declares one ({@code has_payload}, whose MD5 is
 * checked), and {@code str} records fill the string table. Nothing in the file stops the reading: a line without a
 * prefix, bad JSON, a record without exactly one event key, a payload that does not match its hash or a file cut off in
 * the middle of a record each become a {@link Problem} naming the line, and the reading goes on.
 */
final class TraceParser {
    /** tlparse's pattern of the glog prefix: level, date, time to the microsecond, thread, file and line. */
    private static final Pattern GLOG =
            Pattern.compile("^[VIWEC]\\d{4} \\d{2}:\\d{2}:\\d{2}\\.\\d{6} \\d+ ?[^:]+:\\d+\\] ");

    private static final Set<String> CONTEXT_KEYS =
            Set.of("rank", "frame_id", "frame_compile_id", "attempt", "compiled_autograd_id", "has_payload", "stack");

    /** A line the reader could not use, or a record it could use only in part. */
    record Problem(int line, String message) {}

    /**
     * One record: its first line's number, its event key and that key's value, the context, and its payload (null
     * without one; {@code payloadIntact} false when the payload's MD5 differs from {@code has_payload}).
     */
    record Record(
            int line, String event, Object metadata, CompileId compileId, String payload, boolean payloadIntact) {}

    /** What a file holds: its records in order, its string table, and its problems. */
    record ParsedTrace(List<Record> records, Map<Integer, String> strings, List<Problem> problems) {}

    private TraceParser() {}

    static ParsedTrace parse(String text) {
        List<Record> records = new ArrayList<>();
        Map<Integer, String> strings = new HashMap<>();
        List<Problem> problems = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        // The writer ends every record with a newline: text after the last one is a record cut off mid-write.
        int count = lines.length - 1;
        if (!lines[count].isEmpty()) {
            count++;
            problems.add(new Problem(count, "the file ends in the middle of a line (a record cut off while written)"));
        }
        int i = 0;
        while (i < count) {
            int lineNo = i + 1;
            String line = stripCr(lines[i++]);
            if (line.isEmpty()) continue;
            if (line.charAt(0) == '\t') {
                problems.add(new Problem(lineNo, "a payload line that follows no record declaring a payload"));
                continue;
            }
            Matcher m = GLOG.matcher(line);
            if (!m.find()) {
                problems.add(new Problem(lineNo, "no glog prefix: " + abbreviate(line)));
                continue;
            }
            Map<String, Object> envelope;
            try {
                if (!(JsonReader.parse(line.substring(m.end())) instanceof Map<?, ?> map)) {
                    problems.add(new Problem(lineNo, "the record's JSON is not an object"));
                    continue;
                }
                envelope = strings(map);
            } catch (IllegalArgumentException e) {
                problems.add(new Problem(lineNo, "bad JSON: " + e.getMessage()));
                continue;
            }
            String payload = null;
            boolean intact = true;
            if (envelope.get("has_payload") instanceof String expected) {
                List<String> payloadLines = new ArrayList<>();
                while (i < count && lines[i].startsWith("\t"))
                    payloadLines.add(stripCr(lines[i++]).substring(1));
                payload = String.join("\n", payloadLines);
                intact = md5(payload).equals(expected);
                if (!intact) {
                    problems.add(new Problem(lineNo, "the payload's MD5 differs from has_payload (cut off or edited)"));
                }
            }
            List<String> events = new ArrayList<>();
            for (String key : envelope.keySet()) if (!CONTEXT_KEYS.contains(key)) events.add(key);
            if (events.size() != 1) {
                problems.add(new Problem(lineNo, "expected one event key, found " + events));
                continue;
            }
            String event = events.getFirst();
            if (event.equals("str")) {
                if (!intern(envelope.get("str"), strings)) {
                    problems.add(new Problem(lineNo, "a str record is not [string, id]"));
                }
                continue;
            }
            records.add(new Record(lineNo, event, envelope.get(event), compileId(envelope), payload, intact));
        }
        return new ParsedTrace(records, strings, problems);
    }

    private static boolean intern(Object value, Map<Integer, String> strings) {
        if (value instanceof List<?> l
                && l.size() == 2
                && l.get(0) instanceof String s
                && l.get(1) instanceof Long id) {
            strings.put(id.intValue(), s);
            return true;
        }
        return false;
    }

    /** The compile id of a record with {@code frame_id} and {@code frame_compile_id} ({@code attempt} 0 if absent). */
    private static CompileId compileId(Map<String, Object> envelope) {
        if (envelope.get("frame_id") instanceof Long frame
                && envelope.get("frame_compile_id") instanceof Long compile
                && frame >= 0
                && compile >= 0
                && frame <= Integer.MAX_VALUE
                && compile <= Integer.MAX_VALUE) {
            long attempt = envelope.get("attempt") instanceof Long a && a >= 0 && a <= Integer.MAX_VALUE ? a : 0;
            return new CompileId(frame.intValue(), compile.intValue(), (int) attempt);
        }
        return null;
    }

    private static Map<String, Object> strings(Map<?, ?> map) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : map.entrySet()) out.put((String) e.getKey(), e.getValue());
        return out;
    }

    private static String stripCr(String line) {
        return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
    }

    private static String abbreviate(String line) {
        return line.length() <= 80 ? line : line.substring(0, 80) + "…";
    }

    static String md5(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides MD5", e);
        }
    }
}
