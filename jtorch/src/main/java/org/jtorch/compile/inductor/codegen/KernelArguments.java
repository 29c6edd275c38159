package org.jtorch.compile.inductor.codegen;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.TorchException;
import org.jtorch.compile.inductor.ir.Access;
import org.jtorch.compile.inductor.ir.Expr;
import org.jtorch.compile.inductor.ir.LoopKernel;

/**
 * The numbers a kernel class reads at run time instead of holding them as constants: loop extents, each access's offset
 * and strides, and each gather's stride and dimension size. A kernel class is then specialised only to its structure
 * (ranks, element types, expressions, which strides are zero, whether an innermost stride is 0, 1 or other — the choice
 * between broadcast, vector and strided code), so kernels that differ only in sizes share one class.
 *
 * <p>The kernel's {@code long[] args} holds each buffer's storage offset, then these arguments in the order numbered
 * here; the generated {@code run} reads them once per call into locals ({@code n0, n1, …} in the listing). Zero strides
 * (no term), unit innermost strides and extents the loops never read (the first outer one; the first inner one of a
 * multi-dimensional loop) stay out of the arguments, so that every argument is used.
 */
final class KernelArguments {
    /** No argument: the number is fixed by the kernel's structure (a zero stride or a unit innermost stride). */
    static final int NONE = -1;

    private final int buffers;
    private final List<Long> values = new ArrayList<>();
    private final int[] outerSize;
    private final int[] innerSize;
    private final int rowLength;
    private final int[] offset;
    private final int[][] stride;
    private final int[] innermost;
    private final Map<Expr.IndirectLoad, int[]> gathers = new LinkedHashMap<>();

    KernelArguments(KernelLayout layout) {
        LoopKernel k = layout.kernel();
        this.buffers = k.buffers().size();
        long[] outer = k.outer();
        long[] inner = k.inner();
        outerSize = new int[outer.length];
        for (int d = 0; d < outer.length; d++) outerSize[d] = d > 0 ? add(outer[d]) : NONE;
        innerSize = new int[inner.length];
        for (int d = 0; d < inner.length; d++) innerSize[d] = d > 0 || inner.length == 1 ? add(inner[d]) : NONE;
        rowLength = k.isPointwise() ? NONE : add(k.rowLength());
        List<KernelLayout.AccessKey> accesses = layout.accesses();
        offset = new int[accesses.size()];
        stride = new int[accesses.size()][];
        innermost = new int[accesses.size()];
        int last = outer.length + inner.length - 1;
        for (int id = 0; id < accesses.size(); id++) {
            Access a = accesses.get(id).access();
            offset[id] = add(a.offset());
            stride[id] = new int[a.rank()];
            for (int d = 0; d < a.rank(); d++) {
                long s = a.stride(d);
                boolean fixed = s == 0 || (d == last && inner.length > 0 && s == 1);
                stride[id][d] = fixed ? NONE : add(s);
                boolean arrayIndex =
                        d == last && inner.length > 0 && accesses.get(id).buffer() >= 0;
                if (arrayIndex && s != (int) s) {
                    throw new TorchException("inductor: kernel " + k.name() + " walks a buffer with stride " + s
                            + ", beyond a Java array's index range");
                }
            }
            innermost[id] = inner.length == 0 ? NONE : stride[id][last];
        }
        for (LoopKernel.Reduction r : k.reductions()) collectGathers(r.body());
        for (LoopKernel.Store s : k.rowStores()) collectGathers(s.value());
        for (LoopKernel.Store s : k.elementStores()) collectGathers(s.value());
    }

    private int add(long value) {
        values.add(value);
        return values.size() - 1;
    }

    private void collectGathers(Expr e) {
        if (e instanceof Expr.IndirectLoad l && !gathers.containsKey(l)) {
            gathers.put(l, new int[] {add(l.stride()), add(l.size())});
        }
        for (Expr c : e.children()) collectGathers(c);
    }

    /** The number of arguments. */
    int count() {
        return values.size();
    }

    /** The position of argument {@code n} in the kernel's {@code long[] args} (after the buffers' offsets). */
    int position(int n) {
        return buffers + n;
    }

    /** The value of argument {@code n} for this kernel. */
    long value(int n) {
        return values.get(n);
    }

    /** The argument holding the size of outer dimension {@code d} (none for the first: rows are counted, not split). */
    int outerSize(int d) {
        return outerSize[d];
    }

    /** The argument holding the size of inner dimension {@code d}. */
    int innerSize(int d) {
        return innerSize[d];
    }

    /** The argument holding the number of points in a row (a row kernel's inner loop length). */
    int rowLength() {
        return rowLength;
    }

    /** The argument holding access {@code id}'s offset. */
    int offset(int id) {
        return offset[id];
    }

    /** The argument holding access {@code id}'s stride along loop variable {@code d}, or {@link #NONE}. */
    int stride(int id, int d) {
        return stride[id][d];
    }

    /**
     * The argument holding access {@code id}'s stride along the innermost loop, or {@link #NONE} (no inner loop, or a
     * stride of 0 or 1).
     */
    int innermostStride(int id) {
        return innermost[id];
    }

    /** The arguments holding gather {@code l}'s stride and dimension size. */
    int[] gather(Expr.IndirectLoad l) {
        return gathers.get(l);
    }

    /** This kernel's {@code args} array with zero storage offsets: the launch fills in its buffers' offsets. */
    long[] array() {
        long[] out = new long[buffers + values.size()];
        for (int n = 0; n < values.size(); n++) out[buffers + n] = values.get(n);
        return out;
    }
}
