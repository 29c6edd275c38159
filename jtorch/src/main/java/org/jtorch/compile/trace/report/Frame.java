package org.jtorch.compile.trace.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A frame of a stack in a record ({@code {"line", "name", "filename"}}), its file name looked up in the string table.
 */
record Frame(String file, long line, String name) {
    /** The frames of a {@code stack} value; anything that is not a frame object is skipped. */
    static List<Frame> of(Object stack, Map<Integer, String> strings) {
        List<Frame> frames = new ArrayList<>();
        if (!(stack instanceof List<?> list)) return frames;
        for (Object o : list) {
            if (!(o instanceof Map<?, ?> f)) continue;
            String file = f.get("filename") instanceof Long id ? strings.get(id.intValue()) : null;
            if (file == null && f.get("filename") instanceof String s) file = s;
            long line = f.get("line") instanceof Long l ? l : 0;
            String name = f.get("name") instanceof String n ? n : "?";
            frames.add(new Frame(file == null ? "(unknown)" : file, line, name));
        }
        return frames;
    }

    @Override
    public String toString() {
        return file + ":" + line + " in " + name;
    }
}
