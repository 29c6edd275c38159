package org.jtorch.compile.trace.report;

/**
 * A payload of a compile, as the report shows it: a section of the compile's page and a raw file next to it.
 *
 * @param name the event key, or an {@code artifact}'s own name ({@code dynamo_graph_break_reason})
 * @param title the section's heading ("Dynamo output graph", or an artifact's own name)
 * @param fileName the raw file's name in the compile's directory, unique in the report
 * @param payload the payload's text
 * @param intact false when the payload's MD5 differs from the record's {@code has_payload}
 * @param line the record's line in the trace file
 */
record Artifact(String name, String title, String fileName, String payload, boolean intact, int line) {
    boolean isGraphBreak() {
        return name.equals("dynamo_graph_break_reason");
    }
}
