/**
 * {@code torch.nn.utils}: gradient clipping ({@code clip_grad_norm_}, {@code clip_grad_value_}) and the conversions
 * between a module's parameters and one flat vector ({@code parameters_to_vector}, {@code vector_to_parameters}).
 */
package org.jtorch.nn.utils;
