package org.jtorch.fx;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jtorch.dispatch.Schema;
import org.jtorch.ops.OpDef;

/**
 * One value of a {@link Graph}, as in {@code torch.fx}: an input ({@code placeholder}), a constant tensor the module
 * holds ({@code get_attr}), a call ({@code call_function}) or the graph's result ({@code output}).
 *
 * <p>A call's target is the op overload in PyTorch's spelling, {@code aten.add.Tensor} or {@code aten.hypot.default},
 * so that graphs and PyTorch's exported programs speak one vocabulary. An op with several outputs is one node whose
 * value is the tuple of them; each output is then read by a {@code call_function} node with target {@value #GETITEM}
 * and arguments {@code (tuple node, index)}, as PyTorch reads them with {@code operator.getitem}.
 *
 * <p>Arguments are in schema order: other nodes, constants (boxed numbers, booleans, {@code Scalar}, {@code long[]},
 * dtypes, devices, enums, generators, strings, {@code null} for None) and tensor lists, which are lists of nodes (or
 * {@code null} for an absent optional tensor) that run as {@code Tensor[]}. Where an op's entry point takes a number
 * for a tensor argument (PyTorch's wrapped numbers), the graph keeps the number.
 *
 * <p>In-place and {@code out=} calls are recorded as such, in PyTorch's naming ({@code aten.add_.Tensor},
 * {@code aten.masked_fill.Tensor_out}): see {@link #form()}.
 */
public final class Node {
    /** How a call treats its outputs. */
    public enum Form {
        /** Returns new tensors. */
        FUNCTIONAL,
        /** Writes its first argument and returns it ({@code aten.add_.Tensor}). */
        IN_PLACE,
        /**
         * Writes the tensors of its last argument, which follows the op's own ({@code aten.masked_fill.Tensor_out}),
         * and returns the one it writes (or all of them, read with {@value #GETITEM}).
         */
        OUT
    }

    /** The target of the node that reads one output of a multi-output call. */
    public static final String GETITEM = "getitem";

    static final String PLACEHOLDER = "placeholder";
    static final String GET_ATTR = "get_attr";
    static final String CALL_FUNCTION = "call_function";
    static final String OUTPUT = "output";

    private final Graph graph;
    private final String op;
    private final String target;
    private final String name;
    private final OpDef opDef;
    private final Form form;
    private List<Object> args;
    private final Set<Node> users = new LinkedHashSet<>();
    private TensorMeta meta;
    private SymIntArray symbolicShape;

    Node(Graph graph, String op, String target, String name, OpDef opDef, Form form, List<Object> args) {
        this.graph = graph;
        this.op = op;
        this.target = target;
        this.name = name;
        this.opDef = opDef;
        this.form = form;
        this.args = args;
    }

    /** {@code placeholder}, {@code get_attr}, {@code call_function} or {@code output}. */
    public String op() {
        return op;
    }

    /**
     * What the node computes: the op overload ({@code aten.add.Tensor}), {@value #GETITEM}, the constant's name for a
     * {@code get_attr}, the input's name for a placeholder, {@code output} for the output.
     */
    public String target() {
        return target;
    }

    /** Its name, unique in the graph: what the printout and the other nodes' arguments call it. */
    public String name() {
        return name;
    }

    /** The graph that owns this node ({@code torch.fx.Node.graph}). */
    public Graph graph() {
        return graph;
    }

    /** The arguments, in schema order (see the class comment); the output node's are the results. */
    public List<Object> args() {
        return args;
    }

    /** The nodes that take this one as an argument, in the order they started to. */
    public List<Node> users() {
        return List.copyOf(users);
    }

    /** The op this node calls, or null when it calls none (every node but an op's {@code call_function}). */
    @SuppressWarnings("exports") // op definitions are not exported: the compiler's passes, inside the module, read them
    public OpDef opDef() {
        return opDef;
    }

    /** The schema of the op this node calls, or null. */
    @SuppressWarnings("exports") // as opDef()
    public Schema schema() {
        return opDef == null ? null : opDef.schema();
    }

    /** Whether the call returns new tensors, writes its first argument or writes {@code out=} tensors. */
    public Form form() {
        return form;
    }

    /**
     * Whether running this node has an effect besides its value: an in-place or {@code out=} call, or an op that writes
     * an argument ({@code Tensor(a!)}) or is tagged in-place, has side effects or draws random numbers (dropping or
     * merging a draw would change every later one). Passes neither remove nor merge such nodes.
     */
    public boolean isImpure() {
        if (form != Form.FUNCTIONAL) return true;
        if (opDef == null) return false;
        return opDef.has(OpDef.Flag.INPLACE)
                || opDef.has(OpDef.Flag.SIDE_EFFECTS)
                || opDef.has(OpDef.Flag.RANDOM)
                || opDef.schema().isMutable();
    }

    /** The metadata of the tensor this node computes, or null (a tuple, a call returning nothing, the output). */
    public TensorMeta meta() {
        return meta;
    }

    /** Records the metadata of the tensor this node computes. */
    public void setMeta(TensorMeta meta) {
        this.meta = meta;
    }

    /**
     * The value's sizes in the graph's symbols ({@code [s0, 16]}) when the graph serves dynamic sizes, else null: then
     * {@link #meta()} holds the sizes of the trace it came from.
     */
    public SymIntArray symbolicShape() {
        return symbolicShape;
    }

    /** Sets {@link #symbolicShape()}. */
    public void setSymbolicShape(SymIntArray shape) {
        this.symbolicShape = shape;
    }

    /** The nodes among the arguments, in order, also inside tensor lists. */
    public List<Node> inputNodes() {
        List<Node> in = new ArrayList<>();
        for (Object a : args) collectNodes(a, in);
        return in;
    }

    private static void collectNodes(Object arg, List<Node> into) {
        if (arg instanceof Node n) into.add(n);
        else if (arg instanceof List<?> l) for (Object e : l) collectNodes(e, into);
    }

    /**
     * Makes every user of this node use {@code replacement} instead; returns how many users changed. This node is left
     * without users, ready to be {@linkplain Graph#erase erased}.
     */
    public int replaceAllUsesWith(Node replacement) {
        if (replacement.graph != graph) throw new IllegalArgumentException(replacement + " is in another graph");
        if (replacement == this) return 0;
        List<Node> changed = users();
        for (Node user : changed) {
            user.args = substitute(user.args, this, replacement);
            replacement.users.add(user);
        }
        users.clear();
        return changed.size();
    }

    private static List<Object> substitute(List<?> args, Node from, Node to) {
        List<Object> out = new ArrayList<>(args.size());
        for (Object a : args) {
            if (a == from) out.add(to);
            else if (a instanceof List<?> l) out.add(substitute(l, from, to));
            else out.add(a);
        }
        return Collections.unmodifiableList(out);
    }

    /** Starts tracking the users of this node's inputs; called when the node joins its graph. */
    void link() {
        for (Node in : inputNodes()) in.users.add(this);
    }

    /** Stops tracking this node as a user of its inputs; called when it leaves its graph. */
    void unlink() {
        for (Node in : inputNodes()) in.users.remove(this);
    }

    boolean hasUsers() {
        return !users.isEmpty();
    }

    @Override
    public String toString() {
        return name;
    }
}
