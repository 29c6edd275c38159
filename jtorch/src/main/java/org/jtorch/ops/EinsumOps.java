package org.jtorch.ops;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.internal.Shapes;

/**
 * Tensor contractions: {@code einsum} and {@code tensordot}, composites written as ATen writes them (permute/reshape to
 * one {@code bmm} or {@code mm} per pair of operands, {@code sum} for dims that only one operand has), so they are as
 * fast as the products and inherit their rules, autograd included. Like the products they do not promote: operands must
 * share a dtype unless a step is a {@code mul}.
 */
public final class EinsumOps {
    private EinsumOps() {}

    private static final int LETTERS = 26;
    /** Subscripts 0..51 are the labels A-Z then a-z; this one is the ellipsis. */
    private static final int ELLIPSIS = 2 * LETTERS;

    private static boolean isLabel(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
    }

    private static int subscript(char c) {
        return c <= 'Z' ? c - 'A' : c - 'a' + LETTERS;
    }

    private static char label(int s) {
        return (char) (s < LETTERS ? 'A' + s : 'a' + s - LETTERS);
    }

    // ---- einsum ---------------------------------------------------------------------------------------

    /**
     * {@code einsum(equation, tensors)}: Einstein summation. Subscripts are letters; {@code ...} stands for the dims
     * not named (broadcast across operands); a letter repeated in one operand takes the diagonal; without {@code ->}
     * the output is the ellipsis dims then the letters used once, in alphabetical order. Spaces are ignored. Operands
     * are contracted left to right.
     */
    public static final OpDef EINSUM = OpDef.composite(
            "einsum(str equation, Tensor[] tensors) -> Tensor", args -> contract((String) args[0], (Tensor[]) args[1]));

    /** ATen's einsum: parse, align every operand to (output dims, contracted dims), then contract pairwise. */
    private static Tensor contract(String equation, Tensor[] operands) {
        if (operands.length == 0) throw new TorchException("einsum(): must provide at least one operand");
        int numOps = operands.length;
        int arrow = equation.indexOf("->");
        String lhs = arrow < 0 ? equation : equation.substring(0, arrow);
        List<List<Integer>> opLabels = parseOperands(lhs, numOps);

        int[] labelCount = new int[ELLIPSIS];
        int ellNumDim = 0; // the most dims any ellipsis covers
        for (int i = 0; i < numOps; i++) {
            int ndims = operands[i].dim(), nlabels = opLabels.get(i).size();
            boolean hasEllipsis = false;
            for (int s : opLabels.get(i)) {
                if (s == ELLIPSIS) {
                    nlabels--;
                    hasEllipsis = true;
                    ellNumDim = Math.max(ellNumDim, ndims - nlabels);
                } else {
                    labelCount[s]++;
                }
            }
            if (hasEllipsis ? nlabels > ndims : nlabels != ndims) {
                throw new TorchException("einsum(): the number of subscripts in the equation (" + nlabels
                        + (hasEllipsis
                                ? ") is more than the number of dimensions ("
                                : ") does not match the number of dimensions (")
                        + ndims + ") for operand " + i + (hasEllipsis ? "" : " and no ellipsis was given"));
            }
        }

        // Every label gets a place in the aligned shape: output dims first, then contracted dims.
        int[] labelPermIndex = new int[ELLIPSIS];
        Arrays.fill(labelPermIndex, -1);
        int permIndex = 0, ellIndex = 0;
        boolean ellInOutput = false;
        if (arrow < 0) {
            // Implicit output: the ellipsis dims, then the labels seen exactly once, in order.
            permIndex = ellNumDim;
            ellInOutput = true;
            for (int s = 0; s < ELLIPSIS; s++) if (labelCount[s] == 1) labelPermIndex[s] = permIndex++;
        } else {
            String rhs = equation.substring(arrow + 2);
            for (int i = 0; i < rhs.length(); i++) {
                char c = rhs.charAt(i);
                if (c == ' ') continue;
                if (c == '.') {
                    if (ellInOutput)
                        throw new TorchException(
                                "einsum(): found '.' for output but an ellipsis (...) was already found");
                    if (!(i + 2 < rhs.length() && rhs.charAt(++i) == '.' && rhs.charAt(++i) == '.')) {
                        throw new TorchException(
                                "einsum(): found '.' for output that is not part of any ellipsis (...)");
                    }
                    ellIndex = permIndex;
                    permIndex += ellNumDim;
                    ellInOutput = true;
                    continue;
                }
                if (!isLabel(c)) {
                    throw new TorchException("einsum(): invalid subscript given at index " + (lhs.length() + 2 + i)
                            + " in the equation string, subscripts must be in [a-zA-Z]");
                }
                int s = subscript(c);
                if (labelCount[s] == 0 || labelPermIndex[s] != -1) {
                    throw new TorchException("einsum(): output subscript " + c
                            + (labelPermIndex[s] > -1
                                    ? " appears more than once in the output"
                                    : " does not appear in the equation for any input operand"));
                }
                labelPermIndex[s] = permIndex++;
            }
        }
        int outNumDim = permIndex;
        if (!ellInOutput) {
            ellIndex = permIndex;
            permIndex += ellNumDim;
        }
        for (int s = 0; s < ELLIPSIS; s++)
            if (labelCount[s] > 0 && labelPermIndex[s] == -1) labelPermIndex[s] = permIndex++;

        // Check sizes, take diagonals for repeated labels, unsqueeze missing dims and permute every
        // operand to the aligned order; count per aligned dim how many operands have it non-trivially.
        long[] labelSize = new long[ELLIPSIS];
        Arrays.fill(labelSize, 1);
        long[] ellSizes = new long[ellNumDim];
        Arrays.fill(ellSizes, 1);
        long[] dimCounts = new long[permIndex];
        Deque<Tensor> ops = new ArrayDeque<>();
        for (int i = 0; i < numOps; i++) {
            Tensor op = operands[i];
            List<Integer> labels = opLabels.get(i);
            long[] permutation = new long[permIndex];
            Arrays.fill(permutation, -1);
            int dim = 0;
            for (int s : labels) {
                if (s == ELLIPSIS) {
                    int ndim = operands[i].dim() - (labels.size() - 1);
                    for (int j = ellNumDim - ndim; j < ellNumDim; j++) {
                        if (op.size(dim) != 1) {
                            if (ellSizes[j] != 1 && ellSizes[j] != op.size(dim)) {
                                throw new TorchException("einsum(): dimension " + dim
                                        + " covered by ellipsis in operand " + i + "has size "
                                        + op.size(dim)
                                        + " which does not broadcast with previously seen ellipsis with size "
                                        + ellSizes[j]
                                        + " for the respective dimension");
                            }
                            ellSizes[j] = op.size(dim);
                            dimCounts[ellIndex + j]++;
                        }
                        permutation[ellIndex + j] = dim++;
                    }
                } else if (permutation[labelPermIndex[s]] == -1) {
                    if (op.size(dim) != 1) {
                        if (labelSize[s] != 1 && labelSize[s] != op.size(dim)) {
                            throw new TorchException("einsum(): subscript " + label(s) + " has size " + op.size(dim)
                                    + " for operand " + i + " which does not broadcast with previously seen size "
                                    + labelSize[s]);
                        }
                        labelSize[s] = op.size(dim);
                        dimCounts[labelPermIndex[s]]++;
                    }
                    permutation[labelPermIndex[s]] = dim++;
                } else {
                    int prev = (int) permutation[labelPermIndex[s]];
                    if (op.size(dim) != op.size(prev)) {
                        throw new TorchException("einsum(): subscript " + label(s) + " is repeated for operand " + i
                                + " but the sizes don't match, " + op.size(dim) + " != " + op.size(prev));
                    }
                    op = ShapeOps.movedim(ShapeOps.diagonal(op, 0, prev, dim), -1, prev);
                }
            }
            for (int k = 0; k < permIndex; k++) {
                if (permutation[k] == -1) {
                    op = ShapeOps.unsqueeze(op, dim);
                    permutation[k] = dim++;
                }
            }
            ops.addLast(ShapeOps.PERMUTE.call1(op, permutation));
        }

        while (ops.size() > 1) {
            Tensor a = ops.removeFirst(), b = ops.removeFirst();
            // Dims to contract now: the last two operands having them; dims only one of a, b has are summed first.
            List<Long> sumDims = new ArrayList<>(), aDimsToSum = new ArrayList<>(), bDimsToSum = new ArrayList<>();
            for (int dim = outNumDim; dim < permIndex; dim++) {
                if (a.size(dim) != 1 && b.size(dim) != 1) {
                    if (--dimCounts[dim] == 1) {
                        sumDims.add((long) dim);
                        dimCounts[dim] = 0;
                    }
                } else if (dimCounts[dim] == 1) {
                    if (a.size(dim) != 1) {
                        aDimsToSum.add((long) dim);
                        dimCounts[dim] = 0;
                    } else if (b.size(dim) != 1) {
                        bDimsToSum.add((long) dim);
                        dimCounts[dim] = 0;
                    }
                }
            }
            if (!aDimsToSum.isEmpty()) a = ReductionOps.sum(a, longs(aDimsToSum), true);
            if (!bDimsToSum.isEmpty()) b = ReductionOps.sum(b, longs(bDimsToSum), true);
            ops.addFirst(sumProductPair(a, b, longs(sumDims)));
        }

        Tensor result = ops.getFirst();
        if (permIndex == outNumDim) return result;
        if (numOps > 1) {
            // Every contracted dim has size 1 by now: drop them with a view.
            return ShapeOps.view(result, Arrays.copyOf(result.impl().shapeRef(), outNumDim));
        }
        long[] sumDims = new long[permIndex - outNumDim];
        for (int k = 0; k < sumDims.length; k++) sumDims[k] = outNumDim + k;
        return ReductionOps.sum(result, sumDims, false);
    }

    /** The subscripts of each operand in the left-hand side, with ATen's messages for malformed equations. */
    private static List<List<Integer>> parseOperands(String lhs, int numOps) {
        List<List<Integer>> labels = new ArrayList<>();
        for (int i = 0; i < numOps; i++) labels.add(new ArrayList<>());
        int op = 0;
        boolean ellipsisSeen = false;
        for (int i = 0; i < lhs.length(); i++) {
            char c = lhs.charAt(i);
            switch (c) {
                case ' ' -> {}
                case '.' -> {
                    if (ellipsisSeen) {
                        throw new TorchException(
                                "einsum(): found '.' for operand " + op + " for which an ellipsis was already found");
                    }
                    if (!(i + 2 < lhs.length() && lhs.charAt(++i) == '.' && lhs.charAt(++i) == '.')) {
                        throw new TorchException(
                                "einsum(): found '.' for operand " + op + " that is not part of any ellipsis");
                    }
                    labels.get(op).add(ELLIPSIS);
                    ellipsisSeen = true;
                }
                case ',' -> {
                    if (++op >= numOps)
                        throw new TorchException(
                                "einsum(): fewer operands were provided than specified in the equation");
                    ellipsisSeen = false;
                }
                default -> {
                    if (!isLabel(c)) {
                        throw new TorchException("einsum(): invalid subscript given at index " + i
                                + " in the equation string, subscripts must be in [a-zA-Z]");
                    }
                    labels.get(op).add(subscript(c));
                }
            }
        }
        if (op != numOps - 1)
            throw new TorchException("einsum(): more operands were provided than specified in the equation");
        return labels;
    }

    private static long[] longs(List<Long> list) {
        long[] r = new long[list.size()];
        for (int i = 0; i < r.length; i++) r[i] = list.get(i);
        return r;
    }

    /**
     * ATen's {@code sumproduct_pair}: {@code (left * right).sum(sumDims, keepdim=True)} for operands of equal rank
     * (size-1 dims broadcast), as one {@code bmm} over the dims both have: left is permuted to (both, left only,
     * summed), right to (both, summed, right only).
     */
    private static Tensor sumProductPair(Tensor left, Tensor right, long[] sumDims) {
        if (left.dim() != right.dim()) throw new TorchException("number of dimensions must match");
        if (sumDims.length == 0) return PointwiseOps.MUL.call1(left, right);
        int dim = left.dim();
        boolean[] summed = new boolean[dim];
        for (long d : sumDims) summed[(int) d] = true;
        List<Long> lro = new ArrayList<>(), lo = new ArrayList<>(), ro = new ArrayList<>();
        long lroSize = 1, loSize = 1, roSize = 1, sumSize = 1;
        for (int i = 0; i < dim; i++) {
            boolean sl = left.size(i) != 1, sr = right.size(i) != 1;
            if (summed[i]) {
                if (sl && sr) {
                    if (left.size(i) != right.size(i)) throw new TorchException("non-broadcast dimensions must match");
                    sumSize *= left.size(i);
                } else if (sl) {
                    left = ReductionOps.sum(left, i, true);
                } else if (sr) {
                    right = ReductionOps.sum(right, i, true);
                }
            } else if (sl && sr) {
                if (left.size(i) != right.size(i)) throw new TorchException("non-broadcast dimensions must match");
                lro.add((long) i);
                lroSize *= left.size(i);
            } else if (sl) {
                lo.add((long) i);
                loSize *= left.size(i);
            } else {
                ro.add((long) i);
                roSize *= right.size(i);
            }
        }
        List<Long> sums = new ArrayList<>();
        for (long d : sumDims) sums.add(d);
        long[] outSize = new long[lro.size() + lo.size() + sums.size() + ro.size()];
        int k = 0;
        for (long d : lro) outSize[k++] = left.size((int) d);
        for (long d : lo) outSize[k++] = left.size((int) d);
        for (int i = 0; i < sums.size(); i++) outSize[k++] = 1;
        for (long d : ro) outSize[k++] = right.size((int) d);
        long[] lperm = concat(lro, lo, sums, ro), rperm = concat(lro, sums, ro, lo);
        long[] operm = new long[outSize.length];
        int p = 0;
        for (List<Long> group : List.of(lro, lo, sums, ro)) for (long d : group) operm[(int) d] = p++;
        Tensor l = ShapeOps.reshape(ShapeOps.PERMUTE.call1(left, lperm), lroSize, loSize, sumSize);
        Tensor r = ShapeOps.reshape(ShapeOps.PERMUTE.call1(right, rperm), lroSize, sumSize, roSize);
        Tensor result = ShapeOps.view(MatmulOps.bmm(l, r), outSize);
        return ShapeOps.PERMUTE.call1(result, operm);
    }

    @SafeVarargs
    private static long[] concat(List<Long>... groups) {
        int n = 0;
        for (List<Long> g : groups) n += g.size();
        long[] r = new long[n];
        int k = 0;
        for (List<Long> g : groups) for (long d : g) r[k++] = d;
        return r;
    }

    // ---- tensordot ------------------------------------------------------------------------------------

    /**
     * {@code tensordot(self, other, dims_self, dims_other)}: sums the products over the paired dims (a size-1 dim pairs
     * with any size); the result has self's other dims, then other's. One {@code mm}.
     */
    public static final OpDef TENSORDOT = OpDef.composite(
            "tensordot(Tensor self, Tensor other, int[] dims_self, int[] dims_other) -> Tensor", args -> {
                Tensor input1 = (Tensor) args[0], input2 = (Tensor) args[1];
                long[] dims1 = (long[]) args[2], dims2 = (long[]) args[3];
                if (dims1.length != dims2.length)
                    throw new TorchException("both dimension lists should have same length");
                if (input1.dtype() != input2.dtype()) throw new TorchException("both inputs should have same dtype");
                long csize = 1;
                Tensor t1 = input1, t2 = input2;
                for (int i = 0; i < dims1.length; i++) {
                    long s1 = input1.size((int) dims1[i]), s2 = input2.size((int) dims2[i]);
                    if (s2 == 1) {
                        t1 = ReductionOps.sum(t1, dims1[i], true);
                    } else if (s1 == 1) {
                        t2 = ReductionOps.sum(t2, dims2[i], true);
                    } else {
                        if (s1 != s2) {
                            throw new TorchException("contracted dimensions need to match, but first has size " + s1
                                    + " in dim " + dims1[i] + " and second has size " + s2 + " in dim " + dims2[i]);
                        }
                        csize *= s1;
                    }
                }
                boolean[] c1 = dimSet(dims1, input1.dim()), c2 = dimSet(dims2, input2.dim());
                long[] p1 = new long[input1.dim()], p2 = new long[input2.dim()];
                long[] rsizes = new long[input1.dim() + input2.dim() - 2 * dims1.length];
                long size1 = 1, size2 = 1;
                int k1 = 0, k2 = 0, r = 0;
                for (int i = 0; i < input1.dim(); i++) {
                    if (c1[i]) continue;
                    p1[k1++] = i;
                    size1 *= t1.size(i);
                    rsizes[r++] = t1.size(i);
                }
                for (long d : dims1) p1[k1++] = d;
                for (long d : dims2) p2[k2++] = d;
                for (int i = 0; i < input2.dim(); i++) {
                    if (c2[i]) continue;
                    p2[k2++] = i;
                    size2 *= t2.size(i);
                    rsizes[r++] = t2.size(i);
                }
                Tensor m1 = ShapeOps.reshape(ShapeOps.PERMUTE.call1(t1, p1), size1, csize);
                Tensor m2 = ShapeOps.reshape(ShapeOps.PERMUTE.call1(t2, p2), csize, size2);
                return ShapeOps.reshape(MatmulOps.mm(m1, m2), rsizes);
            });

    /** ATen's {@code dim_list_to_bitset}: the dims as a mask over a tensor's dims; a repeated dim is an error. */
    private static boolean[] dimSet(long[] dims, int rank) {
        boolean[] set = new boolean[rank];
        for (long d : dims) {
            int w = Shapes.wrapDim(d, rank);
            if (set[w]) throw new TorchException("dim " + w + " appears multiple times in the list of dims");
            set[w] = true;
        }
        return set;
    }

    private static long[] longs(int[] a) {
        long[] r = new long[a.length];
        for (int i = 0; i < a.length; i++) r[i] = a[i];
        return r;
    }

    // ---- entry points ---------------------------------------------------------------------------------

    /** {@code torch.einsum(equation, *operands)}. */
    public static Tensor einsum(String equation, Tensor... operands) {
        return EINSUM.call1(equation, operands.clone());
    }

    /** {@code torch.einsum(equation, operands)} with the operands as a list. */
    public static Tensor einsum(String equation, List<Tensor> operands) {
        return EINSUM.call1(equation, operands.toArray(Tensor[]::new));
    }

    /** {@code torch.tensordot(a, b)}: contracts the last two dims of {@code a} with the first two of {@code b}. */
    public static Tensor tensordot(Tensor a, Tensor b) {
        return tensordot(a, b, 2);
    }

    /**
     * {@code torch.tensordot(a, b, dims)}: contracts the last {@code dims} dims of {@code a} with the first
     * {@code dims} of {@code b}.
     */
    public static Tensor tensordot(Tensor a, Tensor b, int dims) {
        if (dims < 0) throw new TorchException("tensordot expects dims >= 0, but got dims=" + dims);
        if (dims > Math.min(a.dim(), b.dim()))
            throw new TorchException("tensordot expects dims < ndim_a or ndim_b, but got dims=" + dims);
        long[] dimsA = new long[dims], dimsB = new long[dims];
        for (int i = 0; i < dims; i++) {
            dimsA[i] = i - dims;
            dimsB[i] = i;
        }
        return TENSORDOT.call1(a, b, dimsA, dimsB);
    }

    /**
     * {@code torch.tensordot(a, b, dims=(dimsA, dimsB))}: contracts {@code dimsA[i]} of {@code a} with {@code dimsB[i]}
     * of {@code b}.
     */
    public static Tensor tensordot(Tensor a, Tensor b, int[] dimsA, int[] dimsB) {
        return TENSORDOT.call1(a, b, longs(dimsA), longs(dimsB));
    }
}
