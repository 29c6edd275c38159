package org.jtorch.nn;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.jtorch.Tensor;

/** {@code torch.nn.ParameterList}: an indexed list of registered parameters named {@code "0"}, {@code "1"}, .... */
public final class ParameterList extends Module implements Iterable<Tensor> {
    /** {@code ParameterList(values)}. */
    public ParameterList(Tensor... parameters) {
        for (Tensor p : parameters) append(p);
    }

    /** {@code append(value)}: registers it as a parameter (marking it as requiring grad); returns this. */
    public ParameterList append(Tensor parameter) {
        registerParameter(Integer.toString(size()), parameter);
        return this;
    }

    /** {@code len(list)}. */
    public int size() {
        return registeredParameters().size();
    }

    /** {@code list[index]}: negative indices count from the end. */
    public Tensor get(int index) {
        int n = size();
        if (index < -n || index >= n) throw new IndexOutOfBoundsException("index " + index + " is out of range");
        return list().get(index < 0 ? index + n : index);
    }

    private List<Tensor> list() {
        return new ArrayList<>(registeredParameters().values());
    }

    @Override
    public Iterator<Tensor> iterator() {
        return List.copyOf(list()).iterator();
    }

    /** PyTorch's summary line per entry: {@code (0): Parameter containing: [torch.float32 of size 3x4]}. */
    @Override
    protected String extraRepr() {
        List<String> lines = new ArrayList<>();
        int k = 0;
        for (Tensor p : list()) {
            List<String> sizes = new ArrayList<>();
            for (long s : p.impl().shapeRef()) sizes.add(Long.toString(s));
            lines.add("  (" + k++ + "): Parameter containing: [" + p.dtype() + " of size " + String.join("x", sizes)
                    + "]");
        }
        return String.join("\n", lines);
    }
}
