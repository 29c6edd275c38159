package org.jtorch.compile.trace;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The text of one record, as PyTorch's {@code trace_structured} and its formatter write it: the glog prefix, a JSON
 * object holding the event key (with the event's metadata), the context keys ({@code rank}, {@code frame_id},
 * {@code frame_compile_id}, {@code attempt}) and, when there is a payload, {@code has_payload} (the payload's MD5 in
 * hex); then the payload's lines, each after a tab.
 */
final class TraceRecord {
    private TraceRecord() {}

    static String format(Integer rank, String event, Object metadata, CompileId id, String payload) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put(event, metadata);
        if (rank != null) json.put("rank", rank);
        if (id != null) {
            json.put("frame_id", id.frameId());
            json.put("frame_compile_id", id.frameCompileId());
            json.put("attempt", id.attempt());
        }
        String text = payload == null ? null : normalize(payload);
        if (text != null) json.put("has_payload", md5(text));
        StringBuilder out = new StringBuilder(GlogPrefix.now());
        TraceJson.write(out, json);
        if (text != null) {
            for (String line : text.split("\n", -1)) out.append("\n\t").append(line);
        }
        return out.append('\n').toString();
    }

    /**
     * A payload with {@code \n} line ends only: readers split the record's lines at any line end, so a {@code \r} kept
     * in the payload would not come back and its MD5 would not match.
     */
    static String normalize(String payload) {
        return payload.indexOf('\r') < 0
                ? payload
                : payload.replace("\r\n", "\n").replace('\r', '\n');
    }

    static String md5(String text) {
        try {
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            return HexFormat.of().formatHex(md5.digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides MD5", e);
        }
    }
}
