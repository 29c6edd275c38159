package org.jtorch.onnx;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.onnx.proto.OnnxProto.AttributeProto;
import org.jtorch.onnx.proto.OnnxProto.GraphProto;
import org.jtorch.onnx.proto.OnnxProto.NodeProto;
import org.jtorch.onnx.proto.OnnxProto.TensorProto;

/**
 * The ONNX graph being written: nodes in topological order, initializers, and unique value names. Each
 * {@code node(...)} call appends one ONNX node and returns the names of its outputs.
 */
final class OnnxGraph {
    private final GraphProto.Builder proto = GraphProto.newBuilder();
    private final Set<String> names = new HashSet<>();
    private final Map<String, Tensor> weights = new LinkedHashMap<>();
    private final Map<String, String> int64Constants = new java.util.HashMap<>();
    private int counter;

    OnnxGraph(String name) {
        proto.setName(name);
    }

    GraphProto.Builder proto() {
        return proto;
    }

    /** A value name not used yet, from {@code hint}. */
    String fresh(String hint) {
        String base = hint.replaceAll("[^A-Za-z0-9_.:/-]", "_");
        String name = base;
        while (!names.add(name)) name = base + "_" + (++counter);
        return name;
    }

    /** Reserves a name given from outside (an input, an initializer's state-dict name). */
    String reserve(String name) {
        if (!names.add(name)) throw new IllegalStateException("onnx export: the value name " + name + " is taken");
        return name;
    }

    /** Appends a node of {@code opType} with one output; returns its name. */
    String node(String opType, List<String> inputs, AttributeProto... attributes) {
        return nodeN(opType, inputs, 1, attributes).getFirst();
    }

    /** Appends a node with {@code outputs} outputs; returns their names. */
    List<String> nodeN(String opType, List<String> inputs, int outputs, AttributeProto... attributes) {
        NodeProto.Builder n = NodeProto.newBuilder()
                .setOpType(opType)
                .setName(fresh("node_" + opType))
                .addAllInput(inputs);
        List<String> outs = new ArrayList<>();
        for (int i = 0; i < outputs; i++) outs.add(fresh(opType.toLowerCase(java.util.Locale.ROOT)));
        n.addAllOutput(outs);
        for (AttributeProto a : attributes) n.addAttribute(a);
        proto.addNode(n);
        return outs;
    }

    /** Adds a weight as an initializer under {@code name}; its data is written with the model. */
    void initializer(String name, Tensor t) {
        weights.put(name, t);
        proto.addInitializer(TensorProtos.header(name, t));
    }

    /** The weights' tensors by initializer name: their data is filled in (inline or external) by the writer. */
    Map<String, Tensor> weights() {
        return weights;
    }

    /**
     * Every initializer whose value is known at export time, by name: the weights, and the constants written inline
     * (shapes, scalars, computed tensors).
     */
    Map<String, Tensor> constants() {
        Map<String, Tensor> known = new java.util.HashMap<>();
        for (TensorProto t : proto.getInitializerList()) {
            Tensor value = weights.containsKey(t.getName()) ? weights.get(t.getName()) : TensorProtos.valueOf(t);
            if (value != null) known.put(t.getName(), value);
        }
        return known;
    }

    /** An int64 vector constant as an initializer; returns its name. */
    String int64s(long... values) {
        // shapes, axes and bounds repeat across a graph: one initializer each
        return int64Constants.computeIfAbsent(java.util.Arrays.toString(values), k -> {
            String name = fresh("val_i64");
            proto.addInitializer(TensorProtos.int64s(name, values));
            return name;
        });
    }

    /** A rank-0 constant of {@code dtype}; returns its name. */
    String scalar(DType dtype, double value) {
        String name = fresh("val_" + dtype.name().toLowerCase(java.util.Locale.ROOT));
        TensorProto t = TensorProtos.scalar(name, dtype, value);
        proto.addInitializer(t);
        return name;
    }

    /** A tensor computed at export time (an arange, a filled constant) as an inline initializer; returns its name. */
    String constant(Tensor t) {
        String name = fresh("val_const");
        proto.addInitializer(TensorProtos.of(name, t));
        return name;
    }

    static AttributeProto attr(String name, TensorProto value) {
        return AttributeProto.newBuilder()
                .setName(name)
                .setType(AttributeProto.AttributeType.TENSOR)
                .setT(value)
                .build();
    }

    static AttributeProto attr(String name, long value) {
        return AttributeProto.newBuilder()
                .setName(name)
                .setType(AttributeProto.AttributeType.INT)
                .setI(value)
                .build();
    }

    static AttributeProto attr(String name, float value) {
        return AttributeProto.newBuilder()
                .setName(name)
                .setType(AttributeProto.AttributeType.FLOAT)
                .setF(value)
                .build();
    }

    static AttributeProto attr(String name, String value) {
        return AttributeProto.newBuilder()
                .setName(name)
                .setType(AttributeProto.AttributeType.STRING)
                .setS(com.google.protobuf.ByteString.copyFromUtf8(value))
                .build();
    }

    static AttributeProto attr(String name, long[] values) {
        AttributeProto.Builder b = AttributeProto.newBuilder().setName(name).setType(AttributeProto.AttributeType.INTS);
        for (long v : values) b.addInts(v);
        return b.build();
    }
}
