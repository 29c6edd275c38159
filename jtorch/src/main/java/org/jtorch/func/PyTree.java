package org.jtorch.func;

import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.Tensor;

/**
 * Nested containers of tensors (PyTorch's pytrees): {@code Object[]}, {@code Tensor[]}, {@link List}, {@link Map} and
 * records are containers; {@code null} (Python's None) is an empty container; everything else is a leaf.
 */
final class PyTree {
    private PyTree() {}

    static boolean isContainer(Object o) {
        return o instanceof Object[] || o instanceof List<?> || o instanceof Map<?, ?> || o instanceof Record;
    }

    /** The children of a container, in order. */
    static List<Object> children(Object o) {
        if (o instanceof Object[] a) return java.util.Arrays.asList(a);
        if (o instanceof List<?> l) return Collections.unmodifiableList(l);
        if (o instanceof Map<?, ?> m) return new ArrayList<>(m.values());
        if (o instanceof Record r) {
            List<Object> out = new ArrayList<>();
            for (RecordComponent c : r.getClass().getRecordComponents()) {
                try {
                    out.add(c.getAccessor().invoke(r));
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            }
            return out;
        }
        throw new IllegalArgumentException("not a container: " + o);
    }

    /** The leaves of {@code tree}, depth first. */
    static List<Object> leaves(Object tree) {
        List<Object> out = new ArrayList<>();
        collect(tree, out);
        return out;
    }

    private static void collect(Object tree, List<Object> out) {
        if (tree == null) return;
        if (isContainer(tree)) for (Object c : children(tree)) collect(c, out);
        else out.add(tree);
    }

    /** {@code tree} with its leaves replaced, in order, by {@code leaves}. */
    static Object rebuild(Object tree, Iterator<?> leaves) {
        if (tree == null) return null;
        if (!isContainer(tree)) return leaves.next();
        List<Object> kids = new ArrayList<>();
        for (Object c : children(tree)) kids.add(rebuild(c, leaves));
        if (tree instanceof Tensor[]) return kids.toArray(Tensor[]::new);
        if (tree instanceof Object[]) return kids.toArray();
        if (tree instanceof List<?>) return kids;
        if (tree instanceof Map<?, ?> m) {
            Map<Object, Object> out = new LinkedHashMap<>();
            int i = 0;
            for (Object k : m.keySet()) out.put(k, kids.get(i++));
            return out;
        }
        Record r = (Record) tree;
        RecordComponent[] comps = r.getClass().getRecordComponents();
        Class<?>[] types = new Class<?>[comps.length];
        for (int i = 0; i < comps.length; i++) types[i] = comps[i].getType();
        try {
            Constructor<?> ctor = r.getClass().getDeclaredConstructor(types);
            ctor.setAccessible(true);
            return ctor.newInstance(kids.toArray());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot rebuild " + r.getClass().getName(), e);
        }
    }

    /**
     * Broadcasts a dims structure over {@code tree}: an Integer or null applies to every leaf below it, a list/array
     * must mirror the container it stands for. Returns null when the structures do not match.
     */
    static List<Integer> broadcastDims(Object dims, Object tree) {
        List<Integer> out = new ArrayList<>();
        return broadcast(dims, tree, out) ? out : null;
    }

    private static boolean broadcast(Object dims, Object tree, List<Integer> out) {
        if (dims == null || dims instanceof Integer) {
            for (int i = leaves(tree).size(); i > 0; i--) out.add((Integer) dims);
            return true;
        }
        if (!(dims instanceof Object[] || dims instanceof List<?>)
                || !(tree instanceof Object[] || tree instanceof List<?>)) {
            return false;
        }
        List<Object> d = children(dims), t = children(tree);
        if (d.size() != t.size()) return false;
        for (int i = 0; i < d.size(); i++) if (!broadcast(d.get(i), t.get(i), out)) return false;
        return true;
    }

    /** A Python-like rendering of a dims structure for messages: {@code (0, None)}. */
    static String str(Object dims) {
        if (dims == null) return "None";
        if (dims instanceof Object[] || dims instanceof List<?>) {
            List<Object> c = children(dims);
            StringBuilder b = new StringBuilder("(");
            for (int i = 0; i < c.size(); i++) b.append(i > 0 ? ", " : "").append(str(c.get(i)));
            return b.append(c.size() == 1 ? ",)" : ")").toString();
        }
        return String.valueOf(dims);
    }
}
