/**
 * ONNX export ({@code torch.onnx.export}): {@link org.jtorch.onnx.Onnx#export} writes a module or an exported program
 * as an ONNX model (default opset 20, as PyTorch 2.13's exporter), weights as initializers, optional dynamic axes, and
 * external data for models over protobuf's 2 GB limit.
 */
package org.jtorch.onnx;
