package org.jtorch.utils.data;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchTypeException;

/**
 * {@code torch.utils.data.default_collate}: a list of samples becomes one batch of the same structure, recursively —
 * tensors are stacked along a new first dimension, integers become an int64 tensor, floating-point numbers a float64
 * tensor, booleans a bool tensor, strings stay a list, maps collate per key, lists per position (all of the same
 * length), records per component into a record of the same type.
 *
 * <p>A record is rebuilt through its canonical constructor, so each component must be able to hold what it collates to
 * (a {@code Tensor} or {@code Object} component for numbers and tensors); otherwise the error names the component.
 */
final class Collate {
    private Collate() {}

    static Object defaultCollate(List<?> batch) {
        if (batch.isEmpty()) throw new IllegalArgumentException("default_collate: the batch is empty");
        Object elem = batch.get(0);
        return switch (elem) {
            case Tensor _ -> Torch.stack(cast(batch, Tensor.class), 0);
            case Boolean _ -> numbers(batch, DType.BOOL);
            case Byte _, Short _, Integer _, Long _ -> numbers(batch, DType.INT64);
            case Float _, Double _ -> numbers(batch, DType.FLOAT64);
            case CharSequence _ -> Collections.unmodifiableList(new ArrayList<>(batch));
            case Map<?, ?> m -> maps(batch, m);
            case Record r -> records(batch, r.getClass());
            case List<?> l -> lists(batch, l.size());
            default ->
                throw new TorchTypeException("default_collate: batch must contain tensors, numbers, strings, maps, "
                        + "lists or records; found " + elem.getClass().getName());
        };
    }

    private static <E> List<E> cast(List<?> batch, Class<E> type) {
        List<E> out = new ArrayList<>(batch.size());
        for (Object o : batch) {
            if (!type.isInstance(o)) {
                throw new TorchTypeException("default_collate: a batch mixes " + type.getSimpleName() + " and "
                        + (o == null ? "null" : o.getClass().getSimpleName()));
            }
            out.add(type.cast(o));
        }
        return out;
    }

    private static Tensor numbers(List<?> batch, DType dtype) {
        double[] values = new double[batch.size()];
        long[] longs = new long[batch.size()];
        boolean[] bools = new boolean[batch.size()];
        for (int i = 0; i < values.length; i++) {
            Object o = batch.get(i);
            switch (o) {
                case Boolean b -> bools[i] = b;
                case Number n -> {
                    values[i] = n.doubleValue();
                    longs[i] = n.longValue();
                }
                default ->
                    throw new TorchTypeException("default_collate: a batch mixes numbers and "
                            + (o == null ? "null" : o.getClass().getSimpleName()));
            }
        }
        return switch (dtype) {
            case BOOL -> Torch.tensor(bools);
            case INT64 -> Torch.tensor(longs);
            default -> Torch.tensor(values);
        };
    }

    private static Map<Object, Object> maps(List<?> batch, Map<?, ?> first) {
        Map<Object, Object> out = new LinkedHashMap<>();
        for (Object key : first.keySet()) {
            List<Object> column = new ArrayList<>(batch.size());
            for (Map<?, ?> m : cast(batch, Map.class)) {
                if (!m.containsKey(key))
                    throw new IllegalArgumentException("default_collate: a sample has no key " + key);
                column.add(m.get(key));
            }
            out.put(key, defaultCollate(column));
        }
        return Collections.unmodifiableMap(out);
    }

    private static List<Object> lists(List<?> batch, int size) {
        List<List<?>> samples = new ArrayList<>();
        for (Object o : batch) {
            if (!(o instanceof List<?> l))
                throw new TorchTypeException("default_collate: a batch mixes lists and " + o);
            if (l.size() != size) throw new TorchTypeException("each element in list of batch should be of equal size");
            samples.add(l);
        }
        List<Object> out = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            List<Object> column = new ArrayList<>(batch.size());
            for (List<?> s : samples) column.add(s.get(i));
            out.add(defaultCollate(column));
        }
        return Collections.unmodifiableList(out);
    }

    private static Record records(List<?> batch, Class<?> type) {
        RecordComponent[] components = type.getRecordComponents();
        Object[] values = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        for (int c = 0; c < components.length; c++) {
            List<Object> column = new ArrayList<>(batch.size());
            for (Object o : batch) {
                if (o == null || o.getClass() != type)
                    throw new TorchTypeException(
                            "default_collate: a batch mixes " + type.getSimpleName() + " and " + o);
                column.add(read(components[c], o));
            }
            values[c] = defaultCollate(column);
            types[c] = components[c].getType();
            if (!types[c].isInstance(values[c])) {
                throw new TorchTypeException("default_collate: component '" + components[c].getName() + "' of record "
                        + type.getSimpleName() + " is declared " + types[c].getSimpleName()
                        + " and cannot hold its collated "
                        + values[c].getClass().getSimpleName()
                        + "; declare it Tensor (or Object), or give the DataLoader a collateFn");
            }
        }
        try {
            return (Record) type.getDeclaredConstructor(types).newInstance(values);
        } catch (InvocationTargetException e) {
            throw new TorchTypeException(
                    "default_collate: the constructor of " + type.getName() + " failed: " + e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new TorchTypeException("default_collate: cannot construct " + type.getName()
                    + " (is it public, in a package open to org.jtorch?): " + e);
        }
    }

    private static Object read(RecordComponent component, Object record) {
        try {
            return component.getAccessor().invoke(record);
        } catch (ReflectiveOperationException e) {
            throw new TorchTypeException("default_collate: cannot read component '" + component.getName() + "' of "
                    + record.getClass().getName() + " (is it public, in a package open to org.jtorch?): " + e);
        }
    }
}
