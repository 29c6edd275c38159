package org.jtorch.compile.trace.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jtorch.compile.trace.CompileId;

/**
 * Everything the trace says about one compile (one attempt of one compile of one frame), or about no compile in
 * particular when {@link #id} is null: where it was called from, its payloads in order, its metrics, graph breaks and
 * recompile reasons.
 */
final class CompileEntry {
    /** How a compile ended, from its metrics and breaks; the names are the report's CSS classes. */
    enum Status {
        OK("status-ok"),
        BREAK("status-break"),
        EMPTY("status-empty"),
        FAILED("status-error"),
        UNFINISHED("status-missing");

        final String css;

        Status(String css) {
            this.css = css;
        }
    }

    final CompileId id;
    final List<Frame> stack = new ArrayList<>();
    final List<Artifact> artifacts = new ArrayList<>();
    final List<String> graphBreaks = new ArrayList<>();
    final List<String> recompileReasons = new ArrayList<>();
    Map<String, Object> metrics;

    CompileEntry(CompileId id) {
        this.id = id;
    }

    /** {@code [0/1]}, or {@code (unknown)} for the records of no compile. */
    String label() {
        return id == null ? "(unknown)" : id.toString();
    }

    /** The directory of the compile's page and raw files, inside the report. */
    String directory() {
        return id == null
                ? "compile_unknown"
                : "compile_" + id.frameId() + "_" + id.frameCompileId() + "_" + id.attempt();
    }

    Status status() {
        if (metrics == null) return Status.UNFINISHED;
        if (metrics.get("fail_type") != null) return Status.FAILED;
        if (!graphBreaks.isEmpty() || metrics.get("restart_reasons") instanceof List<?> r && !r.isEmpty()) {
            return Status.BREAK;
        }
        if (metrics.get("graph_op_count") instanceof Long n && n == 0) return Status.EMPTY;
        return Status.OK;
    }

    /** The compiled function: {@code co_name} of the metrics, else the innermost frame of the stack. */
    String frameName() {
        if (metrics != null && metrics.get("co_name") instanceof String name) return name;
        return stack.isEmpty() ? "" : stack.getLast().name();
    }
}
