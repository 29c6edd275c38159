/**
 * Autograd: records a {@link org.jtorch.autograd.Node} per differentiable op and runs the ops' backward rules (written
 * in differentiable tensor ops, so gradients of any order come free). Imports ops, dispatch, kernels and storage;
 * nothing above it.
 */
package org.jtorch.autograd;
