package org.jtorch.compile.trace.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.compile.trace.CompileId;

/**
 * One trace file as the report shows it: its compiles in the order they first appear, the tree of their call sites, the
 * timeline events, and the problems met while reading.
 */
final class TraceModel {
    private static final Map<String, String> TITLES = Map.ofEntries(
            Map.entry("dynamo_output_graph", "Dynamo output graph"),
            Map.entry("dynamo_guards", "Guards"),
            Map.entry("dynamo_cpp_guards_str", "Guards (as checked)"),
            Map.entry("aot_joint_graph", "AOT joint graph"),
            Map.entry("aot_forward_graph", "AOT forward graph"),
            Map.entry("aot_backward_graph", "AOT backward graph"),
            Map.entry("aot_inference_graph", "AOT inference graph"),
            Map.entry("inductor_pre_grad_graph", "Pre-grad graph"),
            Map.entry("inductor_post_grad_graph", "Post-grad graph"),
            Map.entry("inductor_output_code", "Output code"),
            Map.entry("dynamo_graph_break_reason", "Graph break"),
            Map.entry("recompile_reasons", "Recompile reasons"));

    final Map<CompileId, CompileEntry> compiles = new LinkedHashMap<>();
    final StackTrie trie = new StackTrie();
    /** The {@code chromium_event} payloads, each a JSON object's text. */
    final List<String> chromiumEvents = new ArrayList<>();

    final List<TraceParser.Problem> problems;
    final int records;
    /** Numbers the raw payload files, so that every name in the report is unique. */
    private int payloadFiles;

    private TraceModel(TraceParser.ParsedTrace trace) {
        this.problems = new ArrayList<>(trace.problems());
        this.records = trace.records().size();
        for (TraceParser.Record r : trace.records()) add(r, trace.strings());
    }

    static TraceModel of(TraceParser.ParsedTrace trace) {
        return new TraceModel(trace);
    }

    private void add(TraceParser.Record r, Map<Integer, String> strings) {
        if (r.event().equals("chromium_event")) {
            if (r.payload() != null && r.payloadIntact() && parsesAsObject(r.payload())) {
                chromiumEvents.add(r.payload().strip());
            } else {
                problems.add(new TraceParser.Problem(r.line(), "a chromium_event without a JSON object payload"));
            }
            return;
        }
        CompileEntry entry = compiles.computeIfAbsent(r.compileId(), CompileEntry::new);
        switch (r.event()) {
            case "dynamo_start" -> {
                if (r.metadata() instanceof Map<?, ?> m) entry.stack.addAll(Frame.of(m.get("stack"), strings));
                trie.insert(entry.stack, entry);
            }
            case "compilation_metrics" -> {
                if (r.metadata() instanceof Map<?, ?> m) entry.metrics = stringKeys(m);
                else problems.add(new TraceParser.Problem(r.line(), "compilation_metrics is not an object"));
            }
            default -> {}
        }
        if (r.payload() == null) return;
        String name = artifactName(r);
        if (name.equals("dynamo_graph_break_reason")) entry.graphBreaks.add(r.payload());
        if (name.equals("recompile_reasons")) entry.recompileReasons.addAll(reasons(r.payload()));
        String title = TITLES.getOrDefault(name, name);
        if (r.event().equals("inductor_output_code")
                && r.metadata() instanceof Map<?, ?> m
                && m.get("filename") instanceof String file) {
            title += " (" + file + ")";
        }
        String extension = isJson(r) ? ".json" : ".txt";
        String file = safe(name) + "_" + payloadFiles++ + extension;
        entry.artifacts.add(new Artifact(name, title, file, r.payload(), r.payloadIntact(), r.line()));
    }

    /** An {@code artifact}'s own name, else the event key. */
    private static String artifactName(TraceParser.Record r) {
        if (r.event().equals("artifact") && r.metadata() instanceof Map<?, ?> m && m.get("name") instanceof String n) {
            return n;
        }
        return r.event();
    }

    private static boolean isJson(TraceParser.Record r) {
        if (r.event().equals("dynamo_guards")) return true;
        return r.event().equals("artifact") && r.metadata() instanceof Map<?, ?> m && "json".equals(m.get("encoding"));
    }

    /** The reasons of a {@code recompile_reasons} payload: a JSON list of strings, or one string. */
    private static List<String> reasons(String payload) {
        List<String> out = new ArrayList<>();
        try {
            Object v = JsonReader.parse(payload);
            if (v instanceof List<?> l) for (Object o : l) out.add(String.valueOf(o));
            else out.add(String.valueOf(v));
        } catch (IllegalArgumentException notJson) {
            out.add(payload);
        }
        return out;
    }

    private static boolean parsesAsObject(String payload) {
        try {
            return JsonReader.parse(payload) instanceof Map<?, ?>;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static Map<String, Object> stringKeys(Map<?, ?> m) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : m.entrySet()) out.put(String.valueOf(e.getKey()), e.getValue());
        return out;
    }

    /** A name fit for a file: letters, digits, dot, dash and underscore. */
    private static String safe(String name) {
        String s = name.replaceAll("[^A-Za-z0-9._-]", "_");
        return s.isEmpty() || s.startsWith(".") ? "artifact" + s : s;
    }
}
