package org.jtorch.export;

import static org.jtorch.export.JsonValues.bool;
import static org.jtorch.export.JsonValues.field;
import static org.jtorch.export.JsonValues.integer;
import static org.jtorch.export.JsonValues.list;
import static org.jtorch.export.JsonValues.map;
import static org.jtorch.export.JsonValues.string;
import static org.jtorch.export.JsonValues.union;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.export.ExportGraphSignature.InputSpec;
import org.jtorch.io.ZipRecords;
import org.jtorch.io.ZipRecordsWriter;

/**
 * The {@code .pt2} archive of {@code torch.export.save}, as PyTorch 2.13 lays it out: an uncompressed zip under one
 * top-level directory with {@code archive_format} ({@code pt2}), {@code archive_version} ({@code 0}),
 * {@code byteorder}, {@code models/model.json} (the program, {@link ProgramWriter}), the parameters and persistent
 * buffers as raw records {@code data/weights/weight_<i>} described by {@code data/weights/model_weights_config.json},
 * the non-persistent buffers and constant tensors likewise under {@code data/constants/}, and an empty
 * {@code data/sample_inputs/model.pt} (no example inputs). Loading also reads the layout before PyTorch 2.8 (a zip of
 * {@code serialized_exported_program.json}, {@code serialized_state_dict.pt} and {@code serialized_constants.pt}, the
 * latter two {@code torch.save} checkpoints, read with {@code weights_only} loading).
 *
 * <p>Loading treats the file as hostile: the zip's directory and every record are checked by {@link ZipRecords}, each
 * JSON document is parsed with bounds, each tensor's geometry must fit its record, and no class is ever instantiated
 * from the file's contents: ops are looked up by name among JTorch's.
 */
final class Pt2Archive {
    private Pt2Archive() {}

    /** A program's JSON may be large (a big model has many nodes), but not unbounded. */
    private static final long MAX_PROGRAM_BYTES = 1L << 30;

    private static final long MAX_CONFIG_BYTES = 256L << 20;
    private static final long MAX_SMALL_RECORD = 64;
    private static final Pattern RECORD_NAME = Pattern.compile("[A-Za-z0-9_.\\-]+");
    private static final String MODEL = "model";

    /** {@code torch.export.save(ep, path)}. */
    static void save(ExportedProgram program, Path path) {
        String json = Json.write(ProgramWriter.write(program));
        ZipRecordsWriter zip = new ZipRecordsWriter(archiveName(path));
        Map<String, Object> weights = new LinkedHashMap<>();
        Map<String, Object> constants = new LinkedHashMap<>();
        int w = 0, c = 0;
        for (InputSpec s : program.graphSignature().inputSpecs()) {
            switch (s.kind()) {
                case PARAMETER, BUFFER -> {
                    Tensor t = program.stateDict().get(s.target());
                    boolean inWeights = s.kind() == ExportGraphSignature.InputKind.PARAMETER || s.persistent();
                    if (inWeights) {
                        String record = "weight_" + w++;
                        zip.add("data/weights/" + record, t);
                        weights.put(
                                s.target(), payload(record, t, s.kind() == ExportGraphSignature.InputKind.PARAMETER));
                    } else {
                        String record = "tensor_" + c++;
                        zip.add("data/constants/" + record, t);
                        constants.put(s.target(), payload(record, t, false));
                    }
                }
                case CONSTANT_TENSOR -> {
                    Tensor t = program.constants().get(s.target());
                    String record = "tensor_" + c++;
                    zip.add("data/constants/" + record, t);
                    constants.put(s.target(), payload(record, t, false));
                }
                case USER_INPUT -> {}
            }
        }
        zip.add("data/weights/" + MODEL + "_weights_config.json", Json.write(Map.of("config", weights)));
        zip.add("data/constants/" + MODEL + "_constants_config.json", Json.write(Map.of("config", constants)));
        zip.add("models/" + MODEL + ".json", json);
        zip.add("data/sample_inputs/" + MODEL + ".pt", new byte[0]);
        zip.add("archive_format", "pt2");
        zip.add("archive_version", "0");
        zip.add(".data/version", "6\n");
        zip.add("byteorder", "little");
        zip.add(".data/serialization_id", serializationId());
        zip.save(path);
    }

    /** A weight's {@code PayloadMeta}: its record, and its metadata as a contiguous tensor at offset 0. */
    private static Map<String, Object> payload(String record, Tensor t, boolean parameter) {
        List<Object> sizes = new java.util.ArrayList<>();
        List<Object> strides = new java.util.ArrayList<>();
        long[] contiguous = org.jtorch.internal.Shapes.contiguousStrides(t.shape());
        for (int d = 0; d < t.dim(); d++) {
            sizes.add(Map.of("as_int", t.size(d)));
            strides.add(Map.of("as_int", contiguous[d]));
        }
        Map<String, Object> device = new LinkedHashMap<>();
        device.put("type", "cpu");
        device.put("index", null);
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("dtype", (long) ScalarTypes.code(t.dtype()));
        meta.put("sizes", sizes);
        meta.put("requires_grad", t.requiresGrad());
        meta.put("device", device);
        meta.put("strides", strides);
        meta.put("storage_offset", Map.of("as_int", 0L));
        meta.put("layout", 7L);
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("path_name", record);
        p.put("is_param", parameter);
        p.put("use_pickle", false);
        p.put("tensor_meta", meta);
        return p;
    }

    /** {@code torch.export.load(path)}. */
    static ExportedProgram load(Path path) {
        try (ZipRecords zip = ZipRecords.open(path)) {
            String what = path.toString();
            List<String> names = zip.names();
            if (names.isEmpty()) throw new TorchException(what + ": the archive is empty: not a .pt2 file");
            if (zip.contains("serialized_exported_program.json")) return loadLegacy(zip, what);
            int slash = names.getFirst().indexOf('/');
            if (slash <= 0) throw new TorchException(what + ": records are not under one directory: not a .pt2 file");
            String root = names.getFirst().substring(0, slash + 1);
            if (!zip.contains(root + "archive_format")
                    || !text(zip, root + "archive_format").equals("pt2")) {
                throw new TorchException(what + ": no " + root + "archive_format saying pt2: not a .pt2 archive"
                        + " (a torch.save checkpoint loads with Torch.load)");
            }
            if (zip.contains(root + "archive_version")
                    && !text(zip, root + "archive_version").equals("0")) {
                throw new TorchException(
                        what + ": archive version " + text(zip, root + "archive_version") + "; JTorch reads version 0");
            }
            if (zip.contains(root + "byteorder")
                    && !text(zip, root + "byteorder").equals("little")) {
                throw new TorchException(what + ": byte order " + text(zip, root + "byteorder")
                        + "; JTorch reads little-endian archives");
            }
            String program = root + "models/" + MODEL + ".json";
            if (!zip.contains(program)) {
                throw new TorchException(what + ": no " + program + " (the program torch.export.save names '"
                        + MODEL + "'); the archive has "
                        + names.stream()
                                .filter(n -> n.startsWith(root + "models/"))
                                .toList());
            }
            Map<String, Object> model = map(Json.parse(utf8(zip.bytes(program, MAX_PROGRAM_BYTES)), program), program);
            Map<String, Tensor> weights = payloads(zip, root + "data/weights/", MODEL + "_weights_config.json", what);
            Map<String, Tensor> constants =
                    payloads(zip, root + "data/constants/", MODEL + "_constants_config.json", what);
            return ProgramReader.read(model, weights, constants, what);
        }
    }

    /** The tensors a payload config describes (or, in an archive of PyTorch 2.8's, the pickled file it replaced). */
    private static Map<String, Tensor> payloads(ZipRecords zip, String dir, String config, String what) {
        String legacy = dir + MODEL + ".pt";
        if (!zip.contains(dir + config) && zip.contains(legacy)) return tensors(zip.checkpoint(legacy), legacy);
        String where = what + ": " + dir + config;
        Map<String, Object> json = map(Json.parse(utf8(zip.bytes(dir + config, MAX_CONFIG_BYTES)), where), where);
        Map<String, Object> entries = map(field(json, "config", where), where + ".config");
        Map<String, Tensor> out = new LinkedHashMap<>();
        for (var e : entries.entrySet()) {
            String at = where + "['" + e.getKey() + "']";
            Map<String, Object> payload = map(e.getValue(), at);
            String record = string(field(payload, "path_name", at), at + ".path_name");
            if (!RECORD_NAME.matcher(record).matches() || record.startsWith(".")) {
                throw new TorchException(at + ": bad record name '" + record + "'");
            }
            if (bool(field(payload, "use_pickle", at), at + ".use_pickle")) {
                Object loaded = zip.checkpoint(dir + record);
                if (!(loaded instanceof Tensor t)) throw new TorchException(at + ": the pickled payload is no tensor");
                out.put(e.getKey(), t);
                continue;
            }
            Map<String, Object> meta = map(field(payload, "tensor_meta", at), at + ".tensor_meta");
            DType dtype = ScalarTypes.dtype(integer(field(meta, "dtype", at), at + ".dtype"), at);
            long[] sizes = ints(field(meta, "sizes", at), at + ".sizes");
            long[] strides = ints(field(meta, "strides", at), at + ".strides");
            long offset = intValue(field(meta, "storage_offset", at), at + ".storage_offset");
            Object layout = meta.get("layout");
            if (layout != null && integer(layout, at + ".layout") != 7) {
                throw new TorchException(at + ": only strided tensors are supported");
            }
            Tensor t = zip.tensor(dir + record, dtype, sizes, strides, offset);
            boolean requiresGrad = bool(field(meta, "requires_grad", at), at + ".requires_grad");
            if (requiresGrad && !dtype.isFloatingPoint() && !dtype.isComplex()) {
                throw new TorchException(at + ": only floating-point and complex tensors can require grad");
            }
            out.put(e.getKey(), requiresGrad ? t.requiresGrad(true) : t);
        }
        return out;
    }

    private static ExportedProgram loadLegacy(ZipRecords zip, String what) {
        if (!zip.contains("version")) throw new TorchException(what + ": a pre-2.8 archive without its version");
        String version = text(zip, "version");
        if (!version.startsWith("8.")) {
            throw new TorchException(what + ": export schema version " + version + "; JTorch reads version 8.x");
        }
        String program = "serialized_exported_program.json";
        Map<String, Object> model = map(Json.parse(utf8(zip.bytes(program, MAX_PROGRAM_BYTES)), program), program);
        Map<String, Tensor> weights = tensors(zip.checkpoint("serialized_state_dict.pt"), "serialized_state_dict.pt");
        Map<String, Tensor> constants = zip.contains("serialized_constants.pt")
                ? tensors(zip.checkpoint("serialized_constants.pt"), "serialized_constants.pt")
                : Map.of();
        return ProgramReader.read(model, weights, constants, what);
    }

    private static Map<String, Tensor> tensors(Object loaded, String where) {
        if (!(loaded instanceof Map<?, ?> m)) throw new TorchException(where + " does not hold a dict of tensors");
        Map<String, Tensor> out = new LinkedHashMap<>();
        for (var e : m.entrySet()) {
            if (!(e.getKey() instanceof String k) || !(e.getValue() instanceof Tensor t)) {
                throw new TorchException(where + " holds an entry that is not a name and a tensor");
            }
            out.put(k, t);
        }
        return out;
    }

    private static long[] ints(Object v, String where) {
        List<Object> l = list(v, where);
        long[] out = new long[l.size()];
        for (int i = 0; i < out.length; i++) out[i] = intValue(l.get(i), where + "[" + i + "]");
        return out;
    }

    /** A {@code SymInt} that must be a plain integer (a weight's geometry is never symbolic). */
    private static long intValue(Object v, String where) {
        var u = union(v, where);
        if (!u.getKey().equals("as_int")) throw new TorchException(where + " is symbolic: a weight's size is not");
        return integer(u.getValue(), where);
    }

    private static String text(ZipRecords zip, String record) {
        return utf8(zip.bytes(record, MAX_SMALL_RECORD)).strip();
    }

    private static String utf8(byte[] bytes) {
        var decoder = StandardCharsets.UTF_8.newDecoder();
        try {
            return decoder.decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new TorchException("a text record of the archive is not UTF-8");
        }
    }

    private static String archiveName(Path path) {
        Path name = path.getFileName();
        String base = name == null ? "" : name.toString();
        int dot = base.lastIndexOf('.');
        if (dot > 0) base = base.substring(0, dot);
        base = base.replace('/', '_');
        return base.isEmpty() ? "archive" : base;
    }

    /** A random id, as PyTorch's writer records one per file. */
    private static String serializationId() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        StringBuilder sb = new StringBuilder();
        while (sb.length() < 40) sb.append(r.nextInt(10));
        return sb.toString();
    }
}
