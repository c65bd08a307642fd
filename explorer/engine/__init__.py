"""The resampling engine: a :class:`Spec` becomes one banded weight matrix per axis, applied by one contraction.

The whole flow::

    Spec  (spec.py: a convention, in ONNX Resize words; kernels.py and coords.py are its tables)
      -> AxisPlan per resized axis  (plan.py: the taps and weights of every output sample, as a Band; cached)
      -> execute(x, plans, transpose=...)  (execute.py: forward, or the transposed bands for the backward)

``resize``/``resize_backward`` (resize.py) run that flow on any axes of any array.  ``fixed_point.py`` holds
the integer (uint8) resampling some libraries use instead of a float contraction; ``memory.py`` and
``threads.py`` the limits every contraction respects.
"""

from .execute import execute
from .plan import AxisPlan, axis_plan, weights
from .resize import axis_plans, resize, resize_backward
from .spec import Spec

__all__ = ["Spec", "AxisPlan", "axis_plan", "weights", "axis_plans", "execute", "resize", "resize_backward"]
