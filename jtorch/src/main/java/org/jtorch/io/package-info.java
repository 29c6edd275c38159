/**
 * Checkpoints: {@code torch.save} / {@code torch.load} ({@link org.jtorch.io.Serialization}) in PyTorch's zip format
 * and the legacy pre-1.6 format, with the weights-only loading model of PyTorch 2.15.
 *
 * <p>API layer: imports {@code org.jtorch} (value types), {@code org.jtorch.storage}, {@code org.jtorch.ops} and
 * {@code org.jtorch.dispatch}; nothing imports this package. Every reader here treats its input as hostile: lengths,
 * offsets and shapes are checked before anything is allocated, and a damaged file gives a
 * {@link org.jtorch.TorchException}. Pickled Python values map to Java as: dict → {@code LinkedHashMap},
 * {@code collections.OrderedDict} → {@link org.jtorch.io.PyOrderedDict}, list → {@code ArrayList}, tuple →
 * {@link org.jtorch.io.PyTuple}, str → {@code String}, int → {@code Long} (or {@code BigInteger}), float →
 * {@code Double}, bool → {@code Boolean}, None → {@code null}, bytes → {@code byte[]}, set → {@code LinkedHashSet},
 * complex → {@link org.jtorch.io.PyComplex}, dtypes → {@link org.jtorch.DType}, tensors and parameters →
 * {@link org.jtorch.Tensor}.
 */
package org.jtorch.io;
