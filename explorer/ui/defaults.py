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
#: The page width (CSS pixels) the explorer's figures are laid out for: a panel larger than its share of it
#: is shown as a labelled overview (a wider window zooms the panels up by whole factors; a narrower one
#: scrolls).  1300 fits Voila at 1400 pixels and more.
LAYOUT_WIDTH = 1300
#: The tallest a panel's pixels may be, before any zoom (taller arrays are shown as overviews or cut).
PANEL_HEIGHT = 420
