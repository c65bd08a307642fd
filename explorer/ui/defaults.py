"""What the explorer starts with, shared by the views and the app's state.

>>> DEFAULT_CROP
(0.4375, 0.4375, 0.5625, 0.5625)
"""

#: The zoomed crop, (top, left, bottom, right) as fractions of the input: the central eighth.
DEFAULT_CROP = (0.4375, 0.4375, 0.5625, 0.5625)
#: The region the "rectangle" upstream gradient covers, as fractions of the output.
DEFAULT_RECT = (0.25, 0.25, 0.75, 0.75)
#: The upstream gradients dL/dy the Gradients view offers, with what each is.
UPSTREAMS = {
    "ones": "all ones: the gradient of sum(y)",
    "mse": "the gradient of ½‖y − t‖², t = the image resized with antialiased Lanczos-3",
    "random": "standard normal noise (seeded)",
    "rectangle": "ones inside a rectangle of the output, zeros elsewhere",
}
